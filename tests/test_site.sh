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

# centre: renders FILE [OPTIONS] at 32x18 and prints the centre pixel's RGB ("" when render failed)
centre() {
  local f=$1; shift
  rm -f c.png
  "$bin" render "$f" -o c.png --size 32x18 --quiet "$@" 2>c.err && png pixel c.png 16 9
}

# ---- the entry point ---------------------------------------------------------------------------------
# a main() that the preprocessor skips is not the file's own: the prelude (iTime) is still added
printf 'void mainImage(out vec4 o, in vec2 f) { o = vec4(iTime / 4.0, 0.0, 0.0, 1.0); }\n#ifdef GLSLSANDBOX\nvoid main() { mainImage(gl_FragColor, gl_FragCoord.xy); }\n#endif\n' > sandbox.frag
check_eq "main() under #ifdef GLSLSANDBOX: the prelude is added" "128 0 0" "$(centre sandbox.frag --time 2)"
# ... and the same under #if 0, and after an #else of a defined macro
printf '#define SITE\nvoid mainImage(out vec4 o, in vec2 f) { o = vec4(iTime / 4.0, 0.0, 0.0, 1.0); }\n#ifndef SITE\nvoid main() {}\n#endif\n#if 0\nvoid main() {}\n#endif\n' > ifndef.frag
check_eq "main() under #ifndef of a defined macro and #if 0: the prelude is added" "128 0 0" "$(centre ifndef.frag --time 2)"
# a file with its own live main() is still its own program (no prelude, no wrapper)
printf 'out vec4 c;\nvoid main() { c = vec4(0.0, 1.0, 0.0, 1.0); }\n' > own.frag
check_eq "a live main(): the file is its own program" "0 255 0" "$(centre own.frag)"
# code golf: mainImage as a macro of statements, expanded by the wrapper's call as on the site
printf '#define mainImage(O, U) \\\n  O = vec4(step(16.0, U.x), 0.25, 0.0, 1.0)\n' > golf.frag
check_eq "mainImage defined as a macro compiles with the wrapper" "255 64 0" "$(centre golf.frag)"
# a file with no mainImage at all: one line, exit 1, and --each calls it an include file
printf 'float helper(float x) { return 2.0 * x; }\n' > helper.glsl
expect_fail "no mainImage and no main(): one line, not the compiler's" 1 "helper.glsl: defines neither mainImage" \
  "$bin" render helper.glsl -o h.png
mkdir -p each && cp golf.frag helper.glsl each/
"$bin" render --each each > each.md 2>/dev/null
check "--each: the macro toy renders and the include file is skipped" \
  bash -c 'grep -q "| golf.frag | ok |" each.md && grep -q "| helper.glsl | skipped |" each.md'

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
  check_eq "'$w' as a variable's name" "128 0 0" "$(centre $w.frag)"
  check_eq "'$w' as a variable's name (--glsl es)" "128 0 0" "$(centre $w.frag --glsl es)"
done

# ---- uniforms ----------------------------------------------------------------------------------------
# iChannelTime: 0 for every channel that is not video or music, whatever iTime is
printf 'void mainImage(out vec4 o, in vec2 f) {\n  o = vec4(iChannelTime[0] + iChannelTime[1] + iChannelTime[2] + iChannelTime[3], iTime / 8.0, 0.0, 1.0);\n}\n' > chtime.frag
check_eq "iChannelTime is 0 for a keyboard channel and for unbound ones" "0 128 0" \
  "$(centre chtime.frag --time 4 --channel0 keyboard)"

finish
