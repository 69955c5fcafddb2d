#!/usr/bin/env bash
# Cube A (shadertoy.com's cubemap pass) through `render`: the ray of every face as the site computes it
# (face order, orientation, iResolution), the faces read back as a samplerCube in any pass, feedback on
# itself, its place in a frame (after Buffers A-D, before Image), from a directory toy and from the
# site's JSON, the errors around it, and a slow frame stopped within by SIGINT (Cube A in steps). Every check reads pixels that the shaders determine exactly:
# equal where the value times 255 is a whole number (counts of 1/255), within 1 (px_near, tests/lib.sh)
# where the 8-bit rounding is the driver's (0.75, 0.25, 0.5: NVIDIA rounds 127.5 down, llvmpipe up).
# usage: test_cube.sh IKSHADE
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
png() { python3 "$(dirname "$0")/png.py" "$@"; }
tests=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
R() { "$bin" render "$@" --quiet; }
png() { python3 "$tests/png.py" "$@"; }

# ---- orientation: Cube A writes its ray direction; Image samples the faces at known directions -------
# Six directions, one in each face's interior, with no component equal, so a swapped or mirrored axis
# on any face shows.
DIRS='vec3(1.0,0.3,-0.2), vec3(-1.0,0.3,0.2), vec3(0.2,1.0,0.3), vec3(0.2,-1.0,-0.3), vec3(0.3,0.2,1.0), vec3(-0.3,0.2,-1.0)'
mkdir orient
echo 'void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) { c = vec4(rd * 0.5 + 0.5, 1.0); }' > orient/cube_a.glsl
cat > orient/image.glsl <<G
void mainImage(out vec4 c, in vec2 f) {
    vec3 d[6] = vec3[6]($DIRS);
    c = vec4(texture(iChannel0, d[int(f.x)]).rgb, 1.0);
}
G
echo 'image.iChannel0 = cube_a' > orient/manifest.txt
R orient -o orient.png --size 6x1
want=$(python3 - <<'P'
import math
for d in [(1.0,0.3,-0.2),(-1.0,0.3,0.2),(0.2,1.0,0.3),(0.2,-1.0,-0.3),(0.3,0.2,1.0),(-0.3,0.2,-1.0)]:
    n = math.sqrt(sum(x*x for x in d))
    print(" ".join(str(round((x / n * 0.5 + 0.5) * 255)) for x in d))
P
)
got=$(for i in 0 1 2 3 4 5; do png pixel orient.png $i 0; done)
# each channel within 1 of the exact value (16-bit float storage, linear filtering, the 8-bit rounding)
check "each face's ray points where the samplerCube looks (got: $(echo $got))" px_near "$got" "$want"

# ---- the site's ray per fragment: fragCoord and iResolution (1024) on the +x face -----------------------
# On +x the site's corners make uv.x run from z=+1 to z=-1 and uv.y from y=+1 to y=-1, so direction
# (1, 0.5, -0.5) lands at uv (0.75, 0.25) of a 1024-pixel face.
mkdir frag
echo 'void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) { c = vec4(f / iResolution.xy, iResolution.x / 2048.0, length(ro) + 1.0); }' > frag/cube_a.glsl
echo 'void mainImage(out vec4 c, in vec2 f) { vec4 v = texture(iChannel0, vec3(1.0, 0.5, -0.5)); c = vec4(v.rgb, 1.0) * v.a; }' > frag/image.glsl
echo 'image.iChannel0 = cube_a,filter=nearest' > frag/manifest.txt
R frag -o frag.png --size 1x1
check "+x face: fragCoord/iResolution at (1, .5, -.5) is (0.75, 0.25), iResolution 1024, rayOri 0" \
  px_near "$(png pixel frag.png 0 0)" "191 64 128"

# ---- feedback: Cube A adds 1/255 to what it held, read back through its own ray ---------------------------
mkdir fb
echo 'void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) { c = texture(iChannel0, rd) + vec4(1.0 / 255.0); }' > fb/cube_a.glsl
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texture(iChannel0, normalize(vec3(f - 2.0, 1.0))).rgb, 1.0); }' > fb/image.glsl
printf 'cube_a.iChannel0 = cube_a,filter=nearest\nimage.iChannel0 = cube_a,filter=nearest\n' > fb/manifest.txt
R fb -o fb/%d.png --frames 5 --size 4x4
check "feedback: frame 0 sees one step" [ "$(png pixel fb/0.png 1 1)" = "1 1 1" ]
check "feedback: frame 4 has accumulated five" [ "$(png pixel fb/4.png 3 0)" = "5 5 5" ]
R fb -o fb2/%d.png --frames 4:5 --size 4x4
check "feedback: a range from frame 4 draws Cube A's earlier frames first" cmp fb/4.png fb2/4.png

