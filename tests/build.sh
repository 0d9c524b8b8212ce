#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build.sh - a build that cannot be silently wrong (issue 40), in a copy of
# the tree (the files git knows, no build outputs), btfids/btfids only:
#   - built on the libbpf source, then again with LIBBPF_SRC=~/lsrc given
#     through sh -c (dash leaves the ~ to make) and HOME a folder where
#     lsrc is a copy of that source: ~ expanded, and every object, libbpf.a
#     and libbpf's installed headers rebuilt (a new source path);
#   - a make with nothing changed, or LIBBPF_SRC the same folder by a
#     relative path, rebuilds nothing;
#   - make install without LIBBPF_SRC (HOME without the cache) takes the
#     source of the last libbpf.a and rebuilds nothing; make -n, or a make
#     that stops for want of a source (one line naming how to get one),
#     leaves the stamps as they were (issue 54);
#   - a changed CFLAGS rebuilds every object of btfids, not libbpf; the
#     same CFLAGS from the environment, in a make run by make, nothing;
#   - LIBBPF_SRC=~user/... is refused in one line;
#   - a LIBBPF_SRC whose tools/include/uapi/linux/btf.h is older than 7.x
#     (Debian 12's /usr/include/linux/btf.h) stops the build in one line
#     naming that header, before anything is compiled, and the sources'
#     own check (btfids/btf_uapi.h) refuses it too.
# Ends with "build: N passed, N failed", or "build: skipped (...)" without
# the libbpf source, git or sh.
set -uo pipefail

. "$(dirname "$0")/paths.sh"
SRC=${LIBBPF_SRC:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/libbpf-src}
skip() { echo "build: skipped ($*)"; exit 0; }
[ -f "$SRC/tools/lib/bpf/libbpf.map" ] || skip "no libbpf source in $SRC: .ci/libbpf-src"
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || skip "$top is not a git checkout"
command -v sh >/dev/null || skip "no sh"
SRC=$(cd "$SRC" && pwd)
# the makes below take only what they are given (not make check's flags)
unset MAKEFLAGS MFLAGS MAKELEVEL CFLAGS LDFLAGS LINK XDG_CACHE_HOME

tmp=$(mktemp -d /tmp/btfids-build.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

T=$tmp/tree
mkdir -p "$T" "$tmp/home"
# the files git knows, new ones not ignored included, as they are now
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ ! -f "$f" ] || printf "%s\0" "$f"; done' _ |
	tar --null -T - -cf -) | tar -C "$T" -xf - || skip "cannot copy the tree"
cp -r "$SRC" "$tmp/home/lsrc"

# mk LOG ARGS...: make -j2 btfids/btfids in the copy, output in $tmp/log.LOG
mk() {
	local log=$1
	shift
	make -C "$T" --no-print-directory -j2 "$@" btfids/btfids >"$tmp/log.$log" 2>&1
}
# the outputs of a build: btfids' objects, archives and binary, libbpf's
# objects, archive and installed headers
outputs() {
	find "$T/btfids" "$T/build/libbpf" -type f \
		\( -name '*.o' -o -name '*.a' -o -name btfids -o -path '*/include/bpf/*.h' \)
}
# the outputs not written since the marker (none newer: none rebuilt)
stale() { outputs | while read -r f; do [ "$f" -nt "$tmp/marker" ] || echo "${f#"$T"/}"; done; }
fresh() { outputs | while read -r f; do [ "$f" -nt "$tmp/marker" ] && echo "${f#"$T"/}"; done; }
mark() { sleep 1; touch "$tmp/marker"; }
n() { grep -c . || true; }
list() { tr "\n" " " | cut -c1-300; }

if mk first LIBBPF_SRC="$SRC" && "$T/btfids/btfids" --version >"$tmp/ver" 2>&1; then
	ok "a build on $SRC: $(cat "$tmp/ver"), $(outputs | n) outputs"
else
	bad "a build on $SRC failed: $(tail -3 "$tmp/log.first")"
	echo "build: $passed passed, $failed failed"
	exit 1
fi

mark
mk again LIBBPF_SRC="$SRC"
f=$(fresh)
if [ -z "$f" ]; then ok "make again: nothing rebuilt"; else
	bad "make again rebuilt $(echo "$f" | n): $(echo "$f" | list)"; fi

# the source under another path, named with ~ through dash
mark
if HOME=$tmp/home sh -c "make -C '$T' --no-print-directory -j2 LIBBPF_SRC=~/lsrc btfids/btfids" \
	>"$tmp/tilde" 2>&1 && "$T/btfids/btfids" --version >/dev/null 2>&1; then
	ok "sh -c 'make LIBBPF_SRC=~/lsrc' ($(readlink -f /bin/sh)) builds"
