#!/usr/bin/env bash
# ikshade's pixels against WebGL2's, the platform shadertoy.com draws on: every case is rendered by
# `ikshade render` and by tests/webgl/render.mjs (the site's conventions in headless Chromium, ANGLE on
# SwiftShader) at the same size, frame, iTime and iMouse, and the two pictures must agree within a
# stated PSNR. The reduced toys of tests/webgl/site/ must also give the centre pixel the site gave,
# through both renderers, so the harness itself is held to the site.
# usage: test_webgl.sh IKSHADE TESTS_DIR BUILD_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$(realpath "$1") tests=$(realpath "$2") build=$(realpath "$3")
# 40 dB: an RMS difference of 2.5/255. Different rasterisers and math libraries (llvmpipe's and
# SwiftShader's sin, texture filtering weights) differ by a unit or two here and there (measured
# 57-79 dB on these cases); a wrong uniform, pass order, sampler or flip costs far more (under 25 dB).
MIN_PSNR=40
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# ---- the harness: npm's puppeteer-core (test tooling only) beside a copy of the scripts ------------
hw=$build/webgl
bash "$tests/webgl/install.sh" "$tests/webgl" "$hw" || exit 1

cd "$tmp"
python3 "$tests/webgl/make_media.py" . || exit 1
cp "$tests"/webgl/toys/* "$tests"/webgl/site/*.glsl "$tests"/webgl/site/*.json .
compare() { python3 "$tests/webgl/compare.py" "$@"; }
png() { python3 "$tests/png.py" "$@"; }

# case NAME TOY FRAME [OPTIONS...]: both renderers at 320x180, frame FRAME; the PSNR bound
case_() {
  local name=$1 toy=$2 frame=$3; shift 3
  local out
  rm -f "ik_$name.png" "wg_$name.png"
  if ! out=$("$bin" render "$toy" -o "ik_$name.png" --frames "$frame:$((frame + 1))" --size 320x180 --quiet "$@" 2>&1); then
    fail=$((fail + 1)); echo "FAIL: $name: ikshade render failed: $out" >&2; return 1
  fi
  # the harness takes ikshade's options but --glsl (it always compiles as the site does)
  local hopts=() a skip=0
  for a in "$@"; do
    if [ $skip = 1 ]; then skip=0; continue; fi
    if [ "$a" = --glsl ]; then skip=1; continue; fi
    hopts+=("$a")
  done
  if ! out=$(node "$hw/render.mjs" "$toy" -o "wg_$name.png" --frame "$frame" --size 320x180 "${hopts[@]}" 2>&1); then
    fail=$((fail + 1)); echo "FAIL: $name: the WebGL2 harness failed: $out" >&2; return 1
  fi
  if out=$(compare "ik_$name.png" "wg_$name.png" "$MIN_PSNR"); then pass=$((pass + 1)); echo "$name: $out"
  else fail=$((fail + 1)); echo "FAIL: $name: ikshade against WebGL2 under $MIN_PSNR dB: $out" >&2; return 1; fi
}

# The site's pixels were read from its canvas, which may truncate where GL rounds: mediump_es's 0.6421 *
# 255 = 163.7 is 163 there and 164 here, in Chromium's WebGL2 and in ikshade alike: compared within 1 per
# channel (check_px, tests/lib.sh).

# ---- the harness holds the site's pixels, and so does ikshade ------------------------------------------
while read -r file opts r g b; do
  case $file in ''|'#'*) continue ;; esac
  extra=()
  [ "$opts" != - ] && IFS=, read -r -a extra <<<"$opts"
  if case_ "${file%.*}" "$file" 60 "${extra[@]}"; then
    check_px "$file: WebGL2's centre pixel is the site's" "$r $g $b" "$(png pixel "wg_${file%.*}.png" 160 90)"
    check_px "$file: ikshade's centre pixel is the site's" "$r $g $b" "$(png pixel "ik_${file%.*}.png" 160 90)"
  fi
done <"$tests/webgl/site/expected.txt"

# ---- every uniform, pass order and feedback, sampler settings, channel types ---------------------------
case_ uniforms uniforms.glsl 30 --time 1.25 --mouse 200,100,50,40
case_ uniforms_frame0 uniforms.glsl 0 --mouse 200,100,50,40 --fps 24
case_ feedback feedback.json 45 --time 0.5
case_ samplers samplers.json 12
# Cube A: the site's cubemap pass (rays from each face's corners, half-float faces, feedback), drawn after
# the buffers and read as a samplerCube; the harness takes its corners from the GL spec's cubemap table
case_ cube_a cube_a.json 3 --time 0.5
# the site draws buffers in its JSON's pass order: B listed first reads A's previous frame (9 at frame 10)
if case_ order order.json 10; then
  check_eq "buffers in the JSON's order: frame 10 shows A's frame 9 (ikshade)" 9 "$(png pixel ik_order.png 160 90 | cut -d' ' -f1)"
  check_eq "... and so does WebGL2 drawn as the site does" 9 "$(png pixel wg_order.png 160 90 | cut -d' ' -f1)"
fi
case_ keyboard keyboard.glsl 3 --channel0 keyboard
# __LINE__ in Buffer A, Common inside it, and Cube A: the harness builds effect.js's headers line for line
if case_ line_passes line_passes.json 0; then
  check_eq "__LINE__ per pass type (ikshade): 2 + 27 + 3, 2 + 27, 2 + 30 + 3" "32 29 35" "$(png pixel ik_line_passes.png 160 90)"
  check_eq "... and WebGL2 with the site's headers" "32 29 35" "$(png pixel wg_line_passes.png 160 90)"
fi
# the examples the README uses: a JSON with feedback, a texture and the keyboard from the command line,
# directory toys (one with Cube A), the scale-out toy, and the busy scene
ex=$(cd "$tests/../examples" && pwd)
case_ ex_feedback "$ex/feedback.json" 30
case_ ex_texture "$ex/texture.frag" 10 --channel0 "$ex/media/tiles.png,filter=mipmap,wrap=repeat" --channel1 keyboard
case_ ex_keyboard "$ex/keyboard.frag" 5 --channel0 keyboard
case_ ex_dirtoy "$ex/dirtoy" 20
case_ ex_cube "$ex/cube" 2 --time 2
case_ ex_trails "$ex/scale-out/trails" 20
case_ busy "$ex/busy.frag" 20 --time 2
# undefined behaviour the site's platform defines: x/0, NaN written to a pixel, texelFetch out of range.
# Here (llvmpipe) they agree with WebGL2 (inf clamps to 1, NaN to 0, robust access reads 0); a desktop
# GPU driver may differ on the last two, as README's "undefined behaviour" says.
case_ ub_div0 ub_div0.glsl 0
case_ ub_texel_oob ub_texel_oob.glsl 0 --channel0 tex.png

# ---- sound: the site's 16-bit codes, bit for bit ------------------------------------------------------
# the harness draws the sound pass as effect.js does (its header, Common and a newline, the packing into
# an RGBA8 target); ikshade's WAV must hold the same codes: values past +-1, NaN, infinities, __LINE__ in
# the pass and in Common, the site's time and sample number. (No sin here: llvmpipe's and SwiftShader's
# differ in the last bits, as for pixels.)
python3 - <<'EOF' > sound.json
import json
code = """vec2 mainSound(int s, float t) {
    float y[10] = float[10](0.5, 1.0, 1.2, -1.3, -1.0, 0.0, 0.99, -0.5, 3.0, -7.0);
    float z = float(s) - float(s);
    if (s % 16 == 10) return vec2(z / z, -z / z);
    if (s % 16 == 11) return vec2(1.0 / z, -1.0 / z);
    if (s % 16 == 12) return vec2(LC / 1024.0, float(__LINE__) / 1024.0);
    if (s % 16 >= 13) return vec2(fract(t * 441.0) * 2.0 - 1.0, float(s) / 4096.0 - 0.5);
    return vec2(y[s % 16], -y[s % 16]);
}
"""
print(json.dumps({"renderpass": [
  {"type": "common", "code": "// common\n#define LC float(__LINE__)\n", "inputs": [], "outputs": []},
  {"type": "image", "code": "void mainImage(out vec4 o, in vec2 f) { o = vec4(0.5); }", "inputs": [], "outputs": []},
  {"type": "sound", "code": code, "inputs": [], "outputs": []}]}))
EOF
if "$bin" render sound.json -o ik_sound.wav --seconds 0.1 --quiet 2>/dev/null &&
   out=$(node "$hw/render.mjs" sound.json --wav 4410 -o wg_sound.wav 2>&1); then
  check "sound: ikshade's WAV holds the harness's 16-bit codes, bit for bit" cmp -s ik_sound.wav wg_sound.wav
else
  fail=$((fail + 1)); echo "FAIL: sound: a renderer failed: $out" >&2
fi

# ---- sound over several blocks, against the arbiter -------------------------------------------------
# ANGLE over this machine's llvmpipe (--gl llvmpipe) draws the page with ikshade's own GL, so sin() at
# large times is the same on both and what is left to differ is the site's semantics: the float
# iTimeOffset of each 512x512 block, the time and sample number of each pixel, the packing. 12 s is
# three blocks. Left: a sin hash of t (a real toy's noise; against SwiftShader it is about -3 dB, since
# their sin()s part ways at large arguments); right: the sample number's low 12 bits. Both are values
# whose 0.5 + 0.5 y is exact in float, because a GL may fuse that sum with the product, which moves a
# code by one (a tone whose y has all its bits differed by one code in about one sample in 3000).
python3 - <<'EOF' > hash.json
import json
code = "vec2 mainSound(int s, float t) { return vec2(fract(sin(t * 12345.678) * 43758.5453) * 2.0 - 1.0, float(s % 4096) / 4096.0 - 0.5); }"
print(json.dumps({"renderpass": [
  {"type": "image", "code": "void mainImage(out vec4 o, in vec2 f) { o = vec4(0.5); }", "inputs": [], "outputs": []},
  {"type": "sound", "code": code, "inputs": [], "outputs": []}]}))
EOF
if "$bin" render hash.json -o ik_hash.wav --seconds 12 --quiet 2>/dev/null &&
   out=$(node "$hw/render.mjs" hash.json --wav 529200 --gl llvmpipe -o arb_hash.wav 2>&1); then
  check "sound: 12 s (three blocks) of a sin hash and the sample number, bit for bit the arbiter's" cmp -s ik_hash.wav arb_hash.wav
  # from inside a block (6 s is sample 264600, block 1 begins at 262144): the site's times still
  "$bin" render hash.json -o ik_hash6.wav --seconds 2 --time 6 --quiet
  check "sound: 2 s from --time 6 are seconds 6..8 of the arbiter's, bit for bit" python3 - <<'EOF'
import wave
a, b = wave.open('arb_hash.wav'), wave.open('ik_hash6.wav')
a.setpos(6 * 44100)
x, y = a.readframes(2 * 44100), b.readframes(b.getnframes())
exit(not (len(x) == len(y) == 2 * 44100 * 4 and x == y))
EOF
else
  fail=$((fail + 1)); echo "FAIL: sound against the arbiter: a renderer failed: $out" >&2
fi

# ---- the harness can fail: a picture off by one pixel row (the classic flip bug) is caught -------------
python3 - "$tests" ik_samplers.png shifted.png <<'EOF'
import sys, struct, zlib
sys.path.insert(0, sys.argv[1])
import png
w, h, ch, rows = png.read(sys.argv[2])
rows = rows[1:] + rows[:1]
raw = b''.join(b'\0' + bytes(r) for r in rows)
def chunk(k, b): return struct.pack('>I', len(b)) + k + b + struct.pack('>I', zlib.crc32(k + b))
open(sys.argv[3], 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6 if ch == 4 else 2, 0, 0, 0))
                              + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
EOF
out=$(python3 "$tests/webgl/compare.py" shifted.png wg_samplers.png "$MIN_PSNR"); rc=$?
check "a picture one row off is below the bound: compare.py fails it" [ "$rc" -eq 1 ]
check "... for its PSNR, not for an error ($out)" grep -qE '^psnr [0-9.]+ dB' <<<"$out"
finish
