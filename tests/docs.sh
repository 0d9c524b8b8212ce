#!/usr/bin/env bash
# docs.sh - the documents hold together (issue 40):
#   - every relative link and #anchor of every Markdown file of the
#     checkout (tracked, or new and not ignored) resolves: the file or
#     folder exists, and an anchor names a heading of the target (GitHub's
#     rule: lowercase, punctuation dropped, spaces to '-', a repeated
#     heading gets -1, -2, ...) or an HTML id/name there; links inside code
#     spans and fenced blocks are not links;
#   - README.md has at most 300 lines, and RESOLVE_BTFIDS= (kbuild's use)
#     within its first 40;
#   - each docs/*.md says its purpose in its first line: a level-1 heading
#     "# Title: what the document is for", at least four words after the
#     colon;
#   - every option that `btfids --help` and each verb's --help print (the
#     verbs of btfids/main.c's table) is in that verb's man page's OPTIONS
#     (man/btfids.1.scd for resolve, man/btfids-VERB.1.scd), and every
#     option of resolve (btfids --help, btfids help resolve) is in the
#     README's option table (the table whose first column is "option").
# bash and python3's standard library only. Ends with
# "docs: N passed, N failed" (exit status 1 when one failed).
set -uo pipefail

. "$(dirname "$0")/paths.sh"
cd "$top" || exit 2

exec python3 - "$B" <<'EOF'
import os
import re
import subprocess
import sys

B = sys.argv[1]
passed = failed = 0


def ok(what):
    global passed
    passed += 1
    print('  ok: ' + what)


def bad(what):
    global failed
    failed += 1
    print('  FAIL: ' + what)


def md_files():
    try:
        out = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard', '--', '*.md'],
                             capture_output=True, text=True, check=True).stdout.split('\n')
        files = sorted(f for f in out if f and os.path.isfile(f))
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk('.'):
        dirs[:] = [x for x in dirs if not x.startswith('.') and x not in ('build',)]
        files += [os.path.normpath(os.path.join(d, n)) for n in names if n.endswith('.md')]
    return sorted(files)


FENCE = re.compile(r'^\s{0,3}(```|~~~)')


def prose_lines(text):
    """(line number, line) outside code blocks, with code spans blanked.
    Code: fenced blocks, and indented blocks (4 spaces or a tab after a
    blank line, or after another line of the block)."""
    fence = None
    code = False
    prev_blank = True
    for n, line in enumerate(text.split('\n'), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            prev_blank = False
            continue
        if fence is not None:
            continue
        if line.startswith(('    ', '\t')) and (prev_blank or code):
            code = True
            continue
        if line.strip():
            code = False
        prev_blank = not line.strip()
        yield n, re.sub(r'(`+)(.+?)\1', lambda m: ' ' * len(m.group(0)), line)


def slug(heading):
    t = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)   # links: their text
    t = re.sub(r'<[^>]+>', '', t)                             # inline HTML
    t = t.replace('`', '').replace('*', '')
    t = t.strip().lower()
    t = re.sub(r'[^\w\- ]', '', t)                            # punctuation dropped
    return t.replace(' ', '-')


anchor_cache = {}


