#!/usr/bin/env bash
# `ikshade view` with a real X server (Xvfb) and real input (xdotool): the window opens and shows the
# limb; a drag moves the target to where the C solver puts the joint; keys; live edits of every kind
# an editor makes; broken edits keep the last good picture; no display gives one line.
# usage: test_view.sh IKSHADE TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 tests=$2
png() { python3 "$tests/png.py" "$@"; }

if [ -z "${IKS_IN_XVFB:-}" ]; then
  # without any display: one line that points to render, exit 1, nothing from GLFW
  expect_fail "no display" 1 "no display to open a window on .*use .ikshade render." \
    env -u DISPLAY -u WAYLAND_DISPLAY "$bin" view
  expect_fail "an empty DISPLAY is named as such" 1 "no display to open a window on \\(DISPLAY is set but empty\\)" \
    env -u WAYLAND_DISPLAY DISPLAY= "$bin" view
  expect_fail "bad --size" 2 "--size '0x1'" "$bin" view --size 0x1
  expect_fail "unknown option" 2 "unknown option '--nope'" "$bin" view --nope
  expect_fail "missing shader" 1 "nosuch.frag: No such file" "$bin" view nosuch.frag
  expect_fail "--record to no known output" 2 "--record 'x.txt': expected a name ending in one of .png" "$bin" view --record x.txt
  expect_fail "--record -" 2 "--record '-': raw frames need a fixed size" "$bin" view --record -
  printf 'ikshade-input 1\nf 0 0 640 360 1 2 3 4\nf 0.1 0.1 640 0 1 2 3 4\n' > /tmp/bad_input_$$.txt
  expect_fail "render --input with a bad size line" 1 "bad_input_$$.txt:3: size 640x0: expected whole numbers" \
    "$bin" render --input /tmp/bad_input_$$.txt -o x.png
  printf 'ikshade-input 1\nf 1 0 640 360 1 2 3 4\nf 0.5 0.1 640 360 1 2 3 4\n' > /tmp/bad_input_$$.txt
  expect_fail "render --input whose time goes back" 1 "bad_input_$$.txt:3: time 0.5 goes back" \
    "$bin" render --input /tmp/bad_input_$$.txt -o x.png
  printf 'hello\n' > /tmp/bad_input_$$.txt
  expect_fail "render --input of another file" 1 "bad_input_$$.txt:1: not an ikshade input recording" \
    "$bin" render --input /tmp/bad_input_$$.txt -o x.png
  rm -f /tmp/bad_input_$$.txt x.png
  expect_fail "--record and --record-input naming one file" 2 \
    "--record-input './r.mp4': the same file as the recording 'r.mp4': the one would replace the other" \
    "$bin" view --record r.mp4 --record-input ./r.mp4
  expect_fail "--record-fps 0" 2 "--record-fps '0': expected a number other than 0" "$bin" view --record r.mp4 --record-fps 0
  echo "part 1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ] || exit 1
  IKS_IN_XVFB=1 xvfb_exec bash "$0" "$@"; exit $?
fi

