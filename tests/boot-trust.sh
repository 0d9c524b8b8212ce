#!/usr/bin/env bash
# boot-trust.sh - a wrong trampoline table cannot hurt (issue 41): the
# patched 7.3 kernel (kernel/build-tree) checks btfids' .BTF_tramp and never
# trusts it. One relink with RESOLVE_BTFIDS=btfids; then tables made wrong
# on purpose, each in one class (tests/boot/tramp_table.py alter: the table
# stays valid, its crc32 right, the class self-consistent), each vmlinux
# made into a bzImage by the tree's make (in the background, under the
# tree's lock, while the first ones boot), each booted once under qemu (TCG):
#   size        a driven function's class: its last argument 16 bytes
#   flags       another's: its first argument's signed flag flipped
#   count       another's: without its last argument
#   ret         another's: its return void
#   two-models  a driven function moved into the class of another model
#   refused-taken  a class the kernel cannot model (variadic) made
#               attachable with a plausible model, its verdicts "taken"
#   taken-refused  a driven function's class marked refused by the arch
#               (too-many-slots)
#   unmodelled  a driven function's class marked not modelled (variadic)
# The guest (tests/boot/share_trust.c, in the shared-image guest of
# tests/boot-share.sh) runs only what it needs: the proof with sharing on
# (tests/boot/share_proof.c, without its plain fentry) over the driven
# functions and the altered classes' functions: every run's argument count,
# the arguments and returns the guest chose, checked on entry and exit;
# then the altered class's functions alone, tables on and off (the kernel's
# own checks must give the same answer both ways); then the kernel's "btf_tramp:"
# lines. A table is caught when the kernel says in exactly one line that it
# dropped the altered class, why (the reason the alteration gives) and for
# which function (for two-models, the moved one). One line a table:
#   trust: <kind>: class K (<function>, N functions): caught|NOT caught (...); alone: ...; links: ...; proof: F functions, H hits, W wrong
# then
#   table trust: <T> wrong tables booted, <C> caught, <W> attaches with a wrong model
# the script's time, and "boot-trust: N passed, N failed" (pass: T >= 6, C = T, W = 0) or
# "boot-trust: skipped (<why>)".
#
#   BTFIDS_KBUILD_PATCHED       the patched tree's folder (kernel/build-tree)
#   BTFIDS_BOOT_TRAMP_ANY_TREE  1: take the tree as it is (bootlib.sh)
#   BTFIDS_BOOT_TIMEOUT         seconds for each qemu run (default 300, scaled
#                               by the emulator's speed)
#   BTFIDS_TRUST_KINDS          the kinds to boot (default all, above)
#   BTFIDS_BOOT_LOG             keep the serial logs, one after the other, in this file
set -uo pipefail

# shellcheck source=tests/paths.sh
. "$(dirname "$0")/paths.sh"
NAME=boot-trust
# shellcheck source=tests/bootlib.sh
. "$top/tests/bootlib.sh"
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-300}
LIBBPF=$top/build/libbpf
KINDS=${BTFIDS_TRUST_KINDS:-size flags count ret two-models refused-taken taken-refused unmodelled}
t_start=$SECONDS

patched_tree_ready
[ -f "$LIBBPF/libbpf.a" ] || skip "no $LIBBPF/libbpf.a (the kernel's libbpf 1.8): run make"
grep -q bpf_tramp_share "$T/kernel/bpf/trampoline.c" 2>/dev/null ||
	skip "the patched tree in $DP has no shared trampoline images (bpf_tramp_share)"

