#!/usr/bin/env python3
"""tramp2_check.py TABLE BTF [--elf ELF] [--rules 7.2|7.3] [--fixture] - check
a v2 trampoline table (<elf>.BTF_tramp of the 7.x flow) against the format
and the rules of its specification (issue 18, "Trampoline table format v2"),
with readers of its own: the table by struct, the BTF by tests/btf7_check.py,
the crc32 by Python's zlib. Not btfids' code.

  TABLE      the table file
  BTF        the .BTF bytes it says it was built from (<elf>.BTF)
  --elf      the ELF it is for: its e_machine must be the header's
  --rules    the release's model rules (default 7.3)
  --fixture  also the hand-written expectations of image7t
             (tests/fixtures/src/tramp7.c, kfuncs7.c)

Prints "ok: ..." (sizes and counts) and exits 0, or one line per failure
and exits 1.
"""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import btf7_check  # noqa: E402 (its BTF reader)

MAGIC = 0x50525442
HDR, CLASS = 32, 56
# enum btf_tramp_reason, in the note's (and the kernel header's) order
REASONS = ['ok', 'too-many-args', 'ret-unsupported', 'variadic', 'arg-unsupported',
           'void-arg', 'no-trampoline', 'too-many-slots', 'struct-on-stack',
           'arch-too-many-args', 'struct-arg', 'unresolved']
# e_machine of the 64-bit targets with a BPF trampoline (x86_64, aarch64,
# s390x, riscv64, ppc64, loongarch64)
TRAMP64 = {62, 183, 22, 243, 21, 258}
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
    return cond


def parse_class(b):
    return {'ret_size': b[0], 'ret_flags': b[1], 'nr_args': b[2], 'nr_slots': b[3],
            'arg_size': list(b[4:16]), 'arg_flags': list(b[16:28]),
            'attachable': b[28], 'reason': b[29], 'distilled': b[30], 'reserved': b[31],
            'loc': [tuple(b[32 + 2 * i:34 + 2 * i]) for i in range(12)]}


def read_table(t, e):
    h = struct.unpack_from(e + 'IHHIIIHHIHH', t, 0)
    magic, ver, mach, crc, nf, nc, csz, maxs, size, nv, vsz = h
    hdr = dict(magic=magic, version=ver, machine=mach, crc=crc, nr_funcs=nf, nr_classes=nc,
               class_size=csz, max_slots=maxs, size=size, nr_verdicts=nv, verdict_size=vsz)
    return hdr


# version 3's verdicts: per attach type (fentry, fexit, fmod_ret, fentry.multi,
# fexit.multi) a refusal (0 taken, 1..11 a reason, 0xff not judged: 10 is
# ambiguous-name, 11 same-call-site, the patched kernel's), a step
# (1 load, 2 attach, 3 link) and an errno (u16)
VERDICT, NR_ATTACH, NR_REFUSALS, NOT_JUDGED = 20, 5, 12, 0xff


def parse_verdict(b, e):
    return [struct.unpack_from(e + 'BBH', b, 4 * a) for a in range(NR_ATTACH)]


def verdict_ok(v):
    for r, step, err in v:
        if r in (0, NOT_JUDGED):
            if step or err:
                return False
        elif r >= NR_REFUSALS or not 1 <= step <= 3 or not err:
            return False
    return True


def elf_machine(path):
    d = open(path, 'rb').read(20)
    e = '<' if d[5] == 1 else '>'
    return struct.unpack_from(e + 'H', d, 18)[0], d[4]


