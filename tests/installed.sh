# shellcheck shell=bash
# installed.sh - sourced by tests/install.sh and tests/package.sh: checks
# of an installed btfids, under a root ("" for the system, or a DESTDIR).
# Each check counts into $passed/$failed and prints "<suite>: <name> ok"
# or "<suite>: <name> FAILED (<why>)"; $suite names the caller.

passed=0 failed=0

ok() {
	echo "$suite: $1 ok"
	passed=$((passed + 1))
}

bad() {
	echo "$suite: $1 FAILED ($2)"
	[ -z "${3:-}" ] || sed 's/^/    /' <<<"$3"
	failed=$((failed + 1))
}

# lint_man PAGE...: groff with every warning and mandoc's errors say nothing
lint_man() {
	local p out

	for p in "$@"; do
		out=$(groff -ww -man -Tutf8 -z "$p" 2>&1; mandoc -T lint -W error "$p" 2>&1)
		if [ -n "$out" ]; then
			bad "man $(basename "$p")" "groff/mandoc warnings" "$out"
		elif ! MANWIDTH=80 man -l "$p" 2>/dev/null | grep -q '^NAME'; then
			bad "man $(basename "$p")" "man -l renders no NAME section"
		else
			ok "man $(basename "$p")"
		fi
	done
}

# consumer ROOT PCDIR BTFIDS OUT: the built-in example (tests/fixtures/src,
# a program that checks its own .BTF_ids) built with the consumer headers
# and linker scripts pkg-config names under ROOT, resolved by BTFIDS: it
# must fail its self-check before and pass it after.
consumer() {
	local root=$1 pcdir=$2 btfids=$3 out=$4 cflags lds log

	cflags=$(PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$root pkg-config --cflags btfids) &&
	lds=$(PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$root \
	      pkg-config --variable=linkerscriptdir btfids) ||
		{ bad "pkg-config btfids" "no btfids.pc in $pcdir"; return; }
	[ -f "$lds/btf_ids.lds" ] || { bad "pkg-config btfids" "no btf_ids.lds in '$lds'"; return; }
	ok "pkg-config btfids"
	if ! log=$(BTFIDS_CFLAGS="$cflags" BTFIDS_LDS_DIR="$lds" \
		   "$top/tests/fixtures/build.sh" "$out" 2>&1); then
		bad "example build" "tests/fixtures/build.sh with pkg-config's paths" "$log"
		return
	fi
	if "$out/image" 2>&1 | grep -qx 'fixture: ok'; then
		bad "example run" "the image passed its self-check before btfids ran"
		return
	fi
	log=$("$btfids" "$out/image" 2>&1 && "$out/image" 2>&1)
	if grep -qx 'fixture: ok' <<<"$log"; then
		ok "example resolved by the installed btfids"
	else
		bad "example run" "no 'fixture: ok' after $btfids" "$log"
	fi
}
