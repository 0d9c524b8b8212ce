#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# seeds.sh DIR - the seed corpora of make fuzz, DIR/corpus/<target>/, from
# the built fixtures (tests/build/fixtures), the bad objects of
# check_badinput (tests/build/bad) and the real Debian 7.x kernel when
# cached (~/.cache/btfids/kernels/amd64-7: small modules, not the 400 MB
# vmlinux; its .BTF is extracted once to DIR/vmlinux7.btf, the base of
# the module seeds, FUZZ_VMLINUX_BTF). Inputs of the file-based targets
# are packed by pack.py (fuzzlib.h); every seed is at most 1 MiB.
# Small vmlinux-like ELFs are linked without libc from the fixtures' 7.x
# objects (kfuncs7.o, tramp7.o) for each target whose compiler is
# installed: a 12 KB ELF mutates better than a 770 KB static image.
set -uo pipefail

dir=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
fix=$top/tests/build/fixtures
btfids=${BTFIDS:-$top/btfids/btfids}
pack=$top/tests/fuzz/pack.py
lds=$top/linker-scripts
k7=${BTFIDS_KERNELS:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kernels}/amd64-7
work=$dir/seedwork
c=$dir/corpus
rm -rf "$work" && mkdir -p "$work" "$c/resolve" "$c/flow7" "$c/patch" "$c/tramp"

put() {		# TARGET NAME OPTS FILE...: one packed seed
	local t=$1 name=$2
	shift 2
	"$pack" "$@" > "$c/$t/$name" 2>/dev/null || rm -f "$c/$t/$name"
	[ -f "$c/$t/$name" ] && [ "$(stat -c %s "$c/$t/$name")" -gt 1048576 ] && rm -f "$c/$t/$name"
	return 0
}

# the in-place target: every image and module, the bad objects
for f in "$fix"/*/image "$fix"/*/module.o "$top"/tests/build/bad/*.o; do
	[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ] || continue
	cp "$f" "$c/resolve/$(echo "${f#"$top"/}" | tr / _)"
done

# small7 DIR TRIPLE NAME OBJ...: a libc-free link of the 7.x objects, no debug info
small7() {
	local d=$1 tr=$2 name=$3 cc=gcc
	shift 3
	[ "$tr" = "$(gcc -dumpmachine)" ] || cc=$tr-gcc
	command -v "$cc" >/dev/null || return 1
	"$cc" -nostdlib -static -Wl,-e,0 -Wl,--unresolved-symbols=ignore-all -Wl,-T,"$lds/btf_ids.lds" \
		-Wl,-T,"$lds/btf_tramp.lds" "$@" -o "$work/$tr.$name.full" 2>/dev/null || return 1
	"${cc%gcc}strip" -g -o "$work/$tr.$name" "$work/$tr.$name.full" 2>/dev/null ||
		cp "$work/$tr.$name.full" "$work/$tr.$name"
}

for d in "$fix"/*/; do
	d=${d%/}
	tr=$(basename "$d")
	[ -f "$d/kfuncs7.o" ] || continue
	small7 "$d" "$tr" s7 "$d/kfuncs7.o" || continue
	small7 "$d" "$tr" s7t "$d/kfuncs7.o" "$d/tramp7.o" || continue
	small7 "$d" "$tr" s7c "$d/kfuncs7c.o" || true
	w=$work/$tr
	# flow7: 7.3 and 7.2 rules, --tramp_table, its own table, the conflict
	put flow7 "$tr-s7-73" 0 "$w.s7" "$d/image7.tags.btf"
	put flow7 "$tr-s7-72" 1 "$w.s7" "$d/image7.tags.btf"
	put flow7 "$tr-s7-pahole-70" 2 "$w.s7" "$d/image7.btf"
	put flow7 "$tr-s7-table" 8 "$w.s7" "$d/image7.tags.btf"
	put flow7 "$tr-s7t-73" 0 "$w.s7t" "$d/image7t.tags.btf"
	put flow7 "$tr-s7t-72-fatal" 0x81 "$w.s7t" "$d/image7t.tags.btf"
	[ -f "$w.s7c" ] && put flow7 "$tr-s7c-73" 0 "$w.s7c" "$d/image7c.tags.btf"
	# the results: patch's blobs, tramp's v2 tables (raw and linked into the ELF)
	cp "$w.s7t" "$w.r7t"
	"$btfids" --btf "$d/image7t.tags.btf" "$w.r7t" 2>/dev/null || continue
	put patch "$tr-s7t-v2" 1 "$w.s7t" "$w.r7t.BTF_ids" "$w.r7t.BTF_tramp"
	put patch "$tr-s7t-noblob" 2 "$w.s7t" /dev/null /dev/null
	put tramp "$tr-raw-v2" 0 "$w.r7t.BTF" "$w.r7t.BTF_tramp"
	objcopy --add-section .BTF="$w.r7t.BTF" --add-section .BTF_tramp="$w.r7t.BTF_tramp" \
		"$w.s7t" "$w.l7t" 2>/dev/null &&
		put tramp "$tr-elf-v2" 1 /dev/null "$w.l7t" &&
		put tramp "$tr-elf-v2-btf" 2 "$w.r7t.BTF" "$w.l7t"
