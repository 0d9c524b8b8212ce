#!/usr/bin/env bash
# differential7.sh - btfids against the kernel's own 7.2 and 7.3
# resolve_btfids (tests/kernel-tool.sh: built from Debian's linux-source-7.x)
# on the same inputs, the 7.x flow: each case runs both tools on two copies
# of one ELF with the same arguments (btfids with --kernel VERSION: fixtures
# carry no release, or another one) and wants the same exit status, the
# same output files (ELF.BTF_ids, ELF.BTF, ELF.BTF.base; present in both or
# neither, byte for byte), the same WARN lines in the same order, and an
# error from both or neither.
#
# Inputs, for every built target (ELF32/64, both byte orders): image7 (every
# kfunc path, tests/fixtures/src/kfuncs7.c) with pahole's BTF and with the
# decl tags of pahole >= 1.27, image7c (one kfunc in two sets with other
# flags: 7.3 fails), module7 split on image7, and the 6.x-era image and
# module (with and without --distill_base; module7 names a base type its
# types do not use, where btfids does better with --distill_base: flow7.sh). Deliberate differences
# (docs/upstream.md) are tests/flow7.sh's, not cases here.
#
# Ends with "differential7: N passed, N failed" or "differential7: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
FIX=$top/tests/build/fixtures

if ! ls "$FIX"/*/image7.nobtf >/dev/null 2>&1; then
	echo "differential7: skipped (no 7.x fixtures in $FIX: make fixtures)"
	exit 0
fi
declare -A KT
for v in 7.2 7.3; do
	KT[$v]=$("$top/tests/kernel-tool.sh" "$v" 2>/dev/null) ||
		echo "differential7: $v skipped (no kernel resolve_btfids $v: tests/kernel-tool.sh $v, needs apt as root)"
done
if [ -z "${KT[7.2]}${KT[7.3]}" ]; then
	echo "differential7: skipped (no 7.x kernel tool)"
	exit 0
fi

tmp=$(mktemp -d /tmp/btfids-diff7.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# run DIR TOOL INPUT ARGS...: a copy of INPUT as DIR/obj; TOOL ARGS obj in DIR
run() {
	local dir=$1 tool=$2 input=$3
	shift 3
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$input" "$dir/obj"
	(cd "$dir" && "$tool" "$@" obj >/dev/null 2>err; echo $? > rc)
}

# same VERSION NAME INPUT ARGS...: also the ELF itself must come out the same
same() {
	local v=$1 name=$2 input=$3 k=$tmp/k b=$tmp/b why="" s
	shift 3
	run "$k" "${KT[$v]}" "$input" "$@"
	run "$b" "$B" "$input" --kernel "$v" "$@"
	[ "$(cat "$k/rc")" = "$(cat "$b/rc")" ] || why+="exit $(cat "$k/rc") (kernel) vs $(cat "$b/rc") (btfids); "
	cmp -s "$k/obj" "$b/obj" || why+="the ELF differs after the run; "
	for s in .BTF_ids .BTF .BTF.base; do
		if [ -f "$k/obj$s" ] || [ -f "$b/obj$s" ]; then
			cmp -s "$k/obj$s" "$b/obj$s" || why+="obj$s differs; "
		fi
	done
	diff -q <(grep ^WARN "$k/err") <(grep ^WARN "$b/err") >/dev/null ||
		why+="WARN lines differ: $(grep ^WARN "$k/err" | head -2 | tr '\n' '|') vs $(grep ^WARN "$b/err" | head -2 | tr '\n' '|'); "
	if grep -qE '^(FAILED|ERROR)' "$k/err"; then
		grep -q ^FAILED "$b/err" || why+="only the kernel tool failed; "
	elif grep -q ^FAILED "$b/err"; then
		why+="only btfids failed: $(grep -m1 ^FAILED "$b/err"); "
	fi
	if [ -z "$why" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "  FAIL: $v $name: $why"
	fi
}

for v in 7.2 7.3; do
	[ -n "${KT[$v]}" ] || continue
	echo "differential7: kernel tool $v ${KT[$v]}"
	for d in "$FIX"/*/; do
		d=${d%/}
		t=$(basename "$d")
		same "$v" "$t image7, decl tags" "$d/image7.nobtf" --btf "$d/image7.tags.btf"
		same "$v" "$t image7, pahole's BTF" "$d/image7.nobtf" --btf "$d/image7.btf"
		same "$v" "$t image7 with its .BTF" "$d/image7"
		same "$v" "$t image7c, conflicting flags" "$d/image7c.nobtf" --btf "$d/image7c.tags.btf"
		same "$v" "$t image7 -v" "$d/image7.nobtf" -v --btf "$d/image7.tags.btf"
		same "$v" "$t module7 -b image7" "$d/module7.nobtf.o" -b "$d/image7" --btf "$d/module7.tags.btf"
		same "$v" "$t module --distill_base" "$d/module.o" -b "$d/image" --distill_base
		same "$v" "$t module7 -b raw base" "$d/module7.nobtf.o" -b "$d/image7.btf" --btf "$d/module7.btf"
		same "$v" "$t image --btf raw" "$d/image.k.nobtf" --btf "$d/image.k.btf"
		same "$v" "$t module -b image" "$d/module.o" -b "$d/image"
		same "$v" "$t funcs.o (no .BTF_ids)" "$d/funcs.o" --btf "$d/image.btf"
		# kbuild's last step: the first link's .BTF_ids into the final image
		rm -f "$tmp/blob"*
		cp "$d/image7.nobtf" "$tmp/blob" && "${KT[$v]}" --btf "$d/image7.tags.btf" "$tmp/blob" 2>/dev/null
		same "$v" "$t --patch_btfids" "$d/image7" --patch_btfids "$tmp/blob.BTF_ids"
		same "$v" "$t --patch_btfids, wrong size" "$d/image" --patch_btfids "$tmp/blob.BTF_ids"
	done
	host=$FIX/$(gcc -dumpmachine)
	same "$v" "missing --btf file" "$host/image7.nobtf" --btf /nonexistent.btf
	same "$v" "no BTF at all" "$host/image7.nobtf"
done

echo "differential7: $passed passed, $failed failed"
[ "$failed" = 0 ]
