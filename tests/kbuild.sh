#!/usr/bin/env bash
# kbuild.sh - the drop-in test as kbuild runs it: relink a real Linux 6.12
# tree (../shared/realdata/kbuild-tiny) with RESOLVE_BTFIDS=btfids, then
# clear the new vmlinux's slots and resolve it again with the kernel's own
# resolve_btfids (built in that tree) and with btfids: the whole files and
# the warnings must be identical.
# Ends with "kbuild: N passed, N failed" or "kbuild: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
D=${BTFIDS_KBUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild}
T=$D/linux-source-6.12
KT=$T/tools/bpf/resolve_btfids/resolve_btfids

if [ ! -x "$R/kbuild-tiny" ] || [ ! -x "$R/mkunresolved" ]; then
	echo "kbuild: skipped (no $R/kbuild-tiny: the workspace's shared/realdata, not in this repository; set BTFIDS_REALDATA)"
	exit 0
fi
if [ ! -f "$T/.config" ] || [ ! -x "$KT" ]; then
	echo "kbuild: skipped (no kernel tree: run $R/kbuild-tiny once as root, about 12 minutes)"
	exit 0
fi
tmp=$(mktemp -d /tmp/btfids-kbuild.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# one relink of the shared tree at a time (tests/boot.sh takes the same lock)
if V=$(flock -w 900 "$D/.relink-6.12.lock" "$R/kbuild-tiny" "$B" 2>"$tmp/err"); then
	passed=$((passed + 1)); echo "  ok: kbuild relinked vmlinux with RESOLVE_BTFIDS=btfids"
	"$R/mkunresolved" "$V" "$tmp/k" >/dev/null
	cp "$tmp/k" "$tmp/b"
	"$KT" "$tmp/k" 2>"$tmp/k.err"; krc=$?
	"$B" "$tmp/b" 2>"$tmp/b.err"; brc=$?
	if [ $krc = $brc ] && cmp -s "$tmp/k" "$tmp/b" && cmp -s "$tmp/k.err" "$tmp/b.err"; then
		passed=$((passed + 1))
		echo "  ok: same file, exit status and warnings as the kernel's resolve_btfids ($(wc -l < "$tmp/b.err") warnings)"
	else
		failed=$((failed + 1))
		echo "  FAIL: differs from the kernel's resolve_btfids (exit $krc vs $brc)"
		diff "$tmp/k.err" "$tmp/b.err" | head -5
	fi
else
	failed=$((failed + 1)); echo "  FAIL: kbuild relink: $(cat "$tmp/err")"
fi
echo "kbuild: $passed passed, $failed failed"
[ $failed = 0 ]
