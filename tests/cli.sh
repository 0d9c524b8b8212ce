#!/usr/bin/env bash
# cli.sh - one command line (issue 29): the options each verb's --help
# lists are the ones its man page's OPTIONS and the bash completion list;
# "btfids help VERB" and "btfids VERB --help" print the same text for every
# verb; the exit-status rule of btfids(1) (resolve keeps the kernel tool's
# 0/255/129, check, dump, models, help and a mistyped verb exit 0/1/2),
# asserted on usage errors and bad input of each verb; a usage error is
# two lines, never the whole usage; an option without its value names the value
# --help names (--kernel RELEASE); --distill_base in the 6.x flow is said
# to be ignored (on Debian's 6.12 module, skipped without it).
# Issue 54's messages: a mistyped verb's did-you-mean, the verbs with help;
# an option spelled with '-' for the kernel tool's '_' (every verb); a
# read-only file refused alike for its owner and root, with the way out;
# the README's check line away from a kernel tree; models --help, its man
# page and the README agree on the verdicts' machines and types, and
# --arch another machine gives none (on Debian's 7.2 vmlinux); make
# without a libbpf source and .ci/libbpf-src run by a user name the recipe
# that works.
# Ends with "cli: N passed, N failed".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
cd "$top" || exit 2
tmp=$(mktemp -d /tmp/btfids-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

# option words of a text: -x and --long, as a sorted line
words() { grep -oE -- '(^|[^a-zA-Z0-9_.-])--?[a-zA-Z][a-z_-]*' | sed 's/^[^-]*//' | sort -u | tr '\n' ' '; }
opts_help() { "$B" help "$1" | words; }
opts_man() { awk '/^# OPTIONS/ { f = 1; next } /^# / { f = 0 } f && /^\*-/' "$1" | words; }
opts_comp() { bash -c '. completion/btfids; _btfids_opts "$1"' _ "$1" | tr ' ' '\n' | sed 's/=$//' | words; }

for v in resolve check dump models; do
	man=man/btfids-$v.1.scd
	[ "$v" = resolve ] && man=man/btfids.1.scd
	h=$(opts_help "$v") m=$(opts_man "$man") c=$(opts_comp "$v")
	if [ -n "$h" ] && [ "$h" = "$m" ] && [ "$h" = "$c" ]; then
		ok "$v: --help, $man and the completion list the same options: $h"
	else
		bad "$v: options differ: --help '$h', man '$m', completion '$c'"
	fi
	"$B" help "$v" >"$tmp/help" 2>&1; r1=$?
	"$B" "$v" --help >"$tmp/dashhelp" 2>&1; r2=$?
	want=0
	[ "$v" = resolve ] && want=129	# the kernel tool's -h
	if [ $r1 = 0 ] && [ $r2 = $want ] && cmp -s "$tmp/help" "$tmp/dashhelp" &&
	   grep -q "^Usage: btfids" "$tmp/help"; then
		ok "$v: btfids help $v (exit 0) and btfids $v --help (exit $want) print its usage"
	else
		bad "$v: help $v exit $r1, $v --help exit $r2 (want 0, $want), same text: $(cmp -s "$tmp/help" "$tmp/dashhelp" && echo yes || echo no)"
	fi
done
"$B" help nosuch >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc = 2 ] && grep -q "no verb 'nosuch'" "$tmp/err"; then
	ok "btfids help nosuch: exit 2, $(cat "$tmp/err")"
else
	bad "btfids help nosuch: exit $rc: $(head -1 "$tmp/err")"
fi

