#!/usr/bin/env python3
"""btf7_check.py RULES BTF [BASE] - check a 7.x flow's output BTF of the
image7 fixture (tests/fixtures/src/kfuncs7.c) against the kernel's rules
(tools/bpf/resolve_btfids/main.c of 7.2 and 7.3, kernel-7x-flow.md), with
a BTF reader of its own (Python standard library only), not btfids' code.

RULES is 7.2 or 7.3. Prints one line per failed rule and exits 1, or
prints "ok N rules" and exits 0.
"""
import struct
import sys

KIND_PTR, KIND_STRUCT, KIND_TYPEDEF, KIND_FUNC, KIND_PROTO = 2, 4, 8, 12, 13
KIND_DECL_TAG, KIND_TYPE_TAG = 17, 18


def parse(data, base=None):
    e = '<' if struct.unpack_from('<H', data, 0)[0] == 0xEB9F else '>'
    hdr_len, toff, tlen, soff, slen = struct.unpack_from(e + 'IIIII', data, 4)
    strs = data[hdr_len + soff:hdr_len + soff + slen]
    t = data[hdr_len + toff:hdr_len + toff + tlen]
    types = list(base['types']) if base else [None]	# id 0: void
    str_base = base['str_size'] if base else 0
    all_strs = (base['strs'] if base else b'') + strs
    off = 0
    sizes = {1: 4, 3: 12, 4: None, 5: None, 6: 8, 13: 8, 14: 4, 15: 12, 17: 4, 19: 12}
    while off < len(t):
        name_off, info, st = struct.unpack_from(e + 'III', t, off)
        off += 12
        kind, vlen, kflag = (info >> 24) & 0x1f, info & 0xffff, info >> 31
        extra = []
        if kind in (4, 5):
            off += 12 * vlen
        elif kind == 13:
            extra = [struct.unpack_from(e + 'II', t, off + 8 * i) for i in range(vlen)]
            off += 8 * vlen
        elif kind == 17:
            extra = struct.unpack_from(e + 'i', t, off)[0]
            off += 4
        elif kind in (6, 15, 19):
            off += sizes[kind] * vlen
        elif kind in (1, 3, 14):
            off += sizes[kind]
        types.append((kind, name_off, vlen, kflag, st, extra))
    return {'types': types, 'strs': all_strs, 'str_size': str_base + len(strs),
            'start': len(base['types']) if base else 1}


def name(b, off):
    return b['strs'][off:b['strs'].index(b'\0', off)].decode()


def main():
    rules, path = sys.argv[1], sys.argv[2]
    base = parse(open(sys.argv[3], 'rb').read()) if len(sys.argv) > 3 else None
    b = parse(open(path, 'rb').read(), base)
    T = b['types']
    fails = []
    n = 0

    def check(cond, what):
        nonlocal n
        n += 1
        if not cond:
            fails.append(what)

    own = range(b['start'], len(T))
    names = [name(b, T[i][1]) for i in own]
    check(all(names[i] <= names[i + 1] for i in range(len(names) - 1)),
          'own types sorted by name, anonymous first')
    funcs = {name(b, T[i][1]): i for i in own if T[i][0] == KIND_FUNC}
    tags = {}
    for i in own:
        if T[i][0] == KIND_DECL_TAG:
            tags.setdefault(T[i][4], []).append((name(b, T[i][1]), T[i][5], T[i][3]))

    def params(func):
        proto = T[T[funcs[func]][4]]
        return [name(b, p[0]) for p in proto[5]]

    def arena(tid):
        t = T[tid]
        if not t or t[0] != KIND_PTR:
            return False
        a = T[t[4]]
        return a is not None and a[0] == KIND_TYPE_TAG and a[3] == 1 and name(b, a[1]) == 'address_space(1)'

    # implicit args: _impl keeps the original proto and every tag but bpf_kfunc
    check('fx7_implicit_impl' in funcs, 'fx7_implicit_impl added')
    if 'fx7_implicit_impl' in funcs:
        check(params('fx7_implicit_impl') == ['a', 'o', 'aux'], '_impl keeps the original proto')
        check(params('fx7_implicit') == ['a', 'o'], 'kfunc proto shortened, names kept')
        it = sorted(tags.get(funcs['fx7_implicit_impl'], []))
        check(it == [('fx7_arg', 1, 0), ('fx7_attr', -1, 1), ('fx7_note', -1, 0)],
              '_impl has fx7_note, fx7_arg (component 1), fx7_attr (kflag): %s' % it)
    check(params('fx7_implicit_meta') == ['a'], 'params after the first implicit one dropped')
    check(params('fx7_legacy') == ['a'] and params('fx7_legacy_impl') == ['a', 'aux'],
          'existing _impl: only the proto rewritten')
    check(list(funcs).count('fx7_legacy_impl') == 1, 'existing _impl not added twice')
    if rules == '7.3':
        for f in ('fx7_implicit', 'fx7_fast', 'fx7_arena_ret', 'fx7_twice', 'fx7_plain'):
            check(('bpf_kfunc', -1, 0) in tags.get(funcs[f], []), '%s has a bpf_kfunc tag' % f)
        check(tags.get(funcs['fx7_fast'], []).count(('bpf_fastcall', -1, 0)) == 1,
              'fx7_fast has one bpf_fastcall tag')
        ret = T[T[funcs['fx7_arena_ret']][4]][4]
        check(arena(ret), 'KF_ARENA_RET: return is an arena pointer')
        pa = T[T[funcs['fx7_arena_args']][4]][5]
        check(arena(pa[0][1]) and arena(pa[1][1]) and not arena(pa[2][1]) if len(pa) == 3 else False,
              'KF_ARENA_ARG1/ARG2: the first two params are arena pointers')
        pp = T[T[funcs['fx7_arena_param']][4]][5]
        check([arena(p[1]) for p in pp] == [False, True, True], '__arena params tagged by name')
    for f in fails:
        print('FAIL: ' + f)
    if not fails:
        print('ok %d rules' % n)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
