#!/usr/bin/env bash
# `ikshade render` as users run it: files, determinism, time mapping, the picture against the C
# solver, a golden image, and every bad input answered with one line and no partial file.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 tests=$2
png() { python3 "$tests/png.py" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# valid PNGs, the right size and count, directories created, RGB by default, RGBA with --alpha
"$bin" render -o a/b/%03d.png --frames 5 --size 160x90 --quiet
check "5 files" [ "$(ls a/b | wc -l)" -eq 5 ]
check "named by pattern" test -f a/b/000.png -a -f a/b/004.png
check "size and RGB" [ "$(png info a/b/003.png)" = "160 90 3" ]
"$bin" render -o alpha.png --size 64x32 --alpha --quiet
check "--alpha gives RGBA" [ "$(png info alpha.png)" = "64 32 4" ]
check "no temporary files left" [ -z "$(find . -name '.*' -type f)" ]
"$bin" render -o one.png --size 32x32 2>err.txt
check "one summary line when stderr is not a terminal" [ "$(wc -l <err.txt)" -eq 1 ]
check "... saying what was rendered" grep -q '1 frame of 32x32' err.txt

# determinism: two runs byte-identical, and a split into ranges gives the same files
"$bin" render -o r1/%04d.png --frames 6 --size 200x120 --quiet
"$bin" render -o r2/%04d.png --frames 6 --size 200x120 --quiet
"$bin" render -o r3/%04d.png --frames 0:2 --size 200x120 --quiet
"$bin" render -o r3/%04d.png --frames 2:6 --size 200x120 --quiet --jobs 1
check "two runs are byte-identical" diff -r r1 r2
check "ranges 0:2 + 2:6 equal one run of 6" diff -r r1 r3

# the time mapping: iTime = T0 + i/fps and iFrame = i, read back exactly
cat > t.frag <<'G'
void mainImage(out vec4 c, in vec2 f) {
  c = vec4(float(iFrame) / 255.0, (iTime * 10.0) / 255.0, (iTimeDelta * 1000.0) / 255.0, 1.0);
}
G
"$bin" render t.frag -o t/%02d.png --frames 3:6 --fps 10 --time 0.5 --size 4x4 --quiet
for i in 3 4 5; do
  check "frame $i: iFrame=$i, iTime=0.5+$i/10, iTimeDelta=0.1" [ "$(png pixel t/0$i.png 1 1)" = "$i $((5 + i)) 100" ]
done
# iMouse as on shadertoy.com: w > 0 on frame 0 only
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(iMouse.x, iMouse.y, iMouse.z, iMouse.w > 0.0 ? 255.0 : 0.0) / 255.0; }\n' > m.frag
"$bin" render m.frag -o m/%d.png --frames 2 --size 4x4 --mouse 10,20,30,40 --alpha --quiet
check "iMouse on the click frame" [ "$(png pixel m/0.png 0 0)" = "10 20 30 255" ]
check "iMouse after the click frame: w < 0" [ "$(png pixel m/1.png 0 0)" = "10 20 30 0" ]

# the picture agrees with the C solver: the joint and both bones where `ikshade solve` puts them
"$bin" render -o limb.png --size 640x360 --mouse 420,250 --quiet
check "limb.frag's joint and bones match the C solver" png limb limb.png 420 250 "$bin"
"$bin" render -o limb2.png --size 640x360 --mouse 250,120 --set bend=-1 --quiet
png same limb.png limb2.png; check "... with bend -1 the picture differs (png same: 1)" [ $? -eq 1 ]

# creature.frag: legs solved by ik.glsl; it walks, and standing still (speed 0) nothing moves
"$bin" render "$tests/../shaders/creature.frag" -o cr/%d.png --size 640x360 --frames 2 --fps 2 --quiet
check "creature: both knees drawn (solid knee colour)" [ "$(png count cr/0.png 86 180 233)" -gt 100 ]
cmp -s cr/0.png cr/1.png; check "creature: it walks (frames differ; cmp: 1)" [ $? -eq 1 ]
"$bin" render "$tests/../shaders/creature.frag" -o still/%d.png --size 320x180 --frames 2 --fps 1 --set speed=0 --quiet
check "creature: at speed 0 nothing moves" cmp -s still/0.png still/1.png

