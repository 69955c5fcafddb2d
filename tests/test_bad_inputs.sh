#!/usr/bin/env bash
# The bad-input matrix: what a careful user throws at every subcommand. Each row runs in an empty
# directory under a time limit and must give: the exit code (2 usage, 1 run time), exactly one line on
# stderr that names the input and matches the pattern, no crash or core dump (no signal), no hang
# (TIMEOUT seconds), and no file left behind (no partial output, no temporary).
# usage: test_bad_inputs.sh IKSHADE [NO_GLFW]   (NO_GLFW: an LD_PRELOAD module that hides libglfw)
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 no_glfw=${2:-}
TIMEOUT=60
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fx=$tmp/fx w=$tmp/w
mkdir -p "$fx" "$w"
ulimit -c 0

# fixtures, outside the working directory
good=$fx/good.frag
printf 'uniform float r1 = 0.5;\nuniform sampler2D tex;\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(r1); }\n' > "$good"
: > "$fx/empty.frag"
printf 'void mainImage(out vec4 c, in vec2 f)\0{ c = vec4(1.0); }\n' > "$fx/binary.frag"
head -c $((17 << 20)) /dev/zero | tr '\0' '/' > "$fx/huge.frag"
mkdir "$fx/dir.frag"
printf 'float f() { return 1.0; }\n' > "$fx/nomain.frag"
printf 'void mainImage(out vec4 c, in vec2 f) {\n  c = vec4(1.0)\n}\n' > "$fx/compile.frag"
printf 'float g();\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(g()); }\n' > "$fx/link.frag"
printf '#include "nowhere.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n' > "$fx/noinclude.frag"
printf '#include "b.glsl"\n' > "$fx/a.glsl"
printf '#include "a.glsl"\n' > "$fx/b.glsl"
printf '#include "a.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n' > "$fx/cycle.frag"
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n' > "$fx/ok.frag"
touch "$fx/afile"

R=("$bin" render)

# ---- shader files -----------------------------------------------------------------------------------
bad 1 "nosuch.frag: No such file or directory" "${R[@]}" nosuch.frag -o x.png
bad 1 "clear_refs: (Permission denied|Input/output error|Invalid argument)" "${R[@]}" /proc/self/clear_refs -o x.png
bad 1 "dir.frag: a directory toy needs image.glsl" "${R[@]}" "$fx/dir.frag" -o x.png
bad 1 "empty.frag: defines neither mainImage" "${R[@]}" "$fx/empty.frag" -o x.png
bad 1 "binary.frag: binary file \(contains NUL bytes\)" "${R[@]}" "$fx/binary.frag" -o x.png
bad 1 "huge.frag: larger than 16 MiB" "${R[@]}" "$fx/huge.frag" -o x.png
bad 1 "nomain.frag: defines neither mainImage" "${R[@]}" "$fx/nomain.frag" -o x.png
# a compile error is path:line:col: where the driver gives a column (Mesa) and path:line: where it does not
# (NVIDIA); a link error has a line only where the driver names one (NVIDIA does, Mesa not)
bad 1 "^.*compile.frag:3(:[0-9]+)?: error: " "${R[@]}" "$fx/compile.frag" -o x.png
bad 1 "link.frag(:[0-9]+){0,2}: error: " "${R[@]}" "$fx/link.frag" -o x.png
bad 1 "nowhere.glsl" "${R[@]}" "$fx/noinclude.frag" -o x.png
bad 1 "cycle.*a.glsl.*b.glsl" "${R[@]}" "$fx/cycle.frag" -o x.png
bad 2 "-I '/nonexistent': not a directory" "${R[@]}" "$good" -o x.png -I /nonexistent
bad 2 "more than one shader given" "${R[@]}" "$good" "$good" -o x.png

