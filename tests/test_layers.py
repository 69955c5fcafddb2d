#!/usr/bin/env python3
"""test_layers.py SRC IKSHADE [BUILD]: the house rules of docs/DESIGN-NOTES.md, read from the sources as they are.

- The library speaks its own words: no string literal under the library's folders names an option of
  the command line (the options come from the program itself: `ikshade completion bash` lists them).
- One list of uniforms: a built-in uniform's name is spelled in at most two files under src/ and
  include/ outside comments (the list, src/glsl/uniforms.h, and the public header); the channels' prefix
  (iChannel) in those and the command line's help alone.
- Layers: each folder of src/ includes only the folders below it (the table below is the drawing in
  DESIGN-NOTES), whether with "" or <>; src/glsl has no GL, does no I/O of its own and takes from
  base its errors, its files, growth and C-locale numbers alone; src/cli sees the public API and base's plain helpers alone.
- One growth helper: realloc (and reallocarray) in src/base/buf.c alone; one clock: CLOCK_MONOTONIC
  (and its kin, CLOCK_BOOTTIME) in src/base/clock.c alone.
- No long function: no function definition in src/**/*.c runs over 150 lines, counted from the first
  line of its signature (at column 0) to its closing } (at column 0); a longer one is split into named
  steps, static helpers that say why (as render.c's render_frames is). Each is named by file, line and name.
- The drawing of the layers in docs/DESIGN-NOTES.md names every folder of src/, and no other.
- Every test of BUILD has a label: its tier (make check runs the fast ones).
Each failure is printed with the file and line; the exit status is the number of failures (0: all held).
"""
import os
import re
import subprocess
import sys

src, ikshade = sys.argv[1], sys.argv[2]
build = sys.argv[3] if len(sys.argv) > 3 else None
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402


def files(top, exts=(".c", ".h")):
    for root, _, names in os.walk(top):
        for n in sorted(names):
            if n.endswith(exts):
                yield os.path.join(root, n)


def strip_comments(text):
    """the text with comments blanked (strings kept), so that a rule reads code and literals alone"""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def literals(text):
    """(line, string) of each string literal of C text, comments skipped"""
    code = strip_comments(text)
    for m in re.finditer(r'"((?:\\.|[^"\\\n])*)"', code):
        yield code.count("\n", 0, m.start()) + 1, m.group(1)


LIBRARY = ["base", "glsl", "media", "gpu", "platform", "io", "toy", "engine"]

# ---- the command line's options never in a library string --------------------------------------------
script = subprocess.run([ikshade, "completion", "bash"], capture_output=True, text=True).stdout
flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?=[\s\"|)])", script))
flags -= {"--help", "--version", "-W", "-d", "-F"}  # bash's own words in the script, and ours for every program
check(len(flags) > 40, "the program lists its options (%d found)" % len(flags))
flag_re = re.compile(r"(?<![\w-])(" + "|".join(re.escape(f) for f in sorted(flags, key=len, reverse=True)) +
                     r")(?![\w-])")
for layer in LIBRARY:
    for path in files(os.path.join(src, "src", layer)):
        text = open(path, encoding="utf-8", errors="replace").read()
        for line, s in literals(text):
            m = flag_re.search(s)
            # a child program's own arguments (glslangValidator's --stdin) are no option of ours
            check(not m, "%s:%d: a library string names the option %s: \"%s\"" %
                  (os.path.relpath(path, src), line, m.group(1) if m else "", s[:80]))

# ---- a uniform's name in at most two files ---------------------------------------------------------
ulist = open(os.path.join(src, "src/glsl/uniforms.h")).read()
names = re.findall(r'#define IKS_U_NAME_\w+ "(\w+)"', ulist) + re.findall(r'X\("(\w+)", IKS_U_NAME_\w+\)', ulist)
check(len(names) >= 18, "the list has the uniforms and their aliases (%d)" % len(names))
tree = list(files(os.path.join(src, "src"))) + list(files(os.path.join(src, "include")))
texts = {p: open(p, encoding="utf-8", errors="replace").read() for p in tree}
code_of = {p: strip_comments(t) for p, t in texts.items()}
for name in names:
    where = sorted(os.path.relpath(p, src) for p, t in code_of.items() if re.search(r"\b%s\b" % name, t))
    check(len(where) <= 2 and "src/glsl/uniforms.h" in where,
          "%s is spelled in %d files (at most the list and the public header): %s" % (name, len(where), " ".join(where)))

# the channels' prefix ("iChannel%d" in messages) comes from the list too; the command line's help may
# name iChannelN for its --channelN options, as it speaks to the user of them
prefix = re.search(r'#define IKS_U_CHANNEL_PREFIX "(\w+)"', ulist)
check(prefix is not None, "the list defines IKS_U_CHANNEL_PREFIX")
if prefix:
    where = sorted(os.path.relpath(p, src) for p, t in code_of.items() if re.search(r"\b%s" % prefix.group(1), t))
    extra = [w for w in where if w not in ("src/glsl/uniforms.h", "include/ikshade/ikshade.h") and not w.startswith("src/cli/")]
    check(not extra, "the prefix %s is spelled outside the list: %s" % (prefix.group(1), " ".join(extra)))

