#!/usr/bin/env bash
# install.sh - make install into a temporary DESTDIR, then check what it
# installed: every file in its place, the man pages (groff -ww and mandoc
# lint say nothing), btfids.pc (the built-in example builds with its paths
# through PKG_CONFIG_SYSROOT_DIR and runs after the installed btfids
# resolved it) and the bash completion (syntax, and what it completes).
# Ends with "install: N passed, N failed", or "install: skipped (<why>)".
set -uo pipefail

# shellcheck source=tests/paths.sh
. "$(dirname "$0")/paths.sh"
suite=install
# shellcheck source=tests/installed.sh
. "$top/tests/installed.sh"

for t in scdoc groff mandoc man pkg-config pahole; do
	command -v "$t" >/dev/null ||
		{ echo "install: skipped (no $t: .ci/deps installs it)"; exit 0; }
done
tmp=$(mktemp -d /tmp/btfids-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
prefix=/usr/local

if ! log=$(make -s -C "$top" install DESTDIR="$root" PREFIX=$prefix 2>&1); then
	bad "make install" "exit status" "$log"
	echo "install: $passed passed, $failed failed"
	exit 1
fi
missing=()
for f in bin/btfids include/btfids/btf_ids.h include/btfids/tramp.h \
	 share/btfids/btf_ids.lds share/btfids/btf_tramp.lds share/pkgconfig/btfids.pc \
	 share/man/man1/btfids.1 share/man/man1/btfids-check.1 share/man/man1/btfids-dump.1 \
	 share/man/man1/btfids-models.1 share/man/man7/btfids-tables.7 \
	 share/bash-completion/completions/btfids; do
	[ -f "$root$prefix/$f" ] || missing+=("$f")
done
if [ ${#missing[@]} = 0 ]; then ok "make install"; else bad "make install" "missing ${missing[*]}"; fi

lint_man "$root$prefix"/share/man/man*/*
consumer "$root" "$root$prefix/share/pkgconfig" "$root$prefix/bin/btfids" "$tmp/example"

# completion: COMP_WORDS as bash sets them for "btfids ch<TAB>" and the like
comp=$root$prefix/share/bash-completion/completions/btfids
complete_words() {
	(cd "$tmp/empty" && bash -c '. "$1"; shift; COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _btfids; echo "${COMPREPLY[*]}"' \
		_ "$comp" "$@")
}
mkdir -p "$tmp/empty"
if ! out=$(bash -n "$comp" 2>&1); then
	bad "completion syntax" "bash -n" "$out"
else
	ok "completion syntax"
fi
while IFS='|' read -r words want; do
	# shellcheck disable=SC2086 # the words are split on purpose
	got=$(complete_words $words)
	if [ "$got" = "$want" ]; then ok "completion '$words'"; else
		bad "completion '$words'" "got '$got', want '$want'"; fi
done <<'CASES'
btfids ch|check
btfids --b|--btf --btf_base
btfids check --w|--werror
btfids check --format=g|github
btfids dump --format=|text json
btfids models --arch s3|s390x
btfids --tr|--tramp_table
btfids models --bt|--btf_base --btf
btfids models --fu|--func
btfids models --taken fentry.|fentry.multi
btfids --no|--no-fail
btfids help mo|models
CASES

echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
