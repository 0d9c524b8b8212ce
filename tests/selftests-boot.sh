#!/usr/bin/env bash
# selftests-boot.sh - upstream's BPF selftests of the mass-attach path in the
# booted patched 7.3 kernel: relink the patched tree (kernel/7.3 on
# kernel/7.3-fixes, built by kernel/build-tree) with RESOLVE_BTFIDS=btfids,
# build bpf_testmod.ko as an
# external module against it (kbuild's KBUILD_EXTMOD path, where btfids runs
# with --distill_base), build the tree's own test_progs with only the
# trampoline and multi-attach tests (tests/selftests/Makefile: TESTS), boot
# the kernel once under qemu and run test_progs in the guest
# (tests/boot/selftests.c) once per configuration: the trampoline tables on
# and off (btf_tramp), times shared images on and off (bpf_tramp_share)
# when the kernel has that switch.
# Each configuration must print upstream's "Summary:" line with 0 FAILED,
# exit 0, and skip only what tests/selftests/skips explains; upstream's
# attach benchmark (serial_test_tracing_multi_bench_attach) is reported
# per configuration, and so are upstream's trigger benchmarks (the tree's
# bench: trig-fentry, trig-kprobe-multi, the series' trig-fentry-multi...),
# each of which must end with its "Summary: hits" line and exit 0.
# make check runs two configurations of the four: the tables on, sharing
# off and on (BTFIDS_CHECK_FULL=1, make check-full: all four).
# Ends with "selftests-boot: N passed, N failed" or
# "selftests-boot: skipped (<why>)".
#
#   BTFIDS_KBUILD_PATCHED   the patched tree's folder (kernel/build-tree)
#   BTFIDS_SELFTESTS_CACHE  test_progs and bpf_testmod are built here, and
#                           kept (default ~/.cache/btfids/selftests-7.3)
#   BTFIDS_SELFTESTS_CLANG  the clang for the BPF programs (clang-19)
#   BTFIDS_BOOT_TIMEOUT     seconds for the qemu run (default 900, and 300 a round)
#   BTFIDS_BOOT_LOG         keep the serial log in this file
#   BTFIDS_BOOT_APPEND      more kernel command line (e.g. loglevel=7)
#   BTFIDS_SELFTESTS_TESTS  test_progs -t list instead of all (for testing the test)
#   BTFIDS_SELFTESTS_PROGS  the prog_tests files test_progs is built with
#                           (tests/selftests/Makefile's TESTS; default its own)
#   BTFIDS_SELFTESTS_LIBBPF upstream: the tree's libbpf as it is, without
#                           kernel/7.3-libbpf's patch and its test (tests/fixes-alone.sh)
#   BTFIDS_SELFTESTS_TRIG   the trigger benchmarks (bench trig-NAME) to run, NAMEs
#                           separated by spaces ("" for none)
#   BTFIDS_SELFTESTS_TRIG_ROUNDS  runs of each (default 1; the medians and spread
#                           are reported)
#   BTFIDS_SELFTESTS_WATCHDOG  test_progs -w SECONDS (default its own, 120 s: a test
#                           running longer is killed and failed; tests/debug-boots.sh
#                           raises it: the bench's attach alone takes 214 s under KASAN)
#   QEMU                    default qemu-system-x86_64 (TCG, 2 CPUs: BTFIDS_QEMU_SMP)
set -uo pipefail

. "$(dirname "$0")/paths.sh"
. "$(dirname "$0")/bootlib.sh"
OUT=${BTFIDS_SELFTESTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/selftests-7.3}
CLANG_BPF=${BTFIDS_SELFTESTS_CLANG:-clang-19}
SKIPS=${BTFIDS_SELFTESTS_SKIPS:-$top/tests/selftests/skips}
ALL="tracing_multi_test,tracing_multi_attach_rollback,tracing_multi_share"
ALL+=",fentry_test,fexit_test,fentry_fexit,fsession_test,trampoline_count"
ALL+=",kprobe_multi_test,kprobe_multi_bench_attach,tracing_failure,kfunc_call"
ALL+=",livepatch_trampoline,tracing_multi_table"
TESTS=${BTFIDS_SELFTESTS_TESTS:-$ALL}
# upstream's trigger benchmarks (benchs/bench_trigger.c; bench runs each as
# its run_bench_trigger.sh does, shorter): fentry, fexit and kprobe_multi on
# bpf_get_numa_node_id beside the series' tracing_multi triggers
# (fentry-multi: a link over that function alone; -class: over every
# function of its func model, which share one image with bpf_tramp_share=1)
TRIG=${BTFIDS_SELFTESTS_TRIG-kernel-count fentry fentry-multi fentry-multi-class \
	fexit fexit-multi fexit-multi-class kprobe-multi}
