#!/usr/bin/env python3
"""tramp_table.py - the host side of tests/boot/tramp.c (tests/boot-tramp.sh):
the v2 trampoline table of a vmlinux read from its bytes by
tests/tramp2_check.py's reader (not btfids'), and the altered images.

  list VMLINUX OUT   write OUT for the guest, "id name class attachable
                     distilled denied" a function, in func_id order (denied:
                     in the image's resolved btf_id_deny set, which the
                     verifier refuses to trace: EINVAL); print
                     "nr_funcs nr_classes size crc32 refused_funcs
                     refused_classes probe_class probe_funcs denied
                     nr_verdicts"
                     (crc32: zlib's, of the .BTF section, as 8 hex digits;
                     probe_class: the attachable class the probe alters)
  alter VMLINUX crc  flip the header's btf_crc32: a table of another .BTF
  alter VMLINUX verdict
                     give verdict 0's fentry the refusal 200, which no
                     kernel knows: the kernel must refuse the table
  alter VMLINUX class K
                     mark class K not attachable, reason too-many-slots (an
                     arch's refusal: it stays distilled), no locations: the
                     table stays valid and its crc32 right (it covers .BTF)

The wrong tables of tests/boot-trust.sh: each alters one class K (or moves
one function) so that the table stays valid, its crc32 right and the class
self-consistent (nr_slots, locations and the header's max_slots follow the
new model: what a btfids that lags the kernel would write), but its model is
not the kernel's:
  alter VMLINUX size K     class K's last argument 16 bytes (two slots)
  alter VMLINUX flags K    class K's first argument's signed flag flipped
  alter VMLINUX count K    class K without its last argument
  alter VMLINUX ret K      class K's return void (or 8 bytes when void)
  alter VMLINUX refused K  class K, one the kernel cannot model (not
                     distilled), made attachable with a plausible model (its
                     named arguments, as the class keeps them), and its
                     functions' verdicts one that takes tracing_multi
  alter VMLINUX move ID K  the function of BTF id ID put in class K (one
                     class holding two models)
  alter VMLINUX unmodelled K  class K, attachable, marked one the kernel
                     cannot model (not distilled, reason variadic, no
                     locations; its fields kept but nr_args 0, as btfids
                     writes such classes)

The layout is the note's (issue 18, "Trampoline table format v2"); the
section's file offset comes from readelf, its bytes from objcopy.
Exits 1 with a message naming the file when the table is not readable.
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import btf7_check  # noqa: E402
import tramp2_check  # noqa: E402

CRC_OFF = 8		# struct btf_tramp2_hdr.btf_crc32
ATTACHABLE = 28		# struct btf_tramp_class.attachable, then reason
LOC = 32		# struct btf_tramp_class.loc[12][2]
TOO_MANY_SLOTS = tramp2_check.REASONS.index('too-many-slots')
PROBE_MAX = 64		# functions of the probe class at most: each is tried alone


def section(vmlinux, name):
    """The bytes of section @name (empty when it has none)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'section')
        r = subprocess.run(['objcopy', '-O', 'binary', '--only-section=' + name, vmlinux, out],
                           capture_output=True, text=True)
        if r.returncode or not os.path.exists(out):
            sys.exit('%s: objcopy cannot read it: %s' % (vmlinux, r.stderr.strip()))
        return open(out, 'rb').read()