# ---- order within a frame: Buffer A, then Cube A, then Image ------------------------------------------
# A = (iFrame, Cube A's red as A sees it); Cube A = A's red as it sees it; Image = (Cube A's red, A's green)
mkdir order
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(float(iFrame) / 255.0, texture(iChannel0, vec3(1.0, 0.0, 0.0)).r, 0.0, 1.0); }' > order/a.glsl
echo 'void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) { c = vec4(texelFetch(iChannel0, ivec2(0), 0).r, 0.0, 0.0, 1.0); }' > order/cube_a.glsl
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texture(iChannel0, vec3(1.0, 0.0, 0.0)).r, texelFetch(iChannel1, ivec2(0), 0).g, 0.0, 1.0); }' > order/image.glsl
printf 'a.iChannel0 = cube_a,filter=nearest\ncube_a.iChannel0 = a\nimage.iChannel0 = cube_a,filter=nearest\nimage.iChannel1 = a\n' > order/manifest.txt
R order -o order/%d.png --frames 4 --size 2x2
check "order: at frame 3, Image sees Cube A's 3 (drawn after A), A saw Cube A's 2 (the previous frame)" \
  [ "$(png pixel order/3.png 0 0)" = "3 2 0" ]

# ---- mipmaps of the faces are rebuilt after each frame ---------------------------------------------------
mkdir mip
echo 'void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) { c = vec4(float(iFrame + 1) * 40.0 / 255.0, 0.0, 0.0, 1.0); }' > mip/cube_a.glsl
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(textureLod(iChannel0, vec3(0.0, 0.0, -1.0), 10.0).rgb, 1.0); }' > mip/image.glsl
echo 'image.iChannel0 = cube_a,filter=mipmap' > mip/manifest.txt
R mip -o mip/%d.png --frames 2 --size 1x1
check "mipmap: the smallest level follows the faces (frame 1: 80)" [ "$(png pixel mip/1.png 0 0)" = "80 0 0" ]

# ---- the site's JSON: a "cubemap" pass with output 4dX3Rr, read by id ------------------------------------
python3 - "$DIRS" <<'P' > orient.json
import json, sys
cube = "void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) { c = vec4(rd * 0.5 + 0.5, 1.0); }"
img = ("void mainImage(out vec4 c, in vec2 f) {\n    vec3 d[6] = vec3[6](%s);\n"
       "    c = vec4(texture(iChannel0, d[int(f.x)]).rgb, 1.0);\n}\n" % sys.argv[1])
cin = {"id": "4dX3Rr", "filepath": "/media/previz/cubemap00.png", "type": "cubemap", "channel": 0,
       "sampler": {"filter": "linear", "wrap": "clamp", "vflip": "true", "srgb": "false"}}
print(json.dumps({"ver": "0.1", "info": {"name": "cube"}, "renderpass": [
    {"inputs": [cin], "outputs": [{"id": "4dfGRr", "channel": 0}], "code": img, "name": "Image", "type": "image"},
    {"inputs": [], "outputs": [{"id": "4dX3Rr", "channel": 0}], "code": cube, "name": "Cube A", "type": "cubemap"}]}))
P
R orient.json -o orient_json.png --size 6x1
got=$(for i in 0 1 2 3 4 5; do png pixel orient_json.png $i 0; done)
check "JSON: a cubemap pass (listed after Image) is drawn first and read by id 4dX3Rr" px_near "$got" "$want"
# the older vocabulary: ctype/src, the faces named by their previz path
sed 's/"id": "4dX3Rr", "filepath"/"id": 41, "src"/; s/"type": "cubemap", "channel"/"ctype": "cubemap", "channel"/' orient.json > older.json
R older.json -o older.png --size 6x1
check "JSON: Cube A named by /media/previz/cubemap00.png in the older vocabulary" cmp orient_json.png older.png

# ---- errors ------------------------------------------------------------------------------------------
mkdir nocube && echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }' > nocube/image.glsl
echo 'image.iChannel0 = cube_a' > nocube/manifest.txt
expect_fail "manifest reading Cube A without cube_a.glsl" 1 \
  "manifest.txt:1: image.iChannel0 reads Cube A, but the directory has no cube_a.glsl" "$bin" render nocube -o x.png