# ---- sizes, frames, times, mouse ----------------------------------------------------------------------
bad 2 "--size '0x5'" "${R[@]}" -o x.png --size 0x5
bad 2 "--size '-3x5'" "${R[@]}" -o x.png --size -3x5
bad 2 "--size 'abc'" "${R[@]}" -o x.png --size abc
bad 2 "--size '1280x'" "${R[@]}" -o x.png --size 1280x
bad 2 "--size '60000x60000': this GL allows at most" "${R[@]}" -o x.png --size 60000x60000
bad 2 "--size needs WxH" "${R[@]}" -o x.png --size
bad 2 "--frames '0'" "${R[@]}" -o %d.png --frames 0
bad 2 "--frames '5:2'" "${R[@]}" -o %d.png --frames 5:2
bad 2 "--frames '-1'" "${R[@]}" -o %d.png --frames -1
bad 2 "--frames 'ten'" "${R[@]}" -o %d.png --frames ten
bad 2 "--fps '0'" "${R[@]}" -o x.png --fps 0
bad 2 "--fps 'nan'" "${R[@]}" -o x.png --fps nan
bad 2 "--fps '-5'" "${R[@]}" -o x.png --fps -5
bad 2 "--time 'inf'" "${R[@]}" -o x.png --time inf
bad 2 "--time '1s'" "${R[@]}" -o x.png --time 1s
bad 2 "--mouse '1'" "${R[@]}" -o x.png --mouse 1
bad 2 "--mouse '1,,2'" "${R[@]}" -o x.png --mouse 1,,2
bad 2 "--mouse 'a,b'" "${R[@]}" -o x.png --mouse a,b
bad 2 "--ssaa '9'" "${R[@]}" -o x.png --ssaa 9
bad 2 "--jobs '0'" "${R[@]}" -o x.png --jobs 0
bad 2 "--png-level '13': expected a whole number from 0 to 12" "${R[@]}" -o x.png --png-level 13
bad 2 "--png-level '-1': expected a whole number from 0 to 12" "${R[@]}" -o x.png --png-level -1
bad 2 "--frames '-3:2': expected a count N >= 1 or a range A:B with 0 <= A < B" "${R[@]}" -o %d.png --frames -3:2 --warmup 5
bad 2 "--seconds '-5': expected a positive number of seconds" "${R[@]}" -o %d.png --seconds -5
bad 2 "--ffmpeg-args '-c:v libx264': with output 'x.png': PNG is not made by ffmpeg" "${R[@]}" -o x.png --ffmpeg-args '-c:v libx264'
bad 2 "--ffmpeg-args '-an': with output 'x.wav': a WAV is not made by ffmpeg" "${R[@]}" -o x.wav --ffmpeg-args -an
# a path that holds a field's letters is the path, not an option
bad 1 "/proc/time0_png_level/x.png: " "${R[@]}" -o /proc/time0_png_level/x.png
bad 2 "unknown option '--bogus' \\(see ikshade help render\\)" "${R[@]}" -o x.png --bogus
# shards, resume and checkpoints (tests/test_scale.sh has the rest)
noenv=(env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX -u PARALLEL_SEQ)
bad 2 "--shard '3/3': expected part k of n with n >= 1 and k from 0 to n-1" "${R[@]}" -o %d.png --frames 4 --shard 3/3
bad 2 "--shard 'a/b': expected K/N" "${R[@]}" -o %d.png --frames 4 --shard a/b
bad 2 "--shard auto: none of SLURM_ARRAY_TASK_ID" "${noenv[@]}" "${R[@]}" -o %d.png --frames 4 --shard auto
bad 2 "--shard-count 'x': expected a whole number" "${R[@]}" -o %d.png --shard auto --shard-count x
bad 2 "--resume: with output 'x.mp4': resume keeps files it can check whole, frames in PNG, JPEG or EXR files" "${R[@]}" -o x.mp4 --resume
bad 2 "--each writes a report, not frames: --shard, --resume and --checkpoint do not apply" "${R[@]}" --each "$fx" --shard 0/2
bad 2 "--checkpoint-every '5': needs --checkpoint: where the checkpoints go" "${R[@]}" -o x.png --checkpoint-every 5
bad 2 "--checkpoint-every 'x': expected a whole number" "${R[@]}" -o x.png --checkpoint d --checkpoint-every x
trails=$(cd "$(dirname "$0")/.." && pwd)/examples/scale-out/trails
bad 1 "--checkpoint '$fx/afile': not a directory" "${R[@]}" "$trails" -o x.png \
  --frames 2:3 --checkpoint "$fx/afile"
# a near miss names the option meant (the nearest the command's help names, within two edits)
bad 2 "unknown option '--frame': did you mean '--frames'\\?" "${R[@]}" -o x.png --frame 3
bad 2 "unknown option '--sze=64x64': did you mean '--size'\\?" "${R[@]}" -o x.png --sze=64x64
bad 2 "--each /nonexistent: not a directory" "${R[@]}" --each /nonexistent
bad 2 "--glsl '450': expected auto, es or 330" "${R[@]}" -o x.png --glsl 450
bad 2 "--each writes a report to stdout, not frames: drop -o" "${R[@]}" --each "$fx" -o x.png
bad 2 "--warmup '-1'" "${R[@]}" -o x.png --warmup -1
bad 2 "--missing-media 'white'" "${R[@]}" -o x.png --missing-media white
bad 2 "--channel1 'x.gif'" "${R[@]}" -o x.png --channel1 x.gif
bad 2 "--channel0 'nosuch.png': No such file or directory" "${R[@]}" -o x.png --channel0 nosuch.png

