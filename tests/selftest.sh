#!/usr/bin/env bash
# selftest.sh - the kernel's own selftest of resolve_btfids, of each Linux
# tree, run with btfids as RESOLVE_BTFIDS: tools/testing/selftests/bpf/
# prog_tests/resolve_btfids.c with progs/btf_data.c, built outside test_progs
# with a stand-in test_progs.h (tests/selftest/), the way a user building the
# selftests with RESOLVE_BTFIDS=btfids gets them. btfids has no --kernel here:
# it must tell from the test object alone which flow the tree expects
# (docs/design.md, "Which flow": the kernel tree its debug info names).
#
# For each tree (6.1 6.12 7.2 7.3, or $BTFIDS_SELFTEST_TREES):
#   - its tools part from Debian's linux-source-VERSION (.ci/kernel-src:
#     cached in ~/.cache/btfids/src, or a kbuild tree);
#   - btf_data.bpf.o and resolve_btfids.test.o built by that tree's own
#     selftests Makefile, its rules and flags (tests/selftest/selftest.mk),
#     into a temporary directory;
#   - RESOLVE_BTFIDS run exactly as that Makefile runs it: 7.x patches the
#     test object ("--btf btf_data.bpf.o resolve_btfids.test.o", then
#     "--patch_btfids resolve_btfids.test.o.BTF_ids resolve_btfids.test.o"),
#     6.x resolves the linked binary in place ("--btf btf_data.bpf.o
#     test_progs"); the stand-in binary links the test object with
#     tests/selftest/main.c and btfids' own libbpf (its debug info stripped:
#     test_progs links the tree's libbpf, from the same tree) with the tree's
#     $(CFLAGS) $(LDLIBS) $(LDFLAGS), and runs in the build directory, where
#     the test reads its BTF;
#   - the same with the tree's own resolve_btfids (tests/kernel-tool.sh),
#     the reference: both must pass every check, and run as many.
# One line per tree: "selftest: 7.3 resolve_btfids: 157 checks, 0 failed
# (kernel tool: 157, 0)", "selftest: 6.1 skipped (<why>)" or "selftest: 7.2
# FAILED (<why>)" with the run's output; the last line is "selftest: N
# passed, N failed", or "selftest: skipped (<why>)" when no tree could run.
set -uo pipefail

. "$(dirname "$0")/paths.sh"
ST=$top/tests/selftest
LIBBPF_A=$top/build/libbpf/libbpf.a
trees=${BTFIDS_SELFTEST_TREES:-6.1 6.12 7.2 7.3}
passed=0 failed=0 skipped=""

for t in clang gcc make objcopy; do
	command -v "$t" >/dev/null || { echo "selftest: skipped (no $t: .ci/deps --cross)"; exit 0; }
done
[ -f "$LIBBPF_A" ] || { echo "selftest: skipped (no $LIBBPF_A: make)"; exit 0; }

