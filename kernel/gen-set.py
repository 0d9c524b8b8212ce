#!/usr/bin/env python3
"""gen-set.py BTFIDS VMLINUX [N] - write kernel/bpf/btf_tramp_set.c for the
patch series: one trampoline set, BTF_TRAMP_SET_START(tracing_multi), of at
least N (default 1200) functions of an x86-64 vmlinux built from the same
tree and config as the patched kernel (kbuild-tiny 7.3).

Picked so that the boot test can ask for "attaches exactly when the table
says attachable":
  - names of one BTF FUNC only (BTF_ID() cannot tell the others apart);
  - every function btfids' models (`btfids models --all`) refuse, and every
    one with an argument over 8 bytes, a struct or union by value, more than
    6 slots (stack arguments);
  - the other attachable ones only where ftrace can attach: the function has
    an __mcount_loc entry, is not in .init.text, has a name that is unique
    in the symbol table (kallsyms_lookup_name() takes the first of a name)
    and is not in the verifier's btf_id_deny set;
  - then every K-th of the remaining traceable functions, up to N.
Prints the C file on stdout; the shapes it covers on stderr.
"""
import bisect
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests'))
from btf7_check import parse  # noqa: E402  (the tests' own BTF reader)

DENY = {'___migrate_enable', 'migrate_disable', 'migrate_enable', 'rcu_read_unlock_strict',
        'preempt_count_add', 'preempt_count_sub', '__rcu_read_lock', '__rcu_read_unlock'}
ALWAYS = ['vfs_read', 'vfs_write', 'ksys_read', 'ksys_write', 'do_sys_openat2']


def sections(path):
    out = subprocess.run(['readelf', '-SW', path], capture_output=True, text=True,
                         check=True).stdout
    secs = {}
    for line in out.splitlines():
        f = line.replace('[ ', '[').split()
        if len(f) > 5 and f[0].startswith('[') and f[0] != '[Nr]':
            secs[f[1]] = (int(f[3], 16), int(f[4], 16), int(f[5], 16))  # addr, off, size
    return secs