tmp=$(mktemp -d /tmp/btfids-boot-trust.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the guest: tests/boot-share.sh's, with share_trust.c
if ! build_share_guest "$tmp" "$LIBBPF" "$S/share_trust.c"; then
	bad "cannot build the guest program: $(grep -m3 error "$tmp/err")"
	finish
fi

# kind -> "ALTER EXPECT WHY": tramp_table.py's alteration (CLASS and ID
# filled in below), what the kernel's own checks do with the class's
# functions alone, and the reason its drop line must give
declare -A how=(
	[size]="size|attach|its model is not the kernel's"
	[flags]="flags|attach|its model is not the kernel's"
	[count]="count|attach|its model is not the kernel's"
	[ret]="ret|attach|its model is not the kernel's"
	[two-models]="move|attach|its model is not the kernel's"
	[refused-taken]="refused|EINVAL|the kernel cannot model it"
	[taken-refused]="class|attach|the trampoline's verdict is not its"
	[unmodelled]="unmodelled|attach|the kernel models it"
)
# kind -> the driven function (tests/boot/share_proof.c's drives[]) whose
# class is altered; two-models: "MOVED INTO" (MOVED into INTO's class);
# refused-taken: a variadic function whose class keeps its named arguments
# (rarely called: a trusting kernel attaches it with the wrong model)
declare -A func=(
	[size]=ksys_write [flags]=vfs_llseek [count]=ksys_pread64 [ret]=do_fsync
	[two-models]="do_fchmodat do_sys_openat2" [refused-taken]=acpi_bios_error
	[taken-refused]=f_dupfd [unmodelled]=ksys_dup3
)
for k in $KINDS; do
	[ -n "${how[$k]:-}" ] || { bad "BTFIDS_TRUST_KINDS: no kind $k (${!how[*]})"; finish; }
done

# relink with RESOLVE_BTFIDS=btfids and keep a copy of vmlinux and bzImage;
# the table from the copy's bytes (tramp_table.py list); then one altered
# vmlinux a kind, each made into a bzImage by the tree's make, in the
# background under the tree's lock while the guest boots the images made
# already; the tree gets the relinked vmlinux and bzImage back in any case
tt() { python3 "$S/tramp_table.py" "$@"; }
# the kernel's xz (scripts/xz_wrap.sh) at preset 0: 1 s a test image, not 10
# (XZ is the tree's make variable; any LZMA2 stream decompresses)
cat >"$tmp/xz" <<'EOF'
#!/bin/sh
n=$#
for a; do
	case $a in --lzma2=*) a=--lzma2=preset=0 ;; esac
	set -- "$@" "$a"
done
shift "$n"
exec xz "$@"
EOF
chmod +x "$tmp/xz"
# cls NAME: "id class" of function NAME in the table's list
cls() { awk -v n="$1" '$2 == n { print $1, $3; exit }' "$tmp/tramp.txt"; }
t0=$SECONDS
{
	(flock -w "$(emu_secs 1800)" 9 || exit 1
	 echo $SECONDS >"$tmp/locked"
	 relink_kbuild "$DP" 7.3 || exit 1
	 echo $SECONDS >"$tmp/relinked"
	 # cp -p: put back as they were, the next boot reuses the relink (relink_kbuild)
	 cp -p "$T/vmlinux" "$tmp/vmlinux" && cp -p "$T/arch/x86/boot/bzImage" "$tmp/bzImage" || exit 1
	 # and the altered intermediates go: the next make remakes them from
	 # the restored vmlinux (older than they are)
	 trap 'cp -p "$tmp/vmlinux" "$T/vmlinux"; cp -p "$tmp/bzImage" "$T/arch/x86/boot/bzImage"
	       rm -f "$T/arch/x86/boot/compressed/vmlinux.bin"' EXIT
	 tt list "$tmp/vmlinux" "$tmp/tramp.txt" >"$tmp/table" || exit 1
	 for k in $KINDS; do
		IFS='|' read -r alter expect why <<<"${how[$k]}"
		# shellcheck disable=SC2086 # func: one or two names
		set -- ${func[$k]}
		id='' class='' into=''
		read -r id class < <(cls "$1")
		[ -n "${class:-}" ] || { echo "$k: no function $1 in the table" >&2; exit 1; }
		args="$class" moved=
		if [ "$alter" = move ]; then
			read -r _ into < <(cls "$2")
			[ -n "${into:-}" ] || { echo "$k: no function $2 in the table" >&2; exit 1; }
			args="$id $into" class=$into moved=$1
		fi
		# /share-trust: "KIND CLASS EXPECT", then the class's functions
		# (not the verifier's btf_id_deny), the moved one first
		{
			echo "$k $class $expect"
			[ -z "$moved" ] || echo "$id $moved"
			awk -v c="$class" '$3 == c && $6 == 0 { print $1, $2 }' "$tmp/tramp.txt"
		} >"$tmp/trust.$k"
		echo "$k|$class|$expect|$why|$moved|$1|$alter $args" >>"$tmp/kinds.part"
	 done
	 mv "$tmp/kinds.part" "$tmp/kinds"
	 while IFS='|' read -r k _ _ _ _ _ alt; do
		# shellcheck disable=SC2086 # alt: words
		cp "$tmp/vmlinux" "$T/vmlinux" && tt alter "$T/vmlinux" $alt &&
		make -s -C "$T" ARCH=x86_64 RESOLVE_BTFIDS="$B" XZ="$tmp/xz" bzImage >/dev/null &&
		cp "$T/arch/x86/boot/bzImage" "$tmp/bzImage.$k.part" &&
		mv "$tmp/bzImage.$k.part" "$tmp/bzImage.$k" || exit 1
	 done <"$tmp/kinds"
	 echo $SECONDS >"$tmp/made"
	) 9>"$DP/.relink-7.3.lock" 2>"$tmp/err"
	echo $? >"$tmp/maker.rc"
} &
maker=$!
# the tree is put back before $tmp goes
trap 'wait "$maker" 2>/dev/null; rm -rf "$tmp"' EXIT
# await FILE: true once FILE is there, false when the maker ended without it
await() {
	while [ ! -e "$1" ]; do
		[ ! -e "$tmp/maker.rc" ] || [ -e "$1" ] || return 1
		sleep 1
	done
}
if ! await "$tmp/kinds"; then
	bad "relink with RESOLVE_BTFIDS=btfids, or the table's list: $(tail -1 "$tmp/err")"
	finish
