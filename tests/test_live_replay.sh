#!/usr/bin/env bash
# A performance's live channels replayed offline: an input log's `c T0 PASS N FILE` lines make
# `render --input LOG` read the recorded WAV (microphone) and video (webcam) as the music and video
# channels those files are, played once from the session's second T0. What the viewer writes is tested
# with the capture (test_mic.sh, test_webcam.sh); here the replay itself, against renders of the same
# files given as ordinary channels, pixel for pixel, and its sound track; then the log's refusals.
# usage: test_live_replay.sh IKSHADE TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$(realpath "$1") tests=$(realpath "$2")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
png() { python3 "$tests/png.py" "$@"; }

# a mono tone that changes pitch each quarter second (so a wrong offset shows), and the same after
# 22016 samples (172 of WebAudio's 128-sample quanta, 0.4992 s) of silence; a lossless test clip
python3 - <<'EOF'
import math, struct, wave
rate = 44100
def tone(n):
    out = []
    for i in range(n):
        f = 500 + 700 * ((i * 4) // rate % 4)
        out.append(round(0.5 * math.sin(2 * math.pi * f * i / rate) * 32767))
    return out
def write(path, s):
    w = wave.open(path, 'wb'); w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
    w.writeframes(struct.pack('<%dh' % len(s), *s)); w.close()
t = tone(rate * 2)
write('mic.wav', t)
write('padded.wav', [0] * 22016 + t)
EOF
ffmpeg -nostdin -v error -f lavfi -i "testsrc2=size=64x48:rate=10:duration=2" -c:v ffv1 cam.mkv || { echo "FAIL: ffmpeg made no clip" >&2; exit 1; }
# rows of the mic's texture at the bottom, the camera above
cat > show.frag <<'EOF'
void mainImage(out vec4 o, vec2 p) {
    vec2 uv = p / iResolution.xy;
    o = uv.y < 0.25 ? vec4(texture(iChannel0, vec2(uv.x, 0.25)).r, texture(iChannel0, vec2(uv.x, 0.75)).r, iChannelTime[0] / 4.0, 1.0)
                    : vec4(texture(iChannel1, uv).rgb, 1.0);
}
EOF
session() { # T0_MIC T0_CAM: 2.2 s of frames at 60 Hz, iTime from 0
    printf 'ikshade-input 1\n'
    python3 -c "
for i in range(133): print('f %.6f %.6f 64 48 0 0 0 0' % (i / 60, i / 60))"
    printf 'c %s image 0 mic.wav\nc %s image 1 cam.mkv\n' "$1" "$2"
}
session 0 0 > s0.log
mkdir a b
"$bin" render show.frag --channel0 mic --channel1 webcam --input s0.log --fps 30 --size 64x48 --frames 60 -o a/%03d.png --quiet; rc=$?
check "render --input: the recorded mic and webcam replayed (rc $rc)" [ "$rc" -eq 0 ]
"$bin" render show.frag --channel0 mic.wav --channel1 cam.mkv --fps 30 --size 64x48 --frames 60 -o b/%03d.png --quiet
same=0
for i in $(seq -f %03g 0 59); do png same a/$i.png b/$i.png && same=$((same + 1)); done
check "... frame for frame the pixels of a render of mic.wav and cam.mkv as music and video channels ($same of 60)" [ "$same" -eq 60 ]

# from T0 on: the sound as the same tone after T0 of silence (a whole number of quanta: the analyser's
# window moves in them, so only then can the two renders see the same windows); the camera's first
# frame until then (what the viewer had not yet got), then its frame k at T0 + k / 10
session 0.49922902494331066 0.5 > s1.log
mkdir c d
"$bin" render show.frag --channel0 mic --channel1 webcam --input s1.log --fps 30 --size 64x48 --frames 60 -o c/%03d.png --quiet
"$bin" render show.frag --channel0 padded.wav --channel1 cam.mkv --fps 30 --size 64x48 --frames 60 -o d/%03d.png --quiet
lows=0
for i in $(seq 0 59); do
  f=$(printf %03d "$i")
  python3 - "$tests/png.py" c/$f.png d/$f.png <<'EOF' && lows=$((lows + 1))
import sys, importlib.util
spec = importlib.util.spec_from_file_location('png', sys.argv[1]); png = importlib.util.module_from_spec(spec); spec.loader.exec_module(png)
a, b = png.read(sys.argv[2]), png.read(sys.argv[3])
# rows 36..47 from the top: the mic's spectrum and waveform (blue is iChannelTime, which differs: the
# padded file's time counts its silence)
sys.exit(0 if all(a[3][y][x * a[2]:x * a[2] + 2] == b[3][y][x * b[2]:x * b[2] + 2] for y in range(36, 48) for x in range(64)) else 1)
EOF
done
check "T0 0.4992: the mic's texture is that of the tone after 0.5 s of silence, frame for frame ($lows of 60)" [ "$lows" -eq 60 ]
check "... before T0 the camera shows its first frame (frame 3, 0.1 s)" png same c/003.png c/000.png
ffmpeg -nostdin -v error -i cam.mkv -vf 'select=eq(n\,4)' -frames:v 1 -pix_fmt rgb24 cam4.png
# frame 27 is 0.9 s: 0.4 s into the clip, its frame 4; the camera fills rows 0..35 (top three quarters)
check "... after it, the clip's frame (T - T0) x 10: frame 27 shows clip frame 4" python3 - "$tests/png.py" c/027.png cam4.png <<'EOF'
import sys, importlib.util
spec = importlib.util.spec_from_file_location('png', sys.argv[1]); png = importlib.util.module_from_spec(spec); spec.loader.exec_module(png)
a, b = png.read(sys.argv[2]), png.read(sys.argv[3])
bad = sum(1 for y in range(0, 30) for x in range(64) for c in range(3)
          if abs(a[3][y][x * a[2] + c] - b[3][y][x * b[2] + c]) > 3)
sys.exit(0 if bad < 64 else 1)
EOF
# the film's sound: the recording heard from T0 on (the site's speakers play music; a replayed mic is the
# performance's sound), silence before
"$bin" render show.frag --channel0 mic --channel1 webcam --input s1.log --fps 30 --size 64x48 --frames 60 -o film.mkv --quiet
ffmpeg -nostdin -v error -i film.mkv -vn -f s16le -ac 1 -ar 44100 film.pcm
check "the film's track: silent before T0, the tone after it" python3 - <<'EOF'
import struct
s = open('film.pcm', 'rb').read(); s = struct.unpack('<%dh' % (len(s) // 2), s)
rate = 44100
before = max(abs(v) for v in s[:int(0.45 * rate)])
after = max(abs(v) for v in s[int(0.55 * rate):int(0.75 * rate)])
print(before, after)
raise SystemExit(0 if before < 300 and after > 8000 else 1)
EOF

# refusals, one line each, nothing written
printf 'ikshade-input 1\nf 0 0 64 48 0 0 0 0\n' > none.log
expect_fail "a log without the mic's recording: refused, saying so" 1 "Image: iChannel0: a microphone is a live input: .*but this one has none of it" \
  "$bin" render show.frag --channel0 mic --input none.log -o x.png --quiet
printf 'ikshade-input 1\nf 0 0 64 48 0 0 0 0\nc 0 image 0 ../mic.wav\n' > up.log
expect_fail "a recording outside the log's directory: refused, naming the line" 1 "up.log:3: expected 'c T0 PASS N FILE'" \
  "$bin" render show.frag --channel0 mic --input up.log -o x.png --quiet
printf 'ikshade-input 1\nf 0 0 64 48 0 0 0 0\nc 0 image 0 mic.wav\nc 1 image 0 mic.wav\n' > twice.log
expect_fail "a channel recorded twice: refused" 1 "twice.log:4: channel 0 of Image is recorded twice" \
  "$bin" render show.frag --channel0 mic --input twice.log -o x.png --quiet
printf 'ikshade-input 1\nf 0 0 64 48 0 0 0 0\nc 0 image 0 gone.wav\n' > gone.log
expect_fail "a recording not on disk: its name" 1 "gone.wav" "$bin" render show.frag --channel0 mic --input gone.log -o x.png --quiet
check "nothing written by the refusals" [ ! -e x.png ]
finish
