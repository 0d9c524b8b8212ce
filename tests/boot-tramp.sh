#!/usr/bin/env bash
# boot-tramp.sh - the kernel reads the table: relink the patched 7.3 tree
# (kernel/7.3 series v2, built by kernel/build-tree) with
# RESOLVE_BTFIDS=btfids, check its .BTF_tramp (one version 3 table of
# every vmlinux FUNC, class-indexed, with the attach verdicts) from the
# bytes with tests/tramp2_check.py, its verdicts against those of the
# final vmlinux, and boot it under qemu-system-x86_64 four times:
#   1. as built: the guest (tests/boot/tramp.c) echoes the kernel's
#      "btf_tramp:" lines (the table valid, with the counts, size and crc32
#      the bytes give; the self-test: 0 differ, in one line), attaches
#      tracing_multi to a sample of the table, each function alone, tables
#      on and off (every function of a class that is not attachable, every
#      20th function, each class at least once): the errno must be the one
#      the class and the ftrace sites give, both ways; then one link over
#      every attachable sampled function at an ftrace site runs its program,
#      tables off and on; the exported table (/sys/kernel/btf_tramp/vmlinux)
#      is read and checked, and per tracing_multi type one link over every
#      function its verdicts take attaches, each one they refuse is refused
#      alone with their errno; per single type (fentry, fexit, fmod_ret)
#      every function of the table is tried alone, a link each: the ones
#      its verdicts take are taken at the first try, the ones they refuse
#      refused at their step (load or attach) with their errno (make check:
#      a sample, every 32nd function and the first 10 of each verdict of
#      the type, so every verdict the table gives is tried;
#      BTFIDS_CHECK_FULL=1, make check-full: every function); and every
#      function whose name kallsyms holds at two or more text addresses
#      (static functions of one name), fentry and fentry.multi alone:
#      refused as btfids' verdicts say (the patched kernel: EADDRNOTAVAIL),
#      none attached by the name to one of the addresses;
#   2. with one attachable class altered to "not attachable" (the table
#      still valid, its crc32 right: it covers .BTF only): the kernel checks
#      the table and never trusts it (issue 41): each of its functions
#      attaches alone with the tables on as with them off, and the kernel
#      says in one line that it dropped the class; the self-test flags the
#      class (tests/boot-trust.sh: the other wrong tables);
#   3. with the table's crc32 altered and btf_tramp=0 on the command line:
#      the kernel refuses the table in one line, and the switch reads N;
#   4. with a verdict no kernel knows: refused in one line, not exported.
# Each altered vmlinux is made into a bzImage by the tree's make.
# Ends with "boot-tramp: N passed, N failed" or "boot-tramp: skipped (<why>)".
#
#   BTFIDS_KBUILD_PATCHED        the patched tree's folder (kernel/build-tree)
#   BTFIDS_BOOT_TRAMP_ANY_TREE   1: take the tree as it is, even when it was
#                                not built from kernel/7.3 as it is now (its
#                                .btfids-series hash differs: a tree someone
#                                is developing the series in)
#   BTFIDS_BOOT_TIMEOUT          seconds for each qemu run (default 1800: the
#                                first tries each function alone for three
#                                attach types, about 46,000 attaches)
#   BTFIDS_BOOT_LOG              keep the first boot's serial log in this file
#   QEMU                         default qemu-system-x86_64 (TCG, 2 CPUs, as tests/boot.sh)
set -uo pipefail

. "$(dirname "$0")/paths.sh"
NAME=boot-tramp
. "$top/tests/bootlib.sh"
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-1800}
patched_tree_ready