# a golden image, within a per-pixel tolerance (another GPU may differ in the last bits);
# regenerate on purpose with `make golden`
"$bin" render -o golden.png --size 320x180 --time 1.5 --quiet
check "limb.frag matches tests/golden/limb.png" png diff golden.png "$tests/golden/limb.png" 8 0.002

# the default shader is found from any directory
(cd / && "$bin" render -o "$tmp/fromroot.png" --size 32x32 --quiet)
check "default shader from another directory" [ -f fromroot.png ]

# raw frames to stdout, top row first
"$bin" render -o - --frames 2 --size 8x4 --quiet > raw.bin
check "-o - writes w*h*4 bytes a frame" [ "$(stat -c %s raw.bin)" -eq $((8 * 4 * 4 * 2)) ]

# the benchmark runs every stage and the encoder comparison (timings themselves are not asserted)
"$bin" bench render --frames 3 --size 320x180 > bench.txt
check "bench render prints (a) to (e) and the ratios" bash -c 'for k in "3 frames of 320x180" "(a) draw only" "(d) whole render" "(d) / (b) = " "(d) / best" "<- render"; do grep -qF "$k" bench.txt || exit 1; done; [ "$(grep -c " ms " bench.txt)" -eq 8 ]'

# a signal stops a benchmark promptly (signals.c's standard): exit 128 + the signal, one "interrupted"
# line, no figure that was not measured. Sent to ikshade itself: timeout --foreground passes it on once,
# and only kills at 60 s. (bench solver's other tests are in test_cli_solve.sh.)
interrupt() { # SIG READY CMD...: runs CMD, sends SIG once `eval READY` succeeds; irc: its exit status
  local sig=$1 ready=$2 p; shift 2
  timeout --foreground -s KILL 60 "$@" >int.out 2>int.err & p=$!
  for _ in $(seq 400); do eval "$ready" && break; sleep 0.05; done
  kill -"$sig" $p; wait $p; irc=$?
}
expect_interrupted() { # WHAT CODE PATTERN: the run above ended by the interruption, not the 5 s grace alarm
  check "$1: exit $2" [ "$irc" -eq "$2" ]
  check "$1: exactly one line on stderr" [ "$(grep -c . int.err)" -eq 1 ]
  check "$1: it says it was interrupted" grep -qE -- "$3" int.err
}
for sig in INT:130 TERM:143; do
  # solver: --reps 10 runs for about 10 s; the rows printed are the ones the line counts as measured
  interrupt "${sig%:*}" "sleep 1" "$bin" bench solver --reps 10
  expect_interrupted "bench solver, SIG${sig%:*}" "${sig#*:}" '^ikshade bench: solver: interrupted after (0|7) of 14 rows$'
  rows=$(grep -cE '^ +[0-9]+  ' int.out)
  check_eq "bench solver, SIG${sig%:*}: as many rows printed as the line says were measured" \
    "$(grep -oE 'after [0-9]+' int.err | grep -oE '[0-9]+')" "$rows"
  check "bench solver, SIG${sig%:*}: no note after an interrupted table" bash -c '! grep -q "note:" int.out'
  # render: 1 s in, wherever that is (compiling, (a) to (d))
  interrupt "${sig%:*}" "sleep 1" "$bin" bench render --frames 200 --size 640x360
  expect_interrupted "bench render, SIG${sig%:*}" "${sig#*:}" '^ikshade bench: render: interrupted; no figures printed$'
  check "bench render, SIG${sig%:*}: no figures on stdout" [ ! -s int.out ]
