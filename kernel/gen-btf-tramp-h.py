#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gen-btf-tramp-h.py [--check | --block] [SRC [DEST]] - the kernel's
include/linux/btf_tramp.h format block, made from btfids' one description.

SRC (default include/btfids/tramp.h) holds the trampoline table format
between the lines "/* ---- btf_tramp format: begin ..." and
"/* ---- btf_tramp format: end ---- */". This script copies that block
into DEST (default kernel/btf_tramp.h, the header the kernel series
carries as include/linux/btf_tramp.h) in kernel style: btf_tramp_u8/u16/u32
become u8/u16/u32. Everything outside the block in DEST (the kernel's own
declarations) is kept; a DEST that does not exist yet gets a skeleton
around the block.

  --check  write nothing; exit 1 (and say so) when DEST's block is not what
           SRC makes, 0 when it is
  --block  print the kernel block alone on stdout

The block must stay declarations only: #define, enum and struct, comments;
no #include, #if, typedef or code (the kernel header provides the types
through <linux/types.h>). Anything else there is refused, so the kernel
header never gets user-space constructs.
"""
import os
import re
import sys

BEGIN = '/* ---- btf_tramp format: begin'
END = '/* ---- btf_tramp format: end ---- */'
KBEGIN = ('/* ---- btf_tramp format: begin (generated from btfids\' '
          'include/btfids/tramp.h) ---- */')
KEND = '/* ---- btf_tramp format: end ---- */'

SKELETON = '''/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampoline table of vmlinux (.BTF_tramp): every BTF FUNC of vmlinux
 * BTF with the index of its func model class, built at link time by the
 * tool that resolves .BTF_ids (btfids) and linked beside .BTF by
 * scripts/gen-btf.sh. The format block below is generated from btfids'
 * include/btfids/tramp.h by its kernel/gen-btf-tramp-h.py: change it
 * there, not here.
 */
#ifndef _LINUX_BTF_TRAMP_H
#define _LINUX_BTF_TRAMP_H

#include <linux/types.h>

%s

/* The image's table (include/asm-generic/vmlinux.lds.h) */
extern const u8 __start_BTF_tramp[];
extern const u8 __stop_BTF_tramp[];

#endif /* _LINUX_BTF_TRAMP_H */
'''


def fail(msg):
    sys.stderr.write('gen-btf-tramp-h.py: %s\n' % msg)
    sys.exit(2)


def between(text, begin, end, what):
    """The lines from the one starting with @begin to the one that is @end."""
    lines = text.split('\n')
    starts = [i for i, l in enumerate(lines) if l.startswith(begin)]
    ends = [i for i, l in enumerate(lines) if l == end]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        fail('%s: want one "%s..." line and, after it, one "%s" line' % (what, begin, end))
    return starts[0], ends[0], lines


def check_decls(body, what):
    """Refuse what a kernel header must not get from user space."""
    code = re.sub(r'/\*.*?\*/', '', body, flags=re.S)
    for n, line in enumerate(code.split('\n'), 1):
        s = line.strip()
        if re.match(r'#\s*(include|if|ifdef|ifndef|else|elif|endif|undef|pragma)\b', s):
            fail('%s: block line %d: "%s": only #define belongs in the format block' % (what, n, s))
        if re.search(r'\b(typedef|static|inline|extern|uint\d+_t|size_t|__KERNEL__)\b', s):
            fail('%s: block line %d: "%s": declarations of the format only' % (what, n, s))
    for n, line in enumerate(body.split('\n'), 1):
        if len(line.expandtabs(8)) > 100:
            fail('%s: block line %d is over 100 columns (checkpatch)' % (what, n))


def kernel_block(src_text, src):
    a, b, lines = between(src_text, BEGIN, END, src)
    body = '\n'.join(lines[a + 1:b])
    check_decls(body, src)
    body = re.sub(r'\bbtf_tramp_u(8|16|32)\b', r'u\1', body)
    if 'btf_tramp_u' in body:
        fail('%s: a btf_tramp_u* type the script does not know' % src)
    # field comments were aligned for the longer type names: realign them
    out = []
    for line in body.split('\n'):
        m = re.match(r'^(\t[^/\t]+?;)\t+(/\*.*)$', line)
        if m:
            col = len(m.group(1).expandtabs(8))
            want = 32 if col < 32 else (col // 8 + 1) * 8
            line = m.group(1) + '\t' * max(1, (want - col + 7) // 8) + m.group(2)
        out.append(line)
    return KBEGIN + '\n' + '\n'.join(out) + '\n' + KEND


def main():
    args = sys.argv[1:]
    mode = None
    if args and args[0] in ('--check', '--block'):
        mode = args.pop(0)
    if len(args) > 2 or any(a.startswith('-') for a in args):
        fail(__doc__.split('\n')[0])
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = args[0] if args else os.path.join(top, 'include/btfids/tramp.h')
    dest = args[1] if len(args) > 1 else os.path.join(top, 'kernel/btf_tramp.h')
    try:
        block = kernel_block(open(src).read(), src)
    except OSError as e:
        fail('%s: %s' % (src, e.strerror))
    if mode == '--block':
        print(block)
        return 0
    if os.path.exists(dest):
        old = open(dest).read()
        a, b, lines = between(old, BEGIN, END, dest)
        new = '\n'.join(lines[:a] + [block] + lines[b + 1:])
    else:
        old, new = None, SKELETON % block
    if mode == '--check':
        if old != new:
            sys.stderr.write('gen-btf-tramp-h.py: %s: the format block is not what %s makes '
                             '(run kernel/gen-btf-tramp-h.py)\n' % (dest, src))
            return 1
        return 0
    if old != new:
        with open(dest + '.tmp', 'w') as f:
            f.write(new)
        os.rename(dest + '.tmp', dest)
    return 0


if __name__ == '__main__':
    sys.exit(main())
