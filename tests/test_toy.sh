#!/usr/bin/env bash
# Shadertoy compatibility through `render`: buffers (feedback, order within a frame), Common, image
# channels (vflip, wrap, filters), the keyboard texture, shadertoy.com's JSON in its vocabularies, and
# each malformed JSON answered with one line. Every check reads back pixels that the shader's logic
# determines exactly: equal where the value times 255 is a whole number (counts of 1/255, texels passed
# through), within 1 (px_near, tests/lib.sh) where the 8-bit rounding is the driver's (0.5, 0.25, 0.3).
# usage: test_toy.sh IKSHADE TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 tests=$2
png() { python3 "$tests/png.py" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
R() { "$bin" render "$@" --quiet; }
# pass TYPE NAME CODE [INPUTS] [OUTPUT_ID]: one renderpass object, older vocabulary (ctype/src)
pass() { printf '{"inputs": [%s], "outputs": [%s], "code": %s, "name": "%s", "type": "%s"}' \
  "${4:-}" "${5:-}" "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$3")" "$2" "$1"; }
buf_in() { printf '{"id": %s, "src": "/media/previz/buffer0%s.png", "ctype": "buffer", "channel": %s, "sampler": {"filter": "nearest", "wrap": "clamp", "vflip": "true", "srgb": "false"}}' "$((257 + $1))" "$1" "$2"; }
toy() { printf '{"Shader": {"ver": "0.1", "info": {"name": "t"}, "renderpass": [%s]}}\n' "$1"; }
FETCH='texelFetch(iChannel0, ivec2(f), 0)'

# ---- feedback: Buffer A adds 1/255 to itself every frame ----------------------------------------------
toy "$(pass buffer 'Buffer A' "void mainImage(out vec4 c, in vec2 f) { c = $FETCH + vec4(1.0 / 255.0); }" "$(buf_in 0 0)" '{"id": 257, "channel": 0}'),
     $(pass image Image "void mainImage(out vec4 c, in vec2 f) { c = vec4($FETCH.rgb, 1.0); }" "$(buf_in 0 0)" '{"id": 37, "channel": 0}')" > fb.json
R fb.json -o fb/%d.png --frames 5 --size 8x8
check "feedback: frame 0 sees one step" [ "$(png pixel fb/0.png 3 3)" = "1 1 1" ]
check "feedback: frame 4 has accumulated five" [ "$(png pixel fb/4.png 3 3)" = "5 5 5" ]
R fb.json -o fb2/%d.png --frames 3:5 --size 8x8
check "feedback: a range from frame 3 runs frames 0-2 first and matches one run" cmp fb/4.png fb2/4.png
check "... and saves only its own frames" [ "$(ls fb2)" = "$(printf '3.png\n4.png')" ]
"$bin" render fb.json -o fb3/%d.png --frames 3:4 --size 8x8 2>fb3.err
check "... and says so" grep -q "drawing frames 0..2 first, unsaved" fb3.err
R fb.json -o fb4/%d.png --frames 1 --warmup 4 --size 8x8
check "--warmup 4 saves frame 4, after four unsaved" [ "$(png pixel fb4/4.png 3 3)" = "5 5 5" ]
R fb.json -o fb5/%d.png --frames 2 --size 33x17
check "buffers follow the output size" [ "$(png pixel fb5/1.png 32 16)" = "2 2 2" ]

# ---- order within a frame: A then B then Image; a later buffer is seen from the previous frame ---------
A="void mainImage(out vec4 c, in vec2 f) { c = vec4(float(iFrame) / 255.0, $FETCH.r, 0.0, 1.0); }"  # ch0 = B
B="void mainImage(out vec4 c, in vec2 f) { c = vec4($FETCH.r, 0.0, 0.0, 1.0); }"                     # ch0 = A
I="void mainImage(out vec4 c, in vec2 f) { vec4 a = $FETCH; vec4 b = texelFetch(iChannel1, ivec2(f), 0); c = vec4(a.r, a.g, b.r, 1.0); }"
toy "$(pass buffer 'Buffer A' "$A" "$(buf_in 1 0)" '{"id": 257, "channel": 0}'),
     $(pass buffer 'Buffer B' "$B" "$(buf_in 0 0)" '{"id": 258, "channel": 0}'),
     $(pass image Image "$I" "$(buf_in 0 0), $(buf_in 1 1)")" > order.json
R order.json -o order/%d.png --frames 4 --size 4x4
check "order: at frame 3, A = 3, A's copy of B = last frame's 2, B's copy of A = this frame's 3" [ "$(png pixel order/3.png 1 1)" = "3 2 3" ]

# ---- Common, and the newer vocabulary (type/filepath, string ids, no outer Shader) -------------------
python3 - <<'P' > newer.json
import json
print(json.dumps({"ver": "0.1", "info": {"name": "newer"}, "renderpass": [
  {"inputs": [], "outputs": [], "code": "vec4 col() { return vec4(7.0, 8.0, 9.0, 255.0) / 255.0; }", "name": "Common", "type": "common"},
  {"inputs": [{"id": "4dXGR8", "filepath": "/media/previz/buffer00.png", "type": "buffer", "channel": 1,
               "sampler": {"filter": "nearest", "wrap": "clamp", "vflip": True, "srgb": False}}],
   "outputs": [{"id": "4dXGR8", "channel": 0}], "code": "void mainImage(out vec4 c, in vec2 f) { c = col() * 2.0; }",
   "name": "Buffer A", "type": "buffer"},
  {"inputs": [{"id": "4dXGR8", "filepath": "/media/previz/buffer00.png", "type": "buffer", "channel": 1}],
   "outputs": [{"id": "4dfGRr", "channel": 0}],
   "code": "void mainImage(out vec4 c, in vec2 f) { c = vec4(col().rgb + texelFetch(iChannel1, ivec2(f), 0).rgb, 1.0); }",
   "name": "Image", "type": "image"},
  {"inputs": [], "outputs": [], "code": "vec2 mainSound(int s, float t) { return vec2(0.0); }", "name": "Sound", "type": "sound"}]}))
P
"$bin" render newer.json -o newer.png --size 4x4 --quiet 2>newer.err
check "Common reaches every pass; newer JSON vocabulary; a buffer by string id" [ "$(png pixel newer.png 0 0)" = "21 24 27" ]
check "a sound pass does not stop the picture, nor warns" [ ! -s newer.err ]

# ---- image channels: a 2x2 picture made by ikshade itself ------------------------------------------------
# top-left red (200,0,0), top-right green, bottom-left blue, bottom-right white (gl's y is up)
printf 'void mainImage(out vec4 c, in vec2 f) { ivec2 p = ivec2(f); c = p.y == 1 ? (p.x == 0 ? vec4(200,0,0,255) : vec4(0,200,0,255)) / 255.0 : (p.x == 0 ? vec4(0,0,200,255) : vec4(200,200,200,255)) / 255.0; }\n' > quad.frag
R quad.frag -o quad.png --size 2x2
check "the picture: top-left red" [ "$(png pixel quad.png 0 0)" = "200 0 0" ]
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(0, 0), 0); }\n' > fetch00.frag
R fetch00.frag -o v1.png --size 2x2 --channel0 quad.png,filter=nearest
check "vflip (default): texel (0,0) is the picture's bottom-left" [ "$(png pixel v1.png 0 0)" = "0 0 200" ]
R fetch00.frag -o v0.png --size 2x2 --channel0 quad.png,filter=nearest,vflip=0
check "vflip=0: texel (0,0) is the picture's top-left" [ "$(png pixel v0.png 0 0)" = "200 0 0" ]
printf 'void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, vec2(1.75, 0.25)); }\n' > wrap.frag
R wrap.frag -o rep.png --size 2x2 --channel0 quad.png,filter=nearest,wrap=repeat
check "wrap=repeat: u 1.75 samples u 0.75 (bottom-right)" [ "$(png pixel rep.png 0 0)" = "200 200 200" ]
R wrap.frag -o clamp.png --size 2x2 --channel0 quad.png,filter=nearest,wrap=clamp
check "wrap=clamp: u 1.75 samples the right edge (bottom-right)" [ "$(png pixel clamp.png 0 0)" = "200 200 200" ]
printf 'void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, vec2(-0.25, 0.25)); }\n' > wrapneg.frag
R wrapneg.frag -o rep2.png --size 2x2 --channel0 quad.png,filter=nearest,wrap=repeat
R wrapneg.frag -o clamp2.png --size 2x2 --channel0 quad.png,filter=nearest,wrap=clamp
check "wrap: u -0.25 repeats to the right (white) and clamps to the left (blue)" \
  [ "$(png pixel rep2.png 0 0) / $(png pixel clamp2.png 0 0)" = "200 200 200 / 0 0 200" ]
