#!/usr/bin/env bash
# boot-share.sh [--bench] - the patched 7.3 kernel's shared trampoline
# images (kernel/bpf/trampoline.c, bpf_tramp_share), proven in one boot of
# the patched tree (kernel/build-tree) under qemu-system-x86_64 (TCG):
# the guest (tests/boot/share*.c, share.bpf.c, loaded with the kernel's own
# libbpf 1.8 that make builds) attaches one fentry.multi link over every
# function one link takes, then that link and one fexit.multi link over
# every function one takes, both at once, with sharing on and then off,
# and checks every run,
# the arguments and return values of the calls it makes, the kernel's counts, a plain fentry inside a shared
# group, and the counts after the detach (tests/boot/share_proof.c).
# Prints "shared: proof: <F> functions attached, <H> hits checked, <W>
# wrong" for sharing on, then for sharing off, and ends with "boot-share: N passed, N failed" or
# "boot-share: skipped (<why>)".
#
# --bench: the same boot runs bench/tramp's measurements instead
# (share_bench.c) and the guest's "shared:" lines are printed, with the
# attach and detach lines made from its rounds: "shared:" (off, on,
# kprobe_multi), each followed by a "stamped:" line (off, stamped,
# kprobe_multi) when the kernel takes bpf_tramp_share=2. First the
# table's rounds (issue 50; share_bench.c table_bench()): "table:" lines,
# the first attach (btf_tramp_forget) and a second one with the table on
# against the table off (btf_tramp=N), sharing on, and kprobe_multi; with
# BTFIDS_BENCH_TABLE_ONLY=1 those alone (and kprobe_multi's boots);
# with BTFIDS_BENCH_RUNTIME_ONLY=1 only the run-time costs; with
# BTFIDS_BENCH_FEXIT_ONLY=1 only fexit.multi's attach and detach by size,
# sharing off and on ("shared: fexit:" lines; libbpf's size rule).
#
# --stress: the same boot runs the stress instead (share_stress.c):
# fentry.multi, fexit.multi and kprobe_multi over every function at once,
# rounds of attach and detach in varying order and subsets with traced
# calls on another CPU, sharing on and off; one line a mode, "stress: <R>
# rounds, <F> functions, fentry+fexit+kprobe_multi at once, <C> cpus,
# sharing on|off: <O> oopses, <W> warnings, memory +<M> MB, <B> bad"
# (the kernel's splats counted between the guest's begin and end lines).
# After sharing on's rounds, the cookie-life part (share_stress.c
# cookie_life()): a sleepable fentry.multi.s and an fsession.multi link
# with cookies over the syscall wrappers, attached and detached in rounds
# under the load, each run's cookie checked; "stress: cookies: <R> rounds,
# <F> functions (...), <C> calls on CPU 1, <W> wrong cookies, <S> strays,
# ..., <B> bad, <O> oopses, <W> warnings".
#
#   BTFIDS_KBUILD_PATCHED  the patched tree's folder (kernel/build-tree)
#   BTFIDS_BOOT_TIMEOUT    seconds for the qemu run (default 600; --stress:
#                          300 + 720 a round of either mode + 60 a cookie round)
#   BTFIDS_STRESS_ROUNDS   --stress: rounds with sharing on (default 4; make check 1)
#   BTFIDS_STRESS_FIRST    --stress: sharing on's first round (default 0, every
#                          function; make check 1, a half: share_stress.c)
#   BTFIDS_STRESS_MODE     --stress: on or off, that mode only (default both)
#   BTFIDS_STRESS_OFF_ROUNDS --stress: rounds with sharing off (default as
#                          many; they start at the halves: share_stress.c)
#   BTFIDS_STRESS_OFF_EVERY --stress: sharing off takes every N-th of a
#                          round's functions (default 1; make check 8)
#   BTFIDS_STRESS_COOKIE_ROUNDS --stress: rounds of the cookie-life part
#                          (default 10; 0: none), with sharing on's mode
#   BTFIDS_BOOT_LOG        keep the serial log in this file
#   BTFIDS_BOOT_APPEND     more kernel command line (loglevel=5 shows WARNINGs)
#   BTFIDS_BOOT_BZIMAGE    boot this bzImage, with BTFIDS_BOOT_VMLINUX its
#                          vmlinux, instead of the tree's (testing the test)
#   BTFIDS_SHARE_DENY      another deny list (tests/boot/share-deny.txt)
#   BTFIDS_SHARE_EVERY     N: every N-th function of /funcs.txt only (default 1;
#                          tests/debug-boots.sh: a KASAN and lockdep kernel
#                          under TCG takes 30 minutes for one link over every
#                          function); the stress's 10,000 functions then 1
#   BTFIDS_SHARE_OFF_EVERY N: the proofs with an image per function (sharing off, stamped) over every N-th
#                          function and the driven ones only (default 1;
#                          make check 8: mainline's image a function is most
#                          of the boot under TCG)
#   BTFIDS_QEMU_EXTRA      more qemu options (-d int -D FILE: the faults)
#   QEMU                   default qemu-system-x86_64
set -uo pipefail