ROUNDS=${BTFIDS_SELFTESTS_TRIG_ROUNDS:-1}
# the configurations (tests/boot/selftests.c, /selftests-configs): make
# check the tables on, sharing off and on, each trigger benchmark 2 s;
# make check-full all four, 4 s
configs="Y0 Y1 Y-" trig_secs=2
[ "${BTFIDS_CHECK_FULL:-}" != 1 ] || configs='' trig_secs=4
# the tests and the attach benchmark about 5 minutes, a round of the
# trigger benchmarks about as long
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-$((900 + 300 * ROUNDS))}

skip() { echo "selftests-boot: skipped ($*)"; exit 0; }
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }
finish() { echo "selftests-boot: $passed passed, $failed failed"; [ $failed = 0 ]; exit; }

patched_tree_ready
command -v "$CLANG_BPF" >/dev/null ||
	skip "no $CLANG_BPF: the 7.3 selftests' BPF programs need a newer clang than Debian 12's 14: apt-get install clang-19"
for a in libelf libz libzstd; do
	[ -f /usr/lib/x86_64-linux-gnu/$a.a ] || skip "no static $a.a for test_progs: .ci/deps --cross"
done
# what test_progs needs of the kernel (docs/kernel.md: upstream's selftests)
missing=
for o in MODULE_SIG CRYPTO_SHA256 NET_NS BLOCK FUTEX POSIX_TIMERS MEMBARRIER MEMFD_CREATE CGROUPS FPROBE \
	 FUNCTION_ERROR_INJECTION BPF_KPROBE_OVERRIDE DEBUG_FS MODULES MODULE_UNLOAD \
	 DEBUG_INFO_BTF_MODULES; do
	grep -q "^CONFIG_$o=y" "$T/.config" || missing+=" CONFIG_$o"
done
[ -z "$missing" ] ||
	skip "the patched tree's config lacks$missing (kernel/build-tree sets them on a first build)"