def generic(t, btf_bytes, e, machine):
    h = read_table(t, e)
    check(h['magic'] == MAGIC, 'magic %#x' % h['magic'])
    check(h['version'] in (2, 3), 'version %d' % h['version'])
    v3 = h['version'] == 3
    if machine is not None:
        check(h['machine'] == machine, 'machine %d, the ELF is %d' % (h['machine'], machine))
    check(h['class_size'] == CLASS, 'class_size %d' % h['class_size'])
    if v3:
        check(h['verdict_size'] == VERDICT, 'verdict_size %d' % h['verdict_size'])
    else:
        check(h['nr_verdicts'] == 0 and h['verdict_size'] == 0,
              'version 2 with verdicts: %d of %d bytes' % (h['nr_verdicts'], h['verdict_size']))
    check(h['size'] == len(t), 'size %d, the file is %d bytes' % (h['size'], len(t)))
    nf, nc, nv = h['nr_funcs'], h['nr_classes'], h['nr_verdicts']
    per = 8 if v3 else 6
    want = (HDR + nc * CLASS + nv * VERDICT + nf * per + 3) // 4 * 4
    if not check(want == len(t) and nc <= 65535,
                 'layout: 32 + %d*56 + %d*20 + %d*%d rounded to 4 is %d, not %d' %
                 (nc, nv, nf, per, want, len(t))):
        return None
    check(h['crc'] == zlib.crc32(btf_bytes),
          'btf_crc32 %#x, zlib.crc32 of the BTF file %#x' % (h['crc'], zlib.crc32(btf_bytes)))
    classes = [t[HDR + i * CLASS:HDR + (i + 1) * CLASS] for i in range(nc)]
    voff = HDR + nc * CLASS
    verdicts = [t[voff + i * VERDICT:voff + (i + 1) * VERDICT] for i in range(nv)]
    off = voff + nv * VERDICT
    ids = list(struct.unpack_from(e + '%dI' % nf, t, off))
    cls = list(struct.unpack_from(e + '%dH' % nf, t, off + 4 * nf))
    fv = list(struct.unpack_from(e + '%dH' % nf, t, off + 6 * nf)) if v3 else []
    if v3:
        check(all(k < nv for k in fv), 'a func_verdict >= nr_verdicts')
        check(len(set(verdicts)) == nv, 'verdicts not distinct: %d distinct of %d' %
              (len(set(verdicts)), nv))
        h['verdicts'] = [parse_verdict(v, e) for v in verdicts]
        for i, v in enumerate(h['verdicts']):
            check(verdict_ok(v), 'verdict %d out of range: %r' % (i, v))
        h['func_verdict'] = fv
    pad = t[off + per * nf:]
    check(all(x == 0 for x in pad) and len(pad) < 4, 'padding %r' % pad)
    check(all(ids[i] < ids[i + 1] for i in range(nf - 1)) and (not ids or ids[0] > 0),
          'func_id not strictly ascending from 1')
    check(all(c < nc for c in cls), 'a func_class >= nr_classes')
    check(len(set(classes)) == nc, 'classes not distinct: %d distinct of %d' %
          (len(set(classes)), nc))
    first = []
    for c in cls:
        if c not in first:
            first.append(c)
    check(first == list(range(nc)), 'classes not in the order of their first function')
    model = [parse_class(c) for c in classes]
    for i, m in enumerate(model):
        ok = (m['nr_args'] <= 12 and max(m['arg_size']) <= 16 and m['reason'] < len(REASONS)
              and m['attachable'] == (m['reason'] == 0) and m['distilled'] in (0, 1)
              and m['reserved'] == 0)
        check(ok, 'class %d out of range: %r' % (i, m))
        if not m['attachable']:
            check(all(p == (0xff, 0xff) for p in m['loc']), 'class %d: a location, not attachable' % i)
    att = [m['nr_slots'] for m in model if m['attachable']]
    check(h['max_slots'] == max(att or [0]), 'max_slots %d, the classes say %d' %
          (h['max_slots'], max(att or [0])))
    return h, ids, cls, model


def by_name(b, ids, cls, model):
    T = b['types']
    names = {}
    for i, c in zip(ids, cls):
        if T[i][0] == btf7_check.KIND_FUNC:
            names[btf7_check.name(b, T[i][1])] = (i, c, model[c])
    return names