done
# ... and in (e), the PNG encoders: once (d), the whole render, has written its 12 PNGs into the
# benchmark's temporary directory (they stay there until the end)
mkdir -p btmp
interrupt INT '[ "$(ls btmp/ikshade-bench-*/ 2>/dev/null | grep -c "png$")" -eq 12 ]' \
  env TMPDIR="$PWD/btmp" "$bin" bench render --frames 12 --reps 1
expect_interrupted "bench render, SIGINT during (e)" 130 '^ikshade bench: render: interrupted; no figures printed$'
check "bench render, SIGINT during (e): no figures on stdout" [ ! -s int.out ]
check "bench render, SIGINT during (e): its temporary directory is gone" [ -z "$(ls -A btmp)" ]

# bad inputs: the matrix is tests/test_bad_inputs.sh; here, the ones that need more set-up
printf 'void mainImage(out vec4 c, in vec2 f) {\n  c = vec4(oops);\n}\n' > broken.frag
# a compile error: the driver's errors, one compiler-style line each, in the user's file and line
err=$("$bin" render broken.frag -o x.png 2>&1 >/dev/null); rc=$?
check "compile error exits 1" [ $rc -eq 1 ]
check "compile errors are path:line[:col]: error: lines" bash -c 'grep -qvE "^broken.frag:2(:[0-9]+)?: error: " <<<"$1" && exit 1; exit 0' _ "$err"
# a file size limit makes every write fail part-way: no truncated PNG may remain, under any name
mkdir -p full
expect_fail "write fails part-way" 1 "full/000[0-2].png: File too large" \
  bash -c "trap '' XFSZ; ulimit -f 8; exec '$bin' render -o full/%04d.png --frames 3 --size 640x360"
check "no partial PNG left behind" [ -z "$(ls -A full)" ]
# Ctrl-C: stops after the frames in flight, says how many were written, leaves only complete PNGs
"$bin" render -o int/%05d.png --frames 100000 --size 320x180 2>int.err & pid=$!
for _ in $(seq 50); do [ -n "$(ls int 2>/dev/null)" ] && break; sleep 0.1; done
kill -INT $pid; wait $pid; rc=$?
check "Ctrl-C exits 130" [ $rc -eq 130 ]
check "Ctrl-C says how many frames were written" grep -qE "interrupted: [0-9]+ of 100000 frames written" int.err
check "no temporary files after Ctrl-C" [ -z "$(ls -A int | grep '^\.')" ]
check "every PNG after Ctrl-C is complete" bash -c 'for f in int/*.png; do python3 "$1" info "$f" >/dev/null || exit 1; done' _ "$tests/png.py"
# keys of a recorded session reach a keyboard channel on replay: A (65) down at 0.52 s, up at 1.03 s.
# At 10 fps frame i stands at i/10 s: frames 6..10 see it held, frame 6 alone sees the press, and the
# toggle stays on from frame 6 (rows 0, 1, 2 of the keyboard texture: red, green, blue)
printf 'void mainImage(out vec4 c, in vec2 f) {\n  c = vec4(texelFetch(iChannel0, ivec2(65, 0), 0).x,\n    texelFetch(iChannel0, ivec2(65, 1), 0).x, texelFetch(iChannel0, ivec2(65, 2), 0).x, 1.0);\n}\n' > keys.frag
awk 'BEGIN { print "ikshade-input 1"; for (i = 0; i <= 14; i++) { t = i / 10; printf "f %.3f %.3f 32 18 0 0 0 0\n", t, t;
  if (i == 5) print "k 0.52 65 1"; if (i == 10) print "k 1.03 65 0" } }' > keys.txt
"$bin" render keys.frag --channel0 keyboard --input keys.txt -o keys/%02d.png --fps 10 --frames 0:14 --size 32x18 --quiet
got=$(for i in 04 05 06 07 10 11 13; do printf '%s ' "$(png pixel keys/$i.png 5 5 | tr ' ' ,)"; done)
check_eq "render --input: recorded keys reach the keyboard channel (held, pressed once, toggled)" \
  "0,0,0 0,0,0 255,255,255 255,0,255 255,0,255 0,0,255 0,0,255 " "$got"

finish
