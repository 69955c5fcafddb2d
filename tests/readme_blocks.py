#!/usr/bin/env python3
"""readme_blocks.py VIEW_FRAMES FILE...: the indented command blocks of the README and the guide's pages
in docs/, as one bash script, in the order given.

A block is a run of lines indented by 4 or more spaces beyond the text around it (Markdown's indented
code), after a blank line or a readme-test marker. A block right after the line
`<!-- readme-test: skip (REASON) -->` (a blank line between them allowed) is left out. Lines ending in
a backslash join the next. Each command is run by the script in one shell, so that `export` and `cd`
carry on as they would for a user typing them, and is followed by a check that prints
`FILE:LINE: exit N: COMMAND` when it fails (and goes on with the next). `ikshade view` commands get
`--frames VIEW_FRAMES` so that the viewer quits by itself. Prints the script on stdout.
"""
import re
import shlex
import sys

view_frames, paths = sys.argv[1], sys.argv[2:]
SKIP = re.compile(r'^\s*<!--\s*readme-test:\s*skip\s*\((.+)\)\s*-->\s*$')


def blocks_of(path):
    """[(first line number, [(line number, command)])] of one Markdown file"""
    lines = open(path).read().split('\n')
    blocks = []
    skip_next, prev_blank, i = None, True, 0
    while i < len(lines):
        line = lines[i]
        m = SKIP.match(line)
        if m:
            skip_next, prev_blank, i = m.group(1), True, i + 1
            continue
        indent = len(line) - len(line.lstrip(' '))
        # the text around: a list item's content is indented by 2, its code by 6
        if prev_blank and line.strip() and indent >= 4 and not line.lstrip().startswith(('-', '*', '|')):
            base = indent
            cmds, j = [], i
            while j < len(lines) and (lines[j].strip() == '' or len(lines[j]) - len(lines[j].lstrip(' ')) >= base):
                if lines[j].strip():
                    start, text = j + 1, lines[j][base:]
                    while text.endswith('\\') and j + 1 < len(lines):
                        j += 1
                        text = text[:-1] + ' ' + lines[j].strip()
                    cmds.append((start, text))
                j += 1
            if skip_next is None:
                blocks.append((i + 1, cmds))
            else:
                print(f'# {path}:{i + 1}: block skipped: {skip_next}')
            skip_next, prev_blank, i = None, True, j
            continue
        if line.strip():
            skip_next = None if not SKIP.match(line) else skip_next
        prev_blank = line.strip() == ''
        i += 1
    return blocks


VIEW = re.compile(r'((?:^|[\s/])ikshade view)(?=\s|$)')
print('set -o pipefail')
print('readme_failed=0')
for path in paths:
    for first, cmds in blocks_of(path):
        print(f'echo "== {path}:{first}: block of {len(cmds)} command(s)"')
        for n, cmd in cmds:
            run = VIEW.sub(lambda m: m.group(1) + ' --frames ' + view_frames, cmd)
            shown = shlex.quote(cmd)
            print(f'echo "\\$ "{shown}')
            print(run)
            print(f'rc=$?; if [ $rc -ne 0 ]; then readme_failed=$((readme_failed + 1)); '
                  f'echo "{path}:{n}: exit $rc: "{shown} >&2; fi')
print('exit $readme_failed')
