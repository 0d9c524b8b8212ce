#!/usr/bin/env bash
# quick experiment: boot the patched tree's current bzImage with share.c as /init
set -euo pipefail
W=/work/wt/share
T=$HOME/.cache/btfids/kbuild-patched/linux-source-7.3
S=$W/tests/boot
tmp=${TMPX:-/tmp/shexp}
mkdir -p $tmp
CF="-O2 -g -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE"
clang -target bpf -O2 -g -Wall -Werror -I/usr/include/x86_64-linux-gnu -c $S/ids.bpf.c -o $tmp/ids.bpf.o
gcc $CF -I$T/tools/include/uapi -c $S/share.c -o $tmp/share.o
gcc $CF -static -o $tmp/init $S/init.c $S/ids.c $S/models.c $S/args.c $tmp/share.o -lbpf -lelf -lz
nm $T/vmlinux | awk "{print \$3}" | sort | uniq -d > $tmp/dupnames; /work/main/btfids/btfids models --all $T/vmlinux | python3 -c '
import json,sys,collections
dup=set(open(sys.argv[1]).read().split())
ms=[json.loads(l) for l in sys.stdin]
c=collections.Counter(m["name"] for m in ms)
for m in ms:
    if m["attachable"] and c[m["name"]]==1 and m["name"] not in dup: print(m["id"], m["name"])' $tmp/dupnames > $tmp/funcs.txt
wc -l < $tmp/funcs.txt
cat > $tmp/cpio.list <<L
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $tmp/init 0755 0 0
file /ids.bpf.o $tmp/ids.bpf.o 0644 0 0
file /funcs.txt $tmp/funcs.txt 0644 0 0
L
$T/usr/gen_init_cpio $tmp/cpio.list > $tmp/initrd.cpio
cp $T/arch/x86/boot/bzImage $tmp/bzImage
timeout -k 10 ${TO:-1200} qemu-system-x86_64 -accel tcg -nodefaults -display none -no-reboot \
	-m 2048 -smp 1 -kernel $tmp/bzImage -initrd $tmp/initrd.cpio -serial file:$tmp/log.raw \
	-append "console=ttyS0 panic=-1 loglevel=5 ${APPEND:-}" </dev/null > $tmp/qemu.out 2>&1 || true
tr -d '\r' < $tmp/log.raw > $tmp/log
grep -E '^boot:|BUG|WARN|Oops|panic|RIP' $tmp/log | head -60
