#!/usr/bin/env python3
"""test_lists.py SRC IKSHADE CC "COMMANDS": the lists kept outside the tables they copy, held to them.

Where a list cannot be made from its table (prose, an example meant to be read alone, a build system's
list of files to expect), this test fails as soon as the two differ:
- CMake's IKS_COMMANDS (the man pages made and installed, read from src/cli/main.c's table rows when
  CMake configures) against the commands `ikshade --help` prints from the table itself.
- docs/rendering.md's list of the uniforms every pass gets against src/glsl/uniforms.h's
  IKS_UNIFORMS_COMMON and `ikshade help uniforms`, in order (`iChannel0..3` stands for the four).
- examples/render_frame.py's ctypes mirrors of the public structs (written by hand, as a reader of the
  example would) against the C compiler's layout of <ikshade/ikshade.h>: a C program made from the
  mirrors' field names prints each field's offset and size and each struct's size. A member added to
  the header moves the size (or a later offset), one renamed stops the program compiling.
The Python package's own layouts are generated (python/gen_layout.c), not kept.
Each failure is printed; the exit status is 1 when any failed.
"""
import ast
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import types

src, ikshade, cc, commands = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=False).stdout


# ---- the commands -----------------------------------------------------------------------------------
helped = run(ikshade, "--help")
section = helped.split("commands:\n", 1)[1].split("\n\n", 1)[0] if "commands:\n" in helped else ""
listed = re.findall(r"^  ([a-z][a-z0-9-]*) ", section, re.M)
check(len(listed) >= 8 and listed == commands,
      "CMake's IKS_COMMANDS (read from main.c's rows: the man pages made) are the commands ikshade --help lists:\n"
      "  CMake: %s\n  help:  %s" % (" ".join(commands), " ".join(listed)))

# ---- the uniforms in docs/rendering.md --------------------------------------------------------------
ulist = open(os.path.join(src, "src/glsl/uniforms.h")).read()
defined = dict(re.findall(r'#define (IKS_U_NAME_\w+) "(\w+)"', ulist))
common = ulist.split("#define IKS_UNIFORMS_COMMON(X)", 1)[1].split("\n\n", 1)[0]
header = [defined.get(m, "?" + m) for m in re.findall(r"X\(\w+, (IKS_U_NAME_\w+),", common)]
shown = run(ikshade, "help", "uniforms")
every = shown.split("In every pass:\n", 1)[1].split("\n\n", 1)[0] if "In every pass:\n" in shown else ""
helped_u = re.findall(r"^  \S+ +(\w+) ", every, re.M)
check(len(header) >= 14 and helped_u == header,
      "ikshade help uniforms' every-pass list is uniforms.h's IKS_UNIFORMS_COMMON:\n  help:   %s\n  header: %s"
      % (" ".join(helped_u), " ".join(header)))
doc = open(os.path.join(src, "docs/rendering.md")).read()
m = re.search(r"the uniforms \(((?:`\w+(?:\.\.\d+)?`,?\s*)+)\)", doc)
check(m is not None, "docs/rendering.md has its list of the uniforms: the uniforms (`iResolution`, ...)")
if m:
    doc_names = []
    for name in re.findall(r"`(\w+(?:\.\.\d+)?)`", m.group(1)):
        r = re.match(r"(\w*?)(\d+)\.\.(\d+)$", name)
        doc_names += ["%s%d" % (r.group(1), i) for i in range(int(r.group(2)), int(r.group(3)) + 1)] if r else [name]
    check(doc_names == header, "docs/rendering.md's uniforms are uniforms.h's every-pass list, in order:\n"
          "  doc:    %s\n  header: %s" % (" ".join(doc_names), " ".join(header)))

# ---- examples/render_frame.py's ctypes structs --------------------------------------------------------
example = os.path.join(src, "examples/render_frame.py")
text = open(example).read()
# which class mirrors which struct: the comment on its line, `class ToyDesc(Desc):  # iks_toy_desc`
mirrors = re.findall(r"^class (\w+)\([\w.]+\):\s*# (iks_\w+)", text, re.M)
check(len(mirrors) >= 4, "render_frame.py names the struct each ctypes class mirrors (%d)" % len(mirrors))
# the example needs numpy to run, not to be read: a stand-in lets its classes load without it
sys.modules.setdefault("numpy", types.ModuleType("numpy"))
mod = types.ModuleType("render_frame")
mod.__file__ = example
exec(compile(ast.parse(text), example, "exec"), mod.__dict__)
want, prog = [], ['#include "ikshade/ikshade.h"', "#include <stddef.h>", "#include <stdio.h>", "int main(void) {"]
for cls, struct in mirrors:
    c = getattr(mod, cls)
    want.append("%s %d" % (struct, ctypes.sizeof(c)))
    prog.append('    printf("%s %%zu\\n", sizeof(%s));' % (struct, struct))
    for f in c._fields_:
        d = getattr(c, f[0])
        want.append("%s.%s %d %d" % (struct, f[0], d.offset, d.size))
        prog.append('    printf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                    % (struct, f[0], struct, f[0], struct, f[0]))
prog += ["    return 0;", "}", ""]
with tempfile.TemporaryDirectory() as tmp:
    cfile, exe = os.path.join(tmp, "layout.c"), os.path.join(tmp, "layout")
    open(cfile, "w").write("\n".join(prog))
    built = subprocess.run([cc, "-std=c11", "-I" + os.path.join(src, "include"), cfile, "-o", exe],
                           capture_output=True, text=True)
    check(built.returncode == 0, "render_frame.py's fields are the header's (a C program of them compiles):\n"
          + built.stderr)
    got = run(exe).split("\n")[:-1] if built.returncode == 0 else []
if got:
    diff = [(w, g) for w, g in zip(want, got) if w != g]
    check(len(got) == len(want) and not diff, "render_frame.py's ctypes layout is the C compiler's (name offset "
          "size; struct size): first differences, Python against C:\n" +
          "\n".join("  %-40s %s" % d for d in diff[:8]))

finish()