else
	bad "sh -c 'make LIBBPF_SRC=~/lsrc' failed: $(tail -3 "$tmp/tilde")"
fi
if grep -q -- "-I$tmp/home/lsrc/tools/include/uapi " "$T/build/.cflags" &&
   ! grep -q -- '-I~' "$T/build/.cflags" "$tmp/tilde"; then
	ok "~/lsrc expanded to \$HOME/lsrc in the compile line"
else
	bad "~/lsrc not expanded: $(grep -o -- '-I[^ ]*uapi' "$T/build/.cflags" "$tmp/tilde" | head -2)"
fi
s=$(stale)
if [ -z "$s" ] && [ "$(fresh | n)" = "$(outputs | n)" ]; then
	ok "a new LIBBPF_SRC rebuilt every one of $(outputs | n) outputs (btfids/*.o, libbpf's objects, libbpf.a, its headers)"
else
	bad "a new LIBBPF_SRC left $(echo "$s" | n) outputs as they were: $(echo "$s" | list)"
fi

# the same folder by a relative path: the same absolute one, nothing to do
mark
mk relative LIBBPF_SRC=../home/lsrc
f=$(fresh)
if [ -z "$f" ] && grep -q -- "-I$tmp/home/lsrc/tools/include/uapi " "$T/build/.cflags"; then
	ok "LIBBPF_SRC=../home/lsrc (the same folder, relative): made absolute, nothing rebuilt"
else
	bad "LIBBPF_SRC=../home/lsrc rebuilt $(echo "$f" | n): $(echo "$f" | list); $(tail -2 "$tmp/log.relative")"
fi

# LIBBPF_SRC not given (issue 54): the one the last libbpf.a was built
# from, so the README's make install after make LIBBPF_SRC=... rebuilds
# nothing (HOME a folder without the cache: the default would not do)
mkdir -p "$tmp/nohome"
mark
if HOME=$tmp/nohome make -C "$T" --no-print-directory -j2 install PREFIX="$tmp/prefix" \
	>"$tmp/log.install" 2>&1 && [ -x "$tmp/prefix/bin/btfids" ]; then
	f=$(fresh)
	if [ -z "$f" ]; then ok "make install without LIBBPF_SRC: the last build's ($(cat "$T/build/.libbpf-src")), nothing rebuilt"; else
		bad "make install without LIBBPF_SRC rebuilt $(echo "$f" | n): $(echo "$f" | list)"; fi
else
	bad "make install without LIBBPF_SRC failed: $(tail -3 "$tmp/log.install")"
fi
# a dry run, or a make that stops for want of the source, leaves the stamps
stamps() { cat "$T"/build/.cflags "$T"/build/.libbpf "$T"/build/.libbpf-src; stat -c %Y "$T"/build/.cflags "$T"/build/.libbpf; }
stamps >"$tmp/stamps"
mark
HOME=$tmp/nohome make -C "$T" --no-print-directory -n LIBBPF_SRC="$tmp/nosuch" btfids/btfids >"$tmp/log.dry" 2>&1
if stamps | cmp -s - "$tmp/stamps"; then ok "make -n LIBBPF_SRC=<another folder> leaves build/.cflags, .libbpf and .libbpf-src as they were"; else
	bad "make -n LIBBPF_SRC=<another folder> changed the stamps: $(stamps | diff "$tmp/stamps" - | list)"; fi
mk nosrc LIBBPF_SRC="$tmp/nosuch"; rc=$?
msg=$(grep -v '^make\(\[[0-9]*\]\)\?: \*\*\* ' "$tmp/log.nosrc")
if [ $rc != 0 ] && [ "$(echo "$msg" | n)" = 1 ] && stamps | cmp -s - "$tmp/stamps" &&
   echo "$msg" | grep -qF "make: no libbpf source in $tmp/nosuch: make LIBBPF_SRC=<a 7.x kernel tree>; or root runs BTFIDS_LIBBPF_SRC=/srv/libbpf-src .ci/libbpf-src, then make LIBBPF_SRC=/srv/libbpf-src"; then
	ok "no source: one line naming the recipe, the stamps as they were: $msg"
else
	bad "no source: exit $rc, $(echo "$msg" | n) lines, stamps $(stamps | cmp -s - "$tmp/stamps" && echo kept || echo changed): $(echo "$msg" | head -2)"
fi
HOME=$tmp/nohome make -C "$T" --no-print-directory -j2 btfids/btfids >"$tmp/log.after" 2>&1
f=$(fresh)
if [ -z "$f" ]; then ok "then make without LIBBPF_SRC: nothing rebuilt"; else
	bad "make after those rebuilt $(echo "$f" | n): $(echo "$f" | list)"; fi

