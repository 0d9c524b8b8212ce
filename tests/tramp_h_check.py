#!/usr/bin/env python3
"""tramp_h_check.py OURS KERNEL [BLOCK] - do btfids' include/btfids/tramp.h
(OURS) and the kernel's include/linux/btf_tramp.h (KERNEL: the header, or a
directory of the kernel series whose patches create it) describe one
trampoline table format? With BLOCK (kernel/gen-btf-tramp-h.py --block's
output), the kernel header's format block must also be that text: made by
the script, not edited.

The names come from the headers' text: every BTF_TRAMP* constant, the
BTF_TRAMP*SIZE / *IDX function-like macros, the enumerators of enum
btf_tramp_reason and the fields of every struct btf_tramp*. Their values
come from the host compiler: one small C program per header prints each
constant, each macro at sample arguments, and for every struct its size and
per field its offset, size, element size and signedness. The two outputs
must agree on every name both headers define; a format name only one of
them has is a difference, and a kernel header with the v2 table (struct
btf_tramp2_hdr) must have every name of OURS's format block.

Prints "same: ..." and exits 0, or the differences and exits 1.
"""
import os
import re
import subprocess
import sys
import tempfile

BEGIN = '/* ---- btf_tramp format: begin'
END = '/* ---- btf_tramp format: end ---- */'
API_ENUMS = ('btf_tramp2_status',)	# the consumer API's, not the format's


def series_header(d, tmp):
    """include/linux/btf_tramp.h as the series in @d makes it, or None."""
    out = os.path.join(tmp, 'tree')
    os.makedirs(os.path.join(out, 'include/linux'), exist_ok=True)
    found = False
    for p in sorted(os.listdir(d)):
        if not re.match(r'\d{4}-.*\.patch$', p) or p.startswith('0000-'):
            continue
        text = open(os.path.join(d, p)).read()
        m = re.search(r'^diff --git a/include/linux/btf_tramp.h b/include/linux/btf_tramp.h\n'
                      r'.*?(?=^diff --git |^-- \n|\Z)', text, re.S | re.M)
        if not m:
            continue
        found = True
        r = subprocess.run(['patch', '-s', '-p1', '-d', out], input=m.group(0), text=True,
                           capture_output=True)
        if r.returncode:
            sys.exit('tramp_h_check: %s: its btf_tramp.h hunks do not apply: %s' % (p, r.stdout))
    return os.path.join(out, 'include/linux/btf_tramp.h') if found else None


def strip_comments(t):
    return re.sub(r'/\*.*?\*/', ' ', t, flags=re.S)


def names(text):
    """consts, sized macros {name: nargs}, enumerators, {struct: [fields]}"""
    t = strip_comments(text)
    consts = set(re.findall(r'^#define\s+(BTF_TRAMP\w*)[ \t]+\S', t, re.M))
    macros = {n: len(a.split(',')) for n, a in
              re.findall(r'^#define\s+(BTF_TRAMP\w*(?:SIZE|IDX))\(([^)]*)\)', t, re.M)}
    enums = []
    for name, body in re.findall(r'enum\s+(btf_tramp\w*)\s*\{(.*?)\}', t, re.S):
        if name not in API_ENUMS:
            enums += re.findall(r'^\s*(BTF_TRAMP\w+)', body, re.M)
    structs = {}
    for name, body in re.findall(r'struct\s+(btf_tramp\w*)\s*\{(.*?)\};', t, re.S):
        structs[name] = re.findall(r'(\w+)\s*(?:\[[^\]]*\])*\s*;', body)
    return consts, macros, enums, structs


def program(include, consts, macros, enums, structs, extra):
    out = ['#include <stddef.h>', '#include <stdio.h>', include,
           '#define P(n, v) printf("%s %lld\\n", n, (long long)(v))', 'int main(void)', '{']
    for c in sorted(consts):
        out.append('\tP("%s", %s);' % (c, c))
    for m, n in sorted(macros.items()):
        for args in ([0] * n, [1] * n, list(range(3, 3 + n)), [65535] + [100000] * (n - 1)):
            out.append('\tP("%s(%s)", %s(%s));' % (m, ', '.join(map(str, args)), m,
                                                    ', '.join('%dULL' % x for x in args)))
    for e in enums:
        out.append('\tP("%s", %s);' % (e, e))
    for s, fields in sorted(structs.items()):
        out.append('\tP("sizeof(struct %s)", sizeof(struct %s));' % (s, s))
        for f in fields:
            out.append('\tP("%s.%s offset", offsetof(struct %s, %s));' % (s, f, s, f))
            out.append('\tP("%s.%s size", sizeof(((struct %s *)0)->%s));' % (s, f, s, f))
    return '\n'.join(out + extra + ['\treturn 0;', '}', ''])


def element_lines(structs, text):
    """per array field: its element size and signedness, and per scalar its signedness"""
    lines = []
    t = strip_comments(text)
    for s, fields in sorted(structs.items()):
        body = re.search(r'struct\s+%s\s*\{(.*?)\};' % s, t, re.S).group(1)
        for f in fields:
            dims = re.search(r'\b%s\s*((?:\[[^\]]*\])*)\s*;' % f, body).group(1)
            x = '((struct %s *)0)->%s%s' % (s, f, '[0]' * dims.count('['))
            lines.append('\tP("%s.%s element", sizeof(%s));' % (s, f, x))
            if re.search(r'\bstruct\s+\w+\s+%s\b' % f, body):
                continue	# a struct's fields are checked as that struct's
            lines.append('\t{ __typeof__(%s) m = -1; P("%s.%s unsigned", m > 0); }' % (x, s, f))
    return lines


