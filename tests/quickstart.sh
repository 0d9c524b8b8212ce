#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# quickstart.sh - the README's "Quick start, without root" as a new user
# takes it (issue 54): an unprivileged user whose login shell is /bin/sh
# (useradd, removed at the end) and a fresh git clone of this checkout's
# HEAD (commit first: the working tree is not what is tested). Root does
# only the step the README gives root, BTFIDS_LIBBPF_SRC=/srv/libbpf-src
# .ci/libbpf-src, into a temporary folder instead of /srv, without the
# network (unshare -n: a copy of the libbpf source this machine has when
# it would need a download). Then, as the user (su -l: a login shell, a
# login's environment), each line of the README's code block in turn,
# where the README says it runs:
#   - make LIBBPF_SRC=...: btfids/btfids built;
#   - make install PREFIX=$HOME/.local: nothing rebuilt (the objects'
#     mtimes), the binary and the pages installed;
#   - export PATH=...: btfids is the installed one, and man finds its
#     pages (man -w, and a page printed);
#   - cd ~/src/linux: a kernel-tree-like folder, Debian's amd64 6.12
#     vmlinux and its modules (in net/ipv4); without them these steps
#     are skipped, on a line that says so;
#   - the btfids lines there: check (0 clean or 1 findings), dump, models,
#     help.
# The kbuild line (make -C ~/src/linux RESOLVE_BTFIDS=...) is not run
# again here: tests/kbuild.sh relinks real kernel trees with btfids.
# Prints a line a step ("  ok: ..." / "  FAIL: ..."), then
#   quick start as a user: N steps, F failed, R objects rebuilt by install
#   quickstart: P passed, F failed
# or "quickstart: skipped (<why>)" (exit 0): not root, no useradd, su,
# git or scdoc, no libbpf source, not a git checkout.
set -uo pipefail

. "$(dirname "$0")/paths.sh"
cd "$top" || exit 2
skip() { echo "quickstart: skipped ($*)"; exit 0; }
SRC=${LIBBPF_SRC:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/libbpf-src}
[ "$(id -u)" = 0 ] || skip "not root: it adds a user"
for t in useradd userdel su git scdoc man; do
	command -v "$t" >/dev/null || skip "no $t"
done
git rev-parse --verify -q HEAD >/dev/null || skip "$top is not a git checkout"
[ -f "$SRC/tools/lib/bpf/libbpf.map" ] || skip "no libbpf source in $SRC: .ci/libbpf-src"