# ---- --set --------------------------------------------------------------------------------------------
bad 2 "declares no uniform 'nope'" "${R[@]}" "$good" -o x.png --set nope=1
bad 2 "uniform 'r1' is float: expected 1 value, got 2" "${R[@]}" "$good" -o x.png --set r1=1,2
bad 2 "--set 'r1': expected NAME=VALUE" "${R[@]}" "$good" -o x.png --set r1
bad 2 "--set 'r1=abc': value 1 is not a finite number" "${R[@]}" "$good" -o x.png --set r1=abc
bad 2 "uniform 'tex' is sampler2D" "${R[@]}" "$good" -o x.png --set tex=1

# ---- #iUniform values past their type (issue 38) ----------------------------------------------------
# one rule with --set: a declaration is refused on its own line (it once loaded, then failed as a nameless
# "setting 'n': ... not a whole number", or took a float's 1e39 as infinity), and --set in the type's words
iu() { printf '// a parameter\n%s\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(%s); }\n' "$2" "$3" > "$fx/$1"; }
iu iu_int.frag '#iUniform int n = 1e10' 'float(n)'
iu iu_ivec2.frag '#iUniform ivec2 n = ivec2(3000000000, 1)' 'float(n.x)'
iu iu_range.frag '#iUniform int n = 1 in { 0, 1e12 }' 'float(n)'
iu iu_step.frag '#iUniform int n = 1 in { 0, 10 } step 1e10' 'float(n)'
iu iu_float.frag '#iUniform float a = 1e39' 'a'
iu iu_frange.frag '#iUniform float a = 1.0 in { -1e39, 1.0 }' 'a'
iu iu_color.frag '#iUniform color3 tint = color3(0.5, 1e39, 0.0)' 'tint, 1.0'
iu iu_bool.frag '#iUniform bool on = 2' 'on ? 1.0 : 0.0'
iu iu_set.frag '#iUniform int n = 1 in { 0, 100 }
#iUniform ivec2 v = ivec2(1, 2)
#iUniform bool on = true
uniform uint u;' 'float(n + v.x + int(u)) * (on ? 1.0 : 0.0)'
sha_before=$(cat "$fx"/iu_*.frag | sha256sum)
intr="beyond an int's range \(-2147483648 to 2147483647\)$"
flr="beyond a float's range \(at most 3.40282e\+38 either way\)$"
bad 1 "^ikshade render: .*iu_int.frag:2: malformed #iUniform: n is an int: its value 10000000000 is $intr" \
  "${R[@]}" "$fx/iu_int.frag" -o x.png
bad 1 "iu_ivec2.frag:2: malformed #iUniform: n is an ivec2: component 1 of its value \(3000000000\) is $intr" \
  "${R[@]}" "$fx/iu_ivec2.frag" -o x.png
bad 1 "iu_range.frag:2: malformed #iUniform: n is an int: its range's maximum 1000000000000 is $intr" \
  "${R[@]}" "$fx/iu_range.frag" -o x.png
bad 1 "iu_step.frag:2: malformed #iUniform: n is an int: its step 10000000000 is $intr" "${R[@]}" "$fx/iu_step.frag" -o x.png
bad 1 "iu_float.frag:2: malformed #iUniform: a is a float: its value 1e\+39 is $flr" "${R[@]}" "$fx/iu_float.frag" -o x.png
bad 1 "iu_frange.frag:2: malformed #iUniform: a is a float: its range's minimum -1e\+39 is $flr" \
  "${R[@]}" "$fx/iu_frange.frag" -o x.png
bad 1 "iu_color.frag:2: malformed #iUniform: tint is a color3: component 2 of its value \(1e\+39\) is $flr" \
  "${R[@]}" "$fx/iu_color.frag" -o x.png
bad 1 "iu_bool.frag:2: malformed #iUniform: on is a bool: its value 2 is neither true nor false \(1 or 0\)$" \
  "${R[@]}" "$fx/iu_bool.frag" -o x.png