printf 'void mainImage(out vec4 c, in vec2 f) { c = textureLod(iChannel0, vec2(0.25), 8.0); }\n' > lod.frag
R lod.frag -o mip.png --size 2x2 --channel0 quad.png,filter=mipmap
check "filter=mipmap: the top level is the picture's average" [ "$(png pixel mip.png 0 0)" = "100 100 100" ]
R lod.frag -o nomip.png --size 2x2 --channel0 quad.png,filter=linear
check "filter=linear has no levels: the texel itself" [ "$(png pixel nomip.png 0 0)" = "0 0 200" ]
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(vec3(128.0 / 255.0), 1.0); }\n' > grey.frag
R grey.frag -o grey.png --size 2x2
R fetch00.frag -o lin.png --size 2x2 --channel0 grey.png,filter=nearest
R fetch00.frag -o srgb.png --size 2x2 --channel0 grey.png,filter=nearest,srgb=1
check "srgb=1 reads sRGB 128 as linear 0.216 (55); srgb=0 as 128" [ "$(png pixel srgb.png 0 0) / $(png pixel lin.png 0 0)" = "55 55 55 / 128 128 128" ]
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(iChannelResolution[0].xy / 255.0, 0.0, 1.0); }\n' > res.frag
R res.frag -o res.png --size 2x2 --channel0 quad.png
check "iChannelResolution of an image" [ "$(png pixel res.png 0 0)" = "2 2 0" ]

