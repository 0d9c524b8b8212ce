#!/usr/bin/env bash
# flow7.sh - the 7.x flow where btfids does better than the kernel's tool
# (README, "The 7.x flow"), each asserted against an independent reference:
#   - Debian's own 7.x kernels (../shared/realdata): vmlinux (amd64, s390x)
#     and modules cleared with mkunresolved, run with their own final .BTF
#     as --btf, give back Debian's .BTF_ids and .BTF byte for byte (the 7.2
#     tool adds a proto per implicit-args kfunc, the 7.3 tool lays the
#     strings out again);
#   - --fatal_warnings fails (255) and writes nothing (the kernel tool's
#     flag does nothing);
#   - the input ELF is opened read-only and stays as it was;
#   - a failed run leaves no <ELF>.BTF* file, stale ones included (also
#     when -b fails before the module is read: kbuild passes no --kernel),
#     and a run that makes no .BTF_ids removes a stale one;
#   - classification: the fixtures' linux_banner and vermagic say 7.3; one
#     that does not parse ("Linux version 1000.1", "vermagic=7.") fails
#     unless --kernel says;
#   - the kfunc rewrite of every target's image7, checked rule by rule by
#     tests/btf7_check.py (its own BTF reader): _impl FUNCs with every decl
#     tag, shortened protos with their param names, 7.3's tags and arena
#     attributes, sorted names;
#   - --distill_base keeps a base type a slot names in the distilled base;
#   - bad input: a --btf of the other byte order or pointer size, an
#     output path that cannot be written, a base that does not fit.
# Ends with "flow7: N passed, N failed" or "flow7: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
FIX=$top/tests/build/fixtures
H=$FIX/$(gcc -dumpmachine)

if [ ! -f "$H/image7.nobtf" ]; then
	echo "flow7: skipped (no 7.x fixtures in $FIX: make fixtures)"
	exit 0
fi
tmp=$(mktemp -d /tmp/btfids-flow7.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }
outputs() { ls "$1".BTF* 2>/dev/null | sed "s|$tmp/||" | tr '\n' ' '; }

