#!/usr/bin/env bash
# kernel-tool.sh VERSION - print the path of the kernel's own resolve_btfids
# of Linux VERSION (6.1, 6.12, 7.2, 7.3), built once from Debian's
# linux-source-VERSION (.ci/kernel-src) into ~/.cache/btfids/tools/VERSION,
# the reference the 7.x differential and kbuild tests compare btfids with,
# and that runs each tree's own selftest (tests/selftest.sh). Exit 1 (with a
# reason on stderr) when it cannot be had.
set -euo pipefail

v=${1:?usage: kernel-tool.sh VERSION}
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/btfids
out=$cache/tools/$v
# kbuild-tiny's tree builds it as part of the kernel
for t in "$out/resolve_btfids" \
	 "${BTFIDS_KBUILD:-$cache/kbuild}/linux-source-$v/tools/bpf/resolve_btfids/resolve_btfids"; do
	if [ -x "$t" ]; then
		echo "$t"
		exit 0
	fi
done
src=$("$top/.ci/kernel-src" "$v") || exit 1
mkdir -p "$out"
make -s -C "$src/tools/bpf/resolve_btfids" OUTPUT="$out/" >"$out/build.log" 2>&1 ||
	{ echo "kernel-tool.sh: cannot build $src/tools/bpf/resolve_btfids (see $out/build.log)" >&2; exit 1; }
echo "$out/resolve_btfids"
