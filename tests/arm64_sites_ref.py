#!/usr/bin/env python3
"""arm64_sites_ref.py VMLINUX CONFIG JSONL - the attach step of fentry on an
arm64 vmlinux, worked out independently of btfids, against the verdicts
btfids printed (`btfids models --all --verdicts VMLINUX` > JSONL).

Independent of btfids' code: the ELF through ../shared/realdata's reader,
and the facts btfids infers from the image taken from the build's own
config (Debian's, tests/fetch-6.1) instead:
  - the records: every word of [__start_mcount_loc, __stop_mcount_loc),
    the R_AARCH64_RELATIVE addend where .rela.dyn relocates it (a -pie
    image holds 0 there), 0 skipped; then ftrace_call_adjust() as the
    config builds it (arch/arm64/include/asm/ftrace.h in 6.1,
    arch/arm64/kernel/ftrace.c from 6.4): DYNAMIC_FTRACE_WITH_CALL_OPS:
    entry + 8, + 4 over a BTI when ARM64_BTI_KERNEL, + 4;
    DYNAMIC_FTRACE_WITH_REGS or _ARGS alone: entry + 4;
  - kallsyms: the symbols of executable sections that scripts/mksysmap's
    sed lines keep (mapping symbols $x/$d, local labels, __crc_ and the
    like go), all of them with KALLSYMS_ALL, else those in [_stext,
    _etext) and [_sinittext, _einittext); a name's lowest address, a function's size up to the next
    symbol (kallsyms_lookup_size_offset()); ftrace_location() wants a
    record in it, none left in [__init_begin, __init_end) after boot;
  - register_fentry() (kernel/bpf/trampoline.c): a record and no
    DYNAMIC_FTRACE_WITH_DIRECT_CALLS is ENOTSUPP ("no-direct-call"); no
    record is bpf_arch_text_poke(), BPF text only on arm64, ENOTSUPP
    ("no-ftrace-site"); else taken.
Only functions btfids judged at that step (fentry taken, no-ftrace-site or
no-direct-call) are compared: the steps before it are other tests'.
Prints one line: "arm64 sites: N judged at the attach step, S with a record,
T taken, D differ" and exits 1 when any differ (the first few listed).
"""
import bisect
import json
import re
import os
import struct
import sys

sys.path.insert(0, os.environ.get('BTFIDS_REALDATA', os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'realdata')))

import btfids_elf  # noqa: E402

SHT_PROGBITS, SHT_RELA = 1, 4
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
R_AARCH64_RELATIVE = 1027


# scripts/mksysmap (7.3): the names link-vmlinux.sh keeps from kallsyms
MKSYSMAP = re.compile(r'^(\$|\.L|__efistub_|__pi_\$|__pi_\.L|__kvm_nvhe_\$|__kvm_nvhe_\.L|'
                      r'__kcfi_typeid_|__kvm_nvhe___kcfi_typeid_|__pi___kcfi_typeid_|__crc_|'
                      r'__kstrtab_|__kstrtabns_|__mod_device_table__|__UNIQUE_ID_modinfo_[0-9]*$|L0$)'
                      r'|__[A-Za-z0-9]*Thunk_|_from_arm$|_from_thumb$|_veneer$|'
                      r'\.long_branch\.|\.plt_branch\.')


def config(path):
    on = set()
    for line in open(path):
        if line.startswith('CONFIG_') and line.rstrip().endswith('=y'):
            on.add(line.split('=')[0][len('CONFIG_'):])
    return on


def read_va(elf, addr, size):
    for s in elf.sections:
        if s['type'] == SHT_PROGBITS and s['addr'] <= addr and addr + size <= s['addr'] + s['size']:
            return elf.read(s['off'] + addr - s['addr'], size)
    raise ValueError('no section holds %#x' % addr)


def relatives(elf):
    out = {}
    for s in elf.sections:
        if s['type'] != SHT_RELA or not s['flags'] & SHF_ALLOC:
            continue
        data = elf.read(s['off'], s['size'])
        for i in range(0, len(data), 24):
            off, info, addend = struct.unpack_from('<QQq', data, i)
            if info & 0xffffffff == R_AARCH64_RELATIVE:
                out[off] = addend & (1 << 64) - 1
    return out


def is_bti(insn):
    return insn & ~(3 << 6) == 0xd503241f


def main():
    elf = btfids_elf.Elf(sys.argv[1])
    cfg = config(sys.argv[2])
    syms = elf.symbols()
    val = {}
    for s in syms:
        val.setdefault(s['name'], s['value'])
    execs = {s['idx'] for s in elf.sections
             if s['type'] == SHT_PROGBITS and s['flags'] & SHF_EXECINSTR}
    ranges = [(val['_stext'], val['_etext']), (val['_sinittext'], val['_einittext'])]
    ksyms, every = {}, set()
    for s in syms:
        t = s['info'] & 0xf
        if s['shndx'] not in execs or not s['name'] or t in (3, 4) or MKSYSMAP.search(s['name']):
            continue
        if 'KALLSYMS_ALL' not in cfg and not any(a <= s['value'] < b for a, b in ranges):
            continue
        every.add(s['value'])
        if s['name'] not in ksyms or s['value'] < ksyms[s['name']]:
            ksyms[s['name']] = s['value']
    addrs = sorted(every)

    rel = relatives(elf)
    a, b = val['__start_mcount_loc'], val['__stop_mcount_loc']
    raw = read_va(elf, a, b - a)
    records = []
    for i in range(0, b - a, 8):
        e = rel.get(a + i, struct.unpack_from('<Q', raw, i)[0])
        if not e:
            continue
        if 'DYNAMIC_FTRACE_WITH_CALL_OPS' in cfg:
            if e % 8:
                continue
            e += 8
            insn = struct.unpack('<I', read_va(elf, e, 4))[0]
            if 'ARM64_BTI_KERNEL' in cfg and is_bti(insn):
                e += 4
            e += 4
        elif cfg & {'DYNAMIC_FTRACE_WITH_REGS', 'DYNAMIC_FTRACE_WITH_ARGS'}:
            e += 4
        records.append(e)
    records.sort()
    direct = 'DYNAMIC_FTRACE_WITH_DIRECT_CALLS' in cfg
    init = (val['__init_begin'], val['__init_end'])

    judged = with_site = taken = 0
    differ = []
    for line in open(sys.argv[3]):
        m = json.loads(line)
        v = m.get('verdicts', {}).get('fentry')
        if not v:
            continue
        said = 'taken' if v['taken'] else v['reason']
        if said not in ('taken', 'no-ftrace-site', 'no-direct-call'):
            continue
        addr = ksyms.get(m['name'])
        if addr is None:
            differ.append('%s: btfids said %s, kallsyms has no such name' % (m['name'], said))
            continue
        judged += 1
        k = bisect.bisect_right(addrs, addr)
        end = addrs[k] if k < len(addrs) else 1 << 64
        r = bisect.bisect_left(records, addr)
        site = r < len(records) and records[r] < end and not init[0] <= addr < init[1]
        with_site += site
        want = ('taken' if direct else 'no-direct-call') if site else 'no-ftrace-site'
        taken += want == 'taken'
        if want != said:
            differ.append('%s: btfids %s, the kernel\'s rules %s' % (m['name'], said, want))
    print('arm64 sites: %d judged at the attach step, %d with a record, %d taken, %d differ'
          % (judged, with_site, taken, len(differ)))
    for d in differ[:5]:
        print('  ' + d)
    sys.exit(1 if differ or not judged else 0)


if __name__ == '__main__':
    main()
