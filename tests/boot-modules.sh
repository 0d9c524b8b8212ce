#!/usr/bin/env bash
# boot-modules.sh - module functions judged by a kernel with real modules
# loaded (issue 51): relink the patched 7.3 tree (kernel/build-tree, which
# builds about 50 modules of the kinds users trace: ext4, netfilter and
# conntrack, a bridge, tun, veth, vxlan, wireguard, loop...) with
# RESOLVE_BTFIDS=btfids, vmlinux and every module (the modules' .BTF and
# .BTF_ids from btfids at kbuild's module link, Makefile.modfinal), compute
# each module's attach verdicts on the host (btfids models --all --verdicts
# -b vmlinux MODULE.ko: the module's own symbols, __mcount_loc and
# error-injection list, init text freed), and boot it under
# qemu-system-x86_64; the guest (tests/boot/modules.c) loads every module,
# tries functions of the loaded modules alone with each attach type
# (fentry, fexit, fmod_ret, fentry.multi, fexit.multi), a program loaded
# against the module's BTF: the kernel's answer must be the verdict's (0
# wrong; make check: every 8th function and the first 10 of each verdict
# of each type, every verdict the modules have; make check-full
# (BTFIDS_CHECK_FULL=1): every function); attaches `<module>:*` (one fentry.multi link over every function
# a module's verdicts take) for every module at the first try, all the
# links held at once; per module and tracing_multi type, one link with the
# kernel's own word (BPF_F_TRACING_MULTI_SKIP_REFUSED) over every function,
# each id's answer against its verdict (0 differ); the <module>:* links by
# the table's list timed against those by the kernel's word, and how many
# modules mainline's link (no word) refuses whole; and loads, attaches,
# tries to unload (refused), detaches and unloads a module many times over.
# Ends with "boot-modules: N passed, N failed" or "boot-modules: skipped (<why>)".
#
#   BTFIDS_KBUILD_PATCHED   the patched tree's folder (kernel/build-tree)
#   BTFIDS_BOOT_TIMEOUT     seconds for the qemu run (default 900, scaled)
#   BTFIDS_BOOT_LOG         keep the serial log in this file
set -uo pipefail

. "$(dirname "$0")/paths.sh"
NAME=boot-modules
. "$top/tests/bootlib.sh"
patched_tree_ready
[ -f "$T/.btfids-modules" ] ||
	skip "the patched tree in $DP has no modules built: run kernel/build-tree"