fi

# /funcs.txt (tests/boot/share.c): as tests/boot-share.sh's, but only the
# driven functions (share_proof.c's drives[]) and the functions of every
# altered class that btfids models as attachable (the proof over them:
# their arguments' count on every run, the driven ones' values)
if ! "$B" models --all "$tmp/vmlinux" >"$tmp/models.jsonl" 2>"$tmp/err" ||
   ! nm "$tmp/vmlinux" >"$tmp/nm" 2>>"$tmp/err"; then
	bad "btfids models --all, nm: $(tail -1 "$tmp/err")"
	finish
fi
cat "$tmp"/trust.* | awk 'NF == 2 { print $1 }' | sort -u >"$tmp/keep-ids"
python3 - "$tmp" "$S/share-deny.txt" "$S" <<'PY' || { bad "the function list (tests/boot/share_proof.c, btfids models)"; finish; }
import collections, json, re, sys
d, deny_path, s = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, s)
import tramp_table  # noqa: E402
btf_id_deny, noreturn_deny = tramp_table.btf_sets(d + '/vmlinux', 'btf_id_deny', 'noreturn_deny')
deny = {}
for l in open(deny_path):
    w = l.split('#')[0].split()
    if w:
        deny[w[0]] = w[1:]
syms = collections.Counter(l.split()[-1] for l in open(d + '/nm'))
ms = [json.loads(l) for l in open(d + '/models.jsonl')]
names = collections.Counter(m['name'] for m in ms)
proof = open(s + '/share_proof.c').read()
driven = set(re.findall(r'\{ "(\w+)", d_\w+(?:, \w+)? \}', proof))
keep = {int(l) for l in open(d + '/keep-ids')}
def model(m):
    sizes, flags = m.get('arg_size', []), m.get('arg_flags', [])
    return 'r%d.%d:%s' % (m.get('ret_size', 0), m.get('ret_flags', 0),
                          ','.join('%d.%d' % sf for sf in zip(sizes, flags)) or '-')
cands = [m for m in ms
         if m['attachable'] and names[m['name']] == 1 and syms[m['name']] <= 1 and
         deny.get(m['name']) != [] and m['id'] not in btf_id_deny]
