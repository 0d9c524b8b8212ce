#!/usr/bin/env bash
# package.sh - the Debian package round trip: dpkg-buildpackage -us -uc -b
# in a temporary copy of the tree, lintian (no errors), dpkg -i of btfids
# and btfids-dev, then the installed files: /usr/bin/btfids --version,
# man -w btfids, the man pages' lint, the built-in example built through
# pkg-config btfids and resolved by /usr/bin/btfids, and dpkg -r at the end.
# Ends with "package: N passed, N failed", or "package: skipped (<why>)".
# Installs into the system: root only.
set -uo pipefail

# shellcheck source=tests/paths.sh
. "$(dirname "$0")/paths.sh"
suite=package
# shellcheck source=tests/installed.sh
. "$top/tests/installed.sh"

for t in dpkg-buildpackage dh lintian fakeroot scdoc groff mandoc man pahole; do
	command -v "$t" >/dev/null ||
		{ echo "package: skipped (no $t: .ci/deps installs it)"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "package: skipped (dpkg -i needs root)"; exit 0; }
# a btfids installed by other means is not ours to replace
if dpkg-query -W -f='${Status}' btfids 2>/dev/null | grep -q 'ok installed' ||
   { [ -e /usr/bin/btfids ] && ! dpkg -S /usr/bin/btfids >/dev/null 2>&1; }; then
	echo "package: skipped (btfids is installed already)"
	exit 0
fi

# the kernel's libbpf source the Makefile builds libbpf.a from
LIBBPF_SRC=${LIBBPF_SRC:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/libbpf-src}
[ -f "$LIBBPF_SRC/tools/lib/bpf/libbpf.map" ] ||
	{ echo "package: skipped (no libbpf source in $LIBBPF_SRC: .ci/libbpf-src)"; exit 0; }
export LIBBPF_SRC

tmp=$(mktemp -d /tmp/btfids-package.XXXXXX)
installed=0
cleanup() {
	[ "$installed" = 0 ] || dpkg -r btfids btfids-dev >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

# the tree as it is (uncommitted changes too), without build products
mkdir "$tmp/src"
tar -C "$top" --exclude=./.git --exclude=./build --exclude=./tests/build --exclude=./bench/out \
    --exclude='*.o' --exclude='*.a' -cf - . | tar -C "$tmp/src" -xf -
if log=$(cd "$tmp/src" && nice dpkg-buildpackage -us -uc -b 2>&1); then
	ok "dpkg-buildpackage"
else
	bad "dpkg-buildpackage" "exit status" "$(tail -30 <<<"$log")"
	echo "package: $passed passed, $failed failed"
	exit 1
fi
debs=("$tmp"/btfids_*.deb "$tmp"/btfids-dev_*.deb)
lint=$(lintian --tag-display-limit 0 "$tmp"/*.changes 2>&1)
if grep -q '^E: ' <<<"$lint"; then
	bad "lintian" "errors" "$lint"
else
	ok "lintian ($(grep -c '^W: ' <<<"$lint") warnings)"
	[ -z "$lint" ] || sed 's/^/    /' <<<"$lint"
fi

if log=$(dpkg -i "${debs[@]}" 2>&1); then
	installed=1
	ok "dpkg -i"
else
	bad "dpkg -i" "exit status" "$log"
	echo "package: $passed passed, $failed failed"
	exit 1
fi
want=$(sed -n 's/^#define BTFIDS_VERSION[^"]*"\(.*\)"/\1/p' "$top/btfids/btfids.h")
out=$(/usr/bin/btfids --version 2>&1)
# "btfids VERSION", then what it was built with
if [ "${out%% (*}" = "btfids $want" ]; then ok "btfids --version"; else
	bad "btfids --version" "got '$out', want 'btfids $want ...'"; fi
page=$(man -w btfids 2>&1)
if [ "$page" = /usr/share/man/man1/btfids.1.gz ]; then ok "man -w btfids"; else
	bad "man -w btfids" "got '$page'"; fi
for p in /usr/share/man/man1/btfids*.1.gz /usr/share/man/man7/btfids*.7.gz; do
	gunzip -c "$p" > "$tmp/$(basename "$p" .gz)"
done
lint_man "$tmp"/btfids*.[17]
consumer "" /usr/share/pkgconfig /usr/bin/btfids "$tmp/example"

if dpkg -r btfids btfids-dev >/dev/null 2>&1 && [ ! -e /usr/bin/btfids ] &&
   [ ! -e /usr/include/btfids/tramp.h ]; then
	installed=0
	ok "dpkg -r"
else
	bad "dpkg -r" "btfids still installed"
fi
echo "package: $passed passed, $failed failed"
[ "$failed" = 0 ]