python3 -c 'import json; print(json.dumps({"renderpass": [{"type": "image", "code": "void mainImage(out vec4 c, in vec2 f) {}", "inputs": [{"id": "4dX3Rr", "type": "cubemap", "channel": 1}]}]}))' > nocube.json
expect_fail "JSON reading Cube A without a cubemap pass" 1 \
  "nocube.json\\[Image\\]: iChannel1 reads Cube A, which the JSON does not define" "$bin" render nocube.json -o x.png
python3 -c 'import json; print(json.dumps({"renderpass": [{"type": "image", "code": "void mainImage(out vec4 c, in vec2 f) {}"}, {"type": "cubemap", "code": "", "outputs": [{"id": "XsXGR8"}]}]}))' > wrongid.json
expect_fail "a cubemap pass writing something else" 1 "wrongid.json: renderpass\\[1\\] is a cubemap pass whose output 'XsXGR8' is not Cube A" \
  "$bin" render wrongid.json -o x.png
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }' > one.frag
expect_fail "--channel0 cube_a on a single file" 2 "--channel0 'cube_a': a single file has no buffers" \
  "$bin" render one.frag -o x.png --channel0 cube_a
mkdir noentry && cp nocube/image.glsl noentry/ && echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }' > noentry/cube_a.glsl
expect_fail "cube_a.glsl without mainCubemap" 1 "cube_a.glsl: defines neither mainCubemap\\(out vec4 fragColor, in vec2 fragCoord, in vec3 rayOri, in vec3 rayDir\\) nor main\\(\\)" \
  "$bin" render noentry -o x.png
mkdir err && cp nocube/image.glsl err/ && printf '// a comment\nvoid mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) {\n    c = vec4(undeclared);\n}\n' > err/cube_a.glsl
"$bin" render err -o x.png 2>err.txt; rc=$?
check "a compile error in Cube A fails the render" [ "$rc" = 1 ]
check "... and names cube_a.glsl's own line" grep -q "cube_a.glsl:3:.*undeclared" err.txt
check "... leaving no picture" [ ! -e x.png ]
# a macro-made entry point compiles: the compiler decides, as on the site
mkdir macro && cp orient/image.glsl orient/manifest.txt macro/
printf '#define C(c, f, o, d) void mainCubemap(out vec4 c, in vec2 f, in vec3 o, in vec3 d)\nC(c, f, o, d) { c = vec4(d * 0.5 + 0.5, 1.0); }\n' > macro/cube_a.glsl
R macro -o macro.png --size 6x1
check "mainCubemap defined through a macro draws the same faces" png same orient.png macro.png
# ---- examples/cube: the sky Cube A keeps, above; the checker floor, below -----------------------------------
R "$tests/../examples/cube" -o ex.png --size 64x36 --time 2
sky=$(png pixel ex.png 2 1) floor=$(png pixel ex.png 2 34)
check "examples/cube: blue sky at the top ($sky)" python3 -c 'import sys; r, g, b = map(int, sys.argv[1].split()); sys.exit(not b > r + 30)' "$sky"
check "examples/cube: a grey floor at the bottom ($floor)" python3 -c 'import sys; r, g, b = map(int, sys.argv[1].split()); sys.exit(not (max(r, g, b) - min(r, g, b) < 20 and r > 100))' "$floor"