passed=0 failed=0 steps=0 rebuilt=0
ok() { passed=$((passed + 1)); steps=$((steps + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); steps=$((steps + 1)); echo "  FAIL: $*"; }
tmp=$(mktemp -d /tmp/btfids-quickstart.XXXXXX) || exit 2
chmod 755 "$tmp"
user=btfidsqs$$
cleanup() {
	getent passwd "$user" >/dev/null && userdel "$user" 2>/dev/null
	getent group "$user" >/dev/null && groupdel "$user" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

home=$tmp/home
if ! useradd -m -d "$home" -s /bin/sh "$user" 2>"$tmp/useradd"; then
	echo "  FAIL: useradd: $(head -1 "$tmp/useradd")"
	echo "quickstart: 0 passed, 1 failed"
	exit 1
fi
if [ "$(getent passwd "$user" | cut -d: -f7)" = /bin/sh ]; then
	ok "user $user, login shell /bin/sh ($(readlink -f /bin/sh)), home $home"
else
	bad "user $user: login shell $(getent passwd "$user" | cut -d: -f7), not /bin/sh"
fi
# as_user LOG CMD: CMD in the user's login shell; its output in $tmp/LOG
as_user() { su -l "$user" -c "$2" >"$tmp/$1" 2>&1; }
tail3() { tail -3 "$tmp/$1" | tr '\n' '|'; }

# a fresh clone, as the user would make it (the clone made by root, then
# the user's: git refuses another user's repository as a source)
clone=$home/btfids
head=$(git rev-parse --short HEAD)
if git clone -q "$top" "$clone" 2>"$tmp/clone" && chown -R "$user:" "$clone"; then
	ok "a fresh clone of HEAD ($head) in ~/btfids"
else
	bad "git clone: $(head -1 "$tmp/clone")"
fi

# the quick start's code block, comments off, as the README has it
block=$(awk '/^## Quick start, without root/ { f = 1; next } /^## / { f = 0 }
	f && /^    [^ ]/ { sub(/^    /, ""); sub(/   *#.*$/, ""); print }' README.md)
root_cmd='BTFIDS_LIBBPF_SRC=/srv/libbpf-src .ci/libbpf-src'
srv=$tmp/srv/libbpf-src
if ! grep -qF "\`$root_cmd\`" README.md; then
	bad "the README's quick start gives root no '$root_cmd'"
elif command -v unshare >/dev/null &&
     (cd "$clone" && unshare -n env BTFIDS_LIBBPF_SRC="$srv" .ci/libbpf-src) >"$tmp/root" 2>&1 &&
     [ -f "$srv/tools/lib/bpf/libbpf.map" ]; then
	ok "root, in the clone: ${root_cmd/\/srv/$tmp/srv} ($(cat "$srv/SOURCE"))"
else
	echo "  note: root's step needs the network here ($(tail -1 "$tmp/root" 2>/dev/null)): a copy of $SRC instead"
	mkdir -p "$tmp/srv" && cp -r "$SRC" "$srv"
fi
chmod -R a+rX "$tmp/srv"

# a kernel-tree-like ~/src/linux: Debian's amd64 6.12 vmlinux and modules
deb=$K/amd64-6.12
tree=""
if [ -f "$deb/vmlinux" ] && ls "$deb"/modules/*.ko >/dev/null 2>&1; then
	tree=$home/src/linux
	mkdir -p "$tree/net/ipv4" && cp "$deb/vmlinux" "$tree/" && cp "$deb"/modules/*.ko "$tree/net/ipv4/" &&
		chown -R "$user:" "$home/src"
fi

# each line where the README runs it: $dir, after the lines before it
# (both for the user's shell, which expands the ~ and $HOME)
# shellcheck disable=SC2088
dir='~/btfids' env=':'
objs() { find "$clone/btfids" "$clone/build" -name '*.o' -o -name '*.a' 2>/dev/null; }
while IFS= read -r line; do
	[ -n "$line" ] || continue
	cmd=${line//\/srv\/libbpf-src/$srv}
	case $line in
	"make -C "*RESOLVE_BTFIDS=*)
		echo "  skipped: $line (tests/kbuild.sh relinks kernel trees with btfids)"
		;;
	"export "*)
		env="$env; $cmd"
		if as_user path "$env; command -v btfids" && [ "$(cat "$tmp/path")" = "$home/.local/bin/btfids" ]; then
			ok "$line: btfids is ~/.local/bin/btfids"
		else
			bad "$line: btfids is '$(cat "$tmp/path")', not $home/.local/bin/btfids"
		fi
		if as_user man "$env; man -w btfids-check && man btfids-check" &&
		   [ "$(head -1 "$tmp/man")" = "$home/.local/share/man/man1/btfids-check.1" ] &&
		   grep -q 'btfids-check - ' "$tmp/man"; then
			ok "man btfids-check after $line: $(head -1 "$tmp/man" | sed "s|$home|~|")"
		else
			bad "man btfids-check after $line: $(tail3 man)"
		fi
		;;
	"cd "*)
		if [ -z "$tree" ]; then
			echo "  skipped: $line and the lines after it (no Debian 6.12 vmlinux and modules in $deb: $R/fetch-kernels)"
			break
		fi
		dir=${line#cd }
		if as_user cd "cd $dir && ls vmlinux"; then ok "$line: vmlinux and $(find "$tree" -name '*.ko' | wc -l) modules there"; else
			bad "$line: $(tail3 cd)"; fi
		;;
	"make install"*)
		sleep 1
		touch "$tmp/marker"
		as_user install "cd $dir && $env && $cmd"; rc=$?
		rebuilt=$(objs | while read -r f; do [ "$f" -nt "$tmp/marker" ] && echo "$f"; done | wc -l)
		if [ $rc = 0 ] && [ "$rebuilt" = 0 ] && [ -x "$home/.local/bin/btfids" ] &&
		   [ -f "$home/.local/share/man/man1/btfids.1" ]; then
			ok "$line (in $dir): installed, 0 of $(objs | wc -l) objects and archives rebuilt"
		else
			bad "$line (in $dir): exit $rc, $rebuilt objects rebuilt: $(tail3 install)"
		fi
		;;
	*)
		as_user step "cd $dir && $env && $cmd"; rc=$?
		want=0
		case $line in "btfids check "*) [ $rc = 1 ] && want=1 ;; esac
		if [ $rc = "$want" ]; then
			ok "$line (in $dir): exit $rc$(case $line in "btfids check "*) echo ", $(tail -1 "$tmp/step")" ;; esac)"
		else
			bad "$line (in $dir): exit $rc: $(tail3 step)"
		fi
		;;
	esac
done <<< "$block"
[ -x "$clone/btfids/btfids" ] || bad "no btfids/btfids was built in the clone"

echo "quick start as a user: $steps steps, $failed failed, $rebuilt objects rebuilt by install"
echo "quickstart: $passed passed, $failed failed"
[ "$failed" = 0 ]
