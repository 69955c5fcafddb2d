#!/usr/bin/env bash
# test_python.sh SRC BUILD [segments]: the Python package as a user installs it, offline: a clean venv
# (python3 -m venv --system-site-packages, numpy from Debian), `pip install ./python` from the source
# tree, then every call of the package held against the command line: Toy.snapshot's pixels are
# `ikshade render`'s (top row first), a demo by name as the command line takes it, set() changes a
# uniform, errors carry the library's code and field, a memoryview where numpy is missing, ik.solve2
# gives `ikshade solve`'s bits, render() writes the frames its progress callback counts and stops when
# it says so, _repr_png_ is a PNG PIL reads.
set -u
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
. "$src/tests/lib.sh"
bin=$build/ikshade
png() { /usr/bin/python3 "$src/tests/png.py" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A sanitized library needs the ASan runtime first in the process: preloaded into Python
py_env=()
if readelf -d "$build/libikshade.so" | grep -q 'NEEDED.*libasan'; then
  py_env=(LD_PRELOAD="$(cc -print-file-name=libasan.so)" ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0")
fi

# ---- install, as the README says, into a fresh venv; the source tree stays clean of build output ----
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
# pip builds in place: a copy of python/ (as a clone has it) keeps the real tree's python/build out of
# the way of other tests, and IKSHADE_BUILD names the build under test
mkdir -p "$tmp/tree" && cp -r "$src/python" "$src/include" "$src/CMakeLists.txt" "$tmp/tree/"
rm -rf "$tmp/tree/python/build" "$tmp/tree/python/"*.egg-info
(cd "$tmp/tree" && IKSHADE_BUILD="$build" PIP_NO_INDEX=1 "$tmp/venv/bin/pip" install ./python) > "$tmp/pip.log" 2>&1
check "pip install ./python in a venv, offline (log: $(tail -n 3 "$tmp/pip.log" | tr '\n' ' '))" \
  grep -q "Successfully installed ikshade" "$tmp/pip.log"
# (a sanitized library's runtime warns once about makecontext, which the library's big stack uses)
py() {
  (cd "$tmp" && env "${py_env[@]}" "$tmp/venv/bin/python" "$@" 2>&1 |
     grep -v "^==[0-9]*==WARNING: ASan doesn't fully support makecontext"; exit "${PIPESTATUS[0]}")
}
where=$(py -c 'import ikshade, os; print(os.path.dirname(ikshade.__file__))' 2>&1)
check "the venv imports the installed package, not the source ($where)" grep -q "^$tmp/venv/lib/" <<<"$where"
check "the layout was made from the header (_layout.py installed)" test -f "$where/_layout.py"
check_eq "ikshade.version() is the program's" "$("$bin" --version | awk '{print $2}')" "$(py -c 'import ikshade; print(ikshade.version())' 2>&1)"
check "type stubs and py.typed installed" test -f "$where/__init__.pyi" -a -f "$where/ik.pyi" -a -f "$where/py.typed"
check "the stubs parse" py -c 'import ast, sys; [ast.parse(open(f).read()) for f in sys.argv[1:]]' "$where/__init__.pyi" "$where/ik.pyi"

# ---- a film in segments (python.segments: needs ffmpeg, which the fast tier's set leaves out) ----
# render(segments=3, segment=K) for each part, then the film joined; read back by ffprobe/ffmpeg alone:
# its frame count, and its decoded frames those of a one-piece render of the same film
segments_section() {
  command -v ffprobe >/dev/null || {
    echo "FAIL: ffmpeg is not installed (scripts/deps.sh test installs it)" >&2; fail=$((fail + 1)); return; }
  cd "$tmp" || return
  # the frame number in 10 black or white columns, read back through the codec's loss
  printf '%s\n' 'void mainImage(out vec4 c, in vec2 p) {' '    int b = int(p.x / iResolution.x * 10.0);' \
    '    c = vec4(vec3(float((iFrame >> b) & 1)), 1.0);' '}' >num.glsl
  local N=50 W=160 H=32 out ext
  # numbers FILM: the frame numbers its frames show, decoded by ffmpeg, one line
  numbers() {
    ffmpeg -v error -i "$1" -map 0:v:0 -fps_mode passthrough -f rawvideo -pix_fmt gray - | /usr/bin/python3 -c '
import sys
d = sys.stdin.buffer.read(); W, H = int(sys.argv[1]), int(sys.argv[2])
row = lambda i: d[i * W * H + (H // 2) * W:i * W * H + (H // 2 + 1) * W]
print(" ".join(str(sum(1 << b for b in range(10) if row(i)[int((b + 0.5) * W / 10)] > 128)) for i in range(len(d) // (W * H))))' "$W" "$H"
  }
  # mp4: each part alone (join "none"), then the join by hand ("now"), and again (kept); webm: the last
  # part to finish joins ("when_done", the default)
  out=$(py -c '
import ikshade
N, size = 50, (160, 32)
def seg(film, k, **kw):
    s = ikshade.render("num.glsl", film, frames=N, size=size, segment=k, segments=3, **kw)
    return "%d/%d %d %s %s" % (s["written"], s["total"], s["segments_there"], s["joined"], s["joined_before"])
print(" | ".join(seg("film.mp4", k, join="none") for k in (2, 0, 1)))
print(seg("film.mp4", 0, join="now"), "|", seg("film.mp4", 0, join="now"))
print(" | ".join(seg("film.webm", k) for k in (1, 2, 0)))
s = ikshade.render("num.glsl", "one.mp4", frames=N, size=size)
print(s["written"], s["segments_there"], s["joined"], s["joined_before"])
ikshade.render("num.glsl", "one.webm", frames=N, size=size)
for kw in ({"join": "later"}, {"segment": 3, "segments": 3}, {"join": "now"}):
    try:
        ikshade.render("num.glsl", "bad.mp4", frames=N, size=size, **kw)
        print("no error")
    except ikshade.Error as e:
        print(e.code_name, e.field)
' 2>&1)
  echo "$out"
  check_eq "render(segments=3, join=\"none\"): each part its 16, 17, 17 frames; segments there 1, 2, 3; no join" \
    "16/16 1 False False | 17/17 2 False False | 17/17 3 False False" "$(sed -n 1p <<<"$out")"
  check_eq "join=\"now\": no frame drawn, all 3 there, joined; again: the film found joined already (its segments not counted)" \
    "0/0 3 True False | 0/0 0 False True" "$(sed -n 2p <<<"$out")"
  check_eq "the default join (\"when_done\"): the last part to finish joins" \
    "17/17 1 False False | 16/16 2 False False | 17/17 3 True False" "$(sed -n 3p <<<"$out")"
  check_eq "a render not in segments: no segments, no join" "50 0 False False" "$(sed -n 4p <<<"$out")"
  check_eq "a bad join name; a segment past the last; a join without segments: usage errors naming the field" \
    "usage join
usage segment
usage segments" "$(sed -n 5,7p <<<"$out")"
  for ext in mp4 webm; do
    check "$ext: the joined film is there" [ -s "film.$ext" ]
    check_eq "$ext: ffprobe counts $N frames in the joined film" "$N" \
      "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "film.$ext")"
    check_eq "$ext: its frames, decoded by ffmpeg, every one once and in order" "$(seq -s ' ' 0 $((N - 1)))" \
      "$(numbers "film.$ext")"
    # the segments were encoded apart (each from a key frame), so their bits differ from one run's;
    # what they show may differ only by the codec's loss
    check "$ext: its decoded frames are one run's film's, within the codec's loss (PSNR >= 40 dB)" \
      /usr/bin/python3 -c '
import subprocess, sys, math
a, b = (subprocess.run(["ffmpeg", "-v", "error", "-i", f, "-map", "0:v:0", "-fps_mode", "passthrough", "-f",
                        "rawvideo", "-pix_fmt", "gray", "-"], capture_output=True, check=True).stdout for f in sys.argv[1:3])
mse = sum((x - y) ** 2 for x, y in zip(a, b)) / max(1, len(a))
psnr = 99 if mse == 0 else 10 * math.log10(255 ** 2 / mse)
print(sys.argv[1], "against", sys.argv[2] + ":", len(a), "bytes, PSNR %.1f dB" % psnr, file=sys.stderr)
sys.exit(not (len(a) == len(b) == int(sys.argv[3]) and psnr >= 40))' "film.$ext" "one.$ext" $((N * W * H))
  done
}
if [ "${3:-}" = segments ]; then segments_section; finish; exit; fi

# ---- snapshot: the pixels of `ikshade render`, top row first ----
"$bin" render "$src/shaders/limb.frag" -o "$tmp/cli.png" --size 640x360 --time 1.5 --mouse 400,200 --quiet
cat > "$tmp/snap.py" <<'PY'
import sys, numpy as np, ikshade
t = ikshade.Toy(sys.argv[1], size=(640, 360))
img = t.snapshot(time=1.5, frame=0, mouse=(400, 200, 400, 200))
assert img.shape == (360, 640, 4) and img.dtype == np.uint8, (img.shape, img.dtype)
from PIL import Image
Image.fromarray(np.ascontiguousarray(img[:, :, :3])).save(sys.argv[2])  # RGB, as render writes PNGs
PY
py "$tmp/snap.py" "$src/shaders/limb.frag" "$tmp/py.png" > "$tmp/snap.out" 2>&1
check "Toy.snapshot ran ($(tail -n 2 "$tmp/snap.out"))" test -f "$tmp/py.png"
check "Toy.snapshot is ikshade render's picture, pixel for pixel" png diff "$tmp/py.png" "$tmp/cli.png" 0 0
out=$(py -c '
import ikshade
t = ikshade.Toy("void mainImage(out vec4 c, in vec2 p) { c = vec4(p / iResolution.xy, 0.0, 1.0); }", size=(4, 2))
a = t.snapshot()
print(a[0, 0, 1], a[1, 0, 1], a[0, 3, 0] > a[0, 0, 0])' 2>&1)
check_eq "GLSL text in memory; the top row first (green 191 at the top, 64 below; red grows rightwards)" "191 64 True" "$out"

# ---- a demo by name, as the command line takes it (the library's one table of demos) ----
"$bin" render creature -o "$tmp/cli-creature.png" --size 160x90 --time 2 --quiet
py -c '
import sys, numpy as np, ikshade
from PIL import Image
Image.fromarray(np.ascontiguousarray(ikshade.Toy("creature", size=(160, 90)).snapshot(time=2)[:, :, :3])).save(sys.argv[1])' \
  "$tmp/py-creature.png" > "$tmp/demo.out" 2>&1
check "Toy(\"creature\") is ikshade render creature's picture, pixel for pixel ($(tail -n 1 "$tmp/demo.out"))" \
  png diff "$tmp/py-creature.png" "$tmp/cli-creature.png" 0 0
check_eq "ikshade.demos() is ikshade demos --paths" "$("$bin" demos --paths | awk '{ print $1, $2 }')" \
  "$(py -c 'import ikshade; [print(k, v) for k, v in ikshade.demos().items()]')"
"$bin" info feedback --json > "$tmp/feedback.json"
check_eq "describe(\"feedback\") is ikshade info feedback --json" "same" "$(py -c '
import json, sys, ikshade
cli = json.load(open(sys.argv[1])); del cli["path"]
print("same" if ikshade.describe("feedback") == cli else "differ")' "$tmp/feedback.json" 2>&1)"
# a file of the user's under a demo's name is theirs, as for the command line
mkdir -p "$tmp/mine" && printf 'void mainImage(out vec4 c, in vec2 p) { c = vec4(0.0, 0.0, 1.0, 1.0); }\n' > "$tmp/mine/creature"
check_eq "Toy(\"creature\") where ./creature is the user's shader: theirs (blue)" "[0, 0, 255]" \
  "$(cd "$tmp/mine" && env "${py_env[@]}" "$tmp/venv/bin/python" -c 'import ikshade; print(ikshade.Toy("creature", size=(4, 4)).snapshot()[0, 0, :3].tolist())' 2>&1 | grep -v makecontext)"
out=$(py -c '
import ikshade
try:
    ikshade.Toy("creatur")
except ikshade.Error as e:
    print(e.code_name, "|", e)' 2>&1)
check "a name that is neither here nor a demo: io, naming it ($out)" grep -q "^io | creatur" <<<"$out"

# ---- set, errors ----
out=$(py -c '
import ikshade
src = "uniform float k = 0.25;\nuniform vec3 v = vec3(0.0);\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(k, v.y, 0.0, 1.0); }"
t = ikshade.Toy(src, size=(2, 2))
a = t.snapshot()[0, 0, 0]
t.set("k", 0.5); t.set("v", (0.0, 1.0, 0.0))
b = t.snapshot()[0, 0, :2].tolist()
print(a, b)
print(sorted((u["name"], u["type"], u["value"], u["active"], u["range"]) for u in t.uniforms()))
for bad in (lambda: t.set("nosuch", 1), lambda: t.set("v", 1.0)):
    try:
        bad()
    except ikshade.Error as e:
        print(e.code_name, e.code, repr(e.field), "|", e)
try:
    ikshade.Toy("/nonexistent/x.frag")
except ikshade.Error as e:
    print(e.code_name, "|", e)
try:
    ikshade.Toy("void mainImage(out vec4 c, in vec2 p) { c = nope; }")
except ikshade.Error as e:
    print(e.code_name, "|", e)
' 2>&1)
check "set: k 0.25 -> 0.5 and v.y 0 -> 1 ($(head -n 1 <<<"$out"))" grep -qx "64 \[128, 255\]" <<<"$(head -n 1 <<<"$out")"
check_eq "uniforms(): what the toy declares, with the values set" \
  "[('k', 'float', 0.5, True, None), ('v', 'vec3', (0.0, 1.0, 0.0), True, None)]" "$(sed -n 2p <<<"$out")"
check "set of an undeclared uniform: ikshade.Error usage, the library's words ($(sed -n 3p <<<"$out"))" \
  grep -q "^usage 1 .*the shader declares no uniform 'nosuch'" <<<"$(sed -n 3p <<<"$out")"
check "set of a vec3 with one value: usage ($(sed -n 4p <<<"$out"))" grep -q "^usage 1 .*expected 3 values" <<<"$(sed -n 4p <<<"$out")"
check "a missing file: io, named ($(sed -n 5p <<<"$out"))" grep -q "^io | /nonexistent/x.frag" <<<"$(sed -n 5p <<<"$out")"
check "a compile error: compile, with the line ($(sed -n 6p <<<"$out"))" grep -q "^compile | .*1:.*error" <<<"$(sed -n 6p <<<"$out")"

# ---- #iUniform parameters: default, range, step, colour ----
out=$(py -c '
import ikshade
src = "#iUniform float level = 0.4 in { 0.0, 1.0 } step 0.05\n#iUniform color3 tint = color3(1.0, 0.5, 0.0)\n" \
      "void mainImage(out vec4 c, in vec2 p) { c = vec4(tint * level, 1.0); }"
t = ikshade.Toy(src, size=(2, 2))
print(t.snapshot()[0, 0, :3].tolist())
t.set("level", 0.8)
for u in sorted(t.uniforms(), key=lambda u: u["name"]):
    print(u["name"], u["type"], u["value"], u["default"], u["range"], u["color"])
' 2>&1)
check_eq "#iUniform defaults reach the picture (0.4 x (1, 0.5, 0))" "[102, 51, 0]" "$(sed -n 1p <<<"$out")"
check_eq "uniforms(): a slider's range and step, its default beside the value set" \
  "level float 0.800000011920929 0.4000000059604645 (0.0, 1.0, 0.05) False" "$(sed -n 2p <<<"$out")"
check_eq "uniforms(): a colour picker" "tint vec3 (1.0, 0.5, 0.0) (1.0, 0.5, 0.0) None True" "$(sed -n 3p <<<"$out")"
# a value past its type: set() and a declaration by the one rule, in its words (issue 38)
out=$(py -c '
import ikshade
t = ikshade.Toy("#iUniform int n = 1 in { 0, 10 }\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(float(n)); }", size=(2, 2))
for v in (2**40, 1.5):
    try:
        t.set("n", v)
    except ikshade.Error as e:
        print(e.code_name, "|", e)
try:
    ikshade.Toy("void f() {}\n#iUniform int n = 1e10\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(float(n)); }")
except ikshade.Error as e:
    print(e.code_name, "|", e)
' 2>&1)
check "set() of an int past 32 bits: usage, beyond an int ($(sed -n 1p <<<"$out"))" \
  grep -q "^usage | .*uniform 'n' is int: value 1 (1099511627776) is beyond an int's range (-2147483648 to 2147483647)$" <<<"$(sed -n 1p <<<"$out")"
check "set() of an int with a fraction: not a whole number ($(sed -n 2p <<<"$out"))" \
  grep -q "^usage | .*value 1 (1.5) is not a whole number$" <<<"$(sed -n 2p <<<"$out")"
check "a declaration past 32 bits: refused on its line ($(sed -n 3p <<<"$out"))" \
  grep -q "^format | .*:2: malformed #iUniform: n is an int: its value 10000000000 is beyond an int's range" <<<"$(sed -n 3p <<<"$out")"

# ---- Cube A's face size: the site's 1024, or smaller for a preview ----
mkdir -p "$tmp/side"
echo 'void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd) { o = vec4(1.0); }' > "$tmp/side/cube_a.glsl"
echo 'void mainImage(out vec4 o, in vec2 f) { o = vec4(float(textureSize(iChannel0, 0).x) / 1024.0, 0.0, 0.0, 1.0); }' > "$tmp/side/image.glsl"
echo 'image.iChannel0 = cube_a' > "$tmp/side/manifest.txt"
out=$(py -c '
import ikshade
print(ikshade.Toy("side", size=(2, 2)).snapshot()[0, 0, 0], ikshade.Toy("side", size=(2, 2), cube_size=64).snapshot()[0, 0, 0])
try:
    ikshade.Toy("side", cube_size=-1)
except ikshade.Error as e:
    print(e.code_name, repr(e.field))' 2>&1)
check_eq "Toy(cube_size=): faces of 1024 by default, 64 when asked (64/1024 -> 16), -1 refused" \
  "$(printf '%s\n' '255 16' "usage 'cube_size'")" "$out"

# ---- a channel fed from memory: uint8 rows a slice apart, float32 above 1, replaced, given back ----
out=$(py -c '
import numpy as np, ikshade
src = "void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel0, ivec2(p), 0) * 0.5; }"
t = ikshade.Toy(src, size=(2, 2))
big = np.zeros((2, 5, 4), dtype=np.uint8)
big[0, 0] = (200, 100, 50, 254); big[1, 1] = (20, 40, 60, 254)   # top row first
t.set_channel(0, big[:, :2])                                      # rows 20 bytes apart, 8 used
a = t.snapshot()
print(a[0, 0].tolist(), a[1, 1].tolist())
t.set_channel(0, np.full((2, 2, 4), 1.5, dtype=np.float32))       # 1.5 * 0.5 = 0.75 -> 191
print(t.snapshot()[0, 0].tolist())
t.set_channel(0, None)                                            # the toy'"'"'s own channel: none, black
print(t.snapshot()[0, 0, :3].tolist())
try:
    t.set_channel(4, big)
except ikshade.Error as e:
    print(e.code_name, repr(e.field))' 2>&1)
check_eq "Toy.set_channel: a strided uint8 slice, float32 above 1, None, a bad channel" \
  "$(printf '%s\n' '[100, 50, 25, 127] [10, 20, 30, 127]' '[191, 191, 191, 191]' '[0, 0, 0]' "usage 'channel'")" "$out"

# ---- a microphone channel fed from memory: a tone on bin 48 shows there; a music channel refuses ----
out=$(py -c '
import numpy as np, ikshade
src = "void mainImage(out vec4 c, in vec2 p) { c = vec4(texelFetch(iChannel0, ivec2(p), 0).r); }"
t = ikshade.Toy(src, size=(512, 1), channels={0: "mic"})
print(int(t.snapshot()[0].max()))                                 # nothing fed: silence
n = 1033 * 128
tone = (0.05 * np.sin(2 * np.pi * 48 / 2048 * np.arange(n))).astype(np.float32)
t.feed_audio(0, np.stack([tone, tone], axis=1))                   # stereo, L = R
row = t.snapshot()[0, :, 0]
print(int(row.argmax()), bool(row[48] > 200))
try:
    t.feed_audio(1, tone)
except ikshade.Error as e:
    print(e.code_name, repr(e.field))' 2>&1)
check_eq "Toy.feed_audio: silence first, a fed tone peaks at its bin, a channel that is no microphone refused" \
  "$(printf '%s\n' '0' '48 True' "usage 'channel'")" "$out"

# ---- a whole toy in memory (a dict: the site's JSON), its state saved and restored, reset ----
out=$(py -c '
import ikshade
buf = {"id": "4dXGR8", "type": "buffer", "channel": 0}
toy = {"Shader": {"info": {"name": "acc"}, "renderpass": [
  {"type": "buffer", "name": "Buffer A", "inputs": [buf], "outputs": [{"id": "4dXGR8", "channel": 0}],
   "code": "void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel0, ivec2(p), 0) + vec4(0.2, 0.0, 0.0, 0.0); }"},
  {"type": "image", "name": "Image", "inputs": [buf], "outputs": [],
   "code": "void mainImage(out vec4 c, in vec2 p) { c = vec4(texelFetch(iChannel0, ivec2(p), 0).r, 0.0, 0.0, 1.0); }"}]}}
t = ikshade.Toy(toy, size=(4, 4))
r = [int(t.snapshot()[0, 0, 0]) for _ in range(2)]
s = t.state()
r += [int(t.snapshot()[0, 0, 0]) for _ in range(2)]
t.restore(s)
r.append(int(t.snapshot()[0, 0, 0]))
t.reset()
r.append(int(t.snapshot()[0, 0, 0]))
print(r, t.name)' 2>&1)
check_eq "a dict JSON: Buffer A adds 0.2 a frame; state() after 2, restore() goes on from there, reset() from 0" \
  "[51, 102, 153, 204, 153, 51] acc" "$out"

# ---- no numpy: a memoryview of the same shape ----
out=$(py -c '
import sys
sys.modules["numpy"] = None
import ikshade
m = ikshade.Toy("void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0, 0.5, 0.0, 1.0); }", size=(3, 2)).snapshot()
print(type(m).__name__, m.shape, m[1, 2, 0], m[1, 2, 1])' 2>&1)
check_eq "without numpy: a memoryview (2, 3, 4)" "memoryview (2, 3, 4) 255 128" "$out"

# ... and a channel fed from memoryviews: bytes (top row first) and floats above 1, then a bad shape
out=$(py -c '
import sys, array
sys.modules["numpy"] = None
import ikshade
t = ikshade.Toy("void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel0, ivec2(p), 0) * 0.5; }", size=(3, 2))
b = bytearray(2 * 3 * 4)
b[0:4] = bytes((200, 100, 50, 254))          # row 0 (top), column 0
b[(1 * 3 + 2) * 4:(1 * 3 + 3) * 4] = bytes((20, 40, 60, 254))   # row 1, column 2
t.set_channel(0, memoryview(b).cast("B", (2, 3, 4)))
m = t.snapshot()
print(list(m[0, 0, i] for i in range(4)), list(m[1, 2, i] for i in range(4)))
f = array.array("f", [1.5] * (2 * 3 * 4))
t.set_channel(0, memoryview(f).cast("B").cast("f", (2, 3, 4)))
m = t.snapshot()
print(list(m[1, 1, i] for i in range(4)))
try:
    t.set_channel(0, memoryview(b))
except ikshade.Error as e:
    print(e.code_name, repr(e.field))' 2>&1)
check_eq "without numpy: set_channel takes (height, width, 4) memoryviews of bytes and floats, refuses a flat one" \
  "$(printf '%s\n' '[100, 50, 25, 127] [10, 20, 30, 127]' '[191, 191, 191, 191]' "usage 'pixels'")" "$out"

# ---- ik.solve2: the bits of ikshade solve ----
cases="1 1 1 1
1.6 0 1 1
3 0 1 1
0.25 0 1 1
0 0 1 1
-0.7 0.3 0.9 0.4"
want=$(printf '%s\n' "$cases" | "$bin" solve)
got=$(py -c '
import sys, numpy as np, ikshade
rows = [list(map(float, l.split())) for l in sys.argv[1].splitlines()]
p = np.array([r[:2] for r in rows], dtype=np.float32)
x, st = ikshade.ik.solve2(p, np.array([r[2] for r in rows]), np.array([r[3] for r in rows]))
for (a, b), s in zip(x, st):
    print("%.9g %.9g %s" % (a, b, ikshade.ik.STATUS[s]))' "$cases" 2>&1)
check_eq "ik.solve2 over arrays gives ikshade solve's answers, bit for bit" "$want" "$got"
want=$(echo '1 1 1 1 -1' | "$bin" solve)
got=$(py -c 'import ikshade; x, s = ikshade.ik.solve2((1, 1), 1, 1, bend=-1); print("%.9g %.9g %s" % (x[0], x[1], ikshade.ik.STATUS[s]))' 2>&1)
check_eq "ik.solve2 of one point, bend -1" "$want" "$got"
# ---- ik.solve3: the bits of ikshade solve --3d, a pole for every case and one shared ----
cases3="1 1 0.5 1 1 0 0 1
1.6 0 0 1 1 0 1 0
3 0 0 1 1 0 0 1
0.2 0.1 0 1 1 1 0 0
0 0 0 1 1 0 0 1
-0.7 0.3 0.2 0.9 0.4 0 1 1"
want=$(printf '%s\n' "$cases3" | "$bin" solve --3d)
got=$(py -c '
import sys, numpy as np, ikshade
rows = [list(map(float, l.split())) for l in sys.argv[1].splitlines()]
x, st = ikshade.ik.solve3(np.array([r[:3] for r in rows]), np.array([r[3] for r in rows]),
                          np.array([r[4] for r in rows]), pole=np.array([r[5:8] for r in rows]))
for (a, b, c), s in zip(x, st):
    print("%.9g %.9g %.9g %s" % (a, b, c, ikshade.ik.STATUS[s]))' "$cases3" 2>&1)
check_eq "ik.solve3 over arrays gives ikshade solve --3d's answers, bit for bit" "$want" "$got"
want=$(echo '1 1 0.5 1 1 0 0 1 -1' | "$bin" solve --3d)
got=$(py -c 'import ikshade; x, s = ikshade.ik.solve3((1, 1, 0.5), 1, 1, pole=(0, 0, 1), bend=-1); print("%.9g %.9g %.9g %s" % (x[0], x[1], x[2], ikshade.ik.STATUS[s]))' 2>&1)
check_eq "ik.solve3 of one point with a shared pole, bend -1" "$want" "$got"
got=$(py -c '
import ikshade
try:
    ikshade.ik.solve3([(1, 1, 1), (2, 0, 0)], 1, 1, pole=[(0, 0, 1)] * 3)
except ikshade.Error as e:
    print(e.field)' 2>&1)
check_eq "a pole array of another length is refused naming pole" "pole" "$got"

# ---- a notebook showing a toy (_repr_png_) leaves it as it was; bad channel numbers are refused ----
got=$(py -c '
import sys, ikshade
a = ikshade.Toy(sys.argv[1], size=(32, 18))
b = ikshade.Toy(sys.argv[1], size=(32, 18))
for t in (a, b):
    for i in range(3): t.snapshot(time=i / 60)
a.snapshot(time=0.5, size=(20, 10))  # its buffers now at another size
b.snapshot(time=0.5, size=(20, 10))
before = a.state(), a.frame
png = a._repr_png_()
print(png[:4] == b"\x89PNG", (a.state(), a.frame) == before, a.frame)
print(bytes(a.snapshot(time=0.6, size=(20, 10))) == bytes(b.snapshot(time=0.6, size=(20, 10))))
import numpy as np
for c in (2**32 + 1, -1, 4, 1.0, True):
    try:
        a.set_channel(c, np.zeros((2, 2, 4), dtype=np.uint8))
        print("taken", c)
    except ikshade.Error as e:
        print(e.field, end=" ")
print()' "$src/examples/feedback.json" 2>&1)
check_eq "_repr_png_ leaves the buffers, the size and iFrame as they were; channel 2**32+1, -1, 4, 1.0, True refused" \
  "True True 4
True
channel channel channel channel channel " "$got"

# ---- render: frames, progress, a stop ----
out=$(py -c '
import sys, ikshade
seen = []
s = ikshade.render(sys.argv[1], sys.argv[2] + "/%03d.png", frames=5, size=(64, 36), time=1.5,
                   progress=lambda done, total: seen.append((done, total)))
print(s["written"], s["total"], s["width"], s["height"], max(d for d, t in seen), set(t for d, t in seen))
try:
    ikshade.render(sys.argv[1], sys.argv[2] + "/stop/%03d.png", frames=50, size=(64, 36),
                   progress=lambda done, total: done < 2)
except ikshade.Error as e:
    print(e.code_name)
' "$src/shaders/limb.frag" "$tmp/r" 2>&1)
check_eq "render: 5 frames of 64x36, the callback saw them all" "5 5 64 36 5 {5}" "$(head -n 1 <<<"$out")"
check_eq "... frames on disk" "5" "$(ls "$tmp/r" | grep -c '\.png$')"
"$bin" render "$src/shaders/limb.frag" -o "$tmp/cli3.png" --frames 3:4 --size 64x36 --time 1.5 --quiet
check "... frame 3 is ikshade render's" png diff "$tmp/r/003.png" "$tmp/cli3.png" 0 0
check_eq "a progress callback returning False stops it: interrupted" "interrupted" "$(sed -n 2p <<<"$out")"
n=$(ls "$tmp/r/stop" 2>/dev/null | grep -c '\.png$')
check "... with only whole frames left, fewer than 50 ($n)" bash -c '[ "$1" -lt 50 ] && for f in "$2"/*.png; do python3 "$3" info "$f" >/dev/null || exit 1; done' _ "$n" "$tmp/r/stop" "$src/tests/png.py"

# ---- Jupyter: _repr_png_ ----
out=$(py -c '
import io, ikshade
from PIL import Image
t = ikshade.Toy("void mainImage(out vec4 c, in vec2 p) { c = vec4(0.0, 1.0, 0.0, 1.0); }", size=(5, 3))
im = Image.open(io.BytesIO(t._repr_png_()))
print(im.size, im.mode, im.getpixel((4, 2)))' 2>&1)
check_eq "_repr_png_: a PNG PIL reads" "(5, 3) RGBA (0, 255, 0, 255)" "$out"

# ---- a decimal-comma host (locale.setlocale, as a notebook in Germany does): the same pixels and values ----
if localedef -i de_DE -f UTF-8 "$tmp/de_DE.UTF-8" >/dev/null 2>&1; then
  out=$(LOCPATH=$tmp py -c '
import locale, ikshade
def frame():
    t = ikshade.Toy("", size=(48, 27), sets={"r1": 0.65})
    t.set("soften", 0.125)
    return bytes(t.snapshot(time=1.25, mouse=(30.5, 12.25, 30.5, 12.25))), [u["default"] for u in t.uniforms()]
ref = frame()
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
print("%g" % 0.5 if False else locale.str(0.5), frame() == ref, locale.localeconv()["decimal_point"])' 2>&1)
  check_eq "under de_DE.UTF-8 (0,5): a snapshot with settings and the #iUniform defaults equal the C locale's; the host keeps its comma" "0,5 True ," "$out"
else
  check "localedef -i de_DE -f UTF-8 (Debian's locales package)" false
fi

# ---- threads: three threads snapshotting their own toys at once get every frame right ----
out=$(py -c '
import sys, threading, ikshade
toys = [sys.argv[1], sys.argv[2], ""]
def frames(src, n=8):
    t = ikshade.Toy(src, size=(40, 24))
    return [bytes(t.snapshot(time=i / 30, mouse=(10 + i, 12))) for i in range(n)]
want = [frames(s) for s in toys]
got, errors = [None] * 3, []
def run(k):
    try:
        got[k] = frames(toys[k])
    except Exception as e:  # a failure must show, not vanish with its thread
        errors.append(repr(e))
for rnd in range(3):
    th = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    [x.start() for x in th]
    [x.join() for x in th]
    print(got == want, errors)' "$src/examples/feedback.json" "$src/examples/dirtoy" 2>&1)
check_eq "three threads, three toys (buffers too), three rounds: every snapshot equals the serial one" "True []
True []
True []" "$out"

# ---- Ctrl-C: KeyboardInterrupt from a render without a progress callback and from a slow Cube A snapshot ----
cat > "$tmp/ctrlc.py" <<'PY'
import os, signal, sys, ikshade
# started in the background by a script, Python found SIGINT ignored and keeps it so: a terminal's
# Python has this handler
signal.signal(signal.SIGINT, signal.default_int_handler)
what, out = sys.argv[1], sys.argv[2]
cube = {"renderpass": [
    {"type": "cubemap", "outputs": [{"id": "4dX3Rr"}], "inputs": [], "code":
     "void mainCubemap(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { float a = 0.0;"
     " for (int i = 0; i < 20000; i++) a = fract(a * 1.3 + sin(float(i) + d.x)); c = vec4(a); }"},
    {"type": "image", "inputs": [{"channel": 0, "type": "cubemap", "id": "4dX3Rr"}], "code":
     "void mainImage(out vec4 c, in vec2 p) { c = texture(iChannel0, vec3(p, 1.0)); }"}]}
try:
    if what == "render":
        print("drawing", flush=True)
        ikshade.render("", out + "/%06d.png", frames=100000, size=(32, 18))
    else:
        t = ikshade.Toy(cube, size=(8, 8))
        print("drawing", flush=True)
        t.snapshot()
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
PY
for what in render snapshot; do
  mkdir -p "$tmp/cc-$what"
  (cd "$tmp" && exec env "${py_env[@]}" "$tmp/venv/bin/python" ctrlc.py "$what" "$tmp/cc-$what" > "$tmp/cc-$what.out" 2>&1) &
  pid=$!
  for i in $(seq 1 600); do grep -q drawing "$tmp/cc-$what.out" 2>/dev/null && break; sleep 0.1; done
  if [ "$what" = render ]; then  # some frames written first
    for i in $(seq 1 600); do [ "$(ls "$tmp/cc-$what" | wc -l)" -ge 3 ] && break; sleep 0.1; done
  else sleep 2; fi
  kill -INT "$pid" 2>/dev/null
  for i in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; echo "still running 60 s after SIGINT" >> "$tmp/cc-$what.out"; fi
  wait "$pid" 2>/dev/null
  check_eq "Ctrl-C during a $what: KeyboardInterrupt (not an ikshade.Error, not the end)" "drawing
KeyboardInterrupt" "$(grep -v makecontext "$tmp/cc-$what.out")"
done
n=$(ls "$tmp/cc-render" | wc -l)
check "... the render's $n frames on disk are whole PNGs, fewer than asked" bash -c '[ "$1" -ge 3 ] && [ "$1" -lt 100000 ] && for f in "$2"/*.png; do python3 "$3" info "$f" >/dev/null || exit 1; done' _ "$n" "$tmp/cc-render" "$src/tests/png.py"

# ---- fork: a child of a process that drew gets ikshade.Error at once (never a hang); spawn works ----
cat > "$tmp/forking.py" <<'PY'
import multiprocessing as mp, sys, ikshade

def child(q):
    out = []
    for what in ("a new toy", "the parent's toy"):
        try:
            (ikshade.Toy("", size=(8, 8)) if what == "a new toy" else parent).snapshot()
            out.append("worked")
        except ikshade.Error as e:
            out.append(e.code_name + (" spawn" if "spawn" in str(e) else " (no word of spawn)"))
    q.put(" / ".join(out))

def fresh(q):
    q.put(ikshade.Toy("", size=(8, 8)).snapshot().shape == (8, 8, 4))

if __name__ == "__main__":
    parent = ikshade.Toy("", size=(8, 8))
    parent.snapshot()
    for method, target in (("fork", child), ("spawn", fresh)):
        ctx = mp.get_context(method)
        q = ctx.Queue()
        p = ctx.Process(target=target, args=(q,))
        p.start()
        p.join(60)
        if p.is_alive():
            p.kill()
            print(method, "hung")
        else:
            print(method, p.exitcode, q.get(timeout=5))
PY
out=$(cd "$tmp" && timeout 120 env "${py_env[@]}" "$tmp/venv/bin/python" forking.py 2>&1 | grep -v "makecontext")
check_eq "fork: a new toy and the parent's toy refused at once naming spawn, the child exits; spawn draws" "fork 0 usage spawn / usage spawn
spawn 0 True" "$out"

# ---- an address-space limit too small for the GL driver: ikshade.Error naming it, not a crash ----
# (AddressSanitizer needs terabytes of address space: the plain build only)
if [ ${#py_env[@]} -eq 0 ]; then
  out=$(cd "$tmp" && bash -c 'ulimit -v 300000 && exec "$0" -c "
import ikshade
try:
    ikshade.Toy(\"\", size=(8, 8)).snapshot()
    print(\"drew\")
except ikshade.Error as e:
    print(e.code_name, \"address-space limit (ulimit -v 300000)\" in str(e))
"' "$tmp/venv/bin/python" 2>&1); rc=$?
  check_eq "under ulimit -v 300000 a toy is ikshade.Error naming the limit (rc $rc)" "gl True" "$out"
else echo "note: the ulimit -v row runs in the plain build only"
fi

# ---- describe: a toy without GL (EGL given no vendor), equal to `ikshade info --json` ----
for toy in "$src/examples/feedback.json" "$src/examples/dirtoy" "$src/shaders/limb.frag" "$src/examples/sound.frag"; do
  "$bin" info "$toy" --json > "$tmp/info.json"
  out=$(__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/vendor.json py -c '
import json, sys, ikshade
d = ikshade.describe(sys.argv[1])
cli = json.load(open(sys.argv[2]))
del cli["path"]
print("same" if d == cli else "differ: %r\n%r" % (d, cli))
print(ikshade._engine is None)' "$toy" "$tmp/info.json" 2>&1)
  check_eq "describe($(basename "$toy")) without GL equals info --json, and made no engine" "same
True" "$out"
done
out=$(py -c '
import ikshade
try:
    ikshade.describe("/nonexistent/toy.frag")
except ikshade.Error as e:
    print(e.code_name)' 2>&1)
check_eq "describe of a missing file: ikshade.Error io" "io" "$out"
finish