# idempotence on Debian's final 7.x kernels
idem() {	# NAME ELF [BASE]
	local name=$1 elf=$2 base=${3:-} d=$tmp/idem
	rm -rf "$d" && mkdir -p "$d"
	objcopy --dump-section .BTF="$d/btf" --dump-section .BTF_ids="$d/ids" "$elf" "$d/junk" 2>/dev/null
	"$R/mkunresolved" "$elf" "$d/obj" ${base:+--base "$base"} >/dev/null
	if "$B" ${base:+-b "$base"} --btf "$d/btf" "$d/obj" 2>"$d/err" &&
	   cmp -s "$d/obj.BTF_ids" "$d/ids" && cmp -s "$d/obj.BTF" "$d/btf"; then
		ok "$name: cleared, with its own final .BTF, gives back Debian's .BTF_ids and .BTF"
	else
		bad "$name: does not give back Debian's .BTF_ids and .BTF ($(head -1 "$d/err"))"
	fi
}
if [ -x "$R/mkunresolved" ] && [ -f "$K/amd64-7/vmlinux" ]; then
	for k in amd64-7 s390x-7; do
		[ -f "$K/$k/vmlinux" ] && idem "$k vmlinux ($(cut -d_ -f2 "$K/$k/SOURCE"))" "$K/$k/vmlinux"
	done
	for m in "$K"/amd64-7/modules/*.ko; do
		idem "amd64-7 $(basename "$m")" "$m" "$K/amd64-7/vmlinux"
	done
else
	echo "flow7: Debian 7.x kernels skipped (not fetched: $R/fetch-kernels amd64-7 s390x-7)"
fi

# the fixtures: image7 has warnings (an unresolved name, a set8 hole)
cp "$H/image7.nobtf" "$tmp/img"
"$B" --fatal_warnings --btf "$H/image7.tags.btf" "$tmp/img" 2>"$tmp/err"; rc=$?
if [ $rc = 255 ] && [ -z "$(outputs "$tmp/img")" ] && grep -q '^FAILED.*--fatal_warnings' "$tmp/err"; then
	ok "--fatal_warnings with warnings: exit 255, no output file"
else
	bad "--fatal_warnings: exit $rc, files: $(outputs "$tmp/img")"
fi

cp "$H/image7.nobtf" "$tmp/ro" && chmod 0444 "$tmp/ro"
sum=$(sha256sum < "$tmp/ro")
if command -v strace >/dev/null; then
	# (LeakSanitizer cannot run under ptrace: no leak check in this one run)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=openat -o "$tmp/trace" "$B" --btf "$H/image7.tags.btf" "$tmp/ro" 2>/dev/null; rc=$?
	opened=$(grep -E "\"$tmp/ro\"" "$tmp/trace" | grep -c O_RDWR)
else
	"$B" --btf "$H/image7.tags.btf" "$tmp/ro" 2>/dev/null; rc=$?
	opened=0
fi
if [ $rc = 0 ] && [ "$opened" = 0 ] && [ "$sum" = "$(sha256sum < "$tmp/ro")" ] &&
   [ -f "$tmp/ro.BTF_ids" ] && [ -f "$tmp/ro.BTF" ]; then
	ok "a read-only input: opened read-only, unchanged, outputs written"
else
	bad "a read-only input: exit $rc, opened read-write $opened time(s)"
fi

# failure: image7c has one kfunc in two sets with other flags (7.3 fails)
cp "$H/image7c.nobtf" "$tmp/c"
for s in .BTF_ids .BTF .BTF.base; do echo stale > "$tmp/c$s"; done
"$B" --btf "$H/image7c.tags.btf" "$tmp/c" 2>"$tmp/err"; rc=$?
if [ $rc = 255 ] && [ -z "$(outputs "$tmp/c")" ] && grep -q '^FAILED.*inconsistent flags' "$tmp/err"; then
	ok "a failed run (inconsistent kfunc flags) leaves no .BTF* file, stale ones removed"
else
	bad "a failed run: exit $rc, files left: $(outputs "$tmp/c")"
fi
# (a truncated ELF cannot say which kernel built it: without --kernel too)
for c in "--kernel 7.3|a base that cannot be read" "--kernel 7.3|a truncated ELF" "|a truncated ELF"; do
	IFS='|' read -r kernel why <<< "$c"
	cp "$H/image7.nobtf" "$tmp/e"
	"$B" --btf "$H/image7.btf" "$tmp/e" 2>/dev/null	# outputs of an earlier run
	# shellcheck disable=SC2086 # $kernel: none or two words
	if [ "$why" = "a base that cannot be read" ]; then
		"$B" $kernel -b /nonexistent --btf "$H/image7.btf" "$tmp/e" 2>/dev/null; rc=$?
	else
		head -c 100 "$H/image7.nobtf" > "$tmp/e"
		"$B" $kernel --btf "$H/image7.btf" "$tmp/e" 2>/dev/null; rc=$?
	fi
	if [ $rc = 255 ] && [ -z "$(outputs "$tmp/e")" ]; then
		ok "${kernel:-no --kernel}, $why: exit 255, an earlier run's outputs removed"
	else
		bad "${kernel:-no --kernel}, $why: exit $rc, files left: $(outputs "$tmp/e")"
	fi
done
# kbuild's module step (scripts/gen-btf.sh) passes -b and --btf, no --kernel:
# the module says 7.3, so a base that cannot be read, or that the kernel
# would refuse (header version 0xff), leaves none of an earlier run's outputs
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[2] = 0xff; open(sys.argv[2], "wb").write(d)' \
	"$H/image7.btf" "$tmp/v255.btf"
for base in /nonexistent "$tmp/v255.btf"; do
	cp "$H/module7.nobtf.o" "$tmp/m.o"
	"$B" -b "$H/image7" --btf "$H/module7.tags.btf" "$tmp/m.o" 2>/dev/null	# an earlier run
	before=$(outputs "$tmp/m.o") sum=$(sha256sum < "$tmp/m.o")
	"$B" -b "$base" --btf "$H/module7.tags.btf" "$tmp/m.o" 2>"$tmp/err"; rc=$?
	if [ $rc = 255 ] && [ -n "$before" ] && [ -z "$(outputs "$tmp/m.o")" ] &&
	   [ "$sum" = "$(sha256sum < "$tmp/m.o")" ] && grep -q "^FAILED $base: " "$tmp/err"; then
		ok "a module, -b $(basename "$base") (no --kernel): exit 255, the base named, an earlier run's outputs removed, the module unchanged"
	else
		bad "a module, -b $base: exit $rc, files before: $before, left: $(outputs "$tmp/m.o") ($(head -1 "$tmp/err"))"
	fi
done
cp "$H/funcs.o" "$tmp/f.o"
echo stale > "$tmp/f.o.BTF_ids"
"$B" --kernel 7.3 --btf "$H/image.btf" "$tmp/f.o" 2>/dev/null; rc=$?
if [ $rc = 0 ] && [ ! -e "$tmp/f.o.BTF_ids" ] && [ -s "$tmp/f.o.BTF" ]; then
	ok "an ELF without .BTF_ids: .BTF written, a stale .BTF_ids removed"
else
	bad "an ELF without .BTF_ids: exit $rc, files: $(outputs "$tmp/f.o")"
fi

# classification from the ELF itself
"$B" -v --btf "$H/image7.tags.btf" -o "$tmp/cls" "$H/image7.nobtf" 2>"$tmp/err"
"$B" -v -b "$H/image7" --btf "$H/module7.btf" -o "$tmp/cls" "$H/module7.nobtf.o" 2>>"$tmp/err"
"$B" -v -o "$tmp/cls" "$H/image" 2>>"$tmp/err"
if grep -q 'Linux 7.3.0-fx7 (from linux_banner): 7.x flow, 7.3' "$tmp/err" &&
   grep -q 'Linux 7.3.0-fx7 (from vermagic): 7.x flow, 7.3' "$tmp/err" &&
   grep -q 'no kernel release found.*6.x flow' "$tmp/err"; then
	ok "-v: classified by linux_banner, vermagic, or neither (6.x)"
else
	bad "classification: $(grep -E 'flow' "$tmp/err" | tr '\n' '|')"
fi

# a linux_banner or vermagic= that is there but does not parse: the flow is
# unknown, so the run fails naming the string (it used to be "no release",
# the 6.x flow, and the 7.3 image was patched in place); --kernel says
rewrite() {	# FILE OLD NEW: the first OLD in FILE becomes NEW, padded with spaces
	python3 - "$@" <<'PY'
import sys
p, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
d = open(p, 'rb').read()
i = d.index(old)
open(p, 'wb').write(d[:i] + new.ljust(len(old)) + d[i + len(old):])
PY
}
for c in "image7.nobtf|Linux version 7.3.0-fx7|Linux version 1000.1|image7.tags.btf" \
	 "image7.nobtf|Linux version 7.3.0-fx7|Linux version 7.-3|image7.tags.btf" \
	 "module7.nobtf.o|vermagic=7.3.0-fx7|vermagic=7.|module7.tags.btf"; do
	IFS='|' read -r elf old new btf <<< "$c"
	base=() && [ "${elf%.o}" != "$elf" ] && base=(-b "$H/image7")
	cp "$H/$elf" "$tmp/rel" && rewrite "$tmp/rel" "$old" "$new"
	rm -f "$tmp/rel".BTF* && echo stale > "$tmp/rel.BTF"
	sum=$(sha256sum < "$tmp/rel")
	"$B" "${base[@]}" --btf "$H/$btf" "$tmp/rel" 2>"$tmp/err"; rc=$?
	"$B" "${base[@]}" --kernel 7.3 --btf "$H/$btf" -o "$tmp/rel.k" "$tmp/rel" 2>/dev/null; krc=$?
	if [ $rc = 255 ] && grep -q "^FAILED $tmp/rel: .*\"$new .*\" does not name a kernel release" "$tmp/err" &&
	   [ "$sum" = "$(sha256sum < "$tmp/rel")" ] && [ -z "$(outputs "$tmp/rel")" ] &&
	   [ $krc = 0 ] && [ -s "$tmp/rel.k.BTF" ]; then
		ok "\"$new\": $(head -1 "$tmp/err" | sed "s|$tmp/||"); with --kernel 7.3: 7.x outputs"
	else
		bad "\"$new\": exit $rc ($(head -1 "$tmp/err")), ELF $([ "$sum" = "$(sha256sum < "$tmp/rel")" ] && echo unchanged || echo CHANGED), files: $(outputs "$tmp/rel"), --kernel 7.3: exit $krc"
	fi
	rm -f "$tmp/rel".*
done

# the kfunc rewrite by the kernel's rules, read by a BTF reader of the test's own
for d in "$FIX"/*/; do
	d=${d%/}
	for v in 7.2 7.3; do
		cp "$d/image7.nobtf" "$tmp/r"
		"$B" --kernel "$v" --btf "$d/image7.tags.btf" "$tmp/r" 2>/dev/null
		if res=$(python3 "$top/tests/btf7_check.py" "$v" "$tmp/r.BTF"); then
			ok "$(basename "$d") $v rules: $res (tests/btf7_check.py)"
		else
			bad "$(basename "$d") $v rules: $(echo "$res" | tr '\n' ' ')"
		fi
	done