tmp=$(mktemp -d /tmp/btfids-selftest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
objcopy --strip-debug "$LIBBPF_A" "$tmp/libbpf.a"
gcc -O2 -DTEST=resolve_btfids -c "$ST/main.c" -o "$tmp/main.o"	# no -g: no CU of ours

# build V S OUT: the two objects by the tree's Makefile (S: its selftests dir)
build() {
	local v=$1 s=$2 out=$3

	mkdir -p "$out"
	cp "$ST/test_progs.h" "$out/"
	make -s --no-print-directory -C "$s" -f Makefile -f "$ST/selftest.mk" OUTPUT="$out" \
		SKIP_LLVM=1 btfids-bpf-obj btfids-test-obj btfids-var-CC btfids-var-CFLAGS \
		btfids-var-LDLIBS btfids-var-LDFLAGS >"$out/build.log" 2>&1
}

# the stand-in test_progs, linked as the tree's Makefile links its runner
link() {	# DIR
	local cc cflags ldlibs ldflags
	read -r cc < "$1/CC.var"
	read -ra cflags < "$1/CFLAGS.var"
	read -ra ldlibs < "$1/LDLIBS.var"
	read -ra ldflags < "$1/LDFLAGS.var"
	"$cc" "${cflags[@]}" "$1/resolve_btfids.test.o" "$tmp/main.o" "$tmp/libbpf.a" \
		"${ldlibs[@]}" ${ldflags[@]+"${ldflags[@]}"} -o "$1/test_progs"
}

# run TOOL MODE OBJS DIR: a copy of OBJS in DIR, RESOLVE_BTFIDS=TOOL as the
# tree runs it, the test; prints "N F" (checks, failed) or fails with the log
run() {
	local tool=$1 mode=$2 objs=$3 d=$4 line
	rm -rf "$d" && cp -r "$objs" "$d"
	{
		if [ "$mode" = object ]; then
			"$tool" --btf "$d/btf_data.bpf.o" "$d/resolve_btfids.test.o" &&
			"$tool" --patch_btfids "$d/resolve_btfids.test.o.BTF_ids" "$d/resolve_btfids.test.o" &&
			link "$d"
		else
			link "$d" && "$tool" --btf "$d/btf_data.bpf.o" "$d/test_progs"
		fi && (cd "$d" && ./test_progs)
	} >"$d/run.log" 2>&1
	line=$(sed -nE 's/^resolve_btfids: ([0-9]+) checks, ([0-9]+) failed$/\1 \2/p' "$d/run.log")
	[ -n "$line" ] && echo "$line"
}

tree() {
	local v=$1 src s mode objs=$tmp/$1/objs kt b k why=""

	if ! src=$("$top/.ci/kernel-src" "$v" 2>"$tmp/src-$v.err"); then
		echo "selftest: $v skipped ($(tail -1 "$tmp/src-$v.err"))"
		skipped+="$v "
		return
	fi
	s=$src/tools/testing/selftests/bpf
	# how the tree's Makefile runs RESOLVE_BTFIDS on this test
	if grep -qF -- '--patch_btfids $$@.BTF_ids $$@' "$s/Makefile"; then
		mode=object
	elif grep -qF -- '$(RESOLVE_BTFIDS) --btf $(TRUNNER_OUTPUT)/btf_data.bpf.o $$@' "$s/Makefile"; then
		mode=binary
	else
		echo "selftest: $v FAILED (its selftests Makefile runs RESOLVE_BTFIDS in a way this script does not know)"
		failed=$((failed + 1))
		return
	fi
	if ! build "$v" "$s" "$objs"; then
		echo "selftest: $v FAILED (cannot build the test objects)"
		sed 's/^/    /' "$objs/build.log" | tail -20
		failed=$((failed + 1))
		return
	fi
	if ! b=$(run "$B" "$mode" "$objs" "$tmp/$v/btfids"); then
		why="btfids: the test did not run to its end"
	elif [ "${b#* }" != 0 ] || [ "${b% *}" = 0 ]; then
		why="btfids: ${b% *} checks, ${b#* } failed"
	fi
	k="-"
	if kt=$("$top/tests/kernel-tool.sh" "$v" 2>/dev/null); then
		if ! k=$(run "$kt" "$mode" "$objs" "$tmp/$v/kernel"); then
			why+="${why:+; }the kernel tool's run did not reach the test's end"
			k="?"
		elif [ "${k#* }" != 0 ]; then
			why+="${why:+; }the kernel tool fails its own test: ${k#* } failed"
		elif [ -z "$why" ] && [ "${k% *}" != "${b% *}" ]; then
			why="btfids ran ${b% *} checks, the kernel tool ${k% *}"
		fi
		k="${k% *}, ${k#* }"
	fi
	if [ -n "$why" ]; then
		echo "selftest: $v FAILED ($why)"
		for d in btfids kernel; do
			[ -f "$tmp/$v/$d/run.log" ] && sed "s/^/    $d: /" "$tmp/$v/$d/run.log" | tail -15
		done
		failed=$((failed + 1))
		return
	fi
	echo "selftest: $v resolve_btfids: ${b% *} checks, ${b#* } failed (kernel tool: $k)"
	passed=$((passed + 1))
}

for v in $trees; do
	tree "$v"
done
if [ $((passed + failed)) = 0 ]; then
	echo "selftest: skipped (no tree could be had: ${skipped% })"
	exit 0
fi
echo "selftest: $passed passed, $failed failed"
[ "$failed" = 0 ]