# ---- cubemaps: six faces sky.png, sky_1.png .. sky_5.png (+x -x +y -y +z -z) ----------------------------
for i in 0 1 2 3 4 5; do
  printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(%d.0 / 255.0, 0.0, 0.0, 1.0); }\n' $(( (i + 1) * 10 )) > face.frag
  R face.frag -o "sky$([ $i = 0 ] || echo _$i).png" --size 4x4
done
printf 'void mainImage(out vec4 c, in vec2 f) {\n  int i = int(f.x);\n  vec3 d[6] = vec3[6](vec3(1,0,0), vec3(-1,0,0), vec3(0,1,0), vec3(0,-1,0), vec3(0,0,1), vec3(0,0,-1));\n  c = vec4(texture(iChannel0, d[i]).rgb, iChannelResolution[0].x / 255.0);\n}\n' > cube.frag
R cube.frag -o cube.png --size 6x1 --channel0 cube:sky.png --alpha
faces=$(for x in 0 1 2 3 4 5; do png pixel cube.png $x 0 | cut -d' ' -f1; done | tr '\n' ' ')
check "cubemap: each direction samples its face" [ "$faces" = "10 20 30 40 50 60 " ]
check "cubemap: iChannelResolution is the face size" [ "$(png pixel cube.png 0 0 | cut -d' ' -f4)" = 4 ]
python3 -c 'import json,sys; print(json.dumps({"renderpass": [{"type": "image", "code": open(sys.argv[1]).read(), "outputs": [], "inputs": [{"id": 9, "type": "cubemap", "filepath": "/media/a/sky.png", "channel": 0, "sampler": {"filter": "linear", "wrap": "clamp", "vflip": "false"}}]}]}))' cube.frag > cube.json
R cube.json -o cube2.png --size 6x1 --glsl 330
check "cubemap from a JSON, faces found beside it" cmp <(png pixel cube.png 3 0 | cut -d' ' -f1-3) <(png pixel cube2.png 3 0)
mv sky_3.png sky_3.bak
expect_fail "a missing cubemap face is named" 1 "sky_3.png: No such file or directory" "$bin" render cube.frag -o x.png --channel0 cube:sky.png
mv sky_3.bak sky_3.png

# ---- the keyboard: 256x3, all up in a render ---------------------------------------------------------
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(iChannelResolution[0].x / 1024.0, iChannelResolution[0].y / 255.0, texelFetch(iChannel0, ivec2(32, 0), 0).x, 1.0); }\n' > kb.frag
R kb.frag -o kb.png --size 2x2 --channel0 keyboard
check "keyboard: a 256x3 texture, space not held" [ "$(png pixel kb.png 0 0)" = "64 3 0" ]