tmp=$(mktemp -d)
vpid=
cleanup() { [ -n "$vpid" ] && kill "$vpid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp"

# wait_for PATTERN N FILE: until FILE has N lines matching PATTERN (15 s at most)
wait_for() {
  for _ in $(seq 1500); do
    [ "$(grep -cE -- "$1" "$3" 2>/dev/null)" -ge "$2" ] && return 0
    sleep 0.01
  done
  # every wait here is for something the viewer must do: a timeout is a failure of the test, so that
  # a check after it cannot pass on what an earlier step left (an old screenshot)
  fail=$((fail + 1))
  echo "FAIL: timed out waiting for $2 x '$1' in $3:" >&2; cat "$3" >&2
  if [ -n "${vpid:-}" ] && ! kill -0 "$vpid" 2>/dev/null; then
    wait "$vpid"; echo "(the viewer has exited, status $?; its stderr:)" >&2; cat v.err >&2
  fi
  return 1
}
# start SHADER [OPTIONS]: the viewer in the background, its window id in $wid
start() {
  nshots=0 nok=0 vname=$(basename "$1")
  "$bin" view "$@" --size 640x360 --log ${hud_flag---no-hud} > v.out 2> v.err & vpid=$!
  wid=
  for _ in $(seq 600); do  # 30 s: a sanitizer build on a busy machine starts slowly
    wid=$(xdotool search --name "^$(basename "$1")" 2>/dev/null | head -1)
    [ -n "$wid" ] && break
    sleep 0.05
  done
  [ -n "$wid" ] || { echo "no window for $1" >&2; cat v.err >&2; return 1; }
  sleep "${settle-0.3}"
}
# shot: presses S and sets $shot to the new screenshot's name
nshots=0
shot() {
  shot= nshots=$((nshots + 1))
  for _ in 1 2 3; do  # a synthetic key can be lost on a loaded machine: ask again after 5 s
    # a window id taken while the window was being made can go stale: find it again
    xdotool getwindowname "$wid" >/dev/null 2>&1 || wid=$(xdotool search --name "^$vname" 2>/dev/null | head -1)
    xdotool key --window "$wid" s
    for _ in $(seq 100); do [ "$(grep -c '^screenshot: ' v.out)" -ge "$nshots" ] && break 2; sleep 0.05; done
  done
  wait_for '^screenshot: ' "$nshots" v.out || return 1
  shot=$(grep '^screenshot: ' v.out | tail -1 | cut -d' ' -f2)
}
# stop: Esc until the viewer exits (a synthetic key can be lost on a loaded machine), then its status
stop() {
  for _ in 1 2 3 4 5; do
    xdotool key --window "$wid" Escape 2>/dev/null
    for _ in $(seq 30); do kill -0 "$vpid" 2>/dev/null || break 2; sleep 0.1; done
  done
  # a viewer that ignores Esc is a failure, not a hang of the suite
  if kill -0 "$vpid" 2>/dev/null; then echo "stop: the viewer ignored Esc; killed" >&2; kill -9 "$vpid"; fi
  # A viewer that quits on the press can take its window away before xdotool sends the release; xdotool
  # then fails between the two and Escape stays down in the server, whose auto-repeat hands it to the
  # next window to take the focus: the next viewer quit at once (status 0, "ended by Esc").
  xdotool keyup Escape 2>/dev/null
  wait "$vpid"; local rc=$?; vpid=
  # the server may hold the window a moment after its client ended: the next start, of a viewer with
  # the same name under load, must not find this one
  for _ in $(seq 100); do [ -z "$(xdotool search --name "^$vname" 2>/dev/null)" ] && break; sleep 0.05; done
  return $rc
}
centre() { png pixel "$1" 320 180; }
# shown R G B: screenshots until the centre is that colour: the window is up before its first build,
# and a test that deletes or edits the file must know the first build is done (a loaded machine, a
# sanitizer build, can take seconds)
shown() {
  for _ in $(seq 40); do
    shot || return 1
    [ "$(centre "$shot")" = "$1" ] && return 0
    sleep 0.25
  done
  return 1
}
nok=0
# edit_then_wait: after an edit, the next "ok" reload line
reloaded() { nok=$((nok + 1)); wait_for 'reload .*: ok' "$nok" v.out; }

# ---- the limb demo: it opens, and a drag moves the target ----------------------------------------
cp "$tests/../shaders/limb.frag" limb.frag
start limb.frag
shot
check "S writes a PNG at the framebuffer's size" [ "$(png info "$shot")" = "640 360 3" ]
check "S names the screenshot ikshade-0001.png" [ "$shot" = ikshade-0001.png ]
# press at window pixel (420,110) and hold: iMouse = (420, 360-110) in shadertoy's pixels
xdotool mousemove --window "$wid" 400 120 mousedown 1 mousemove --window "$wid" 410 115 \
  sleep 0.1 mousemove --window "$wid" 420 110 sleep 0.3
shot
xdotool mouseup 1
check "a drag puts the joint and bones where the C solver does" png limb "$shot" 420 250 "$bin"
check "the second screenshot takes the next free name" [ "$shot" = ikshade-0002.png ]
# F: fullscreen on the 1280x1024 Xvfb screen and back; a resize changes the framebuffer (iResolution)
xdotool key --window "$wid" f sleep 0.5
shot; check "F goes fullscreen: the framebuffer is the screen" [ "$(png info "$shot")" = "1280 1024 3" ]
xdotool key --window "$wid" f sleep 0.5
shot; check "F again returns to the window" [ "$(png info "$shot")" = "640 360 3" ]
xdotool windowsize "$wid" 800 500 sleep 0.5
shot; check "a resized window renders at its new size" [ "$(png info "$shot")" = "800 500 3" ]
stop
check "Esc quits with status 0" [ $? -eq 0 ]

# ---- the HUD, seen in the window itself (xwd): a dark panel top-left; H hides it -------------------------
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(vec3(200.0 / 255.0), 1.0); }\n' > grey.frag
hud_flag= start grey.frag
shot; sleep 0.3  # a frame is surely on screen (start only waits for the window to exist)
xwd -silent -id "$wid" > hud1.xwd
xdotool key --window "$wid" h sleep 0.4
xwd -silent -id "$wid" > hud2.xwd
check "the HUD darkens its corner of the window" [ "$(png xwd hud1.xwd 5 5)" = "67 67 67" ]
check "H hides the HUD" [ "$(png xwd hud2.xwd 5 5)" = "200 200 200" ]
check "the HUD covers only its corner" [ "$(png xwd hud1.xwd 600 300)" = "200 200 200" ]
stop

