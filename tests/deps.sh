#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh - no circle among btfids' files, by calls (nm of the objects
# make built: btfids/main.o and btfids/libbtfids.a, else make sanitize's
# under tests/build/san) and by includes (tests/deps.py). Ends with
# "deps: N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
for d in btfids tests/build/san; do
	if [ -f "$d/libbtfids.a" ] && [ -f "$d/main.o" ]; then
		exec python3 tests/deps.py "$d/main.o" "$d/libbtfids.a" -- include/btfids btfids
	fi
done
echo "deps: 0 passed, 1 failed"
echo "  FAIL: no btfids/libbtfids.a and main.o: run make"
exit 1
