#!/usr/bin/env bash
# rerun.sh - btfids on a finished kernel: Debian's own final vmlinux and
# modules, 6.12 and 7.x, as a packaging step or a developer checking a
# build runs it (docs/design.md, "Guarantees": idempotent). Each is checked against
# Debian's bytes (objcopy's dump of the image's own sections), never
# against btfids' own earlier output:
#   - resolve, run twice on a final 7.x vmlinux and a module (no --btf: the
#     image's own .BTF, already rewritten for its kfuncs, sorted, and its
#     .BTF_ids resolved): both runs write <ELF>.BTF and <ELF>.BTF_ids equal
#     to the image's own .BTF and .BTF_ids, and leave the ELF as it was;
#     then once more on the image rebuilt from those outputs (objcopy
#     --update-section, --patch_btfids), as kbuild links them: the same;
#   - resolve on a final 6.12 vmlinux and module, in place, twice: the
#     file's bytes unchanged;
#   - a final 7.x vmlinux with another build's BTF (--btf): refused on one
#     line naming the file, exit 255, nothing written (the set8 flags cannot
#     be paired with their kfuncs);
#   - a 6.12 module on the 7.x vmlinux: refused, and the why said (its
#     vermagic against the base's linux_banner), the module untouched;
#   - "btfids -b vmlinux vmlinux": the vmlinux read on its own BTF, no
#     "multiple IDs" warning, the same bytes as without -b (6.12 and 7.x);
#     -b naming another file: one line that it is not used, the same bytes;
#   - check and dump on the final images: they read, exit 0 and leave the
#     files as they were; check, check --verify, dump and models --all run
#     twice give the same output and exit status; --kernel 6.12 (the 6.x
#     flow) in place twice leaves the 7.x vmlinux's bytes; a 6.12 module on
#     the 7.x base: check, dump and models say why, as resolve does; dump's KF_* names of every set8 entry's flags
#     give back the flags word by the values of a 7.x tree's
#     include/linux/btf.h (skipped without the tree).
# Ends with "rerun: N passed, N failed", or "rerun: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"

if [ ! -f "$K/amd64-7/vmlinux" ] && [ ! -f "$K/amd64-6.12/vmlinux" ]; then
	echo "rerun: skipped (no Debian kernels in $K: $R/fetch-kernels)"
	exit 0