done

# --distill_base: a slot naming a base struct the module's types never use
# (module7: struct btf_struct_meta) gets the ID of that struct in the
# distilled base, which the kernel maps at load; the kernel tool writes 0
distilled_slot() {	# DIR: "KIND NAME" of the type the btf_struct_meta slot holds
	python3 - "$1" <<'PY'
import struct, subprocess, sys
d = sys.argv[1]
syms = subprocess.run(['readelf', '-sW', d + '/m'], capture_output=True, text=True).stdout
off = next(int(l.split()[1], 16) for l in syms.splitlines() if '__BTF_ID__struct__btf_struct_meta__' in l)
ids = open(d + '/m.BTF_ids', 'rb').read()
tid = struct.unpack_from('<I', ids, off)[0]
b = open(d + '/m.BTF.base', 'rb').read()
hl, to, tl, so, sl = struct.unpack_from('<IIIII', b, 4)
t, strs = b[hl + to:hl + to + tl], b[hl + so:hl + so + sl]
pos, n = 0, 1
while pos < len(t) and n < tid:
    info = struct.unpack_from('<I', t, pos + 4)[0]
    kind, vlen = info >> 24 & 0x1f, info & 0xffff
    pos += 12 + {1: 4, 4: 12 * vlen, 5: 12 * vlen, 6: 8 * vlen, 19: 12 * vlen}.get(kind, 0)
    n += 1
if tid == 0 or pos >= len(t):
    print('id %d, not in the distilled base' % tid)
else:
    no, info = struct.unpack_from('<II', t, pos)
    kinds = {1: 'int', 4: 'struct', 5: 'union', 6: 'enum', 7: 'fwd', 16: 'float', 19: 'enum64'}
    print(kinds.get(info >> 24 & 0x1f, '?'), strs[no:strs.index(b'\0', no)].decode())
PY
}
rm -rf "$tmp/dist" && mkdir -p "$tmp/dist"
cp "$H/module7.nobtf.o" "$tmp/dist/m"
"$B" -b "$H/image7" --btf "$H/module7.tags.btf" --distill_base "$tmp/dist/m" 2>"$tmp/err"
got=$(distilled_slot "$tmp/dist" 2>&1)
if [ "$got" = "struct btf_struct_meta" ] && ! grep -q 'unresolved symbol btf_struct_meta' "$tmp/err"; then
	ok "--distill_base: a base struct no module type uses is kept in the distilled base; its slot holds it"