# usage errors (issue 40): the status of the command line they are errors
# of (resolve's 129, the kernel tool's; 2 for the rest: the verbs, help, a
# mistyped verb), and two lines, what was wrong and where the help is,
# never the whole usage; nothing on stdout
usage() {	# WANT MESSAGE HELP ARGS...: HELP the Try line's command
	local want=$1 msg=$2 help=$3 rc
	shift 3
	"$B" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ "$rc" = "$want" ] && [ "$(wc -l <"$tmp/err")" = 2 ] && [ ! -s "$tmp/out" ] &&
	   head -1 "$tmp/err" | grep -q -- "$msg" &&
	   [ "$(sed -n 2p "$tmp/err")" = "Try '$help --help' for more information." ]; then
		ok "btfids $*: exit $rc, $(head -1 "$tmp/err" | sed "s|$tmp/||g")"
	else
		bad "btfids $*: exit $rc (want $want), $(wc -l <"$tmp/err") lines (want 2: '$msg', Try '$help --help'), $(wc -l <"$tmp/out") on stdout: $(head -3 "$tmp/err" | tr '\n' '|')"
	fi
}
echo hello >"$tmp/text"
usage 2 "btfids help: no verb 'chek' (did you mean check? verbs: resolve check dump models help)" btfids help chek
usage 2 "btfids help: one VERB at a time" btfids help check dump
usage 2 "btfids: 'chek' is neither a verb nor a file" btfids chek "$tmp/text" "$tmp/text"
usage 129 "btfids: unknown option --chek" btfids --chek
usage 129 "btfids: unknown option --chek" btfids --chek "$tmp/text"
usage 129 "btfids: unknown option --chek" btfids resolve --chek "$tmp/text"
usage 129 "btfids: no ELF file given" btfids
usage 129 "btfids: option --btf needs a FILE" btfids "$tmp/text" --btf
usage 129 "btfids: -o and --patch_btfids take exactly one ELF file" btfids -o "$tmp/out.o" "$tmp/text" "$tmp/text"
for v in check dump models; do
	usage 2 "btfids $v: unknown option --chek" "btfids $v" "$v" --chek "$tmp/text"
	usage 2 "btfids $v: no ELF file given" "btfids $v" "$v"
done
usage 2 "btfids check: unknown format 'xml'" "btfids check" check --format=xml "$tmp/text"
usage 2 "btfids models: unknown --arch vax" "btfids models" models --all --arch vax "$tmp/text"
usage 2 "btfids models: --kernel only with --all" "btfids models" models --kernel 7.3 "$tmp/text"
# issue 54: did-you-mean for a verb, and for an option's '-' against '_'
usage 2 "btfids help: no verb 'dmup' (did you mean dump? verbs: resolve check dump models help)" btfids help dmup
usage 2 "btfids: 'chek' is neither a verb nor a file (did you mean check? verbs: resolve check dump models help); nothing was changed" \
	btfids chek "$tmp/text" "$tmp/text"
usage 2 "btfids: 'model' is neither a verb nor a file (did you mean models? " btfids model "$tmp/text" "$tmp/text"
usage 129 "btfids: unknown option --fatal-warnings (did you mean --fatal_warnings? the kernel tool's spellings use '_')" \
	btfids --fatal-warnings "$tmp/text"
usage 129 "btfids: unknown option --btf-base (did you mean --btf_base? the kernel tool's spellings use '_')" \
	btfids resolve --btf-base "$tmp/text" "$tmp/text"
usage 129 "btfids: unknown option --distill-b (did you mean --distill_base? the kernel tool's spellings use '_')" \
	btfids --distill-b "$tmp/text"
usage 129 "btfids: unknown option --no_fail (did you mean --no-fail?)" btfids --no_fail "$tmp/text"
for v in check dump models; do
	usage 2 "btfids $v: unknown option --btf-base=x (did you mean --btf_base? the kernel tool's spellings use '_')" \
		"btfids $v" "$v" --btf-base=x "$tmp/text"
done
usage 2 "btfids models: unknown option --verdict-s (did you mean --verdicts?)" "btfids models" models --verdict-s "$tmp/text"
usage 2 "btfids models: option --all takes no value (--all=1)" "btfids models" models --all=1 "$tmp/text"
usage 2 "btfids models: option --ver is ambiguous: --verbose, --verdicts" "btfids models" models --ver "$tmp/text"
"$B" help help >"$tmp/out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "^  help  *this overview" "$tmp/out" && "$B" help | cmp -s - "$tmp/out"; then
	ok "btfids help help: the overview, exit 0, help among the verbs"
else
	bad "btfids help help: exit $rc: $(head -2 "$tmp/out" | tr '\n' '|')"
fi

# a nonexistent file is bad input, not a mistyped verb, when it is alone
status_mistyped=$("$B" chek 2>&1 >/dev/null; echo "rc=$?")
if [ "${status_mistyped##*rc=}" = 255 ] && echo "$status_mistyped" | grep -q "^FAILED chek: "; then
	ok "btfids chek (one word, no such file): resolve's FAILED, exit 255, as the kernel tool"