# ---- keys and iMouse: a shader that shows iFrame, iMouse.z and iMouse.w as colours ----------------
cat > keys.frag <<'G'
void mainImage(out vec4 c, in vec2 f) {
  c = vec4(float(iFrame % 256) / 255.0, iMouse.z > 0.0 ? 1.0 : 0.0, iMouse.w > 0.0 ? 1.0 : 0.0, 1.0);
}
G
start keys.frag --paused
shot; a=$(centre "$shot")
check "paused: iFrame stays 0" [ "$a" = "0 0 0" ]
xdotool key --window "$wid" Right Right Right
shot; check "Right steps three frames while paused" [ "$(centre "$shot")" = "3 0 0" ]
xdotool key --window "$wid" Left
shot; check "Left steps one back" [ "$(centre "$shot")" = "2 0 0" ]
xdotool key --window "$wid" r
shot; check "R restarts at frame 0" [ "$(centre "$shot")" = "0 0 0" ]
xdotool mousemove --window "$wid" 100 100 mousedown 1 sleep 0.3
shot; check "held after the press frame: z > 0, w < 0" [ "$(centre "$shot")" = "0 255 0" ]
xdotool mouseup 1 sleep 0.3
shot; check "released: z < 0" [ "$(centre "$shot")" = "0 0 0" ]
xdotool key --window "$wid" space sleep 0.3
shot; check "Space resumes: frames advance" [ "$(centre "$shot" | cut -d' ' -f1)" != 0 ]
stop

# ---- a shadertoy.com JSON with a buffer and the keyboard: keys go to the shader, Ctrl+S shoots -------
python3 - <<'P' > kb.json
import json
# Buffer A latches row 1 (pressed this frame) of key B into green: a one-frame pulse made visible
buf = "void mainImage(out vec4 c, in vec2 f) { float prev = texelFetch(iChannel0, ivec2(f), 0).g; c = vec4(0.0, max(prev, texelFetch(iChannel1, ivec2(66, 1), 0).x), 0.0, 1.0); }"
img = "void mainImage(out vec4 c, in vec2 f) { c = vec4(texelFetch(iChannel0, ivec2(65, 0), 0).x, texelFetch(iChannel0, ivec2(65, 2), 0).x, texelFetch(iChannel1, ivec2(f), 0).g, 1.0); }"
print(json.dumps({"Shader": {"info": {"name": "kb"}, "renderpass": [
  {"type": "buffer", "name": "Buffer A", "outputs": [{"id": 257, "channel": 0}], "code": buf, "inputs": [
    {"id": 257, "ctype": "buffer", "channel": 0}, {"id": 33, "ctype": "keyboard", "channel": 1}]},
  {"type": "image", "name": "Image", "outputs": [{"id": 37, "channel": 0}], "code": img, "inputs": [
    {"id": 33, "ctype": "keyboard", "channel": 0}, {"id": 257, "ctype": "buffer", "channel": 1}]}]}}))
