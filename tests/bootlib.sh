# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # the variables are for the scripts that source this; top, B, tmp come from them
# bootlib.sh - sourced by the boots of the patched 7.3 tree (kernel/7.3 on
# kernel/7.3-fixes, built by kernel/build-tree): tests/boot-tramp.sh, tests/selftests-boot.sh,
# tests/boot-share.sh.
# The caller has sourced tests/paths.sh. A caller that sets NAME (the
# prefix of its closing line) first gets skip(), ok(), bad() and finish()
# from here; the others define their own.
#
#   DP, T   the tree's folder (BTFIDS_KBUILD_PATCHED) and the tree
#   S       tests/boot, the guest's sources
#   QEMU, TIMEOUT   qemu-system-x86_64 and seconds for each run (a default
#                   TIMEOUT is scaled by the emulator's speed: tests/emulib.sh)
#   BTFIDS_QEMU_SMP CPUs of the guest (default 2)
#   BTFIDS_QEMU_ACCEL  qemu's -accel (default tcg,thread=single: the vCPUs take
#                   turns on one host thread. With multi-threaded TCG a vCPU
#                   runs code another vCPU has just rewritten from a stale
#                   translation: the patched kernel took "Oops: int3" at ftrace
#                   call sites already restored, in every mass attach, sharing
#                   and tables off too; none with thread=single)
DP=${BTFIDS_KBUILD_PATCHED:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-patched}
T=$DP/linux-source-7.3
QEMU=${QEMU:-qemu-system-x86_64}
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-900}
S=$top/tests/boot
. "$top/tests/emulib.sh"
CFLAGS_GUEST="-O2 -g -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE"
CFLAGS_BPF="-target bpf -O2 -g -Wall -Werror -I/usr/include/x86_64-linux-gnu"

if [ -n "${NAME:-}" ]; then
	passed=0 failed=0
	skip() { echo "$NAME: skipped ($*)"; exit 0; }
	ok() { passed=$((passed + 1)); echo "  ok: $*"; }
	bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }
	finish() { echo "$NAME: $passed passed, $failed failed"; [ "$failed" = 0 ]; exit; }
fi

# series_built: true when the tree is built from kernel/7.3-fixes,
# kernel/7.3 and kernel/7.3-test as they are now (kernel/build-tree's
# .btfids-series: the sha256 of their patches, in that order)
series_built() {
	local p want

	# a tree the series is being developed in: its hash is not kernel/7.3's
	[ "${BTFIDS_BOOT_TRAMP_ANY_TREE:-}" = 1 ] && return 0
	want=$(for p in "$top"/kernel/7.3-fixes/0*.patch "$top"/kernel/7.3/0*.patch \
		"$top"/kernel/7.3-test/0*.patch; do
		[ "${p##*/}" = 0000-cover-letter.patch ] || cat "$p"
	done | sha256sum | cut -d' ' -f1)
	[ "$(cat "$T/.btfids-series" 2>/dev/null)" = "$want" ]
}

# skip unless the host can build the guest and the tree is built from
# kernel/7.3-fixes and kernel/7.3 as they are now
patched_tree_ready() {
	[ "$(uname -m)" = x86_64 ] || skip "the guest program is built for x86-64; this host is $(uname -m)"
	command -v "$QEMU" >/dev/null || skip "no $QEMU: apt-get install qemu-system-x86"
	command -v clang >/dev/null || skip "no clang for the BPF programs: apt-get install clang llvm"
	command -v python3 >/dev/null || skip "no python3"
	[ -f /usr/lib/x86_64-linux-gnu/libbpf.a ] || skip "no static libbpf.a: apt-get install libbpf-dev"
	[ -x "$B" ] || skip "no btfids at $B: run make"
	[ -x "$R/kbuild-tiny" ] ||
		skip "no $R/kbuild-tiny: the workspace's shared/realdata, not in this repository; set BTFIDS_REALDATA"
	[ -f "$T/.config" ] && [ -f "$T/arch/x86/boot/bzImage" ] ||
		skip "no patched 7.3 tree in $DP: run kernel/build-tree once, about 15 minutes"
	series_built ||
		skip "the patched tree in $DP is not built from kernel/7.3-fixes and kernel/7.3 as they are now: run kernel/build-tree (or BTFIDS_BOOT_TRAMP_ANY_TREE=1)"
	emu_scale >/dev/null	# once, here: boot() and the guest use it
	echo "  emulator: $(emu_said)"
}

