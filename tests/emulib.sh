# shellcheck shell=bash
# emulib.sh - sourced by the boot tests (tests/bootlib.sh, tests/boot.sh,
# tests/boot-cross.sh) and tests/run: the emulator's speed on this machine,
# measured once, and every guest timeout and time budget scaled by it, so
# that a slower machine (or one with a busy neighbour) gives a slower run,
# never a red one (docs/testing.md, "The machine's speed").
#
# The measure: the patched 7.3 tree's bzImage (kernel/build-tree; else the
# 6.12 kbuild-tiny tree's) booted under qemu-system-x86_64 exactly as the
# boots run it (TCG, thread=single, 2 vCPUs, 1 GiB), with no initramfs, to
# its "VFS: Unable to mount root fs" panic; panic=-1 and -no-reboot end
# qemu there. Its seconds, the slowest of EMU_LANES such boots at once
# (tests/run runs the boots two at a time, one qemu a lane), over
# EMU_REF_SECS, the same boot on the machine the defaults were set on, is
# the scale: every timeout and budget is its default times
# max(1, scale). A faster machine keeps the defaults.
#
#   BTFIDS_EMU_SCALE  the scale, measured already (tests/run exports it
#                     for every boot); set by hand to force one
#   BTFIDS_EMU_LANES  qemus at once while measuring (default 2, tests/run's lanes)
#   BTFIDS_EMU_IMAGE  the bzImage to measure with (default above)

# the measured boot's seconds where the defaults were set (a 2-core machine
# of this project's kind whose boots' lane took 1,423 s, docs/testing.md)
EMU_REF_SECS=${BTFIDS_EMU_REF_SECS:-3.5}

# emu_image: the bzImage to measure with, or nothing
emu_image() {
	local c=${XDG_CACHE_HOME:-$HOME/.cache}/btfids i

	for i in "${BTFIDS_EMU_IMAGE:-}" \
		 "${BTFIDS_KBUILD_PATCHED:-$c/kbuild-patched}/linux-source-7.3/arch/x86/boot/bzImage" \
		 "${BTFIDS_KBUILD:-$c/kbuild}/linux-source-6.12/arch/x86/boot/bzImage"; do
		[ -n "$i" ] && [ -f "$i" ] && { echo "$i"; return 0; }
	done
	return 1
}

# emu_boot_secs IMAGE: seconds (3 decimals) qemu takes to boot IMAGE to its
# no-root panic; nothing when it did not get there within 300 s
emu_boot_secs() {
	local t0 t1 log

	log=$(mktemp /tmp/btfids-emu.XXXXXX) || return 1
	t0=$(date +%s.%N)
	timeout -k 5 300 "${QEMU_X86:-qemu-system-x86_64}" -accel "${BTFIDS_QEMU_ACCEL:-tcg,thread=single}" \
		-nodefaults -display none -no-reboot -m 1024 -smp "${BTFIDS_QEMU_SMP:-2}" \
		-kernel "$1" -serial "file:$log" -append "console=ttyS0 panic=-1 loglevel=4" \
		</dev/null >/dev/null 2>&1
	t1=$(date +%s.%N)
	grep -q 'Kernel panic' "$log" && awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
	rm -f "$log"
}

# emu_measure: "SECS SCALE" for this machine now (EMU_LANES boots at once,
# the slowest), or nothing when there is no image or qemu to measure with
emu_measure() {
	local img n=${BTFIDS_EMU_LANES:-2} i d s

	img=$(emu_image) || return 1
	command -v "${QEMU_X86:-qemu-system-x86_64}" >/dev/null || return 1
	d=$(mktemp -d /tmp/btfids-emu.XXXXXX) || return 1
	cp "$img" "$d/bzImage"	# the tree is relinked by others meanwhile
	for i in $(seq "$n"); do
		emu_boot_secs "$d/bzImage" >"$d/$i" &
	done
	wait
	s=$(sort -n "$d"/[0-9]* | tail -1)
	[ "$(cat "$d"/[0-9]* | grep -c .)" = "$n" ] || s=
	rm -rf "$d"
	[ -n "$s" ] || return 1
	awk -v s="$s" -v r="$EMU_REF_SECS" 'BEGIN { printf "%s %.2f\n", s, s / r }'
}

# emu_scale: BTFIDS_EMU_SCALE, measured (and exported) when unset; 1 when
# nothing can be measured. EMU_SECS: the measured boot's seconds, or "?"
emu_scale() {
	local m

	if [ -z "${BTFIDS_EMU_SCALE:-}" ]; then
		if m=$(emu_measure); then
			BTFIDS_EMU_SECS=${m% *} BTFIDS_EMU_SCALE=${m#* }
		else
			BTFIDS_EMU_SECS='?' BTFIDS_EMU_SCALE=1
		fi
		export BTFIDS_EMU_SCALE BTFIDS_EMU_SECS
	fi
	echo "$BTFIDS_EMU_SCALE"
}

# emu_secs BASE: BASE seconds scaled for this machine (never below BASE), whole
emu_secs() {
	awk -v b="$1" -v s="$(emu_scale)" 'BEGIN { if (s < 1) s = 1; printf "%d\n", b * s + 0.999 }'
}

# emu_said: the speed measured, for a line that reports a timeout
emu_said() {
	emu_scale >/dev/null
	echo "the emulator's speed here: boot to panic ${BTFIDS_EMU_SECS:-?} s against ${EMU_REF_SECS} s where the defaults were set, timeouts and budgets scaled by $(awk -v s="$BTFIDS_EMU_SCALE" 'BEGIN { print (s < 1 ? 1 : s) }')"
}
