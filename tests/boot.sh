#!/usr/bin/env bash
# boot.sh [VERSION] [--all] - proven by a running kernel: relink the kbuild-tiny tree
# of Linux VERSION (default 6.12; 6.1, 7.3 too) with RESOLVE_BTFIDS=btfids, boot its
# bzImage under qemu-system-x86_64 (TCG) with an initramfs whose /init
# (tests/boot/*.c, static) lets the kernel judge btfids' output:
#   ids     BPF programs whose loading depends on the .BTF_ids slots
#           (fentry, kfuncs, bpf_get_current_task_btf, iter/task)
#   models  fentry load + attach on every FUNC the rules treat specially and
#           every BTFIDS_BOOT_SAMPLE-th of the others
#           against `btfids models --all vmlinux`
#   args    argument values in the ctx slots the models give
# --all: every function, for fentry, fexit and fmod_ret alike, with no time
# budget (make check runs 6.12 so: about 6 minutes under TCG; 7.3's every
# function and type is judged from its exported table, tests/boot-tramp.sh)
# Prints the guest's "boot: <release> ..." lines and ends with
# "boot: N passed, N failed" or "boot: skipped (<why>)".
#
#   BTFIDS_KBUILD          the kbuild-tiny cache (default ~/.cache/btfids/kbuild)
#   BTFIDS_BOOT_TIMEOUT    seconds for the whole qemu run (default 540; the
#                          defaults of this and the budget are scaled by the
#                          emulator's speed, tests/emulib.sh)
#   BTFIDS_BOOT_SAMPLE     try every K-th function (default 3; 1: every
#                          function for fentry, within the budget; --all
#                          for all three types and no budget)
#   BTFIDS_BOOT_MIN        fewest functions the models line must have tried (1000)
#   BTFIDS_BOOT_BUDGET     seconds the guest may spend on the models (60;
#                          BTFIDS_CHECK_FULL=1: 400); it tries them in a
#                          fixed random order and stops there
#   BTFIDS_BOOT_MAX        try at most the first N of that order (0: all)
#   BTFIDS_BOOT_BZIMAGE    boot this image instead of the relinked one (and do
#                          not relink; BTFIDS_BOOT_VMLINUX: its vmlinux); for
#                          testing the test, or Debian's own 6.1 kernel
#                          (docs/testing.md, "Proven by a running kernel")
#   BTFIDS_BOOT_APPEND     more kernel command line (for testing the test)
#   BTFIDS_BOOT_LOG        keep the guest's serial log in this file
#   QEMU                   default qemu-system-x86_64
# VERSION-ARCH (7.3-arm64, 7.3-s390): the cross tree of kernel/build-tree
# --arch ARCH, the guest built with the target's cross gcc and static
# libbpf (Debian's libbpf-dev:arm64, multiarch; for s390x a sysroot of
# Debian's -dev packages, BTFIDS_S390X_SYSROOT), its BPF objects for the
# target's byte order, booted under its qemu-system; the models and ids
# lines are also printed as "boot: ARCH VERSION ...".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
. "$top/tests/emulib.sh"
V=${1:-6.12}
case $V in
-*)	echo "boot: usage: tests/boot.sh [VERSION[-ARCH]] [--all]" >&2; exit 2 ;;
esac
arch=x86_64 CC_G=${CC:-gcc} lib=/usr/lib/x86_64-linux-gnu img=arch/x86/boot/bzImage
machine=() console=ttyS0 qpkg=qemu-system-x86
case $V in
*-arm64)
	arch=arm64 V=${V%-arm64} CC_G=aarch64-linux-gnu-gcc lib=/usr/lib/aarch64-linux-gnu
	img=arch/arm64/boot/Image console=ttyAMA0 qpkg=qemu-system-arm
	# shellcheck disable=SC2054 # -M takes its properties comma-separated
	machine=(-M virt,gic-version=3 -cpu max)
	QEMU=${QEMU:-qemu-system-aarch64}
	D=${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-arm64
	T=$D/linux-source-$V-arm64 ;;
*-s390)
	# Debian 12's s390x -dev packages cannot be co-installed here (its
	# mirror's s390x zlib1g lags amd64's): a sysroot of them, unpacked
	arch=s390 V=${V%-s390} CC_G=s390x-linux-gnu-gcc
	lib=${BTFIDS_S390X_SYSROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/btfids/sysroot-s390x}/usr/lib/s390x-linux-gnu
	img=arch/s390/boot/bzImage console=ttysclp0 qpkg=qemu-system-misc
	machine=(-M s390-ccw-virtio -cpu max)
	QEMU=${QEMU:-qemu-system-s390x}
	D=${XDG_CACHE_HOME:-$HOME/.cache}/btfids/kbuild-s390
	T=$D/linux-source-$V-s390 ;;
