#!/usr/bin/env python3
"""models61_ref.py VMLINUX [BTFIDS_JSONL]: the Linux 6.1 function models of
every BTF FUNC of an x86-64 or arm64 6.1 vmlinux, written straight from the
6.1 tree (Debian linux-source-6.1, 6.1.192), not from btfids' code:

  kernel/bpf/btf.c btf_distill_func_proto(), __get_type_size(),
      btf_type_is_modifier(), __btf_type_is_struct() (STRUCT only):
      > MAX_BPF_FUNC_ARGS (12) params, then the return (size < 0 or a
      struct), then per param: variadic (last, type 0), size < 0 or > 16,
      size 0; arg_flags = BTF_FMODEL_STRUCT_ARG for a struct, nothing else;
      include/linux/bpf.h struct btf_func_model has no ret_flags.
  arch/x86/net/bpf_jit_comp.c arch_prepare_bpf_trampoline(): nr_regs =
      nr_args + (arg_size + 7) / 8 - 1 for every arg; > 6 is -ENOTSUPP;
      save_regs() stores min(nr_regs, 6) registers, rdi..r9, in order.
  arch/arm64/net/bpf_jit_comp.c arch_prepare_bpf_trampoline(): nargs > 8 is
      -ENOTSUPP, then any STRUCT_ARG is -ENOTSUPP; save_args() stores x0..x(n-1).

With BTFIDS_JSONL (`btfids models --all VMLINUX`), compares every field
(attachable, reason, nr_args, ret_size, ret_flags, arg_size, arg_flags,
slots, loc) and prints "models61: <arch>: N functions, D differ" and the
first differences by category; exit 1 when any differ. The reason names
are btfids' (btfids-models(1)): the x86-64 -ENOTSUPP, a count of
8-byte slots, is too-many-slots; arm64's is arch-too-many-args or
struct-arg.
Uses ../shared/realdata/btf.py and btfids_elf.py (standard library only).
"""
import collections
import json
import os
import struct
import sys

sys.path.insert(0, os.environ.get('BTFIDS_REALDATA', os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared',
    'realdata')))
import btf as btfmod  # noqa: E402
import btfids_elf  # noqa: E402

EM_X86_64, EM_AARCH64 = 62, 183
INT, PTR, STRUCT, ENUM, FUNC, PROTO, ENUM64 = 1, 2, 4, 6, 12, 13, 19
MODIFIERS = (8, 9, 10, 11, 18)	# typedef volatile const restrict type_tag
MAX_BPF_FUNC_ARGS = 12


def type_size(b, tid):
    """__get_type_size(): (size or -1, kind of the type it ends at)."""
    if tid == 0:
        return 0, None
    t = b.type(tid)
    while t[0] in MODIFIERS:
        if t[3] == 0:
            return -1, 0	# btf_void: not ptr/int/enum/struct
        t = b.type(t[3])
    kind = t[0]
    if kind == PTR:
        return 8, kind		# sizeof(void *) of a 64-bit kernel
    if kind in (INT, ENUM, ENUM64, STRUCT):
        return t[3], kind
    return -1, kind


def distill(b, proto):
    """btf_distill_func_proto(): (reason or None, model dict or None)."""
    params = proto[4] or []
    n = len(params)
    if n > MAX_BPF_FUNC_ARGS:
        return 'too-many-args', None
    ret, kind = type_size(b, proto[3])
    if ret < 0 or kind == STRUCT:
        return 'ret-unsupported', None
    m = {'nr_args': n, 'ret_size': ret, 'ret_flags': 0, 'arg_size': [], 'arg_flags': []}
    for i, (_, ptype) in enumerate(params):
        if i == n - 1 and ptype == 0:
            return 'variadic', None
        size, kind = type_size(b, ptype)
        if size < 0 or size > 16:
            return 'arg-unsupported', None
        if size == 0:
            return 'void-arg', None
        m['arg_size'].append(size)
        m['arg_flags'].append(1 if kind == STRUCT else 0)
    m['slots'] = sum((s + 7) // 8 for s in m['arg_size'])
    return None, m


def place_x86_64(m):
    nr_regs = m['nr_args'] + sum((s + 7) // 8 - 1 for s in m['arg_size'])
    if nr_regs > 6:
        return 'too-many-slots', None
    loc, r = [], 0
    for s in m['arg_size']:
        k = (s + 7) // 8
        loc.append('+'.join('r:%d' % (r + j) for j in range(k)))
        r += k
    return None, loc


def place_arm64(m):
    if m['nr_args'] > 8:
        return 'arch-too-many-args', None
    if any(f & 1 for f in m['arg_flags']):
        return 'struct-arg', None
    # save_args(): one register per argument, x0..x(nargs-1)
    return None, ['r:%d' % i for i in range(m['nr_args'])]


def models(path):
    elf = btfids_elf.Elf(path)
    machine = struct.unpack_from(elf.end + 'H', elf.raw, 18)[0]	# e_machine
    place = {EM_X86_64: place_x86_64, EM_AARCH64: place_arm64}[machine]
    b = btfmod.from_elf(elf)
    out = {}
    for i, t in enumerate(b.types):
        if t[0] != FUNC:
            continue
        tid = b.start_id + i
        rec = {'name': b.name(t[1]), 'id': tid}
        reason, m = distill(b, b.type(t[3]))
        loc = None
        if m:
            reason, loc = place(m)
            rec.update(m)
        rec['attachable'] = reason is None
        if reason:
            rec['reason'] = reason
        if loc is not None:
            rec['loc'] = loc
        out[tid] = rec
    return ('x86_64' if machine == EM_X86_64 else 'arm64'), out


FIELDS = ('name', 'attachable', 'reason', 'nr_args', 'ret_size', 'ret_flags', 'arg_size',
          'arg_flags', 'slots', 'loc')


def main():
    arch, ref = models(sys.argv[1])
    if len(sys.argv) < 3:
        for tid in sorted(ref):
            print(json.dumps(ref[tid]))
        return 0
    got = {}
    with open(sys.argv[2]) as f:
        for line in f:
            m = json.loads(line)
            got[m['id']] = m
    cats = collections.Counter()
    first = {}
    for tid in sorted(set(ref) | set(got)):
        r, g = ref.get(tid, {}), got.get(tid, {})
        bad = [k for k in FIELDS if r.get(k) != g.get(k)]
        if not bad:
            continue
        key = '%s: kernel %s, btfids %s' % ('/'.join(bad), r.get('reason', 'attachable'),
                                            g.get('reason', 'attachable'))
        cats[key] += 1
        first.setdefault(key, r.get('name', g.get('name')))
    n = sum(cats.values())
    print('models61: %s: %d functions, %d differ' % (arch, len(ref), n))
    for key, c in cats.most_common(12):
        print('  %6d  %s (e.g. %s)' % (c, key, first[key]))
    return 1 if n else 0


if __name__ == '__main__':
    sys.exit(main())
