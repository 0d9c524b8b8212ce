#!/usr/bin/env bash
# cross.sh - run the fixture image of every target in tests/fixtures/targets
# after btfids resolved it: natively when the host can run it (its own
# triple; i686 on x86_64 when the kernel runs 32-bit code), else under
# qemu-user (qemu-<arch>-static, from qemu-user-static). The image checks its
# own .BTF_ids against its own BTF (tests/fixtures/src/image.c) and must
# print "fixture: ok" and exit 0.
#
# One line per target: "cross: <triple> ran (<how>)" (native, qemu-ARCH-static or both), "cross: <triple> skipped
# (<reason>)" or "cross: <triple> FAILED (<why>)" (then the run's output,
# indented); the last line is "cross: N passed, N failed".
#
# Environment: BTFIDS (the binary under test, default btfids/btfids),
# BTFIDS_TEST_BUILD (default tests/build; fixtures in its fixtures/).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
fx=${BTFIDS_TEST_BUILD:-$top/tests/build}/fixtures
[ "${fx#/}" != "$fx" ] || fx=$top/$fx
btfids=${BTFIDS:-$top/btfids/btfids}
[ "${btfids#/}" != "$btfids" ] || btfids=$top/$btfids
host=$(gcc -dumpmachine)
timeout=${BTFIDS_CROSS_TIMEOUT:-120}

tmp=$(mktemp -d /tmp/btfids-cross.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# the qemu-user name of a triple's architecture
qemu_arch() {
	case "${1%%-*}" in
	i?86) echo i386 ;;
	arm*) echo arm ;;
	powerpc64le) echo ppc64le ;;
	powerpc64) echo ppc64 ;;
	powerpc) echo ppc ;;
	*) echo "${1%%-*}" ;;	# x86_64 aarch64 s390x riscv64 mips
	esac
}

# Can the host execute TRIPLE's IMAGE itself? Its own triple can; i686 on
# x86_64 only with the kernel's IA32 emulation, so ask the kernel: execv()
# the (still unresolved) image. Not through the shell, timeout or env:
# their execvp() answers the kernel's ENOEXEC by handing the file to
# /bin/sh (POSIX's fallback for scripts), which fails with its own exit
# code (2, "Syntax error") and would pass for a run. Python's os.execv()
# has no fallback: ENOEXEC (or any other refusal) exits 126 here.
native() {
	local triple=$1 image=$2 rc=0

	[ "$triple" = "$host" ] && return 0
	case "$triple:$host" in
	i?86-linux-gnu:x86_64-linux-gnu) ;;
	*) return 1 ;;
	esac
	timeout "$timeout" python3 -c '
import os, sys
try:
	os.execv(sys.argv[1], sys.argv[1:])
except OSError as e:
	print("cross: %s: %s" % (sys.argv[1], e.strerror), file=sys.stderr)
	sys.exit(126)' "$image" >/dev/null 2>&1 || rc=$?
	[ "$rc" != 126 ] && [ "$rc" != 127 ]
}

fail() {	# TRIPLE WHY [OUTPUT]
	echo "cross: $1 FAILED ($2)"
	local line
	[ -z "${3:-}" ] || while IFS= read -r line; do echo "    $line"; done <<<"$3"
	failed=$((failed + 1))
}

# The probe itself: a file the kernel refuses to execute (ENOEXEC: no ELF,
# no #!) must not pass for a host that runs it, as it did through
# execvp()'s fallback to /bin/sh
printf 'not a program (\n' >"$tmp/noexec" && chmod +x "$tmp/noexec"
if native i686-linux-gnu "$tmp/noexec" && [ "$host" = x86_64-linux-gnu ]; then
	fail probe "a file the kernel cannot execute was taken for a native one"
fi

while read -r triple; do
	case "$triple" in ''|'#'*) continue ;; esac
	image=$fx/$triple/image
	if [ ! -f "$image" ]; then
		if [ "$triple" != "$host" ] && ! command -v "$triple-gcc" >/dev/null; then
			echo "cross: $triple skipped (no $triple-gcc)"
		else
			echo "cross: $triple skipped (fixture not built: make fixtures)"
		fi
		continue
	fi

	# how to run it: natively, else under qemu-user; a foreign image the
	# host runs natively (i686 with IA32 emulation) runs under qemu-user
	# too, the way a host without it runs it
	runs=()
	native "$triple" "$image" && runs+=(native)
	if [ "$triple" != "$host" ]; then
		qemu=qemu-$(qemu_arch "$triple")-static
		if command -v "$qemu" >/dev/null; then
			runs+=("$qemu")
		elif [ ${#runs[@]} = 0 ]; then
			echo "cross: $triple skipped (no $qemu)"
			continue
		fi
	fi

	img=$tmp/$triple
	cp "$image" "$img"
	rc=0
	out=$("$btfids" "$img" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then
		fail "$triple" "btfids exit $rc" "$out"
		continue
	fi
	ok=1
	for r in "${runs[@]}"; do
		run=()
		[ "$r" = native ] || run=("$r")
		rc=0
		out=$(timeout "$timeout" "${run[@]}" "$img" 2>&1) || rc=$?
		if [ "$rc" = 124 ]; then
			fail "$triple" "no answer in ${timeout}s${run[*]:+ under ${run[*]}}" "$out"
		elif [ "$rc" != 0 ] || ! grep -qx 'fixture: ok' <<<"$out"; then
			fail "$triple" "exit $rc${run[*]:+ under ${run[*]}}, no 'fixture: ok'" "$out"
		else
			continue
		fi
		ok=0
		break
	done
	if [ "$ok" = 1 ]; then
		echo "cross: $triple ran (${runs[*]})"
		passed=$((passed + 1))
	fi
done < "$top/tests/fixtures/targets"

echo "cross: $passed passed, $failed failed"
[ "$failed" = 0 ]