*)
	D=$(kbuild_dir "$V")
	T=$D/linux-source-$V ;;
esac
QEMU=${QEMU:-qemu-system-x86_64}
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-540}
SAMPLE=${BTFIDS_BOOT_SAMPLE:-3}
MIN=${BTFIDS_BOOT_MIN:-1000}
# make check: 60 s of models (every 3rd function and the special ones,
# in a fixed random order, as many as fit: 1,000 at least); make
# check-full: 400 s
BUDGET=${BTFIDS_BOOT_BUDGET:-60}
[ "${BTFIDS_CHECK_FULL:-}" != 1 ] || BUDGET=${BTFIDS_BOOT_BUDGET:-400}
ALL=0
case ${2:-}/$# in
--all/2)	# every function, all three attach types, no time budget
	ALL=1 SAMPLE=1 BUDGET=0 TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-1500} ;;
/[01])	;;
*)	echo "boot: usage: tests/boot.sh [VERSION[-ARCH]] [--all]" >&2; exit 2 ;;
esac
MAX=${BTFIDS_BOOT_MAX:-0}
S=$top/tests/boot

skip() { echo "boot: skipped ($*)"; exit 0; }
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }
finish() { echo "boot: $passed passed, $failed failed"; [ $failed = 0 ]; exit; }
[ $arch = x86_64 ] || skip() { echo "boot: skipped ($V $arch: $*)"; exit 0; }

[ "$(uname -m)" = x86_64 ] || skip "the guest program is built for x86-64; this host is $(uname -m)"
command -v "$QEMU" >/dev/null || skip "no $QEMU: apt-get install $qpkg"
command -v "$CC_G" >/dev/null || skip "no $CC_G: apt-get install gcc-${CC_G%-gcc}"
command -v timeout >/dev/null || skip "no timeout (coreutils)"
command -v clang >/dev/null || skip "no clang for the BPF programs: apt-get install clang llvm"
command -v python3 >/dev/null || skip "no python3"
if [ $arch = s390 ]; then
	[ -f "$lib/libbpf.a" ] || skip "no $lib/libbpf.a: apt-get download Debian's libbpf-dev, libelf-dev, zlib1g-dev and libzstd-dev for s390x and dpkg -x them into ${lib%/usr/lib/*}"
else
	[ -f $lib/libbpf.a ] || skip "no static $lib/libbpf.a: apt-get install libbpf-dev$([ $arch = x86_64 ] || echo ":$arch")"
fi
[ -x "$B" ] || skip "no btfids at $B: run make"
if [ -z "${BTFIDS_BOOT_BZIMAGE:-}" ]; then
	[ -x "$R/kbuild-tiny" ] ||
		skip "no $R/kbuild-tiny: the workspace's shared/realdata, not in this repository; set BTFIDS_REALDATA"
	if [ $arch != x86_64 ]; then
		[ -f "$T/.config" ] && [ -f "$T/$img" ] ||
			skip "no $arch tree in $D: kernel/build-tree --arch $arch, as root, about 20 minutes"
	fi
	[ -f "$T/.config" ] && [ -f "$T/$img" ] ||
		skip "no $V kernel tree: run BTFIDS_KBUILD_KERNEL=$V $R/kbuild-tiny once as root, about 12 minutes"
	# a trampoline needs the JIT; 6.1's BPF_JIT depends on MODULES (kernel/bpf/Kconfig),
	# which tinyconfig leaves off, so kbuild-tiny's -e BPF_JIT alone does not stay
	grep -q '^CONFIG_BPF_JIT=y' "$T/.config" ||
		skip "the $V tree has no CONFIG_BPF_JIT, so no trampoline to judge with (6.1's BPF_JIT needs MODULES: build the tree with BTFIDS_KBUILD_EXTRA='-e MODULES')"
fi