# ---- a directory, one file per pass, wired by manifest.txt -------------------------------------------------
mkdir -p dirtoy
printf 'vec4 step1() { return vec4(1.0 / 255.0); }\n' > dirtoy/common.glsl
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0) + step1(); }\n' > dirtoy/a.glsl
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texelFetch(iChannel1, ivec2(f), 0).rgb + texture(iChannel2, vec2(0.25)).rgb, 1.0); }\n' > dirtoy/image.glsl
cp quad.png dirtoy/pic.png
printf '# the wiring\na.iChannel0 = a\nimage.iChannel1 = a,filter=nearest\nimage.iChannel2 = pic.png,filter=nearest   # beside the passes\n' > dirtoy/manifest.txt
R dirtoy -o dir/%d.png --frames 3 --size 4x4
check "directory toy: Common, a feedback buffer, an image relative to the directory" [ "$(png pixel dir/2.png 0 0)" = "3 3 203" ]
printf 'image.iChannel0 = c\n' > dirtoy/manifest.txt
expect_fail "manifest naming a missing pass" 1 "manifest.txt:1: image.iChannel0 reads buffer c, but the directory has no c.glsl" "$bin" render dirtoy -o x.png
printf 'image.iChannel7 = a\n' > dirtoy/manifest.txt
expect_fail "manifest: a bad channel" 1 "manifest.txt:1: 'image.iChannel7': expected PASS.iChannelN" "$bin" render dirtoy -o x.png
printf 'image.iChannel0 a\n' > dirtoy/manifest.txt
expect_fail "manifest: a malformed line" 1 "manifest.txt:1: expected PASS.iChannelN = SPEC" "$bin" render dirtoy -o x.png
mkdir -p emptytoy
expect_fail "a directory without image.glsl" 1 "emptytoy: a directory toy needs image.glsl" "$bin" render emptytoy -o x.png
expect_fail "--channel0 a on a single file" 2 "--channel0 'a': a single file has no buffers" "$bin" render ver.frag -o x.png --channel0 a

# ---- legacy names ------------------------------------------------------------------------------------------
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(iGlobalTime / 255.0, 0.0, 0.0, 1.0); }\n' > legacy.frag
R legacy.frag -o legacy.png --size 2x2 --time 7
check "iGlobalTime is iTime" [ "$(png pixel legacy.png 0 0)" = "7 0 0" ]

# ---- GLSL ES 3.00 for the site's code, 3.30 core for files; --glsl to choose -----------------------------
printf 'void mainImage(out vec4 c, in vec2 f) {\n#ifdef GL_ES\n  c = vec4(1.0, float(__VERSION__) / 1000.0, 0.0, 1.0);\n#else\n  c = vec4(0.0, float(__VERSION__) / 1000.0, 0.0, 1.0);\n#endif\n}\n' > ver.frag
python3 -c 'import json,sys; print(json.dumps({"renderpass": [{"type": "image", "code": open(sys.argv[1]).read(), "inputs": [], "outputs": []}]}))' ver.frag > ver.json
R ver.frag -o ver1.png --size 2x2
R ver.json -o ver2.png --size 2x2
R ver.frag -o ver3.png --size 2x2 --glsl es
R ver.json -o ver4.png --size 2x2 --glsl 330
check "a file compiles as GLSL 3.30 core" px_near "$(png pixel ver1.png 0 0)" "0 84 0"
check "a JSON compiles as GLSL ES 3.00 (GL_ES, __VERSION__ 300)" px_near "$(png pixel ver2.png 0 0)" "255 76 0"
check "--glsl es and --glsl 330 choose" px_near "$(png pixel ver3.png 0 0) / $(png pixel ver4.png 0 0)" "255 76 0 / 0 84 0"
python3 -c 'import json; print(json.dumps({"renderpass": [{"type": "image", "code": "void mainImage(out vec4 c, in vec2 f) {\n  float x = 1;\n  c = vec4(x);\n}\n", "inputs": [], "outputs": []}]}))' > strict.json
err=$("$bin" render strict.json -o x.png 2>&1 >/dev/null)
check "ES is strict (no int to float), and its errors still map to the pass's line" grep -qE '^strict.json\[Image\]:2(:[0-9]+)?: error' <<<"$err"
R strict.json -o strict.png --size 2x2 --glsl 330
check "... which --glsl 330 accepts" [ "$(png pixel strict.png 0 0)" = "255 255 255" ]