else
	bad "--distill_base: the btf_struct_meta slot holds: $got"
fi
# check, dump and models read what kbuild makes of it (objcopy --add-section
# .BTF, .BTF.base, then --patch_btfids): split BTF on a distilled base with
# 32-byte headers
cp "$H/module7.nobtf.o" "$tmp/dist/final.o"
objcopy --add-section .BTF="$tmp/dist/m.BTF" --add-section .BTF.base="$tmp/dist/m.BTF.base" "$tmp/dist/final.o"
"$B" --patch_btfids "$tmp/dist/m.BTF_ids" "$tmp/dist/final.o"
"$B" check "$tmp/dist/final.o" >"$tmp/out" 2>&1; crc=$?
dump=$("$B" dump "$tmp/dist/final.o" 2>&1 | grep -E 'struct +btf_struct_meta +[1-9]')
impl=$("$B" models --all "$tmp/dist/final.o" 2>&1 | grep -c '"name":"fx7_mod_implicit_impl"')
if [ $crc = 1 ] && grep -q 'unresolved func fx7_fast' "$tmp/out" && [ -n "$dump" ] && [ "$impl" = 1 ]; then
	ok "check, dump and models read a 7.x module on its distilled base (32-byte BTF headers)"
else
	bad "the verbs on a 7.x module: check exit $crc, dump '$dump', models $impl"
fi
if [ -f "$K/amd64-7/vmlinux" ]; then
	if "$B" check "$K/amd64-7/vmlinux" >"$tmp/out" 2>&1 && grep -q 'all resolve' "$tmp/out" &&
	   [ "$("$B" models --all "$K/amd64-7/vmlinux" | wc -l)" -gt 40000 ]; then
		ok "check and models read Debian's 7.x vmlinux (BTF sorted by name)"
	else
		bad "check/models on Debian's 7.x vmlinux: $(head -2 "$tmp/out")"
	fi