P
start kb.json
cshot() { # Ctrl+S: the viewer's screenshot key while the shader has the keyboard
  xdotool key --window "$wid" ctrl+s
  shot= nshots=$((nshots + 1)); wait_for '^screenshot: ' "$nshots" v.out && shot=$(grep '^screenshot: ' v.out | tail -1 | cut -d' ' -f2)
}
cshot; check "keyboard: nothing held, toggled or pressed" [ "$(centre "$shot")" = "0 0 0" ]
xdotool keydown --window "$wid" a sleep 0.3
cshot; check "keyboard: A held (row 0) and toggled on (row 2)" [ "$(centre "$shot")" = "255 255 0" ]
xdotool keyup --window "$wid" a sleep 0.3
cshot; check "keyboard: A released, still toggled" [ "$(centre "$shot")" = "0 255 0" ]
xdotool key --window "$wid" b sleep 0.3
cshot; check "keyboard: B's one-frame press (row 1) reached the buffer" [ "$(centre "$shot")" = "0 255 255" ]
xdotool key --window "$wid" s sleep 0.4
check "keyboard: a plain S went to the shader, not to the screenshot key" [ "$(grep -c '^screenshot: ' v.out)" -eq 4 ]
stop

# ---- feedback in the viewer: paused, the buffers hold still; a step moves them; a resize keeps them --------
mkdir -p fbtoy
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0) + vec4(1.0 / 255.0); }\n' > fbtoy/a.glsl
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texelFetch(iChannel0, ivec2(f), 0).rgb, 1.0); }\n' > fbtoy/image.glsl
printf 'a.iChannel0 = a\nimage.iChannel0 = a\n' > fbtoy/manifest.txt
start fbtoy --paused
shot; a=$(centre "$shot"); sleep 0.3
shot; check "paused: the feedback buffer holds still (one frame drawn)" [ "$a / $(centre "$shot")" = "1 1 1 / 1 1 1" ]
xdotool key --window "$wid" Right sleep 0.3
shot; check "a step while paused moves the buffer on by one" [ "$(centre "$shot")" = "2 2 2" ]
xdotool windowsize "$wid" 800 500 sleep 0.5
shot; check "a resize keeps the buffer's contents, as the site does" [ "$(png info "$shot") / $(png pixel "$shot" 400 250)" = "800 500 3 / 2 2 2" ]
stop

# ---- a directory toy: editing its manifest rewires it live ---------------------------------------------
mkdir -p dtoy
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(0.0, 60.0 / 255.0, 0.0, 1.0); }\n' > dtoy/a.glsl
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texelFetch(iChannel0, ivec2(f), 0).rgb + vec3(10.0 / 255.0), 1.0); }\n' > dtoy/image.glsl
start dtoy
shot; check "directory toy: nothing wired, iChannel0 is black" [ "$(centre "$shot")" = "10 10 10" ]
printf 'image.iChannel0 = a\n' > dtoy/manifest.txt
reloaded; shot; check "directory toy: a new manifest wires Buffer A in, live" [ "$(centre "$shot")" = "10 70 10" ]
stop

# ---- live edits -----------------------------------------------------------------------------------
colour() { printf '#include "col.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(%s, 1.0); }\n' "$1"; }
printf 'vec3 tint() { return vec3(0.0); }\n' > col.glsl
colour 'vec3(10.0, 20.0, 30.0) / 255.0 + tint()' > live.frag
start live.frag
shot; check "live: first picture" [ "$(centre "$shot")" = "10 20 30" ]

colour 'vec3(40.0, 20.0, 30.0) / 255.0 + tint()' > live.frag   # truncate-then-write (shell >)
reloaded; shot; check "live: a truncate-then-write save is picked up" [ "$(centre "$shot")" = "40 20 30" ]

colour 'vec3(50.0, 20.0, 30.0) / 255.0 + tint()' > .live.tmp && mv .live.tmp live.frag   # rename
reloaded; shot; check "live: a save by rename is picked up" [ "$(centre "$shot")" = "50 20 30" ]