else
	bad "btfids chek: $(echo "$status_mistyped" | tr '\n' '|')"
fi

# exit status: the rule of btfids(1), EXIT STATUS
status() {	# WANT WHAT ARGS...
	local want=$1 what=$2 rc
	shift 2
	"$B" "$@" >/dev/null 2>"$tmp/err"; rc=$?
	if [ "$rc" = "$want" ]; then ok "$what: exit $rc"; else
		bad "$what: exit $rc, want $want ($(head -1 "$tmp/err"))"; fi
}
status 129 "resolve, unknown option" --no-such-option "$tmp/text"
status 129 "resolve, no ELF" -v
status 255 "resolve, a text file" "$tmp/text"
for v in check dump models; do
	status 2 "$v, unknown option" "$v" --no-such-option "$tmp/text"
	status 2 "$v, no file" "$v"
	status 2 "$v, a text file" "$v" "$tmp/text"
	status 2 "$v, a missing file" "$v" "$tmp/nosuch"
done

# an option without its value names the value, as --help does
valname() {	# WANT ARGS...: and the usage error's exit status
	local want=$1 rc st=2
	shift
	case $1 in check|dump|models) ;; *) st=129 ;; esac
	"$B" "$@" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc = $st ] && grep -q -- "$want" "$tmp/err"; then ok "btfids $(echo "$*" | sed "s|$tmp/||g"): '$want', exit $rc"; else
		bad "$*: exit $rc (want $st), no '$want' in: $(head -1 "$tmp/err")"; fi
}
valname "option --kernel needs a RELEASE" "$tmp/text" --kernel
valname "option --btf needs a FILE" "$tmp/text" --btf
valname "option --patch_btfids needs a BLOB" "$tmp/text" --patch_btfids
valname "option --kernel needs a RELEASE" models --all "$tmp/text" --kernel
valname "option --arch needs a NAME" models --all "$tmp/text" --arch
for v in check dump; do
	valname "option --btf needs a FILE" $v "$tmp/text" --btf
	valname "option -b needs a BASE" $v "$tmp/text" -b
	valname "option --format needs an FMT" $v "$tmp/text" --format
	valname "unknown option --no-such-option" $v --no-such-option "$tmp/text"
done
valname "option --source needs a DIR" check "$tmp/text" --source
# models --all on an ELF without .BTF: that, not a hint at --btf (a usage error with --all)
"$B" models --all /bin/true >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc = 2 ] && grep -q "^FAILED /bin/true: no .BTF section: nothing to model" "$tmp/err"; then
	ok "models --all on an ELF without .BTF: $(head -1 "$tmp/err"), exit 2"
else
	bad "models --all on an ELF without .BTF: exit $rc: $(head -1 "$tmp/err")"
fi
valname "option -b needs a BASE" models --all "$tmp/text" -b

# a read-only file (issue 54): its owner (who cannot open it for writing)
# and root (who can) get one line, and the way out; another user's file
# too. A 6.x ELF (no release: /bin/true), resolved in place
readonly_file() {	# WHO MESSAGE RUN...: RUN (a command prefix) resolves $ro/f
	local who=$1 msg=$2 rc
	shift 2
	"$@" "$B" "$ro/f" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc = 255 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && grep -qF "FAILED $ro/f: $msg" "$tmp/err" &&
	   cmp -s "$ro/f" /bin/true; then
		ok "a read-only file, $who: exit 255, $(sed "s|$ro/||" "$tmp/err")"
	else
		bad "a read-only file, $who: exit $rc (want 255): $(head -2 "$tmp/err" | tr '\n' '|')"
	fi
}
ro=$(mktemp -d /tmp/btfids-cli-ro.XXXXXX)
chmod 755 "$ro"
cp /bin/true "$ro/f" && chmod 444 "$ro/f"
noroot="file is read-only (no write permission bit); make it writable or use -o FILE"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	readonly_file root "$noroot" env
	chown nobody "$ro/f"
	readonly_file "its owner (nobody)" "$noroot" "${user[@]}"
	chown root "$ro/f" && chmod 644 "$ro/f"
	readonly_file "another user's (root's, 0644), for nobody" \
		"cannot open for writing: Permission denied; make it writable or use -o FILE" "${user[@]}"
else
	readonly_file "its owner ($(id -un))" "$noroot" env
	echo "cli: a read-only file for root skipped (not root)"
