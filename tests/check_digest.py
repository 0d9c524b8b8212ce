#!/usr/bin/env python3
"""check_digest.py FILE - parse the JSON Lines of `btfids check|dump
--format=json` with the json module and print them flat, for
tests/check_check.c to compare with what it expects:

  check:  FILE <count>=<n> ... total=<n>        one per input file
          SOURCE <tree|->                      the kernel tree searched
          F <type> <kind> <name> sets=a,b sugg=kind:name,... ids=1,2
            [stored=..] [flags=..] [times=n]   one per finding
          P <type> <kind> <name> <file>:<line> <file>:<line>,...
                                               its place and every location
                                               (- for null); then
          W <why>                              per location not placed
  dump:   G <kind> <name> [count=n] [flags=n]  one per list or set
          E <kind|-> <name|-> id=n [flags=n]   one per entry
  error:  ERROR <file> <message>

Exits non-zero (with the reason) if a line is not JSON or a member the
schema of btfids-check(1) or btfids-dump(1) promises is missing.
"""
import json
import sys

FINDING_KEYS = ('type', 'severity', 'kind', 'name', 'sets', 'suggestions', 'ids',
                'message', 'hint', 'file', 'line', 'locations')
COUNT_KEYS = ('unresolved', 'stale', 'ambiguous', 'inconsistent-flags',
              'duplicate-in-set', 'total')


def nums(v):
    return ','.join(str(x) for x in v)


def finding(f):
    for k in FINDING_KEYS:
        assert k in f, 'finding without ' + k
    assert f['severity'] in ('error', 'warning')
    assert f['suggestions'] == [s['name'] for s in f['suggestion_details']]
    sugg = ','.join(s['kind'] + ':' + s['name'] for s in f['suggestion_details'])
    line = 'F %s %s %s sets=%s sugg=%s ids=%s' % (
        f['type'], f['kind'], f['name'], ','.join(f['sets']), sugg, nums(f['ids']))
    if 'stored' in f:
        line += ' stored=' + nums(f['stored'])
    if 'flags' in f:
        line += ' flags=' + nums(f['flags'])
    if 'times' in f:
        line += ' times=%d' % f['times']
    print(line)
    print('P %s %s %s %s %s' % (f['type'], f['kind'], f['name'], at(f),
                                ','.join(at(x) for x in f['locations'])))
    for x in f['locations']:
        if 'why' in x:
            print('W ' + x['why'])


def at(o):
    return '%s:%s' % (o['file'] or '-', o['line'] or '-')


def check(o):
    print('FILE ' + ' '.join('%s=%d' % (k, o['counts'][k]) for k in COUNT_KEYS))
    print('SOURCE %s' % (o['source'] or '-'))
    for f in o['findings']:
        finding(f)


def dump(o):
    for g in o['groups']:
        line = 'G %s %s' % (g['kind'], g['name'])
        if 'count' in g:
            line += ' count=%d' % g['count']
        if 'flags' in g:
            line += ' flags=%d' % g['flags']
        print(line)
        for e in g['entries']:
            line = 'E %s %s id=%d' % (e['kind'] or '-', e['name'] or '-', e['id'])
            if 'flags' in e:
                line += ' flags=%d' % e['flags']
            print(line)


def main():
    with open(sys.argv[1]) as f:
        for line in f:
            o = json.loads(line)
            assert isinstance(o, dict) and 'file' in o, 'not a file object'
            if 'error' in o:
                print('ERROR %s %s' % (o['file'], o['error']))
            elif 'groups' in o:
                dump(o)
            else:
                check(o)


if __name__ == '__main__':
    main()
