#!/usr/bin/env bash
# test_embed.sh SRC BUILD IKSHADE: the library as another project uses it. Installs the build into a
# fresh prefix and, through pkg-config and that prefix alone (no -I or -L into the source or build
# tree), builds and runs the examples: render_frame.c (libikshade), solve.c (libik, no GL), and
# render_frame.py (ctypes + numpy); their pictures must equal `ikshade render`'s. Then the installed
# program renders with the installed shaders.
set -u
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd) bin=$3
pass=0 fail=0
# check DESC CMD...: passes when CMD succeeds; on failure prints what was expected and what CMD said
check() {
  local what=$1 out; shift
  if out=$("$@" 2>&1); then pass=$((pass+1))
  else fail=$((fail+1)); printf 'FAIL: %s\n  expected: success of: %s\n  got: %s\n' "$what" "$*" "${out:-(no output)}" >&2
  fi
}
# check_eq DESC WANT GOT
check_eq() {
  if [ "$2" = "$3" ]; then pass=$((pass+1))
  else fail=$((fail+1)); printf 'FAIL: %s\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3" >&2
  fi
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
png() { python3 "$src/tests/png.py" "$@"; }
# same_pixels A B: every pixel equal (png.py diff with no tolerance: more than 0 of them off by more than 0)
same_pixels() { png diff "$1" "$2" 0 0; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset IKSHADE_SHADERS IKSHADE_LIB
prefix=$tmp/p

# ---- install, and find what GNUInstallDirs chose (lib, or lib/<multiarch> under /usr) ----
check "cmake --install into a fresh prefix" cmake --install "$build" --prefix "$prefix"
pc=$(find "$prefix" -name ikshade.pc -print -quit)
lib=$(find "$prefix" -name 'libikshade.so' -print -quit)
check "ikshade.pc installed" test -n "$pc"
check "libikshade.so installed" test -n "$lib"
if [ -z "$pc" ] || [ -z "$lib" ]; then finish; exit 1; fi
libdir=$(dirname "$lib")
check "ik.pc beside ikshade.pc" test -f "$(dirname "$pc")/ik.pc"
check "headers installed" test -f "$prefix/include/ikshade/ikshade.h" -a -f "$prefix/include/ikshade/ik.h"
check "shaders installed" test -f "$prefix/share/ikshade/shaders/limb.frag" -a -f "$prefix/share/ikshade/shaders/ik.glsl"
export PKG_CONFIG_PATH=$(dirname "$pc")
# A sanitized build (make test-asan) makes sanitized libraries: programs using them are built with the
# same flags (the ASan runtime must come first), and Python gets the runtime preloaded.
san=() py_env=()
if readelf -d "$lib" | grep -q 'NEEDED.*libasan'; then
  san=(-fsanitize=address,undefined)
  py_env=(LD_PRELOAD="$(cc -print-file-name=libasan.so)" ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0")
  echo "note: sanitized build: examples built with ${san[*]}, python3 with libasan preloaded" >&2
fi

# ---- pkg-config: both packages, pointing into the prefix only ----
check "pkg-config --cflags --libs ikshade" pkg-config --cflags --libs ikshade
check "pkg-config --cflags --libs ik" pkg-config --cflags --libs ik
flags="$(pkg-config --cflags --libs ikshade) $(pkg-config --cflags --libs ik)"
check "pkg-config flags name the prefix, not the source or build tree ($flags)" \
  bash -c '[[ "$1" == *"$2"* && "$1" != *"$3"* && "$1" != *"$4"* ]]' _ "$flags" "$prefix" "$src/" "$build/"
hv=$(awk '/#define IKSHADE_VERSION_(MAJOR|MINOR|PATCH) /{v = v (v == "" ? "" : ".") $3} END {print v}' \
  "$prefix/include/ikshade/ikshade.h")
check_eq "pkg-config --modversion ikshade is the installed header's version" "$hv" "$(pkg-config --modversion ikshade)"

# ---- examples/render_frame.c, built from a copy outside the source tree ----
mkdir -p "$tmp/ex"
cp "$src/examples/render_frame.c" "$src/examples/solve.c" "$tmp/ex/"
cd "$tmp/ex"
check "render_frame.c builds with pkg-config ikshade alone" \
  bash -c 'cc -std=c11 -Wall -Wextra -Werror "${@}" $(pkg-config --cflags ikshade) render_frame.c $(pkg-config --libs ikshade) -o render_frame' _ "${san[@]}"
check "render_frame runs against the installed library" \
  env LD_LIBRARY_PATH="$libdir" ./render_frame "$tmp/c.png"
check "... and loads the prefix's libikshade" \
  bash -c 'LD_LIBRARY_PATH="$1" ldd ./render_frame | grep -q "libikshade.so.* => $1/"' _ "$libdir"
check_eq "render_frame wrote a 640x360 RGB PNG" "640 360 3" "$(png info "$tmp/c.png" 2>&1)"
# the INIT macros of the sized descriptions, without a warning, in every language the header serves
cat > inits.c <<'C'
#include <ikshade/ikshade.h>
int main(void) {
  iks_toy_desc t = IKS_TOY_DESC_INIT;
  iks_live_desc l = IKS_LIVE_DESC_INIT;
  iks_draw_desc d = IKS_DRAW_DESC_INIT;
  iks_channel_desc c = IKS_CHANNEL_DESC_INIT;
  return t.struct_size == sizeof t && l.struct_size == sizeof l && d.struct_size == sizeof d &&
         c.struct_size == sizeof c ? 0 : 1;
}
C
cp inits.c inits.cpp
for std in c99 c11 c2x; do
  check "IKS_*_DESC_INIT: -std=$std -Wall -Wextra -pedantic -Werror, struct_size set" \
    bash -c 'cc -std=$1 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags ikshade) inits.c -o inits && ./inits' _ "$std"
done
for std in c++11 c++20; do
  check "IKS_*_DESC_INIT: -std=$std -Wall -Wextra -pedantic -Werror, struct_size set" \
    bash -c 'c++ -std=$1 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags ikshade) inits.cpp -o inits && ./inits' _ "$std"
done
check "render_frame with no argument writes limb.png" env LD_LIBRARY_PATH="$libdir" ./render_frame
check "... which is the same picture" cmp limb.png "$tmp/c.png"

# the same frame from the command line: the pixels must be identical (the same driver draws the same
# program with the same uniforms; iMouse (400,200,400,200) with w > 0 is --mouse 400,200 on frame 0)
check "ikshade render of the reference" \
  "$bin" render "$src/shaders/limb.frag" -o "$tmp/ref.png" --size 640x360 --time 1.5 --mouse 400,200 --quiet
check "render_frame's picture equals ikshade render's, pixel for pixel" same_pixels "$tmp/c.png" "$tmp/ref.png"

# with the source tree's shaders out of sight (a private mount namespace), the installed library finds
# the prefix's share/ikshade/shaders by itself
if [ "$(id -u)" = 0 ]; then ns=(unshare -m); else ns=(unshare -r -m); fi
if "${ns[@]}" true 2>/dev/null; then
  mkdir -p "$tmp/empty"
  hidden() { "${ns[@]}" bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ "$tmp/empty" "$src/shaders" "$@"; }
  out=$(hidden env LD_LIBRARY_PATH="$libdir" ./render_frame "$tmp/c2.png" 2>&1)
  used=$(sed -n 's/^shaders: //p' <<<"$out")
  check_eq "source shaders hidden: render_frame uses the prefix's shaders" \
    "$(readlink -f "$prefix/share/ikshade/shaders")" "$( [ -n "$used" ] && readlink -f "$used" || echo "$out")"
  check "... and draws the same picture" cmp "$tmp/c2.png" "$tmp/c.png"
  check "source shaders hidden: installed ikshade renders the demo" \
    hidden "$prefix/bin/ikshade" render -o "$tmp/h.png" --size 64x36 --quiet
  check_eq "... a 64x36 PNG" "64 36 3" "$(png info "$tmp/h.png" 2>&1)"
else
  echo "note: no mount namespace here (unshare); the installed shaders were not tested with the source tree hidden" >&2
fi

# ---- examples/solve.c: libik alone, nothing of GL ----
check "solve.c builds with pkg-config ik alone" \
  bash -c 'cc -std=c11 -Wall -Wextra -Werror "${@}" $(pkg-config --cflags ik) solve.c $(pkg-config --libs ik) -o solve' _ "${san[@]}"
out=$(env LD_LIBRARY_PATH="$libdir" ./solve 2>&1)
check "solve runs and prints every status" \
  bash -c 'for s in reached too-far too-near degenerate; do grep -q " $s " <<<"$1" || exit 1; done' _ "$out"
joint=$(grep -m1 '^reached ' <<<"$out" | grep -o 'reached *joint ([^)]*)' | tr -d '(),' | awk '{print $3, $4}')
check "solve: (1,1) with r1 = r2 = 1 puts the joint at (0, 1) to 1e-6 (got: $joint)" \
  awk -v j="$joint" 'BEGIN { split(j, v, " "); exit !(j != "" && v[1]^2 < 1e-12 && (v[2] - 1)^2 < 1e-12) }'
needed=$(readelf -d solve | grep NEEDED)
check "solve needs libik and no GL, EGL, GLFW or libikshade (NEEDED: $(grep -o '\[.*\]' <<<"$needed" | tr '\n' ' '))" \
  bash -c 'grep -q "\[libik\.so" <<<"$1" && ! grep -Eq "libGL|libEGL|libOpenGL|libGLdispatch|libglfw|libikshade" <<<"$1"' _ "$needed"
check "libik.so itself needs no GL" \
  bash -c '! readelf -d "$1" | grep NEEDED | grep -Eq "libGL|libEGL|libOpenGL|libglfw|libikshade"' _ "$libdir/libik.so"

# ---- examples/render_frame.py: ctypes + numpy against the installed library ----
py=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
  fail=$((fail+1)); echo "FAIL: no python3 with numpy (Debian: apt-get install python3-numpy); render_frame.py not run" >&2
else
  # its ctypes structs against the header's layout: unit.lists (tests/test_lists.py), in the fast tier,
  # with the C side made from the example's own field names rather than a second list here

  # LD_LIBRARY_PATH as for any library in a prefix the loader does not search: libikshade.so has no
  # RUNPATH, and may need libik.so.0 beside it
  out=$(env "${py_env[@]}" LD_LIBRARY_PATH="$libdir" IKSHADE_LIB="$libdir/libikshade.so" \
        "$py" "$src/examples/render_frame.py" "$tmp/py.png" 2>&1)
  rc=$?
  check_eq "render_frame.py runs (exit 0)" "exit 0" "exit $rc$( [ $rc = 0 ] || printf ': %s' "$out")"
  check "render_frame.py uses the installed library" grep -q "from $libdir/libikshade.so" <<<"$out"
  check_eq "render_frame.py: the numpy array's shape" "shape (360, 640, 4) dtype uint8" \
    "$(grep -o 'shape ([0-9, ]*) dtype [a-z0-9]*' <<<"$out" || echo "$out")"
  check "render_frame.py's PNG equals render_frame.c's, byte for byte" cmp "$tmp/py.png" "$tmp/c.png"
  check "... and ikshade render's, pixel for pixel" same_pixels "$tmp/py.png" "$tmp/ref.png"
fi

# ---- the Python package built against the installed prefix alone (its header and library found through
# pkg-config, no source tree beside it) imports and draws with no LD_LIBRARY_PATH and no IKSHADE_LIB ----
if [ -n "$py" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$tmp/pvenv"
  mkdir -p "$tmp/ptree" && cp -r "$src/python" "$tmp/ptree/" && rm -rf "$tmp/ptree/python/build" "$tmp/ptree/python/"*.egg-info
  (cd "$tmp/ptree" && env -u IKSHADE_INCLUDE IKSHADE_BUILD="$tmp/nobuild" PKG_CONFIG_PATH="$libdir/pkgconfig" PIP_NO_INDEX=1      "$tmp/pvenv/bin/pip" install ./python) > "$tmp/ppip.log" 2>&1
  check "pip install ./python against the prefix alone ($(tail -n 2 "$tmp/ppip.log" | tr '\n' ' '))" \
    grep -q "Successfully installed ikshade" "$tmp/ppip.log"
  out=$(cd "$tmp" && env -u LD_LIBRARY_PATH -u IKSHADE_LIB "${py_env[@]}" "$tmp/pvenv/bin/python" -c '
import ikshade
from ikshade import _lib
print(_lib.lib._name)
print(ikshade.Toy("", size=(8, 8)).snapshot().shape)' 2>&1 | grep -v makecontext)
  check_eq "the package finds the prefix's library by itself and draws" "$libdir/libikshade.so.1
(8, 8, 4)" "$out"
fi

# ---- the installed program, with the installed shaders (IKSHADE_SHADERS unset, no LD_LIBRARY_PATH:
# it finds its libraries through its RUNPATH) ----
check "installed ikshade --version" "$prefix/bin/ikshade" --version
check "installed ikshade renders the demo" "$prefix/bin/ikshade" render -o "$tmp/x.png" --size 64x36 --quiet
check_eq "... a 64x36 PNG" "64 36 3" "$(png info "$tmp/x.png" 2>&1)"
check "installed ikshade loads the prefix's libraries" \
  bash -c 'ldd "$1/bin/ikshade" | grep -q "libikshade.so.* => $1/"' _ "$prefix"

# ---- ABI: every exported symbol is the API's and carries its version node; programs record it ----
# (the version node itself is an absolute symbol of its own name)
exports=$(objdump -T "$lib" | awk '/ DF | DO / && $0 !~ /\*UND\*|\*ABS\*/ {print $(NF-1), $NF}')
# (IKSHADE_1, or a later node of the same SONAME: IKSHADE_1.1 holds what 0.4 added)
check "libikshade exports only iks_* symbols, each at IKSHADE_1[.N] ($(grep -vE '^IKSHADE_1(\.[0-9]+)? iks_' <<<"$exports" | head -n 3 | tr '\n' ' '))" \
  bash -c '[ -n "$1" ] && ! grep -vE "^IKSHADE_1(\.[0-9]+)? iks_" <<<"$1"' _ "$exports"
check "what 0.4 added is at IKSHADE_1.1 (iks_toy_feed_audio)" grep -q "^IKSHADE_1.1 iks_toy_feed_audio$" <<<"$exports"
exports=$(objdump -T "$libdir/libik.so" | awk '/ DF | DO / && $0 !~ /\*UND\*|\*ABS\*/ {print $(NF-1), $NF}')
check "libik exports only ik_* symbols, each at IK_0" bash -c '[ -n "$1" ] && ! grep -v "^IK_0 ik_" <<<"$1"' _ "$exports"
check "a program built against it records the version of what it calls (render_frame: IKSHADE_1)" \
  bash -c 'objdump -T render_frame | grep -q "(IKSHADE_1) *iks_toy_draw"'
check "the SONAME is libikshade.so.1" bash -c 'readelf -d "$1" | grep -q "SONAME.*\[libikshade.so.1\]"' _ "$lib"

# ---- light embedding: what an embedder that only draws does not use is not loaded ----
needed=$(readelf -d "$lib" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
check "libikshade does not link libcurl, ALSA, OpenEXR, GLFW or Xlib (loaded on first use; NEEDED: $needed)" \
  bash -c '! grep -Eq "libcurl|libasound|OpenEXR|libglfw|libX11" <<<"$1"' _ "$needed"
# the installed bench: its two programs from libexec, the same picture, and the count of libraries
# the library adds to a bare EGL program's (a count, not a time: no test asserts wall-clock)
out=$(env "${py_env[@]}" "$prefix/bin/ikshade" bench embed --reps 2 2>&1)
more=$(sed -n 's/.*; \([0-9]*\) libraries beyond the baseline.s.*/\1/p' <<<"$out")
check "ikshade bench embed runs from the prefix ($(tail -n 1 <<<"$out" | cut -c1-120))" test -n "$more"
check "... libikshade adds at most 15 libraries to a bare EGL program's ($more)" bash -c '[ "$1" -le 15 ]' _ "${more:-99}"
check "... and neither curl nor GLFW among them" bash -c '! grep -Eq "libcurl|libglfw|libasound|OpenEXR" <<<"$1"' _ "$out"

finish