def symbols(path):
    """(sorted function starts, their (name, size)), name counts, data symbols."""
    out = subprocess.run(['nm', '-S', path], capture_output=True, text=True, check=True).stdout
    funcs, count, data = [], {}, {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in 'tT':
            funcs.append((int(f[0], 16), f[3], int(f[1], 16)))
        if len(f) >= 3:
            count[f[-1]] = count.get(f[-1], 0) + 1
            data[f[-1]] = int(f[0], 16)
    funcs.sort()
    return funcs, count, data


def file_bytes(path, secs, addr, size):
    for a, off, sz in secs.values():
        if a and a <= addr and addr + size <= a + sz:
            with open(path, 'rb') as fp:
                fp.seek(off + addr - a)
                return fp.read(size)
    raise SystemExit('gen-set: %x not in any section' % addr)


def traceable(path, secs, funcs, data):
    """Names of functions with an __mcount_loc entry."""
    start, stop = data['__start_mcount_loc'], data['__stop_mcount_loc']
    raw = file_bytes(path, secs, start, stop - start)
    starts = [f[0] for f in funcs]
    names = set()
    for (loc,) in struct.iter_unpack('<Q', raw):
        i = bisect.bisect_right(starts, loc) - 1
        if i >= 0 and loc < funcs[i][0] + max(funcs[i][2], 1):
            names.add(funcs[i][1])
    return names


def by_value_kinds(btf_bytes):
    """FUNC name -> set of 'struct'/'union' passed by value."""
    b = parse(btf_bytes)
    T = b['types']

    def strip(tid):
        while tid and T[tid][0] in (8, 9, 10, 11, 18):	# typedef, volatile, const, restrict, type_tag
            tid = T[tid][4]
        return tid
    out = {}
    for t in T[1:]:
        if t[0] != 12:
            continue
        proto = T[t[4]]
        kinds = set()
        for _, ptype in proto[5]:
            k = T[strip(ptype)][0] if strip(ptype) else 0
            if k in (4, 5):
                kinds.add('struct' if k == 4 else 'union')
        name = b['strs'][t[1]:b['strs'].index(b'\0', t[1])].decode()
        out[name] = kinds
    return out


def main():
    btfids, vmlinux = sys.argv[1], sys.argv[2]
    want = int(sys.argv[3]) if len(sys.argv) > 3 else 1200
    secs = sections(vmlinux)
    funcs, count, data = symbols(vmlinux)
    init = secs['.init.text']
    in_init = {f[1] for f in funcs if init[0] <= f[0] < init[0] + init[2]}
    ok = traceable(vmlinux, secs, funcs, data) - in_init - DENY
    ok = {n for n in ok if count.get(n) == 1}
    _, boff, bsize = secs['.BTF']
    with open(vmlinux, 'rb') as fp:
        fp.seek(boff)
        byval = by_value_kinds(fp.read(bsize))
    models = [json.loads(line) for line in subprocess.run(
        [btfids, 'models', '--all', '--kernel', '7.3', vmlinux], capture_output=True,
        text=True, check=True).stdout.splitlines()]
    nfunc = {}
    for m in models:
        nfunc[m['name']] = nfunc.get(m['name'], 0) + 1
    picked, shapes, rest = [], {}, []
    for m in models:
        n = m['name']
        if nfunc[n] > 1:	# a name BTF_ID() cannot tell apart
            continue
        sizes = m.get('arg_size', [])
        shape = set(byval.get(n, ()))
        if not m['attachable']:
            shape.add('refused:' + m.get('reason', '?'))
        if any(s > 8 for s in sizes):
            shape.add('16-byte')
        if m.get('slots', 0) > 6:
            shape.add('stack')
        if not m['attachable'] or (n in ok and (shape or n in ALWAYS)):
            picked.append(n)
            for s in shape or {'plain'}:
                shapes[s.split(':')[0]] = shapes.get(s.split(':')[0], 0) + 1
        elif n in ok:
            rest.append(m)
    k = max(1, len(rest) // max(1, want - len(picked)))
    for m in rest[::k]:
        if len(picked) >= want:
            break
        picked.append(m['name'])
        if m.get('ret_size', 1) == 0:
            shapes['void-ret'] = shapes.get('void-ret', 0) + 1
        if any(f & 2 for f in m.get('arg_flags', [])):
            shapes['signed-arg'] = shapes.get('signed-arg', 0) + 1
        if any(s == 8 for s in m.get('arg_size', [])):
            shapes['8-byte'] = shapes.get('8-byte', 0) + 1
        if m.get('ret_flags', 0) & 2:
            shapes['signed-ret'] = shapes.get('signed-ret', 0) + 1
    picked.sort()
    print('// SPDX-License-Identifier: GPL-2.0')
    print('/*')
    print(' * The trampoline table tracing_multi reads (include/linux/btf_tramp.h):')
    print(' * %d functions of an x86-64 tinyconfig + BPF + BTF + ftrace build, picked' % len(picked))
    print(' * by btfids kernel/gen-set.py to cover every model shape (pointer, int,')
    print(' * signed, 16-byte, struct and union by value, stack arguments, void')
    print(' * return) and every refusal. A name missing from another config stays')
    print(' * unresolved (BTF id 0) and is never attachable.')
    print(' */')
    print('#include <linux/btf_tramp.h>')
    print()
    print('BTF_TRAMP_SET_START(tracing_multi)')
    for n in picked:
        print('BTF_ID(func, %s)' % n)
    print('BTF_TRAMP_SET_END(tracing_multi)')
    print('gen-set: %d functions; %s' % (len(picked), ', '.join(
        '%s %d' % kv for kv in sorted(shapes.items()))), file=sys.stderr)


if __name__ == '__main__':
    main()
