#!/usr/bin/env bash
# models61.sh - `btfids models --all` on Debian 12's own 6.1 kernels (amd64
# and arm64 cloud builds, tests/fetch-6.1) against tests/models61_ref.py, the
# 6.1 rules written from the 6.1 tree: every field of every FUNC must agree.
# The release comes from the ELF (its linux_banner), no --kernel. Then the
# same kernels with --kernel 6.12 must disagree (the comparison can fail),
# and the counts of what 6.1 refuses are printed.
# Ends with "models61: N passed, N failed" or "models61: skipped (<why>)".
set -uo pipefail

. "$(dirname "$0")/paths.sh"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok: $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $*"; }

[ -x "$B" ] || { echo "models61: skipped (no btfids at $B: run make)"; exit 0; }
[ -f "$R/btf.py" ] || { echo "models61: skipped (no $R/btf.py; set BTFIDS_REALDATA)"; exit 0; }
have=0
tmp=$(mktemp -d /tmp/btfids-models61.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for a in amd64 arm64; do
	v=$K/$a-6.1/vmlinux
	if [ ! -f "$v" ]; then
		echo "models61: $a-6.1 skipped (not fetched: tests/fetch-6.1 as root)"
		continue
	fi
	have=$((have + 1))
	rel=$(strings -n 12 "$v" | grep -m1 '^Linux version ' | cut -d' ' -f3)
	if ! "$B" models --all "$v" >"$tmp/$a.jsonl" 2>"$tmp/err"; then
		bad "$a-6.1: btfids models --all: $(tail -1 "$tmp/err")"
		continue
	fi
	if out=$(BTFIDS_REALDATA=$R python3 "$top/tests/models61_ref.py" "$v" "$tmp/$a.jsonl"); then
		ok "$a-6.1 ($rel): ${out#models61: }"
	else
		bad "$a-6.1 ($rel): $out"
	fi
	"$B" models --all --kernel 6.12 "$v" >"$tmp/$a-612.jsonl" 2>/dev/null
	if out=$(BTFIDS_REALDATA=$R python3 "$top/tests/models61_ref.py" "$v" "$tmp/$a-612.jsonl"); then
		bad "$a-6.1: the 6.12 rules agree with 6.1's too: the comparison proves nothing"
	else
		ok "$a-6.1: by the 6.12 rules, $(echo "$out" | head -1 | sed -E 's/.* ([0-9]+) differ/\1 functions differ/')"
	fi
	python3 - "$tmp/$a.jsonl" "$a" <<'PY'
import collections, json, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    m = json.loads(line)
    c['functions'] += 1
    c[m.get('reason', 'attachable')] += 1
    c['signed flags'] += any(f & 2 for f in m.get('arg_flags', [])) or m.get('ret_flags', 0) != 0
print('  %s-6.1: ' % sys.argv[2] + ', '.join('%s %d' % kv for kv in sorted(c.items())))
PY
done
[ $have -gt 0 ] || { echo "models61: skipped (no 6.1 kernel fetched: tests/fetch-6.1 as root)"; exit 0; }
echo "models61: $passed passed, $failed failed"
[ $failed = 0 ]