tmp=$(mktemp -d /tmp/btfids-boot-tramp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the guest: tramp.c against the tree's 7.3 UAPI, the rest as tests/boot.sh
if ! clang -target bpf -O2 -g -Wall -Werror -I/usr/include/x86_64-linux-gnu \
	-c "$S/ids.bpf.c" -o "$tmp/ids.bpf.o" 2>"$tmp/err" ||
   ! ${CC:-gcc} $CFLAGS_GUEST -I"$T/tools/include/uapi" -I"$top/include" -c "$S/tramp.c" -o "$tmp/tramp.o" 2>>"$tmp/err" ||
   ! ${CC:-gcc} $CFLAGS_GUEST -static -o "$tmp/init" "$S"/init.c "$S"/ids.c "$S"/models.c \
	"$S"/args.c "$tmp/tramp.o" -lbpf -lelf -lz 2>>"$tmp/err"; then
	bad "cannot build the guest program: $(grep -m3 error "$tmp/err")"
	finish
fi

# relink with RESOLVE_BTFIDS=btfids and keep a copy of vmlinux and bzImage
# (the tree is someone else's between two holds of the lock); read the table
# from the copy's bytes (tramp_table.py list: the guest's /tramp.txt and the
# figures); then the two altered images, each vmlinux made into a bzImage by
# the tree's make; the tree gets the relinked vmlinux and bzImage back in any case
tt() { python3 "$S/tramp_table.py" "$@"; }
t0=$SECONDS
if ! (flock -w "$(emu_secs 1800)" 9 || exit 1
      echo $SECONDS >"$tmp/locked"
      relink_kbuild "$DP" 7.3 || exit 1
      # cp -p: put back as they were, the next boot reuses the relink (relink_kbuild)
      cp -p "$T/vmlinux" "$tmp/vmlinux" && cp -p "$T/arch/x86/boot/bzImage" "$tmp/bzImage" || exit 1
      # and the altered intermediates go: the next make remakes them from
      # the restored vmlinux (older than they are), not the last altered one
      trap 'cp -p "$tmp/vmlinux" "$T/vmlinux"; cp -p "$tmp/bzImage" "$T/arch/x86/boot/bzImage"
	    rm -f "$T/arch/x86/boot/compressed/vmlinux.bin"' EXIT
      tt list "$tmp/vmlinux" "$tmp/tramp.txt" >"$tmp/table" || exit 1
      read -r _ _ _ _ _ _ pc _ <"$tmp/table" && [ -n "$pc" ] && [ "$pc" != None ] || exit 1
      echo "$pc" >"$tmp/probe.txt"
      for img in "class $pc" crc verdict; do
	      # shellcheck disable=SC2086 # img: words
	      cp "$tmp/vmlinux" "$T/vmlinux" && tt alter "$T/vmlinux" $img &&
	      make -s -C "$T" ARCH=x86_64 RESOLVE_BTFIDS="$B" bzImage >/dev/null &&
	      cp "$T/arch/x86/boot/bzImage" "$tmp/bzImage.${img% *}" || exit 1
      done
     ) 9>"$DP/.relink-7.3.lock" 2>"$tmp/err"; then
	bad "relink with RESOLVE_BTFIDS=btfids, the table's list, or the altered images: $(tail -1 "$tmp/err")"
	finish
fi
locked=$(cat "$tmp/locked")
ok "kbuild relinked the patched 7.3 tree with RESOLVE_BTFIDS=btfids (with the altered images $((SECONDS - locked)) s, after $((locked - t0)) s waiting for the tree's lock)"
# nf functions, nc classes, size bytes, crc (zlib's, of .BTF), nref functions
# in nrc classes that are not attachable; pc the probe class, of pn functions;
# ndeny functions in the image's btf_id_deny set (the verifier refuses them);
# nv distinct verdicts (a version 3 table)
read -r nf nc size crc nref nrc pc pn ndeny nv <"$tmp/table"
# the self-test is the tree's CONFIG_BPF_BTF_TRAMP_SELFTEST (kernel/build-tree sets it)
nost=
# (grep reads all of nm's output: with -q, nm's SIGPIPE fails the pipe)
# shellcheck disable=SC2143 # not grep -q: the comment above
[ -n "$(nm "$tmp/vmlinux" | grep -w btf_tramp_selftest)" ] ||
	nost=" (this vmlinux has no btf_tramp_selftest: the tree was built without CONFIG_BPF_BTF_TRAMP_SELFTEST)"

# the table from its bytes, by readers not btfids': the format (header,
# sizes, order, classes distinct and sane), machine == the ELF's, crc32 of
# .BTF by zlib, every FUNC of .BTF once, one class a prototype
objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/vmlinux.BTF"
objcopy -O binary --only-section=.BTF_tramp "$tmp/vmlinux" "$tmp/vmlinux.BTF_tramp"
if chk=$(python3 "$top/tests/tramp2_check.py" --elf "$tmp/vmlinux" "$tmp/vmlinux.BTF_tramp" \
	"$tmp/vmlinux.BTF" 2>&1) && [ "${nf:-0}" -ge 10000 ] && [ "${nv:-0}" -ge 2 ]; then
	ok "the table from its bytes (tests/tramp2_check.py): $chk; .BTF crc32 $crc"
else
	bad "the table from its bytes (want a valid version 3 table of 10000+ functions): $(echo "$chk" | head -3 | tr '\n' ' ')"
fi

# initramfs (the tree's gen_init_cpio), one per boot: cpio [NAME FILE]...
gic=$T/usr/gen_init_cpio
[ -x "$gic" ] || { gic=$tmp/gen_init_cpio; ${CC:-gcc} -O2 -o "$gic" "$T/usr/gen_init_cpio.c"; }
cpio() {
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "dir /proc 0755 0 0"
		echo "dir /sys 0755 0 0"
		echo "file /init $tmp/init 0755 0 0"
		echo "file /ids.bpf.o $tmp/ids.bpf.o 0644 0 0"
		while [ $# -ge 2 ]; do
			echo "file $1 $2 0644 0 0"
			shift 2
		done
	} >"$tmp/cpio.list"
	"$gic" "$tmp/cpio.list"
}
touch "$tmp/empty"
# the table's verdicts (version 3) are what btfids computes from the final
# vmlinux (models --all --verdicts): the table was written from the first
# link's ELF, the kernel runs the last one's
"$B" models "$tmp/vmlinux" >"$tmp/table.jsonl" 2>"$tmp/err" &&
"$B" models --all --verdicts "$tmp/vmlinux" >"$tmp/verdicts.jsonl" 2>>"$tmp/err" ||
	bad "btfids models (the table's verdicts, and --all --verdicts): $(tail -1 "$tmp/err")"
if cmpv=$(python3 -c '
import json, sys
t = {m["id"]: m.get("verdicts") for m in map(json.loads, open(sys.argv[1]))}
n = d = 0
for m in map(json.loads, open(sys.argv[2])):
    n += 1
    if t.get(m["id"]) != m.get("verdicts") or not m.get("verdicts"):
        d += 1
print(n, d)
sys.exit(d != 0 or n < 10000)' "$tmp/table.jsonl" "$tmp/verdicts.jsonl"); then
	ok "the table's verdicts are those btfids computes from the final vmlinux: ${cmpv% *} functions, 0 differ"
else
	bad "the table's verdicts against models --all --verdicts of the final vmlinux: ${cmpv:-no figures} (functions, differ)"
fi
# same-name (tests/boot/tramp.c same_name()): every function's fentry and
# fentry.multi verdicts for the guest, which tries those of the names its
# kallsyms holds at two or more text addresses; same_n the count of such
# functions by nm on the host's copy (each line says whether nm has the
# function's name at two text addresses): the guest must find as many
if ! same_n=$(python3 - "$tmp/verdicts.jsonl" "$tmp/vmlinux" "$tmp/same-name.txt" <<'PY'
import collections, errno, json, subprocess, sys
num = {'': 0, 'ENOTSUPP': 524}
steps = {'': 0, 'load': 1, 'attach': 2, 'link': 3}
addrs, b = collections.defaultdict(set), {}
for l in subprocess.run(['nm', sys.argv[2]], capture_output=True, text=True, check=True).stdout.splitlines():
    p = l.split()
    if len(p) != 3:
        continue
    if p[2] in ('_stext', '_etext', '_sinittext', '_einittext'):
        b[p[2]] = int(p[0], 16)
    if p[1] in 'tTwW':
        addrs[p[2]].add(int(p[0], 16))
def text(a):
    return b['_stext'] <= a < b['_etext'] or b['_sinittext'] <= a < b['_einittext']
n = 0
with open(sys.argv[3], 'w') as out:
    for m in map(json.loads, open(sys.argv[1])):
        w = []
        for t in ('fentry', 'fentry.multi'):
            v = m['verdicts'][t]
            e = v.get('errno', '')
            w += [num.get(e, getattr(errno, e, -1)), steps[v.get('step', '')]]
        shared = len({a for a in addrs.get(m['name'], ()) if text(a)}) > 1
        out.write('%d %s %d %d %d %d %d\n' % (m['id'], m['name'], *w, shared))
        n += shared
print(n)
PY
); then
	bad "the verdicts for same-name: $same_n"
	same_n=0
	: >"$tmp/same-name.txt"
fi
# the single types' sample (tests/boot/tramp.c, /single-sample): every
# SAMPLE_EVERY-th function and the first SAMPLE_FIRST of each verdict
SAMPLE_EVERY=32 SAMPLE_FIRST=10
[ "${BTFIDS_CHECK_FULL:-}" != 1 ] || SAMPLE_EVERY=0
if [ "$SAMPLE_EVERY" = 0 ]; then
	cpio /tramp.txt "$tmp/tramp.txt" /same-name.txt "$tmp/same-name.txt" >"$tmp/initrd1.cpio"
else
	echo "$SAMPLE_EVERY $SAMPLE_FIRST" >"$tmp/single-sample"
	cpio /tramp.txt "$tmp/tramp.txt" /single-sample "$tmp/single-sample" \
		/same-name.txt "$tmp/same-name.txt" >"$tmp/initrd1.cpio"
fi
cpio /tramp.txt "$tmp/tramp.txt" /tramp-probe "$tmp/probe.txt" >"$tmp/initrd2.cpio"
cpio /tramp-klog "$tmp/empty" >"$tmp/initrd3.cpio"

# boot BZIMAGE INITRD LOG APPEND: bootlib.sh's (TCG, 2 CPUs, 1 GiB)
boot "$tmp/bzImage" "$tmp/initrd1.cpio" "$tmp/log1" ""
[ -z "${BTFIDS_BOOT_LOG:-}" ] || cp "$tmp/log1" "$BTFIDS_BOOT_LOG"
grep -E '^boot: ' "$tmp/log1" | grep -vE '^boot: (progress|end)'
rel=$(sed -nE 's/^boot: (\S+) init started$/\1/p' "$tmp/log1" | head -1)
if [ -z "$rel" ]; then
	bad "the patched kernel did not start /init; serial log ends: $(tail -c 400 "$tmp/log1" | tr '\n' ' ')"
	finish
fi
L=$tmp/log1
line() { grep -m1 -E "^boot: $rel $1" "$L"; }
# expect WHAT PATTERN WANT [WHY]: the guest's first line like PATTERN must
# match WANT; WHY is added to a failure
expect() {
	local got
	got=$(line "$2")
	if echo "$got" | grep -qE "$3"; then
		ok "$1: ${got#"boot: $rel "}"
	else
		bad "$1: ${got:-no line like '$2'} (want /$3/)${4:-}"
	fi
}
# lines of the log like PATTERN (after "boot: <release> ")
count() { grep -cE "^boot: $rel $1" "$L"; }
valid="btf_tramp: table valid: $nf functions, $nc classes, $nv verdicts \\($size bytes; \\.BTF crc32 $crc; [0-9]+ us\\)"
selftest='klog: btf_tramp: [0-9]+ functions, [0-9]+ classes: '
expect "the kernel validated the table at boot, with the counts, size and crc32 of the bytes" \
	'klog: btf_tramp: (table|no table)' "$valid"
expect "the kernel's self-test" "$selftest" \
	"btf_tramp: $nf functions, $nc classes: $nf agree, 0 differ( \\([0-9]+ ms\\))?$" "$nost"
grep -E "^boot: $rel klog: btf_tramp: differ" "$L" | head -5
n=$(count "$selftest")
[ "$n" = 1 ] && ok "exactly one self-test line" || bad "the self-test printed $n summary lines$nost"
grep -q "^boot: $rel ids ok" "$L" && ok "the .BTF_ids slots: ids ok" || bad "ids not ok"
expect "the sample takes every function of the $nrc classes not attachable ($nref), every 20th, each class once" \
	'tramp sample: ' "tramp sample: $nf functions, $nc classes: [0-9]+ tried: $nref of classes not attachable, [0-9]+ every 20th, the rest for each class once; [0-9]+ of the $((nc - nrc)) attachable classes at an ftrace site$"
expect "tracing_multi on each sampled function alone attaches where its class says attachable, refuses ($nref) with the class's errno and the $ndeny of btf_id_deny with EINVAL, tables on and off" \
	'tramp attach: ' "tramp attach: [0-9]+ tried, [1-9][0-9]* attached, $nref refused as their class says, [0-9]+ attachable at no ftrace site \\(ENOENT\\), $ndeny in btf_id_deny \\(EINVAL\\), tables off and on; 0 wrong$"
expect "one link over the attachable sampled functions runs its program, tables off and on" 'tramp run: ' \
	"program ran [1-9][0-9]* times \\(tables off\\), [1-9][0-9]* \\(on\\)"
# the verdicts of the table the kernel exports (/sys/kernel/btf_tramp/vmlinux,
# checked in the guest against /sys/kernel/btf/vmlinux): per tracing_multi
# type, one link over every function it takes, at the first try, and each
# one it refuses refused alone, with its errno (issue 28); a same-call-site
# one refused beside its site's first id, EINVAL, and taken alone (issue 43)
expect "the kernel exports the table it took in /sys/kernel/btf_tramp/vmlinux, version 3, the crc32 of /sys/kernel/btf/vmlinux" \
	'verdicts: /sys/kernel/btf_tramp/vmlinux' \
	"verdicts: /sys/kernel/btf_tramp/vmlinux: version 3, $nf functions, $nv distinct verdicts, $size bytes, \\.BTF crc32 matches; [1-9][0-9]* judged for tracing_multi$"
for vt in fentry.multi fexit.multi; do
	expect "$vt: one link takes every function the exported table's verdict takes; each it refuses is refused alone, with its errno, or (same-call-site) beside its site's first" \
		"verdicts: $vt: [0-9]+ taken" \
		"verdicts: $vt: ([1-9][0-9]*) taken by the table, \\1 taken by one link, ([0-9]+) refused by the table, \\2 refused by the kernel \\([1-9][0-9]* of them same-call-site: beside their site's first, and taken alone\\), 0 wrong$"
	grep -E "^boot: $rel verdicts: $vt: (one link|wrong)" "$L" | head -5
	# the kernel's own word: one link over every function of the table
	# attaches what the kernel takes and says why it refuses each other
	# one, in one call (BPF_F_TRACING_MULTI_SKIP_REFUSED); the table's
	# verdicts against it
	expect "$vt: the kernel's own word in one call agrees with every verdict of the table" \
		"kernel word: $vt '\\*': " \
		"kernel word: $vt '\\*': [1-9][0-9]* attached, [1-9][0-9]* refused with reasons in one call; the table's verdicts against them: 0 differ$"
	grep -E "^boot: $rel kernel word: $vt: (differ|one call)" "$L" | head -5
done
# the single types: every function of the table alone, a link of its own
grep -m1 -E "^boot: $rel verdicts: single" "$L"
for vt in fentry fexit fmod_ret; do
	expect "$vt: each function the exported table's verdict takes is taken by a link of its own at the first try; each it refuses is refused alone, at its step, with its errno" \
		"verdicts: $vt: [0-9]+ taken" \
		"verdicts: $vt: ([1-9][0-9]*) taken by the table, \\1 taken by one link, ([0-9]+) refused by the table, \\2 refused by the kernel alone, 0 wrong$"
	# and every function of the table was tried, or the sample: every
	# verdict of the table's for this type, and every SAMPLE_EVERY-th function
	tr_=$(line "verdicts: $vt: [0-9]+ taken" | sed -nE 's/.*: ([0-9]+) taken by the table, [0-9]+ taken by one link, ([0-9]+) refused by the table.*/\1 + \2/p')
	if [ "$SAMPLE_EVERY" = 0 ]; then
		[ -n "$tr_" ] && [ $((tr_)) = "$nf" ] && ok "$vt: all $nf functions of the table tried" ||
			bad "$vt: ${tr_:-no} functions tried of the table's $nf"
	else
		sl=$(line "verdicts: $vt: a sample of ")
		read -r sn sv stv < <(echo "$sl" | sed -nE 's/.* a sample of ([0-9]+): .*; ([0-9]+) of the table.s ([0-9]+) verdicts of this type tried$/\1 \2 \3/p')
		if [ -n "$tr_" ] && [ -n "$sn" ] && [ $((tr_)) = "$sn" ] && [ "$sv" = "$stv" ] &&
		   [ "$sn" -ge $((nf / SAMPLE_EVERY)) ]; then
			ok "$vt: a sample of $sn functions of the table's $nf tried, all $stv verdicts of the type among them"
		else
			bad "$vt: the sample: ${sl:-no sample line}; ${tr_:-no} functions tried (want all the type's verdicts, at least $((nf / SAMPLE_EVERY)) functions)"
		fi
	fi
	grep -E "^boot: $rel verdicts: $vt: (a link each|wrong)" "$L" | head -5
done
# same-name: each function of a name at two or more text addresses, alone,
# fentry and fentry.multi: refused as its verdicts say (the patched
# kernel: ambiguous-name, EADDRNOTAVAIL), never attached to one of the
# addresses by the name alone
grep -E "^boot: $rel same-name: (fentry|fentry.multi|wrong|[0-9]+ names|nm )" "$L"
[ "$same_n" -gt 0 ] || bad "same-name: nm finds no function of a name at two text addresses in this vmlinux"
expect "same-name: the $same_n functions of names at two or more text addresses (nm), each refused with fentry and fentry.multi as its verdicts say; none attached to another function's code" \
	'same-name: [0-9]+ functions' \
	"same-name: $same_n functions of shared names tried, $same_n refused, 0 attached to their own code, 0 to another's$"
# the kallsyms batch pass (a link of 4,096 functions or more, feature
# series 5/24) refuses a shared name as the lookup of one name does
expect "same-name batch: a link of 4,096 functions (one kallsyms pass) with one of a shared name is refused (EADDRNOTAVAIL), the same with another function in its place attaches" \
	'same-name batch' \
	'same-name batch: a link of 4096 functions with [^ ]+ \(id [0-9]+\): EADDRNOTAVAIL; with another function in its place: attached$'
grep -E "^boot: $rel same-name batch: (the check and get stages|one pass costs)" "$L"
grep -q '^boot: end' "$L" || bad "the first guest did not finish; log ends: $(tail -c 300 "$L" | tr '\n' ' ')"

# the table is what the kernel reads: class pc altered to "not attachable"
boot "$tmp/bzImage.class" "$tmp/initrd2.cpio" "$tmp/log2" ""
L=$tmp/log2
grep -E "^boot: $rel (tramp probe|klog: btf_tramp: differ)" "$L" | head -3
expect "the altered table is still valid" 'klog: btf_tramp: (table|no table)' "$valid"
expect "the self-test flags the altered class $pc" "$selftest" \
	"btf_tramp: $nf functions, $nc classes: $nf agree, 1 differ( \\([0-9]+ ms\\))?$" "$nost"
expect "the self-test names it" 'klog: btf_tramp: differ: ' \
	"differ: class $pc: (the trampoline takes it, the table does not|the trampoline's verdict is not its)$" "$nost"
expect "the kernel checks the table, never trusts it: the $pn functions of class $pc, altered to not attachable, attach with the tables on as with them off" \
	'tramp probe: ' "tramp probe: class $pc, $pn functions, [0-9]+ at an ftrace site: tables on ([1-9][0-9]*) attached, off \\1 attached .*; 0 wrong$"
expect "the kernel says in one line that it dropped class $pc: the arch's trampoline takes it" \
	'klog: btf_tramp: class [0-9]+ dropped: ' \
	"btf_tramp: class $pc dropped: the trampoline's verdict is not its \\([^ ]+, BTF id [0-9]+\\); its functions use the kernel's own models$"
n=$(count 'klog: btf_tramp: class [0-9]+ dropped: ')
if [ "$n" = 1 ]; then
	ok "exactly one class dropped"
else
	bad "$n classes dropped (want class $pc's line only)"
fi

# a table of another .BTF, and btf_tramp=0
boot "$tmp/bzImage.crc" "$tmp/initrd3.cpio" "$tmp/log3" "btf_tramp=0"
L=$tmp/log3
rf=$(grep -E "^boot: $rel klog: btf_tramp: (table|no table)" "$L")
if [ "$(echo "$rf" | grep -c .)" = 1 ] &&
   echo "$rf" | grep -q "btf_tramp: table refused: computed from another .BTF (crc32 differs)$"; then
	ok "a table of another .BTF is refused in one line: ${rf#*klog: }"
else
	bad "refusal boot: ${rf:-no table line} (want one line: table refused: computed from another .BTF (crc32 differs))"
fi
grep -q "^boot: $rel tramp param: N at boot" "$L" && ok "btf_tramp=0 on the command line turns the table off" ||
	bad "btf_tramp=0: $(line 'tramp param')"
# a table with a verdict no kernel knows: refused in one line, not exported
boot "$tmp/bzImage.verdict" "$tmp/initrd3.cpio" "$tmp/log4" ""
L=$tmp/log4
rf=$(grep -E "^boot: $rel klog: btf_tramp: (table|no table)" "$L")
if [ "$(echo "$rf" | grep -c .)" = 1 ] &&
   echo "$rf" | grep -q "btf_tramp: table refused: a verdict has an unknown refusal, or refuses at no step or errno$" &&
   grep -q "^boot: $rel tramp export: none$" "$L"; then
	ok "a table with a verdict no kernel knows is refused in one line, and not exported: ${rf#*klog: }"
else
	bad "verdict refusal boot: ${rf:-no table line}; $(line 'tramp export' || echo 'no export line') (want one line: table refused: a verdict has an unknown refusal, ..., and no /sys/kernel/btf_tramp/vmlinux)"
fi
for l in "$tmp/log2" "$tmp/log3" "$tmp/log4"; do
	grep -q '^boot: end' "$l" || bad "guest $(basename "$l") did not finish; log ends: $(tail -c 300 "$l" | tr '\n' ' ')"
done
finish
