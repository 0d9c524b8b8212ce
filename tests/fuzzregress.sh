#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzzregress.sh - the fuzzers' findings, kept: each file under
# tests/fuzz/regress/TARGET/ replayed through the fuzz target that found
# it (tests/build/replay/replay_TARGET: the target's own source, without
# libFuzzer, built with ASan and UBSan by make check; tests/fuzz/replay.c).
# A finding that comes back is a sanitizer report or a crash: that file
# fails. One line a file, then "fuzzregress: N passed, N failed".
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
bins=${BTFIDS_REPLAY_DIR:-tests/build/replay}
passed=0 failed=0
tmp=$(mktemp -d /tmp/btfids-fuzzregress.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=print_stacktrace=1

for d in tests/fuzz/regress/*/; do
	t=$(basename "$d")
	for f in "$d"*; do
		[ -f "$f" ] || continue
		name=$t/$(basename "$f")
		if [ ! -x "$bins/replay_$t" ]; then
			echo "  FAIL: $name: no $bins/replay_$t (make replay)"
			failed=$((failed + 1))
			continue
		fi
		if "$bins/replay_$t" "$f" >/dev/null 2>"$tmp/err"; then
			passed=$((passed + 1))
		else
			rc=$?
			failed=$((failed + 1))
			echo "  FAIL: $name: exit $rc: $(grep -m1 -E 'ERROR|runtime error|SUMMARY' "$tmp/err" || tail -1 "$tmp/err")"
		fi
	done
done
echo "fuzzregress: $passed passed, $failed failed"
[ "$failed" = 0 ]
