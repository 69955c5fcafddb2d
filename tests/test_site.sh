#!/usr/bin/env bash
# What shadertoy.com (WebGL2, GLSL ES 3.00 through ANGLE) makes of a shader, where a plain desktop GL
# compile would differ: how the entry point is found, precision qualifiers, names that are keywords to
# Mesa only, iChannelTime. Each case is a few lines whose pixel the site's semantics fix exactly.
# usage: test_site.sh IKSHADE TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 tests=$2
png() { python3 "$tests/png.py" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# four_pass.emit(common, buf, cube, img): a JSON toy of Common, Buffer A, Cube A and an Image that reads
# both (nearest), from the four passes' code
cat > four_pass.py <<'P'
import json
def emit(common, buf, cube, img):
    print(json.dumps({"renderpass": [
      {"type": "common", "code": common, "inputs": [], "outputs": []},
      {"type": "buffer", "name": "Buffer A", "code": buf, "inputs": [], "outputs": [{"id": 257, "channel": 0}]},
      {"type": "cubemap", "name": "Cube A", "code": cube, "inputs": [], "outputs": [{"id": "4dX3Rr", "channel": 0}]},
      {"type": "image", "code": img, "outputs": [], "inputs": [
        {"id": 257, "channel": 0, "type": "buffer", "sampler": {"filter": "nearest"}},
        {"id": "4dX3Rr", "channel": 1, "type": "cubemap", "sampler": {"filter": "nearest"}}]}]}))
P

# centre: renders FILE [OPTIONS] at 32x18 and prints the centre pixel's RGB ("" when render failed).
# Colours such as 0.5 are compared within 1 (check_px: GL leaves the rounding of 127.5 to the driver);
# __LINE__ / 255 is a whole number of 255ths, and stays exact (check_eq).
centre() {
  local f=$1; shift
  rm -f c.png
  "$bin" render "$f" -o c.png --size 32x18 --quiet "$@" 2>c.err && png pixel c.png 16 9
}

# ---- the entry point ---------------------------------------------------------------------------------
# a main() that the preprocessor skips is not the file's own: the prelude (iTime) is still added
printf 'void mainImage(out vec4 o, in vec2 f) { o = vec4(iTime / 4.0, 0.0, 0.0, 1.0); }\n#ifdef GLSLSANDBOX\nvoid main() { mainImage(gl_FragColor, gl_FragCoord.xy); }\n#endif\n' > sandbox.frag
check_px "main() under #ifdef GLSLSANDBOX: the prelude is added" "128 0 0" "$(centre sandbox.frag --time 2)"
# ... and the same under #if 0, and after an #else of a defined macro
printf '#define SITE\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(iTime / 4.0, 0.0, 0.0, 1.0); }\n#ifndef SITE\nvoid main() {}\n#endif\n#if 0\nvoid main() {}\n#endif\n' > ifndef.frag
check_px "main() under #ifndef of a defined macro and #if 0: the prelude is added" "128 0 0" "$(centre ifndef.frag --time 2)"
# a file with its own live main() is still its own program (no prelude, no wrapper)
printf 'out vec4 c;\nvoid main() { c = vec4(0.0, 1.0, 0.0, 1.0); }\n' > own.frag
check_eq "a live main(): the file is its own program" "0 255 0" "$(centre own.frag)"
# a main() only inside a #define body defines nothing there: the site adds its prelude all the same
check_px "void main() only in a #define body: the prelude is added" "128 64 0" "$(centre "$tests/webgl/site/main_in_define.glsl")"
check_px "... also with --glsl es" "128 64 0" "$(centre "$tests/webgl/site/main_in_define.glsl" --glsl es)"
printf '#define LOCAL_MAIN \\\n    void main()\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(iTime / 4.0, 0.25, 0.0, 1.0); }\n' > defcont.frag
check_px "... and on a #define's continuation line" "128 64 0" "$(centre defcont.frag --time 2)"
python3 - <<'P' > defmain.json
import json
print(json.dumps({"renderpass": [
  {"type": "common", "code": "#define LOCAL_MAIN void main()\n", "inputs": [], "outputs": []},
  {"type": "image", "code": "void mainImage(out vec4 o, in vec2 f) { o = vec4(0.5 + 0.0 * iTime, 0.25, 0.0, 1.0); }", "inputs": [], "outputs": []}]}))
P
check_px "... and in a JSON's Common" "128 64 0" "$(centre defmain.json)"
# code golf: mainImage as a macro of statements, expanded by the wrapper's call as on the site
printf '#define mainImage(O, U) \\\n  O = vec4(step(16.0, U.x), 0.25, 0.0, 1.0)\n' > golf.frag
check_px "mainImage defined as a macro compiles with the wrapper" "255 64 0" "$(centre golf.frag)"
# a file with no mainImage at all: one line, exit 1, and --each calls it an include file
printf 'float helper(float x) { return 2.0 * x; }\n' > helper.glsl
expect_fail "no mainImage and no main(): one line, not the compiler's" 1 "helper.glsl: defines neither mainImage" \
  "$bin" render helper.glsl -o h.png
mkdir -p each && cp golf.frag helper.glsl each/
"$bin" render --each each > each.md 2>/dev/null
check "--each: the macro toy renders and the include file is skipped" \
  bash -c 'grep -q "| golf.frag | ok |" each.md && grep -q "| helper.glsl | skipped |" each.md'

# a function-like macro whose expansion starts with '-' right after a '-' or '+': two signs, not '--'
printf '#define D2R(a) a*(3.14159265/180.0)\n#define NEGX(a) -D2R(a)\nvoid mainImage(out vec4 o, in vec2 f) {\n  float x = -D2R(-90.0), y = 1.0+D2R(-90.0), z = -NEGX(90.0);\n  o = vec4(x / 3.14159265, y, z / 3.14159265, 1.0);\n}\n' > glue.frag
check_px "-M(-1) with a function-like macro M is two minus signs (also inside a macro)" "128 0 128" "$(centre glue.frag)"

# ---- precision: qualifiers never lower it (the site's desktop GPUs compute in 32 bits) ----------------
# fract(1000 + x / 1000) needs more than fp16's 11 bits: at x = 16.5 it is 0.0165, times 40 is 0.66
for q in mediump lowp; do
  printf 'precision %s float;\nvoid mainImage(out vec4 o, in vec2 f) {\n  %s float x = 1000.0 + f.x / 1000.0;\n  o = vec4(fract(x) * 40.0, 0.0, 0.0, 1.0);\n}\n' $q $q > $q.frag
  for mode in "" es; do
    v=$(centre $q.frag ${mode:+--glsl es} | cut -d' ' -f1)
    check "$q${mode:+ (--glsl es)}: computed in 32 bits (red $v, 32-bit 168, fp16 0)" [ "${v:-0}" -ge 166 -a "${v:-0}" -le 170 ]
  done
done

# ---- names: layout qualifiers that ES 3.00 lets a shader use as identifiers --------------------------
for w in packed row_major; do
  printf 'void mainImage(out vec4 o, in vec2 f) {\n  float %s = 0.5;\n  o = vec4(%s, 0.0, 0.0, 1.0);\n}\n' $w $w > $w.frag
  check_px "'$w' as a variable's name" "128 0 0" "$(centre $w.frag)"
  check_px "'$w' as a variable's name (--glsl es)" "128 0 0" "$(centre $w.frag --glsl es)"
done

# ---- zero-initialisation: every variable the shader declares starts at zero, as ANGLE makes it -------
# each shader below adds to variables it never set; garbage (Mesa's undefined values) fails the check
zcase() { # zcase DESCRIPTION EXPECTED LINE...: the lines of the shader
  local what=$1 want=$2; shift 2
  printf '%s\n' "$@" > z.frag
  check_px "zero-init: $what" "$want" "$(centre z.frag)"
  check_px "zero-init: $what (--glsl es)" "$want" "$(centre z.frag --glsl es)"
}
zcase "a local vector" "128 128 128" \
  'void mainImage(out vec4 o, in vec2 f) { vec3 acc; for (int i = 0; i < 2; i++) acc += vec3(0.25); o = vec4(acc, 1.0); }'
zcase "several names in one declaration, one initialised" "64 128 64" \
  'void mainImage(out vec4 o, in vec2 f) { float a, b = 0.25, c; a += 0.25; b += 0.25; c += 0.25; o = vec4(a, b, c, 1.0); }'
zcase "a local of a function, on each of two calls" "128 0 0" \
  'float g() { float t; t += 0.25; return t; }' \
  'void mainImage(out vec4 o, in vec2 f) { o = vec4(g() + g(), 0.0, 0.0, 1.0); }'
zcase "arrays of literal size, both spellings" "64 64 0" \
  'void mainImage(out vec4 o, in vec2 f) { float z[4]; float[3] y; for (int i = 0; i < 4; i++) z[i] += 0.125;' \
  '  y[2] += 0.25; o = vec4(z[0] + z[3], y[2] + y[0], 0.0, 1.0); }'
zcase "a local array sized by a constant" "128 0 0" \
  'const int N = 6;' \
  'void mainImage(out vec4 o, in vec2 f) { vec2 z[N]; z[5].x += 0.5; o = vec4(z[5].x + z[0].y, 0.0, 0.0, 1.0); }'
zcase "a global" "64 0 0" \
  'float g;' \
  'void mainImage(out vec4 o, in vec2 f) { g += 0.25; o = vec4(g, 0.0, 0.0, 1.0); }'
zcase "global arrays sized by a constant, a macro and an expression, of vectors and structs" "128 64 64" \
  'struct P { vec2 v; float w; };' \
  '#define M 4' \
  'const int N = 3;' \
  'float g[N]; vec3 q[N * 2]; float h[M]; P ps[N];' \
  'void mainImage(out vec4 o, in vec2 f) { g[0] += 0.5; ps[2].w += 0.25;' \
  '  o = vec4(g[0] + g[2], h[3] + q[5].y + 0.25, ps[2].w + ps[1].v.x, 1.0); }'
zcase "structs, with an array member, local and global" "64 128 0" \
  'struct S { float a; vec2 b[2]; };' \
  'S gs;' \
  'void mainImage(out vec4 o, in vec2 f) { S s; s.a += 0.25; gs.b[1].y += 0.5; o = vec4(s.a + s.b[0].x, gs.b[1].y, 0.0, 1.0); }'
zcase "an out parameter read before it is written" "128 128 128" \
  'void mainImage(out vec4 o, in vec2 f) { o.rgb += vec3(0.5); o.a = 1.0; }'
zcase "an out parameter of a helper" "0 128 0" \
  'void h(in float k, out vec3 c) { c.g += k; }' \
  'void mainImage(out vec4 o, in vec2 f) { vec3 c = vec3(1.0); h(0.5, c); o = vec4(c, 1.0); }'
zcase "a type named by a macro" "128 0 0" \
  '#define V3 vec3' \
  'void mainImage(out vec4 o, in vec2 f) { V3 p; p.x += 0.5; o = vec4(p, 1.0); }'
zcase "declarations inside loops and blocks; constants and initialised ones untouched" "128 64 0" \
  'const float K = 0.25;' \
  'void mainImage(out vec4 o, in vec2 f) { float s = 0.0; for (int i = 0; i < 2; i++) { float t; t += K; s += t; }' \
  '  { vec2 q = vec2(0.25, 0.0); q.x += 0.0; o = vec4(s, q.x, 0.0, 1.0); } }'
# the JSON path: a global without initialiser in Common
cat > zc.json <<'EOF'
{ "renderpass": [
  { "type": "common", "code": "float counter;\n" },
  { "type": "image", "code": "void mainImage(out vec4 o, in vec2 f) { counter += 0.25; o = vec4(counter, 0.0, 0.0, 1.0); }", "inputs": [], "outputs": [] } ] }
EOF
check_px "zero-init: a global in Common (JSON)" "64 0 0" "$(centre zc.json)"
cat > zca.json <<'EOF'
{ "renderpass": [
  { "type": "common", "code": "const int N = 4;\nfloat acc[N];\n" },
  { "type": "image", "code": "void mainImage(out vec4 o, in vec2 f) { acc[3] += 0.25; o = vec4(acc[3] + acc[0], 0.0, 0.0, 1.0); }", "inputs": [], "outputs": [] } ] }
EOF
check_px "zero-init: a global array sized by a constant in Common (JSON)" "64 0 0" "$(centre zca.json)"
# errors still point at the line the user wrote (no line was added)
printf 'void mainImage(out vec4 o, in vec2 f) {\n  vec3 a;\n  float b;\n  o = vec4(a, nope);\n}\n' > zl.frag
"$bin" render zl.frag -o zl.png 2> zl.err
check "zero-init: a compile error keeps its line (zl.frag:4)" grep -q '^zl.frag:4:' zl.err

# ---- zero-initialisation of what only the preprocessor shows (a for's init, macro bodies) -------------
# the site's pixels for these are in tests/webgl/site/expected.txt; each fails with Mesa's undefined values
for f in forinit_uninit.glsl macro_local.glsl macro_mainimage_out.glsl macro_mainimage_out.json; do
  want=$(awk -v f="$f" '$1 == f { print $3, $4, $5 }' "$tests/webgl/site/expected.txt")
  check_px "zero-init: $f as on the site" "$want" "$(centre "$tests/webgl/site/$f")"
  check_px "zero-init: $f as on the site (--glsl es)" "$want" "$(centre "$tests/webgl/site/$f" --glsl es)"
done
zcase "a for's init without a value, alone and after an initialised name" "128 64 0" \
  'void mainImage(out vec4 o, in vec2 f) { o = vec4(0.0, 0.0, 0.0, 1.0);' \
  '  for (int i; i++ < 2;) o.r += 0.25;' \
  '  for (float k = 0.0, j; k < 2.0; k++) j += 0.125, o.g = j; }'
zcase "a local in a function-like macro's body, on a continuation line" "128 0 0" \
  '#define ACC(n) float pad = 1.0; \' \
  '  vec2 n;' \
  'void mainImage(out vec4 o, in vec2 f) { ACC(a) a.x += 0.5 * pad; o = vec4(a, 0.0, 1.0); }'
zcase "a helper's header made by a macro, the { after it in the text" "0 128 0" \
  '#define H void h(in float k, out vec3 c)' \
  'H { c.g += k; }' \
  'void mainImage(out vec4 o, in vec2 f) { vec3 c = vec3(1.0); h(0.5, c); o = vec4(c, 1.0); }'
zcase "a macro of members in a struct is left alone (a member takes no initialiser)" "128 0 0" \
  '#define MEMBERS float a; vec2 b;' \
  'struct S { MEMBERS };' \
  'void mainImage(out vec4 o, in vec2 f) { S s = S(0.5, vec2(0.0)); o = vec4(s.a, s.b, 1.0); }'
# every pass kind: Buffer A's and Cube A's headers made by a Common macro, a for's init in each, read by
# the Image; a directory toy; the Sound pass
python3 - <<'P' > zpass.json
import json, four_pass
common = "#define BUF void mainImage(out vec4 o, in vec2 f) {\n#define CUBE(o) void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd)\n"
buf = "BUF for (float i; i < 0.5; i += 0.25) o.r += 0.25; }\n"
cube = "CUBE(c) { for (float k = 0.0, v; k < 2.0; k++) v += 0.125, c.g = v; c.r += 0.0; }\n"
img = ("void mainImage(out vec4 o, in vec2 f) {\n"
       "    vec4 b = texelFetch(iChannel0, ivec2(0), 0);\n"
       "    o = vec4(b.r, texture(iChannel1, vec3(1.0, 0.0, 0.0)).g, b.g + b.b, 1.0);\n}\n")
four_pass.emit(common, buf, cube, img)
P
check_px "zero-init through macros in Buffer A and Cube A (JSON)" "128 64 0" "$(centre zpass.json)"
check_px "... with --glsl es" "128 64 0" "$(centre zpass.json --glsl es)"
mkdir -p zdir
printf '#define M void mainImage(out vec4 o, in vec2 f) {\n#define DECL vec2 acc;\n' > zdir/common.glsl
printf 'M DECL for (int i; i < 2; i++) acc += vec2(0.25, 0.125); o += vec4(acc, 0.0, 1.0); }\n' > zdir/image.glsl
check_px "zero-init through macros in a directory toy" "128 64 0" "$(centre zdir)"
check_px "... with --glsl es" "128 64 0" "$(centre zdir --glsl es)"
# Sound: a for's init and a macro's local; the WAV's first code is the site's for 0.25: 0.625 * 65536 - 32768
printf '#define DECL float acc;\nvec2 mainSound(int s, float t) { DECL for (int i; i++ < 2;) acc += 0.125; return vec2(acc, 0.0); }\n' > zsound.frag
"$bin" render zsound.frag -o zsound.wav --seconds 0.001 --quiet
check_eq "zero-init in a Sound pass: a for's init and a macro's local" 8192 \
  "$(python3 -c 'import struct, wave; print(struct.unpack("<h", wave.open("zsound.wav").readframes(1)[:2])[0])')"
# a compile error in a line whose macro body was rewritten still names that line
printf '#define DECL vec3 acc;\nvoid mainImage(out vec4 o, in vec2 f) {\n  DECL\n  o = vec4(acc, nope);\n}\n' > zml.frag
"$bin" render zml.frag -o zml.png 2> zml.err
check "zero-init through a macro: a compile error keeps its line (zml.frag:4)" grep -q '^zml.frag:4:' zml.err

# ---- dynamic indices clamped as the site's translator clamps them ----------------------------------------
# a write past a vec3's end lands on .z, a read past an array's end reads the last element (n is 5 at 320 wide)
check_px "index_clamp.glsl as on the site" "255 128 128" "$(centre "$tests/webgl/site/index_clamp.glsl" --size 320x180)"
check_px "index_clamp.glsl as on the site (--glsl es)" "255 128 128" "$(centre "$tests/webgl/site/index_clamp.glsl" --size 320x180 --glsl es)"
# n is 2 at 32 wide: a uint index past a global array sized by a constant, a matrix's column and row
# written past their ends, and a negative index (clamped to 0)
printf '%s\n' 'const int N = 4;' 'float perm[N];' \
  'void mainImage(out vec4 o, in vec2 f) {' \
  '  int n = int(iResolution.x) / 16; uint u = uint(n) * 7u;' \
  '  for (int i = 0; i < N; i++) perm[i] = 0.25 * float(i);' \
  '  mat2 m = mat2(0.0); m[n][n + 1] = 0.5; vec3 c = vec3(0.0); c[n - 3] = 0.25;' \
  '  o = vec4(perm[u] + m[1][0], m[1][1] * 0.5 + c.x, 0.0, 1.0);' \
  '}' > clampmix.frag
check_px "a uint index, a matrix, a negative index" "191 128 0" "$(centre clampmix.frag)"
check_px "... with --glsl es" "191 128 0" "$(centre clampmix.frag --glsl es)"
# a struct's array member and an array of structs, written and read past their ends (k is 32)
printf '%s\n' 'struct P { float v[2]; vec3 c; };' \
  'void mainImage(out vec4 o, in vec2 f) {' \
  '  int k = int(iResolution.x); P ps[2]; ps[k].v[k] = 0.5; ps[0].c[k] = 0.25;' \
  '  o = vec4(ps[1].v[1], ps[k].v[0], ps[0].c.z, 1.0);' \
  '}' > clampstruct.frag
check_px "struct members and arrays of structs" "128 0 64" "$(centre clampstruct.frag)"
check_px "... with --glsl es" "128 0 64" "$(centre clampstruct.frag --glsl es)"
# k is 32, each channel two clamps: a member array sized by a const written past its end (lands on
# v[1]) and before its start (v[0]) (R), one sized by a macro expression read past its end and before
# its start (G), and indices in #define bodies, perm written past its end and before its start and read
# so (B). llvmpipe itself already takes past-the-end indices of these to the last element (not the
# site's rule: undefined in GLSL, other drivers differ); the negative ones are what fail here unclamped
printf '%s\n' 'const int N = 2;' '#define M 1' 'struct S { float v[N]; vec2 w[M + 1]; };' 'float perm[4];' \
  '#define H(i) perm[(i)]' '#define SET(i, x) perm[i] = x' \
  'void mainImage(out vec4 o, in vec2 f) {' \
  '  int k = int(iResolution.x); S s; s.v[0] = 0.0; s.v[1] = 0.0; s.w[0] = vec2(0.0, 0.125); s.w[1] = vec2(0.0, 0.25);' \
  '  for (int i = 0; i < 4; i++) perm[i] = 0.0;' \
  '  s.v[k] = 0.5; s.v[-k] = 0.25; SET(k, 0.5); SET(-k, 0.25);' \
  '  o = vec4(s.v[1] + s.v[0], s.w[k].y + s.w[-k].y, H(k) + H(-k), 1.0);' \
  '}' > clampnamed.frag
check_px "a member array of a named size, indices in macro bodies" "191 96 191" "$(centre clampnamed.frag)"
check_px "... with --glsl es" "191 96 191" "$(centre clampnamed.frag --glsl es)"
# the same through Common: its const sizes the struct by a macro, its macro indexes its const array;
# Buffer A writes v past its end and before its start (R) and reads TAB past its end (G), the Image
# reads v past its end and TAB before its start (B)
python3 - <<'P' > cnamed.json
import json
common = ("const int N = 2;\n#define TWO N\nstruct S { float v[TWO]; };\n"
          "const float TAB[3] = float[3](0.125, 0.25, 0.5);\n#define T(i) TAB[(i)]\n")
buf = ("void mainImage(out vec4 o, in vec2 f) { int k = int(iResolution.x); S s; s.v[0] = 0.0; s.v[1] = 0.0;\n"
       "    s.v[k] = 0.5; s.v[-k] = 0.25; o = vec4(s.v[1] + s.v[0], T(k), 0.0, 1.0); }\n")
img = ("void mainImage(out vec4 o, in vec2 f) {\n"
       "    vec4 b = texelFetch(iChannel0, ivec2(0), 0); int k = int(iResolution.x);\n"
       "    S s; s.v[0] = 0.0; s.v[1] = 0.25;\n"
       "    o = vec4(b.r, b.g * 0.5, s.v[k] + T(-k), 1.0);\n}\n")
print(json.dumps({"renderpass": [
  {"type": "common", "code": common, "inputs": [], "outputs": []},
  {"type": "buffer", "name": "Buffer A", "code": buf, "inputs": [], "outputs": [{"id": 257, "channel": 0}]},
  {"type": "image", "code": img, "outputs": [], "inputs": [
    {"id": 257, "channel": 0, "type": "buffer", "sampler": {"filter": "nearest"}}]}]}))
P
check_px "a named size and a macro's index through Common (JSON)" "191 64 96" "$(centre cnamed.json)"
check_px "... with --glsl es" "191 64 96" "$(centre cnamed.json --glsl es)"
# every pass kind: Buffer A writes past a vec4's end, Cube A reads past an array of Common's end, the
# Image reads both; a directory toy; a Sound pass
python3 - <<'P' > cpass.json
import json, four_pass
common = "const float TAB[3] = float[3](0.0, 0.25, 0.5);\n"
buf = "void mainImage(out vec4 o, in vec2 f) { o = vec4(0.0); int k = int(iResolution.x); o[k] = 0.5; }\n"
cube = "void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd) { int k = int(iResolution.x); o = vec4(TAB[k]); }\n"
img = ("void mainImage(out vec4 o, in vec2 f) {\n"
       "    vec4 b = texelFetch(iChannel0, ivec2(0), 0);\n"
       "    o = vec4(b.a, texture(iChannel1, vec3(1.0, 0.0, 0.0)).g, b.r, 1.0);\n}\n")
four_pass.emit(common, buf, cube, img)
P
check_px "clamped indices in Buffer A, Cube A and Common's array (JSON)" "128 128 0" "$(centre cpass.json)"
check_px "... with --glsl es" "128 128 0" "$(centre cpass.json --glsl es)"
mkdir -p cdir
printf 'float tab[2] = float[2](0.25, 0.5);\n' > cdir/common.glsl
printf 'void mainImage(out vec4 o, in vec2 f) { int k = int(iResolution.x); o = vec4(tab[k], tab[-k], 0.0, 1.0); }\n' > cdir/image.glsl
check_px "clamped indices in a directory toy" "128 64 0" "$(centre cdir)"
check_px "... with --glsl es" "128 64 0" "$(centre cdir --glsl es)"
# Sound: the first sample reads an array past its end: 0.25, code 0.625 * 65536 - 32768
printf 'vec2 mainSound(int s, float t) { float a[2] = float[2](0.0, 0.25); return vec2(a[s + 9], 0.0); }\n' > csound.frag
"$bin" render csound.frag -o csound.wav --seconds 0.001 --quiet
check_eq "a clamped index in a Sound pass" 8192 \
  "$(python3 -c 'import struct, wave; print(struct.unpack("<h", wave.open("csound.wav").readframes(1)[:2])[0])')"
# errors keep the user's line and column start
printf 'void mainImage(out vec4 o, in vec2 f) {\n  vec3 c; int i = 1;\n  c[i] = 1.0;\n  o = vec4(c, nope);\n}\n' > cl.frag
"$bin" render cl.frag -o cl.png 2> cl.err
check "clamped indices: a compile error keeps its line (cl.frag:4)" grep -q '^cl.frag:4:' cl.err

# ---- built-ins of constant arguments folded as the site folds them: correctly rounded ------------------
check_px "const_fold.glsl as on the site" "255 255 255" "$(centre "$tests/webgl/site/const_fold.glsl")"
check_px "const_fold.glsl as on the site (--glsl es)" "255 255 255" "$(centre "$tests/webgl/site/const_fold.glsl" --glsl es)"
check_px "const_fold_names.glsl as on the site" "255 255 255" "$(centre "$tests/webgl/site/const_fold_names.glsl")"
# the values computed here (double, rounded once to float), not by ikshade: each call equals the float
# nearest its true value; a negative result, two arguments, a call in a call, f-suffixed and
# parenthesised arguments. fold.glsl's body is `o = vec4(EXPR ? 1.0 : 0.0, 0.25, 0.0, 1.0);`
python3 - <<'P' > fold_expr.txt
import math, struct
f = lambda x: struct.unpack('f', struct.pack('f', x))[0]
cases = [("acos(-0.5)", math.acos(-0.5)), ("atan(1.0, -2.0)", math.atan2(1, -2)),
         ("pow(2.0, 0.3)", math.pow(2, f(0.3))), ("exp(1.0)", math.e), ("log2(10.0)", math.log2(10)),
         ("sin(acos(0.25))", math.sin(f(math.acos(0.25)))), ("inversesqrt(3.0)", 1.0 / f(math.sqrt(3))),
         ("tan((1.5))", math.tan(1.5)), ("asin(0.3f)", math.asin(f(0.3))), ("cos(-2.5)", math.cos(-2.5))]
print(" && ".join("%s == %.9g" % (c, f(v)) for c, v in cases))
P
printf 'void mainImage(out vec4 o, in vec2 f) { o = vec4(%s ? 1.0 : 0.0, 0.25, 0.0, 1.0); }\n' "$(cat fold_expr.txt)" > fold.frag
check_px "ten built-ins of literals equal their correctly rounded floats" "255 64 0" "$(centre fold.frag)"
check_px "... with --glsl es" "255 64 0" "$(centre fold.frag --glsl es)"
# every pass kind: Common's function, Buffer A, Cube A, the Image; a directory toy; a Sound pass
python3 - "$(cat fold_expr.txt)" <<'P' > fpass.json
import json, sys, four_pass
e = sys.argv[1]
common = "float folded() { return %s ? 1.0 : 0.0; }\n" % e
buf = "void mainImage(out vec4 o, in vec2 f) { o = vec4(%s ? 1.0 : 0.0); }\n" % e
cube = "void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd) { o = vec4(%s ? 0.5 : 0.0); }\n" % e
img = ("void mainImage(out vec4 o, in vec2 f) {\n"
       "    o = vec4(texelFetch(iChannel0, ivec2(0), 0).r, texture(iChannel1, vec3(1.0, 0.0, 0.0)).g, folded(), 1.0);\n}\n")
four_pass.emit(common, buf, cube, img)
P
check_px "folded in Common, Buffer A and Cube A (JSON)" "255 128 255" "$(centre fpass.json)"
check_px "... with --glsl es" "255 128 255" "$(centre fpass.json --glsl es)"
mkdir -p fdir
printf 'const float K = acos(0.5);\n' > fdir/common.glsl
printf 'void mainImage(out vec4 o, in vec2 f) { o = vec4(K == 1.0471976 ? 1.0 : 0.0, 0.0, 0.0, 1.0); }\n' > fdir/image.glsl
check_px "folded in a directory toy's Common" "255 0 0" "$(centre fdir)"
check_px "... with --glsl es" "255 0 0" "$(centre fdir --glsl es)"
printf 'vec2 mainSound(int s, float t) { return vec2(%s ? 0.25 : 0.0, 0.0); }\n' "$(cat fold_expr.txt)" > fsound.frag
"$bin" render fsound.frag -o fsound.wav --seconds 0.001 --quiet
check_eq "folded in a Sound pass" 8192 \
  "$(python3 -c 'import struct, wave; print(struct.unpack("<h", wave.open("fsound.wav").readframes(1)[:2])[0])')"
# what is not folded stays as written and still compiles: undefined arguments, a call over two lines
printf 'void mainImage(out vec4 o, in vec2 f) { float a = acos(2.0) * 0.0, b = sin(\n0.5);\n  o = vec4(b > 0.47 ? 1.0 : 0.0, a, 0.0, 1.0); }\n' > nofold.frag
check_px "undefined arguments and a call over two lines are left to the compiler" "255 0 0" "$(centre nofold.frag)"
# arguments that are constant expressions of names: a file-scope const, an object-like macro (its body's
# call folded where it stands), a call inside a function-like macro's body; each operation rounded to
# float before the call (PI / 4.0 is float(pi) / 4). acos, asin, tan and tanh are the calls whose Mesa
# values differ from these; sin(PI / 4.0) and PD == 3.14159274 are the forms most toys write.
python3 - <<'P' > fname_expr.txt
import math, struct
f = lambda x: struct.unpack('f', struct.pack('f', x))[0]
pi, h = f(math.acos(-1.0)), f(0.3)
cases = [("sin(PI / 4.0)", math.sin(f(pi / 4))), ("acos(PI / 4.0)", math.acos(f(pi / 4))), ("acos(-H)", math.acos(-h)),
         ("asin(PD / 8.0)", math.asin(f(pi / 8))), ("PD", pi), ("tan(TAU / 6.0)", math.tan(f(f(2 * pi) / 6))),
         ("tanh(QPI)", math.tanh(f(pi / 4))), ("A7(1.0)", math.acos(f(-0.7))), ("acos(float(1) / 3.0)", math.acos(f(1 / 3)))]
print(" && ".join("%s == %.9g" % (c, f(v)) for c, v in cases))
P
printf 'const float PI = acos(-1.0), H = 0.3;\n#define PD acos(-1.)\n#define TAU (2.*acos(-1.))\n#define QPI (PD / 4.0)\n#define A7(x) (x * acos(-0.7))\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(%s ? 1.0 : 0.0, 0.25, 0.0, 1.0); }\n' \
  "$(cat fname_expr.txt)" > fname.frag
check_px "built-ins of consts' and macros' expressions equal their correctly rounded floats" "255 64 0" "$(centre fname.frag)"
check_px "... with --glsl es" "255 64 0" "$(centre fname.frag --glsl es)"
# Common's const and macro used in the Image
python3 - <<'P' > fcommon.json
import json, math, struct
f = lambda x: struct.unpack('f', struct.pack('f', x))[0]
pi = f(math.acos(-1.0))
common = "const float PI = acos(-1.0);\n#define HALF_PI (PI * 0.5)\n"
img = ("void mainImage(out vec4 o, in vec2 f) {\n"
       "    o = vec4(acos(PI / 4.0) == %.9g && asin(HALF_PI / 4.0) == %.9g ? 1.0 : 0.0, 0.0, 0.0, 1.0);\n}\n"
       % (f(math.acos(f(pi / 4))), f(math.asin(f(f(pi * 0.5) / 4)))))
print(json.dumps({"renderpass": [
  {"type": "common", "code": common, "inputs": [], "outputs": []},
  {"type": "image", "code": img, "inputs": [], "outputs": []}]}))
P
check_px "Common's const and macro folded in the Image (JSON)" "255 0 0" "$(centre fcommon.json)"
check_px "... with --glsl es" "255 0 0" "$(centre fcommon.json --glsl es)"
# a parameter of a const's name is the parameter: acos(K) there is not acos(0.3) (1.266 against 0.927)
printf 'const float K = 0.3;\nfloat g(float K) { return acos(K); }\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(abs(g(0.6) - 0.927295) < 1e-4 ? 1.0 : 0.0, 0.0, 0.0, 1.0); }\n' > fshadow.frag
check_px "a parameter named as a const is not folded with the const's value" "255 0 0" "$(centre fshadow.frag)"

# ---- default returns: a non-void function that runs off its end returns zero, as ANGLE makes it --------
# the site's pixels for the two reproducers are in tests/webgl/site/expected.txt (Mesa: 255 255 255, 255 64 0)
for f in missing_return.glsl missing_return_if.glsl; do
  want=$(awk -v f="$f" '$1 == f { print $3, $4, $5 }' "$tests/webgl/site/expected.txt")
  check_px "default return: $f as on the site" "$want" "$(centre "$tests/webgl/site/$f")"
  check_px "default return: $f as on the site (--glsl es)" "$want" "$(centre "$tests/webgl/site/$f" --glsl es)"
done
# every pass kind: a struct's zero from Common, an array's from a function defined in a Common macro's body
# (Buffer A), a header made by a macro (Cube A), an overload and a prototype (Image)
python3 - <<'P' > rpass.json
import json, four_pass
common = ("struct R { float v; vec2 w; };\n"
          "R common_r(float x) { if (x > 1e9) return R(1.0, vec2(1.0)); x *= 3.0; }\n"
          "#define DEF_ARR float[2] arr(float x) { for (int i = 0; i < 2; i++) { if (x > 1e9) return float[2](1.0, 1.0); x += 1.0; } }\n"
          "DEF_ARR\n")
buf = ("void mainImage(out vec4 o, in vec2 f) {\n"
       "    float[2] a = arr(f.x); R r = common_r(f.y);\n"
       "    o = vec4(0.25 + a[1] + r.v + r.w.x, 0.0, 0.0, 1.0);\n}\n")
cube = ("#define H vec3 cf(vec3 d)\nH { if (d.x > 1e9) return d; d *= 2.0; }\n"
        "void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd) { o = vec4(0.0, cf(rd).x + 0.5, 0.0, 1.0); }\n")
img = ("float h(float x);\nvec2 h(vec2 x) { return x; }\n"
       "void mainImage(out vec4 o, in vec2 f) {\n"
       "    vec4 b = texelFetch(iChannel0, ivec2(0), 0);\n"
       "    o = vec4(b.r, texture(iChannel1, vec3(1.0, 0.0, 0.0)).g, h(f.x) + h(vec2(0.0)).x, 1.0);\n}\n"
       "float h(float x) { if (x > 1e9) return x; x += 5.0; }\n")
four_pass.emit(common, buf, cube, img)
P
check_px "default returns in Common, Buffer A, Cube A and Image (JSON)" "64 128 0" "$(centre rpass.json)"
check_px "... with --glsl es" "64 128 0" "$(centre rpass.json --glsl es)"
# the zero of each kind of type: an array of a named size (a local filled by a loop), a matrix, bool,
# uint, ivec3; R = 0.25 + the zeros, G = 0.5 (bb() false), B = 0.25 (Mesa: 255 255 255)
printf '%s\n' 'const int N = 2;' \
  'float[N] an(float x) { for (int i = 0; i < 2; i++) { if (x > 1e9) return float[N](1.0, 1.0); x += 1.0; } }' \
  'mat2 m2(float x) { for (int i = 0; i < 2; i++) { if (x > 1e9) return mat2(1.0); x += 1.0; } }' \
  'bool bb(float x) { for (int i = 0; i < 2; i++) { if (x > 1e9) return true; x += 1.0; } }' \
  'uint uu(float x) { for (int i = 0; i < 2; i++) { if (x > 1e9) return 1u; x += 1.0; } }' \
  'ivec3 iv(float x) { for (int i = 0; i < 2; i++) { if (x > 1e9) return ivec3(1); x += 1.0; } }' \
  'void mainImage(out vec4 o, in vec2 f) {' \
  '  float[N] a = an(f.x); mat2 m = m2(f.x);' \
  '  o = vec4(0.25 + a[0] + a[1] + m[0][0] + m[1][1] + float(uu(f.x)), bb(f.x) ? 1.0 : 0.5, float(iv(f.x).y) + 0.25, 1.0);' \
  '}' > rforms.frag
check_px "default returns of arrays of a named size, matrices, bool, uint, ivec3" "64 128 64" "$(centre rforms.frag)"
check_px "... with --glsl es" "64 128 64" "$(centre rforms.frag --glsl es)"
# Sound: s() runs off its end after its loop (Mesa: 32512 here); the first code is the site's for 0.125:
# 0.5625 * 65536 - 32768
printf 'float s(float t) { for (int i = 0; i < 4; i++) { if (t > 1e9) return 1.0; t += 0.25; } }\nvec2 mainSound(int n, float t) { return vec2(s(t) + 0.125, 0.0); }\n' > rsound.frag
"$bin" render rsound.frag -o rsound.wav --seconds 0.001 --quiet
check_eq "a default return in a Sound pass" 4096 \
  "$(python3 -c 'import struct, wave; print(struct.unpack("<h", wave.open("rsound.wav").readframes(1)[:2])[0])')"
# an error in a function that gained its return still names the user's line
printf 'float g(float x) {\n  if (x > 1e9) return x;\n  x = nope;\n}\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(g(f.x)); }\n' > rl.frag
"$bin" render rl.frag -o rl.png 2> rl.err
check "default return: a compile error keeps its line (rl.frag:3)" grep -q '^rl.frag:3:' rl.err
# a function with no return at all is refused by the site's compiler ("function does not return a
# value"), and is still refused here, in the user's line
printf 'float g(float x) {\n  x *= 2.0;\n}\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(g(f.x)); }\n' > rn.frag
expect_fail "no return at all: still a compile error" 1 '^rn.frag:1:.*no return' "$bin" render rn.frag -o rn.png --quiet
expect_fail "... also with --glsl es" 1 '^rn.frag:1:.*no return' "$bin" render rn.frag -o rn.png --quiet --glsl es

# ---- uniforms ----------------------------------------------------------------------------------------
# iChannelTime: 0 for every channel that is not video or music, whatever iTime is
printf 'void mainImage(out vec4 o, in vec2 f) {\n  o = vec4(iChannelTime[0] + iChannelTime[1] + iChannelTime[2] + iChannelTime[3], iTime / 8.0, 0.0, 1.0);\n}\n' > chtime.frag
check_px "iChannelTime is 0 for a keyboard channel and for unbound ones" "0 128 0" \
  "$(centre chtime.frag --time 4 --channel0 keyboard)"


# ---- the site's strictness: what GLSL ES 3.00 would reject is a warning in the user's file:line ---------
# (glslangValidator in ES mode where installed, scripts/deps.sh installs it; else the GL's ES compiler)
command -v glslangValidator >/dev/null || { echo "FAIL: glslangValidator is not installed (scripts/deps.sh)" >&2; fail=$((fail + 1)); }
es_warn='warning: shadertoy.com \(GLSL ES 3.00\) rejects this'
printf 'void mainImage(out vec4 o, in vec2 f) {\n    float x = 1;\n    o = vec4(x, f / iResolution.xy, 1.0);\n}\n' > int.frag
"$bin" render int.frag -o int.png --size 8x8 --quiet 2> int.err; rc=$?
check "int-to-float: the render still works" [ "$rc" -eq 0 ]
check "... and writes the picture" [ -s int.png ]
check "int-to-float: a warning at int.frag:2 from glslang" grep -qE "^int.frag:2: $es_warn, says glslang: .*convert from 'const int' to 'temp highp float'" int.err
check "int-to-float: one line" [ "$(grep -c . int.err)" -eq 1 ]
IKSHADE_GLSLANG=none "$bin" render int.frag -o int.png --size 8x8 --quiet 2> int2.err
check "int-to-float without glslang: the GL's ES compiler says so at int.frag:2[:COL]" grep -qE "^int.frag:2(:[0-9]+)?: $es_warn, says the GL's ES compiler" int2.err
printf 'void mainImage(out vec4 o, in vec2 f) {\n    o = vec4(0.5);\n    o += texture2D(iChannel0, f / iResolution.xy);\n}\n' > t2d.frag
"$bin" render t2d.frag -o t2d.png --size 8x8 --quiet 2> t2d.err
check "texture2D (a desktop name; Mesa's ES accepts it, the site does not): warned at t2d.frag:3" grep -qE "^t2d.frag:3: $es_warn, says glslang: 'texture2D'" t2d.err
"$bin" render int.frag -o int.png --size 8x8 --quiet --no-es-check 2> int3.err
check "--no-es-check: no warning" [ ! -s int3.err ]
# T() passes a one-parameter macro one empty argument (C's preprocessor and ANGLE's); glslang counts
# none, which the site never says
printf '#define T(a) (a 0.5)\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(T(), T( ), 0.0, 1.0); }\n' > emptyarg.frag
"$bin" render emptyarg.frag -o ea.png --size 8x8 --quiet 2> ea.err
check "an empty macro argument T(): no warning" [ ! -s ea.err ]
check_px "... and it renders" "128 128 0" "$(png pixel ea.png 4 4)"
printf '#define T(a, b) (a 0.5)\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(T(1.0), 0.0, 0.0, 1.0); }\n' > fewargs.frag
"$bin" render fewargs.frag -o fa.png --size 8x8 --quiet 2> fa.err
check "... while a two-parameter macro given one argument is still an error" grep -q "^fewargs.frag:2" fa.err
printf 'void mainImage(out vec4 o, in vec2 f) { o = vec4(f / iResolution.xy, 0.5, 1.0); }\n' > clean.frag
"$bin" render clean.frag -o clean.png --size 8x8 --quiet 2> clean.err
check "a shader the site compiles: no warning" [ ! -s clean.err ]
# a file that #includes (ikshade's extension, as the demos do) or has its own main() is not the site's
"$bin" render "$tests/../shaders/limb.frag" -o limb.png --size 8x8 --quiet 2> limb.err
check "limb.frag (#include, uniform defaults): not checked, no warning" [ ! -s limb.err ]
printf '#version 330 core\nout vec4 c;\nvoid main() { float x = 1; c = vec4(x); }\n' > ownmain.frag
"$bin" render ownmain.frag -o own.png --size 8x8 --quiet 2> own.err
check "a file with its own #version and main(): not checked" [ ! -s own.err ]
printf 'uniform float gain = 0.5;   // a knob for --set gain=...\nvoid mainImage(out vec4 o, in vec2 f) { float uniformity = 1.0; o = vec4(gain * uniformity); }\n' > knob.frag
"$bin" render knob.frag -o knob.png --size 8x8 --quiet --set gain=0.25 2> knob.err
check "a uniform with a value (a --set knob, ikshade's): not checked" [ ! -s knob.err ]
printf 'void mainImage(out vec4 o, in vec2 f) { float uniformity = 1; o = vec4(uniformity); }\n' > uty.frag
"$bin" render uty.frag -o uty.png --size 8x8 --quiet 2> uty.err
check "a name that starts with 'uniform' is no knob: checked" grep -qE "^uty.frag:1: $es_warn" uty.err
# a JSON (built as ES, which Mesa's front end passes): the pass and Common are named as in errors
cat > strict.json <<'EOF'
{ "renderpass": [
  { "type": "common", "code": "float half_of(float v) { return v * 0.5; }\n", "inputs": [], "outputs": [] },
  { "type": "buffer", "name": "Buffer A", "code": "void mainImage(out vec4 o, in vec2 f) {\n  o = vec4(half_of(1.0));\n  o.x = texture2D(iChannel0, f).x;\n}\n", "inputs": [], "outputs": [ { "id": 257, "channel": 0 } ] },
  { "type": "image", "code": "void mainImage(out vec4 o, in vec2 f) { o = vec4(0.5); }", "inputs": [], "outputs": [] } ] }
EOF
"$bin" render strict.json -o sj.png --size 8x8 --quiet 2> sj.err
sed 's/return v \* 0.5;/return v * 0.5 + texture2D(iChannel0, vec2(0.0)).x * 0.0;/' strict.json > strict2.json
"$bin" render strict2.json -o sj2.png --size 8x8 --quiet 2> sj2.err
check "JSON: Common's line named" grep -qE "^strict2.json\[Common\]:1: $es_warn" sj2.err
check "JSON: Common's error said once, not once per pass" [ "$(grep -c 'Common' sj2.err)" -eq 1 ]
check "JSON: Buffer A's line named" grep -qE "^strict.json\[Buffer A\]:3: $es_warn" sj.err
# the validator is an outside program: one that cannot be run, or quits without reading, costs a warning
IKSHADE_GLSLANG=/nonexistent/glslangValidator "$bin" render int.frag -o int.png --size 8x8 --quiet 2> nv.err; rc=$?
check "a validator that cannot be run: render works" [ "$rc" -eq 0 ]
check "... with one warning" [ "$(grep -c . nv.err)" -eq 1 ]
check "... naming it" grep -q "/nonexistent/glslangValidator could not be run" nv.err
big=$(printf 'void mainImage(out vec4 o, in vec2 f) {\n'; for k in $(seq 4000); do printf '    o.x += float(%d) * 1e-9;\n' "$k"; done; printf '}\n')
printf '%s\n' "$big" > big.frag
IKSHADE_GLSLANG=/bin/true "$bin" render big.frag -o big.png --size 8x8 --quiet 2> bt.err; rc=$?
check "a validator that quits without reading a long shader: no SIGPIPE, render works" [ "$rc" -eq 0 ]
check "... and writes the picture" [ -s big.png ]
# --each: a column with the verdict
mkdir esdir; cp int.frag clean.frag ownmain.frag esdir/
"$bin" render --each esdir --size 8x8 > each.md 2>/dev/null
check "--each: 1 error for int.frag" grep -qE '^\| int.frag \| ok \| [0-9.]+ \| 1 error \| esdir/int.frag:2: warning' each.md
check "--each: ok for clean.frag" grep -qE '^\| clean.frag \| ok \| [0-9.]+ \| ok \|' each.md
check "--each: - for a file the site never sees" grep -qE '^\| ownmain.frag \| ok \| [0-9.]+ \| - \|' each.md

# ---- __LINE__: the lines the site puts before the toy, per pass type -----------------------------------
# The site compiles its WebGL2 prefix (6 lines), effect.js's header for the pass type, then Common and a
# newline, then the pass, with no #line. With four channels the headers are 47 lines (Image), 21 (Buffer),
# 24 (Cube A) and 14 (Sound), so line n of a pass is line n + 53, n + 27, n + 30, n + 20, plus Common's
# lines and one. The expected numbers are counted here from those, not taken from ikshade.
site=$tests/webgl/site
check_eq "__LINE__ in an Image file: 3 + 53" "56 0 0" "$(centre "$site/line_macro.glsl")"
check_eq "... the same with --glsl es" "56 0 0" "$(centre "$site/line_macro.glsl" --glsl es)"
# Common is "// common\n#define LC __LINE__\n": two lines and the site's newline; LC expands on line 3
check_eq "__LINE__ in a JSON's Image after Common: 3 + 53 + 3, also through Common's macro" "59 59 0" \
  "$(centre "$site/line_macro.json")"
check_eq "... the same built as GLSL 3.30" "59 59 0" "$(centre "$site/line_macro.json" --glsl 330)"
mkdir -p linedir
printf '// common\n#define LC __LINE__\n' > linedir/common.glsl
printf '// __LINE__ in Image, after a 2-line Common\nvoid mainImage(out vec4 o, in vec2 f) {\n    o = vec4(float(__LINE__) / 255.0, float(LC) / 255.0, 0.0, 1.0);\n}\n' > linedir/image.glsl
check_eq "... the same for a directory toy" "59 59 0" "$(centre linedir)"
check_eq "... and with --glsl es" "59 59 0" "$(centre linedir --glsl es)"
# a Common without a final newline gets none of its own: one line less
printf '#define LC __LINE__' > linedir/common.glsl
check_eq "a Common of one line with no newline: 3 + 53 + 1" "57 57 0" "$(centre linedir)"
# __LINE__ in Common itself (line 2), seen from the Image: 2 + 53
printf '// common\nconst float CL = float(__LINE__);\n' > linedir/common.glsl
printf 'void mainImage(out vec4 o, in vec2 f) { o = vec4(CL / 255.0, 0.0, 0.0, 1.0); }\n' > linedir/image.glsl
check_eq "__LINE__ in Common, compiled in the Image pass: 2 + 53" "55 0 0" "$(centre linedir)"
# Buffer A (line 2: 2 + 27, and Common's line 2 inside it: 2 + 27) and Cube A (line 2: 2 + 30), read by
# the Image; the values are written as floats and read back exactly
python3 - <<'P' > lines.json
import json, four_pass
common = "// common\nconst float CL = float(__LINE__);\n"
buf = "void mainImage(out vec4 o, in vec2 f) {\n    o = vec4(float(__LINE__), CL, 0.0, 1.0);\n}\n"
cube = "void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd) {\n    o = vec4(float(__LINE__));\n}\n"
img = ("void mainImage(out vec4 o, in vec2 f) {\n"
       "    vec4 b = texelFetch(iChannel0, ivec2(0), 0);\n"
       "    o = vec4(b.x / 255.0, b.y / 255.0, texture(iChannel1, vec3(1.0, 0.0, 0.0)).x / 255.0, 1.0);\n}\n")
four_pass.emit(common, buf, cube, img)
P
check_eq "__LINE__ in Buffer A (2 + 27 + 3 for Common), Common in it (2 + 27), Cube A (2 + 30 + 3)" "32 29 35" \
  "$(centre lines.json)"
check_eq "... the same built as GLSL 3.30" "32 29 35" "$(centre lines.json --glsl 330)"
# Sound: line 1 is 1 + 20; the WAV holds the site's 16-bit code of 21/1024: (0.5 + 0.5 * 21/1024) * 65536 - 32768
printf 'vec2 mainSound(int s, float t) { return vec2(float(__LINE__) / 1024.0, 0.0); }\n' > line_sound.frag
"$bin" render line_sound.frag -o line_sound.wav --seconds 0.001 --quiet
check_eq "__LINE__ in a sound pass: 1 + 20" 672 \
  "$(python3 -c 'import struct, wave; print(struct.unpack("<h", wave.open("line_sound.wav").readframes(1)[:2])[0])')"
# the user's lines are still named in errors, the padding notwithstanding
printf 'void mainImage(out vec4 o, in vec2 f) {\n    o = vec4(undeclared_name);\n}\n' > lineerr.frag
"$bin" render lineerr.frag -o e.png --size 8x8 --quiet 2> lineerr.err
check "a compile error still names the user's file and line" grep -q "^lineerr.frag:2:.*undeclared_name" lineerr.err
python3 - <<'P' > lineerr.json
import json
print(json.dumps({"renderpass": [
  {"type": "common", "code": "// common\n#define LC __LINE__\n", "inputs": [], "outputs": []},
  {"type": "image", "code": "void mainImage(out vec4 o, in vec2 f) {\n    o = vec4(undeclared_name);\n}\n", "inputs": [], "outputs": []}]}))
P
"$bin" render lineerr.json -o e.png --size 8x8 --quiet 2> lineerrj.err
check "... and a JSON pass's line after Common" grep -q "^lineerr.json\[Image\]:2:.*undeclared_name" lineerrj.err

finish