# the emulator's speed (measured once: tests/run exports it) scales the
# defaults of the timeout and the budget
emu_scale >/dev/null
echo "  emulator: $(emu_said)"
[ -n "${BTFIDS_BOOT_TIMEOUT:-}" ] || TIMEOUT=$(emu_secs "$TIMEOUT")
[ -n "${BTFIDS_BOOT_BUDGET:-}" ] || [ "$BUDGET" = 0 ] || BUDGET=$(emu_secs "$BUDGET")

tmp=$(mktemp -d /tmp/btfids-boot.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the guest: BPF object and a static /init
CFLAGS_GUEST="-O2 -g -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE"
# the BPF programs for the target (its asm headers, bpf_tracing.h's arch);
# its static libelf may need zstd
bpf_arch=x86 libs="-lbpf -lelf -lz" bpf_target=bpf
[ $arch = x86_64 ] || bpf_arch=$arch
[ $arch != s390 ] || bpf_target=bpfeb	# big-endian BPF, as the kernel runs it
[ -f $lib/libzstd.a ] && [ $arch != x86_64 ] && libs+=" -lzstd"
inc=/usr/include/$(basename "$lib")
[ $arch != s390 ] || inc=/usr/s390x-linux-gnu/include	# the cross gcc's own headers
if ! clang -target $bpf_target -O2 -g -Wall -Werror -I"$inc" -D__TARGET_ARCH_$bpf_arch \
	-c "$S/ids.bpf.c" -o "$tmp/ids.bpf.o" 2>"$tmp/err" ||
   ! clang -target $bpf_target -O2 -g -Wall -Werror -I"$inc" -D__TARGET_ARCH_$bpf_arch -DIDS61 \
	-c "$S/ids.bpf.c" -o "$tmp/ids61.bpf.o" 2>>"$tmp/err" ||
   # shellcheck disable=SC2086 # CFLAGS_GUEST, libs: words
   ! $CC_G $CFLAGS_GUEST -static -o "$tmp/init" "$S"/init.c "$S"/ids.c "$S"/models.c \
	"$S"/args.c -L"$lib" $libs 2>>"$tmp/err"; then
	echo "boot: $V FAILED (cannot build the guest program: $(head -3 "$tmp/err"))"
	failed=1; finish
fi

# the kernel: relinked by kbuild with RESOLVE_BTFIDS=btfids
if [ -n "${BTFIDS_BOOT_BZIMAGE:-}" ]; then
	bz=$BTFIDS_BOOT_BZIMAGE vmlinux=${BTFIDS_BOOT_VMLINUX:-$T/vmlinux}
else
	# one relink of the shared tree at a time (tests/kbuild.sh takes the same
	# lock); our copies of vmlinux and bzImage outlive the next relink
	if ! (flock -w "$(emu_secs 900)" 9 || exit 1
	      relink_kbuild "$D" "$V" $([ $arch = x86_64 ] || echo $arch) &&
	      cp "$T/vmlinux" "$tmp/vmlinux" && cp "$T/$img" "$tmp/bzImage"
	     ) 9>"$D/.relink-$V.lock" 2>"$tmp/err"; then
		echo "boot: $V FAILED (relink with RESOLVE_BTFIDS=btfids: $(tail -1 "$tmp/err"))"
		failed=1; finish
	fi
	vmlinux=$tmp/vmlinux bz=$tmp/bzImage
fi

# btfids' models of every FUNC of that vmlinux by the rules of kernel V, as
# lines /init reads
if ! "$B" models --all --verdicts --kernel "$V" "$vmlinux" >"$tmp/models.jsonl" 2>"$tmp/err"; then
	echo "boot: $V FAILED (btfids models --all: $(tail -1 "$tmp/err"))"
	failed=1; finish
fi
# (models.txt: the refused ones, by the model or by the fentry verdict,
# those with an arg over 8 bytes or a struct or union by value, or more
# than 6 slots, and every SAMPLE-th of the rest; args.txt: the functions of
# the args check)
nm "$vmlinux" >"$tmp/nm.txt" 2>/dev/null || : >"$tmp/nm.txt"
python3 - "$tmp" "$SAMPLE" "$MAX" "$ALL" <<'EOF'
import collections, json, random, sys
d, k, every = sys.argv[1], int(sys.argv[2]), sys.argv[4] == "1"
# each text symbol's lowest address, as kallsyms_lookup_name() gives it (nm, not btfids)
addr = {}
for line in open(d + "/nm.txt"):
    f = line.split()
    if len(f) == 3 and f[1] in "tTwW":
        a = int(f[0], 16)
        addr[f[2]] = min(a, addr.get(f[2], a))
lst = lambda a: ",".join(map(str, a)) if a else "-"
picked, args = [], open(d + "/args.txt", "w")
for i, line in enumerate(open(d + "/models.jsonl")):
    m = json.loads(line)
    vs = [m["verdicts"][t] for t in ("fentry", "fexit", "fmod_ret")]
    says = [("taken", "-", "-") if v["taken"] else (v["reason"], v["errno"], v["step"])
            for v in vs]
    text = "%d %s %d %s %d %d %s %s %s" % (m["id"], m["name"], m["attachable"],
        m.get("reason", "-"), m.get("nr_args", -1), m.get("slots", 0),
        lst(m.get("arg_size")), lst(m.get("arg_flags")), " ".join(" ".join(x) for x in says))
    # every function the rules treat specially, and every k-th of the rest
    special = (not m["attachable"] or not vs[0]["taken"] or m.get("slots", 0) > 6 or
               any(f & 1 or sz > 8 for f, sz in zip(m.get("arg_flags", []), m.get("arg_size", []))))
    # fexit and fmod_ret too: where their verdict is not fentry's but for
    # fmod_ret's not-modifiable (nearly every function), each one fmod_ret
    # takes, and every 10th of the rest (with --all, every function)
    more = (says[1] != says[0] or vs[2]["taken"] or every or
            (says[2] != says[0] and says[2][0] != "not-modifiable") or i % (10 * k) == 0)
    if special or i % k == 0 or more:
        picked.append((text, more))
    if m["name"] in ("do_mmap", "vfs_write", "do_filp_open", "do_file_open"):
        args.write(text + " 0 0\n")
# in a fixed random order: what the guest's time budget leaves out is no region of the BTF
random.Random(12).shuffle(picked)
picked = picked[:int(sys.argv[3]) or None]
# two picked functions at one address: one call site, whose links cannot both stay
at = collections.Counter(addr.get(t.split()[1]) for t, _ in picked)
open(d + "/models.txt", "w").writelines("%s %d %d\n" % (t, at[addr.get(t.split()[1])] > 1 and
                                        t.split()[1] in addr, more) for t, more in picked)
EOF

echo "$BUDGET" >"$tmp/budget.txt"

# initramfs: the kernel tree's gen_init_cpio (device node without root); with
# BTFIDS_BOOT_BZIMAGE and no tree of VERSION, any kbuild tree's (the cpio
# format is the same)
gic=$T/usr/gen_init_cpio
if [ ! -x "$gic" ]; then
	src=$T/usr/gen_init_cpio.c
	[ -f "$src" ] || src=$(ls "$D"/linux-source-*/usr/gen_init_cpio.c 2>/dev/null | head -1)
	gic=$tmp/gen_init_cpio
	${CC:-gcc} -O2 -o "$gic" "$src" 2>/dev/null ||
		{ echo "boot: $V FAILED (no usr/gen_init_cpio in $T)"; failed=1; finish; }
fi
cat >"$tmp/cpio.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $tmp/init 0755 0 0
file /ids.bpf.o $tmp/ids.bpf.o 0644 0 0
file /ids61.bpf.o $tmp/ids61.bpf.o 0644 0 0
file /models.txt $tmp/models.txt 0644 0 0
file /args.txt $tmp/args.txt 0644 0 0
file /budget.txt $tmp/budget.txt 0644 0 0
EOF
"$gic" "$tmp/cpio.list" >"$tmp/initrd.cpio" || { echo "boot: $V FAILED (gen_init_cpio)"; failed=1; finish; }

# boot: the guest reboots when done, -no-reboot turns that into qemu's exit
log=$tmp/serial.log
start=$(date +%s)
timeout -k 10 "$TIMEOUT" "$QEMU" "${machine[@]}" -accel "${BTFIDS_QEMU_ACCEL:-tcg,thread=single}" -nodefaults -display none -no-reboot -m 1024 -smp "${BTFIDS_QEMU_SMP:-2}" \
	-kernel "$bz" -initrd "$tmp/initrd.cpio" -serial "file:$log" \
	-append "console=$console panic=-1 loglevel=4 btfids_scale=$BTFIDS_EMU_SCALE ${BTFIDS_BOOT_APPEND:-}" </dev/null >"$tmp/qemu.out" 2>&1
qrc=$?
# what a timeout waited for, how long, and why that long
said="qemu killed after ${TIMEOUT} s waiting for the guest to finish and reboot (${BTFIDS_BOOT_TIMEOUT:+BTFIDS_BOOT_TIMEOUT; }$(emu_said))"
secs=$(( $(date +%s) - start ))
tr -d '\r' <"$log" >"$tmp/log" 2>/dev/null
[ -z "${BTFIDS_BOOT_LOG:-}" ] || cp "$tmp/log" "$BTFIDS_BOOT_LOG"

grep -E '^boot: ' "$tmp/log" | grep -vE '^boot: (progress|end)'
rel=$(sed -nE 's/^boot: (\S+) init started$/\1/p' "$tmp/log" | head -1)
if [ -z "$rel" ]; then
	why="the kernel did not start /init"
	[ $qrc = 124 ] && why="$why: $said"
	[ -s "$tmp/qemu.out" ] && why="$why; qemu: $(head -1 "$tmp/qemu.out")"
	echo "boot: $V FAILED ($why; serial log ends: $(tail -c 300 "$tmp/log" | tr '\n' ' '))"
	failed=1; finish
fi
echo "  boot: $rel qemu ran ${secs}s (TCG)"
# the release as a pattern (Debian's have a '+': 7.2.13+deb14-cloud-arm64)
rre=$(printf '%s' "$rel" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
# a cross kernel's lines, named by its architecture (issue 26's form)
if [ $arch != x86_64 ]; then
	grep -qE "^boot: $rre ids ok" "$tmp/log" && echo "boot: $arch $V ids ok"
	grep -E "^boot: $rre models: ([0-9]+ tried|fexit verdicts|fmod_ret verdicts)" "$tmp/log" |
		sed -E "s/^boot: $rre /boot: $arch $V /"
fi
if grep -qE "^boot: $rre ids ok" "$tmp/log"; then
	ok "$rel: the kernel accepts the programs that depend on the .BTF_ids slots"
else
	bad "$rel: ids not ok"
fi
mline=$(grep -E "^boot: $rre models: [0-9]+ tried" "$tmp/log")
mt=$(echo "$mline" | sed -nE 's/.* ([0-9]+) tried.*/\1/p')
md=$(echo "$mline" | sed -nE 's/.* ([0-9]+) differ.*/\1/p')
mo=$(echo "$mline" | sed -nE 's/.* ([0-9]+) outside the model.*/\1/p')
if [ -n "$mt" ] && [ "$md" = 0 ] && [ "$mo" = 0 ] && [ "$mt" -ge "$MIN" ]; then
	ok "$rel: the kernel agrees with every model and fentry verdict ($mt tried, 0 outside the model)"
else
	bad "$rel: models: ${mline:-no result} (want 0 differ, 0 outside the model, at least $MIN tried)"
fi
for ty in fexit fmod_ret; do
	tl=$(grep -E "^boot: $rre models: $ty verdicts: " "$tmp/log")
	if echo "$tl" | grep -qE " [1-9][0-9]* tried, [0-9]+ agree, 0 differ, 0 outside the model$"; then
		ok "$rel: the kernel agrees with every $ty verdict it was asked (${tl#*verdicts: })"
	else
		bad "$rel: $ty verdicts: ${tl:-no line} (want 0 differ, 0 outside the model)"
		grep -E "^boot: $rre models: $ty: (differ|outside)" "$tmp/log" | head -5
	fi
done
if grep -qE "^boot: $rre args ok" "$tmp/log"; then
	ok "$rel: argument values are in the models' ctx slots"
elif grep -qE "^boot: $rre args skipped" "$tmp/log"; then
	echo "  args: skipped ($(sed -nE "s/^boot: $rre args skipped \((.*)\)$/\1/p" "$tmp/log"))"
else
	bad "$rel: args not ok"
fi
if ! grep -q '^boot: end' "$tmp/log"; then
	why="exit $qrc"
	[ $qrc = 124 ] && why=$said
	bad "$rel: the guest did not finish ($why); serial log ends: $(tail -c 300 "$tmp/log" | tr '\n' ' ')"
fi
finish
