#!/usr/bin/env bash
# boot-debian.sh - the arm64 verdicts judged by the kernels people run:
# Debian's own arm64 cloud kernels (Debian 12's 6.1 and the newest 7.x,
# tests/fetch-6.1 --vmlinuz), booted as they are under qemu-system-aarch64
# (virt, TCG) with tests/boot.sh's guest, which tries btfids' models and
# its fentry, fexit and fmod_ret verdicts of their vmlinux (every 3rd
# function and every special one within the guest's budget; make
# check-full: BTFIDS_BOOT_SAMPLE=1 and a longer budget) and the programs
# that depend on the .BTF_ids slots. 6.1 has no ftrace direct calls on
# arm64, so nothing attaches there: the guest says so (its probe of
# vfs_read) and every refusal must be btfids' (no-direct-call or
# no-ftrace-site, both ENOTSUPP); 7.x has them (CALL_OPS, a
# relocatable image). Each kernel's boot.sh lines, then
# "boot-debian: N passed, N failed", or "boot-debian: skipped (<why>)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
passed=0 failed=0 ran=0
for a in arm64-6.1 arm64-7; do
	d=$K/$a
	if [ ! -f "$d/vmlinuz" ] || [ ! -f "$d/vmlinux" ]; then
		echo "boot-debian: $a skipped (no image: tests/fetch-6.1 --vmlinuz, as root)"
		continue
	fi
	# the release the image says it is, as boot.sh's VERSION (7.2, 6.1)
	v=$(strings -n 12 "$d/vmlinux" | sed -nE '1,/^Linux version /s/^Linux version ([0-9]+\.[0-9]+).*/\1/p' | head -1)
	[ -n "$v" ] || { echo "boot-debian: $a skipped (no linux_banner in $d/vmlinux)"; continue; }
	# a full distribution kernel: each attach updates ftrace's ~44,000
	# records under TCG (about 0.6 s on 7.x), so 150 s of models (make
	# check-full: 600) and at least 100 functions tried, not 1,000
	budget=150
	[ "${BTFIDS_CHECK_FULL:-}" != 1 ] || budget=600
	out=$(BTFIDS_BOOT_BZIMAGE=$d/vmlinuz BTFIDS_BOOT_VMLINUX=$d/vmlinux \
	      BTFIDS_BOOT_BUDGET=${BTFIDS_BOOT_BUDGET:-$budget} BTFIDS_BOOT_MIN=${BTFIDS_BOOT_MIN:-100} \
	      "$top/tests/boot.sh" "$v-arm64" 2>&1)
	echo "$out" | sed "s/^/  $a: /"
	line=$(echo "$out" | grep -E '^boot: [0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -n "$line" ]; then
		ran=$((ran + 1))
		passed=$((passed + $(echo "$line" | sed -nE 's/.* ([0-9]+) passed.*/\1/p')))
		failed=$((failed + $(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')))
	elif ! echo "$out" | grep -q '^boot: skipped'; then
		failed=$((failed + 1))
	fi
done
[ $ran -gt 0 ] || [ $failed -gt 0 ] || { echo "boot-debian: skipped (no Debian arm64 kernel booted: see above)"; exit 0; }
echo "boot-debian: $passed passed, $failed failed"
[ $failed = 0 ]