tmp=$(mktemp -d /tmp/btfids-selftests.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if ! build_guest "$tmp" selftests; then
	bad "cannot build the guest program: $(grep -m3 error "$tmp/err")"
	finish
fi

# bpf_testmod.ko against the relinked tree, before anyone relinks it again:
# the tree's own test_kmods, output outside the tree (MO=), its BTF made by
# gen-btf.sh with RESOLVE_BTFIDS=btfids --distill_base
kmod() {
	mkdir -p "$OUT/kmod"
	# an external module needs the tree's module linker script
	# (scripts/module.lds): a tree built for vmlinux and bzImage has none
	# shellcheck disable=SC2046 # extra_symbols: one word or none
	make -s -C "$T" ARCH=x86_64 RESOLVE_BTFIDS="$B" modules_prepare >"$OUT/kmod.log" 2>&1 &&
	make -C "$T" ARCH=x86_64 M="$T/tools/testing/selftests/bpf/test_kmods" MO="$OUT/kmod" \
		RESOLVE_BTFIDS="$B" $(extra_symbols) modules \
		>>"$OUT/kmod.log" 2>&1 && cp "$OUT/kmod/bpf_testmod.ko" "$tmp/" ||
		echo "kmod: $(grep -m1 -iE 'error|warning: .* undefined' "$OUT/kmod.log")" >"$tmp/kmod.err"
	# livepatch_trampoline's module: the tree's livepatch sample (its
	# config has no SAMPLES: the option is given on the command line),
	# which the test loads from ../../../../samples/livepatch, / here
	if grep -q '^CONFIG_LIVEPATCH=y' "$T/.config"; then
		# shellcheck disable=SC2046 # extra_symbols: one word or none
		mkdir -p "$OUT/klp" &&
		make -C "$T" ARCH=x86_64 M="$T/samples/livepatch" MO="$OUT/klp" \
			CONFIG_SAMPLE_LIVEPATCH=m RESOLVE_BTFIDS="$B" \
			$(extra_symbols) modules >"$OUT/klp.log" 2>&1 &&
			cp "$OUT/klp/livepatch-sample.ko" "$tmp/" ||
			echo "$(grep -m1 -iE 'error|warning: .* undefined' "$OUT/klp.log")" >"$tmp/klp.err"
	fi
	return 0
}
start=$SECONDS
if ! relink_patched "$tmp" kmod 2>"$tmp/err"; then
	bad "relink with RESOLVE_BTFIDS=btfids: $(tail -1 "$tmp/err")"
	finish
fi
ok "kbuild relinked the patched 7.3 tree with RESOLVE_BTFIDS=btfids ($((SECONDS - start))s with bpf_testmod)"
if [ -f "$tmp/bpf_testmod.ko" ]; then
	# kbuild's external-module path: btfids wrote a distilled base
	# (grep reads all of readelf's: with -q, its SIGPIPE fails the pipe)
	# shellcheck disable=SC2143 # not grep -q: the comment above
	if [ -n "$(readelf -SW "$tmp/bpf_testmod.ko" | grep ' \.BTF\.base ')" ]; then
		ok "bpf_testmod.ko built against the tree (KBUILD_EXTMOD): its split BTF has a distilled .BTF.base"
	else
		bad "bpf_testmod.ko has no .BTF.base section (btfids --distill_base)"
	fi
else
	# the tests need it (tracing_multi_check.c's __ksym externs, the
	# module_* subtests, trigger_module_test_read()): they fail without it
	bad "bpf_testmod.ko did not build against the tree ($(cat "$tmp/kmod.err"); $OUT/kmod.log)"
fi
[ ! -f "$tmp/klp.err" ] ||
	bad "the livepatch sample did not build against the tree ($(cat "$tmp/klp.err"); $OUT/klp.log)"

# kernel/7.3-libbpf: libbpf patched to keep what the kernel's trampoline
# table takes (its libbpf patch on the tree's tools/lib/bpf, built apart:
# kernel/7.3-libbpf/build-libbpf) and its selftest, tracing_multi_table
# (the files its selftests patch adds, in EXTRA, unless the tree has them):
# test_progs and bench link that libbpf
lbt=() extra="$OUT/extra"
rm -rf "$extra"
if [ -d "$top/kernel/7.3-libbpf" ] && [ "${BTFIDS_SELFTESTS_LIBBPF:-}" != upstream ]; then
	if ! nice -n 10 "$top/kernel/7.3-libbpf/build-libbpf" "$OUT/libbpf-table" "$T" 2>"$tmp/err"; then
		bad "the patched libbpf (kernel/7.3-libbpf/build-libbpf): $(head -3 "$tmp/err")"
		finish
	fi
	lbt=(LIBBPF_TABLE="$OUT/libbpf-table")
	for p in "$top"/kernel/7.3-libbpf/0*-selftests-bpf-*.patch; do
		patch -d "$T" -p1 -R --dry-run -s -f <"$p" >/dev/null 2>&1 && continue
		# its selftest files alone (not its MAINTAINERS hunk)
		mkdir -p "$extra" &&
		awk '/^diff --git /{ keep = $3 ~ /^a\/tools\/testing\/selftests\/bpf\// } keep' "$p" |
		patch -d "$extra" -p5 -s -f >"$tmp/err" 2>&1 ||
			{ bad "${p##*/} does not apply: $(head -3 "$tmp/err")"; finish; }
		lbt+=(EXTRA="$extra")
	done
fi
start=$SECONDS
if ! make -s -f "$top/tests/selftests/Makefile" TREE="$T" OUT="$OUT" VMLINUX="$tmp/vmlinux" \
	CLANG="$CLANG_BPF" "${lbt[@]}" ${BTFIDS_SELFTESTS_PROGS:+TESTS="$BTFIDS_SELFTESTS_PROGS"} \
	-j"$(nproc)" all bench >"$tmp/make.log" 2>&1; then
	bad "test_progs or bench did not build: $(grep -m3 -E 'error|Error' "$tmp/make.log")"
	finish
fi
ok "test_progs and bench built from the tree's selftests ($((SECONDS - start))s): $(tr '\n' ' ' < <("$OUT/test_progs" -l))"

# the runs (tests/boot/selftests.c), each in every configuration: the
# trigger benchmarks first, in rounds (before the tests and the attach
# benchmark leave RCU Tasks work behind, which the emulator runs on the
# same host thread), then the tests, then upstream's attach benchmark on
# its own, last
deny=$(awk '$1 == "deny" { printf ",%s", $2 }' "$SKIPS")
wd=${BTFIDS_SELFTESTS_WATCHDOG:+ -w $BTFIDS_SELFTESTS_WATCHDOG}
{
	for r in $(seq "$ROUNDS"); do
		for t in $TRIG; do
			echo "trig-$t bench -w1 -d$trig_secs -a trig-$t"
		done
	done
	echo "suite test_progs -v$wd -t $TESTS${deny:+ -d ${deny#,}}"
	echo "bench test_progs -v$wd -t tracing_multi_bench_attach"
} >"$tmp/selftests.txt"
awk '$1 == "deny" { name = $2; $1 = $2 = ""; sub(/^ +/, ""); print "  not run: " name ": " $0 }' "$SKIPS"
echo "$configs" >"$tmp/configs"
# the initramfs: /init, test_progs and what it opens in /selftests
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "dir /selftests 0755 0 0"
	# /bin/sh for the tests' system() (livepatch_trampoline disables its
	# livepatch with "echo 0 > .../enabled"): the host's dash and the
	# libraries it loads, at their paths
	echo "dir /bin 0755 0 0"
	echo "file /bin/sh $(readlink -f /bin/dash) 0755 0 0"
	for l in $(ldd /bin/dash | grep -oE '/[^ ]+'); do
		d=
		for c in $(dirname "$l" | tr / ' '); do
			d+=/$c
			echo "dir $d 0755 0 0"
		done
		echo "file $l $(readlink -f "$l") 0755 0 0"
	done
	echo "file /init $tmp/init 0755 0 0"
	echo "file /ids.bpf.o $tmp/ids.bpf.o 0644 0 0"
	echo "file /selftests.txt $tmp/selftests.txt 0644 0 0"
	[ -z "$configs" ] || echo "file /selftests-configs $tmp/configs 0644 0 0"
	echo "file /selftests/test_progs $OUT/test_progs 0755 0 0"
	echo "file /selftests/bench $OUT/bench 0755 0 0"
	for f in "$OUT"/files/* "$tmp"/bpf_testmod.ko; do
		[ -f "$f" ] && echo "file /selftests/${f##*/} $f 0644 0 0"
	done
	if [ -f "$tmp/livepatch-sample.ko" ]; then
		echo "dir /samples 0755 0 0"
		echo "dir /samples/livepatch 0755 0 0"
		echo "file /samples/livepatch/livepatch-sample.ko $tmp/livepatch-sample.ko 0644 0 0"
	fi
} >"$tmp/cpio.list"
"$(gen_init_cpio "$tmp")" "$tmp/cpio.list" >"$tmp/initrd.cpio" || { bad "gen_init_cpio"; finish; }

