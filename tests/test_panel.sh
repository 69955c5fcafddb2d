#!/usr/bin/env bash
# The viewer's parameter panel under a real X server (Xvfb) with real input (xdotool): P shows it where
# it is drawn and nowhere else; presses on it never reach iMouse; a drag changes the value and the
# picture as the value says; a toggle; the value survives a live reload (also one with a new default);
# Backspace resets to the new default; C prints the --set line; the limb's r1 dragged moves the joint to
# where `ikshade solve` puts it; a recorded session replays byte-identically in render --input, and the
# drag changes the render from its time on.
# usage: test_panel.sh IKSHADE TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 tests=$2
png() { python3 "$tests/png.py" "$@"; }

if [ -z "${IKS_IN_XVFB:-}" ]; then
  IKS_IN_XVFB=1 xvfb_exec bash "$0" "$@"; exit $?
fi

tmp=$(mktemp -d)
vpid=
cleanup() { [ -n "$vpid" ] && kill "$vpid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp"

# wait_for PATTERN N FILE: until FILE has N lines matching PATTERN (15 s at most); a timeout fails
wait_for() {
  for _ in $(seq 1500); do
    [ "$(grep -cE -- "$1" "$3" 2>/dev/null)" -ge "$2" ] && return 0
    sleep 0.01
  done
  fail=$((fail + 1))
  echo "FAIL: timed out waiting for $2 x '$1' in $3:" >&2; cat "$3" >&2; cat v.err >&2
  return 1
}
# start SHADER [OPTIONS]: the viewer at 640x360 (the panel's layout below assumes it), window id in $wid
start() {
  nshots=0 nparams=0 nok=0 vname=$(basename "$1")
  "$bin" view "$@" --size 640x360 --log --no-hud > v.out 2> v.err & vpid=$!
  wid=
  for _ in $(seq 600); do
    wid=$(xdotool search --name "^$vname" 2>/dev/null | head -1)
    [ -n "$wid" ] && break
    sleep 0.05
  done
  [ -n "$wid" ] || { echo "no window for $1" >&2; cat v.err >&2; return 1; }
  sleep 0.3
}
# key K: one key to the window, found again if its id went stale
key() {
  xdotool getwindowname "$wid" >/dev/null 2>&1 || wid=$(xdotool search --name "^$vname" 2>/dev/null | head -1)
  xdotool key --window "$wid" "$1"
}
# shot: S, then $shot names the new screenshot (the frame without HUD or panel)
shot() {
  shot= nshots=$((nshots + 1))
  for _ in 1 2 3; do
    key s
    for _ in $(seq 100); do [ "$(grep -c '^screenshot: ' v.out)" -ge "$nshots" ] && break 2; sleep 0.05; done
  done
  wait_for '^screenshot: ' "$nshots" v.out || return 1
  shot=$(grep '^screenshot: ' v.out | tail -1 | cut -d' ' -f2)
}
# params: C, then $params is the printed line of --set options
params() {
  nparams=$((nparams + 1))
  key c
  wait_for '^parameters: ' "$nparams" v.out || return 1
  params=$(grep '^parameters: ' v.out | tail -1 | cut -d' ' -f2-)
}
# value NAME: NAME's value in $params
value() { tr ' ' '\n' <<<"$params" | sed -n "s/^$1=//p"; }
# row NAME: NAME's row in the panel: the uniforms in the toy's order, as the C line lists them (every
# uniform of these shaders is read, so none is left out of the line)
row() { tr ' ' '\n' <<<"$params" | grep -v '^--set$' | grep -n "^$1=" | cut -d: -f1 | awk '{ print $1 - 1 }'; }
# the panel's layout at 640x360 (scale 1, engine/panel.c): 300 px wide, 8 from the top-right corner; a
# 14 px title, then 14 px rows; a row's control from x 414 to 613 (one component), its reset at 616..628
row_y() { echo $((33 + 14 * $1)); }
stop() {
  for _ in 1 2 3 4 5; do
    key Escape 2>/dev/null
    for _ in $(seq 30); do kill -0 "$vpid" 2>/dev/null || break 2; sleep 0.1; done
  done
  if kill -0 "$vpid" 2>/dev/null; then echo "stop: the viewer ignored Esc; killed" >&2; kill -9 "$vpid"; fi
  xdotool keyup Escape 2>/dev/null
  wait "$vpid"; local rc=$?; vpid=
  for _ in $(seq 100); do [ -z "$(xdotool search --name "^$vname" 2>/dev/null)" ] && break; sleep 0.05; done
  return $rc
}
centre() { png pixel "$1" 320 180; }
not() { ! "$@"; }
grey() { python3 -c "import sys; v = round(float(sys.argv[1]) * 255); print(v, v, v)" "$1"; }
# near_grey PNG V: the centre is the grey of V (within one step: the float's rounding)
near_grey() {
  python3 - "$(centre "$1")" "$2" <<'EOF'
import sys
got = [int(c) for c in sys.argv[1].split()]
want = float(sys.argv[2]) * 255
sys.exit(0 if all(abs(c - want) <= 1.0 for c in got) else 1)
EOF
}
reloaded() { nok=$((nok + 1)); wait_for 'reload .*: ok' "$nok" v.out; }

# ---- a grey from two parameters; red while iMouse is held ------------------------------------------
cat > knob.frag <<'EOF'
uniform float level = 0.25;
uniform bool invert = false;
void mainImage(out vec4 o, vec2 f) {
    float v = invert ? 1.0 - level : level;
    o = iMouse.z > 0.0 ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(vec3(v), 1.0);
}
EOF
start knob.frag --record-input k.txt
shot
check_eq "the default level" "$(grey 0.25)" "$(centre "$shot")"
xwd -silent -id "$wid" > p0.xwd
key p; sleep 0.5
xwd -silent -id "$wid" > p1.xwd
inside=$(png xwddiff p0.xwd p1.xwd 340 12 628 40)
check "P shows the panel at the top right (pixels changed there: $inside)" [ "$inside" -gt 2000 ]
check_eq "P changes nothing outside the panel" 0 "$(png xwddiff p0.xwd p1.xwd 0 0 320 360)"
key p; sleep 0.5
xwd -silent -id "$wid" > p2.xwd
check_eq "P again hides it" 0 "$(png xwddiff p0.xwd p2.xwd 0 0 640 360)"
key p; sleep 0.3

# a press on the panel (its title) held: iMouse does not see it; one on the picture does
xdotool mousemove --window "$wid" 400 14 mousedown 1 sleep 0.3
shot
xdotool mouseup 1
check_eq "a press held on the panel does not reach iMouse" "$(grey 0.25)" "$(centre "$shot")"
xdotool mousemove --window "$wid" 100 300 mousedown 1 sleep 0.3
shot
xdotool mouseup 1
check_eq "a press held on the picture does" "255 0 0" "$(centre "$shot")"

params
check_eq "C prints the values as --set options" "--set level=0.25 --set invert=false" "$params"
lv=$(row level) inv=$(row invert)
# drag level's control 40 px to the right (a number field: +1% of the value a pixel; a slider: where
# the pointer is): the value changes and the picture shows it
y=$(row_y "$lv")
xdotool mousemove --window "$wid" 513 "$y" mousedown 1 sleep 0.1 mousemove --window "$wid" 533 "$y" sleep 0.1 \
  mousemove --window "$wid" 553 "$y" sleep 0.2 mouseup 1 sleep 0.2
params
v1=$(value level)
check "the drag changed level ($params)" python3 -c "import sys; sys.exit(not 0.25 < float('$v1') <= 1)"
shot
check "the picture shows the dragged level $v1 (centre $(centre "$shot"))" near_grey "$shot" "$v1"
# the toggle
xdotool mousemove --window "$wid" 513 "$(row_y "$inv")" click 1 sleep 0.3
params
check_eq "a click on the toggle" true "$(value invert)"
shot
check "the picture shows the toggle (1 - $v1; centre $(centre "$shot"))" near_grey "$shot" "$(python3 -c "print(1 - $v1)")"

# a live reload with a new default: the dragged value stays, the toggle too
sed -i 's/level = 0.25/level = 0.3/' knob.frag
reloaded
params
check_eq "the dragged value survives a reload with a new default" "--set level=$v1 --set invert=true" "$params"
shot
check "and the picture still shows it" near_grey "$shot" "$(python3 -c "print(1 - $v1)")"
# Backspace: every value to the (new) default
key BackSpace; sleep 0.3
params
check_eq "Backspace resets to the file's new default" "--set level=0.3 --set invert=false" "$params"
shot
check_eq "the picture after the reset" "$(grey 0.3)" "$(centre "$shot")"
# the row's reset button alone: drag, then r
xdotool mousemove --window "$wid" 513 "$y" mousedown 1 sleep 0.1 mousemove --window "$wid" 543 "$y" sleep 0.2 mouseup 1
xdotool mousemove --window "$wid" 622 "$y" click 1 sleep 0.3
params
check_eq "a row's r resets it" "--set level=0.3 --set invert=false" "$params"
stop
check "the viewer exits 0" [ $? -eq 0 ]

# the recording: the changes as u lines; no frame's iMouse press inside the panel (x 332..632 and y up
# from 360-8-H: the panel's box is above y 250 for two rows), and the one on the picture is there
check "u lines for the drag, the toggle and the resets ($(grep -c '^u ' k.txt))" [ "$(grep -c '^u ' k.txt)" -ge 5 ]
check "the toggle recorded" grep -q '^u [0-9.]* invert=true$' k.txt
check "the press on the picture recorded as iMouse" grep -qE '^f ([^ ]+ ){6}100 -?60$' k.txt
check_eq "no iMouse press on the panel" 0 "$(awk '$1 == "f" && ($8 < 0 ? -$8 : $8) >= 332 && ($9 < 0 ? -$9 : $9) >= 250' k.txt | wc -l)"

# ---- replay: twice byte-identical; without the u lines the same until the first change, then not ----
"$bin" render knob.frag --input k.txt --size 64x36 --fps 10 -o ra/%04d.png > /dev/null 2> r.err
check "render --input of the session" [ $? -eq 0 ]
"$bin" render knob.frag --input k.txt --size 64x36 --fps 10 -o rb/%04d.png > /dev/null 2>> r.err
check_eq "replayed twice: byte-identical frames" "$(cd ra && cat ./*.png | md5sum)" "$(cd rb && cat ./*.png | md5sum)"
grep -v '^u ' k.txt > k0.txt
"$bin" render knob.frag --input k0.txt --size 64x36 --fps 10 -o r0/%04d.png > /dev/null 2>> r.err
tu=$(awk '$1 == "u" { print $2; exit }' k.txt)
before=$(python3 -c "import math; print(max(0, math.floor($tu * 10) - 1))")
last=$(ls ra | tail -1)
f() { printf '%04d.png' "$1"; }
check "the frame before the first change is the same without it" png same "ra/$(f "$before")" "r0/$(f "$before")"
# after the toggle (the reload's new default, 0.3, equals the first drag step and the final reset)
tinv=$(awk '$1 == "u" && $3 == "invert=true" { print $2; exit }' k.txt)
after=$(python3 -c "import math; print(math.ceil($tinv * 10) + 1)")
check "the frame after the toggle differs without the changes" not png same "ra/$(f "$after")" "r0/$(f "$after")"
check_eq "the last frame shows the reset value" "$(grey 0.3)" "$(png pixel "ra/$last" 32 18)"
# one Python for every frame's centre (a process each is slow on a loaded machine)
centres() {
  python3 - "$tests" "$1" <<'PY'
import glob, sys
sys.path.insert(0, sys.argv[1])
import png
for p in sorted(glob.glob(sys.argv[2] + '/*.png')):
    img = png.read(p)
    print(*png.px(img, img[0] // 2, img[1] // 2)[:3])
PY
}
check "a replayed frame shows the dragged and inverted value" \
  grep -x "$(python3 -c "v = round((1 - $v1) * 255); print(v, v, v)")" <(centres ra) >/dev/null

# ---- the limb: r1 dragged; the joint where the C solver puts it for the new r1 -----------------------
cp "$tests/../shaders/limb.frag" limb.frag
start limb.frag --record-input l.txt
key p; sleep 0.3
params
r1row=$(row r1)
check "the limb lists r1 ($params)" [ -n "$r1row" ]
y=$(row_y "${r1row:-0}")
xdotool mousemove --window "$wid" 513 "$y" mousedown 1 sleep 0.1 mousemove --window "$wid" 498 "$y" sleep 0.1 \
  mousemove --window "$wid" 483 "$y" sleep 0.2 mouseup 1 sleep 0.2
params
r1=$(value r1) r2=$(value r2)
check "the drag changed r1 ($r1)" [ "$r1" != 0.55 ]
# a target the new bones reach: halfway between the nearest and the farthest reach, down-left of the
# shoulder (the window's centre), far from the panel
read -r mx my < <(python3 -c "
r1, r2 = $r1, $r2
d = (abs(r1 - r2) + r1 + r2) / 2
sx, sy = -0.8 * d, -0.6 * d
print(round((sx * 360 + 640) / 2), round((sy * 360 + 360) / 2))")
xdotool mousemove --window "$wid" "$mx" $((360 - my)) mousedown 1 sleep 0.1 mousemove --window "$wid" "$mx" $((360 - my)) sleep 0.4
shot
xdotool mouseup 1
check "the joint and bones where the solver puts them for r1=$r1" png limb "$shot" "$mx" "$my" "$bin" "$r1" "$r2"
check "and not where the default r1 would" not png limb "$shot" "$mx" "$my" "$bin" 0.55 "$r2"
stop
"$bin" render limb.frag --input l.txt --size 320x180 --fps 10 -o la/%04d.png > /dev/null 2>> r.err
"$bin" render limb.frag --input l.txt --size 320x180 --fps 10 -o lb/%04d.png > /dev/null 2>> r.err
check "the limb's session replays" [ -n "$(ls la 2>/dev/null)" ]
check_eq "the limb's drag replayed twice: byte-identical" "$(cd la && cat ./*.png | md5sum)" "$(cd lb && cat ./*.png | md5sum)"
grep -v '^u ' l.txt > l0.txt
"$bin" render limb.frag --input l0.txt --size 320x180 --fps 10 -o l0/%04d.png > /dev/null 2>> r.err
last=$(ls la | tail -1)
check "the limb's render changes after the drag ($(grep '^u ' l.txt | tr '\n' ' '))" not png same "la/$last" "l0/$last"
tu=$(awk '$1 == "u" { print $2; exit }' l.txt)
before=$(python3 -c "import math; print(max(0, math.floor($tu * 10) - 1))")
check "and not before it" png same "la/$(f "$before")" "l0/$(f "$before")"
[ -s r.err ] && { echo "render's stderr:" >&2; cat r.err >&2; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