bad 1 "iu_int.frag:2: malformed #iUniform: n is an int: its value 10000000000 is $intr" "$bin" info "$fx/iu_int.frag"
bad 2 "--set 'n=1e12': uniform 'n' is int: value 1 \(1000000000000\) is $intr" \
  "${R[@]}" "$fx/iu_set.frag" -o x.png --set n=1e12
bad 2 "--set 'n=-2147483649': uniform 'n' is int: value 1 \(-2147483649\) is $intr" \
  "${R[@]}" "$fx/iu_set.frag" -o x.png --set n=-2147483649
bad 2 "--set 'v=1,3000000000': uniform 'v' is ivec2: value 2 \(3000000000\) is $intr" \
  "${R[@]}" "$fx/iu_set.frag" -o x.png --set v=1,3000000000
bad 2 "--set 'u=-1': uniform 'u' is uint: value 1 \(-1\) is beyond an unsigned int's range \(0 to 4294967295\)$" \
  "${R[@]}" "$fx/iu_set.frag" -o x.png --set u=-1
bad 2 "--set 'u=4294967296': uniform 'u' is uint: value 1 \(4294967296\) is beyond an unsigned int's range" \
  "${R[@]}" "$fx/iu_set.frag" -o x.png --set u=4294967296
bad 2 "--set 'on=2': uniform 'on' is bool: value 1 \(2\) is neither true nor false \(1 or 0\)$" \
  "${R[@]}" "$fx/iu_set.frag" -o x.png --set on=2
bad 2 "--set 'n=1.5': uniform 'n' is int: value 1 \(1.5\) is not a whole number$" \
  "${R[@]}" "$fx/iu_set.frag" -o x.png --set n=1.5
check_eq "the shaders refused are left byte for byte as they were" "$sha_before" "$(cat "$fx"/iu_*.frag | sha256sum)"
# each type's own ends are taken, in a declaration and by --set
iu iu_ends.frag '#iUniform int n = -2147483648 in { -2147483648, 2147483647 }
#iUniform float a = 3.4e38 in { -3.4e38, 3.4e38 }
uniform uint u;' 'n == -2147483647 - 1 ? 1.0 : n == 2147483647 ? 0.6 : 0.0, a > 3e38 ? 1.0 : 0.0, u == 4294967295u ? 1.0 : u == 0u ? 0.6 : 0.0, 1.0'
out=$(cd "$w" && "$bin" render "$fx/iu_ends.frag" -o e.png --size 8x8 --set u=4294967295 2>&1); rc=$?
check "an int's and a float's ends in a declaration, a uint's by --set: rendered (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "... and held exactly" "255 255 255" "$(python3 "$(dirname "$0")/png.py" pixel "$w/e.png" 4 4 2>&1)"
out=$(cd "$w" && "$bin" render "$fx/iu_ends.frag" -o f.png --size 8x8 --set n=2147483647 --set u=0 2>&1); rc=$?
check "... and --set n=2147483647 (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "... drawn as set" "153 255 153" "$(python3 "$(dirname "$0")/png.py" pixel "$w/f.png" 4 4 2>&1)"
rm -f "$w/e.png" "$w/f.png"

# ---- outputs ------------------------------------------------------------------------------------------
bad 2 "no output: add -o" "${R[@]}"
bad 2 "-o needs an output" "${R[@]}" -o
bad 2 "-o 'x%s.png': the name may hold one frame number" "${R[@]}" -o x%s.png
bad 2 "one frame number" "${R[@]}" -o %d_%d.png
bad 2 "3 frames need a frame number" "${R[@]}" -o x.png --frames 3
bad 2 "-o 'x.jpeg2': expected a name ending in one of .png .jpg .jpeg .exr" "${R[@]}" -o x.jpeg2
bad 1 "/proc/ikshade-no/x.png: " "${R[@]}" -o /proc/ikshade-no/x.png
bad 1 "afile/x.png: Not a directory" "${R[@]}" -o "$fx/afile/x.png"
bad 1 "stdout: No space left on device" sh -c "'$bin' render -o - --size 64x64 > /dev/full"
# what a command prints to stdout and could not write is an error too, as coreutils' close_stdout has
# it: help, the version, --each's table (each once printed nothing, exit 0)
bad 1 "^ikshade: stdout: No space left on device$" sh -c "'$bin' --help > /dev/full"
bad 1 "^ikshade: stdout: No space left on device$" sh -c "'$bin' --version > /dev/full"
bad 1 "^ikshade: stdout: No space left on device$" sh -c "'$bin' help render > /dev/full"
bad 1 "^ikshade render: stdout: No space left on device$" sh -c "'$bin' render --help > /dev/full"
bad 2 "stdout is a terminal" sh -c "script -qec \"'$bin' render -o -\" /dev/null >&2"
bad 1 "needs ffmpeg, which is not installed" env PATH=/nonexistent "$bin" render -o movie.mp4