# checkpoints carry Cube A's faces (both halves, and which is newest): a range from a checkpoint equals
# one run, with only the frames after the checkpoint drawn (a restore that skipped the faces fails this)
"$bin" render "$tests/../examples/cube" -o one/%03d.png --size 48x27 --frames 0:6 --quiet
"$bin" render "$tests/../examples/cube" -o a/%03d.png --size 48x27 --frames 0:5 --checkpoint cp --checkpoint-every 4 --quiet
out=$("$bin" render "$tests/../examples/cube" -o b/%03d.png --size 48x27 --frames 5:6 --checkpoint cp 2>&1)
check "Cube A from a checkpoint: frame 5 equals one run" cmp -s one/005.png b/005.png
check "... starting from the checkpoint of frame 4, one frame drawn unsaved" grep -q "checkpoint of frame 4) (1 drawn unsaved" <<<"$out"
rm -rf cp
# ---- the face size: 1024 as on the site, or --cube-size N for a preview on a CPU renderer -------------
# Cube A writes fragCoord.x / 1024 at the +x face's centre; the Image reads it and textureSize / 1024
mkdir side
echo 'void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd) { o = vec4(f.x / 1024.0, 0.0, 0.0, 1.0); }' > side/cube_a.glsl
echo 'void mainImage(out vec4 o, in vec2 f) { o = vec4(texture(iChannel0, vec3(1.0, 0.0, 0.0)).r, float(textureSize(iChannel0, 0).x) / 1024.0, 0.0, 1.0); }' > side/image.glsl
echo 'image.iChannel0 = cube_a' > side/manifest.txt
R side -o side.png --size 4x4
check_px "Cube A's faces are 1024 a side by default (the site's)" "128 255 0" "$(png pixel side.png 2 2)"
R side -o side64.png --size 4x4 --cube-size 64
check_eq "--cube-size 64: faces of 64 (centre at 32.5 of 1024 -> 8, side 64 -> 16)" "8 16 0" "$(png pixel side64.png 2 2)"
expect_fail "--cube-size 0 is refused (the library's 0 is the default)" 2 "--cube-size '0'" "$bin" render side -o x.png --cube-size 0
expect_fail "--cube-size past the GL's limit: one line saying the limit" 2 "Cube A: cubemap faces of 65536x65536: this GL allows 1 to [0-9]+" "$bin" render side -o x.png --cube-size 65536

# ---- a frame that takes long: Cube A is drawn in steps (strips of its faces) during a render ------------
# Slow by size, not by sleeping: the site's 1024 faces with a loop a pixel, tens of seconds a frame on
# llvmpipe. Ctrl-C must stop it within a step, not after the frame, and leave no file.
mkdir slow
cat > slow/cube_a.glsl <<'G'
void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) {
    float s = 0.0;
    for (int i = 0; i < 3000; i++) s += sin(float(i) * 0.001 + rd.x * 3.0 + rd.y);
    c = vec4(fract(s), rd * 0.5 + 0.5);
}
G
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texture(iChannel0, normalize(vec3(f / iResolution.xy - 0.5, 1.0))).rgb, 1.0); }' > slow/image.glsl
echo 'image.iChannel0 = cube_a' > slow/manifest.txt
mkdir slowout
timeout --preserve-status -s INT 3 "$bin" render slow -o slowout/x.png --size 8x8 --cube-size 1024 2>slow.err; rc=$?
check "SIGINT during a slow Cube A frame: exit 130, as between frames (got $rc)" [ "$rc" = 130 ]
check "... with the usual message, nothing else on a non-terminal" \
  [ "$(cat slow.err)" = "ikshade render: interrupted: 0 of 1 frames written, every one complete; the rest are frames 0:1" ]
check "... and no file, not even a temporary one ($(ls -A slowout))" [ -z "$(ls -A slowout)" ]
# On a terminal the bar names the step; SIGINT once it has shown step 2 of 48 stops before the 48th.
# (Waits for what the bar says, never for a time.)
out=$(python3 - "$bin" render slow -o slowout/y.png --size 8x8 --cube-size 1024 <<'P'
import os, pty, re, select, signal, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=s, stderr=s)
os.close(s)
buf, sent = b"", False
while True:
    r, _, _ = select.select([m], [], [], 600)
    if not r:
        p.kill()
        break
    try:
        chunk = os.read(m, 4096)
    except OSError:  # EIO: the program has closed the terminal
        break
    if not chunk:
        break
    buf += chunk
    if not sent and b"frame 1/1, Cube A 2/48" in buf:
        p.send_signal(signal.SIGINT)
        sent = True
rc = p.wait()
steps = [int(x) for x in re.findall(rb"Cube A (\d+)/48", buf)]
print(rc, "sent" if sent else "not-sent", max(steps) if steps else 0,
      "message" if b"interrupted: 0 of 1 frames written" in buf else "no-message")
P
)
read -r rc sent last msg <<<"$out"
check "on a terminal the bar shows Cube A's steps, 'frame 1/1, Cube A 2/48' ($out)" [ "$sent" = sent ]
check "... SIGINT then exits 130 (got $rc)" [ "$rc" = 130 ]
check "... within the frame: the last step shown, $last, is before the 48th" [ "$last" -lt 48 ]
check "... with the interrupted message ($msg)" [ "$msg" = message ]
check "... and no file ($(ls -A slowout))" [ -z "$(ls -A slowout)" ]
finish