# CFLAGS: every object of btfids, and not libbpf (built with its own flags)
mark
if mk cflags LIBBPF_SRC="$tmp/home/lsrc" CFLAGS="-O1 -g" && "$T/btfids/btfids" --version >/dev/null 2>&1; then
	s=$(stale | grep -v '^build/libbpf/')
	f=$(fresh | grep '^build/libbpf/')
	if [ -z "$s" ] && [ -z "$f" ] && grep -q -- ' -O1 -g ' "$T/build/.cflags"; then
		ok "CFLAGS=\"-O1 -g\" rebuilt every object of btfids, the archive and the binary, and not libbpf"
	else
		bad "CFLAGS=\"-O1 -g\": not rebuilt: $(echo "$s" | list); libbpf rebuilt: $(echo "$f" | n)"
	fi
else
	bad "make CFLAGS=\"-O1 -g\" failed: $(tail -3 "$tmp/log.cflags")"
fi

# the same CFLAGS from the environment, and a make run from a recipe (as
# tests/install.sh runs from make check): the same compile line, nothing
# rebuilt (the Makefile leaves CFLAGS as given: no flags added twice)
mark
CFLAGS="-O1 -g" make -C "$T" --no-print-directory LIBBPF_SRC="$tmp/home/lsrc" \
	--eval 'nested: ; @$(MAKE) --no-print-directory -j2 btfids/btfids' nested >"$tmp/log.nested" 2>&1
f=$(fresh)
if [ -z "$f" ]; then ok "CFLAGS=\"-O1 -g\" from the environment, make within make: nothing rebuilt"; else
	bad "CFLAGS from the environment, make within make rebuilt $(echo "$f" | n): $(echo "$f" | list)"; fi

# ~user: make cannot expand it; one line, nothing built
mark
mk user LIBBPF_SRC='~nosuchuser/lsrc'; rc=$?
if [ $rc != 0 ] && [ "$(n <"$tmp/log.user")" = 1 ] && grep -q 'LIBBPF_SRC=~nosuchuser/lsrc: .*~user' "$tmp/log.user" &&
   [ -z "$(fresh)" ]; then
	ok "LIBBPF_SRC=~nosuchuser/lsrc refused: $(cat "$tmp/log.user")"
else
	bad "LIBBPF_SRC=~nosuchuser/lsrc: exit $rc, $(n <"$tmp/log.user") lines: $(head -3 "$tmp/log.user")"
fi

# an old BTF uapi header: the source with Debian 12's btf.h (6.1's), else
# the 7.x one with its 5-bit kind and 16-bit vlen masks put back
old=$tmp/old
cp -rs "$SRC" "$old"
h=$old/tools/include/uapi/linux/btf.h
rm -f "$h"
if grep -q '>> 24) & 0x1f' /usr/include/linux/btf.h 2>/dev/null; then
	cp /usr/include/linux/btf.h "$h" && from=/usr/include/linux/btf.h
else
	sed -e 's/>> 24) & 0x7f)/>> 24) \& 0x1f)/' -e 's/(info) & 0xffffff)/(info) \& 0xffff)/' \
		"$SRC/tools/include/uapi/linux/btf.h" >"$h" && from="a 6.x-like copy of 7.x's"
fi
mark
mk old LIBBPF_SRC="$old"; rc=$?
msg=$(grep -v '^make\(\[[0-9]*\]\)\?: \*\*\* ' "$tmp/log.old")
if [ $rc != 0 ] && [ "$(echo "$msg" | n)" = 1 ] &&
   echo "$msg" | grep -q "^make: $h is older than .*set LIBBPF_SRC to a 7.x kernel tree.*\.ci/libbpf-src" &&
   [ -z "$(fresh)" ]; then
	ok "btf.h of 6.x ($from) stops the build in one line, nothing built: $msg"
else
	bad "btf.h of 6.x ($from): exit $rc, $(echo "$msg" | n) lines, $(fresh | n) outputs written: $(echo "$msg" | head -3)"
fi
# the sources' own check, for a build that goes round the Makefile
cc -fsyntax-only -std=gnu11 -D_GNU_SOURCE -I"$T/include" -I"$T/btfids" -I"$T/build/libbpf/include" \
	-I"$old/tools/include/uapi" "$T/btfids/verify.c" >"$tmp/direct" 2>&1; rc=$?
if [ $rc != 0 ] && grep -q 'error: #error "btfids: <linux/btf.h> is older than Linux 7.x' "$tmp/direct"; then
	ok "verify.c compiled against that btf.h without make: #error of btfids/btf_uapi.h"
else
	bad "verify.c against 6.x's btf.h: exit $rc: $(grep -m2 error "$tmp/direct")"
fi

echo "build: $passed passed, $failed failed"
[ "$failed" = 0 ]
