#!/usr/bin/env bash
# The viewer's webcam channel under Xvfb, through the capture a camera goes through (ffmpeg in a thread,
# the newest frame each draw) fed by the test device `webcam:test` (ffmpeg's testsrc2): what the window
# showed (the viewer's own PNG recording, read here by Python) is the pattern, upright; the capture's
# ffmpeg killed mid-session is one line, the viewer runs on and the camera comes back; a save keeps the
# capture; a camera that is not there is one line and black, and a line of the HUD while it lasts; --record-input writes the camera beside the log as a lossless video,
# whose frames (read by ffmpeg) are what the window showed at those times, and `render --input` replays
# them; and without --record/--record-input nothing is written.
# usage: test_webcam.sh IKSHADE TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$(realpath "$1") tests=$(realpath "$2")

if [ -z "${IKS_IN_XVFB:-}" ]; then
  expect_fail "--webcam without a device" 2 "--webcam needs a camera: /dev/videoN or test" "$bin" view --webcam
  echo "part 1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ] || exit 1
  IKS_IN_XVFB=1 xvfb_exec bash "$0" "$@"; exit $?
fi

tmp=$(mktemp -d)
vpid=
cleanup() { [ -n "$vpid" ] && kill "$vpid" 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $tmp" >&2 || rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp"
# the channel's texels as they are, one to a pixel (the channel's vflip puts the camera's top at the top)
cat > show.frag <<'EOF'
void mainImage(out vec4 o, vec2 p) { o = vec4(texelFetch(iChannel0, ivec2(p), 0).rgb, 1.0); }
EOF
# wait_for PATTERN N FILE: until FILE has N lines matching PATTERN (20 s at most)
wait_for() {
  for _ in $(seq 2000); do
    [ "$(grep -cE -- "$1" "$3" 2>/dev/null)" -ge "$2" ] && return 0
    sleep 0.01
  done
  fail=$((fail + 1)); echo "FAIL: timed out waiting for $2 x '$1' in $3:" >&2; cat "$3" >&2
  return 1
}
# the capture's ffmpeg: the viewer's child
child() { pgrep -P "$vpid" -x ffmpeg | head -1; }

# ---- a session: captured, recorded, the camera pulled and back --------------------------------------
mkdir out
"$bin" view show.frag --channel0 webcam:test --size 320x240 --no-hud --log --record out/%05d.png \
  --record-input s.log > v.out 2> v.err & vpid=$!
wait_for 'webcam test: capturing 320x240' 1 v.err
sleep 1
c1=$(child)
check "the capture runs ffmpeg as the viewer's child" [ -n "$c1" ]
kill -9 "$c1" 2>/dev/null
wait_for 'webcam test: lost \(' 1 v.err
check "the loss is one line saying what the channel does" \
  grep -q 'webcam test: lost (.*); the channel holds its last frame, trying again every second' v.err
check "the viewer runs on without its camera" kill -0 "$vpid"
wait_for 'webcam test: back, capturing 320x240' 1 v.err
c2=$(child)
check "a new capture after the loss ($c1 -> $c2)" [ -n "$c2" -a "$c2" != "$c1" ]
# a save rebuilds the toy: the camera runs on (the same ffmpeg), the new version shows it
sleep 0.3
printf '// saved\n' >> show.frag
wait_for 'reload .*: ok' 1 v.out
check "a reload keeps the capture running" [ "$(child)" = "$c2" ]
sleep 0.5
kill -INT "$vpid"; wait "$vpid"; rc=$?; vpid=
check "Ctrl-C ends the session as an interrupted one (rc $rc)" [ "$rc" -eq 130 ]
gone() { ! kill -0 "$1" 2>/dev/null; }
check "... its capture's ffmpeg ended with it" gone "$c2"
check "... the camera's video written beside the log" [ -s s-webcam.mkv ]
check "... and named in the log" grep -qE '^c [0-9.]+ image 0 s-webcam.mkv$' s.log
# (a loaded machine may stall the pattern 3 s and lose it once more: that is a new line, a repeat is not)
check "... each state said once: no line repeated" [ -z "$(grep 'webcam test' v.err | uniq -d)" ]

# what the window showed: testsrc2 upright (its dark clock box at the top left, red at the bottom left,
# cyan at the right), in the middle of the session
n=$(ls out | wc -l)
mid=out/$(printf %05d $((n / 2))).png
png() { python3 "$tests/png.py" "$@"; }
# (testsrc2's bars are not full 255s after its YUV: near enough)
is() { # RGB PATTERN: each channel high (h, above 200) or low (l, below 100)
  local -a v; read -ra v <<<"$1"; local i
  for i in 0 1 2; do
    case ${2:i:1} in h) [ "${v[i]}" -gt 200 ] || return 1 ;; l) [ "${v[i]}" -lt 100 ] || return 1 ;; esac
  done
}
bl=$(png pixel "$mid" 20 230) right=$(png pixel "$mid" 300 120) top=$(png pixel "$mid" 4 4)
check "the window showed the pattern's red bar at the bottom left ($bl)" is "$bl" hll
check "... cyan at the right ($right)" is "$right" lhh
check "... and the clock's dark box at the top left ($top): not upside down" is "$top" lll

# the video's frames (ffmpeg's decoding) against the window's: slot k of the video is what the last
# draw before T0 + (k + 1) / 30 showed; and the replay: render frame i at i / 30 shows slot (i / 30 - T0) * 30
mkdir mkv rep
ffmpeg -nostdin -v error -i s-webcam.mkv -pix_fmt rgb24 mkv/%05d.png
"$bin" render show.frag --channel0 webcam --input s.log --fps 30 --size 320x240 -o rep/%05d.png --quiet; rc=$?
check "render --input replays the recorded camera (rc $rc)" [ "$rc" -eq 0 ]
python3 - "$tests" > cmp.txt <<'EOF'
import math, os, sys
sys.path.insert(0, sys.argv[1])
import png
def px(p):
    w, h, ch, rows = png.read(p)
    return w, h, [bytes(b for i, b in enumerate(r) if ch == 3 or i % 4 != 3) for r in rows]
