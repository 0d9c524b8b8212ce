#!/usr/bin/env bash
# boot-tramp.sh - the kernel reads the tables: relink the patched 7.3 tree
# (kernel/7.3, built by kernel/build-tree) with RESOLVE_BTFIDS=btfids, check
# its .BTF_tramp from the bytes (header, crc32 of .BTF by Python's zlib),
# and boot it under qemu-system-x86_64 three times:
#   1. as built: the guest (tests/boot/tramp.c) echoes the kernel's
#      "btf_tramp:" lines (the tables valid; the self-test: 0 differ),
#      attaches tracing_multi to each table entry alone with the tables on
#      and off (it must attach exactly where the table says attachable,
#      with the same errno elsewhere), runs one link over every attachable
#      entry (the program must run), and times attach/detach of that link
#      and the per-function checks alone, on against off;
#   2. with one attachable entry altered to "not attachable" (the table
#      still valid): refused with the tables on, attached with them off:
#      the kernel reads the table;
#   3. with the table's crc32 altered and btf_tramp=0 on the command line:
#      the kernel must refuse the table in one line, and the switch must
#      read N.
# Each altered vmlinux is made into a bzImage by the tree's make.
# Ends with "boot-tramp: N passed, N failed" or "boot-tramp: skipped (<why>)".
#
#   BTFIDS_KBUILD_PATCHED  the patched tree's folder (kernel/build-tree)
#   BTFIDS_BOOT_TIMEOUT    seconds for each qemu run (default 900)
#   BTFIDS_BOOT_LOG        keep the first boot's serial log in this file
#   QEMU                   default qemu-system-x86_64 (TCG, one CPU, as tests/boot.sh)
set -uo pipefail

. "$(dirname "$0")/paths.sh"
NAME=boot-tramp
. "$top/tests/bootlib.sh"
TIMEOUT=${BTFIDS_BOOT_TIMEOUT:-900}

boot_require
[ -f /usr/lib/x86_64-linux-gnu/libbpf.a ] || skip "no static libbpf.a: apt-get install libbpf-dev"
[ -x "$R/kbuild-tiny" ] ||
	skip "no $R/kbuild-tiny: the workspace's shared/realdata, not in this repository; set BTFIDS_REALDATA"
want=$(cat $(ls "$top"/kernel/7.3/0*.patch | grep -v 0000-cover-letter) | sha256sum | cut -d' ' -f1)
[ "$(cat "$T/.btfids-series" 2>/dev/null)" = "$want" ] ||
	skip "the patched tree in $DP is not built from kernel/7.3 as it is now: run kernel/build-tree"