. "$(dirname "$0")/paths.sh"
NAME=boot-share
. "$top/tests/bootlib.sh"
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-600}
ROUNDS=${BTFIDS_STRESS_ROUNDS:-4}
OFF_ROUNDS=${BTFIDS_STRESS_OFF_ROUNDS:-$ROUNDS}
LIBBPF=$top/build/libbpf
bench= stress=
[ "${1:-}" = --bench ] && bench=1
CK_ROUNDS=${BTFIDS_STRESS_COOKIE_ROUNDS:-10}
[ "${1:-}" = --stress ] && { stress=1; TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-$((300 + 720 * (ROUNDS + OFF_ROUNDS) + 60 * CK_ROUNDS))}; }

boot_require
[ -f "$LIBBPF/libbpf.a" ] || skip "no $LIBBPF/libbpf.a (the kernel's libbpf 1.8): run make"
grep -q bpf_tramp_share "$T/kernel/bpf/trampoline.c" 2>/dev/null ||
	skip "the patched tree in $DP has no shared trampoline images (bpf_tramp_share)"

tmp=$(mktemp -d /tmp/btfids-boot-share.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the guest: the BPF object and a static /init against libbpf 1.8 and the
# tree's 7.3 UAPI (tracing_multi)
if ! build_share_guest "$tmp" "$LIBBPF"; then
	bad "cannot build the guest program: $(grep -m3 error "$tmp/err")"
	finish
fi

# the livepatch the proof's boot loads (tests/boot/share_klp.c), when the
# tree has CONFIG_LIVEPATCH: tests/boot/klp built against the relinked tree
# as an external module (its copy: M= builds in its folder; modpost takes
# the tree's Module.symvers, or its vmlinux.symvers: extra_symbols)
klp() {
	[ -z "$bench$stress" ] && grep -q '^CONFIG_LIVEPATCH=y' "$T/.config" || return 0
	# shellcheck disable=SC2046 # extra_symbols: one word or none
	cp -r "$S/klp" "$tmp/klp-src" &&
	make -s -C "$T" ARCH=x86_64 RESOLVE_BTFIDS="$B" modules_prepare >"$tmp/klp.log" 2>&1 &&
	make -C "$T" ARCH=x86_64 M="$tmp/klp-src" RESOLVE_BTFIDS="$B" \
		$(extra_symbols) modules >>"$tmp/klp.log" 2>&1 &&
	cp "$tmp/klp-src/btfids_klp.ko" "$tmp/" ||
		{ grep -m1 -iE 'error|warning: .* undefined' "$tmp/klp.log" || tail -1 "$tmp/klp.log"; } >"$tmp/klp.err"
	return 0
}

# the tree relinked by btfids (its .BTF_tramp: the classes name the
# images), its bzImage and vmlinux copied, under the relink lock; without
# kbuild-tiny the tree as it is
if [ -n "${BTFIDS_BOOT_BZIMAGE:-}" ]; then
	cp "$BTFIDS_BOOT_BZIMAGE" "$tmp/bzImage" && cp "${BTFIDS_BOOT_VMLINUX:?}" "$tmp/vmlinux" ||
		{ bad "cannot copy $BTFIDS_BOOT_BZIMAGE, $BTFIDS_BOOT_VMLINUX"; finish; }
elif [ -x "$R/kbuild-tiny" ]; then
	relink_patched "$tmp" klp 2>"$tmp/err" ||
		{ bad "cannot relink the patched tree with btfids: $(tail -1 "$tmp/err")"; finish; }
elif ! (flock -w "$(emu_secs 1800)" 9 || exit 1
      cp "$T/vmlinux" "$tmp/vmlinux" && cp "$T/arch/x86/boot/bzImage" "$tmp/bzImage"
     ) 9>"$DP/.relink-7.3.lock" 2>"$tmp/err"; then
	bad "cannot copy the tree's vmlinux and bzImage: $(tail -1 "$tmp/err")"
	finish
fi

# /funcs.txt: "id name slots ret_size arg_sizes model fexit" for every FUNC btfids
# models as attachable whose name is one FUNC in BTF and one symbol in the
# symbol table (two of one name resolve to one address: the kernel refuses
# such a link), less the deny list (tests/boot/share-deny.txt) and the
# verifier's own sets in the image's .BTF_ids: btf_id_deny (no tracing
# program) and noreturn_deny (no fexit), read by tests/boot/tramp_table.py
if ! "$B" models --all "$tmp/vmlinux" >"$tmp/models.jsonl" 2>"$tmp/err" ||
   ! nm "$tmp/vmlinux" >"$tmp/nm" 2>>"$tmp/err"; then
	bad "btfids models --all, nm: $(tail -1 "$tmp/err")"
	finish
fi
EVERY=${BTFIDS_SHARE_EVERY:-1}
python3 - "$tmp" "${BTFIDS_SHARE_DENY:-$S/share-deny.txt}" "$S" "$EVERY" <<'PY' || { bad "the function list (tests/boot/share_proof.c, btfids models)"; finish; }
import collections, json, sys
d, deny_path, every = sys.argv[1], sys.argv[2], int(sys.argv[4])
sys.path.insert(0, sys.argv[3])
import tramp_table  # noqa: E402
btf_id_deny, noreturn_deny = tramp_table.btf_sets(d + '/vmlinux', 'btf_id_deny',
                                                  'noreturn_deny')
# "name" (left out) or "name fexit" (left out of the fexit.multi link only)
deny = {}
for l in open(deny_path):
    w = l.split('#')[0].split()
    if w:
        deny[w[0]] = w[1:]
syms = collections.Counter(l.split()[-1] for l in open(d + '/nm'))
ms = [json.loads(l) for l in open(d + '/models.jsonl')]
funcs = collections.Counter(m['name'] for m in ms)
# the functions the proof drives and the livepatch test patches stay in
import re
keep = set(re.findall(r'\{ "(\w+)", d_\w+(?:, \w+)? \}', open(sys.argv[3] + '/share_proof.c').read()))
keep |= set(re.findall(r'#define KLP_\w+\s+"(\w+)"', open(sys.argv[3] + '/share_klp.c').read()))
# and the syscalls the stress's load calls (share_stress.c) and the override
# test overrides (share_override.c)
keep |= set(re.findall(r'"(__x64_sys_\w+)"', open(sys.argv[3] + '/share_stress.c').read()))
keep |= set(re.findall(r'"(__x64_sys_\w+)"', open(sys.argv[3] + '/share_override.c').read()))
def model(m):
    sizes, flags = m.get('arg_size', []), m.get('arg_flags', [])
    return 'r%d.%d:%s' % (m.get('ret_size', 0), m.get('ret_flags', 0),
                          ','.join('%d.%d' % sf for sf in zip(sizes, flags)) or '-')
cands = [m for m in ms
         if m['attachable'] and funcs[m['name']] == 1 and syms[m['name']] <= 1 and
         deny.get(m['name']) != [] and m['id'] not in btf_id_deny]
# a plain fentry's function (share_find() in the proof) keeps five of its
# class (some may be at no ftrace site): alone in a thinned list it would
# have no group to stay in
plain = set(re.findall(r'share_find\(p->c, "(\w+)"\)', open(sys.argv[3] + '/share_proof.c').read()))
if not plain:
    sys.exit('boot-share: no share_find(p->c, "NAME") in share_proof.c: the thinning would lose its plain target')
mates = collections.defaultdict(int)
pmodels = {model(m) for m in cands if m['name'] in plain}
with open(d + '/funcs.txt', 'w') as out:
    for i, m in enumerate(cands):
        n, mo = m['name'], model(m)
        if i % every and n not in keep and n not in plain:
            if mo not in pmodels or mates[mo] >= 5:
                continue
            mates[mo] += 1
        out.write('%d %s %d %d %s %s %d\n' % (m['id'], n, m['slots'], m.get('ret_size', 0),
                                             ','.join(map(str, m.get('arg_size', []))) or '-', mo,
                                             'fexit' not in deny.get(n, []) and
                                             m['id'] not in noreturn_deny))
PY
nf=$(wc -l <"$tmp/funcs.txt")

# stress_line LOG RELEASE on|off|cookies: the stress's result for that mode,
# from the guest's "stress: ..." lines and the kernel's splats between its
# "stress: begin <mode>" line and its end line (or the log's end, after a
# crash); "cookies": the cookie-life part's line (share_stress.c
# cookie_life())
stress_line() {
	python3 - "$@" <<'PY'
import re, sys
log, rel, mode = sys.argv[1], sys.argv[2], sys.argv[3]
pre = 'boot: %s ' % rel
oops = re.compile(r'Oops|BUG:|general protection fault|Kernel panic|RIP: 0010:0x')
warn = re.compile(r'WARNING:|possible (circular|recursive) locking|inconsistent lock state|'
                  r'suspicious RCU usage|rcu.*detected stalls?|INFO: task .* blocked|UBSAN|KASAN|'
                  r'soft lockup|hard LOCKUP|sleeping function called from invalid context')
if mode == 'cookies':
    def ends(l):
        ok = l.startswith(pre + 'stress: cookies: ') and \
            not l.startswith(pre + 'stress: cookies: FAILED')
        return l[len(pre):] if ok else None
else:
    def ends(l):
        m = re.match(re.escape(pre) + r'stress: end %s: (\d+) rounds, (\d+) functions, '
                     r'(\d+) cpus, (\d+) bad, memory ([+-]?\d+) kB' % mode, l)
        return m.groups() if m else None
on, o, w, end = False, 0, 0, None
for l in open(log, errors='replace'):
    l = l.rstrip('\n')
    if l == pre + 'stress: begin ' + mode:
        on = True
        continue
    if not on:
        continue
    end = ends(l)
    if end:
        break
    if l.startswith(pre):
        continue
    o += bool(oops.search(l))
    w += bool(warn.search(l))
if not on:
    sys.exit(0)
if mode == 'cookies':
    print('%s, %d oopses, %d warnings' % (end or 'stress: cookies: no end line', o, w))
    sys.exit(0)
r, f, c, bad, kb = end if end else ('0', '0', '0', '1', '0')
print('stress: %s rounds, %s functions, fentry+fexit+kprobe_multi at once, %s cpus, '
      'sharing %s: %d oopses, %d warnings, memory %+.1f MB, %s bad%s'
      % (r, f, c, mode, o, w, int(kb) / 1024, bad, '' if end else ' (no end line)'))
PY
}

gic=$(boot_gic "$T") || { bad "no gen_init_cpio in $T"; finish; }
extra=()
if [ -n "$bench" ]; then
	only=0
	for v in "${BTFIDS_BENCH_TABLE_ONLY:-}" "${BTFIDS_BENCH_RUNTIME_ONLY:-}" "${BTFIDS_BENCH_FEXIT_ONLY:-}"; do
		[ -z "$v" ] || only=$((only + 1))
	done
	if [ "$only" -gt 1 ]; then
		echo "boot-share: BTFIDS_BENCH_TABLE_ONLY, BTFIDS_BENCH_RUNTIME_ONLY and BTFIDS_BENCH_FEXIT_ONLY: one at most" >&2
		exit 2
	fi
	: >"$tmp/empty"
	[ -z "${BTFIDS_BENCH_TABLE_ONLY:-}" ] || echo table >"$tmp/empty"
	[ -z "${BTFIDS_BENCH_RUNTIME_ONLY:-}" ] || echo runtime >"$tmp/empty"
	[ -z "${BTFIDS_BENCH_FEXIT_ONLY:-}" ] || echo fexit >"$tmp/empty"
	extra=("/share-bench=$tmp/empty")
fi
[ -f "$tmp/btfids_klp.ko" ] && extra=("/btfids_klp.ko=$tmp/btfids_klp.ko")
[ -n "$stress" ] && { echo "$ROUNDS ${BTFIDS_STRESS_MODE:-both} $OFF_ROUNDS ${BTFIDS_STRESS_FIRST:-0} ${BTFIDS_STRESS_OFF_EVERY:-1} $CK_ROUNDS" >"$tmp/rounds"; extra=("/share-stress=$tmp/rounds"); }
# make check: the proofs with an image per function (off: mainline; stamped) over
# every OFF_EVERY-th function and the driven ones (share_proof.c); make
# check-full (BTFIDS_CHECK_FULL=1) and a script run alone: every function
OFF_EVERY=${BTFIDS_SHARE_OFF_EVERY:-1}
if [ -z "$stress$bench" ] && [ "$OFF_EVERY" -gt 1 ]; then
	echo "$OFF_EVERY" >"$tmp/off-every"
	extra+=("/share-off-every=$tmp/off-every")
fi
boot_cpio "$gic" "/init=$tmp/init" "/ids.bpf.o=$tmp/ids.bpf.o" "/share.bpf.o=$tmp/share.bpf.o" \
	"/funcs.txt=$tmp/funcs.txt" "${extra[@]}" >"$tmp/initrd.cpio" || { bad "gen_init_cpio"; finish; }

# loglevel=5: the console shows WARNINGs too (the stress counts them)
boot "$tmp/bzImage" "$tmp/initrd.cpio" "$tmp/log" "loglevel=5 ${BTFIDS_BOOT_APPEND:-}" 2048
[ -z "${BTFIDS_BOOT_LOG:-}" ] || cp "$tmp/log" "$BTFIDS_BOOT_LOG"
L=$tmp/log
rel=$(sed -nE 's/^boot: (\S+) init started$/\1/p' "$L" | head -1)
if [ -z "$rel" ]; then
	bad "the patched kernel did not start /init; serial log ends: $(tail -c 400 "$L" | tr '\n' ' ')"
	finish
fi
grep -E "^boot: $rel share" "$L" | sed "s/^boot: $rel /  /" | grep -v ': check '
if [ -n "$bench" ]; then
	done_line="shared: run-time a call: "
	[ -z "${BTFIDS_BENCH_TABLE_ONLY:-}" ] || done_line="shared: table done"
	[ -z "${BTFIDS_BENCH_FEXIT_ONLY:-}" ] || done_line="shared: fexit sizes done"
	if grep -qE "^boot: $rel $done_line" "$L" && ! grep -q FAILED "$L"; then
		ok "the bench ran to its summary"
	else
		bad "the bench: $(grep -m1 FAILED "$L" || echo "no summary")"
	fi
	# kprobe_multi: one boot a size, its attach and detach the boot's last
	# act (share_bench.c says why)
	for n in $(sed -nE "s/^boot: $rel share: bench ([0-9]+) functions: .* rounds done.*/\1/p" "$L"); do
		echo "$n" >"$tmp/kn"
		boot_cpio "$gic" "/init=$tmp/init" "/ids.bpf.o=$tmp/ids.bpf.o" \
			"/share.bpf.o=$tmp/share.bpf.o" "/funcs.txt=$tmp/funcs.txt" \
			"/share-bench=$tmp/kn" >"$tmp/initrd-k.cpio" || { bad "gen_init_cpio"; finish; }
		boot "$tmp/bzImage" "$tmp/initrd-k.cpio" "$tmp/klog$n" "${BTFIDS_BOOT_APPEND:-}" 2048
		[ -z "${BTFIDS_BOOT_LOG:-}" ] || cat "$tmp/klog$n" >>"$BTFIDS_BOOT_LOG"
		grep -E "^boot: $rel share: bench kprobe_multi " "$tmp/klog$n" | sed "s/^boot: $rel /  /"
		if grep -qE "^boot: $rel shared: bench kprobe_multi $n functions done" "$tmp/klog$n"; then
			ok "kprobe_multi over $n functions, a boot of its own"
		else
			bad "kprobe_multi over $n functions: $(grep -m1 -E 'FAILED|BUG:|Oops' "$tmp/klog$n" || echo "no result")"
		fi
	done
	# the attach and detach lines, medians of the rounds in seconds by the
	# main boot's TSC rate, each "shared:" line followed by its "stamped:"
	# line when the kernel had stamped images (bpf_tramp_share=2); then the
	# guest's images and run-time lines
	{ cat "$L"; cat "$tmp"/klog* 2>/dev/null || true; } | python3 -c '
import re, statistics, sys
txt = sys.stdin.read()
mhz = float(re.search(r"shared: bench \d+ rounds, TSC ([\d.]+) MHz", txt).group(1))
runs = {}
for k, n, a, d in re.findall(r"share: bench (off|on|stamped|kprobe_multi) (\d+) functions, "
                             r"round \d+: attach ([\d.]+), detach ([\d.]+) Mcycles", txt):
    runs.setdefault((int(n), k), []).append((float(a), float(d)))
stamped = any(k == "stamped" for _, k in runs)
def ratio(a, b):
    return a / b if b else float("nan")
for n in sorted({n for n, k in runs if k == "on"}):
    for i, what in ((0, "attach"), (1, "detach")):
        m = {k: statistics.median(r[i] for r in runs.get((n, k), [(float("nan"),) * 2])) / mhz
             for k in ("off", "on", "stamped", "kprobe_multi")}
        for d, name in (("on", "shared"), ("stamped", "stamped"))[:1 + stamped]:
            print("%s: %s %d functions: off %.4f s, %s %.4f s, kprobe_multi %.4f s; "
                  "%s/off %.3f, %s/kprobe_multi %.3f"
                  % (name, what, n, m["off"], d, m[d], m["kprobe_multi"],
                     d, ratio(m[d], m["off"]), d, ratio(m[d], m["kprobe_multi"])))
' || bad "the summary lines: no TSC rate or rounds in the logs"
	# the table on against off (share_bench.c table_bench()), in seconds
	{ cat "$L"; cat "$tmp"/klog* 2>/dev/null || true; } | python3 -c '
import re, statistics, sys
txt = sys.stdin.read()
mhz = float(re.search(r"shared: bench \d+ rounds, TSC ([\d.]+) MHz", txt).group(1))
runs = {}
# the table rounds, and the kprobe_multi boots (not the off rounds of sharing)
for k, n, a, d in re.findall(r"share: table (off|first|second) (\d+) functions, "
                             r"round \d+: attach ([\d.]+), detach ([\d.]+) Mcycles", txt) + \
        re.findall(r"share: bench (kprobe_multi) (\d+) functions, "
                   r"round \d+: attach ([\d.]+), detach ([\d.]+) Mcycles", txt):
    runs.setdefault((int(n), k), []).append((float(a), float(d)))
def med(n, k, i):
    v = runs.get((n, k))
    return statistics.median(r[i] for r in v) / mhz if v else float("nan")
def ratio(a, b):
    return a / b if b else float("nan")
for n in sorted({n for n, k in runs if k == "first"}):
    on, off, kp = med(n, "first", 0), med(n, "off", 0), med(n, "kprobe_multi", 0)
    sec = med(n, "second", 0)
    print("table: attach %d functions: first %.4f s, second %.4f s, off %.4f s, kprobe_multi %.4f s; "
          "off/first %.3f, first/kprobe_multi %.3f" % (n, on, sec, off, kp, ratio(off, on), ratio(on, kp)))
' || bad "the table lines: no TSC rate or table rounds in the logs"
	grep -E "^boot: $rel shared: (images|run-time a call): " "$L" | sed "s/^boot: $rel //"
	grep -E "^boot: $rel shared: " "$L" | sed "s/^boot: $rel //" |
		grep -vE "^shared: (images|run-time a call): " >"$tmp/rest"
	cat "$tmp/rest"
elif [ -n "$stress" ]; then
	# the kernel's splats between the stress's begin and end lines, by mode
	modes=${BTFIDS_STRESS_MODE:-both}
	[ "$modes" = both ] && modes="on off"
	for mode in $modes; do
		grep -E "^boot: $rel stress: (round [0-9]+|end) $mode: " "$L" | sed "s/^boot: $rel /  /"
		sl=$(stress_line "$L" "$rel" "$mode")
		echo "$sl"
		least='[1-9][0-9]{4,}'
		# sharing off over every BTFIDS_STRESS_OFF_EVERY-th: thousands
		[ "$mode" = on ] || [ "${BTFIDS_STRESS_OFF_EVERY:-1}" -le 1 ] || least='[1-9][0-9]{3,}'
		[ "$EVERY" = 1 ] || least='[1-9][0-9]*'
		if echo "$sl" | grep -qE "^stress: [1-9][0-9]* rounds, $least functions, fentry\\+fexit\\+kprobe_multi at once, ([2-9]|[1-9][0-9]+) cpus, sharing (on|off): 0 oopses, 0 warnings, memory [+-]?[0-9.]+ MB, 0 bad\$"; then
			ok "$sl"
		else
			bad "${sl:-stress, sharing $mode: no result}"
		fi
	done
	# the cookie-life part, after sharing on's rounds: every run's cookie
	# right, no stray, both programs run, the images gone, no splat
	case " $modes " in
	*" on "*)
		if [ "$CK_ROUNDS" -gt 0 ]; then
			grep -E "^boot: $rel stress: cookies (round [0-9]+: |: FAILED)" "$L" | sed "s/^boot: $rel /  /"
			cl=$(stress_line "$L" "$rel" cookies)
			echo "$cl"
			if echo "$cl" | grep -qE "^stress: cookies: [1-9][0-9]* rounds, [1-9][0-9]* functions \(fentry\.multi\.s, fsession\.multi [1-9][0-9]*, cookies\), [1-9][0-9]* calls on CPU [0-9]+, 0 wrong cookies, 0 strays, runs [1-9][0-9]* fentry\.multi\.s .*, [1-9][0-9]*\+[1-9][0-9]* fsession\.multi, [1-9][0-9]* in the load thread, ([0-9]+) of \1 driven syscalls run by both, images 0, .*, 0 bad, 0 oopses, 0 warnings\$"; then
				ok "$cl"
			else
				bad "${cl:-stress: cookies: no result}"
			fi
		fi ;;
	esac