# build_guest DIR OBJ...: DIR/ids.bpf.o and the static DIR/init (tests/boot/
# and OBJs built against the tree's 7.3 UAPI); errors in DIR/err
build_guest() {
	local d=$1 o objs=()
	shift
	clang -target bpf -O2 -g -Wall -Werror -I/usr/include/x86_64-linux-gnu \
		-c "$S/ids.bpf.c" -o "$d/ids.bpf.o" 2>"$d/err" || return 1
	for o in "$@"; do
		${CC:-gcc} $CFLAGS_GUEST -I"$T/tools/include/uapi" -c "$S/$o.c" -o "$d/$o.o" \
			2>>"$d/err" || return 1
		objs+=("$d/$o.o")
	done
	${CC:-gcc} $CFLAGS_GUEST -static -o "$d/init" "$S"/init.c "$S"/ids.c "$S"/models.c \
		"$S"/args.c "${objs[@]}" -lbpf -lelf -lz 2>>"$d/err"
}

# build_share_guest DIR LIBBPF [SRC...]: the shared-images guest
# (tests/boot/share*.c, tests/boot-share.sh and tests/boot-trust.sh) as
# DIR/init, with DIR/ids.bpf.o and DIR/share.bpf.o, against libbpf 1.8 in
# LIBBPF and the tree's 7.3 UAPI; SRC: more guest sources; errors in DIR/err
build_share_guest() {
	local d=$1 lb=$2
	shift 2
	local guest=("$S"/init.c "$S"/ids.c "$S"/models.c "$S"/args.c "$S"/share.c
		     "$S"/share_proof.c "$S"/share_klp.c "$S"/share_override.c "$S"/share_bench.c
		     "$S"/share_stress.c "$S"/share_ksym.c "$S"/share_site.c "$S"/nomemfd.c "$@")
	# shellcheck disable=SC2086 # flags: words
	clang $CFLAGS_BPF -c "$S/ids.bpf.c" -o "$d/ids.bpf.o" 2>"$d/err" &&
	clang $CFLAGS_BPF -I"$lb/include" -I"$T/tools/include/uapi" \
		-c "$S/share.bpf.c" -o "$d/share.bpf.o" 2>>"$d/err" &&
	${CC:-gcc} $CFLAGS_GUEST -I"$lb/include" -I"$T/tools/include/uapi" -I"$top/include" -static \
		-Wl,--wrap=syscall -o "$d/init" "${guest[@]}" "$lb/libbpf.a" -lelf -lz -lpthread 2>>"$d/err"
}

