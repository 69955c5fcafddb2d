#!/usr/bin/env bash
# #iUniform parameters through the program: the defaults drawn in every pass and path (a file, --glsl es,
# a JSON's Common), --set over them, a value past a declared range warned about and still used, a
# malformed line refused in one line with nothing written, and the demos' parameters.
# Colours avoid 0.5 x 255 ties, which drivers may round either way.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 src=$2
png() { /usr/bin/python3 "$src/tests/png.py" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

cat > p.frag <<'GLSL'
#iUniform float level = 0.4 in { 0.0, 1.0 } step 0.05 // a slider
#iUniform color3 tint = color3(1.0, 0.5, 0.0)
#iUniform int n = 3 in { 1, 15 }
#iUniform bool on = true
#ifdef NOT_DEFINED
#iUniform float dead = oops
#endif
void mainImage(out vec4 o, in vec2 f) {
    o = vec4(tint * level * float(n) / 3.0, 1.0);
    if (!on) o = vec4(0.0, 0.0, 1.0, 1.0);
}
GLSL
"$bin" render p.frag -o a.png --size 8x8 --quiet
check_eq "the defaults: 0.4 x (1, 0.5, 0) x 3/3" "102 51 0" "$(png pixel a.png 4 4)"
"$bin" render p.frag -o es.png --size 8x8 --quiet --glsl es
check_eq "... also as GLSL ES, which has no uniform initialisers" "102 51 0" "$(png pixel es.png 4 4)"
"$bin" render p.frag -o b.png --size 8x8 --quiet --set level=0.8 --set n=3 --set tint=0.5,1,0.25
check_eq "--set over the defaults" "102 204 51" "$(png pixel b.png 4 4)"
"$bin" render p.frag -o off.png --size 8x8 --quiet --set on=0
check_eq "a bool toggled off" "0 0 255" "$(png pixel off.png 4 4)"
err=$("$bin" render p.frag -o c.png --size 8x8 --set level=2 2>&1 >/dev/null); rc=$?
check "a value past the range: still rendered (exit $rc)" [ $rc -eq 0 -a -f c.png ]
check "... with a warning naming the uniform and its range ($err)" grep -q "uniform 'level': 2 is outside its declared range 0 .. 1" <<<"$err"
check_eq "... and the value used: 2 x (1, 0.5, 0), clamped by the store" "255 255 0" "$(png pixel c.png 4 4)"
err=$("$bin" render p.frag -o d.png --size 8x8 --set level=1 2>&1 >/dev/null)
check "a value at the range's end: no warning ($err)" bash -c '! grep -q outside <<<"$1"' _ "$err"

printf '// a parameter\n#iUniform float x = 1.0 in { 1.0, 0.0 }\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(x); }\n' > bad.frag
expect_fail "a malformed #iUniform: one line with the file, the line and why" 1 \
  '^ikshade render: bad.frag:2: malformed #iUniform: the range \{ 1, 0 \} is empty' "$bin" render bad.frag -o bad.png
check "... and no file written" test ! -e bad.png
printf '#iUniform mat3 m\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(1.0); }\n' > bad2.frag
expect_fail "a type that cannot be a parameter" 1 "bad2.frag:1: malformed #iUniform: type 'mat3' cannot be a parameter" \
  "$bin" render bad2.frag -o bad.png

# the site's check (GLSL ES 3.00) is for toys meant for the site: a file with #iUniform lines is not one
printf 'void mainImage(out vec4 o, in vec2 f) { float x = 1; o = vec4(x); }\n' > site.frag
printf '#iUniform float k = 0.5\nvoid mainImage(out vec4 o, in vec2 f) { float x = 1; o = vec4(x * k); }\n' > mine.frag
err=$("$bin" render site.frag -o s.png --size 8x8 2>&1 >/dev/null)
check "a toy for the site is checked as the site's GLSL ES ($err)" grep -q "shadertoy.com" <<<"$err"
err=$("$bin" render mine.frag -o m.png --size 8x8 2>&1 >/dev/null)
check "... a toy with #iUniform parameters is not ($err)" bash -c '! grep -q "shadertoy.com" <<<"$1"' _ "$err"

# a JSON: the parameter declared in Common reaches Buffer A and the Image, its default in both
python3 - <<'PY'
import json
common = "#iUniform float k = 0.2 in { 0.0, 1.0 }\n"
a = "void mainImage(out vec4 c, in vec2 p) { c = vec4(k, 0.0, 0.0, 1.0); }"
img = "void mainImage(out vec4 c, in vec2 p) { c = vec4(texelFetch(iChannel0, ivec2(p), 0).r, k * 2.0, 0.0, 1.0); }"
buf = {"id": "4dXGR8", "type": "buffer", "channel": 0}
toy = {"Shader": {"info": {"name": "params"}, "renderpass": [
    {"type": "common", "name": "Common", "inputs": [], "outputs": [], "code": common},
    {"type": "buffer", "name": "Buffer A", "inputs": [], "outputs": [{"id": "4dXGR8", "channel": 0}], "code": a},
    {"type": "image", "name": "Image", "inputs": [buf], "outputs": [], "code": img}]}}
json.dump(toy, open("p.json", "w"))
PY
"$bin" render p.json -o j.png --size 8x8 --quiet
check_eq "JSON: Common's parameter has its default in Buffer A and the Image" "51 102 0" "$(png pixel j.png 4 4)"
"$bin" render p.json -o j2.png --size 8x8 --quiet --set k=0.6
check_eq "... and --set reaches both" "153 255 0" "$(png pixel j2.png 4 4)"

# the demos declare theirs: a --set moves the limb's joint where `ikshade solve` puts it
check "the limb demo declares r1 with a range" grep -qE '^#iUniform float r1 = 0\.55 in \{' "$src/shaders/limb.frag"
check "the creature demo declares its own" grep -qE '^#iUniform float stride = ' "$src/shaders/creature.frag"
"$bin" render limb -o limb.png --size 640x360 --time 1.5 --mouse 400,200 --set r1=0.7 --quiet
check "limb with r1=0.7: joint and bones where ikshade solve puts them" \
  png limb limb.png 400 200 "$bin" 0.7 0.38
finish