tmp=$(mktemp -d /tmp/btfids-boot-modules.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if ! build_guest "$tmp" modules; then
	bad "cannot build the guest program: $(grep -m3 error "$tmp/err")"
	finish
fi

# relink vmlinux, then every module (their .ko removed, so that each is
# linked again by Makefile.modfinal with btfids on the new vmlinux: its
# table, <module>.ko.BTF_tramp, added to the .ko as .BTF_tramp by the
# series' gen-btf.sh, kernel/7.3 2/24), and copy them out, all under the
# tree's lock. make modules with the same RESOLVE_BTFIDS as the relink
# leaves vmlinux as it is; if it linked vmlinux again, its bzImage is made
# again too, so that the vmlinux, image and modules booted are one build's
t0=$SECONDS
mkdir -p "$tmp/ko"
if ! relink_patched "$tmp" sh -c '
	find "$1" -name "*.ko" -delete &&
	make -C "$1" -j"$(nproc)" ARCH=x86_64 RESOLVE_BTFIDS="$2" modules >"$3/modules.log" 2>&1 &&
	{ cmp -s "$1/vmlinux" "$3/vmlinux" || {
		echo "btfids-test: make modules linked vmlinux again" >>"$3/modules.log" &&
		make -C "$1" -j"$(nproc)" ARCH=x86_64 RESOLVE_BTFIDS="$2" bzImage >>"$3/modules.log" 2>&1 &&
		cp "$1/vmlinux" "$3/vmlinux" && cp "$1/arch/x86/boot/bzImage" "$3/bzImage"; }; } &&
	find "$1" -name "*.ko" -exec cp {} "$3/ko/" \;' _ "$T" "$B" "$tmp" 2>"$tmp/err"; then
	bad "relink of vmlinux and the modules with RESOLVE_BTFIDS=btfids: $(tail -1 "$tmp/err") $(tail -3 "$tmp/modules.log" 2>/dev/null)"
	finish
fi
grep -q "^btfids-test: make modules linked vmlinux again" "$tmp/modules.log" &&
	echo "  make modules linked vmlinux again (its RESOLVE_BTFIDS or flags differ from the relink's): the next relink of the tree repeats it" >&2
nko=$(find "$tmp/ko" -name '*.ko' | wc -l)
if grep -q "RESOLVE_BTFIDS\|resolve_btfids" "$tmp/modules.log" 2>/dev/null &&
   grep -qiE "^(FAILED|error)" "$tmp/modules.log"; then
	bad "the modules' link said: $(grep -m1 -iE '^(FAILED|error)' "$tmp/modules.log")"
fi
[ "$nko" -ge 30 ] && ok "kbuild linked $nko modules with RESOLVE_BTFIDS=btfids ($((SECONDS - t0)) s with vmlinux)" ||
	bad "kbuild linked $nko modules (want at least 30)"

# the load order (each .modinfo's depends=, read with objcopy) and each
# module's verdicts
if ! python3 - "$tmp/ko" "$tmp/modules.txt" <<'PY' 2>"$tmp/err"; then
import os, subprocess, sys
d, out = sys.argv[1], sys.argv[2]
dep = {}
for f in sorted(os.listdir(d)):
    p = os.path.join(d, f)
    subprocess.run(['objcopy', '-O', 'binary', '--only-section=.modinfo', p, p + '.mi'],
                   check=True)
    info = dict(x.split('=', 1) for x in open(p + '.mi', 'rb').read().decode().split('\0')
                if '=' in x)
    os.unlink(p + '.mi')
    dep[info['name']] = ([x for x in info.get('depends', '').split(',') if x], f)
order, seen = [], set()
def visit(m, stack=()):
    if m in seen:
        return
    if m in stack or m not in dep:
        raise SystemExit('module %s: a dependency cycle or a missing module' % m)
    for x in dep[m][0]:
        visit(x, stack + (m,))
    seen.add(m)
    order.append(m)
for m in sorted(dep):
    visit(m)
with open(out, 'w') as o:
    for m in order:
        o.write('%s /modules/%s\n' % (m, dep[m][1]))
PY
	bad "the modules' load order: $(tail -1 "$tmp/err")"
	finish
fi
# make check tries a sample alone (every 8th function, and the first 10
# of each verdict of each type: every verdict the modules have); make
# check-full (BTFIDS_CHECK_FULL=1) every function
EVERY=8
[ "${BTFIDS_CHECK_FULL:-}" != 1 ] || EVERY=1
: >"$tmp/modverdicts.txt"
while read -r m f; do
	ko=$tmp/ko/${f#/modules/}
	if ! "$B" models --all --verdicts -b "$tmp/vmlinux" "$ko" >"$tmp/v.jsonl" 2>"$tmp/err" ||
	   grep -q "no attach verdicts" "$tmp/err"; then
		bad "btfids models --all --verdicts -b vmlinux $m.ko: $(tail -1 "$tmp/err")"
		continue
	fi
	python3 - "$m" "$tmp/v.jsonl" "$ko" "$EVERY" "$tmp/seen" <<'PY' >>"$tmp/modverdicts.txt" || bad "the verdicts of $m.ko: not read"
import errno, json, os, subprocess, sys
num = {'': 0, 'ENOTSUPP': 524}
steps = {'': 0, 'load': 1, 'attach': 2, 'link': 3}
types = ('fentry', 'fexit', 'fmod_ret', 'fentry.multi', 'fexit.multi')
every, seen_path = int(sys.argv[4]), sys.argv[5]
# the kernel's address of a module name: its first symbol in the table
# (find_kallsyms_symbol_value()), by readelf, as section and value
at = {}
for l in subprocess.run(['readelf', '-sW', sys.argv[3]], capture_output=True, text=True,
                        check=True).stdout.splitlines():
    p = l.split()
    if len(p) == 8 and p[0].endswith(':') and p[6].isdigit():
        at.setdefault(p[7], (p[6], p[1]))
# the sample: every EVERY-th function over all modules, and the first 10
# of each verdict of each type; every same-call-site one
seen = json.load(open(seen_path)) if os.path.exists(seen_path) else {'n': 0}
first = {}
for m in map(json.loads, open(sys.argv[2])):
    w, key, same = [], [], 0
    for t in types:
        v = m['verdicts'].get(t)
        if v is None:
            w += [-1, 0]
            continue
        e = v.get('errno', '')
        w += [num.get(e, getattr(errno, e, -1)), steps[v.get('step', '')]]
        r = 'taken' if v.get('taken') else v['reason']
        key.append(t + ':' + r)
        if r == 'same-call-site' and not same:
            mine = at.get(m['name'])
            same = first.get(mine, 0)
    if m['name'] in at and at[m['name']] not in first and m['verdicts'].get('fentry.multi', {}).get('taken'):
        first[at[m['name']]] = m['id']
    k = seen['n']
    seen['n'] += 1
    pick = every <= 1 or k % every == 0 or same
    for t in key:
        seen[t] = seen.get(t, 0) + 1
        pick = pick or seen[t] <= 10
    print(sys.argv[1], m['id'], m['name'], int(bool(pick)), same, *w)
json.dump(seen, open(seen_path, 'w'))
PY
done <"$tmp/modules.txt"
nmod=$(wc -l <"$tmp/modules.txt")
ok "btfids' verdicts of $nmod modules' functions ($(wc -l <"$tmp/modverdicts.txt") functions)"

# the table btfids wrote at each module's link (version 3, the module's own
# functions), in the .ko as .BTF_tramp (checked as the kernel checks
# vmlinux's: form, classes, the crc32 of the .ko's .BTF), holds the same
# models and verdicts as models --all --verdicts computes from the .ko
ntab=0 tdiff=0
while read -r m f; do
	ko=$tmp/ko/${f#/modules/}
	# (grep reads all of readelf's output: -q would end the pipe early,
	# and pipefail would count readelf's SIGPIPE as no section)
	# shellcheck disable=SC2143 # not grep -q: the comment above
	[ -n "$(readelf -SW "$ko" | grep ' \.BTF_tramp ')" ] ||
		{ tdiff=$((tdiff + 1)); echo "  $m.ko: no .BTF_tramp section" >&2; continue; }
	"$B" models -b "$tmp/vmlinux" "$ko" >"$tmp/t.jsonl" 2>>"$tmp/err" &&
	"$B" models --all --verdicts -b "$tmp/vmlinux" "$ko" >"$tmp/v.jsonl" 2>>"$tmp/err" &&
	python3 - "$tmp/t.jsonl" "$tmp/v.jsonl" <<'PY' || { tdiff=$((tdiff + 1)); echo "  $m: the table differs" >&2; }
import json, sys
t = [json.loads(l) for l in open(sys.argv[1])]
v = [json.loads(l) for l in open(sys.argv[2])]
for x in t:
    x.pop('class', None)
sys.exit(not v or t != v)
PY
	ntab=$((ntab + 1))
done <"$tmp/modules.txt"
[ "$tdiff" = 0 ] && [ "$ntab" = "$nmod" ] &&
	ok "each module's table, written at its kbuild link into its .ko, holds the models and verdicts of models --all --verdicts: $ntab modules, 0 differ" ||
	bad "the modules' tables: $tdiff of $nmod missing or differing from models --all --verdicts"

# the initramfs: /init, the modules, the lists
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "dir /modules 0755 0 0"
	echo "file /init $tmp/init 0755 0 0"
	echo "file /ids.bpf.o $tmp/ids.bpf.o 0644 0 0"
	echo "file /modules.txt $tmp/modules.txt 0644 0 0"
	echo "file /modverdicts.txt $tmp/modverdicts.txt 0644 0 0"
	for f in "$tmp"/ko/*.ko; do
		echo "file /modules/${f##*/} $f 0644 0 0"
	done
} >"$tmp/cpio.list"
"$(gen_init_cpio "$tmp")" "$tmp/cpio.list" >"$tmp/initrd.cpio" ||
	{ bad "cannot make the initramfs"; finish; }

boot "$tmp/bzImage" "$tmp/initrd.cpio" "$tmp/log" ""
[ -z "${BTFIDS_BOOT_LOG:-}" ] || cp "$tmp/log" "$BTFIDS_BOOT_LOG"
rel=$(guest_release "$tmp/log")
if [ -z "$rel" ]; then
	bad "the patched kernel did not start /init; serial log ends: $(tail -c 400 "$tmp/log" | tr '\n' ' ')"
	finish
fi
L=$tmp/log
grep -E "^boot: $rel modules: " "$L" | sed 's/^boot: [^ ]* /  /'
line() { grep -m1 -E "^boot: $rel $1" "$L"; }
expect() {	# WHAT PATTERN WANT
	local got
	got=$(line "$2")
	if echo "$got" | grep -qE "$3"; then
		ok "$1: ${got#"boot: "*" "}"
	else
		bad "$1: ${got:-no line like '$2'} (want /$3/)"
	fi
}
# every module loads, but those whose device qemu does not have (ENODEV:
# x86_pkg_temp_thermal); at least 30
loaded=$(line 'modules: [0-9]+ loaded' | sed -nE 's/.*modules: ([0-9]+) loaded of ([0-9]+), [0-9]+ functions; ([0-9]+) not .*; ([0-9]+) without their BTF; .*/\1 \2 \3 \4/p')
read -r nl nt nn nb <<<"${loaded:-0 0 0 1}"
if [ "$nt" = "$nmod" ] && [ $((nl + nn)) = "$nmod" ] && [ "$nl" -ge 30 ] && [ "$nb" = 0 ]; then
	ok "the guest loads every module but those without their device: $(line 'modules: [0-9]+ loaded' | sed 's/^boot: [^ ]* //')"
else
	bad "the modules' load: $(line 'modules: [0-9]+ loaded' || echo no line) (want $nmod, at least 30 loaded, the rest ENODEV, each with its BTF)"
fi
ntry=$(awk '$4 == 1' "$tmp/modverdicts.txt" | wc -l)
for t in fentry fexit fmod_ret fentry.multi fexit.multi; do
	expect "$t: each function of the sample ($ntry: every ${EVERY}th and the first 10 of each verdict) alone, a program of its own on the module's BTF: the kernel's answer is btfids' verdict" \
		"modules: verdicts: $t:" "modules: verdicts: $t: [1-9][0-9]* functions tried alone, [0-9]+ taken, 0 wrong$"
done
# every verdict of the modules' was tried, taken ones included
for t in fentry fmod_ret fentry.multi; do
	n=$(line "modules: verdicts: $t:" | sed -nE 's/.* ([0-9]+) taken, [0-9]+ wrong$/\1/p')
	[ "${n:-0}" -gt 0 ] && ok "$t: $n of the sample taken" || bad "$t: none of the sample taken"
done
expect "<module>:* (one fentry.multi link over every function a module's verdicts take) attaches at the first try for every module, all held at once" \
	'modules: glob: ' 'modules: glob: <module>:\* at the first try ([1-9][0-9]*) of \1; \1 links held at once$'
# every function of every loaded module against the kernel's own word
# (kernel/7.3 19/24: one link a module with BPF_F_TRACING_MULTI_SKIP_REFUSED
# gives each refused id its errno)
for t in fentry.multi fexit.multi; do
	expect "$t: every function of every loaded module, one link a module with the kernel's own word: the kernel's answer for each is btfids' verdict" \
		"modules: kernel word: $t: [0-9]+ of" "modules: kernel word: $t: ([1-9][0-9]*) of \1 loaded modules, [0-9]+ functions, one call a module: [0-9]+ attached, [0-9]+ refused with reasons, 0 links failed; the table's verdicts against them: 0 differ$"
done
# what the table buys for <module>:* beside the kernel's word (a figure,
# not a pass mark: docs/kernel.md), and what mainline's link does without
expect "<module>:* over every function without the kernel's word (mainline's link): how many modules it refuses whole" \
	'modules: <module>:\* without' ': [0-9]+ of [1-9][0-9]* modules refused whole$'
expect "<module>:* by the table's list against the kernel's word, timed in one boot" \
	'modules: <module>:\* over' 'a round: [0-9]+\.[0-9]+; links failed: 0 and 0$'
expect "unload under attach: refused while attached, then unloaded, loaded and attached again, 20 times" \
	'modules: unload under attach: ' 'refused while attached 20 of 20, 20 load/attach/detach/unload cycles$'
if grep -qE '(WARNING|BUG|Oops|Call Trace)' "$L"; then
	bad "the kernel warned: $(grep -m1 -E '(WARNING|BUG|Oops)' "$L")"
else
	ok "no kernel warning, BUG or oops on the console"
fi
grep -q '^boot: end' "$L" || bad "the guest did not finish; log ends: $(tail -c 300 "$L" | tr '\n' ' ')"
finish