rm live.frag; colour 'vec3(60.0, 20.0, 30.0) / 255.0 + tint()' > live.frag   # a new file over the old
reloaded; shot; check "live: a new file over the old is picked up" [ "$(centre "$shot")" = "60 20 30" ]

: > live.frag; sleep 0.3; colour 'vec3(70.0, 20.0, 30.0) / 255.0 + tint()' >> live.frag   # slow writer
reloaded; shot; check "live: a slow truncate, then write, ends on the new picture" [ "$(centre "$shot")" = "70 20 30" ]

printf 'vec3 tint() { return vec3(0.0, 5.0, 0.0) / 255.0; }\n' > col.glsl
reloaded; shot; check "live: an edit to an included file reloads" [ "$(centre "$shot")" = "70 25 30" ]

n_before=$(grep -c '^reload' v.out)
colour 'vec3(70.0, 20.0, 30.0) / 255.0 + tint()' > live.frag   # the same bytes again
sleep 0.5
check "live: a save that changes nothing does not recompile" [ "$(grep -c '^reload' v.out)" -eq "$n_before" ]

printf '#include "col.glsl"\nvoid mainImage(out vec4 c, in vec2 f) {\n  c = vec4(oops);\n}\n' > live.frag
wait_for 'reload .*: error' 1 v.out
wait_for '^live.frag:3(:[0-9]+)?: error: ' 1 v.err
check "live: a broken edit prints live.frag:3 compiler-style" grep -qE '^live.frag:3(:[0-9]+)?: error: ' v.err
shot; check "live: a broken edit keeps the last good picture" [ "$(centre "$shot")" = "70 25 30" ]
check "live: the process lives on after a broken edit" kill -0 "$vpid"
colour 'vec3(80.0, 20.0, 30.0) / 255.0 + tint()' > live.frag
reloaded; shot; check "live: a fix recovers" [ "$(centre "$shot")" = "80 25 30" ]

printf 'vec3 tint() { return nope; }\n' > col.glsl
wait_for '^col.glsl:1(:[0-9]+)?: error: ' 1 v.err
check "live: an error in an included file names that file and line" grep -qE '^col.glsl:1(:[0-9]+)?: error: ' v.err
printf 'vec3 tint() { return vec3(0.0); }\n' > col.glsl
reloaded; shot; check "live: fixing the included file recovers" [ "$(centre "$shot")" = "80 20 30" ]

# started on a broken file: the viewer stays up and a good save brings the picture
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(nope); }\n' > late.frag
stop
cp live.frag keep.frag
start late.frag
wait_for 'late.frag: nothing to show until a save compiles' 1 v.err
check "started on a broken shader: the error is printed as late.frag:1" grep -qE '^late.frag:1(:[0-9]+)?: error: ' v.err
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0, 2.0, 3.0, 255.0) / 255.0; }\n' > late.frag
reloaded; shot; check "... and a good save shows the picture" [ "$(centre "$shot")" = "1 2 3" ]
stop
cp keep.frag live.frag
start live.frag
check "live: restarted on the good file, it shows it" shown "80 20 30"

rm live.frag
wait_for 'live.frag: deleted; showing the last good program' 1 v.err
check "live: a deleted file is reported and the viewer keeps running" kill -0 "$vpid"
colour 'vec3(90.0, 20.0, 30.0) / 255.0 + tint()' > live.frag
reloaded; shot; check "live: the file coming back is picked up" [ "$(centre "$shot")" = "90 20 30" ]
stop
check "the viewer exits 0 after all that" [ $? -eq 0 ]

# ---- a session's inputs recorded, and replayed by render at another size and frame rate ------------
start limb.frag --record-input in.txt --set r1=0.55
xdotool mousemove --window "$wid" 400 120 mousedown 1 mousemove --window "$wid" 410 115 \
  sleep 0.1 mousemove --window "$wid" 420 110 sleep 0.6