fi
rm -rf "$ro"

# the README's check line away from a kernel tree (issue 54: the quick
# start now says where it runs; tests/quickstart.sh runs it there)
mkdir -p "$tmp/notree"
(cd "$tmp/notree" && "$B" check -b vmlinux vmlinux) >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc = 2 ] && [ "$(cat "$tmp/err")" = "FAILED vmlinux: cannot load base BTF: No such file or directory" ]; then
	ok "btfids check -b vmlinux vmlinux outside a kernel tree: exit 2, $(cat "$tmp/err")"
else
	bad "btfids check -b vmlinux vmlinux outside a kernel tree: exit $rc: $(head -2 "$tmp/err" | tr '\n' '|')"
fi

# --verdicts (issue 54): models --help, its man page and the README name
# the same machines and the five types, which on which machine; no
# "newest, v6.18's" left
h=$("$B" models --help | tr -s ' \n' '  ')
m=$(tr -s ' \n' '  ' <man/btfids-models.1.scd | sed 's/\*//g')
r=$(tr -s ' \n' '  ' <README.md | sed 's/`//g')
for where in help man README; do
	case $where in help) t=$h ;; man) t=$m ;; README) t=$r ;; esac
	miss=""
	for w in "x86_64, arm64 or s390x" fentry fexit fmod_ret "x86_64 from 7.2 on also" fentry.multi fexit.multi; do
		[ "$where" = man ] && [ "$w" = "x86_64 from 7.2 on also" ] && w="on x86_64 from 7.2 on"
		case $t in *"$w"*) ;; *) miss="$miss '$w'" ;; esac
	done
	case $t in *"newest, v6.18"*) miss="$miss (says 'newest, v6.18')" ;; esac
	if [ -z "$miss" ]; then ok "--verdicts in $where: x86_64, arm64 or s390x; fentry, fexit, fmod_ret; fentry.multi, fexit.multi on x86_64 from 7.2"; else
		bad "--verdicts in $where: missing$miss"; fi
done
# --arch: verdicts only for the ELF's own machine
v7=$K/amd64-7/vmlinux
if [ -f "$v7" ]; then
	for a in x86_64 arm64 riscv64; do
		"$B" models --all --verdicts --arch $a --func do_exit "$v7" >"$tmp/out" 2>"$tmp/err"; rc=$?
		types=$(grep -o '"fentry\.multi"\|"fexit\.multi"\|"fentry"\|"fexit"\|"fmod_ret"' "$tmp/out" | tr -d '"' | tr '\n' ' ')
		if [ $a = x86_64 ]; then
			if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$types" = "fentry fexit fmod_ret fentry.multi fexit.multi " ]; then
				ok "models --verdicts --arch x86_64 on Debian's amd64 7.2 vmlinux: its own machine, five types: $types"
			else
				bad "models --verdicts --arch x86_64: exit $rc, types '$types': $(head -1 "$tmp/err")"
			fi
		elif [ $rc = 0 ] && [ -z "$types" ] && grep -q '"name":"do_exit"' "$tmp/out" &&
		     [ "$(grep -c . "$tmp/err")" = 1 ] &&
		     grep -qF "WARN: $v7: no attach verdicts: --arch $a is not its machine, x86_64 (verdicts are read from the ELF's own code)" "$tmp/err"; then
			ok "models --verdicts --arch $a on an x86_64 vmlinux: the models, no verdicts, one line: $(sed "s|$K/||" "$tmp/err")"
		else
			bad "models --verdicts --arch $a on an x86_64 vmlinux: exit $rc, types '$types': $(head -2 "$tmp/err" | tr '\n' '|')"
		fi
	done
	"$B" models --all --taken fentry --arch arm64 "$v7" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc = 2 ] && [ ! -s "$tmp/out" ] && grep -q "^FAILED $v7: --taken fentry: no attach verdicts" "$tmp/err"; then
		ok "models --taken fentry --arch arm64 on an x86_64 vmlinux: exit 2, no verdicts to take from"
	else
		bad "models --taken fentry --arch arm64: exit $rc: $(tail -1 "$tmp/err")"
	fi
else
	echo "cli: models --arch against the ELF's machine skipped (no Debian 7.2 vmlinux in $K: $R/fetch-kernels)"
fi

