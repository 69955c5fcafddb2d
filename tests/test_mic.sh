#!/usr/bin/env bash
# Microphone channels with a virtual capture device made here: a PulseAudio server of the test's own
# (its socket in a temporary directory, nothing of the user's touched) with a null sink whose monitor is
# the microphone, played a known tone. The viewer under Xvfb shows the mic texture (a shader drawing its
# two rows); its recorded frames are read back (png.py) and the spectrum compared with the site's
# analyser bytes for the tone (mic_check.py, from the Web Audio spec); the sink is pulled mid-session
# (one line, silence, the viewer runs on) and put back (it comes back); the --record-input session's
# WAV is read back and `render --input` of it equals, byte for byte, a render of that WAV as music.
# usage: test_mic.sh IKSHADE TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 tests=$2
for t in pulseaudio pactl paplay; do
  command -v "$t" >/dev/null || { echo "SKIP: no $t here (scripts/deps.sh test installs pulseaudio, pulseaudio-utils)"; exit 77; }
done
if [ -z "${IKS_IN_XVFB:-}" ]; then IKS_IN_XVFB=1 xvfb_exec bash "$0" "$@"; exit $?; fi

check_py() { python3 "$tests/mic_check.py" "$@"; }
tmp=$(mktemp -d)
pa= vpid= play=
cleanup() {
  stop_loop 2>/dev/null
  for p in $vpid $pa; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
export XDG_RUNTIME_DIR=$tmp/run HOME=$tmp PULSE_RUNTIME_PATH=$tmp/run/pulse
mkdir -p run
pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit --disable-shm=yes \
  --load=module-native-protocol-unix --log-target=stderr >pa.log 2>&1 & pa=$!
for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
check "the test's own pulse server answers" pactl info >/dev/null
sink() { pactl load-module module-null-sink sink_name=iksmic >/dev/null; }
sink
# bin 48 of the site's 2048-point analyser (48 x 44100 / 2048 Hz), a level clear of both ends of the bytes
freq=1033.59375 amp=0.05
check_py tone tone.wav 20 $freq $amp

# ---- ikshade devices: the monitor is a microphone, and the default ---------------------------------
"$bin" devices >dev.out 2>dev.err
check "devices lists the null sink's monitor as the default" grep -qE '^  \* iksmic\.monitor( |$)' dev.out
check "devices has a microphones heading" grep -qx 'microphones:' dev.out
XDG_RUNTIME_DIR=$tmp/none PULSE_RUNTIME_PATH=$tmp/none "$bin" devices >dev2.out 2>dev2.err; rc=$?
check_eq "devices with no sound server: exit 1" 1 "$rc"
check "... and one line saying why" test "$(grep -c . dev2.err)" = 1 -a -n "$(grep 'microphones: no sound server' dev2.err)"

# ---- the viewer shows the tone's spectrum ------------------------------------------------------------
cat >show.frag <<'EOF'
// the microphone's texture: row 0 (spectrum) in the lower half, row 1 (waveform) in the upper
void mainImage(out vec4 o, in vec2 p) {
    int row = p.y < iResolution.y * 0.5 ? 0 : 1;
    o = vec4(texelFetch(iChannel0, ivec2(int(p.x), row), 0).r, 0.0, 0.0, 1.0);
}
EOF
# the tone, again and again until the sink goes (paplay then fails and the loop ends)
# (the file by its full name, so that the loop's players, this test's alone, can be told by it)
play_loop() { (while paplay -d iksmic "$tmp/${1:-tone.wav}" 2>/dev/null; do :; done) & play=$!; }
# the loop first, so that no new player starts, then any player it left (a kill between two plays)
stop_loop() {
  [ -n "$play" ] && { kill $play 2>/dev/null; wait $play 2>/dev/null; }
  pkill -f "paplay -d iksmic $tmp/" 2>/dev/null
  for _ in $(seq 50); do pgrep -f "paplay -d iksmic $tmp/" >/dev/null || break; sleep 0.1; done
  play=
}
play_loop
"$bin" view show.frag --channel0 mic:iksmic.monitor --size 512x8 --no-hud --record-input s.log >v.out 2>v.err & vpid=$!
wid=
for _ in $(seq 200); do wid=$(xdotool search --name '^show\.frag' 2>/dev/null | head -1); [ -n "$wid" ] && break; sleep 0.1; done
check "the viewer's window is there" test -n "$wid"
# shot: the window as it is now (xwd)
shot() { xwd -silent -id "$wid" >shot.xwd 2>/dev/null; echo shot.xwd; }
# until WHAT holds for the window (30 s at most: ffmpeg's start and pulse's, under load)
wait_frame() {
  local what=$1 f; shift
  for _ in $(seq 150); do
    f=$(shot)
    "$@" "$f" >/dev/null 2>&1 && { pass=$((pass + 1)); echo "ok: $what ($f)"; return 0; }
    sleep 0.2
  done
  fail=$((fail + 1)); echo "FAIL: $what: the window ($f) says: $("$@" "$f" 2>&1)"; cat v.err
  return 1
}
compare_tone() { check_py compare "$1" $freq $amp 2; }
silent() { check_py silent "$1"; }
# the tone: peak bin exact, every bin within 2 levels (the smoothed magnitude of a steady tone moves
# by far less; 2 levels are 0.55 dB: the 16-bit tone and pulse's s16 monitor round its samples)
wait_frame "the viewer's mic texture shows the tone's spectrum" compare_tone
sleep 1
f=$(shot)
check "one second on: still the tone ($(compare_tone $f))" compare_tone $f

# ---- the device pulled mid-session: one line, silent, the viewer runs on ----------------------------
pactl unload-module module-null-sink
wait_for_line() {
  for _ in $(seq 300); do grep -qE "$1" v.err && return 0; sleep 0.1; done
  return 1
}
check "losing the device says so on stderr" wait_for_line "microphone 'iksmic.monitor': no sound \(.*\): silent, retrying every second"
wait_frame "the channel is silent while the device is away" silent
sleep 2.5 # two retries or more: the line is not repeated
check_eq "... said once while away" 1 "$(grep -c 'no sound' v.err)" || cat v.err
check "the viewer keeps running" kill -0 $vpid

# ---- back: the same name again, sound again ---------------------------------------------------------
stop_loop
sink
play_loop
check "its return is said" wait_for_line "microphone 'iksmic.monitor': back"
wait_frame "the tone is back in the texture" compare_tone
kill -INT $vpid; wait $vpid; rc=$?; vpid=
stop_loop
check_eq "Ctrl-C ends the viewer (130, as an interrupted program does)" 130 "$rc"
check "... with the input log published" grep -q "^recorded: s.log" v.out
check "no ffmpeg of the session is left" test -z "$(pgrep -f -- '-name ikshade -i iksmic.monitor' || true)"

# ---- --mic: the device of a channel that names none (a JSON's, a directory's, a bare `mic`) ----------
# the system's default elsewhere (a second, silent sink's monitor): only --mic can bring the tone
pactl load-module module-null-sink sink_name=other >/dev/null
pactl set-default-source other.monitor
play_loop
"$bin" view show.frag --channel0 mic --mic iksmic.monitor --size 512x8 --no-hud >v2.out 2>v2.err & vpid=$!
wid=
for _ in $(seq 200); do wid=$(xdotool search --name '^show\.frag' 2>/dev/null | head -1); [ -n "$wid" ] && break; sleep 0.1; done
wait_frame "--mic DEVICE feeds a bare mic channel" compare_tone
kill -INT $vpid; wait $vpid; vpid=
stop_loop
check "... with nothing recorded beside anything" test -z "$(ls | grep -- '-mic[0-9]' | grep -v '^s-mic1.wav$')"

# ---- the recording: a WAV beside the log, the c line, gaps kept as silence ---------------------------
check "the input log names the microphone's recording" grep -qE '^c [0-9.]+ image 0 s-mic1\.wav$' s.log
read -r wav_n wav_peak < <(check_py wav s-mic1.wav)
t0=$(awk '/^c /{print $2}' s.log)
tend=$(awk '/^f /{t=$2} END{print t}' s.log)
echo "WAV: $wav_n samples, peak $wav_peak; session $tend s, T0 $t0"
# file time = session time - T0: its length is the session's from T0 (the time away filled with silence);
# the last samples may still have been on their way at the end (a frame or two of pulse's fragments)
check "the WAV spans the session from T0, the gap included" \
  python3 -c "import sys; n=$wav_n/44100; d=$tend-$t0; sys.exit(0 if abs(n - d) < 0.5 else 1)"
check "the WAV holds the tone (peak $wav_peak ~ $amp)" python3 -c "import sys; sys.exit(0 if abs($wav_peak - $amp) < 0.005 else 1)"

# ---- replay: render --input = a render of the recorded WAV as a music channel -------------------------
# A music channel plays from iTime 0 and the replay from T0 on; the same log with T0 = 0 puts both on one
# clock, so any difference is the replay's (the recorded T0 itself is the viewer's, checked above).
sed 's/^c [0-9.]* /c 0 /' s.log >s0.log
mkdir ra rb
frames=$(python3 -c "print(min(90, int($wav_n / 44100 * 30) - 1))")
"$bin" render show.frag --channel0 mic --input s0.log --size 512x8 --fps 30 --frames $frames -o ra/%04d.png 2>r.err
check "render --input replays the session" test -f ra/0000.png
"$bin" render show.frag --channel0 s-mic1.wav --size 512x8 --fps 30 --frames $frames -o rb/%04d.png 2>>r.err
same=0
for f in rb/*.png; do python3 "$tests/png.py" same "$f" "ra/${f#rb/}" && same=$((same + 1)); done
check_eq "every replayed frame = the WAV rendered as music ($frames frames)" $frames $same
f=$(ls ra | tail -n 1)
check "the replay's last frame shows the tone ($(compare_tone ra/$f))" compare_tone ra/$f
"$bin" render show.frag --channel0 mic --size 512x8 -o nolog.png 2>nolog.err; rc=$?
check_eq "a render of a mic channel without --input refuses" 1 "$rc"
check "... in one line naming --input and --missing-media" \
  test "$(grep -c . nolog.err)" = 1 -a -n "$(grep -- '--input.*--missing-media' nolog.err)"
# ---- --record: the microphone is the video's sound track, in step with the picture -------------------
# A shader of two halves (left: tone A's bin, right: tone B's); tone A, then B once the window shows A.
# The recording, decoded by ffmpeg: its sound holds A, then turns to B where its picture does (the
# picture a few frames later: the analyser's window and smoothing), and lasts as long as its frames.
# Under Xvfb the viewer draws faster than --record-fps; each frame still carries the sound that came
# with it, so the two stay together whatever the pace.
freqb=2067.1875
check_py tone toneb.wav 20 $freqb $amp
cat >halves.frag <<'EOF'
void mainImage(out vec4 o, in vec2 p) {
    int bin = p.x < iResolution.x * 0.5 ? 48 : 96;
    o = vec4(texelFetch(iChannel0, ivec2(bin, 0), 0).r, 0.0, 0.0, 1.0);
}
EOF
shows_a() { check_py halves "$1" left; }
shows_b() { check_py halves "$1" right; }
pactl set-default-source iksmic.monitor
play_loop
"$bin" view halves.frag --channel0 mic --size 128x64 --no-hud --record take.mp4 >v3.out 2>v3.err & vpid=$!
wid=
for _ in $(seq 200); do wid=$(xdotool search --name '^halves\.frag' 2>/dev/null | head -1); [ -n "$wid" ] && break; sleep 0.1; done
wait_frame "the recording's window shows tone A" shows_a
sleep 0.5
stop_loop
play_loop toneb.wav
wait_frame "... then tone B" shows_b
sleep 0.5
kill -INT $vpid; wait $vpid; rc=$?; vpid=
stop_loop
check_eq "Ctrl-C ends the recording viewer (130)" 130 "$rc"
check "... and says the recording" grep -q "^recorded: take.mp4 ([0-9]* frames)" v3.out
check_eq "the recording has a picture and a sound track (ffprobe)" "h264 aac" \
  "$(ffprobe -v error -show_entries stream=codec_name -of csv=p=0 take.mp4 | tr '\n' ' ' | sed 's/ $//')"
read -r t_pic t_snd pic_s snd_s heard_a < <(check_py sync take.mp4 $freq $freqb)
echo "picture turns to B at $t_pic s, the sound at $t_snd s; picture $pic_s s, sound $snd_s s; A heard in $heard_a windows of 10 ms"
check "the sound track holds tone A ($heard_a windows of 10 ms)" test "$heard_a" -ge 20
check "the sound turns to tone B ($t_snd) and the picture does ($t_pic)" test "$t_snd" != None -a "$t_pic" != None
check "... the picture 0 to 0.3 s after the sound ($t_pic - $t_snd)" \
  python3 -c "import sys; d=$t_pic-$t_snd; sys.exit(0 if -0.02 <= d <= 0.3 else 1)"
check "the sound lasts as long as the picture ($snd_s s, $pic_s s)" \
  python3 -c "import sys; sys.exit(0 if abs($snd_s-$pic_s) < 0.05 else 1)"
check "no temporary of the recording is left" test -z "$(ls -A | grep '^\.take')"
# a GIF has no sound: one line says the microphone is not in it; the picture is recorded
"$bin" view halves.frag --channel0 mic --size 64x32 --no-hud --frames 5 --record take.gif >v4.out 2>v4.err; rc=$?
check_eq "a GIF recording with a microphone: exit 0" 0 "$rc"
check "... one line: a GIF has no sound track" grep -q "take.gif: this format has no sound track: the microphone is not in it" v4.err
check_eq "... its 5 frames (ffprobe)" 5 "$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 take.gif)"
# no microphone in the toy: no sound track
"$bin" view show.frag --size 64x32 --no-hud --frames 5 --record quiet.mp4 >v5.out 2>v5.err
check_eq "a toy with no microphone records no sound track" "h264" \
  "$(ffprobe -v error -show_entries stream=codec_name -of csv=p=0 quiet.mp4 | tr '\n' ' ' | sed 's/ $//')"
echo "the viewer said:"; sed 's/^/  /' v.err
finish