xdotool mouseup 1
sleep 0.2
stop
check "record-input: the viewer says where the session went" grep -qE '^recorded: in.txt \([0-9]+ frames\)' v.out
check "record-input: the file starts with its version" [ "$(head -1 in.txt)" = "ikshade-input 1" ]
check "record-input: the --set values are in it" grep -qx 'set r1=0.55' in.txt
# the first recorded frame where the pointer (window 420,110) was held: iMouse (420, 250) in 640x360
t_held=$(awk '$1 == "f" && $6 == 420 && $7 == 250 && $8 > 0 { print $2; exit }' in.txt)
check "record-input: the drag is in the file (held at 420,250 from T=$t_held)" [ -n "$t_held" ]
# render frame i stands at i/30 s into the session: the first one at or after the hold, plus one
i=$(awk -v t="$t_held" 'BEGIN { i = int(t * 30); if (i / 30 < t) i++; print i + 1 }')
"$bin" render limb.frag --input in.txt -o replay.png --frames $i:$((i + 1)) --size 1280x720 --fps 30 --quiet
check "replay at 1280x720 and 30 fps: the joint where the C solver puts it for the recorded mouse" \
  png limb replay.png 840 500 "$bin"
n=$("$bin" render limb.frag --input in.txt -o rp/%04d.png --size 160x90 --fps 20 2>&1 | grep -oE '^ikshade render: [0-9]+' | grep -oE '[0-9]+$')
d=$(awk '$1 == "f" { t = $2 } END { print int(t * 20) + 1 }' in.txt)
check_eq "replay without --frames renders the whole session at --fps" "$d" "$n"

# ---- paused and idle: no redraws at full speed ------------------------------------------------------
# the title says the frame rate the viewer draws at: paused with nothing happening it is a few frames a
# second (it was hundreds); a key still answers at once, and the picture is the paused one
start limb.frag --paused
sleep 2
title=$(xdotool search --name "^limb.frag" getwindowname %@ 2>/dev/null | head -1)
pfps=$(grep -oE ' - [0-9]+ fps' <<<"$title" | grep -oE '[0-9]+')
check "paused and idle: a few redraws a second, not hundreds (title '$title')" [ "${pfps:-999}" -le 10 ]
shot
check "paused and idle: S still answers, with the picture" [ "$(png info "$shot")" = "640 360 3" ]
stop