tmp=$(mktemp -d /tmp/btfids-boot-tramp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the guest: tramp.c against the tree's 7.3 UAPI, the rest as tests/boot.sh
# shellcheck disable=SC2086 # flags: words
if ! clang $CFLAGS_BPF -c "$S/ids.bpf.c" -o "$tmp/ids.bpf.o" 2>"$tmp/err" ||
   ! ${CC:-gcc} $CFLAGS_GUEST -I"$T/tools/include/uapi" -c "$S/tramp.c" -o "$tmp/tramp.o" 2>>"$tmp/err" ||
   ! ${CC:-gcc} $CFLAGS_GUEST -static -o "$tmp/init" "$S"/init.c "$S"/ids.c "$S"/models.c \
	"$S"/args.c "$tmp/tramp.o" -lbpf -lelf -lz 2>>"$tmp/err"; then
	bad "cannot build the guest program: $(grep -m3 error "$tmp/err")"
	finish
fi

# alter VMLINUX crc | entry INDEX: flip the table's crc32 (a table of another
# .BTF), or mark entry INDEX not attachable (the table stays valid)
alter() {
	python3 - "$@" <<'PY'
import subprocess, sys
v, what = sys.argv[1], sys.argv[2]
out = subprocess.run(['readelf', '-SW', v], capture_output=True, text=True).stdout
for line in out.splitlines():
    f = line.replace('[ ', '[').split()
    if len(f) > 5 and f[1] == '.BTF_tramp':
        off = int(f[4], 16)
        with open(v, 'r+b') as fp:
            if what == 'crc':
                fp.seek(off + 16)		# struct btf_tramp_hdr.btf_crc32
                b = fp.read(4)
                fp.seek(off + 16)
                fp.write(bytes(x ^ 0xff for x in b))
            else:				# struct btf_tramp_entry.attachable
                fp.seek(off + 24 + 60 * int(sys.argv[3]) + 32)
                fp.write(b'\0')
        sys.exit(0)
sys.exit('no .BTF_tramp in ' + v)
PY
}
# relink with RESOLVE_BTFIDS=btfids; read the table back (btfids models);
# then the two altered images, each vmlinux made into a bzImage by the
# tree's make; the tree gets its own vmlinux and bzImage back in any case
if ! (flock -w 1800 9 || exit 1
      BTFIDS_KBUILD=$DP BTFIDS_KBUILD_KERNEL=7.3 "$R/kbuild-tiny" "$B" >/dev/null || exit 1
      cp "$T/vmlinux" "$tmp/vmlinux" && cp "$T/arch/x86/boot/bzImage" "$tmp/bzImage" || exit 1
      trap 'cp "$tmp/vmlinux" "$T/vmlinux"; cp "$tmp/bzImage" "$T/arch/x86/boot/bzImage"' EXIT
      "$B" models "$tmp/vmlinux" >"$tmp/stored.jsonl" || exit 1
      # the probe: the first attachable entry, by its index in the table
      grep -n '"attachable":true' "$tmp/stored.jsonl" | head -1 |
	      sed -E 's/^([0-9]+):\{"name":"([^"]+)","id":([0-9]+).*/\1 \3 \2/' >"$tmp/probe.idx"
      read -r pidx pid pname <"$tmp/probe.idx" && [ -n "$pname" ] || exit 1
      echo "$pid $pname" >"$tmp/probe.txt"
      for img in "entry $((pidx - 1))" crc; do
	      # shellcheck disable=SC2086 # img: words
	      cp "$tmp/vmlinux" "$T/vmlinux" && alter "$T/vmlinux" $img &&
	      make -s -C "$T" ARCH=x86_64 RESOLVE_BTFIDS="$B" bzImage >/dev/null &&
	      cp "$T/arch/x86/boot/bzImage" "$tmp/bzImage.${img% *}" || exit 1
      done
     ) 9>"$DP/.relink-7.3.lock" 2>"$tmp/err"; then
	bad "relink with RESOLVE_BTFIDS=btfids, or the altered images: $(tail -1 "$tmp/err")"
	finish
fi
ok "kbuild relinked the patched 7.3 tree with RESOLVE_BTFIDS=btfids"

# the table from its bytes: header fields, and the crc32 of .BTF by zlib
hdr=$(python3 - "$tmp/vmlinux" <<'PY'
import struct, subprocess, sys, zlib
v = sys.argv[1]
def sec(name):
    subprocess.run(['objcopy', '-O', 'binary', '--only-section=' + name, v, v + name],
                   check=True)
    return open(v + name, 'rb').read()
t, btf = sec('.BTF_tramp'), sec('.BTF')
magic, ver, mach, n, esz, maxs, crc = struct.unpack_from('<IHHIHHI', t, 0)
print(magic == 0x50525442, ver, mach, n, esz, crc == zlib.crc32(btf), len(t))
PY
)
read -r magic ver mach n esz crcok size <<<"$hdr"
if [ "$magic $ver $mach $esz $crcok" = "True 1 62 60 True" ] && [ "${n:-0}" -ge 1000 ]; then
	ok "the table is filled: $n entries, x86-64, crc32 of the image's .BTF ($size bytes of .BTF_tramp)"
else
	bad "the table's header: ${hdr:-unreadable} (want magic, version 1, e_machine 62, 60-byte entries, the .BTF crc32, 1000+ entries)"
fi
# /tramp.txt: the entries as stored, read back by btfids models
if ! python3 - "$tmp/stored.jsonl" >"$tmp/tramp.txt" <<'PY' ||
import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    print(m['id'], m['name'], int(m['attachable']))
PY
   [ "$(wc -l <"$tmp/tramp.txt")" != "$n" ]; then
	bad "btfids models read back $(wc -l <"$tmp/tramp.txt") entries, the header says $n"
	finish
fi
nat=$(awk '$3 == 1' "$tmp/tramp.txt" | wc -l)
nid=$(awk '$1 != 0' "$tmp/tramp.txt" | wc -l)

# initramfs (the tree's gen_init_cpio), one per boot
gic=$(boot_gic "$T") || { bad "no gen_init_cpio in $T"; finish; }
touch "$tmp/empty"
for i in "1 /tramp.txt=$tmp/tramp.txt" "2 /tramp-probe=$tmp/probe.txt" "3 /tramp-klog=$tmp/empty"; do
	boot_cpio "$gic" "/init=$tmp/init" "/ids.bpf.o=$tmp/ids.bpf.o" "${i#* }" >"$tmp/initrd${i%% *}.cpio"
done
boot "$tmp/bzImage" "$tmp/initrd1.cpio" "$tmp/log1" ""
[ -z "${BTFIDS_BOOT_LOG:-}" ] || cp "$tmp/log1" "$BTFIDS_BOOT_LOG"
grep -E '^boot: ' "$tmp/log1" | grep -vE '^boot: (progress|end)'
rel=$(sed -nE 's/^boot: (\S+) init started$/\1/p' "$tmp/log1" | head -1)
if [ -z "$rel" ]; then
	bad "the patched kernel did not start /init; serial log ends: $(tail -c 400 "$tmp/log1" | tr '\n' ' ')"
	finish
fi
L=$tmp/log1
line() { grep -m1 -E "^boot: $rel $1" "$L"; }
# expect WHAT PATTERN WANT: the guest's first line like PATTERN must match WANT
expect() {
	local got
	got=$(line "$2")
	if echo "$got" | grep -qE "$3"; then
		ok "$1: ${got#"boot: $rel "}"
	else
		bad "$1: ${got:-no line like '$2'} (want /$3/)"
	fi
}
expect "the kernel validated the table at boot" 'klog: btf_tramp: [0-9]+ of [0-9]+ table' \
	"btf_tramp: 1 of 1 table\(s\) valid, $n entries"
expect "the kernel's self-test" 'klog: btf_tramp: [0-9]+ entries, [0-9]+ agree' \
	"btf_tramp: $n entries, $n agree, 0 differ$"
grep -E "^boot: $rel klog: btf_tramp: differ" "$L" | head -5
if [ "$(grep -cE "^boot: $rel klog: btf_tramp: [0-9]+ entries, " "$L")" = 1 ]; then
	ok "exactly one self-test line"
else
	bad "the self-test printed $(grep -cE "^boot: $rel klog: btf_tramp: [0-9]+ entries, " "$L") summary lines"
fi
grep -q "^boot: $rel ids ok" "$L" && ok "the .BTF_ids slots: ids ok" || bad "ids not ok"
expect "tracing_multi attaches exactly the $nat entries marked attachable, tables on and off, with the same errno for the others" \
	'tramp attach: ' "tramp attach: $nid tried, $nat attached, 0 wrong, 0 other errno"
expect "the program runs over the whole table, tables off and on" 'tramp run: ' \
	"program ran [1-9][0-9]* times \(tables off\), [1-9][0-9]* \(on\)"
expect "bench" 'tramp bench: ' 'attach median off .* ratio'
expect "bench, the checks alone" 'tramp bench checks' 'checks: .* ratio'

grep -q '^boot: end' "$L" || bad "the first guest did not finish; log ends: $(tail -c 300 "$L" | tr '\n' ' ')"

# the table is what the kernel reads: an entry altered to "not attachable"
boot "$tmp/bzImage.entry" "$tmp/initrd2.cpio" "$tmp/log2" ""
L=$tmp/log2
pname=$(cut -d' ' -f2 "$tmp/probe.txt")
expect "the altered table is still valid" 'klog: btf_tramp: [0-9]+ of [0-9]+ table' \
	"btf_tramp: 1 of 1 table\\(s\\) valid, $n entries"
expect "the kernel reads the table: $pname, altered to not attachable, is refused with the tables on and attaches with them off" \
	'tramp probe: ' "tramp probe: $pname \\(id [0-9]+\\): tables off attached, on Unknown error 524"

# a table of another .BTF, and btf_tramp=0
boot "$tmp/bzImage.crc" "$tmp/initrd3.cpio" "$tmp/log3" "btf_tramp=0"
L=$tmp/log3
rf=$(grep -E "^boot: $rel klog: btf_tramp: table at" "$L")
if [ "$(echo "$rf" | grep -c .)" = 1 ] && echo "$rf" | grep -q "crc32 differs" &&
   grep -qE "^boot: $rel klog: btf_tramp: 0 of 1 table\(s\) valid" "$L"; then
	ok "a table of another .BTF is refused in one line: ${rf#*klog: }"
else
	bad "refusal boot: ${rf:-no refusal line}; $(grep -m1 -E 'klog: btf_tramp: [0-9]+ of' "$L")"
fi
grep -q "^boot: $rel tramp param: N at boot" "$L" && ok "btf_tramp=0 on the command line turns the tables off" ||
	bad "btf_tramp=0: $(line 'tramp param')"
for l in "$tmp/log2" "$tmp/log3"; do
	grep -q '^boot: end' "$l" || bad "guest $(basename "$l") did not finish; log ends: $(tail -c 300 "$l" | tr '\n' ' ')"
done
finish