lines = open('s.log').read().split('\n')
ts = [float(l.split()[1]) for l in lines if l.startswith('f ')]
t0 = [float(l.split()[1]) for l in lines if l.startswith('c ')][0]
slots = sorted(os.listdir('mkv'))
shown = sorted(os.listdir('out'))
last = {}
for j, t in enumerate(ts):
    if t >= t0: last[math.floor((t - t0) * 30 + 1e-9)] = j
checked = same = 0
for k, j in sorted(last.items()):
    if k >= len(slots) or j >= len(shown): continue
    checked += 1
    same += px('mkv/' + slots[k]) == px('out/' + shown[j])
print('window', checked, same, len(slots))
rep = sorted(os.listdir('rep'))
good = 0
for i, f in enumerate(rep):
    k = min(max(math.floor((i / 30 - t0) * 30 + 1e-9), 0), len(slots) - 1)
    good += px('rep/' + f) == px('mkv/' + slots[k])
print('replay', len(rep), good)
EOF
read -r _ checked same nslots < <(grep '^window' cmp.txt)
check "the recording has a frame for each 1/30 s of the session ($nslots)" [ "$nslots" -ge 30 ]
check "... each what the window showed at the last draw in its 1/30 s ($same of $checked)" \
  [ "$checked" -ge 20 -a "$same" -eq "$checked" ]
read -r _ nrep good < <(grep '^replay' cmp.txt)
check "the replay's frames are the recorded ones at the session's times ($good of $nrep)" \
  [ "$nrep" -ge 30 -a "$good" -eq "$nrep" ]

# ---- no camera: one line, black, the viewer runs its frames -----------------------------------------
mkdir none
"$bin" view show.frag --channel0 webcam --webcam /dev/video-nonesuch --size 320x240 --no-hud --frames 120 \
  --record none/%05d.png > v.out 2> v.err; rc=$?
check "a camera that is not there: the viewer runs (rc $rc)" [ "$rc" -eq 0 ]
check "... one line naming it" [ "$(grep -c 'webcam /dev/video-nonesuch: No such file or directory; the channel is black' v.err)" -eq 1 ]
check "... the channel black" [ "$(png pixel none/00119.png 160 120)" = "0 0 0" ]
"$bin" view show.frag --channel0 webcam:/dev/null --size 320x240 --no-hud --frames 120 > v.out 2> v.err; rc=$?
check "a device that is no camera: the viewer runs (rc $rc)" [ "$rc" -eq 0 ]
check "... one line saying so" [ "$(grep -c 'webcam /dev/null: not a video capture device; the channel is black' v.err)" -eq 1 ]

# ---- the HUD: the camera's trouble is a line of it while it lasts, and none while it captures ------------
# (the window itself, xwd; a black toy, so that only the HUD's text is bright; its fifth line, under the
# name, the figures, the time and the size, at 12 pixels a line)
cat > dark.frag <<'EOF'
void mainImage(out vec4 o, vec2 p) { o = vec4(texture(iChannel0, p / iResolution.xy).rgb * 0.001, 1.0); }
EOF
hud_line5() { # DEVICE: the bright pixels of the HUD's fifth line
  "$bin" view dark.frag --channel0 "webcam:$1" --size 640x360 > h.out 2> h.err & vpid=$!
  wait_for "webcam $1: " 1 h.err
  sleep 0.5
  local wid; wid=$(xdotool search --name '^dark.frag' 2>/dev/null | head -1)
  xwd -silent -id "$wid" > hud.xwd
  kill -INT "$vpid"; wait "$vpid"; vpid=
  ffmpeg -nostdin -v error -y -i hud.xwd -vf crop=600:12:0:53 -pix_fmt rgb24 line5.png
  python3 -c "
import sys; sys.path.insert(0, sys.argv[1]); import png
w, h, ch, rows = png.read('line5.png')
print(sum(1 for r in rows for x in range(w) if min(r[x * ch:x * ch + 3]) > 150))" "$tests"
}
lit=$(hud_line5 /dev/null) dark=$(hud_line5 test)
check "a camera in trouble is a line in the HUD ($lit bright pixels) ..." [ "$lit" -gt 100 ]
check "... and a capturing one none ($dark)" [ "$dark" -eq 0 ]

# ---- privacy: a session without --record/--record-input writes nothing --------------------------------
mkdir quiet && cp show.frag quiet/ && cd quiet
"$bin" view show.frag --channel0 webcam:test --size 320x240 --no-hud --frames 480 > ../v.out 2> ../v.err; rc=$?
check "a captured session without recording (rc $rc)" [ "$rc" -eq 0 ]
check "... which captured" grep -q 'webcam test: capturing' ../v.err
check "... leaves no file behind" [ "$(ls -A)" = show.frag ]
cd ..
# `ikshade devices` lists the cameras a webcam channel can name: the test pattern always (exit 1 only
# for a kind it could not list: the microphones where no sound server answers)
"$bin" devices > devices.txt 2> /dev/null
check "ikshade devices lists webcam:test under webcams" python3 -c "
import sys
t = open('devices.txt').read()
sys.exit(0 if 'webcams:\n' in t and '  test  a test pattern' in t.split('webcams:')[1] else 1)"
finish