# ---- a toy's #includes: found beside it (whatever the working directory), and only its own ---------------
mkdir -p inc/toy/lib inc/secret inc/elsewhere && printf '#define MINE 0.25\n' > inc/toy/lib/m.glsl && printf '#define SECRET 0.5\n' > inc/secret/s.glsl
toy "$(pass image Image '#include "lib/m.glsl"
void mainImage(out vec4 c, in vec2 f) { c = vec4(MINE); }')" > inc/toy/own.json
toy "$(pass image Image '#include "../secret/s.glsl"
void mainImage(out vec4 c, in vec2 f) { c = vec4(SECRET); }')" > inc/toy/up.json
toy "$(pass image Image "#include \"$tmp/inc/secret/s.glsl\"
void mainImage(out vec4 c, in vec2 f) { c = vec4(SECRET); }")" > inc/toy/abs.json
(cd inc/elsewhere && R ../toy/own.json -o own.png --size 2x2)
check "a JSON's #include is found beside the JSON, run from another directory" px_near "$(png pixel inc/elsewhere/own.png 0 0)" "64 64 64"
expect_fail "a JSON's #include of a file outside its directory (../)" 1 \
  "up.json\[Image\]:1: #include \"../secret/s.glsl\" lies outside the toy's directory .*--allow-media-outside lets it" \
  "$bin" render inc/toy/up.json -o x.png --size 2x2
expect_fail "... by an absolute path" 1 "abs.json\[Image\]:1: #include \".*/secret/s.glsl\" lies outside the toy's directory" \
  "$bin" render inc/toy/abs.json -o x.png --size 2x2
mkdir -p inc/dtoy && printf '#include "../secret/s.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(SECRET); }\n' > inc/dtoy/image.glsl
expect_fail "... from a directory toy" 1 "dtoy/image.glsl:1: #include \"../secret/s.glsl\" lies outside the toy's directory" \
  "$bin" render inc/dtoy -o x.png --size 2x2
check "... and nothing written" [ ! -e x.png ]
R inc/toy/up.json -o up.png --size 2x2 --allow-media-outside
check "--allow-media-outside lets it" px_near "$(png pixel up.png 0 0)" "128 128 128"
printf '#include "../inc/secret/s.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(SECRET); }\n' > inc/single.frag
R inc/single.frag -o single.png --size 2x2
check "a single file is the user's own: its includes may go anywhere" px_near "$(png pixel single.png 0 0)" "128 128 128"
# by where the file is, not how it was found: through ikshade's shaders directory and out again
shaders=$(cd "$tests/../shaders" && pwd)
up=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$tmp/inc/secret/s.glsl" "$shaders")
printf '#include "../shaders/%s"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(SECRET); }\n' "$up" > inc/dtoy/image.glsl
expect_fail "... nor through the shaders directory and out again" 1 "dtoy/image.glsl:1: #include .* lies outside the toy's directory" \
  "$bin" render inc/dtoy -o x.png --size 2x2
# a library under -I whose files include their neighbours is open to a toy
mkdir -p inc/lib/sub && printf '#include "b.glsl"\n' > inc/lib/sub/a.glsl && printf '#define LIB 0.5\n' > inc/lib/sub/b.glsl
printf '#include "sub/a.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(LIB); }\n' > inc/dtoy/image.glsl
R inc/dtoy -o lib.png --size 2x2 -I inc/lib
check "a -I library's files include their neighbours, from a directory toy" px_near "$(png pixel lib.png 0 0)" "128 128 128"
printf '#include "ik.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(0.5); }\n' > inc/dtoy/image.glsl
R inc/dtoy -o dik.png --size 2x2
check "a toy may include ikshade's own shaders (ik.glsl)" px_near "$(png pixel dik.png 0 0)" "128 128 128"

# ---- a UTF-8 byte order mark (as Windows editors write) starts a file, or an included one: not text ------
printf '\xef\xbb\xbf#define HALF 0.5\n' > bominc.glsl
printf '\xef\xbb\xbf#include "bominc.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(HALF); }\n' > bom.frag
R bom.frag -o bom.png --size 2x2
check "a file and its include starting with a BOM compile" px_near "$(png pixel bom.png 0 0)" "128 128 128"

