#!/usr/bin/env bash
# fixes-alone.sh - kernel/7.3-fixes on their own, as the bpf tree would take
# them: linux-source-7.3 with only the fixes applied (kernel/build-tree
# --fixes, its own tree in ~/.cache/btfids/kbuild-fixes: one more tree to
# build, about 25 minutes on 2 cores the first time), booted under qemu,
# running upstream's selftests of the paths the fixes touch (tracing_multi,
# fentry/fexit, fsession, kprobe_multi, the trampoline count and livepatch
# ones) and the fixes' own (tracing_multi_test/same_site and same_name,
# livepatch_trampoline's tracing_multi subtests, the attach benchmark
# naming each call site once), with the tree's libbpf as it is, through
# tests/selftests-boot.sh. Not in make check or make check-full: a script of
# its own (one more tree to build).
#
# Prints selftests-boot's lines, then
#   fixes alone: <P> passed, <F> failed (test_progs <T> tests, <S> subtests ...)
# with P the test_progs tests and checks that passed and F what failed,
# and exits 1 when F is not 0.
#
#   BTFIDS_KBUILD_FIXES  the fixes' tree folder (default ~/.cache/btfids/kbuild-fixes)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
D=${BTFIDS_KBUILD_FIXES:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-fixes}

if ! out=$(BTFIDS_KBUILD_PATCHED=$D "$top/kernel/build-tree" --fixes 2>&1); then
	echo "$out" | tail -3
	echo "fixes alone: 0 passed, 1 failed (the tree did not build)"
	exit 1
fi
tests="tracing_multi_test,tracing_multi_attach_rollback,fentry_test,fexit_test,fentry_fexit"
tests+=",fsession_test,trampoline_count,kprobe_multi_test,kprobe_multi_bench_attach"
tests+=",tracing_failure,kfunc_call,livepatch_trampoline"
progs="tracing_multi fentry_test fexit_test fentry_fexit fsession_test trampoline_count"
progs+=" kprobe_multi_test tracing_failure kfunc_call livepatch_trampoline"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
BTFIDS_KBUILD_PATCHED=$D BTFIDS_BOOT_TRAMP_ANY_TREE=1 BTFIDS_SELFTESTS_LIBBPF=upstream \
	BTFIDS_SELFTESTS_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/btfids/selftests-7.3-fixes \
	BTFIDS_SELFTESTS_TESTS=$tests BTFIDS_SELFTESTS_PROGS=$progs \
	BTFIDS_SELFTESTS_TRIG="fentry fexit kprobe-multi" \
	"$here/selftests-boot.sh" | tee "$log"
python3 - "$log" <<'PY'
import re, sys
txt = open(sys.argv[1]).read()
m = re.search(r'selftests-boot: (\d+) passed, (\d+) failed', txt)
s = re.search(r'suite, tables=- share=-: Summary: (\d+)/(\d+) PASSED, (\d+) SKIPPED, (\d+)/\d+ FAILED', txt)
b = re.search(r'bench, tables=- share=-: Summary: (\d+)/\d+ PASSED, \d+ SKIPPED, (\d+)/\d+ FAILED', txt)
if not m or 'skipped (' in txt.splitlines()[-1]:
    print('fixes alone: 0 passed, 1 failed (selftests-boot: %s)'
          % (txt.strip().splitlines() or ['no output'])[-1])
    sys.exit(1)
ok, bad = int(m.group(1)), int(m.group(2))
if not s:
    print('fixes alone: %d passed, %d failed (no test_progs Summary of one configuration)'
          % (ok, bad + 1))
    sys.exit(1)
t, st, sk, f = map(int, s.groups())
bt, bf = map(int, b.groups()) if b else (0, 1)
print('fixes alone: %d passed, %d failed (test_progs: %d tests with %d subtests passed, %d skipped, '
      '%d failed; tracing_multi_bench_attach %s; %d checks of selftests-boot, %d failed)'
      % (t + bt + ok, bad + f + bf, t, st, sk, f, 'passed' if bt and not bf else 'FAILED',
         ok + bad, bad))
sys.exit(1 if bad + f + bf else 0)
PY