if not driven:
    sys.exit('no drives[] found in share_proof.c')
with open(d + '/funcs.txt', 'w') as out:
    for m in cands:
        n, mo = m['name'], model(m)
        if n not in driven and m['id'] not in keep:
            continue
        out.write('%d %s %d %d %s %s %d\n' % (m['id'], n, m['slots'], m.get('ret_size', 0),
                                             ','.join(map(str, m.get('arg_size', []))) or '-', mo,
                                             'fexit' not in deny.get(n, []) and
                                             m['id'] not in noreturn_deny))
PY
nf=$(wc -l <"$tmp/funcs.txt")

gic=$(boot_gic "$T") || { bad "no gen_init_cpio in $T"; finish; }
# judge KIND CLASS EXPECT WHY MOVED FUNC LOG: the table's line; counts
# into booted, caught, wrong
booted=0 caught=0 wrong=0
judge() {
	local k=$1 class=$2 expect=$3 why=$4 moved=$5 fn=$6 L=$7 rel drops dl dname did al ll pl w=0 c=0 note
	local nfun members aw lw pf ph pw fails

	rel=$(guest_release "$L")
	if [ -z "$rel" ]; then
		bad "$k: the kernel did not start /init; serial log ends: $(tail -c 300 "$L" | tr '\n' ' ')"
		return
	fi
	booted=$((booted + 1))
	members=$(awk -v c="$class" '$3 == c { print $1 }' "$tmp/tramp.txt")
	nfun=$(echo "$members" | grep -c .)
	drops=$(grep -E "^boot: $rel trust: klog: btf_tramp: class [0-9]+ dropped: " "$L" |
		sed "s/^boot: $rel trust: klog: //")
	dl=$(echo "$drops" | grep -c .)
	note="no drop line"
	if [ "$dl" = 1 ]; then
		# btf_tramp: class K dropped: WHY (NAME, BTF id ID); its functions use the kernel's own models
		read -r dname did < <(echo "$drops" | sed -nE "s/^btf_tramp: class $class dropped: $why \\((\\S+), BTF id ([0-9]+)\\); its functions use the kernel's own models\$/\\1 \\2/p")
		if [ -z "${did:-}" ]; then
			note="the one drop line is not class $class's with \"$why\": $drops"
		elif [ -n "$moved" ] && [ "$dname" != "$moved" ]; then
			note="class $class dropped for $dname, not the moved $moved"
		elif [ -z "$moved" ] && ! echo "$members" | grep -qx "$did"; then
			note="class $class dropped for $dname (id $did), not a function of the class"
		else
			c=1 note="$why, $dname"
		fi
	elif [ "$dl" -gt 1 ]; then
		note="$dl drop lines: $(echo "$drops" | head -3 | tr '\n' ' ')"
	fi
	grep -q "^boot: $rel trust: klog: btf_tramp: table valid: " "$L" ||
		{ c=0 note="the altered table was not taken: $(grep -m1 -E "^boot: $rel trust: klog: btf_tramp: table" "$L" | sed 's/.*klog: //')"; }
	# the class's functions alone: "...; N wrong[; first: ...]"
	al=$(grep -m1 -E "^boot: $rel trust: alone: " "$L" | sed "s/^boot: $rel trust: alone: //")
	aw=$(echo "$al" | sed -nE 's/.*; ([0-9]+) wrong(; first: .*)?$/\1/p')
	[ -n "$aw" ] || aw=1
	# the proof's links took the class's functions that have an ftrace site
	ll=$(grep -m1 -E "^boot: $rel trust: links: " "$L" | sed "s/^boot: $rel trust: links: //")
	lw=0
	if [ "$expect" = attach ]; then
		case $ll in
		'' | *"not in it"*) lw=1 ;;
		esac
	fi
	# the proof, sharing on
	pl=$(grep -m1 -E "^boot: $rel shared: proof: .*\\(sharing on\\)" "$L" | sed "s/^boot: $rel shared: //")
	read -r pf ph pw < <(echo "$pl" | sed -nE 's/^proof: ([0-9]+) functions attached, ([0-9]+) hits checked, ([0-9]+) wrong.*/\1 \2 \3/p')
	[ -n "${pw:-}" ] || { pf=0 ph=0 pw=1; }
	w=$((aw + lw + pw))
	caught=$((caught + c))
	wrong=$((wrong + w))
	echo "trust: $k: class $class ($fn, $nfun function$([ "$nfun" = 1 ] || echo s)): $([ "$c" = 1 ] && echo caught || echo NOT caught) ($note); alone: ${al#* functions, }; links: ${ll:-no line}; proof: $pf functions, $ph hits, $pw wrong"
	# of the proof's other checks, those about the models: the links'
	# attach, the driven functions' arguments and returns (the rest, the
	# images' counts and symbols, are tests/boot-share.sh's)
	grep -E "^boot: $rel shared: check on, [^:]+: (attach|chosen arguments and return values): " "$L" |
		grep -v ': ok (' | sed "s/^boot: $rel /    /" | head -4 >"$tmp/fails"
	cat "$tmp/fails"
	fails=$(grep -c . "$tmp/fails")
	if [ "$c" = 1 ] && [ "$w" = 0 ] && [ "$fails" = 0 ] && grep -q '^boot: end' "$L"; then
		ok "$k: the kernel dropped class $class ($why), every attach with its own model"
	else
		bad "$k: $([ "$c" = 1 ] || echo "not caught ($note); ")$w wrong$([ "$fails" = 0 ] || echo ", $fails proof checks failed")$(grep -q '^boot: end' "$L" || echo "; the guest did not finish (qemu ${boot_secs}s, exit $boot_rc)")"
	fi
}