# ---- GLSL is ASCII: another byte outside a comment is named where it is (Mesa said the file "lacks main")
printf 'void mainImage(out vec4 c, in vec2 f) {\n  c = vec4(0.5);\xff\n}\n' > stray.frag
expect_fail "a stray byte: its file, line, column and value" 1 "stray.frag:2:17: byte 0xff outside a comment: a shader is ASCII text" \
  "$bin" render stray.frag -o x.png --size 2x2
printf '// caf\xc3\xa9\n#define AUTHOR J\xc3\xa9r\xc3\xb4me\n/* \xff\n \xff */ void mainImage(out vec4 c, in vec2 f) { c = vec4(0.5); }\n#if 0\n\xff\n#endif\n' > utf8.frag
R utf8.frag -o utf8.png --size 2x2
check "... while comments, an unused #define and a dead group may hold any byte" px_near "$(png pixel utf8.png 0 0)" "128 128 128"

# ---- missing media ---------------------------------------------------------------------------------------
toy "$(pass image Image "void mainImage(out vec4 c, in vec2 f) { c = vec4(texture(iChannel2, vec2(0.5)).rgb + 0.2, 1.0); }" \
  '{"id": 17, "src": "/media/a/0123abcd.png", "ctype": "texture", "channel": 2}')" > media.json
expect_fail "a texture that is not on disk" 1 "render: media.json\\[Image\\]: iChannel2: texture '/media/a/0123abcd.png' is not on disk" "$bin" render media.json -o m.png
R media.json -o m.png --size 2x2 --missing-media=black
check "--missing-media=black runs it with black" [ "$(png pixel m.png 0 0)" = "51 51 51" ]
mkdir -p media/a && cp quad.png media/a/0123abcd.png
R media.json -o m2.png --size 2x2
# the centre of the 2x2 quad, filtered: the mean of its four texels (151 with the 0.2 added), where black gives 51
check "a texture found beside the JSON under its path" [ "$(png pixel m2.png 0 0)" = "151 151 151" ]

# ---- malformed JSON: one line each, naming the file and what is wrong -------------------------------------
head -c 200 fb.json > trunc.json
expect_fail "truncated JSON" 1 "trunc.json:1: not valid JSON" "$bin" render trunc.json -o x.png
printf '{"Shader": {"renderpass": {"code": 1}}}' > notarray.json
expect_fail "renderpass not an array" 1 "notarray.json: no \"renderpass\" array" "$bin" render notarray.json -o x.png
printf '{"renderpass": [{"type": "image", "code": 42}]}' > codenum.json
expect_fail "code of the wrong type" 1 "codenum.json: renderpass\[0\] \(image\) has no \"code\" string" "$bin" render codenum.json -o x.png
printf '{"renderpass": [{"code": "void mainImage(out vec4 c, in vec2 f) {}"}]}' > notype.json
expect_fail "a pass without a type" 1 "notype.json: renderpass\[0\] has no \"type\"" "$bin" render notype.json -o x.png
printf '{"renderpass": [{"type": "hologram", "code": ""}, {"type": "image", "code": ""}]}' > holo.json
expect_fail "an unknown pass type" 1 "holo.json: renderpass\[0\] has type 'hologram', which ikshade does not run" "$bin" render holo.json -o x.png
printf '{"renderpass": [{"type": "buffer", "name": "Buffer A", "outputs": [{"id": 257}], "code": "void mainImage(out vec4 c, in vec2 f) {}"}]}' > noimage.json
expect_fail "no image pass" 1 "noimage.json: no pass of type \"image\"" "$bin" render noimage.json -o x.png
toy "$(pass image Image "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }" "$(buf_in 2 0)")" > nobuf.json
expect_fail "a channel naming a missing pass" 1 "iChannel0 reads a buffer the JSON does not define" "$bin" render nobuf.json -o x.png
toy "$(pass image Image "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }" '{"id": 3, "ctype": "musicstream", "channel": 1}')" > stream.json
expect_fail "an unsupported input" 1 "iChannel1: input type 'musicstream' is not supported" "$bin" render stream.json -o x.png
toy "$(pass image Image "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }" '{"id": 3, "ctype": "webcam", "channel": 1}')" > video.json
expect_fail "a JSON's webcam in an offline render" 1 "Image: iChannel1: a webcam is a live input" "$bin" render video.json -o x.png
toy "$(pass image Image "void mainImage(out vec4 c, in vec2 f) {\n c = vec4(oops);\n}")" | sed 's/\\\\n/\\n/' > err.json
err=$("$bin" render err.json -o x.png 2>&1 >/dev/null)
check "a compile error in a JSON pass names the JSON and the pass" grep -qE '^err.json\[Image\]:[0-9]+(:[0-9]+)?: error' <<<"$err"
expect_fail "--channel0 with a JSON" 2 "--channel0 'keyboard': a JSON brings its own channels" "$bin" render fb.json -o x.png --channel0 keyboard
expect_fail "--channel0 bad file type" 2 "--channel0 'x.gif'" "$bin" render -o x.png --channel0 x.gif
expect_fail "--channel0 bad setting" 2 "--channel0 'quad.png,filter=cubic': bad filter 'cubic'" "$bin" render -o x.png --channel0 quad.png,filter=cubic
expect_fail "--channel0 missing image: a usage error naming the option" 2 "^ikshade render: --channel0 'nosuch.png': No such file or directory$" "$bin" render -o x.png --channel0 nosuch.png
expect_fail "--channel0 not an image" 1 "fetch00.png: " sh -c "cp fetch00.frag fetch00.png; exec '$bin' render -o x.png --channel0 fetch00.png"
for x in x.png; do check "no output file from the failed runs" [ ! -e "$x" ]; done