fi
if KT=$("$top/tests/kernel-tool.sh" 7.3 2>/dev/null); then
	cp "$H/module7.nobtf.o" "$tmp/dist/m" && rm -f "$tmp/dist/m".BTF*
	(cd "$tmp/dist" && "$KT" -b "$H/image7" --btf "$H/module7.tags.btf" --distill_base m 2>/dev/null)
	echo "  (the kernel's 7.3 tool: $(distilled_slot "$tmp/dist" 2>&1))"
fi

# trampoline tables in the 7.x flow (kernel/7.3 reads them): the table is
# built on the final BTF and follows the 7.3 rules; --patch_btfids copies
# <elf>.BTF_tramp into the image with .BTF_ids
M=$top/tests/build/models/native
if [ -f "$M/tramp.nobtf" ]; then
	d=$tmp/tramp7 && mkdir -p "$d"
	cp "$M/tramp.nobtf" "$d/t" && cp "$M/tramp.nobtf" "$d/final" && cp "$M/tramp.nobtf" "$d/bad"
	"$B" --kernel 7.3 --btf "$M/tramp.btf" "$d/t" 2>"$d/err1" ||
		bad "7.x run on the trampoline fixture: $(grep -v '^WARN' "$d/err1" | head -2 | tr '\n' ' ')"
	# the header, and the crc32 of the .BTF file written, by Python's zlib
	hdr=$(python3 - "$d/t.BTF_tramp" "$d/t.BTF" <<'PY' 2>&1
import struct, sys, zlib
t, btf = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
magic, ver, mach, n, esz, maxs, crc = struct.unpack_from('<IHHIHHI', t, 0)
print(hex(magic), n, crc == zlib.crc32(btf))
PY
)
	if [ "$hdr" = "0x50525442 4 True" ]; then
		ok "7.x tables: <elf>.BTF_tramp written, crc32 of the final .BTF it is linked with"
	else
		bad "7.x tables: header ${hdr:-none} (want magic, the first table's 4 entries, the .BTF file's crc32)"
	fi
	# v7.3 __get_type_fmodel_flags(): no STRUCT_ARG for fx_m_aggr's struct
	# and union, SIGNED_ARG for its long; the 6.x flow (no release): 1, 1, 2
	"$B" --patch_btfids "$d/t.BTF_ids" "$d/final" 2>"$d/err"
	f7=$("$B" models "$d/final" 2>/dev/null | grep '"name":"fx_m_aggr"' | grep -o '"arg_flags":\[[0-9,]*\]')
	f6=$("$B" models "$M/tramp" 2>/dev/null | grep '"name":"fx_m_aggr"' | grep -o '"arg_flags":\[[0-9,]*\]')
	if [ "$f7" = '"arg_flags":[0,0,2]' ] && [ "$f6" = '"arg_flags":[1,1,2]' ]; then
		ok "7.x tables follow the 7.3 rules: fx_m_aggr $f7 (the 6.x image: $f6)"
	else
		bad "7.x table rules: fx_m_aggr ${f7:-?} (want [0,0,2]), 6.x ${f6:-?} (want [1,1,2])"
	fi
	objcopy -O binary --only-section=.BTF_tramp "$d/final" "$d/final.tramp"
	objcopy -O binary --only-section=.BTF_ids "$d/final" "$d/final.ids"
	if cmp -s "$d/final.tramp" "$d/t.BTF_tramp" && cmp -s "$d/final.ids" "$d/t.BTF_ids"; then
		ok "--patch_btfids writes <elf>.BTF_ids and <elf>.BTF_tramp into the image"
	else
		bad "--patch_btfids: .BTF_tramp or .BTF_ids differ from the files ($(head -1 "$d/err"))"
	fi
	# a tables file of another image: refused before any write
	head -c 100 "$d/t.BTF_tramp" >"$d/bad.BTF_tramp"
	cp "$d/t.BTF_ids" "$d/bad.BTF_ids"
	cp "$d/bad" "$d/bad.orig"
	"$B" --patch_btfids "$d/bad.BTF_ids" "$d/bad" 2>"$d/err"; rc=$?
	if [ $rc = 255 ] && grep -q "^FAILED .*size mismatch - .BTF_tramp section" "$d/err" &&
	   cmp -s "$d/bad" "$d/bad.orig"; then
		ok "--patch_btfids with a .BTF_tramp of another size: $(head -1 "$d/err" | sed "s|$d/||g")"
	else
		bad "--patch_btfids with a short .BTF_tramp: exit $rc, $(head -1 "$d/err"), image $(cmp -s "$d/bad" "$d/bad.orig" && echo unchanged || echo CHANGED)"
	fi
