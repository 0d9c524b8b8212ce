# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # the variables are for the scripts that source this; top, B, tmp come from them
# bootlib.sh - sourced by the scripts that boot a kernel under qemu with a
# guest program as /init (tests/boot-tramp.sh, tests/boot-share.sh):
# results, the guest's compiler flags, the initramfs and the boot.
# Set NAME (the prefix of the closing line) first, and tmp (a scratch
# folder) before boot_cpio/boot_gic. Sets QEMU (default
# qemu-system-x86_64), S (tests/boot), and the patched 7.3 tree
# (kernel/build-tree): DP its folder (BTFIDS_KBUILD_PATCHED), T the tree.

QEMU=${QEMU:-qemu-system-x86_64}
S=$top/tests/boot
DP=${BTFIDS_KBUILD_PATCHED:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-patched}
T=$DP/linux-source-7.3

passed=0 failed=0
skip() { echo "$NAME: skipped ($*)"; exit 0; }
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }
finish() { echo "$NAME: $passed passed, $failed failed"; [ $failed = 0 ]; exit; }

# boot_require: skip unless this host can build and boot the guest, and
# the patched tree is built
boot_require() {
	[ "$(uname -m)" = x86_64 ] || skip "the guest program is built for x86-64; this host is $(uname -m)"
	command -v "$QEMU" >/dev/null || skip "no $QEMU: apt-get install qemu-system-x86"
	command -v clang >/dev/null || skip "no clang for the BPF programs: apt-get install clang llvm"
	command -v python3 >/dev/null || skip "no python3"
	[ -x "$B" ] || skip "no btfids at $B: run make"
	[ -f "$T/.config" ] && [ -f "$T/arch/x86/boot/bzImage" ] ||
		skip "no patched 7.3 tree in $DP: run kernel/build-tree once, about 12 minutes"
}

# the static /init and the BPF objects (tests/boot/*.c, *.bpf.c)
CFLAGS_GUEST="-O2 -g -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE"
CFLAGS_BPF="-target bpf -O2 -g -Wall -Werror -I/usr/include/x86_64-linux-gnu"

# boot_cpio GIC DEST=SRC...: an initramfs on stdout (GIC: the tree's
# usr/gen_init_cpio, which makes the device node without root), with
# /init (mode 0755) and the other files
boot_cpio() {
	local gic=$1 f
	shift
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "dir /proc 0755 0 0"
		echo "dir /sys 0755 0 0"
		for f in "$@"; do
			if [ "${f%%=*}" = /init ]; then
				echo "file /init ${f#*=} 0755 0 0"
			else
				echo "file ${f%%=*} ${f#*=} 0644 0 0"
			fi
		done
	} >"$tmp/cpio.list"
	"$gic" "$tmp/cpio.list"
}

# boot_gic TREE: the tree's gen_init_cpio, built here when the tree has none
boot_gic() {
	if [ -x "$1/usr/gen_init_cpio" ]; then
		echo "$1/usr/gen_init_cpio"
	else
		${CC:-gcc} -O2 -o "$tmp/gen_init_cpio" "$1/usr/gen_init_cpio.c" && echo "$tmp/gen_init_cpio"
	fi
}

# boot BZIMAGE INITRD LOG APPEND [MEGS]: qemu-system-x86_64 under TCG, one
# CPU, the guest's reboot ends qemu (-no-reboot), bounded by $TIMEOUT;
# LOG gets the serial console without CRs; prints how long qemu ran
boot() {
	local start=$SECONDS
	timeout -k 10 "$TIMEOUT" "$QEMU" -accel tcg -nodefaults -display none -no-reboot \
		-m "${5:-1024}" -smp 1 -kernel "$1" -initrd "$2" -serial "file:$3.raw" \
		-append "console=ttyS0 panic=-1 loglevel=4 $4" </dev/null >"$3.qemu" 2>&1
	boot_rc=$?
	tr -d '\r' <"$3.raw" >"$3"
	boot_secs=$((SECONDS - start))
	echo "  boot: qemu (TCG) ran ${boot_secs}s"
}
