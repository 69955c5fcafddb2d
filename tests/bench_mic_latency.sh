#!/usr/bin/env bash
# bench_mic_latency.sh: sound to texture. A PulseAudio server of the script's own (a null sink whose
# monitor is the microphone), the viewer under Xvfb showing the mic texture; ROUNDS times a tone starts
# into the sink after silence, and the time until the window shows it is taken (xwd polling). Printed
# against baselines measured in the same run: the viewer's frame period (from its input log) and the
# polling's own period, which bounds the resolution. Includes paplay's start and pulse's playback
# path, so it is an upper bound on the viewer's own part. A benchmark: never asserted.
# usage: bench_mic_latency.sh IKSHADE TESTS_DIR [ROUNDS]
set -u
bin=$1 tests=$2 rounds=${3:-8}
. "$tests/lib.sh"
for t in pulseaudio pactl paplay xwd xdotool; do command -v $t >/dev/null || { echo "SKIP: no $t"; exit 77; }; done
if [ -z "${IKS_IN_XVFB:-}" ]; then IKS_IN_XVFB=1 xvfb_exec bash "$0" "$@"; exit $?; fi
tmp=$(mktemp -d) pa= vpid= play=
cleanup() { for p in $play $vpid $pa; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp"
export XDG_RUNTIME_DIR=$tmp/run HOME=$tmp PULSE_RUNTIME_PATH=$tmp/run/pulse
mkdir -p run
pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit --disable-shm=yes \
  --load=module-native-protocol-unix >pa.log 2>&1 & pa=$!
for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
pactl load-module module-null-sink sink_name=iksmic >/dev/null
python3 "$tests/mic_check.py" tone tone.wav 3 1033.59375 0.05
cat >show.frag <<'EOF'
void mainImage(out vec4 o, in vec2 p) {
    o = vec4(texelFetch(iChannel0, ivec2(int(p.x), p.y < iResolution.y * 0.5 ? 0 : 1), 0).r, 0.0, 0.0, 1.0);
}
EOF
"$bin" view show.frag --channel0 mic:iksmic.monitor --size 512x8 --no-hud --record-input s.log >v.out 2>v.err & vpid=$!
for _ in $(seq 200); do wid=$(xdotool search --name '^show\.frag' 2>/dev/null | head -1); [ -n "$wid" ] && break; sleep 0.1; done
sleep 3 # ffmpeg's start
# the tone's bin 48 above level 100: the smoothing's first frames already pass it (0.2 of 220 is -14 dB)
# One Python process times each round: the tone starts (paplay), an independent pulse client (parec at
# 5 ms latency, on the same monitor) sees it arrive: the baseline; the window shows it (xwd polled)
python3 - "$wid" "$tests" "$rounds" <<'PY'
import os, statistics, subprocess, sys, threading, time, array
wid, tests, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, tests)
mc = {'__file__': os.path.join(tests, 'mic_check.py')}
exec(open(mc['__file__']).read().split('\ndef main')[0], mc)
spectrum = mc['spectrum']
def shown():
    with open('s.xwd', 'wb') as f:
        subprocess.run(['xwd', '-silent', '-id', wid], stdout=f, stderr=subprocess.DEVNULL)
    return spectrum('s.xwd')[48] > 100
rec = subprocess.Popen(['parec', '-d', 'iksmic.monitor', '--latency-msec=5', '--raw', '--format=float32le',
                        '--channels=1', '--rate=44100'], stdout=subprocess.PIPE)
arrived = [None]
def listen():
    while True:
        b = rec.stdout.read1(4096) if hasattr(rec.stdout, 'read1') else os.read(rec.stdout.fileno(), 4096)
        if not b: return
        a = array.array('f', b[:len(b) // 4 * 4])
        if arrived[0] is None and a and max(abs(v) for v in a) > 0.02: arrived[0] = time.monotonic()
threading.Thread(target=listen, daemon=True).start()
lat, base, polls = [], [], []
for r in range(rounds):
    while shown(): time.sleep(0.05)
    time.sleep(0.3)
    arrived[0] = None
    t0 = time.monotonic()
    play = subprocess.Popen(['paplay', '-d', 'iksmic', 'tone.wav'])
    k = 0
    while not shown(): k += 1
    t1 = time.monotonic()
    play.wait()
    if arrived[0] is None: continue
    lat.append(t1 - arrived[0]); base.append(arrived[0] - t0); polls.append((t1 - t0) / (k + 1))
rec.kill()
med = statistics.median(lat)
print(f"mic latency, sound at the device (an independent parec sees it) to the texture on screen, median of "
      f"{len(lat)}: {med * 1e3:.1f} ms (min {min(lat) * 1e3:.1f}, max {max(lat) * 1e3:.1f})")
print(f"  = {med / (1 / 60):.2f} frames at 60 fps (goal: within 2); baselines of this run: paplay's start to the "
      f"device {statistics.median(base) * 1e3:.1f} ms, one poll of the window {statistics.median(polls) * 1e3:.1f} ms "
      f"(the resolution: {statistics.median(polls) / (1 / 60):.2f} frames at 60 fps)")
PY
kill -INT $vpid; wait $vpid; vpid=