fi
tmp=$(mktemp -d /tmp/btfids-rerun.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

# the image's own .BTF and .BTF_ids, as Debian built them
sections() {	# ELF DIR
	objcopy --dump-section .BTF="$2/btf" --dump-section .BTF_ids="$2/ids" "$1" "$2/junk"
}

# one 7.x resolve run on @elf's copy: outputs equal to the image's sections
same7() {	# WHAT ELF-COPY REF-DIR [BASE]
	local what=$1 elf=$2 ref=$3 base=${4:-}
	local sum

	sum=$(cksum < "$elf")
	rm -f "$elf".BTF*
	if ! "$B" ${base:+-b "$base"} "$elf" 2>"$elf.err"; then
		bad "$what: exit status $? ($(head -1 "$elf.err"))"
	elif [ -s "$elf.err" ]; then
		bad "$what: messages: $(head -1 "$elf.err")"
	elif ! cmp -s "$elf.BTF" "$ref/btf" || ! cmp -s "$elf.BTF_ids" "$ref/ids"; then
		bad "$what: .BTF $(stat -c %s "$elf.BTF" 2>/dev/null) bytes, Debian's $(stat -c %s "$ref/btf"); .BTF_ids $(cmp -s "$elf.BTF_ids" "$ref/ids" && echo same || echo differs)"
	elif [ "$(cksum < "$elf")" != "$sum" ]; then
		bad "$what: the ELF changed"
	else
		ok "$what: <ELF>.BTF ($(stat -c %s "$elf.BTF") bytes) and .BTF_ids are Debian's, ELF untouched"
	fi
}

# a final 7.x ELF: twice, then on the image kbuild would link from the outputs
rerun7() {	# NAME ELF [BASE]
	local name=$1 src=$2 base=${3:-} d
	d=$tmp/$(basename "$src").7
	mkdir -p "$d"
	cp "$src" "$d/elf"
	if ! sections "$src" "$d" 2>"$d/err"; then
		bad "$name: objcopy cannot read its sections: $(head -1 "$d/err")"
		return
	fi
	same7 "$name, first run" "$d/elf" "$d" "$base"
	same7 "$name, second run" "$d/elf" "$d" "$base"
	cp "$src" "$d/relinked"
	if objcopy --update-section .BTF="$d/elf.BTF" "$d/relinked" 2>"$d/err" &&
	   "$B" --patch_btfids "$d/elf.BTF_ids" "$d/relinked" 2>>"$d/err" &&
	   cmp -s "$d/relinked" "$src"; then
		same7 "$name, run on the image rebuilt from its outputs" "$d/relinked" "$d" "$base"
	else
		bad "$name: the image rebuilt from the outputs is not Debian's ($(head -1 "$d/err"))"
	fi
}

# a final 6.x ELF: in place, twice, its bytes unchanged
rerun6() {	# NAME ELF [BASE]
	local name=$1 src=$2 base=${3:-} d i
	d=$tmp/$(basename "$src").6
	mkdir -p "$d"
	cp "$src" "$d/elf"
	for i in first second; do
		if ! "$B" ${base:+-b "$base"} "$d/elf" 2>"$d/err"; then
			bad "$name, $i run: exit status $? ($(head -1 "$d/err"))"
		elif ! cmp -s "$d/elf" "$src"; then
			bad "$name, $i run: the file changed"
		elif ls "$d"/elf.BTF* >/dev/null 2>&1; then
			bad "$name, $i run: 7.x output files written"
		else
			ok "$name, $i run in place: the file is Debian's, byte for byte"
		fi
	done
}

if [ -f "$K/amd64-7/vmlinux" ]; then
	V7=$K/amd64-7/vmlinux
	rel=$(cut -d_ -f2 "$K/amd64-7/SOURCE")
	rerun7 "amd64 $rel vmlinux" "$V7"
	for m in tcp_bbr nf_conntrack; do
		[ -f "$K/amd64-7/modules/$m.ko" ] &&
			rerun7 "amd64 $rel $m.ko" "$K/amd64-7/modules/$m.ko" "$V7"
	done
	[ -f "$K/s390x-7/vmlinux" ] && rerun7 "s390x vmlinux" "$K/s390x-7/vmlinux"

	# resolved against another BTF: refused, one line, nothing written
	if [ -f "$K/amd64-6.12/vmlinux" ]; then
		d=$tmp/other && mkdir -p "$d" && cp "$V7" "$d/elf"
		"$B" --btf "$K/amd64-6.12/vmlinux" "$d/elf" 2>"$d/err"; rc=$?
		if [ $rc = 255 ] && [ "$(wc -l < "$d/err")" = 1 ] &&
		   grep -q "^FAILED $d/elf: .BTF_ids was resolved against another BTF.*nothing written" "$d/err" &&
		   ! ls "$d"/elf.BTF* >/dev/null 2>&1 && cmp -s "$d/elf" "$V7"; then
			ok "a final 7.x vmlinux with another build's --btf: refused ($(sed "s|$d/||" "$d/err" | cut -c1-100)...)"
		else
			bad "a final 7.x vmlinux with another build's --btf: exit $rc, $(wc -l < "$d/err") lines: $(head -1 "$d/err")"
		fi
	fi

	# a module on the base of another build: why it does not fit
	if [ -f "$K/amd64-6.12/modules/tcp_bbr.ko" ]; then
		d=$tmp/otherbase && mkdir -p "$d" && cp "$K/amd64-6.12/modules/tcp_bbr.ko" "$d/m.ko"
		"$B" -b "$V7" "$d/m.ko" 2>"$d/err"; rc=$?
		if [ $rc = 255 ] && grep -q "^FAILED $d/m.ko: .*does not fit its base" "$d/err" &&
		   grep -q "m.ko: built for Linux 6\.12\..* (vermagic), but -b $V7 is Linux 7\.[0-9]*\..* (linux_banner): the base of another build" "$d/err" &&
		   cmp -s "$d/m.ko" "$K/amd64-6.12/modules/tcp_bbr.ko"; then
			ok "a 6.12 module on the 7.x vmlinux: refused, and why ($(tail -1 "$d/err" | sed "s|$d/||; s|$K/||"))"
		else
			bad "a 6.12 module on the 7.x vmlinux: exit $rc: $(tail -1 "$d/err")"
		fi
	fi

	# -b naming the vmlinux itself: its own BTF
	d=$tmp/self7 && mkdir -p "$d" && cp "$V7" "$d/elf"
	sections "$V7" "$d"
	"$B" -b "$d/elf" "$d/elf" 2>"$d/err"; rc=$?
	if [ $rc = 0 ] && [ ! -s "$d/err" ] && cmp -s "$d/elf.BTF" "$d/btf" && cmp -s "$d/elf.BTF_ids" "$d/ids"; then
		ok "btfids -b vmlinux vmlinux (7.x): no warning, Debian's .BTF and .BTF_ids"
	else
		bad "btfids -b vmlinux vmlinux (7.x): exit $rc, $(wc -l < "$d/err") message lines: $(head -1 "$d/err")"
	fi

	# -b naming another vmlinux (a copy): not a module, so not split on it
	d=$tmp/other7 && mkdir -p "$d" && cp "$V7" "$d/elf" && ln -s "$V7" "$d/base"
	sections "$V7" "$d"
	"$B" -b "$d/base" "$d/elf" 2>"$d/err"; rc=$?
	if [ $rc = 0 ] && [ "$(wc -l <"$d/err")" = 1 ] && grep -q "not a module: -b .* not used" "$d/err" &&
	   cmp -s "$d/elf.BTF" "$d/btf" && cmp -s "$d/elf.BTF_ids" "$d/ids"; then
		ok "btfids -b <another vmlinux> vmlinux (7.x): one line ($(sed "s|$d/||g; s|$K/||" "$d/err")), Debian's .BTF and .BTF_ids"
	else
		bad "btfids -b <another vmlinux> vmlinux (7.x): exit $rc, $(wc -l < "$d/err") message lines: $(head -1 "$d/err")"
	fi

	# -b naming no file at all: bad input, even for a vmlinux, which does not use it
	rm -f "$d"/elf.BTF*
	"$B" -b "$d/nosuch" "$d/elf" 2>"$d/err"; rc=$?
	if [ $rc = 255 ] && [ "$(wc -l <"$d/err")" = 1 ] && grep -q "^FAILED $d/nosuch: " "$d/err" &&
	   cmp -s "$d/elf" "$V7" && ! ls "$d"/elf.BTF* >/dev/null 2>&1; then
		ok "btfids -b <no such file> vmlinux (7.x): refused in one line ($(sed "s|$d/||g" "$d/err")), nothing written"
	else
		bad "btfids -b <no such file> vmlinux (7.x): exit $rc, $(wc -l < "$d/err") message lines: $(head -1 "$d/err")"
	fi

	# the read-only verbs
	d=$tmp/verbs7 && mkdir -p "$d" && cp "$V7" "$d/elf" && cp "$K/amd64-7/modules/tcp_bbr.ko" "$d/m.ko"
	"$B" check -b "$d/elf" "$d/elf" "$d/m.ko" >"$d/out" 2>&1; c=$?
	"$B" dump -b "$d/elf" "$d/m.ko" >/dev/null 2>&1; u=$?
	if [ $c = 0 ] && [ $u = 0 ] && cmp -s "$d/elf" "$V7" && cmp -s "$d/m.ko" "$K/amd64-7/modules/tcp_bbr.ko" &&
	   ! ls "$d"/elf.BTF* "$d"/m.ko.BTF* >/dev/null 2>&1; then
		ok "check and dump on the final 7.x vmlinux and a module: exit 0, files as they were"
	else
		bad "check/dump on final 7.x images: exit $c/$u: $(tail -1 "$d/out")"
	fi
	# every read-only verb twice on the same final images: the same output,
	# exit status and files (a CI job or a packager may run it any time)
	for v in "check -b $d/elf $d/elf $d/m.ko" "check --verify $d/elf" "dump -b $d/elf $d/m.ko" \
		 "models --all --verdicts $d/elf" "models --all -b $d/elf $d/m.ko"; do
		# shellcheck disable=SC2086 # v: words
		"$B" $v >"$d/o1" 2>"$d/e1"; r1=$?
		# shellcheck disable=SC2086
		"$B" $v >"$d/o2" 2>"$d/e2"; r2=$?
		if [ $r1 = $r2 ] && [ $r1 != 2 ] && [ -s "$d/o1" ] && cmp -s "$d/o1" "$d/o2" && cmp -s "$d/e1" "$d/e2" &&
		   cmp -s "$d/elf" "$V7" && cmp -s "$d/m.ko" "$K/amd64-7/modules/tcp_bbr.ko"; then
			ok "btfids ${v//$d\//} twice on final 7.x images: the same $(wc -l <"$d/o1") lines, exit $r1, files as they were"
		else
			bad "btfids ${v//$d\//} twice: exit $r1/$r2, output $(cmp -s "$d/o1" "$d/o2" && echo same || echo differs): $(head -1 "$d/e1")"
		fi
	done
	# the 6.x flow asked for on a final 7.x vmlinux: the file as it was
	d=$tmp/as612 && mkdir -p "$d" && cp "$V7" "$d/elf"
	"$B" --kernel 6.12 "$d/elf" 2>"$d/err"; r1=$?
	"$B" --kernel 6.12 "$d/elf" 2>>"$d/err"; r2=$?
	if [ $r1 = 0 ] && [ $r2 = 0 ] && cmp -s "$d/elf" "$V7" && ! ls "$d"/elf.BTF* >/dev/null 2>&1; then
		ok "btfids --kernel 6.12 twice on the final 7.x vmlinux: in place, the bytes as they were"
	else
		bad "btfids --kernel 6.12 on the final 7.x vmlinux: exit $r1/$r2, $(cmp -s "$d/elf" "$V7" && echo same || echo changed): $(head -1 "$d/err")"
	fi
	# a module on another build's base: every verb says why, not only resolve
	if [ -f "$K/amd64-6.12/modules/tcp_bbr.ko" ]; then
		d=$tmp/otherverbs && mkdir -p "$d" && cp "$K/amd64-6.12/modules/tcp_bbr.ko" "$d/m.ko"
		for v in check dump "models --all"; do
			# shellcheck disable=SC2086 # v: words
			"$B" $v -b "$V7" "$d/m.ko" >/dev/null 2>"$d/err"; rc=$?
			if [ $rc = 2 ] && grep -q "m.ko: built for Linux 6\.12\..* (vermagic), but -b $V7 is Linux 7\.[0-9]*\..* (linux_banner): the base of another build" "$d/err" &&
			   grep -q "^FAILED $d/m.ko: .*does not fit its base" "$d/err"; then
				ok "$v: a 6.12 module on the 7.x vmlinux: refused, and why"
			else
				bad "$v: a 6.12 module on the 7.x vmlinux: exit $rc: $(tr '\n' ' ' <"$d/err" | cut -c1-200)"
			fi
		done
	fi
	# a module on a base of the other byte order: every verb says so
	if [ -f "$K/s390x-7/vmlinux" ]; then
		d=$tmp/otherendian && mkdir -p "$d" && cp "$K/amd64-7/modules/tcp_bbr.ko" "$d/m.ko"
		for v in resolve check dump "models --all"; do
			want=2
			[ "$v" = resolve ] && want=255 && v=
			# shellcheck disable=SC2086 # v: words
			"$B" $v -b "$K/s390x-7/vmlinux" "$d/m.ko" >/dev/null 2>"$d/err"; rc=$?
			if [ $rc = $want ] && grep -q "m.ko: a little-endian module, but -b .*s390x-7/vmlinux is big-endian: another machine's base" "$d/err" &&
			   cmp -s "$d/m.ko" "$K/amd64-7/modules/tcp_bbr.ko"; then
				ok "${v:-resolve}: an amd64 module on the s390x vmlinux: refused, the byte order said"
			else
				bad "${v:-resolve}: an amd64 module on the s390x vmlinux: exit $rc: $(tr '\n' ' ' <"$d/err" | cut -c1-200)"
			fi
		done
	fi
	d=$tmp/verbs7
	# dump names each entry's set8 flags: the names, by the values of a
	# 7.x tree's include/linux/btf.h, give back the flags word
	h=$(kbuild_dir 7.3)/linux-source-7.3/include/linux/btf.h
	if [ -f "$h" ]; then
		"$B" dump "$V7" >"$d/dump" 2>&1
		if res=$(python3 - "$h" "$d/dump" <<'PY'
import re, sys
kf = {m.group(1): 1 << int(m.group(2)) for m in
      re.finditer(r'#define (KF_\w+)\s+\(1 << (\d+)\)', open(sys.argv[1]).read())}
n = bad = 0
for line in open(sys.argv[2]):
    m = re.search(r'  flags (0x[0-9a-f]+) \(([^)]*)\)$', line)
    if not m:
        continue
    n += 1
    v = 0
    for w in m.group(2).split('|'):
        v |= kf[w] if w in kf else int(w, 16)
    bad += v != int(m.group(1), 16)
print(n, bad)
sys.exit(1 if bad or n < 100 else 0)
PY
		); then
			ok "dump of the 7.2 vmlinux names the flags of ${res% *} set8 entries, each as btf.h's values give it"
		else
			bad "dump's flag names against btf.h: $res (entries, wrong)"
		fi
	else
		echo "rerun: dump's flag names skipped (no 7.x tree's btf.h: kernel/build-tree)"
	fi
else
	echo "rerun: 7.x skipped (Debian's 7.x kernels not fetched: $R/fetch-kernels amd64-7)"
fi

if [ -f "$K/amd64-6.12/vmlinux" ]; then
	V6=$K/amd64-6.12/vmlinux
	rerun6 "amd64 6.12 vmlinux" "$V6"
	[ -f "$K/amd64-6.12/modules/tcp_bbr.ko" ] &&
		rerun6 "amd64 6.12 tcp_bbr.ko" "$K/amd64-6.12/modules/tcp_bbr.ko" "$V6"
	d=$tmp/self6 && mkdir -p "$d" && cp "$V6" "$d/elf"
	"$B" -b "$d/elf" "$d/elf" 2>"$d/err"; rc=$?
	if [ $rc = 0 ] && [ ! -s "$d/err" ] && cmp -s "$d/elf" "$V6"; then
		ok "btfids -b vmlinux vmlinux (6.12): no warning, the file as it was"
	else
		bad "btfids -b vmlinux vmlinux (6.12): exit $rc, $(wc -l < "$d/err") message lines: $(head -1 "$d/err")"
	fi
else
	echo "rerun: 6.12 skipped (Debian's 6.12 kernels not fetched: $R/fetch-kernels amd64-6.12)"
fi

echo "rerun: $passed passed, $failed failed"
[ "$failed" = 0 ]