def anchors(path):
    if path in anchor_cache:
        return anchor_cache[path]
    text = open(path, encoding='utf-8').read()
    seen, out = {}, set()
    fence = None
    for line in text.split('\n'):
        m = FENCE.match(line)
        if m:
            fence = m.group(1) if fence is None else (None if m.group(1) == fence else fence)
            continue
        if fence is not None:
            continue
        h = re.match(r'^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if h:
            s = slug(h.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            out.add(s if k == 0 else '%s-%d' % (s, k))
        for a in re.findall(r'<[^>]*\b(?:id|name)\s*=\s*"([^"]+)"', line):
            out.add(a)
    anchor_cache[path] = out
    return out


LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s+".*")?\s*$')

# 1. links and anchors
for f in md_files():
    text = open(f, encoding='utf-8').read()
    nlinks = 0
    broken = []
    for n, line in prose_lines(text):
        targets = [m.group(1) for m in LINK.finditer(line)]
        r = REF.match(line)
        if r:
            targets.append(r.group(1))
        for t in targets:
            if re.match(r'^[a-z][a-z0-9+.-]*:', t, re.I):    # http:, https:, mailto:
                continue
            nlinks += 1
            path, _, anchor = t.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if path and not os.path.exists(dest):
                broken.append('%s:%d: %s: no such file' % (f, n, t))
                continue
            if anchor and dest.endswith('.md') and os.path.isfile(dest):
                if anchor not in anchors(dest):
                    broken.append('%s:%d: %s: no heading "#%s" in %s' % (f, n, t, anchor, dest))
    if broken:
        for b in broken:
            bad(b)
    else:
        ok('%s: %d relative links and anchors resolve' % (f, nlinks))

# 2. README: length, kbuild's use near the top
readme = open('README.md', encoding='utf-8').read().split('\n')
if readme and readme[-1] == '':
    readme.pop()
if len(readme) <= 300:
    ok('README.md has %d lines (at most 300)' % len(readme))
else:
    bad('README.md has %d lines, more than 300' % len(readme))
first = [i + 1 for i, l in enumerate(readme[:40]) if 'RESOLVE_BTFIDS=' in l]
if first:
    ok('README.md says RESOLVE_BTFIDS= on line %d (within the first 40)' % first[0])
else:
    bad('README.md: RESOLVE_BTFIDS= not within the first 40 lines')

# 3. docs/*.md: the purpose in the first line
for f in sorted(os.listdir('docs')) if os.path.isdir('docs') else []:
    if not f.endswith('.md'):
        continue
    p = os.path.join('docs', f)
    line = open(p, encoding='utf-8').readline().rstrip('\n')
    m = re.match(r'^# (\S.*?): (.+)$', line)
    if m and len(m.group(2).split()) >= 4:
        ok('%s: first line states its purpose: "%s"' % (p, line))
    else:
        bad('%s: first line "%s" is not "# Title: what the document is for" (4+ words after the colon)'
            % (p, line))

# 4. options: --help against the man pages' OPTIONS and the README's table
WORDS = re.compile(r'(?:^|[^a-zA-Z0-9_.-])(--?[a-zA-Z][a-z_-]*)')


def words(text):
    return set(WORDS.findall(text))


def man_options(path):
    opts, on = set(), False
    for line in open(path, encoding='utf-8'):
        if line.startswith('# '):
            on = line.startswith('# OPTIONS')
            continue
        if on and line.startswith('*-'):
            opts |= words(line.replace('\\', '').replace('*', ' '))
    return opts


def readme_options():
    opts, on = set(), False
    for line in readme:
        cells = [c.strip() for c in line.strip().strip('|').split('|')] if line.startswith('|') else None
        if cells is None:
            on = False
            continue
        if cells[0].lower() == 'option':
            on = True
            continue
        if on:
            opts |= words(cells[0].replace('`', ' '))
    return opts


def help_of(args):
    try:
        r = subprocess.run([B] + args, capture_output=True, text=True, timeout=30)
    except OSError as e:
        return None, str(e)
    return r.stdout + r.stderr, None


if not os.access(B, os.X_OK):
    bad('%s is not built (make): the options cannot be checked' % B)
else:
    main_c = open('btfids/main.c', encoding='utf-8').read()
    verbs = re.findall(r'\{\s*"([a-z]+)",\s*do_\w+', main_c)
    if not verbs:
        bad('btfids/main.c: no verb table found')
    table = readme_options()
    if not table:
        bad('README.md: no option table (a table whose first column is "option")')
    top_help, err = help_of(['--help'])
    for v in verbs:
        man = 'man/btfids.1.scd' if v == 'resolve' else 'man/btfids-%s.1.scd' % v
        text, err = help_of([v, '--help'])
        if text is None:
            bad('%s %s --help: %s' % (B, v, err))
            continue
        opts = words(text)
        if v == 'resolve' and top_help:
            opts |= words(top_help)
        if not os.path.isfile(man):
            bad('%s: no man page %s' % (v, man))
            continue
        missing = sorted(opts - man_options(man))
        if missing:
            bad('%s: --help prints %s, missing from the OPTIONS of %s' % (v, ' '.join(missing), man))
        else:
            ok('%s: the %d options of --help are in the OPTIONS of %s' % (v, len(opts), man))
        if v == 'resolve':
            missing = sorted(opts - table)
            if missing:
                bad('resolve: --help prints %s, missing from the README\'s option table'
                    % ' '.join(missing))
            else:
                ok('resolve: the %d options of btfids --help and btfids help resolve are in the README\'s option table'
                   % len(opts))

print('docs: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
EOF
