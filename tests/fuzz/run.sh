#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run.sh DIR TARGET... - make fuzz: each libFuzzer target DIR/fuzz_TARGET
# in turn, FUZZ_SECONDS (default 60) each, on its corpus DIR/corpus/TARGET
# (seeds.sh; new inputs are added to it), one line each:
#   fuzz: flow7: 123456 runs in 60 s, 0 crashes (coverage 1200 edges, corpus 345)
# A crash, leak, UB report, timeout or out-of-memory stops that target:
#   fuzz: flow7: 1 crash after 4567 runs: DIR/crash-... (log: DIR/flow7.log)
# and the script exits 1 after the others have run.
set -uo pipefail

dir=$1
shift
secs=${FUZZ_SECONDS:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
failed=0
# the base of the real-module seeds, when seeds.sh extracted it
[ -s "$dir/vmlinux7.btf" ] && export FUZZ_VMLINUX_BTF=$top/$dir/vmlinux7.btf
# tmpfs for the files the targets write per input, removed at the end
# (a target that stops on a finding leaves its directory behind)
shm=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && shm=/dev/shm
TMPDIR=$(mktemp -d "$shm/btfids-fuzz-run.XXXXXX") || exit 2
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

for t in "$@"; do
	log=$dir/$t.log
	mkdir -p "$dir/corpus/$t"
	t0=$SECONDS
	# -close_fd_mask=2: btfids' own FAILED/WARN lines off (libFuzzer and
	# the sanitizers keep a copy of stderr); -timeout: a hang is a finding
	"$dir/fuzz_$t" -max_total_time="$secs" -max_len=1048576 -rss_limit_mb=4096 \
		-timeout=30 -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix="$dir/" "$dir/corpus/$t" >"$log" 2>&1
	rc=$?
	runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
	corp=$(grep -oE 'corp: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
	art=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -1)
	if [ "$rc" = 0 ] && [ -z "$art" ]; then
		echo "fuzz: $t: ${runs:-0} runs in $((SECONDS - t0)) s, 0 crashes (coverage ${cov:-?} edges, corpus ${corp:-?})"
	else
		failed=1
		echo "fuzz: $t: 1 crash after ${runs:-?} runs: ${art:-no artifact, exit $rc} (log: $log)"
		grep -m3 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | sed 's/^/  /'
	fi
done
exit $failed