# ---- recording what the window shows ----------------------------------------------------------------
# paused, every frame is the same picture: each recorded frame must be exactly the S screenshot (both
# without the HUD), i.e. what the window showed
start limb.frag --paused --record rec/%04d.png
for _ in $(seq 100); do [ "$(ls rec 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.05; done
shot
last=$(ls rec | tail -1)
check "recording: frames are written while the viewer runs" [ -n "$last" ]
check "recording: a recorded frame is what the window showed (the S screenshot)" png diff "rec/$last" "$shot" 0 0
# V pauses: the count stops; V again resumes
xdotool key --window "$wid" v; sleep 0.5
n1=$(ls rec | wc -l); sleep 0.7; n2=$(ls rec | wc -l)
check "recording: V pauses it ($n1 then $n2 files)" [ "$n1" -eq "$n2" ]
xdotool key --window "$wid" v
for _ in $(seq 100); do [ "$(ls rec | wc -l)" -gt "$n2" ] && break; sleep 0.05; done
check "recording: V resumes it ($(ls rec | wc -l) > $n2)" [ "$(ls rec | wc -l)" -gt "$n2" ]
stop
check "recording: the viewer says where the frames went" grep -qE '^recorded: rec/%04d.png \([0-9]+ frames\)' v.out
n=$(grep -oE '^recorded: rec/%04d.png \([0-9]+' v.out | grep -oE '[0-9]+$')
check_eq "recording: as many frames as it says" "$n" "$(ls rec | wc -l)"
# a video: one frame per displayed frame, at --record-fps, the window's size
"$bin" view limb.frag --size 320x180 --no-hud --frames 25 --record rec.mp4 --record-fps 30 > r.out 2> r.err
check_eq "recording a video: 25 displayed frames, 25 video frames" 25 \
  "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 rec.mp4)"
check_eq "recording a video: the window's size, at --record-fps" "320,180,30/1" \
  "$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,r_frame_rate -of csv=p=0 rec.mp4)"
check "recording a video: reported" grep -q '^recorded: rec.mp4 (25 frames)' r.out
# takes: a resize ends a take; V starts the next under a name the user did not type (take-2.mp4), which
# never replaces a file already there: the user's take-2.mp4 stays, the take becomes take-3.mp4
printf 'mine' > take-2.mp4
start limb.frag --record take.mp4
for _ in $(seq 100); do [ -n "$(ls -A | grep '^\.take')" ] && break; sleep 0.05; done
xdotool windowsize "$wid" 500 300 sleep 0.5
wait_for 'take.mp4 ends here' 1 v.err
xdotool key --window "$wid" v; sleep 1
stop
check "takes: the first take is reported" grep -q '^recorded: take.mp4 (' v.out
check "takes: the next take went to a free name ($(tr '\n' '|' < v.out))" grep -q '^recorded: take-3.mp4 (' v.out
check_eq "takes: the user's take-2.mp4 is untouched" "mine" "$(cat take-2.mp4)"
check "takes: take-3.mp4 is a video at the new size" \
  [ "$(ffprobe -v error -show_entries stream=width,height -of csv=p=0 take-3.mp4 2>&1)" = "500,300" ]
check_eq "takes: no temporaries left" "" "$(ls -A | grep '^\.take' || true)"
# the lossy formats at their default quality: frame k of the recording is the k-th displayed frame
# (grey k/4), read back by PIL
printf 'void mainImage(out vec4 o, in vec2 f) { o = vec4(vec3(float(iFrame %% 5) / 4.0), 1.0); }\n' > grey.frag
for rec in grey.webp greyj/%04d.jpg; do
  "$bin" view grey.frag --size 96x64 --no-hud --frames 5 --record "$rec" > r.out 2> r.err
  check "recording $rec: reported ($(tr '\n' '|' < r.err))" grep -q "^recorded: $rec (5 frames)" r.out
done
greys=$(/usr/bin/python3 - <<'PY'
import glob
from PIL import Image, ImageSequence
def grey(im):
    px = list(im.convert("RGB").getdata())
    return "%dx%d:%d-%d" % (im.size + (min(min(p) for p in px), max(max(p) for p in px)))
print(" ".join(grey(f) for f in ImageSequence.Iterator(Image.open("grey.webp"))))
print(" ".join(grey(Image.open(p)) for p in sorted(glob.glob("greyj/*.jpg"))))
PY
)
want="96x64:0-0 96x64:64-64 96x64:128-128 96x64:191-191 96x64:255-255"
check_eq "recording a WebP: five frames, each the grey it showed" "$want" "$(sed -n 1p <<<"$greys")"
check_eq "recording JPEGs: five files, each the grey it showed" "$want" "$(sed -n 2p <<<"$greys")"

# a bounded run (--frames, a script's) that never had anything to show fails as a render would, with
# its error said once; a good one ends well
printf 'void mainImage(out vec4 o, in vec2 f) { o = nope; }\n' > never.frag
"$bin" view never.frag --size 64x36 --frames 3 > nv.out 2> nv.err; rc=$?
check_eq "view --frames 3 of a shader that never compiled: exit 1" 1 "$rc"
check "... its error said once ($(tr '\n' '|' <nv.err))" [ "$(grep -c "never.frag:1:[0-9]*: error" nv.err)" -eq 1 ]
echo junk > junk.png
"$bin" view limb.frag --size 64x36 --frames 3 --channel0 junk.png > nv.out 2> nv.err; rc=$?
check_eq "view --frames 3 with a texture that is no image: exit 1" 1 "$rc"
"$bin" view limb.frag --size 64x36 --frames 3 > nv.out 2> nv.err; rc=$?
check_eq "view --frames 3 of a good shader: exit 0 ($(tr '\n' '|' <nv.err))" 0 "$rc"
# the HUD shows the file's name: bytes outside its font's table (UTF-8, a tab, an escape) are drawn as
# '?', not looked up past the table (the sanitizer build reads this case)
hudname=$(printf 'caf\303\251\t\033x.frag')
cp limb.frag "$hudname"
"$bin" view "$hudname" --size 64x36 --frames 3 > nv.out 2> nv.err; rc=$?
check_eq "view with the HUD of a name in UTF-8 with control bytes: exit 0 ($(tr '\n' '|' <nv.err))" 0 "$rc"

# ---- live reload where it used to stop for good ------------------------------------------------------
# the shader's directory deleted and made again (a checkout, a sync tool)
mkdir -p gone
colour 'vec3(11.0, 20.0, 30.0) / 255.0 + tint()' > gone/s.frag; cp col.glsl gone/
start gone/s.frag
check "live: the first build is on screen" shown "11 20 30"
rm -rf gone
wait_for 's.frag: deleted; showing the last good program' 1 v.err
mkdir gone; cp col.glsl gone/
colour 'vec3(12.0, 20.0, 30.0) / 255.0 + tint()' > gone/s.frag
reloaded; shot; check "live: a directory deleted and made again is watched again" [ "$(centre "$shot")" = "12 20 30" ]
colour 'vec3(13.0, 20.0, 30.0) / 255.0 + tint()' > gone/s.frag
reloaded; shot; check "... and later saves in it reload too" [ "$(centre "$shot")" = "13 20 30" ]
stop
# the same while the viewer starts: deleted before its first build reads it, or while that build runs
# (the window is up before the build), the file coming back is seen as a save
mkdir -p early
colour 'vec3(14.0, 20.0, 30.0) / 255.0 + tint()' > early/e.frag; cp col.glsl early/
settle=0 start early/e.frag
rm -rf early
wait_for 'e.frag: deleted' 1 v.err
mkdir early; cp col.glsl early/
colour 'vec3(15.0, 20.0, 30.0) / 255.0 + tint()' > early/e.frag
wait_for 'reload .*: ok' 1 v.out; shot
check "live: a shader deleted while the viewer starts is shown once it is back" [ "$(centre "$shot")" = "15 20 30" ]
stop
# the shader is a symbolic link to a file elsewhere, and that file is edited
mkdir -p real; cp col.glsl real/
colour 'vec3(21.0, 20.0, 30.0) / 255.0 + tint()' > real/t.frag
ln -sf real/t.frag linked.frag
start linked.frag
check "live: a link's target is shown" shown "21 20 30"
colour 'vec3(22.0, 20.0, 30.0) / 255.0 + tint()' > real/t.frag
reloaded; shot; check "live: an edit of a link's target reloads" [ "$(centre "$shot")" = "22 20 30" ]
stop
# an #include of a file that does not exist yet: creating it is the fix
printf '#include "later.glsl"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(later(), 1.0); }\n' > waits.frag
start waits.frag
wait_for 'cannot include "later.glsl"' 1 v.err
printf 'vec3 later() { return vec3(31.0, 20.0, 30.0) / 255.0; }\n' > later.glsl
reloaded; shot; check "live: a missing #include created later is picked up" [ "$(centre "$shot")" = "31 20 30" ]
stop

# ---- the X server goes away during a recording ------------------------------------------------------
# Xlib ends the process when its connection dies; the recording is finished first: the video plays,
# holds the frames the viewer says, and no temporary is left
mkfifo xfd
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp 3>xfd >/dev/null 2>&1 & xpid=$!
read -r -t 20 xdisp <xfd; rm -f xfd
mkdir lost
(cd lost && DISPLAY=":$xdisp" exec "$bin" view ../limb.frag --size 320x180 --record lost.mp4 > v.out 2> v.err) & lp=$!
for _ in $(seq 300); do [ -n "$(ls -A lost | grep '^\.lost')" ] && break; sleep 0.05; done
sleep 1
kill "$xpid"; wait "$xpid" 2>/dev/null
wait "$lp"; rc=$?
check_eq "the display gone during --record: exit 1 ($(tr '\n' '|' < lost/v.err))" 1 "$rc"
said=$(grep -oE '^recorded: lost.mp4 \([0-9]+ frames\)' lost/v.out | grep -oE '\([0-9]+' | tr -d '(')
check "... the recording is reported ($(cat lost/v.out))" [ -n "$said" ] && [ "$said" -gt 0 ]
check_eq "... and holds the frames it says, read by ffprobe" "$said" \
  "$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 lost/lost.mp4 2>&1)"
check "... the warning says why" grep -q "the display went away" lost/v.err
check_eq "... no temporary left" "" "$(ls -A lost | grep '^\.' || true)"
finish
