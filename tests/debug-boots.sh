#!/usr/bin/env bash
# debug-boots.sh - the patched 7.3 kernel as kernel developers test it: the
# debug tree of kernel/build-tree --debug (the distribution-like config and
# KASAN, lockdep with PROVE_RCU, DEBUG_ATOMIC_SLEEP, list and object
# debugging) runs the shared-image proof and the stress (tests/boot-share.sh,
# --stress as make check runs it: a round a mode, each over half the
# functions) and upstream's selftests
# (tests/selftests-boot.sh).
# Any KASAN report, lockdep or RCU splat or WARN fails them (they count the
# kernel's splats). Not part of make check: the debug tree is one more
# kernel build (about 25 minutes on 2 cores) and its boots run 3 to 5
# times slower under TCG; docs/kernel.md (The whole run, clean) has its last result.
#
# Arguments: the runs, in that order (default all three: boot-share,
# "boot-share --stress", selftests-boot), e.g. tests/debug-boots.sh
# "boot-share --stress" selftests-boot.
#
#   BTFIDS_KBUILD_DEBUG    the debug tree's folder (default ~/.cache/btfids/kbuild-debug)
#   BTFIDS_BOOT_TIMEOUT    seconds for each qemu run (default 5400)
# Ends with "debug-boots: N passed, N failed" or "debug-boots: skipped (<why>)".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
DBG=${BTFIDS_KBUILD_DEBUG:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-debug}
export BTFIDS_KBUILD_PATCHED=$DBG
export BTFIDS_BOOT_TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-5400}
# the selftests' own cache: test_progs and bpf_testmod of this tree
export BTFIDS_SELFTESTS_CACHE=${BTFIDS_SELFTESTS_CACHE:-$DBG/selftests-7.3}

[ -f "$DBG/linux-source-7.3/arch/x86/boot/bzImage" ] ||
	{ echo "debug-boots: skipped (no debug tree in $DBG: kernel/build-tree --debug)"; exit 0; }
# the debug tree: lockdep at least (a tree of an older build-tree --debug
# has no KASAN: tinyconfig's SLUB_TINY kept it out; the end line says which)
grep -q '^CONFIG_PROVE_LOCKING=y' "$DBG/linux-source-7.3/.config" ||
	{ echo "debug-boots: skipped ($DBG is not the debug tree: no CONFIG_PROVE_LOCKING)"; exit 0; }

# RCU's stall detector measures the emulator here: lockdep and every
# function traced under one TCG thread (bootlib.sh) starve the grace-period
# kthreads past the default 21 s ("rcu_preempt kthread starved"), with no
# task stuck; RCU Tasks likewise past its 10 minutes (a mass attach or
# detach under lockdep is one long syscall); 5 and 30 minutes still catch
# a real stall (rcu_task_stall_timeout is in jiffies: the tree has HZ=250)
# loglevel=5: the console shows WARNINGs (lockdep reports among them;
# bootlib.sh boots with loglevel=4)
export BTFIDS_BOOT_APPEND="${BTFIDS_BOOT_APPEND:-rcupdate.rcu_cpu_stall_timeout=300 rcupdate.rcu_task_stall_timeout=450000 loglevel=5}"
passed=0 failed=0
export BTFIDS_STRESS_ROUNDS=${BTFIDS_STRESS_ROUNDS:-1}
export BTFIDS_STRESS_OFF_ROUNDS=${BTFIDS_STRESS_OFF_ROUNDS:-1}
export BTFIDS_STRESS_FIRST=${BTFIDS_STRESS_FIRST:-1}
# KASAN and lockdep under TCG: one link over every function took 33
# minutes (the proof's search alone, 23,186 functions): every 8th function
# (about 2,900) keeps each attach and detach path, shared images and their
# frees, in minutes
export BTFIDS_SHARE_EVERY=${BTFIDS_SHARE_EVERY:-8}
# upstream's attach bench over 23,124 functions under KASAN: attach 214 s,
# detach 152 s, past test_progs' 120-second watchdog, which fails it
export BTFIDS_SELFTESTS_WATCHDOG=${BTFIDS_SELFTESTS_WATCHDOG:-3600}
[ $# -gt 0 ] || set -- boot-share "boot-share --stress" selftests-boot
for run in "$@"; do
	read -r s args <<< "$run"
	# shellcheck disable=SC2086 # args: words
	out=$("$here/$s.sh" $args 2>&1)
	echo "$out"
	line=$(echo "$out" | grep -E "^$s: ([0-9]+ passed|skipped)" | tail -1)
	case $line in
	*skipped*) failed=$((failed + 1)); echo "  FAIL: $run skipped on the debug tree: $line" ;;
	*" 0 failed") passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
done
echo "debug-boots: $(date -u +%Y-%m-%d), the tree's debug options: $(grep -oE '^CONFIG_(KASAN|PROVE_LOCKING|PROVE_RCU|DEBUG_ATOMIC_SLEEP|DEBUG_LIST|DEBUG_OBJECTS|PROVE_RCU_LIST)=y' "$DBG/linux-source-7.3/.config" | sed 's/^CONFIG_//; s/=y$//' | tr '\n' ' ')"
echo "debug-boots: $passed passed, $failed failed"
[ "$failed" = 0 ]