# an oops ends the guest at once (panic=-1: qemu exits)
qemu_boot "$tmp/bzImage" "$tmp/initrd.cpio" "$tmp/log" "oops=panic ${BTFIDS_BOOT_APPEND:-}"
L=$tmp/log
[ -z "${BTFIDS_BOOT_LOG:-}" ] || cp "$L" "$BTFIDS_BOOT_LOG"
rel=$(guest_release "$L")
if [ -z "$rel" ]; then
	bad "the patched kernel did not start /init; serial log ends: $(tail -c 400 "$L" | tr '\n' ' ')"
	finish
fi
grep -E "^boot: $rel (selftests: |guest seconds)" "$L"
grep -q "^boot: $rel ids ok" "$L" && ok "the .BTF_ids slots: ids ok" || bad "ids not ok"

# each run's block: its Summary, exit status, skips, the bench's lines, and
# any oops (tests/selftests/check.py)
want=4
grep -q "^boot: $rel selftests: shared images are not in this kernel" "$L" && want=2
[ -z "$configs" ] || want=$((want / 2))
# a kernel without the switches (the fixes alone): one run of each
grep -q "^boot: $rel selftests: no trampoline tables in this kernel" "$L" && want=1
while read -r verdict text; do
	case $verdict in
	ok) ok "$text" ;;
	bad) bad "$text" ;;
	*) echo "  $text" ;;
	esac
done < <(python3 "$top/tests/selftests/check.py" "$L" "$SKIPS" "$want" --rounds "$ROUNDS" suite bench \
	${TRIG:+$(printf 'trig-%s ' $TRIG)})
grep -q '^boot: end' "$L" || bad "the guest did not finish; log ends: $(tail -c 300 "$L" | tr '\n' ' ')"
finish