# relink_patched DIR [CMD...]: under the tree's relink lock, relink it with
# RESOLVE_BTFIDS=btfids (kbuild-tiny), copy its vmlinux and bzImage into DIR,
# then run CMD there (still under the lock); errors on stderr
relink_patched() {
	local d=$1
	shift
	(flock -w "$(emu_secs 1800)" 9 || exit 1
	 relink_kbuild "$DP" 7.3 || exit 1
	 cp "$T/vmlinux" "$d/vmlinux" && cp "$T/arch/x86/boot/bzImage" "$d/bzImage" || exit 1
	 [ $# = 0 ] || "$@"
	) 9>"$DP/.relink-7.3.lock"
}

# extra_symbols: KBUILD_EXTRA_SYMBOLS for an external module built against
# the tree (M=): its vmlinux.symvers when the tree has no Module.symvers (a
# tree built for vmlinux and the image only); nothing when `make modules`
# wrote one (kernel/build-tree's modules): it holds vmlinux's exports, and
# modpost would read them twice ("exported twice")
extra_symbols() {
	[ -f "$T/Module.symvers" ] || echo "KBUILD_EXTRA_SYMBOLS=$T/vmlinux.symvers"
}

# gen_init_cpio DIR: the tree's initramfs tool (built into DIR if the tree
# has none)
gen_init_cpio() {
	local gic=$T/usr/gen_init_cpio
	[ -x "$gic" ] || { gic=$1/gen_init_cpio; ${CC:-gcc} -O2 -o "$gic" "$T/usr/gen_init_cpio.c"; }
	echo "$gic"
}

# qemu_boot BZIMAGE INITRD LOG APPEND: one TCG boot of 1 GiB (boot() below)
qemu_boot() {
	boot "$1" "$2" "$3" "$4"
}

# guest_release LOG: the release in the guest's "init started" line, as a
# grep pattern (basic and extended alike: a git tree with commits of its
# own makes a release like 7.3.0-rc7+)
guest_release() {
	sed -nE 's/^boot: (\S+) init started$/\1/p' "$1" | head -1 | sed 's/[.+]/[&]/g'
}

# boot_require: skip unless this host can build and boot the guest, and
# the patched tree is built
boot_require() {
	[ "$(uname -m)" = x86_64 ] || skip "the guest program is built for x86-64; this host is $(uname -m)"
	command -v "$QEMU" >/dev/null || skip "no $QEMU: apt-get install qemu-system-x86"
	command -v clang >/dev/null || skip "no clang for the BPF programs: apt-get install clang llvm"
	command -v python3 >/dev/null || skip "no python3"
	[ -x "$B" ] || skip "no btfids at $B: run make"
	[ -f "$T/.config" ] && [ -f "$T/arch/x86/boot/bzImage" ] ||
		skip "no patched 7.3 tree in $DP: run kernel/build-tree once, about 15 minutes"
	series_built || skip "the patched tree in $DP is not built from kernel/7.3-fixes and kernel/7.3 as they are now: run kernel/build-tree"
	emu_scale >/dev/null
	echo "  emulator: $(emu_said)"
}

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

# boot BZIMAGE INITRD LOG APPEND [MEGS]: qemu-system-x86_64 under TCG with
# $BTFIDS_QEMU_SMP CPUs (default 2: the patched tree is SMP, as a
# distribution builds it), the guest's reboot ends qemu (-no-reboot), bounded by $TIMEOUT;
# LOG gets the serial console without CRs; prints how long qemu ran
boot() {
	local start=$SECONDS to

	to=$(boot_timeout "$TIMEOUT")
	timeout -k 10 "$to" "$QEMU" -accel "${BTFIDS_QEMU_ACCEL:-tcg,thread=single}" -nodefaults -display none -no-reboot \
		-m "${5:-1024}" -smp "${BTFIDS_QEMU_SMP:-2}" -kernel "$1" -initrd "$2" -serial "file:$3.raw" \
		${BTFIDS_QEMU_EXTRA:-} \
		-append "console=ttyS0 panic=-1 loglevel=4 btfids_scale=$(emu_scale) $4" </dev/null >"$3.qemu" 2>&1
	boot_rc=$?
	tr -d '\r' <"$3.raw" >"$3"
	boot_secs=$((SECONDS - start))
	echo "  boot: qemu (TCG) ran ${boot_secs}s"
	[ "$boot_rc" != 124 ] || echo "  boot: $(boot_timeout_said "$to")"
}

# boot_timeout BASE: the seconds qemu may run: BTFIDS_BOOT_TIMEOUT as
# given, else BASE (the script's default) scaled by the emulator's speed
boot_timeout() {
	if [ -n "${BTFIDS_BOOT_TIMEOUT:-}" ]; then
		echo "$1"
	else
		emu_secs "$1"
	fi
}

# boot_timeout_said SECS: what a qemu killed after SECS waited for, and why that long
boot_timeout_said() {
	echo "qemu killed after $1 s waiting for the guest to finish and reboot (${BTFIDS_BOOT_TIMEOUT:+BTFIDS_BOOT_TIMEOUT; }$(emu_said))"
}
