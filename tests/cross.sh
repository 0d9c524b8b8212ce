#!/usr/bin/env bash
# cross.sh - run the fixture image of every target in tests/fixtures/targets
# after btfids resolved it: natively when the host can run it (its own
# triple; i686 on x86_64 when the kernel runs 32-bit code), else under
# qemu-user (qemu-<arch>-static, from qemu-user-static). The image checks its
# own .BTF_ids against its own BTF (tests/fixtures/src/image.c) and must
# print "fixture: ok" and exit 0.
#
# One line per target: "cross: <triple> ran", "cross: <triple> skipped
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
# x86_64 only with the kernel's IA32 emulation, so ask the kernel: exec the
# (still unresolved) image, 126 means it cannot.
native() {
	local triple=$1 image=$2 rc=0

	[ "$triple" = "$host" ] && return 0
	case "$triple:$host" in
	i?86-linux-gnu:x86_64-linux-gnu) ;;
	*) return 1 ;;
	esac
	timeout "$timeout" "$image" >/dev/null 2>&1 || rc=$?
	[ "$rc" != 126 ] && [ "$rc" != 127 ]
}

fail() {	# TRIPLE WHY [OUTPUT]
	echo "cross: $1 FAILED ($2)"
	local line
	[ -z "${3:-}" ] || while IFS= read -r line; do echo "    $line"; done <<<"$3"
	failed=$((failed + 1))
}

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

	run=()
	if ! native "$triple" "$image"; then
		qemu=qemu-$(qemu_arch "$triple")-static
		if ! command -v "$qemu" >/dev/null; then
			echo "cross: $triple skipped (no $qemu)"
			continue
		fi
		run=("$qemu")
	fi

	img=$tmp/$triple
	cp "$image" "$img"
	rc=0
	out=$("$btfids" "$img" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then
		fail "$triple" "btfids exit $rc" "$out"
		continue
	fi
	rc=0
	out=$(timeout "$timeout" "${run[@]}" "$img" 2>&1) || rc=$?
	if [ "$rc" = 124 ]; then
		fail "$triple" "no answer in ${timeout}s${run[*]:+ under ${run[*]}}" "$out"
	elif [ "$rc" != 0 ] || ! grep -qx 'fixture: ok' <<<"$out"; then
		fail "$triple" "exit $rc${run[*]:+ under ${run[*]}}, no 'fixture: ok'" "$out"
	else
		echo "cross: $triple ran"
		passed=$((passed + 1))
	fi
done < "$top/tests/fixtures/targets"

echo "cross: $passed passed, $failed failed"
[ "$failed" = 0 ]
