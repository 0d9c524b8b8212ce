#!/usr/bin/env bash
# models61.sh - `btfids models --all` on Debian 12's own 6.1 kernels (amd64
# and arm64 cloud builds, tests/fetch-6.1) against tests/models61_ref.py, the
# 6.1 rules written from the 6.1 tree: every field of every FUNC must agree.
# The release comes from the ELF (its linux_banner), no --kernel. Then the
# same kernels with --kernel 6.12 must disagree (the comparison can fail),
# and the counts of what 6.1 refuses are printed. Then the arm64 verdicts
# of Debian's arm64 6.1 and newest 7.x kernels (below).
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
# arm64's verdicts on Debian's own arm64 kernels (6.1: no ftrace direct
# calls; 7.x: DYNAMIC_FTRACE_WITH_CALL_OPS, RELOCATABLE, RELR): the attach
# step of every function against tests/arm64_sites_ref.py, which works it
# out from the build's own config instead of the image's layout; then the
# share of functions with a call site (at least 70%), and vfs_read's verdict
for a in arm64-6.1 arm64-7; do
	v=$K/$a/vmlinux c=$K/$a/config
	if [ ! -f "$v" ] || [ ! -f "$c" ]; then
		echo "models61: $a verdicts skipped (not fetched, or no config: tests/fetch-6.1 as root)"
		continue
	fi
	have=$((have + 1))
	rel=$(strings -n 12 "$v" | grep -m1 '^Linux version ' | cut -d' ' -f3)
	if ! "$B" models --all --verdicts "$v" >"$tmp/$a-v.jsonl" 2>"$tmp/err"; then
		bad "$a ($rel): btfids models --all --verdicts: $(tail -1 "$tmp/err")"
		continue
	fi
	if out=$(BTFIDS_REALDATA=$R python3 "$top/tests/arm64_sites_ref.py" "$v" "$c" "$tmp/$a-v.jsonl"); then
		ok "$a ($rel): $out"
	else
		bad "$a ($rel): $out"
	fi
	direct=no
	grep -q '^CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y' "$c" && direct=yes
	if out=$(python3 - "$tmp/$a-v.jsonl" "$direct" <<'PY'
import json, sys
direct = sys.argv[2] == 'yes'
n = site = taken = 0
vfs = None
for line in open(sys.argv[1]):
    m = json.loads(line)
    v = m.get('verdicts', {}).get('fentry')
    if not v:
        print('%s: no fentry verdict' % m['name'])
        sys.exit(1)
    n += 1
    r = 'taken' if v['taken'] else v['reason']
    taken += r == 'taken'
    site += r in ('taken', 'no-direct-call')
    if m['name'] == 'vfs_read':
        vfs = r
want = 'taken' if direct else 'no-direct-call'
print('fentry: %d of %d functions judged have a call site (%.1f%%), %d taken; vfs_read %s'
      % (site, n, 100.0 * site / n, taken, vfs))
sys.exit(0 if n and site * 10 >= n * 7 and vfs == want and taken == (site if direct else 0) else 1)
PY
	); then
		ok "$a ($rel): $out$([ $direct = yes ] || echo " (no ftrace direct calls in its config: ENOTSUPP, no-direct-call)")"
	else
		bad "$a ($rel): $out (want at least 70% with a site, vfs_read $([ $direct = yes ] && echo taken || echo no-direct-call))"
	fi
done
[ $have -gt 0 ] || { echo "models61: skipped (no 6.1 kernel fetched: tests/fetch-6.1 as root)"; exit 0; }
echo "models61: $passed passed, $failed failed"
[ $failed = 0 ]