def run(cc, src, incdir, tmp, tag):
    c = os.path.join(tmp, tag + '.c')
    exe = os.path.join(tmp, tag)
    open(c, 'w').write(src)
    r = subprocess.run([cc, '-std=gnu11', '-Wall', '-Werror', '-Wno-unused-variable',
                        '-I', incdir, '-o', exe, c], capture_output=True, text=True)
    if r.returncode:
        return None, ' '.join(r.stderr.strip().split('\n')[:4])
    r = subprocess.run([exe], capture_output=True, text=True, check=True)
    return dict(l.rsplit(' ', 1) for l in r.stdout.strip().split('\n')), None


def kernel_stubs(kheader, tmp):
    """An include dir for the kernel header: linux/types.h's types, linux/errno.h the system's
    errno values, every other include empty (what it includes under a CONFIG_ is not read)."""
    inc = os.path.join(tmp, 'kinc')
    stub = {'linux/types.h': '#include <stddef.h>\n'
            'typedef unsigned char u8; typedef unsigned short u16;\n'
            'typedef unsigned int u32; typedef unsigned long long u64;\n'
            'typedef signed char s8; typedef short s16; typedef int s32; typedef long long s64;\n',
            'linux/errno.h': '#include_next <linux/errno.h>\n'}
    for h in set(re.findall(r'^#\s*include\s*<([^>]+)>', open(kheader).read(), re.M)):
        os.makedirs(os.path.dirname(os.path.join(inc, h)), exist_ok=True)
        open(os.path.join(inc, h), 'w').write(stub.get(h, ''))
    os.makedirs(inc, exist_ok=True)
    return inc


def main():
    ours, kern = sys.argv[1], sys.argv[2]
    block_file = sys.argv[3] if len(sys.argv) > 3 else None
    cc = os.environ.get('CC', 'cc')
    with tempfile.TemporaryDirectory() as tmp:
        if os.path.isdir(kern):
            kh = series_header(kern, tmp)
            if not kh:
                print('the series in %s carries no include/linux/btf_tramp.h' % kern)
                return 1
        else:
            kh = kern
        otext, ktext = open(ours).read(), open(kh).read()
        oc, om, oe, os_ = names(otext)
        kc, km, ke, ks = names(ktext)
        block = otext[otext.index(BEGIN):otext.index(END)]
        bc, _, be, bs = names(block)
        bad = []
        if block_file:
            want = open(block_file).read().strip('\n')
            a, b = ktext.find(BEGIN), ktext.find(END)
            if a < 0 or b < 0 or ktext[a:b + len(END)] != want:
                bad.append('the kernel header\'s format block is not what kernel/gen-btf-tramp-h.py makes')
        for what, o, k in (('constant', oc, kc), ('macro', set(om), set(km)),
                           ('struct', set(os_), set(ks))):
            for n in sorted(k - o):
                bad.append('the kernel has %s %s, %s has not' % (what, n, ours))
        if oe[:len(ke)] != ke and ke:
            bad.append('enum btf_tramp_reason: kernel %s, ours %s' % (ke, oe))
        if 'btf_tramp2_hdr' in ks:	# a v2 kernel: the whole format block
            for n in sorted(bc - kc):
                bad.append('the kernel lacks constant %s' % n)
            for n in sorted(set(bs) - set(ks)):
                bad.append('the kernel lacks struct %s' % n)
            if be != ke:
                bad.append('enum btf_tramp_reason: the kernel has %d of %d reasons' % (len(ke), len(be)))
        c, m = kc & oc, {n: om[n] for n in km if n in om}
        e = [x for x in ke if x in oe]
        s = {n: os_[n] for n in ks if n in os_}
        for n in s:
            if ks[n] != os_[n]:
                bad.append('struct %s: fields %s, kernel %s' % (n, os_[n], ks[n]))
        src = program('#include "btfids/tramp.h"', c, m, e, s, element_lines(s, otext))
        got_o, err = run(cc, src, os.path.join(os.path.dirname(ours), '..'), tmp, 'ours')
        if err:
            bad.append('%s does not compile with them: %s' % (ours, err))
        ksrc = program('#include "%s"' % os.path.abspath(kh), c, m, e, s, element_lines(s, ktext))
        got_k, err = run(cc, ksrc, kernel_stubs(kh, tmp), tmp, 'kern')
        if err:
            bad.append('the kernel header does not compile with them: %s' % err)
        if got_o and got_k:
            for n in sorted(set(got_o) | set(got_k)):
                if got_o.get(n) != got_k.get(n):
                    bad.append('%s: ours %s, kernel %s' % (n, got_o.get(n), got_k.get(n)))
        if bad:
            print('\n'.join(bad))
            return 1
        print('same%s: %d constants, %d macro values, %d reasons, %d fields of %s '
              '(compiled: values, offsets, sizes, element sizes, signedness)' %
              (' format block text' if block_file else '', len(c), sum(1 for n in got_o if '(' in n), len(e), sum(len(v) for v in s.values()),
               ', '.join(sorted(s))))
        return 0


if __name__ == '__main__':
    sys.exit(main())