def section_offset(vmlinux, name):
    out = subprocess.run(['readelf', '-SW', vmlinux], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace('[ ', '[').split()
        if len(f) > 5 and f[1] == name:
            return int(f[4], 16)
    sys.exit('%s: no %s section' % (vmlinux, name))


def btf_sets(vmlinux, *names):
    """The type IDs of each resolved BTF_SET of @names in .BTF_ids (u32 cnt,
    then cnt u32 IDs, at symbol __BTF_ID__set__<name>:
    include/linux/btf_ids.h), from nm's addresses and the section's bytes,
    read once; a list of sets in @names' order, empty for a set the image
    does not have."""
    out = subprocess.run(['nm', vmlinux], capture_output=True, text=True).stdout
    syms = {f[2]: int(f[0], 16) for f in (line.split() for line in out.splitlines())
            if len(f) == 3}
    if not any('__BTF_ID__set__' + n in syms for n in names):
        return [set() for _ in names]
    base = None
    for line in subprocess.run(['readelf', '-SW', vmlinux], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.replace('[ ', '[').split()
        if len(f) > 5 and f[1] == '.BTF_ids':
            base = int(f[3], 16)
    data = section(vmlinux, '.BTF_ids')
    return [one_set(vmlinux, data, base, n, syms.get('__BTF_ID__set__' + n)) for n in names]


def one_set(vmlinux, data, base, name, addr):
    if addr is None:
        return set()
    off = addr - base if base is not None else -1
    if off < 0 or off + 4 > len(data):
        sys.exit('%s: set %s is outside .BTF_ids' % (vmlinux, name))
    cnt, = struct.unpack_from('<I', data, off)
    if off + 4 + 4 * cnt > len(data):
        sys.exit('%s: set %s: %d IDs overrun .BTF_ids' % (vmlinux, name, cnt))
    return set(struct.unpack_from('<%dI' % cnt, data, off + 4))


def probe_class(model, cls, max_slots):
    """The attachable class of most functions, PROBE_MAX at most, below
    max_slots (so the altered table's max_slots stays true); the first
    such in class order."""
    count = [0] * len(model)
    for c in cls:
        count[c] += 1
    best = None
    for k, m in enumerate(model):
        if (m['attachable'] and m['nr_slots'] < max_slots and count[k] <= PROBE_MAX and
                (best is None or count[k] > count[best])):
            best = k
    return best, count[best] if best is not None else 0


def do_list(vmlinux, out):
    t, btf = section(vmlinux, '.BTF_tramp'), section(vmlinux, '.BTF')
    machine, _ = tramp2_check.elf_machine(vmlinux)
    res = tramp2_check.generic(t, btf, '<', machine) if len(t) >= tramp2_check.HDR else None
    if not res:
        sys.exit('%s: .BTF_tramp is not a v2 table: %s' %
                 (vmlinux, '; '.join(tramp2_check.FAILS) or 'shorter than its header'))
    h, ids, cls, model = res
    b = btf7_check.parse(btf)
    deny, = btf_sets(vmlinux, 'btf_id_deny')
    with open(out, 'w') as f:
        for i, c in zip(ids, cls):
            f.write('%d %s %d %d %d %d\n' % (i, btf7_check.name(b, b['types'][i][1]), c,
                                            model[c]['attachable'], model[c]['distilled'],
                                            i in deny))
    refused = [k for k, m in enumerate(model) if not m['attachable']]
    nref = sum(1 for c in cls if not model[c]['attachable'])
    pc, pn = probe_class(model, cls, h['max_slots'])
    print(h['nr_funcs'], h['nr_classes'], h['size'], '%08x' % zlib.crc32(btf), nref,
          len(refused), pc, pn, sum(1 for i in ids if i in deny), h['nr_verdicts'])


def do_alter(vmlinux, what, arg):
    off = section_offset(vmlinux, '.BTF_tramp')
    with open(vmlinux, 'r+b') as fp:
        fp.seek(off)
        h = tramp2_check.read_table(fp.read(tramp2_check.HDR), '<')
        if what == 'crc':
            fp.seek(off + CRC_OFF)
            fp.write(struct.pack('<I', h['crc'] ^ 0xffffffff))
            return
        if what == 'verdict':	# verdict 0's fentry: a refusal no kernel knows
            if h['nr_verdicts'] == 0:
                sys.exit('%s: no verdicts to alter (a version 2 table)' % vmlinux)
            fp.seek(off + tramp2_check.HDR + h['nr_classes'] * tramp2_check.CLASS)
            fp.write(bytes([200]))
            return
        k = int(arg)
        if k >= h['nr_classes']:
            sys.exit('%s: class %d: the table has %d' % (vmlinux, k, h['nr_classes']))
        c = off + tramp2_check.HDR + k * tramp2_check.CLASS
        fp.seek(c + ATTACHABLE)
        fp.write(bytes([0, TOO_MANY_SLOTS]))
        fp.seek(c + LOC)
        fp.write(b'\xff' * 24)


SIGNED = 2		# BTF_FMODEL_SIGNED_ARG
WRONG = ('size', 'flags', 'count', 'ret', 'refused', 'unmodelled')
VARIADIC = tramp2_check.REASONS.index('variadic')
X86_REGS = 6		# argument registers of x86_64 (the boots' machine)
LOC_STACK = 0x80	# a location's stack bit (include/btfids/tramp.h)


def relocate(c):
    """Class bytes @c (a bytearray): nr_slots and the locations from its
    arguments, x86_64's way (an argument in registers while it fits, else
    on the stack)."""
    reg = stack = 0
    c[LOC:LOC + 24] = b'\xff' * 24
    for i in range(c[2]):
        n = (c[4 + i] + 7) // 8
        for part in range(n):
            if reg + n <= X86_REGS:
                c[LOC + 2 * i + part] = reg + part
            else:
                c[LOC + 2 * i + part] = LOC_STACK | (stack + part)
        if reg + n <= X86_REGS:
            reg += n
        else:
            stack += n
    c[3] = sum((c[4 + i] + 7) // 8 for i in range(c[2]))


def wrong_class(vmlinux, what, c):
    """Class bytes @c (a bytearray) made wrong by @what, in place."""
    nr = c[2]
    if what != 'refused' and not (c[28] and c[30]):
        sys.exit('%s: %s: the class is not attachable' % (vmlinux, what))
    if what == 'size':
        if not nr:
            sys.exit('%s: size: the class has no argument' % vmlinux)
        c[4 + nr - 1] = 16
    elif what == 'flags':
        if not nr:
            sys.exit('%s: flags: the class has no argument' % vmlinux)
        c[16] ^= SIGNED
    elif what == 'count':
        if not nr:
            sys.exit('%s: count: the class has no argument' % vmlinux)
        c[2] = nr - 1
        c[4 + nr - 1] = c[16 + nr - 1] = 0
    elif what == 'ret':
        c[0], c[1] = (0, 0) if c[0] else (8, 0)
    elif what == 'refused':
        if c[30] or c[28]:
            sys.exit('%s: refused: the class is modelled already' % vmlinux)
        # the named arguments the class keeps (a variadic function's)
        nr = next((i for i in range(12) if not c[4 + i]), 12)
        if not nr:
            sys.exit('%s: refused: the class keeps no argument to model' % vmlinux)
        c[2] = nr
        c[28], c[29], c[30] = 1, 0, 1
    elif what == 'unmodelled':
        c[2] = 0
        c[28], c[29], c[30] = 0, VARIADIC, 0
        c[LOC:LOC + 24] = b'\xff' * 24
        return
    relocate(c)


def do_wrong(vmlinux, what, args):
    off = section_offset(vmlinux, '.BTF_tramp')
    with open(vmlinux, 'r+b') as fp:
        fp.seek(off)
        h = tramp2_check.read_table(fp.read(tramp2_check.HDR), '<')
        nc, nf, nv = h['nr_classes'], h['nr_funcs'], h['nr_verdicts']
        fp.seek(off)
        t = bytearray(fp.read(h['size']))
    k = args[-1]
    if k >= nc:
        sys.exit('%s: class %d: the table has %d' % (vmlinux, k, nc))
    cls_off = tramp2_check.HDR
    ver_off = cls_off + nc * tramp2_check.CLASS
    ids_off = ver_off + nv * tramp2_check.VERDICT
    fc_off = ids_off + 4 * nf
    fv_off = fc_off + 2 * nf
    ids = struct.unpack_from('<%dI' % nf, t, ids_off)
    fc = list(struct.unpack_from('<%dH' % nf, t, fc_off))
    if what == 'move':
        if args[0] not in ids:
            sys.exit('%s: move: no function of BTF id %d' % (vmlinux, args[0]))
        i = ids.index(args[0])
        if fc[i] == k:
            sys.exit('%s: move: BTF id %d is in class %d already' % (vmlinux, args[0], k))
        struct.pack_into('<H', t, fc_off + 2 * i, k)
    else:
        c = bytearray(t[cls_off + k * tramp2_check.CLASS:cls_off + (k + 1) * tramp2_check.CLASS])
        wrong_class(vmlinux, what, c)
        t[cls_off + k * tramp2_check.CLASS:cls_off + (k + 1) * tramp2_check.CLASS] = c
        if what == 'refused' and h['version'] == 3:
            # a verdict that takes both tracing_multi types, for its functions
            take = next((v for v in range(nv)
                         if all(t[ver_off + v * tramp2_check.VERDICT + 4 * a] == 0
                                for a in (3, 4))), None)
            if take is None:
                sys.exit('%s: refused: no verdict takes tracing_multi' % vmlinux)
            for i in range(nf):
                if fc[i] == k:
                    struct.pack_into('<H', t, fv_off + 2 * i, take)
    # the header's max_slots: the most slots of any attachable class
    struct.pack_into('<H', t, 22, max(t[cls_off + j * tramp2_check.CLASS + 3]
                                      for j in range(nc)
                                      if t[cls_off + j * tramp2_check.CLASS + 28]))
    with open(vmlinux, 'r+b') as fp:
        fp.seek(off)
        fp.write(t)


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == 'list':
        do_list(a[1], a[2])
    elif len(a) in (3, 4) and a[0] == 'alter' and a[2] in ('crc', 'class', 'verdict'):
        do_alter(a[1], a[2], a[3] if len(a) == 4 else None)
    elif len(a) == 4 and a[0] == 'alter' and a[2] in WRONG:
        do_wrong(a[1], a[2], [int(a[3])])
    elif len(a) == 5 and a[0] == 'alter' and a[2] == 'move':
        do_wrong(a[1], a[2], [int(a[3]), int(a[4])])
    else:
        sys.exit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main())
