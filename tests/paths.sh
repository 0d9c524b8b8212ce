# shellcheck shell=bash
# paths.sh - sourced by the test scripts: where things are.
#   top  the repository         R  ../shared/realdata (BTFIDS_REALDATA)
#   K    the Debian kernels     B  the btfids under test (BTFIDS), absolute
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
R=${BTFIDS_REALDATA:-$top/../shared/realdata}
K=${BTFIDS_KERNELS:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kernels}
B=${BTFIDS:-$top/btfids/btfids}
[ "${B#/}" != "$B" ] || B=$top/$B

# kbuild_dir V: the kbuild-tiny folder whose linux-source-V tree the relink
# and boot tests use: BTFIDS_KBUILD's (~/.cache/btfids/kbuild), else, for
# 7.3, the patched tree's (kernel/build-tree, BTFIDS_KBUILD_PATCHED): the
# series adds to 7.3 and changes nothing those tests look at (the resolve
# call of scripts/gen-btf.sh, the single fentry path), so CI builds one 7.3
# tree for both
kbuild_dir() {
	local c=${XDG_CACHE_HOME:-$HOME/.cache}/btfids
	local d=${BTFIDS_KBUILD:-$c/kbuild} p=${BTFIDS_KBUILD_PATCHED:-$c/kbuild-patched}

	if [ "$1" = 7.3 ] && [ ! -f "$d/linux-source-7.3/.config" ] &&
	   [ -f "$p/linux-source-7.3/.config" ]; then
		echo "$p"
	else
		echo "$d"
	fi
}