# ---- a compatibility report over a folder ------------------------------------------------------------------
mkdir each && cp fb.json order.json legacy.frag each/ && printf 'float helper() { return 1.0; }\n' > each/lib.glsl
printf 'void mainImage(out vec4 c, in vec2 f) {\n  c = vec4(oops);\n}\n' > each/broken.frag
cp trunc.json each/
"$bin" render --each each --size 64x36 --frames 2 > report.md 2>report.err; rc=$?
check "--each exits 1 when a shader failed" [ $rc -eq 1 ]
check "--each: a table row per shader" [ "$(grep -c '^| [a-z]*\.\(frag\|json\|glsl\) |' report.md)" -eq 6 ]
check "--each: working shaders are ok, with a time" grep -qE '^\| fb\.json \| ok \| [0-9.]+ \|' report.md
check "--each: a compile error with its mapped line" grep -qE '^\| broken\.frag \| compile error \| \| .*broken\.frag:2(:[0-9]+)?: error' report.md
check "--each: a broken JSON is a load error" grep -qE '^\| trunc\.json \| load error \|' report.md
check "--each: an include file is skipped, not failed" grep -qE '^\| lib\.glsl \| skipped \|' report.md
check "--each: the summary" grep -q "6 shaders: 3 ok, 2 failed, 1 skipped" report.err
rm each/broken.frag each/trunc.json
"$bin" render --each each --size 64x36 --quiet > /dev/null
check "--each exits 0 when all worked" [ $? -eq 0 ]

# ---- the demos by name: what ships, and a path here wins over a name ----
list=$("$bin" demos)
for d in limb creature feedback dirtoy cube trails busy sound; do
  check "ikshade demos lists $d" grep -q "^$d " <<<"$list"
done
"$bin" render feedback -o fbname.png --size 64x36 --frames 30:31 --quiet
"$bin" render "$tests/../examples/feedback.json" -o fbpath.png --size 64x36 --frames 30:31 --quiet
check "render feedback (a name) is examples/feedback.json's frame" cmp fbname.png fbpath.png
mkdir -p here && (cd here && printf 'void mainImage(out vec4 c, in vec2 p) { c = vec4(0.0, 1.0, 0.0, 1.0); }\n' > creature &&
  "$bin" render creature -o mine.png --size 8x8 --quiet)
check_eq "a file named creature in the current directory wins over the demo" "0 255 0" "$(png pixel here/mine.png 4 4 2>&1)"
expect_fail "a name that is neither a file nor a demo" 1 "creatur: no such file here, and no demo of that name \(ikshade demos lists them\)" \
  "$bin" render creatur -o x.png
check "... and no output" test ! -e x.png
finish
