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

# relink_kbuild DIR V [ARCH]: kbuild-tiny's relink of DIR's linux-source-V
# tree (-ARCH for a cross tree) with RESOLVE_BTFIDS=$B; the caller holds the
# tree's relink lock. Skipped when the tree's vmlinux and image are already
# such a relink's: the same btfids (sha256), and neither it (kbuild relinks
# vmlinux when RESOLVE_BTFIDS is newer) nor those files touched since
# (DIR/.btfids-relink-V), so the boots of one make check share one relink;
# anything else that builds the tree (tests/kbuild.sh, tests/annotate.sh)
# touches vmlinux and so forces the next one. Errors on stderr.
relink_kbuild() {
	local d=$1 v=$2 arch=${3:-x86_64} t img stamp

	t=$d/linux-source-$v img=arch/x86/boot/bzImage
	case $arch in
	arm64) t=$t-arm64 img=arch/arm64/boot/Image ;;
	s390) t=$t-s390 img=arch/s390/boot/bzImage ;;
	esac
	stamp=$d/.btfids-relink-$v${3:+-$arch}
	_relink_state() { echo "$(sha256sum <"$B" | cut -d' ' -f1) $(stat -c %y "$B" "$t/vmlinux" "$t/$img" 2>/dev/null | tr '\n' ' ')"; }
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(_relink_state)" ] && return 0
	rm -f "$stamp"
	BTFIDS_KBUILD=$d BTFIDS_KBUILD_KERNEL=$v BTFIDS_KBUILD_ARCH=$arch "$R/kbuild-tiny" "$B" >/dev/null || return 1
	_relink_state >"$stamp"
}
