#!/usr/bin/env bash
# acceptance.sh - btfids on real Debian kernels, resolved at build time by
# the kernel's own resolve_btfids (../shared/realdata, read its README).
# Each input is cleared with mkunresolved (zeros, then garbage), resolved by
# btfids and compared with cmpids: the bytes must come back exactly. Also:
# nothing outside .BTF_ids changes, a second run changes nothing, batch mode
# equals single runs, and a raw base BTF equals an ELF base.
# Ends with "acceptance: N passed, N failed" or "acceptance: skipped (...)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"

if [ ! -x "$R/cmpids" ] || [ ! -x "$R/mkunresolved" ]; then
	echo "acceptance: skipped (no $R/cmpids: the workspace's shared/realdata, not in this repository; set BTFIDS_REALDATA)"
	exit 0
fi
if [ ! -d "$K/amd64-6.12" ] || [ ! -d "$K/s390x-6.12" ]; then
	echo "acceptance: skipped (Debian kernels not fetched: run $R/fetch-kernels as root, or set BTFIDS_KERNELS)"
	exit 0
fi

tmp=$(mktemp -d /tmp/btfids-acc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

# byte ranges outside .BTF_ids must be identical: compare with cmp -l
outside_same() {
	local a=$1 b=$2 range off size
	[ "$(stat -c %s "$a")" = "$(stat -c %s "$b")" ] || return 1
	range=$(readelf -SW "$a" | sed -nE 's/.*\] \.BTF_ids +[A-Z]+ +[0-9a-f]+ ([0-9a-f]+) ([0-9a-f]+).*/\1 \2/p')
	off=$((16#${range% *})) size=$((16#${range#* }))
	{ cmp -l "$a" "$b" || true; } | awk -v lo="$off" -v hi="$((off + size))" \
		'{ if ($1 - 1 < lo || $1 - 1 >= hi) bad++ } END { exit (bad > 0) }'
}

check_one() {	# NAME EXPECTED [mkunresolved args...] -- [btfids args...]
	local name=$1 exp=$2; shift 2
	local mk=() args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do mk+=("$1"); shift; done
	shift
	args=("$@")
	local t res
	t=$tmp/$(basename "$exp")
	"$R/mkunresolved" "$exp" "$t" "${mk[@]}" >/dev/null || { bad "$name: mkunresolved"; return; }
	cp "$t" "$t.before"
	"$B" "${args[@]}" "$t" 2>"$tmp/err"; local rc=$?
	if [ $rc != 0 ]; then bad "$name: exit $rc: $(head -3 "$tmp/err")"; return; fi
	if ! res=$("$R/cmpids" "$exp" "$t" 2>&1); then bad "$name: $res"; return; fi
	if ! outside_same "$t.before" "$t"; then bad "$name: bytes outside .BTF_ids changed"; return; fi
	cp "$t" "$t.once"
	if ! "$B" "${args[@]}" "$t" 2>/dev/null; then bad "$name: second run failed"; return; fi
	if ! cmp -s "$t" "$t.once"; then bad "$name: second run changed the file"; return; fi
	ok "$name: $(echo "$res" | tail -1)"
	rm -f "$t" "$t.before" "$t.once"
}

V=$K/amd64-6.12/vmlinux
for k in amd64-6.12 s390x-6.12; do
	check_one "$k vmlinux" "$K/$k/vmlinux" --
	for seed in 1 2; do
		check_one "$k vmlinux (garbage $seed)" "$K/$k/vmlinux" --garbage "$seed" --
	done
done

objcopy -O binary --only-section=.BTF "$V" "$tmp/vmlinux.btf"
for m in "$K"/amd64-6.12/modules/*.ko; do
	n=$(basename "$m")
	check_one "module $n" "$m" --base "$V" -- -b "$V"
	check_one "module $n (garbage, raw base BTF)" "$m" --base "$V" --garbage 3 -- -b "$tmp/vmlinux.btf"
done

# batch: all modules in one run, one base BTF, a bad file in the middle:
# every good module resolved, the same messages as single runs, exit 255
mods=() want=""
for m in "$K"/amd64-6.12/modules/*.ko; do
	t=$tmp/batch-$(basename "$m")
	"$R/mkunresolved" "$m" "$t" --base "$V" >/dev/null
	cp "$t" "$t.single"
	"$B" -b "$V" "$t.single" 2>"$tmp/single.err"
	want+=$(cat "$tmp/single.err")
	mods+=("$t")
	if [ ${#mods[@]} = 3 ]; then
		echo "not an ELF" > "$tmp/bad.ko"
		mods+=("$tmp/bad.ko")
		want+="FAILED $tmp/bad.ko: not an ELF file"
	fi
done
"$B" -b "$V" "${mods[@]}" 2>"$tmp/batch.err"; rc=$?
bad_mods=0
for t in "${mods[@]}"; do
	[ "$t" = "$tmp/bad.ko" ] && continue
	"$R/cmpids" "$K/amd64-6.12/modules/${t##*/batch-}" "$t" >/dev/null || bad_mods=$((bad_mods + 1))
done
if [ $rc != 255 ]; then
	bad "batch with a bad file: exit $rc, expected 255"
elif [ $bad_mods != 0 ]; then
	bad "batch: $bad_mods modules differ"
elif [ "$(tr -d '\n' < "$tmp/batch.err")" != "$(echo "$want" | tr -d '\n')" ]; then
	bad "batch: messages differ from single runs"
else
	ok "batch of $((${#mods[@]} - 1)) modules and a bad file: same bytes and messages as single runs, exit 255"
fi

echo "acceptance: $passed passed, $failed failed"
[ $failed = 0 ]
