#!/usr/bin/env bash
# boot-cross.sh ARCH - a cross-built 7.3 kernel (arm64 or s390, the tree of
# kernel/build-tree --arch ARCH: the series applied, tinyconfig + BPF, BTF,
# ftrace with direct calls) relinked with RESOLVE_BTFIDS=btfids on this
# host, booted under its qemu-system (TCG), judging btfids' trampoline
# table:
#   host   the relinked vmlinux's .BTF_tramp read by tests/tramp2_check.py
#          (not btfids' code; either byte order): the format, e_machine,
#          crc32 of .BTF (zlib), every FUNC once, one class a prototype;
#   guest  a static /init built with the target's cross gcc
#          (tests/boot/cross_init.c) relays the kernel's "btf_tramp:" lines:
#          the boot check took the table (its counts, size and crc32 those
#          of the bytes), the self-test has every function agree with the
#          kernel's own BTF walk and every class with the arch's trampoline
#          size (CONFIG_BPF_BTF_TRAMP_SELFTEST), and the exported
#          /sys/kernel/btf_tramp/vmlinux is the table, little-endian whatever
#          the target's byte order.
# The relink's outputs against the tree's own resolve_btfids are
# tests/kbuild.sh's (7.3-arm64, 7.3-s390).
# Ends with "boot-cross: N passed, N failed (ARCH)" or "boot-cross: skipped
# (ARCH: <why>)" (make check runs both; CI builds no cross tree).
#
#   BTFIDS_BOOT_TIMEOUT  seconds for the qemu run (default 600)
#   BTFIDS_BOOT_LOG      keep the serial log in this file
set -uo pipefail

. "$(dirname "$0")/paths.sh"
. "$top/tests/emulib.sh"
arch=${1:-arm64}
D=${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-$arch
T=$D/linux-source-7.3-$arch
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-600}
passed=0 failed=0
skip() { echo "boot-cross: skipped ($arch: $*)"; exit 0; }
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }
finish() { echo "boot-cross: $passed passed, $failed failed ($arch)"; [ "$failed" = 0 ]; exit; }

case $arch in
arm64)
	QEMU=qemu-system-aarch64 CC_T=aarch64-linux-gnu-gcc img=arch/arm64/boot/Image
	# shellcheck disable=SC2054 # -M takes its properties comma-separated
	machine=(-M virt,gic-version=3 -cpu max) console=ttyAMA0 pkg=qemu-system-arm ;;
s390)
	QEMU=qemu-system-s390x CC_T=s390x-linux-gnu-gcc img=arch/s390/boot/bzImage
	machine=(-M s390-ccw-virtio -cpu max) console=ttysclp0 pkg=qemu-system-misc ;;
*)
	echo "boot-cross: ARCH is arm64 or s390, not '$arch'" >&2
	exit 2 ;;
esac
command -v "$QEMU" >/dev/null || skip "no $QEMU: apt-get install $pkg"
command -v "$CC_T" >/dev/null || skip "no $CC_T: apt-get install gcc-${CC_T%-gcc}"
command -v python3 >/dev/null || skip "no python3"
[ -x "$B" ] || skip "no btfids at $B: run make"
[ -x "$R/kbuild-tiny" ] ||
	skip "no $R/kbuild-tiny: the workspace's shared/realdata, not in this repository; set BTFIDS_REALDATA"
[ -f "$T/.config" ] && [ -f "$T/$img" ] ||
	skip "no $arch tree in $D: kernel/build-tree --arch $arch, as root, about 20 minutes"
grep -q '^CONFIG_BPF_BTF_TRAMP=y' "$T/.config" ||
	skip "$T is not built with the series (no CONFIG_BPF_BTF_TRAMP): kernel/build-tree --arch $arch"
# built from the series as they are now (kernel/build-tree writes their hash)
want=$(for p in "$top"/kernel/7.3-fixes/0*.patch "$top"/kernel/7.3/0*.patch \
	"$top"/kernel/7.3-test/0*.patch; do
	[ "${p##*/}" = 0000-cover-letter.patch ] || cat "$p"
done | sha256sum | cut -d' ' -f1)
[ "$(cat "$T/.btfids-series" 2>/dev/null)" = "$want" ] || [ "${BTFIDS_BOOT_TRAMP_ANY_TREE:-}" = 1 ] ||
	skip "$T is built from another form of kernel/7.3*: kernel/build-tree --arch $arch brings it up to them"