else
	echo "  skipped: the 7.x trampoline tables (no $M/tramp.nobtf: make check builds it)"
fi

# the kernel series' include/linux/btf_tramp.h (kernel/7.3) and
# include/btfids/tramp.h describe one format: same constants, same enum
# order, same struct fields in the same order with the same sizes
fmt=$(python3 - "$top/include/btfids/tramp.h" "$top"/kernel/7.3/0001-*.patch <<'PY' 2>&1
import re, sys
ours = open(sys.argv[1]).read()
patch = open(sys.argv[2]).read()
m = re.search(r'^\+\+\+ b/include/linux/btf_tramp.h\n(.*?)(?=^diff --git)', patch, re.S | re.M)
kern = '\n'.join(l[1:] for l in m.group(1).splitlines() if l.startswith('+'))
def defines(t):
    return {k: v.split('/*')[0].strip().rstrip('u') for k, v in
            re.findall(r'#define\s+(BTF_TRAMP_(?:MAGIC|VERSION|MAX_ARGS|HDR_SIZE|ENTRY_SIZE|LOC_\w+))\s+(\S+)', t)}
def enum(t):
    body = re.search(r'enum btf_tramp_reason \{(.*?)\};', t, re.S).group(1)
    return re.findall(r'^\s*(BTF_TRAMP_\w+)', body, re.M)
def fields(t, name):
    body = re.search(r'struct %s \{(.*?)\};' % name, t, re.S).group(1)
    out = []
    for ty, f in re.findall(r'(?:btf_tramp_)?(u8|u16|u32)\s+([^;]+);', body):
        out.append((ty, f.strip()))
    return out
bad = []
d1, d2 = defines(ours), defines(kern)
for k in sorted(set(d1) | set(d2)):
    if d1.get(k) != d2.get(k):
        bad.append('%s: %s vs %s' % (k, d1.get(k), d2.get(k)))
if enum(ours) != enum(kern):
    bad.append('enum btf_tramp_reason differs')
for st in ('btf_tramp_hdr', 'btf_tramp_entry'):
    if fields(ours, st) != fields(kern, st):
        bad.append('struct %s differs' % st)
print('; '.join(bad) or 'same %d constants, %d reasons, %d + %d fields' % (
    len(d1), len(enum(ours)), len(fields(ours, 'btf_tramp_hdr')), len(fields(ours, 'btf_tramp_entry'))))
PY
)
if echo "$fmt" | grep -q '^same '; then
	ok "kernel/7.3's btf_tramp.h and include/btfids/tramp.h: $fmt"
else
	bad "kernel/7.3's btf_tramp.h and include/btfids/tramp.h differ: $fmt"
fi

# bad input: exit 255, a FAILED line naming the file, no output
badrun() {	# NAME WANT ELF ARGS...
	local name=$1 want=$2 elf=$3 rc
	shift 3
	rm -f "$tmp"/bad*
	cp "$elf" "$tmp/bad"
	"$B" "$@" "$tmp/bad" 2>"$tmp/err"; rc=$?
	if [ $rc = 255 ] && grep -qE "^FAILED .*$want" "$tmp/err" && [ -z "$(outputs "$tmp/bad")" ]; then
		ok "$name: $(grep -m1 ^FAILED "$tmp/err" | sed "s|$tmp/||g; s|$FIX/||g")"
	else
		bad "$name: exit $rc, $(head -1 "$tmp/err"), files: $(outputs "$tmp/bad")"
	fi
}
S=$FIX/s390x-linux-gnu
I=$FIX/i686-linux-gnu
[ -d "$S" ] && badrun "--btf of the other byte order" "byte order|endian" "$H/image7.nobtf" --btf "$S/image7.btf"
[ -d "$I" ] && badrun "--btf of another pointer size" "pointer" "$H/image7.nobtf" --btf "$I/image7.btf"
badrun "an output path in no directory" "no directory" "$H/image7.nobtf" --btf "$H/image7.btf" -o /nonexistent/x
badrun "a base that does not fit" "does not fit|base" "$H/module7.nobtf.o" -b "$H/image" --btf "$H/module7.btf"

echo "flow7: $passed passed, $failed failed"
[ "$failed" = 0 ]