boots_t0=$SECONDS
while IFS='|' read -r k class expect why moved fn _; do
	if ! await "$tmp/bzImage.$k"; then
		bad "$k: the altered image: $(tail -1 "$tmp/err")"
		break
	fi
	boot_cpio "$gic" "/init=$tmp/init" "/ids.bpf.o=$tmp/ids.bpf.o" "/share.bpf.o=$tmp/share.bpf.o" \
		"/funcs.txt=$tmp/funcs.txt" "/share-trust=$tmp/trust.$k" >"$tmp/initrd.cpio" ||
		{ bad "gen_init_cpio"; finish; }
	boot "$tmp/bzImage.$k" "$tmp/initrd.cpio" "$tmp/log.$k" "" 2048
	[ -z "${BTFIDS_BOOT_LOG:-}" ] || cat "$tmp/log.$k" >>"$BTFIDS_BOOT_LOG"
	judge "$k" "$class" "$expect" "$why" "$moved" "$fn" "$tmp/log.$k"
done <"$tmp/kinds"

echo "table trust: $booted wrong tables booted, $caught caught, $wrong attaches with a wrong model"
nk=$(wc -l <"$tmp/kinds")
if [ "$booted" -ge 6 ] && [ "$booted" = "$nk" ] && [ "$caught" = "$booted" ] && [ "$wrong" = 0 ]; then
	ok "every wrong table caught, no attach with a wrong model ($nf functions of /funcs.txt in each proof)"
else
	bad "table trust: $booted of $nk booted (want at least 6), $caught caught, $wrong attaches with a wrong model"
fi
wait "$maker"
if [ "$(cat "$tmp/maker.rc")" = 0 ]; then
	read -r locked <"$tmp/locked"; read -r relinked <"$tmp/relinked"; read -r made <"$tmp/made"
	ok "kbuild relinked the patched 7.3 tree with RESOLVE_BTFIDS=btfids ($((relinked - locked)) s, after $((locked - t0)) s waiting for the tree's lock), $nk altered images made ($((made - relinked)) s, while the first ones booted)"
else
	bad "the relink or the altered images: $(tail -1 "$tmp/err")"
fi
echo "  boot-trust: $((SECONDS - t_start)) s in all; from the table's list on (the images made meanwhile) $((SECONDS - boots_t0)) s"
finish