# raw BTF holds no code to judge: the models, and a warning that says so
raw=/sys/kernel/btf/vmlinux
if [ -r "$raw" ]; then
	"$B" models --all --verdicts --arch x86_64 --func do_exit "$raw" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc = 0 ] && ! grep -q '"verdicts"' "$tmp/out" && [ "$(grep -c . "$tmp/err")" = 1 ] &&
	   grep -qF "WARN: $raw: no attach verdicts: raw BTF" "$tmp/err"; then
		ok "models --verdicts on raw BTF: no verdicts, $(cat "$tmp/err")"
	else
		bad "models --verdicts on raw BTF: exit $rc: $(head -2 "$tmp/err" | tr '\n' '|')"
	fi
else
	echo "cli: models --verdicts on raw BTF skipped (no $raw)"
fi

# no libbpf source (issue 54): make, and .ci/libbpf-src run by a user,
# name the recipe that works (btf-uapi-check alone: nothing is built)
make -s -C "$top" --no-print-directory LIBBPF_SRC="$tmp/nosuch" btf-uapi-check >"$tmp/out" 2>&1; rc=$?
recipe="root runs BTFIDS_LIBBPF_SRC=/srv/libbpf-src .ci/libbpf-src, then make LIBBPF_SRC=/srv/libbpf-src"
if [ $rc != 0 ] && grep -qF "make: no libbpf source in $tmp/nosuch: make LIBBPF_SRC=<a 7.x kernel tree>; or $recipe" "$tmp/out"; then
	ok "make without a libbpf source: exit $rc, the recipe named"
else
	bad "make without a libbpf source: exit $rc: $(head -2 "$tmp/out" | tr '\n' '|')"
fi
mkdir -p "$tmp/home" && chmod 755 "$tmp" "$tmp/home"
lsrc=(env HOME="$tmp/home" XDG_CACHE_HOME= BTFIDS_LIBBPF_SRC= BTFIDS_KBUILD="$tmp/home/kb" "$top/.ci/libbpf-src")
rc=skipped
if [ "$(id -u)" != 0 ]; then
	"${lsrc[@]}" >"$tmp/out" 2>&1; rc=$?
elif command -v setpriv >/dev/null; then	# root would download
	setpriv --reuid=nobody --regid=nogroup --clear-groups "${lsrc[@]}" >"$tmp/out" 2>&1; rc=$?
fi
if [ $rc = skipped ]; then
	echo "cli: .ci/libbpf-src as a user skipped (root, and no setpriv)"
elif [ $rc = 1 ] && [ "$(grep -c . "$tmp/out")" = 1 ] &&
     grep -qF "libbpf-src: no 7.x kernel tree here, and only root downloads linux-source-7.x: as root run BTFIDS_LIBBPF_SRC=/srv/libbpf-src $top/.ci/libbpf-src, then make LIBBPF_SRC=/srv/libbpf-src" "$tmp/out"; then
	ok ".ci/libbpf-src as a user without a tree: exit 1, one line, the recipe (not 'run as root')"
else
	bad ".ci/libbpf-src as a user: exit $rc: $(head -3 "$tmp/out" | tr '\n' '|')"
fi

# --distill_base in the 6.x flow: said, once, and the module as before
m=$K/amd64-6.12/modules/tcp_bbr.ko
if [ -f "$m" ]; then
	cp "$m" "$tmp/a.ko" && cp "$m" "$tmp/b.ko"
	"$B" --distill_base -b "$K/amd64-6.12/vmlinux" "$tmp/a.ko" "$tmp/b.ko" 2>"$tmp/err"; rc=$?
	if [ $rc = 0 ] && [ "$(grep -c -- '--distill_base ignored: the 6.x flow' "$tmp/err")" = 1 ] &&
	   cmp -s "$tmp/a.ko" "$m" && ! ls "$tmp"/a.ko.BTF* >/dev/null 2>&1; then
		ok "--distill_base in the 6.x flow: said once ($(head -1 "$tmp/err" | sed "s|$tmp/||"))"
	else
		bad "--distill_base in the 6.x flow: exit $rc, $(grep -c . "$tmp/err") lines: $(head -1 "$tmp/err")"
	fi
else
	echo "cli: --distill_base in the 6.x flow skipped (no Debian 6.12 module in $K: $R/fetch-kernels)"
fi

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