# the default timeout, scaled by the emulator's speed (tests/emulib.sh)
emu_scale >/dev/null
[ -n "${BTFIDS_BOOT_TIMEOUT:-}" ] || TIMEOUT=$(emu_secs "$TIMEOUT")
tmp=$(mktemp -d /tmp/btfids-boot-cross.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# relink with btfids under the tree's lock, keep a copy of vmlinux and the image
if ! (flock -w "$(emu_secs 1800)" 9 || exit 1
      relink_kbuild "$D" 7.3 "$arch" &&
      cp "$T/vmlinux" "$tmp/vmlinux" && cp "$T/$img" "$tmp/image") 9>"$D/.relink-7.3.lock" 2>"$tmp/err"; then
	bad "kbuild relink with RESOLVE_BTFIDS=btfids: $(tail -1 "$tmp/err")"
	finish
fi
ok "kbuild relinked the $arch 7.3 tree with RESOLVE_BTFIDS=btfids"

# the table from its bytes, by readers not btfids'
objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/btf"
objcopy -O binary --only-section=.BTF_tramp "$tmp/vmlinux" "$tmp/table"
if ! chk=$(python3 "$top/tests/tramp2_check.py" --elf "$tmp/vmlinux" "$tmp/table" "$tmp/btf" 2>&1); then
	bad "the table from its bytes (tests/tramp2_check.py): $(echo "$chk" | head -3 | tr '\n' ' ')"
	finish
fi
ok "the table from its bytes (tests/tramp2_check.py): $chk"
# ok: N functions (A attachable), C classes, V verdicts, S bytes: ...
read -r nf nc nv size <<<"$(echo "$chk" | sed -nE 's/^ok: ([0-9]+) functions \([0-9]+ attachable\), ([0-9]+) classes, ([0-9]+) verdicts, ([0-9]+) bytes.*/\1 \2 \3 \4/p')"
[ -n "$nf" ] && [ -n "$size" ] || { bad "tests/tramp2_check.py's line did not parse: $chk"; finish; }
crc=$(python3 -c 'import sys, zlib; print("%08x" % zlib.crc32(open(sys.argv[1], "rb").read()))' "$tmp/btf")
btf_size=$(stat -c %s "$tmp/btf")

# the guest: a static /init for the target, the initramfs by the tree's gen_init_cpio
if ! "$CC_T" -static -O2 -Wall -Wextra -Werror -o "$tmp/init" "$top/tests/boot/cross_init.c" 2>"$tmp/err"; then
	bad "the guest's /init with $CC_T: $(head -3 "$tmp/err" | tr '\n' ' ')"
	finish
fi
gic=$tmp/gen_init_cpio
${CC:-gcc} -O2 -o "$gic" "$T/usr/gen_init_cpio.c" 2>"$tmp/err" ||
	{ bad "the tree's usr/gen_init_cpio.c: $(head -1 "$tmp/err")"; finish; }
printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" "dir /proc 0755 0 0" \
	"dir /sys 0755 0 0" "file /init $tmp/init 0755 0 0" >"$tmp/cpio.list"
"$gic" "$tmp/cpio.list" >"$tmp/initrd" 2>"$tmp/err" || { bad "gen_init_cpio: $(head -1 "$tmp/err")"; finish; }

start=$SECONDS
timeout -k 10 "$TIMEOUT" "$QEMU" "${machine[@]}" -accel tcg -nodefaults -display none -no-reboot \
	-m 1024 -smp 2 -kernel "$tmp/image" -initrd "$tmp/initrd" -serial "file:$tmp/log.raw" \
	-append "console=$console panic=-1 loglevel=4" </dev/null >"$tmp/qemu" 2>&1
[ $? != 124 ] || echo "  boot: qemu killed after $TIMEOUT s waiting for the guest to finish and reboot ($(emu_said))"
tr -d '\r' <"$tmp/log.raw" >"$tmp/log"
echo "  boot: $QEMU (TCG) ran $((SECONDS - start))s"
[ -z "${BTFIDS_BOOT_LOG:-}" ] || cp "$tmp/log" "$BTFIDS_BOOT_LOG"
grep -E '^boot: ' "$tmp/log"
rel=$(sed -nE 's/^boot: (\S+) init started$/\1/p' "$tmp/log" | head -1)
if [ -z "$rel" ]; then
	bad "the $arch kernel did not start /init; qemu: $(tail -2 "$tmp/qemu" | tr '\n' ' '); serial log ends: $(tail -c 400 "$tmp/log" | tr '\n' ' ')"
	finish
fi
expect() {	# WHAT PATTERN WANT: the guest's first line like PATTERN matches WANT
	local got

	got=$(grep -m1 -E "^boot: $rel $2" "$tmp/log")
	if echo "$got" | grep -qE "$3"; then
		ok "$arch: $1: ${got#"boot: $rel "}"
	else
		bad "$arch: $1: ${got:-no line like '$2'} (want /$3/)"
	fi
}
expect "the kernel took the table at boot, with the counts, size and crc32 of its bytes" \
	'klog: btf_tramp: (table|no table)' \
	"btf_tramp: table valid: $nf functions, $nc classes, $nv verdicts \\($size bytes; \\.BTF crc32 $crc; [0-9]+ us\\)"
expect "the kernel's self-test: every function and class of the table agrees with its own BTF walk and the $arch trampoline" \
	'klog: btf_tramp: [0-9]+ functions, [0-9]+ classes: ' \
	"btf_tramp: $nf functions, $nc classes: $nf agree, 0 differ \\([0-9]+ ms\\)$"
grep -E "^boot: $rel klog: btf_tramp: differ" "$tmp/log" | head -5
# the table's magic and version from the section's bytes, in the target's
# byte order (.BTF's magic says which); the guest reads the export as
# little-endian, as the kernel exports it whatever its byte order
magic=$(python3 -c 'import struct, sys; b = open(sys.argv[1], "rb").read(6); e = "<" if open(sys.argv[2], "rb").read(2) == b"\x9f\xeb" else ">"; m, = struct.unpack(e + "I", b[:4]); v, = struct.unpack(e + "H", b[4:6]); print("0x%08x, version %d" % (m, v))' "$tmp/table" "$tmp/btf")
expect "the kernel exports the table it took, little-endian" \
	'export: ' "export: /sys/kernel/btf_tramp/vmlinux: $size bytes, magic $magic$"
expect "beside its BTF" 'btf: ' "btf: $btf_size bytes$"
finish