# ---- layers ---------------------------------------------------------------------------------------
ALLOWED = {
    "base": {"base"},
    "glsl": {"base", "glsl"},
    "media": {"base", "media"},
    "io": {"base", "io"},
    "gpu": {"base", "glsl", "media", "toy", "gpu"},
    "platform": {"base", "platform"},
    "toy": {"base", "glsl", "media", "toy"},
    "engine": {"base", "glsl", "media", "gpu", "platform", "io", "toy", "engine"},
    "cli": {"cli", "base"},
    "ik": set(),
}
CLI_BASE = {"base/buf.h", "base/clock.h", "base/strutil.h", "base/aslimit.h"}  # compiled into the program too (iks_util)
GLSL_BASE = {"base/err.h", "base/files.h", "base/buf.h", "base/strutil.h"}  # errors, the files it is handed, growth, C-locale numbers: no I/O
folders = sorted(d for d in os.listdir(os.path.join(src, "src")) if os.path.isdir(os.path.join(src, "src", d)))
check(set(folders) == set(ALLOWED), "src/ holds the layers this test knows: %s" % " ".join(folders))
for layer in folders:
    for path in files(os.path.join(src, "src", layer)):
        code = strip_comments(texts.get(path) or open(path).read())
        rel = os.path.relpath(path, src)
        for n, line in enumerate(code.split("\n"), 1):
            m = re.match(r'\s*#\s*include\s+["<]([^">/]+)/([^">]+)[">]', line)
            if m and (line.split("include", 1)[1].strip().startswith('"') or m.group(1) in ALLOWED or m.group(1) == "ikshade"):
                dep = m.group(1)
                ok = dep in ALLOWED.get(layer, set()) or (dep == "ikshade" and layer != "glsl")
                if layer == "cli" and dep == "base":
                    ok = "%s/%s" % (dep, m.group(2)) in CLI_BASE
                if layer == "glsl" and dep == "base":
                    ok = "%s/%s" % (dep, m.group(2)) in GLSL_BASE
                check(ok, "%s:%d: %s includes %s/%s" % (rel, n, layer, dep, m.group(2)))
            m = re.match(r'\s*#\s*include\s+"([^"/]+)"', line)
            check(not m, "%s:%d: an internal header named without its folder: %s" % (rel, n, m.group(1) if m else ""))
        if layer in ("glsl", "cli"):
            gl = re.search(r"#\s*include\s*<(glad|GL|EGL|GLFW)/|\b(gl[A-Z]\w*|egl[A-Z]\w*|glfw[A-Z]\w*)\s*\(", code)
            check(not gl, "%s: %s has no GL: %s" % (rel, layer, gl.group(0) if gl else ""))
        if layer == "glsl":
            io = re.search(r"(?<![\w>.])(fopen|open|openat|stat|lstat|fstat|read|fread|getline|mmap|popen|realpath|opendir|access|iks_userfile_\w+|iks_disk_files)\s*\(", code)
            check(not io, "%s: src/glsl does no I/O of its own (it is handed its files): %s" % (rel, io.group(0) if io else ""))
        # one growth helper, one clock
        if rel != "src/base/buf.c":
            check(not re.search(r"\brealloc(array)?\s*\(", code), "%s: a growth site of its own (realloc): use IKS_GROW or iks_sbuf" % rel)
        if rel != "src/base/clock.c":
            check(not re.search(r"\bCLOCK_(MONOTONIC\w*|BOOTTIME\w*)", code), "%s: a clock of its own: use iks_now" % rel)

# ---- no long function ----------------------------------------------------------------------------
# A function definition: a signature starting at column 0 (its continuation lines indented), its body
# opened by a "{" (on a line of its own, or ending the signature) and closed by the first "}" at column 0.
# Its length counts from the signature's first line to that "}".
MAX_FUNCTION = 150


def functions(code):
    """(first line, name, lines) of each function definition in comment-free C text"""
    lines = code.split("\n")
    start = None  # the line index of the last signature-like line at column 0
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln[:1].isalpha() or ln[:1] == "_":
            start = i
        opens = ln.startswith("{") or (start == i and ln.rstrip().endswith("{"))
        if opens and start is not None:
            sig = " ".join(lines[start:i + 1]).split("{", 1)[0]
            m = re.search(r"(\w+)\s*\(", sig)
            end = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("}")), None)
            if m and "=" not in sig.split("(", 1)[0] and sig.rstrip().endswith(")") and end is not None:
                yield start + 1, m.group(1), end - start + 1
                i, start = end, None
        elif ln[:1] not in ("", " ", "\t") and not (ln[:1].isalpha() or ln[:1] == "_"):
            start = None  # a preprocessor line, a brace: no signature runs on past it
        i += 1


for path in files(os.path.join(src, "src"), (".c",)):
    rel = os.path.relpath(path, src)
    for line, name, n in functions(code_of.get(path) or strip_comments(open(path).read())):
        check(n <= MAX_FUNCTION, "%s:%d: %s is %d lines (at most %d: split it into named steps)" %
              (rel, line, name, n, MAX_FUNCTION))

# ---- the drawing of the layers names the folders --------------------------------------------------
notes = open(os.path.join(src, "docs/DESIGN-NOTES.md")).read()
drawing = notes.split("## Layers", 1)[1].split("```", 2)[1] if "## Layers" in notes and "```" in notes else ""
drawn = set(re.findall(r"^\s*src/(\w+)/", drawing, re.M))
check(drawn == set(folders), "DESIGN-NOTES' drawing names the folders of src/: drawn %s, there %s" %
      (" ".join(sorted(drawn)), " ".join(folders)))

# ---- every test has a tier (its labels) ------------------------------------------------------------
if build:
    listed = subprocess.run(["ctest", "--test-dir", build, "-N", "-LE", "."], capture_output=True, text=True).stdout
    unlabelled = re.findall(r"Test +#\d+: (\S+)", listed)
    total = re.search(r"Total Tests: (\d+)", listed)
    check(total is not None and not unlabelled, "every test has a label (a tier): not %s" % " ".join(unlabelled))

finish()
