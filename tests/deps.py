#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""deps.py ARCHIVE|OBJECT... -- HEADER_DIR... - no circle among btfids' files.

Two graphs, each must be acyclic:
  calls:    file A -> file B when A's object leaves undefined a symbol that
            B's object defines (nm: U against T/D/B/R), over the objects
            of btfids/ (main.o and the members of libbtfids.a);
  includes: header A -> header B when A has #include "btfids/B" or "B"
            (include/btfids/*.h, btfids/*.h).
Prints the graphs' sizes, each cycle found (its files in order), and
"deps: N passed, N failed" (one check per graph, and one that the call
graph is not empty: models.c calls into the table files)."""
import os
import re
import subprocess
import sys


def nm_graph(paths):
    defs, undefs = {}, {}
    for p in paths:
        out = subprocess.run(['nm', p], capture_output=True, text=True, check=True).stdout
        cur = os.path.basename(p)
        for line in out.splitlines():
            m = re.match(r'^(.*\.o):$', line)
            if m:
                cur = m.group(1)
                continue
            parts = line.split()
            if len(parts) == 2 and parts[0] == 'U':
                undefs.setdefault(cur, set()).add(parts[1])
            elif len(parts) == 3 and parts[1] in 'TDBRCV':
                defs[parts[2]] = cur
                undefs.setdefault(cur, set())
    g = {f: set() for f in undefs}
    for f, syms in undefs.items():
        for s in syms:
            if s in defs and defs[s] != f:
                g[f].add(defs[s])
    return {k[:-2] + '.c': {v[:-2] + '.c' for v in vs} for k, vs in g.items()}


def include_graph(dirs):
    g = {}
    for d in dirs:
        for n in sorted(os.listdir(d)):
            if not n.endswith('.h'):
                continue
            with open(os.path.join(d, n)) as f:
                inc = re.findall(r'^#include "(?:btfids/)?([^"]+\.h)"', f.read(), re.M)
            g[n] = set(inc) - {n}
    return g


def cycles(g):
    """Each cycle once, found by depth-first search (white/grey/black)."""
    state, found, stack = {}, [], []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(g.get(u, ())):
            if state.get(v) == 1:
                found.append(stack[stack.index(v):] + [v])
            elif not state.get(v):
                visit(v)
        stack.pop()
        state[u] = 2

    for u in sorted(g):
        if not state.get(u):
            visit(u)
    return found


def main():
    if '--' not in sys.argv:
        sys.exit(__doc__)
    k = sys.argv.index('--')
    calls, incs = nm_graph(sys.argv[1:k]), include_graph(sys.argv[k + 1:])
    passed = failed = 0
    for name, g in (('calls', calls), ('includes', incs)):
        cs = cycles(g)
        edges = sum(len(v) for v in g.values())
        print('deps: %s: %d files, %d edges, %d cycle(s)' % (name, len(g), edges, len(cs)))
        for c in cs:
            print('  FAIL: %s circle: %s' % (name, ' -> '.join(c)))
        passed, failed = (passed + 1, failed) if not cs else (passed, failed + 1)
    if {'tramp.c', 'tramp2.c'} <= calls.get('models.c', set()):
        passed += 1
    else:
        failed += 1
        print('  FAIL: calls: models.c -> tramp.c, tramp2.c not seen (nm read nothing?)')
    print('deps: %d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


main()
