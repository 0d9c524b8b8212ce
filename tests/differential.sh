#!/usr/bin/env bash
# differential.sh - btfids against the kernel's own resolve_btfids (Debian's
# linux-kbuild-6.12 build, fetched by `bench/run --kernel-tool`) on the same
# inputs: each case runs both tools on two copies of one file with the same
# arguments and wants the same exit status, the same resulting bytes, the
# same WARN lines in the same order, and a FAILED line from both or neither.
#
# Inputs: of every built target (ELF32/64, both byte orders:
# tests/build/fixtures) the image (as image.k: no name in over 100 lists,
# the 6.12 tool's limit, which btfids does not have), module and module_dup,
# with the object's own .BTF, --btf raw or ELF, and split on -b; the bad
# objects the kernel tool handles sanely; usage errors; and, when cached,
# the real Debian kernels (vmlinux of amd64 and s390x, 7 amd64 modules)
# cleared by mkunresolved. Deliberate differences (docs/upstream.md)
# are not cases here.
#
# Ends with "differential: N passed, N failed" or "differential: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
FIX=$top/tests/build/fixtures

if ! KT=$("$top/bench/run" --kernel-tool 2>/dev/null) || [ ! -x "$KT" ]; then
	echo "differential: skipped (cannot fetch Debian's linux-kbuild-6.12 resolve_btfids: bench/run --kernel-tool, needs apt)"
	exit 0
fi
if ! ls "$FIX"/*/image >/dev/null 2>&1; then
	echo "differential: skipped (no fixtures in $FIX: make fixtures)"
	exit 0
fi

tmp=$(mktemp -d /tmp/btfids-diff.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

# run TOOL DIR INPUT ARGS...: a copy of INPUT as DIR/obj, TOOL ARGS with {}
# replaced by it; DIR/rc, DIR/err (WARN/FAILED lines, the copy's path as F)
run() {
	local tool=$1 dir=$2 input=$3 a args=()
	shift 3
	mkdir -p "$dir"
	[ "$input" = - ] || cp "$input" "$dir/obj"
	for a in "$@"; do args+=("${a//\{\}/$dir/obj}"); done
	"$tool" "${args[@]}" >/dev/null 2>"$dir/stderr"
	echo $? > "$dir/rc"
	grep -E '^(WARN|FAILED)' "$dir/stderr" | sed "s|$dir/obj|F|g" > "$dir/err"
}

# same NAME INPUT ARGS...: both tools, compared
same() {
	local name=$1 input=$2 k=$tmp/k b=$tmp/b why=""
	shift 2
	rm -rf "$k" "$b"
	run "$KT" "$k" "$input" "$@"
	run "$B" "$b" "$input" "$@"
	[ "$(cat "$k/rc")" = "$(cat "$b/rc")" ] ||
		why="exit $(cat "$k/rc") (kernel) vs $(cat "$b/rc") (btfids); "
	if [ "$input" != - ] && ! cmp -s "$k/obj" "$b/obj"; then
		why+="bytes differ at $(cmp "$k/obj" "$b/obj" | sed 's/.*differ: //'); "
	fi
	diff -q <(grep ^WARN "$k/err") <(grep ^WARN "$b/err") >/dev/null ||
		why+="WARN lines differ: $(grep ^WARN "$k/err" | head -2 | tr '\n' '|') vs $(grep ^WARN "$b/err" | head -2 | tr '\n' '|'); "
	if grep -q ^FAILED "$k/err"; then
		grep -q ^FAILED "$b/err" || why+="only the kernel tool failed: $(grep -m1 ^FAILED "$k/err"); "
	elif grep -q ^FAILED "$b/err"; then
		why+="only btfids failed: $(grep -m1 ^FAILED "$b/err"); "
	fi
	if [ -z "$why" ]; then ok; else bad "$name: $why"; fi
}

echo "differential: kernel tool $KT"
for d in "$FIX"/*/; do
	d=${d%/}
	t=$(basename "$d")
	# image.k: the image within the kernel tool's 100-lists-per-name limit
	same "$t image" "$d/image.k" {}
	same "$t image --btf raw" "$d/image.k" --btf "$d/image.k.btf" {}
	same "$t image --btf ELF" "$d/image.k.nobtf" --btf "$d/image.k" {}
	same "$t image -v" "$d/image.k" -v {}
	same "$t module -b image" "$d/module.o" -b "$d/image" {}
	same "$t module --btf_base=image" "$d/module.o" --btf_base="$d/image" {}
	same "$t module_dup -b image" "$d/module_dup.o" -b "$d/image" {}
	same "$t module -b raw base" "$d/module.o" -b "$d/image.btf" {}
	same "$t funcs.o (no .BTF_ids)" "$d/funcs.o" {}
done

# bad objects both tools refuse or accept alike (tests/fixtures/bad)
host=$FIX/x86_64-linux-gnu
if [ -d "$top/tests/build/bad" ]; then
	for o in kind nouniq dupset notelf btf-missing btf-garbage; do
		f=$top/tests/build/bad/$o
		[ -f "$f" ] || f=$f.o
		[ -f "$f" ] && same "bad $o" "$f" -b "$host/image" {}
	done
fi

# usage
same "no arguments" -
same "unknown option" "$host/image" --no-such-option {}
same "missing file" - /nonexistent/vmlinux
same "option without its argument" - --btf

# real kernels, cleared as the kernel tool found them at build time
if [ -x "$R/mkunresolved" ] && [ -f "$K/amd64-6.12/vmlinux" ] && [ -f "$K/s390x-6.12/vmlinux" ]; then
	for k in amd64-6.12 s390x-6.12; do
		"$R/mkunresolved" "$K/$k/vmlinux" "$tmp/$k.vmlinux" >/dev/null &&
			same "$k vmlinux" "$tmp/$k.vmlinux" {}
	done
	for m in "$K"/amd64-6.12/modules/*.ko; do
		"$R/mkunresolved" "$m" "$tmp/m.ko" --base "$K/amd64-6.12/vmlinux" >/dev/null &&
			same "amd64-6.12 $(basename "$m")" "$tmp/m.ko" -b "$K/amd64-6.12/vmlinux" {}
	done
else
	echo "differential: real kernels skipped (not fetched: $R/fetch-kernels)"
fi

echo "differential: $passed passed, $failed failed"
[ "$failed" = 0 ]