def fixture(f, machine, elf_class, rules):
    """image7t: tests/fixtures/src/tramp7.c and kfuncs7.c, by the kernel's rules."""
    L = 8 if elf_class == 2 else 4		# sizeof(long), the pointer size
    tramp = machine in TRAMP64 and elf_class == 2
    ok_reason = 0 if tramp else REASONS.index('no-trampoline')

    def cl(n):
        return f[n][1] if check(n in f, '%s: not in the table' % n) else None

    def m(n):
        return f[n][2] if n in f else None

    for a, b in (('fx7t_same_a', 'fx7t_same_b'), ('fx7_fast', 'fx7_twice'),
                 ('fx7t_variadic', 'fx7t_variadic2')):
        check(cl(a) == cl(b), '%s and %s: identical prototypes, classes %s and %s' %
              (a, b, cl(a), cl(b)))
    check(cl('fx7t_same_a') != cl('fx7t_unsigned'), 'fx7t_unsigned shares a signed class')
    for n, r in (('fx7t_variadic', 'variadic'), ('fx7t_thirteen', 'too-many-args'),
                 ('fx7t_ret_struct', 'ret-unsupported'), ('fx7t_big_arg', 'arg-unsupported'),
                 ('fx7t_same_a', REASONS[ok_reason]), ('fx7t_pair_arg', REASONS[ok_reason])):
        if n in f:
            check(REASONS[m(n)['reason']] == r, '%s: reason %s, want %s' %
                  (n, REASONS[m(n)['reason']], r))
    sa = m('fx7t_same_a')
    if sa:
        check((sa['distilled'], sa['nr_args'], sa['arg_size'][:2], sa['arg_flags'][:2],
               sa['ret_size'], sa['ret_flags']) == (1, 2, [4, L], [2, 2], L, 2),
              'fx7t_same_a (int, long) -> long: %r' % sa)
    check(m('fx7t_unsigned') and m('fx7t_unsigned')['arg_flags'][:2] == [0, 2],
          'fx7t_unsigned: arg_flags want [0, 2]')
    pa = m('fx7t_pair_arg')
    want = [0, 2] if rules == '7.3' else [1, 2]	# 7.3: no STRUCT_ARG
    if pa:
        check(pa['arg_size'][:2] == [2 * L, L] and pa['arg_flags'][:2] == want,
              'fx7t_pair_arg: sizes %r flags %r, want %r %r' %
              (pa['arg_size'][:2], pa['arg_flags'][:2], [2 * L, L], want))
    if machine == 62:	# x86_64: rdi, rsi for the struct, rdx; 7 + 7 slots > 12
        check(pa and pa['loc'][:2] == [(0, 1), (2, 0xff)], 'fx7t_pair_arg x86_64 loc %r' %
              (pa and pa['loc'][:2]))
        w = m('fx7t_wide')
        check(w and REASONS[w['reason']] == 'too-many-slots', 'fx7t_wide: want too-many-slots')
    ap = m('fx7_arena_param')
    want = [2, 4, 12] if rules == '7.3' else [2, 0, 0]	# 7.3: by the param's name
    check(ap and ap['arg_flags'][:3] == want, 'fx7_arena_param: arg_flags %r, want %r' %
          (ap and ap['arg_flags'][:3], want))
    if rules == '7.3':	# KF_IMPLICIT_ARGS: modelled on <name>_impl
        for k in ('fx7_implicit', 'fx7_legacy'):
            check(cl(k) == cl(k + '_impl'), '%s: not the class of %s_impl' % (k, k))
        check(m('fx7_implicit') and m('fx7_implicit')['nr_args'] == 3, 'fx7_implicit: want 3 args')
    else:
        check(m('fx7_implicit') and m('fx7_implicit')['nr_args'] == 2,
              'fx7_implicit (7.2): its own shortened proto, 2 args')


def main():
    args = sys.argv[1:]
    elf, rules, fx = None, '7.3', False
    while len(args) > 2:
        a = args.pop(0)
        if a == '--elf':
            elf = args.pop(0)
        elif a == '--rules':
            rules = args.pop(0)
        elif a == '--fixture':
            fx = True
        else:
            args.insert(0, a)
            break
    tpath, bpath = args[-2], args[-1]
    t, btf_bytes = open(tpath, 'rb').read(), open(bpath, 'rb').read()
    e = '<' if struct.unpack_from('<H', btf_bytes, 0)[0] == 0xEB9F else '>'
    machine, elf_class = elf_machine(elf) if elf else (None, 2)
    if len(t) < HDR:
        print('table of %d bytes: shorter than its header' % len(t))
        return 1
    res = generic(t, btf_bytes, e, machine)
    if res:
        h, ids, cls, model = res
        b = btf7_check.parse(btf_bytes)
        T = b['types']
        funcs = [i for i in range(1, len(T)) if T[i][0] == btf7_check.KIND_FUNC]
        check(ids == funcs, 'func_id is not every FUNC of the BTF once: %d ids, %d FUNCs, %d missing' %
              (len(ids), len(funcs), len(set(funcs) - set(ids))))
        f = by_name(b, ids, cls, model)
        impl = {n for n in f if n + '_impl' in f} if rules == '7.3' else set()
        proto = {}
        for n, (i, c, _) in f.items():
            if n not in impl:
                proto.setdefault(T[i][4], set()).add(c)
        same = [p for p, cs in proto.items() if len(cs) > 1]
        check(not same, '%d FUNC_PROTOs whose FUNCs have different classes' % len(same))
        if fx:
            fixture(f, machine, elf_class, rules)
    if FAILS:
        print('\n'.join(FAILS))
        return 1
    att = sum(1 for c in cls if model[c]['attachable'])
    per = 8 if h['version'] == 3 else 6
    print('ok: %d functions (%d attachable), %d classes, %d verdicts, %d bytes: %.2f a function, '
          '%d + %.2f for the classes and verdicts' %
          (h['nr_funcs'], att, h['nr_classes'], h['nr_verdicts'], h['size'],
           h['size'] / max(h['nr_funcs'], 1), per,
           (h['size'] - per * h['nr_funcs']) / max(h['nr_funcs'], 1)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