done

# the x86-64 module on the fixture image7 (FUZZ_BASE7), distilled too
x=$fix/$(gcc -dumpmachine)
if [ -f "$x/module7.nobtf.o" ]; then
	put flow7 module7-73 0x10 "$x/module7.nobtf.o" "$x/module7.tags.btf"
	put flow7 module7-72-distill 0x15 "$x/module7.nobtf.o" "$x/module7.tags.btf"
	put flow7 module-own-btf 0x50 "$x/module.o" /dev/null
fi

# v1 tables (tests/fixtures/models/tramp.c): resolved in place, and the 7.x files
if "$top/tests/fixtures/models/run.sh" "$work/v1" >/dev/null 2>&1; then
	put tramp v1-elf 1 /dev/null "$work/v1/tramp"
	cp "$work/v1/tramp.nobtf" "$work/v1/t7"
	if "$btfids" --kernel 7.3 --btf "$work/v1/tramp.btf" "$work/v1/t7" 2>/dev/null; then
		put patch v1-73 1 "$work/v1/tramp.nobtf" "$work/v1/t7.BTF_ids" "$work/v1/t7.BTF_tramp"
		put flow7 v1-73 0 "$work/v1/tramp.nobtf" "$work/v1/tramp.btf"
	fi
fi

# the real 7.x kernel: small modules, split on its vmlinux's .BTF
if [ -f "$k7/vmlinux" ]; then
	[ -s "$dir/vmlinux7.btf" ] ||
		objcopy --dump-section .BTF="$dir/vmlinux7.btf" "$k7/vmlinux" /dev/null 2>/dev/null
	for m in tcp_dctcp tcp_bbr fou; do
		ko=$k7/modules/$m.ko
		[ -f "$ko" ] || continue
		strip -g -o "$work/$m.ko" "$ko" 2>/dev/null || continue
		objcopy --dump-section .BTF="$work/$m.btf" "$ko" /dev/null 2>/dev/null
		objcopy --dump-section .BTF_ids="$work/$m.ids" "$ko" /dev/null 2>/dev/null
		put flow7 "real-$m-own" 0x61 "$work/$m.ko" /dev/null
		put flow7 "real-$m-btf" 0x21 "$work/$m.ko" "$work/$m.btf"
		put patch "real-$m" 0 "$work/$m.ko" "$work/$m.ids" /dev/null
	done
fi
for t in resolve flow7 patch tramp; do
	echo "fuzz: corpus: $t: $(find "$c/$t" -type f | wc -l) inputs"
done
