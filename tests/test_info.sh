#!/usr/bin/env bash
# test_info.sh IKSHADE SRC: `ikshade info` describes a toy without GL: with EGL made unable to give any
# display (glvnd finds no vendor), where `render` fails, `info` still lists the passes in the order a
# frame draws them, each channel's kind, source, filter, wrap and sampler, and the author's uniforms
# with an #iUniform's default and range; --json is one JSON object Python reads, equal to what the
# text says; errors are one line with the usual exit codes.
set -u
bin=$1 src=$(cd "$2" && pwd)
. "$src/tests/lib.sh"
tmp=${KEEP_TMP:-$(mktemp -d)}; [ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
noegl() { __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/vendor.json "$@"; }

# ---- no GL to be had: render fails, info works --------------------------------------------------------
check "render fails where EGL has no vendor (so the test means something)" \
  bash -c '! __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/vendor.json "$0" render "$1/examples/busy.frag" -o "$2/x.png" --frames 1 2>/dev/null' \
  "$bin" "$src" "$tmp"
noegl "$bin" info "$src/examples/dirtoy" > "$tmp/dir.txt" 2> "$tmp/dir.err"
check "info of a directory toy exits 0 without EGL ($(cat "$tmp/dir.err"))" test $? -eq 0 -a ! -s "$tmp/dir.err"
check_eq "the directory toy's passes, in drawing order, with their channels" \
"dirtoy
passes (in the order a frame draws them):
  Common    $src/examples/dirtoy/common.glsl
  Buffer A  $src/examples/dirtoy/a.glsl  (mainImage)
    iChannel0  buffer   Buffer A  sampler2D filter=nearest wrap=clamp
  Image     $src/examples/dirtoy/image.glsl  (mainImage)
    iChannel0  buffer   Buffer A  sampler2D filter=linear wrap=clamp
    iChannel1  image    $src/examples/dirtoy/tiles.png  sampler2D filter=mipmap wrap=repeat vflip
uniforms of its own: none" "$(cat "$tmp/dir.txt")"

# ---- a JSON: buffers drawn in the site's order, Cube A, a volume, a keyboard, sound, #iUniforms ---------
mkdir -p "$tmp/j"
printf 'VOL' > "$tmp/j/v.bin"
cat > "$tmp/j/toy.json" <<'EOF'
{"Shader": {"info": {"name": "Every kind"}, "renderpass": [
 {"type": "common", "code": "#define K 1.0\n", "inputs": []},
 {"type": "buffer", "name": "Buffer B", "code": "void mainImage(out vec4 c, in vec2 p) { c = vec4(K); }",
  "outputs": [{"id": 258}], "inputs": [{"channel": 2, "type": "keyboard", "id": 33}]},
 {"type": "buffer", "name": "Buffer A", "code": "uniform float gain;\nvoid mainImage(out vec4 c, in vec2 p) { c = texture(iChannel0, p / iResolution.xy) * gain; }",
  "outputs": [{"id": 257}], "inputs": [{"channel": 0, "type": "buffer", "id": 258, "sampler": {"filter": "nearest", "wrap": "repeat"}}]},
 {"type": "cubemap", "code": "void mainCubemap(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { c = vec4(d, 1); }",
  "outputs": [{"id": "4dX3Rr"}], "inputs": []},
 {"type": "image", "code": "#iUniform float r1 = 0.6 in { 0.05, 2.0 } step 0.01\n#iUniform color3 tint = color3(1.0, 0.5, 0.25)\nuniform float gain;\nuniform int count;\nvoid mainImage(out vec4 c, in vec2 p) { c = texture(iChannel0, vec3(p, 1)) + texture(iChannel1, vec3(p, r1)) + vec4(tint * gain, float(count)); }",
  "inputs": [{"channel": 0, "type": "cubemap", "id": "4dX3Rr", "sampler": {"filter": "mipmap"}},
             {"channel": 1, "type": "volume", "filepath": "/media/a/v.bin"},
             {"channel": 3, "type": "texture", "filepath": "/media/a/gone.png"}]},
 {"type": "sound", "code": "vec2 mainSound(int s, float t) { return vec2(sin(t)); }", "inputs": []}
]}}
EOF
noegl "$bin" info "$tmp/j/toy.json" --missing-media black > "$tmp/j.txt" 2> "$tmp/j.err"
check "info of the JSON exits 0 without EGL ($(cat "$tmp/j.err"))" test $? -eq 0
check_eq "the JSON's passes: Common, B before A as the JSON has them, Cube A, Image, Sound" \
  "Common Buffer B Buffer A Cube A Image Sound" "$(awk '/^  [A-Z]/ {print $1 ($1 == "Buffer" || $1 == "Cube" ? " " $2 : "")}' "$tmp/j.txt" | tr '\n' ' ' | sed 's/ $//')"
check "Buffer A reads Buffer B, nearest and repeated" grep -q "iChannel0  buffer   Buffer B  sampler2D filter=nearest wrap=repeat$" "$tmp/j.txt"
check "Buffer B reads the keyboard" grep -q "iChannel2  keyboard sampler2D filter=linear wrap=clamp$" "$tmp/j.txt"
check "Image reads Cube A as a samplerCube, mipmapped" grep -q "iChannel0  cube_a   Cube A  samplerCube filter=mipmap wrap=clamp$" "$tmp/j.txt"
check "Image reads the volume as a sampler3D" grep -q "iChannel1  volume   $tmp/j/v.bin  sampler3D" "$tmp/j.txt"
check "the missing texture is black (--missing-media black)" grep -q "iChannel3  black    sampler2D filter=linear wrap=clamp$" "$tmp/j.txt"
check "the #iUniform float with its default, range and step, in Image" grep -q "^  float  r1 = 0.6  in 0.05 .. 2 step 0.01  \[Image\]$" "$tmp/j.txt"
check "the colour" grep -q "^  vec3   tint = 1, 0.5, 0.25  (a colour)  \[Image\]$" "$tmp/j.txt"
check "a plain uniform declared in two passes, each named" grep -q "^  float  gain  \[Buffer A, Image\]$" "$tmp/j.txt"
check "a plain int" grep -q "^  int    count  \[Image\]$" "$tmp/j.txt"
check "ikshade's own uniforms are not listed" bash -c '! sed -n "/^uniforms/,\$p" "$0" | grep -q "iTime\|iResolution\|iChannel\|iDate"' "$tmp/j.txt"

# ---- --json: one object; Python reads it, and it says what the text says ----------------------------------
noegl "$bin" info "$tmp/j/toy.json" --missing-media black --json > "$tmp/j.json"
check "--json is valid JSON that names every pass, channel and uniform" /usr/bin/python3 - "$tmp/j.json" "$tmp/j/v.bin" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["name"] == "Every kind", d["name"]
names = [p["name"] for p in d["passes"]]
assert names == ["Common", "Buffer B", "Buffer A", "Cube A", "Image", "Sound"], names
ids = {p["name"]: p["id"] for p in d["passes"]}
assert ids == {"Common": None, "Buffer B": 2, "Buffer A": 1, "Cube A": 5, "Image": 0, "Sound": None}, ids
entries = [p["entry"] for p in d["passes"]]
assert entries == [None, "mainImage", "mainImage", "mainCubemap", "mainImage", "mainSound"], entries
img = d["passes"][4]["channels"]
assert [c["channel"] for c in img] == [0, 1, 3], img
assert img[1] == {"channel": 1, "kind": "volume", "source": sys.argv[2], "filter": "linear", "wrap": "clamp",
                  "vflip": False, "srgb": False, "sampler": "sampler3D"}, img[1]
u = {x["name"]: x for x in d["uniforms"]}
assert list(u) == ["gain", "r1", "tint", "count"], list(u)
assert u["r1"]["default"] == [0.6000000000000001] or abs(u["r1"]["default"][0] - 0.6) < 1e-12, u["r1"]
assert (u["r1"]["min"], u["r1"]["max"], u["r1"]["step"]) == (0.05, 2.0, 0.01), u["r1"]
assert u["tint"]["color"] is True and u["tint"]["components"] == 3 and u["tint"]["type"] == "float", u["tint"]
assert u["gain"]["passes"] == "Buffer A, Image" and u["gain"]["declared"] is False and "default" not in u["gain"]
assert u["count"]["type"] == "int", u["count"]
EOF

# ---- a toy's name is its author's: a terminal escape in it is shown, not sent -------------------------------
printf '{"Shader": {"info": {"name": "evil\\u001b]0;pwned\\u0007"}, "renderpass": [{"type": "image", "code": "void mainImage(out vec4 c, in vec2 p) { c = vec4(1); }", "inputs": []}]}}' > "$tmp/esc.json"
check_eq "a name with ESC and BEL is printed with them escaped" 'evil\x1b]0;pwned\x07' "$(noegl "$bin" info "$tmp/esc.json" | head -1)"
check "... and --json escapes them as JSON does" /usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["name"] == "evil\x1b]0;pwned\x07", d["name"]' <(noegl "$bin" info "$tmp/esc.json" --json)

# ---- a single file that is a sound shader alone: one pass, Sound --------------------------------------------
printf 'vec2 mainSound(int s, float t) { return vec2(0.0); }\n' > "$tmp/snd.frag"
check_eq "a sound shader alone is its Sound pass" "  Sound     $tmp/snd.frag  (mainSound)" \
  "$(noegl "$bin" info "$tmp/snd.frag" | sed -n 3p)"
check_eq "a channel given on the command line" "    iChannel0  image    $src/examples/dirtoy/tiles.png  sampler2D filter=nearest wrap=clamp vflip" \
  "$(noegl "$bin" info "$src/examples/busy.frag" --channel0 "$src/examples/dirtoy/tiles.png,filter=nearest" | sed -n 4p)"
check "a demo by name" bash -c '"$0" info feedback | head -1 | grep -q "^Feedback trail"' "$bin"

# ---- errors: one line, the usual codes, nothing on stdout -------------------------------------------------
expect_fail "a toy that is not there" 1 "^ikshade info: $tmp/nope.frag: No such file or directory$" noegl "$bin" info "$tmp/nope.frag"
printf '{"renderpass": 3}' > "$tmp/bad.json"
expect_fail "a malformed JSON" 1 "bad.json: no \"renderpass\" array" noegl "$bin" info "$tmp/bad.json"
printf '#include "missing.glsl"\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(1); }\n' > "$tmp/inc.frag"
expect_fail "an include that is not found" 1 "missing.glsl" noegl "$bin" info "$tmp/inc.frag"
expect_fail "a bad channel spec names the option" 2 "^ikshade info: --channel1 'nothing': " noegl "$bin" info "$tmp/snd.frag" --channel1 nothing
expect_fail "two toys" 2 "info takes one toy" "$bin" info a.frag b.frag
expect_fail "an unknown option" 2 "unknown option '--bogus'" "$bin" info --bogus
check "help info describes it" bash -c '"$0" help info | grep -q "without a GL context"' "$bin"
finish