else
	while read -r line; do
		case $line in
		*": ok "*) ok "${line#shared: check }" ;;
		*) bad "${line#shared: check }" ;;
		esac
	done < <(grep -E "^boot: $rel shared: check " "$L" | sed "s/^boot: $rel //")
	# what the search found by trial, found again with the verdicts of the
	# table the kernel exports (/sys/kernel/btf_tramp/vmlinux): one read,
	# one link that takes them all, every function the search kept among
	# them (issue 28), timed in this boot
	vl=$(grep -m1 -E "^boot: $rel share: verdicts: fentry.multi: " "$L" | sed "s/^boot: $rel share: //")
	if echo "$vl" | grep -qE '^verdicts: fentry.multi: [1-9][0-9]* taken by the table, one link took them; the search kept [1-9][0-9]*: 0 of them not in the table, '; then
		ok "the exported table's verdicts: $vl"
	else
		bad "the exported table's verdicts against the search: ${vl:-no line}"
	fi
	# what the table saves an attach once the kernel confirmed it (share.c
	# check_cost()): the check stage of a link over the functions with the
	# table, less than half of one with btf_tramp=0 (BTF walked each time)
	cl=$(grep -m1 -E "^boot: $rel share: the table's check: " "$L" | sed "s/^boot: $rel share: //")
	echo "  $cl"
	if echo "$cl" | awk '{ w = $(NF - 4); o = $(NF - 1) }
		/with the table \(confirmed\) [0-9.]+ ms, without [0-9.]+ ms$/ && w >= 0 && o > 2 * w { ok = 1 }
		END { exit !ok }'; then
		ok "the confirmed table's check costs an attach less than half of BTF's walk: $cl"
	else
		bad "the table's check, first attach against a second: ${cl:-no line}"
	fi
	# which links share (kernel/7.3 22/24, BPF_F_TRACING_MULTI_SHARE; share.c
	# share_asked(), its 8 cases): fentry links without cookies always,
	# fexit or cookies only when every link on the function asked
	al=$(grep -m1 -E "^boot: $rel share: asked: " "$L" | sed "s/^boot: $rel share: //")
	if echo "$al" | grep -qE "^asked: [1-9][0-9]* functions of pid_vnr\(\)'s model: 8 of 8 cases right$"; then
		ok "which links share: $al"
	else
		bad "which links share: ${al:-no line}"
	fi
	# an overriding kprobe (no post_handler, no IPMODIFY) moves the ip a
	# shared image would take its function from: such functions never
	# share (kernel/7.3 8/24; share_override.c)
	ol=$(grep -m1 -E "^boot: $rel share: override: " "$L" | sed "s/^boot: $rel share: //")
	if echo "$ol" | grep -qE '^override: [1-9][0-9]* functions under an overriding kprobe with fentry\.multi and cookies: 0 wrong ip, 0 wrong cookies$'; then
		ok "$ol"
	else
		bad "the override test: ${ol:-no line}"
	fi
	# what tools that list /sys/kernel/btf do (pwru --all-kmods, cilium/ebpf):
	# every entry but vmlinux is a module's BTF; the table in its own folder
	bl=$(grep -m1 -E "^boot: $rel share: btf dir: " "$L" | sed "s/^boot: $rel share: //")
	if [ -f "$tmp/btfids_klp.ko" ] && ! echo "$bl" | grep -qE '^btf dir: ([1-9][0-9]*) of \1 entries but vmlinux load as module BTF; /sys/kernel/btf_tramp/vmlinux [1-9][0-9]* bytes$'; then
		bad "the module BTF folder: ${bl:-no line}"
	elif [ -n "$bl" ]; then
		ok "${bl%%;*}"
		echo "  ${bl#*; }"
	fi
	grep -m1 "shared trampoline image entered from" "$L" &&
		bad "a shared image's cookie probe missed: $(grep -m1 "shared trampoline image entered from" "$L")"
	[ ! -s "$tmp/klp.err" ] || bad "the livepatch module (tests/boot/klp) did not build: $(cat "$tmp/klp.err")"
	grep -E "^boot: $rel shared: livepatch: skipped" "$L" | sed "s/^boot: $rel /  /"
	# stamped (bpf_tramp_share=2): kernel/7.3-test's images copied from one
	# JIT of their key, and (3) the copies carved out of blocks, judged when
	# the kernel has them
	modes="on off"
	for m in stamped:2 stamped-blocks:3; do
		if grep -qE "^boot: $rel shared: proof: ${m%:*} skipped" "$L"; then
			echo "  boot-share: the proof with ${m%:*} images skipped: the kernel refuses bpf_tramp_share=${m#*:}"
		else
			modes+=" ${m%:*}"
		fi
	done
	for mode in $modes; do
		pl=$(grep -m1 -E "^boot: $rel shared: proof: .*\(sharing $mode\)" "$L" | sed "s/^boot: $rel //")
		# the issue's line as it is (on, then off); the mode in the ok line
		echo "${pl% (sharing $mode)}"
		if echo "$pl" | grep -qE '^shared: proof: [1-9][0-9]* functions attached, [1-9][0-9]* hits checked, 0 wrong'; then
			ok "sharing $mode: $((nf)) functions of /funcs.txt, ${pl#shared: proof: }"
		else
			bad "sharing $mode: ${pl:-no proof line}"
		fi
	done
fi
grep -E 'WARNING|BUG|Oops|RIP:' "$L" | head -20
grep -qE 'WARNING|BUG:|Oops' "$L" && bad "the kernel warned: $(grep -m1 -E 'WARNING|BUG:|Oops' "$L")"
grep -q '^boot: end' "$L" || bad "the guest did not finish (qemu exit $boot_rc after ${boot_secs}s); log ends: $(tail -c 300 "$L" | tr '\n' ' ')"
echo "  boot-share: qemu ran ${boot_secs}s"
finish