# ---- solve ---------------------------------------------------------------------------------------------
bad 1 "stdin:1: missing field 4 \(r2\)" sh -c "printf '1 1 1\n' | '$bin' solve"
bad 1 "stdin:1: too many fields" sh -c "printf '1 1 1 1 1 1\n' | '$bin' solve"
bad 1 "stdin:2: field 2 \(py\): 'abc' is not a number" sh -c "printf '1 1 1 1\n1 abc 1 1\n' | '$bin' solve"
bad 1 "stdin:1: field 1 \(px\): 'nan' is not a finite float" sh -c "printf 'nan 1 1 1\n' | '$bin' solve"
bad 1 "stdin:1: field 3 \(r1\): 'inf' is not a finite float" sh -c "printf '1 1 inf 1\n' | '$bin' solve"
bad 1 "stdin:1: field 4 \(r2\): '-Infinity' is not a finite float" sh -c "printf '1 1 1 -Infinity\n' | '$bin' solve"
bad 1 "stdin:1: field 1 \(px\): '1e99' is not a finite float" sh -c "printf '1e99 1 1 1\n' | '$bin' solve"
bad 1 "stdin:1: missing field 6 \(hx\)" sh -c "printf '1 1 1 1 1\n' | '$bin' solve --3d"
bad 2 "--soften '2'" sh -c "printf '' | '$bin' solve --soften 2"
bad 2 "--soften needs a value" sh -c "printf '' | '$bin' solve --soften"

