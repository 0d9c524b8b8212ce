#!/usr/bin/env python3
# check.py LOG SKIPS CONFIGS [--rounds N] [LABEL...] - judge the test_progs and bench runs of a
# tests/selftests-boot.sh serial log (tests/boot/selftests.c frames them):
# every label (default suite and bench) run in CONFIGS configurations (the
# trig-* ones N times each: rounds), each test_progs run
# with upstream's "Summary:" line at 0 FAILED and exit status 0, each SKIP
# explained by SKIPS ("skip test/subtest why"), the attach benchmark's lines
# reported; each trigger benchmark (label trig-NAME, bench trig-NAME) with
# bench's "Summary: hits" line (not 0 hits) and exit status 0, its rate reported and, per
# configuration, its median over the rounds, their spread, and the median's
# ratio to trig-fentry's (trig-fexit's for fexit ones);
# and no oops or kernel warning. Prints "ok TEXT", "bad TEXT" or "info TEXT" lines.
import re
import sys

log, skips, configs = sys.argv[1], sys.argv[2], int(sys.argv[3])
rounds, labels = 1, sys.argv[4:]
if labels[:1] == ['--rounds']:
    rounds, labels = int(labels[1]), labels[2:]
labels = labels or ['suite', 'bench']
why = {}
for line in open(skips):
    if line.strip() and not line.startswith('#'):
        kind, name, reason = line.split(None, 2)
        if kind == 'skip':
            why[name] = reason.strip()

START = re.compile(r'boot: \S+ selftests (\S+) config (.*)')
END = re.compile(r'boot: \S+ selftests (\S+) exit (.*)')
RESULT = re.compile(r'#\d+(?:/\d+)?\s+(\S+?):(SKIP|FAIL)')
BENCH = re.compile(r'serial_test_tracing_multi_bench_attach: (found \d+ functions|'
                   r'(?:at|de)tached in\s+\S+s)')
LINK = re.compile(r'tracing_multi link over (\d+) function')
HITS = re.compile(r'Summary: hits\s+(\S+) \S+\s*(\S+?)M/s')
# a kernel report short of an oops: WARN(), lockdep's and RCU's reports, a
# hung task (the debug tree's boots show KERN_WARNING: tests/debug-boots.sh)
SPLAT = re.compile(r'(WARNING: .*|INFO: task \S+ blocked .*)')
OOPS = re.compile(r'(Oops|BUG|general protection fault|Kernel panic)\b.*')


rates = {}


def judge_trig(label, conf, status, lines, where):
    m = next((m for m in map(HITS.match, lines) if m), None)
    if status != '0' or not m or not float(m.group(1)):
        print('bad', '%s: %s, bench exit %s' % (where, 'no "Summary: hits" line' if not m
                                               else m.group(0), status))
        return
    rates.setdefault(conf, {}).setdefault(label[5:], []).append(float(m.group(1)))
    n = next((n.group(1) for n in map(LINK.match, lines) if n), None)
    print('ok', '%s: %s +- %s M/s%s' % (where, m.group(1), m.group(2),
                                       ', a link over %s functions' % n if n else ''))


def median(v):
    v = sorted(v)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def trig_ratios():
    for conf, r in rates.items():
        out = []
        for name, hits in r.items():
            base = 'fexit' if name.startswith('fexit') else 'fentry'
            text = '%s %.3f' % (name, median(hits))
            if len(hits) > 1:
                text += ' [%.3f-%.3f]' % (min(hits), max(hits))
            if name not in (base, 'kernel-count') and median(r.get(base, [0])):
                text += ' (%.2f of %s)' % (median(hits) / median(r[base]), base)
            out.append(text)
        print('info', 'trig: %s: M/s (median [spread] of the rounds): %s'
              % (conf, ', '.join(out)))


def judge(label, conf, status, lines):
    where = '%s, %s' % (label, conf)
    if label.startswith('trig-'):
        return judge_trig(label, conf, status, lines, where)
    summary = next((x for x in lines if x.startswith('Summary: ')), None)
    if status == '0' and summary and re.search(r' 0/0 FAILED$', summary):
        print('ok', '%s: %s' % (where, summary))
    else:
        print('bad', '%s: %s, test_progs exit %s' % (where, summary or 'no Summary line', status))
    for x in lines:
        m = RESULT.match(x)
        if m and m.group(2) == 'FAIL':
            print('info', 'failed: %s: %s' % (where, m.group(1)))
        elif m and m.group(1) in why:
            print('ok', '%s: %s skipped: %s' % (where, m.group(1), why[m.group(1)]))
        elif m:
            print('bad', '%s: %s skipped, and tests/selftests/skips does not say why'
                  % (where, m.group(1)))
    bench = [m.group(1) for m in map(BENCH.search, lines) if m]
    if bench:
        print('info', "bench: %s: upstream's serial_test_tracing_multi_bench_attach: %s"
              % (where, ', '.join(re.sub(r'\s+', ' ', b) for b in bench)))


def oops(lines, i, where):
    rip = next((x for x in lines[i:i + 40] if x.startswith('RIP:')), '')
    trace = [x.strip() for x in lines[i:i + 60] if re.match(r'\s+\? \w', x)][:4]
    print('bad', 'the kernel oopsed during %s: %s; %s; %s'
          % (where, lines[i], rip, ' '.join(trace)))


lines = [x.rstrip('\n') for x in open(log, errors='replace')]
runs, cur = {}, None
for i, line in enumerate(lines):
    m = START.match(line)
    if m:
        cur = (m.group(1), m.group(2), [])
        continue
    m = END.match(line)
    if m and cur:
        judge(cur[0], cur[1], m.group(2), cur[2])
        runs[cur[0]] = runs.get(cur[0], 0) + 1
        cur = None
        continue
    if SPLAT.match(line):
        print('bad', 'the kernel warned during %s: %s'
              % ('%s, %s' % (cur[0], cur[1]) if cur else 'no run', line))
    if OOPS.match(line):
        oops(lines, i, '%s, %s' % (cur[0], cur[1]) if cur else 'no test_progs run')
        break
    if cur:
        cur[2].append(line)
if cur:
    print('bad', '%s, %s: did not finish' % (cur[0], cur[1]))
for label in labels:
    n, want = runs.get(label, 0), configs * (rounds if label.startswith('trig-') else 1)
    print('ok' if n == want else 'bad',
          '%s: ran %d times of %d (configurations%s)'
          % (label, n, want, ' x rounds' if want != configs else ''))
trig_ratios()