# ---- view, check, bench, the program itself -------------------------------------------------------------
bad 1 "no display to open a window on .*ikshade render" env -u DISPLAY -u WAYLAND_DISPLAY "$bin" view
# a machine with neither a display nor libglfw3 (a GPU server) is pointed to render, not to installing
# GLFW; with a display named, GLFW's absence is what is said (so the module does hide it)
if [ -n "$no_glfw" ]; then
  preload=(LD_PRELOAD="$no_glfw" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
  bad 1 "no display to open a window on .*ikshade render" env -u DISPLAY -u WAYLAND_DISPLAY "${preload[@]}" "$bin" view
  bad 1 "no display to open a window on \\(DISPLAY is set but empty\\)" env -u WAYLAND_DISPLAY DISPLAY= "${preload[@]}" "$bin" view
  bad 1 "libglfw.so.3 cannot be loaded.*install libglfw3" env -u WAYLAND_DISPLAY DISPLAY=:999 "${preload[@]}" "$bin" view
else
  echo "FAIL: no NO_GLFW module given (tests/CMakeLists.txt builds it)" >&2; fail=$((fail + 1))
fi
bad 2 "--size '0x1'" "$bin" view --size 0x1
bad 2 "--frames '0'" "$bin" view --frames 0
bad 2 "--record-fps '1e-300': expected a number from 1e-9 to 1000" "$bin" view --record-fps 1e-300
bad 2 "^ikshade view: --record 'x.jpg': 2 frames need a frame number in the name" "$bin" view --record x.jpg
bad 2 "^ikshade view: --record 'x.wav': a recording is frames, not sound" "$bin" view --record x.wav
bad 1 "nosuch.frag: No such file" "$bin" view nosuch.frag
bad 2 "--channel0 'x.gif': expected FILE.png" "$bin" view --channel0 x.gif
bad 2 "^ikshade view: --channel1 'gone.png,filter=nearest': gone.png: No such file or directory$" "$bin" view --channel1 gone.png,filter=nearest
bad 2 "--cases '-5'" "$bin" check --cases -5
bad 1 "nosuch.glsl" "$bin" check --solver nosuch.glsl --cases 10
bad 2 "no benchmark 'nonsense'" "$bin" bench nonsense
bad 2 "no command given" "$bin"
bad 2 "no command 'frobnicate'" "$bin" frobnicate
bad 2 "help: no command 'frobnicate'" "$bin" help frobnicate

# a failed render takes back the directories it made for its output (bad() checks nothing is left)
bad 1 "--checkpoint '$fx/ok.frag': not a directory" "$bin" render "$trails" -o 'o/a/%d.png' \
  --size 8x8 --frames 2:3 --checkpoint "$fx/ok.frag"
if command -v ffmpeg >/dev/null; then
  bad 1 "v/w/x.mp4: ffmpeg failed \(exit 1\): Unknown encoder 'nosuch'" "$bin" render "$fx/ok.frag" -o v/w/x.mp4 \
    --ffmpeg-args '-c:v nosuch' --size 8x8 --frames 2
  mkdir -p "$w/mine"
  (cd "$w" && "$bin" render "$fx/ok.frag" -o mine/new/x.mp4 --ffmpeg-args '-c:v nosuch' --size 8x8 --frames 2 2>/dev/null)
  check "... but not a directory that was there before" [ -d "$w/mine" ]
  check "... only the one it made inside it" [ ! -e "$w/mine/new" ]
  rmdir "$w/mine"
else
  check "ffmpeg is installed (scripts/deps.sh installs it)" false
fi

mkdir "$fx/nultoy" && cp "$fx/ok.frag" "$fx/nultoy/image.glsl" && printf 'image.iChannel0 = a\0.png\n' > "$fx/nultoy/manifest.txt"
bad 1 "nultoy/manifest.txt: binary file \(contains NUL bytes\), not a manifest" "$bin" render "$fx/nultoy" -o x.png

# a device as the shader (or a link to one): named a device, not read to the size limit
ln -s /dev/zero "$fx/zero.frag"
bad 1 "zero.frag: a device, not a regular file" "$bin" render "$fx/zero.frag" -o x.png
bad 1 "/dev/urandom: a device, not a regular file" "$bin" render /dev/urandom -o x.png

# a name holding a newline is shown as \n: the message stays one line
bad 1 "no\\\\nsuch.frag: No such file or directory" "$bin" render "$(printf 'no\nsuch.frag')" -o x.png
bad 2 "--channel0 'a\\\\nb.png'" "$bin" render "$good" --channel0 "$(printf 'a\nb.png')" -o x.png
# ... and so it is in a compile error's lines, one report a line (what follows 'error:' is the driver's wording, not ours)
mkdir "$fx/$(printf 'n\nl')" && printf 'void mainImage(out vec4 o, in vec2 u) { o = vec4(1.0); nosuch(); }\n' >"$fx/$(printf 'n\nl')/e.frag"
bad 1 "n\\\\nl/e.frag:1(:[0-9]+)?: error: " "$bin" render "$fx/$(printf 'n\nl')/e.frag" -o x.png --size 8x8

# shaders whose macros expand to millions of tokens: the GL compiler crashed (a 512 MiB stack
# overflowed at 2^21 terms) or expanded for ever (gigabytes); they are measured and refused first, in
# every way of being given (a file, a JSON pass, --each), while a macro-heavy real toy still renders
python3 - "$fx" <<'P'
import json, sys
d = sys.argv[1]
def doubling(n, fmt, use): return '#define A0 1.0\n#define F0(x) x\n' + ''.join(fmt % (i, i - 1, i - 1) for i in range(1, n + 1)) + use % n
main = 'void mainImage(out vec4 c, in vec2 f) { c = vec4(a); }\n'
open(d + '/bomb21.frag', 'w').write(doubling(21, '#define A%d A%d+A%d\n', 'float a = A%d;\n') + main)
open(d + '/bomb39.frag', 'w').write(doubling(39, '#define A%d (A%d+A%d)\n', 'float a = A%d;\n') + main)
open(d + '/bombf.frag', 'w').write(doubling(30, '#define F%d(x) F%d(x)+F%d(x)\n', 'float a = F%d(1.0);\n') + main)
open(d + '/opencalls.frag', 'w').write('#define H(a) a+a\n#define D ' + 'H(' * 24 + 'f.x\n' +
                                       'void mainImage(out vec4 c, in vec2 f) { c = vec4(D' + ')' * 24 + '); }\n')
open(d + '/skipredef.frag', 'w').write('#define H(a) a+a\n#define D ' + 'H(' * 24 + 'f.x\n#if 0\n#define H(a) a\n#endif\n' +
                                       'void mainImage(out vec4 c, in vec2 f) { c = vec4(D' + ')' * 24 + '); }\n')
open(d + '/paste.frag', 'w').write(doubling(24, '#define A%d (A%d+A%d)\n', '#define CAT(a, b) a##b\nfloat a = CAT(A, %d);\n') + main)
open(d + '/kinds.frag', 'w').write('#define F(x) (x+x)\n#if 0\n#define F 1.0\n#endif\nfloat a = ' + 'F(' * 24 + '1.0' + ')' * 24 + ';\n' + main)
open(d + '/dropped.frag', 'w').write(doubling(30, '#define A%d A%d+A%d\n', '#define E(x) 1.0\nfloat a = E(A%d);\n') + main)
open(d + '/long.frag', 'w').write('float a = 1.0' + '+1.0' * (1 << 21) + ';\n' + main)
code = doubling(21, '#define A%d A%d+A%d\n', 'float a = A%d;\n') + main
json.dump({'renderpass': [{'name': 'Image', 'type': 'image', 'code': code, 'inputs': [], 'outputs': []}]}, open(d + '/bomb.json', 'w'))
P
bad 1 "bomb21.frag: 4194[0-9]{3} tokens once its macros are expanded, more than a GL compiler takes \(at most 1000000\)" \
  "$bin" render "$fx/bomb21.frag" -o x.png --size 8x8
bad 1 "bomb39.frag: 2.2e\+12 tokens once its macros are expanded" "$bin" render "$fx/bomb39.frag" -o x.png --size 8x8
bad 1 "bombf.frag: [0-9]{10} tokens once its macros" "$bin" render "$fx/bombf.frag" -o x.png --size 8x8
bad 1 "long.frag: 4194[0-9]{3} tokens" "$bin" render "$fx/long.frag" -o x.png --size 8x8
# calls a macro opens and the text closes (this crashed the renderer), and a bomb as an argument the
# body drops (Mesa expands it anyway: 6 GB at 24 levels)
bad 1 "opencalls.frag: #define D opens a call that the text after it closes: ikshade cannot bound the size of its expansion, so it refuses it \(a guard against macro bombs\)" \
  "$bin" render "$fx/opencalls.frag" -o x.png --size 8x8
# the same with a harmless H in a skipped #if group (the expansion count, which follows the newest
# definition, was fooled: Mesa grew to 18 GB), a name pasted by ## into a doubling chain's last link
# (SIGSEGV at 2.8 GB), and a function-like macro hidden behind an object-like one in a skipped group
bad 1 "skipredef.frag: #define D opens a call that the text after it closes" "$bin" render "$fx/skipredef.frag" -o x.png --size 8x8
bad 1 "paste.frag: #define CAT pastes tokens \(##\) into what may be a macro's name" "$bin" render "$fx/paste.frag" -o x.png --size 8x8
bad 1 "kinds.frag: #define F is defined both with and without parameters" "$bin" render "$fx/kinds.frag" -o x.png --size 8x8
bad 1 "dropped.frag: [0-9]{10} tokens once its macros are expanded" "$bin" render "$fx/dropped.frag" -o x.png --size 8x8
bad 1 "bomb.json\[Image\]: 4194[0-9]{3} tokens once its macros" "$bin" render "$fx/bomb.json" -o x.png --size 8x8
mkdir "$fx/each" && cp "$fx/bomb39.frag" "$fx/ok.frag" "$fx/each/"
out=$(cd "$w" && timeout -s KILL "$TIMEOUT" "$bin" render --each "$fx/each" --size 8x8 2>/dev/null); rc=$?
check "--each with a macro bomb: exit 1, not a crash or a hang (rc $rc)" [ "$rc" -eq 1 ]
check "... the bomb's row says why" grep -qE '^\| bomb39.frag \| load error .*tokens once its macros are expanded' <<<"$out"
check "... and the good shader's row is ok" grep -qE '^\| ok.frag \| ok ' <<<"$out"
# --each's table to a full disk: the write's error (the summary line on stderr set aside)
mkdir "$fx/eachok" && cp "$fx/ok.frag" "$fx/eachok/"
bad 1 "^ikshade render: stdout: " bash -c "set -o pipefail; '$bin' render --each '$fx/eachok' --size 8x8 2>&1 >/dev/full | grep -v ' shaders: ' >&2"
printf '#define S(a, b, t) smoothstep(a, b, t)\n#define R(a) mat2(cos(a), -sin(a), sin(a), cos(a))\n#define D(x) (x + x)\nvoid mainImage(out vec4 c, in vec2 f) { vec2 u = R(0.0) * f / iResolution.xy; c = vec4(S(0.0, 1.0, D(D(D(u.x)))) * 0.0 + 0.5); }\n' > "$fx/macros.frag"
(cd "$w" && "$bin" render "$fx/macros.frag" -o m.png --size 8x8 --quiet); rc=$?
check "a toy of ordinary macros renders (rc $rc)" [ "$rc" -eq 0 ]
check "... its picture" px_near "$(python3 "$(dirname "$0")/png.py" pixel "$w/m.png" 4 4)" "128 128 128"
rm -f "$w/m.png"

# ---- a demo's name, and something of that name here that is not a toy (issue 38) ---------------------
# `render creature -o creature/%03d.png` run twice: the second run finds its own output directory
# under the demo's name. The demo is still what the name means, said in one warning that names
# ./creature; every command that takes a toy resolves the name by the one rule (cmd_demos.c).
sh=$tmp/shadow; mkdir -p "$sh"
(cd "$sh" && "$bin" render creature --size 8x8 -o creature/%03d.png --quiet); rc=$?
check "render creature -o creature/%03d.png, the first time (rc $rc)" [ "$rc" -eq 0 ]
said="creature: the demo of that name, since ./creature here is a directory without image.glsl, not a toy (to mean it, name ./creature)"
err=$(cd "$sh" && "$bin" render creature --size 8x8 -o creature/again%03d.png --quiet 2>&1); rc=$?
check_eq "... again, with ./creature now its output directory: exit 0 ($err)" 0 "$rc"
check_eq "... one line on stderr: the warning" "ikshade render: warning: $said" "$err"
check "... and the demo's frame" cmp "$sh/creature/000.png" "$sh/creature/again000.png"
err=$(cd "$sh" && "$bin" info creature 2>&1 >"$tmp/info.out"); rc=$?
check_eq "info creature beside ./creature: exit 0, the same warning" "0 ikshade info: warning: $said" "$rc $err"
check "... describing the demo" grep -qx "creature.frag" "$tmp/info.out"
err=$(cd "$sh" && "$bin" bench render creature --frames 1 --reps 1 --size 8x8 2>&1 >"$tmp/bench.out"); rc=$?
check_eq "bench render creature beside ./creature: exit 0, the same warning" "0 ikshade bench: warning: $said" "$rc $err"
check "... timing the demo" grep -q "^bench render: .*/creature.frag, 1 frames" "$tmp/bench.out"
if command -v Xvfb >/dev/null; then
  err=$(cd "$sh" && xvfb_exec timeout 60 "$bin" view creature --frames 2 2>&1); rc=$?
  check_eq "view creature beside ./creature: exit 0, the same warning" "0 ikshade view: warning: $said" "$rc $err"
fi
bad 1 "creature: a directory toy needs image.glsl" bash -c "cd '$sh' && '$bin' render ./creature -o '$w/x.png'"
# an empty file under a demo's name is no toy either; it is left as it was
: > "$sh/feedback"
err=$(cd "$sh" && "$bin" render feedback --size 8x8 -o fb.png --quiet 2>&1); rc=$?
check_eq "render feedback beside an empty ./feedback: exit 0, a warning naming it" \
  "0 ikshade render: warning: feedback: the demo of that name, since ./feedback here is an empty file, not a toy (to mean it, name ./feedback)" "$rc $err"
check "... the demo drawn" test -s "$sh/fb.png"
check "... the empty file still empty" test -f "$sh/feedback" -a ! -s "$sh/feedback"
# what is a toy stays the user's, with no word of the demo: a directory toy, a shader file
mkdir "$sh/dirtoy"; printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(0.0, 1.0, 0.0, 1.0); }\n' > "$sh/dirtoy/image.glsl"
err=$(cd "$sh" && "$bin" render dirtoy --size 8x8 -o dt.png --quiet 2>&1); rc=$?
check_eq "render dirtoy beside a directory toy ./dirtoy: exit 0, nothing said" "0 " "$rc $err"
check_eq "... the user's toy drawn" "0 255 0" "$(python3 "$(dirname "$0")/png.py" pixel "$sh/dt.png" 4 4)"
printf 'float f() { return 1.0; }\n' > "$sh/busy"
bad 1 "^ikshade render: busy: defines neither mainImage" bash -c "cd '$sh' && '$bin' render busy -o '$w/x.png'"
check_eq "... the user's file as it was" "float f() { return 1.0; }" "$(cat "$sh/busy")"

echo "$rows bad inputs"
check "at least 40 distinct bad inputs" [ "$rows" -ge 40 ]
finish
