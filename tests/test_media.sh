#!/usr/bin/env bash
# Music and video channels. Music: the 512x2 texture (spectrum, waveform) must be the bytes Chromium's
# own WebAudio AnalyserNode gives for the same file at the same frame times (tests/webgl/analyser.mjs),
# in any render range. Video: each frame is the one ffmpeg, run on its own, decodes at the channel's
# time, the right way up, looping. Then the errors a user meets.
# usage: test_media.sh IKSHADE TESTS_DIR BUILD_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$(realpath "$1") tests=$(realpath "$2") build=$(realpath "$3")
hw=$build/webgl
bash "$tests/webgl/install.sh" "$tests/webgl" "$hw" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
png() { python3 "$tests/png.py" "$@"; }

# ---- media made here: a stereo WAV of tones and a sweep, and a color-coded lossless clip ---------------
python3 - <<'EOF'
import math, struct, wave
rate, n = 44100, int(44100 * 3.0)
w = wave.open('tone.wav', 'wb'); w.setnchannels(2); w.setsampwidth(2); w.setframerate(rate)
frames = bytearray()
for i in range(n):
    t = i / rate
    sweep = 0.2 * math.sin(2 * math.pi * (300 * t + 400 * t * t))     # 300 Hz rising 800 Hz a second
    l = 0.4 * math.sin(2 * math.pi * 1000 * t) + sweep
    r = 0.25 * math.sin(2 * math.pi * 3000 * t) * (0.5 + 0.5 * math.sin(2 * math.pi * 2 * t)) + sweep
    frames += struct.pack('<hh', round(l * 32767), round(r * 32767))
w.writeframes(bytes(frames)); w.close()
EOF
# 12 frames of 64x48 at 10 fps: frame k is (20k, 255 - 20k, 0) on top and (0, 0, 10k + 5) below
mkdir frames
python3 - <<'EOF'
import struct, zlib
def write(path, w, h, px):
    raw = b''.join(b'\0' + b''.join(bytes(px(x, y)) for x in range(w)) for y in range(h))
    ck = lambda k, b: struct.pack('>I', len(b)) + k + b + struct.pack('>I', zlib.crc32(k + b))
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + ck(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + ck(b'IDAT', zlib.compress(raw)) + ck(b'IEND', b''))
for k in range(12):
    write(f'frames/{k:03d}.png', 64, 48, lambda x, y: (20 * k, 255 - 20 * k, 0) if y < 24 else (0, 0, 10 * k + 5))
EOF
ffmpeg -nostdin -v error -framerate 10 -i frames/%03d.png -c:v ffv1 clip.mkv || { echo "FAIL: ffmpeg could not make the clip" >&2; exit 1; }
ffmpeg -nostdin -v error -framerate 10 -i frames/%03d.png -c:v libx264 -pix_fmt yuv420p clip.mp4 || exit 1

# ---- music: Chromium's AnalyserNode, byte for byte ---------------------------------------------------
# 44100/768 fps puts every frame on a 128-sample render quantum, where an OfflineAudioContext can stop
FPS=57.421875
printf 'void mainImage(out vec4 o, in vec2 f) {\n    o = vec4(texelFetch(iChannel0, ivec2(f), 0).r, iChannelTime[0] / 4.0, iChannelResolution[0].x / 1024.0, 1.0);\n}\n' > spec.frag
node "$hw/analyser.mjs" tone.wav $FPS 1 30 45 100 > chromium.txt || { echo "FAIL: the WebAudio reference failed" >&2; exit 1; }
# bytes FILE.png: the texture as rendered at 512x2 (PNG's top row is GL's row 1, the waveform)
bytes() { python3 -c "
import sys; sys.path.insert(0, '$tests'); import png
w, h, ch, rows = png.read('$1')
print(bytes([rows[1][x * ch] for x in range(512)] + [rows[0][x * ch] for x in range(512)]).hex())"; }
# same A B WHAT: byte strings equal within 1 (float rounding at a floor), and say how many differ
same() {
  local out
  out=$(python3 -c "
a, b = bytes.fromhex('$1'), bytes.fromhex('$2')
d = [abs(x - y) for x, y in zip(a, b)]
print(len(a) == len(b) == 1024 and max(d) <= 1, sum(1 for x in d if x), max(d))")
  check "$3 (differing bytes, max difference: ${out#* })" [ "${out%% *}" = True ]
}
k=0
for f in 1 30 45 100; do
  k=$((k + 1))
  "$bin" render spec.frag --channel0 tone.wav -o "m$f.png" --size 512x2 --fps $FPS --frames "$f:$((f + 1))" --quiet
  same "$(bytes "m$f.png")" "$(sed -n "${k}p" chromium.txt)" "music frame $f: spectrum and waveform as Chromium's AnalyserNode"
done
# 60 fps puts frames inside render quanta: the analyser holds the quantum the time falls in, whole
# (Chromium rounds the suspend time up to its boundary; the waveform row was up to 127 samples early)
node "$hw/analyser.mjs" tone.wav 60 7 31 50 > chromium60.txt || { echo "FAIL: the WebAudio reference failed" >&2; exit 1; }
k=0
for f in 7 31 50; do
  k=$((k + 1))
  "$bin" render spec.frag --channel0 tone.wav -o "s$f.png" --size 512x2 --fps 60 --frames "$f:$((f + 1))" --quiet
  same "$(bytes "s$f.png")" "$(sed -n "${k}p" chromium60.txt)" "music at 60 fps, frame $f (inside a quantum): as Chromium's AnalyserNode"
done
check "the texture is not silence: the 1 kHz bin (46) is loud at frame 30" \
  [ "$(python3 -c "print(bytes.fromhex('$(bytes m30.png)')[46] > 200)")" = True ]
# one long run gives the same bytes as the single-frame ranges above (the smoothing depends on time alone)
mkdir seq
"$bin" render spec.frag --channel0 tone.wav -o seq/%03d.png --size 512x2 --fps $FPS --frames 0:46 --quiet
check "frame 45 of one run 0:46 equals the range 45:46" cmp -s seq/045.png m45.png
# the shader's colours below (512 / 1024, 1.5 / 4, 0.2 / 4, 0.25) are compared within 1 (check_px): their
# 8-bit rounding is the driver's (NVIDIA rounds 127.5 down, llvmpipe up); decoded frames' bytes stay exact
check_px "iChannelResolution of a music channel: 512" "128" "$(png pixel m30.png 0 0 | cut -d' ' -f3)"
# iChannelTime: the playback time, looping over the 3 s track (t = 4.5 -> 1.5, / 4 -> 96)
"$bin" render spec.frag --channel0 tone.wav -o ct.png --size 512x2 --time 4.5 --quiet
check_px "iChannelTime of music loops with the track" "96" "$(png pixel ct.png 0 0 | cut -d' ' -f2)"
# ---- music of one channel and of six: WebAudio's own mixing, in the texture and on the speakers -------
# A mono file plays at full level on both sides, and the analyser reads its one channel as it is (ffmpeg's
# stereo up-mix put it 3 dB down: the site's waveform peak 191 for this 0.5 tone was 173). 5.1 goes down to
# mono and to the two speakers by the Web Audio spec's formulas. The 5.1 file holds 32-bit floats: Chromium
# decodes 16-bit samples as x / 32767 above zero and x / 32768 below, which a sum of five channels shows at
# a byte's rounding edge now and then, and that is not the mixing under test here.
python3 - <<'EOF'
import math, struct, wave
rate, n = 44100, int(44100 * 3.0)
w = wave.open('mono.wav', 'wb'); w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
w.writeframes(b''.join(struct.pack('<h', round(0.5 * math.sin(2 * math.pi * 1000 * i / rate) * 32767)) for i in range(n)))
w.close()
def f32wav(path, frames):   # WAVE_FORMAT_IEEE_FLOAT, channels in WAV's order (5.1: L R C LFE SL SR)
    ch = len(frames[0]); data = b''.join(struct.pack('<%df' % ch, *f) for f in frames)
    fmt = struct.pack('<HHIIHH', 3, ch, rate, rate * 4 * ch, 4 * ch, 32)
    open(path, 'wb').write(b'RIFF' + struct.pack('<I', 20 + len(fmt) + len(data)) + b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt))
                           + fmt + b'data' + struct.pack('<I', len(data)) + data)
s = lambda f, a, t: a * math.sin(2 * math.pi * f * t)
sweep = lambda t: 0.2 * math.sin(2 * math.pi * (300 * t + 400 * t * t))
f32wav('surround.wav', [(s(500, .3, t) + sweep(t), s(1500, .3, t), s(2500, .4, t), s(60, .5, t), s(4000, .3, t) + sweep(t), s(6000, .25, t))
                        for t in (i / rate for i in range(n))])
# L held at 0.7955: the mono is 0.5625 with Chromium's weight (the float of the square root of 1/2), byte 200;
# the spec's printed 0.7071 would give 199
f32wav('dc51.wav', [(0.7955, 0, 0, 0, 0, 0)] * 44100)
EOF
for f in mono surround; do
  node "$hw/analyser.mjs" --speakers "$f.f32" $f.wav $FPS 1 30 45 100 > "chromium_$f.txt" || { echo "FAIL: the WebAudio reference failed" >&2; exit 1; }
  k=0
  for fr in 1 30 45 100; do
    k=$((k + 1))
    "$bin" render spec.frag --channel0 $f.wav -o "$f$fr.png" --size 512x2 --fps $FPS --frames "$fr:$((fr + 1))" --quiet
    same "$(bytes "$f$fr.png")" "$(sed -n "${k}p" "chromium_$f.txt")" "$f music, frame $fr: spectrum and waveform as Chromium's AnalyserNode"
    # the waveform row is the mix itself, exact (the spectrum's float FFT may leave a unit at a floor)
    [ $f = surround ] && check_eq "5.1 music, frame $fr: the waveform row byte for byte" \
      "$(sed -n "${k}p" "chromium_$f.txt" | cut -c1025-)" "$(bytes "$f$fr.png" | cut -c1025-)"
  done
done
check_eq "mono: the waveform row's peak is the site's 191 for a 0.5 tone (ffmpeg's stereo up-mix gave 173)" 191 \
  "$(python3 -c "print(max(bytes.fromhex('$(bytes mono30.png)')[512:]))")"
"$bin" render spec.frag --channel0 dc51.wav -o dc51.png --size 512x2 --fps $FPS --frames 30:31 --quiet
check_eq "5.1: L weighs the square root of 1/2 in the mono, as in Chromium (waveform 200; 0.7071 gives 199)" 200 \
  "$(python3 -c "print(bytes.fromhex('$(bytes dc51.png)')[600])")"
# quad and a count the spec names no layout for (8: "discrete", the first channel the mono, the first two
# the speakers), as Chromium gave them (node analyser.mjs --speakers): waveform byte, first left and right
python3 -c "
import struct
for name, frame in (('quad.wav', (0.5, 0.25, 0.1, 0.3)), ('eight.wav', (0.5, 0.25) + (0.1,) * 6)):
    data = struct.pack('<%df' % len(frame), *frame) * 4410; ch = len(frame)
    fmt = struct.pack('<HHIIHH', 3, ch, 44100, 44100 * 4 * ch, 4 * ch, 32)
    open(name, 'wb').write(b'RIFF' + struct.pack('<I', 20 + len(fmt) + len(data)) + b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data)"
for c in "quad 164 9830 9011" "eight 192 16384 8192"; do
  set -- $c
  "$bin" render spec.frag --channel0 $1.wav -o $1.png --size 512x2 --fps 10 --frames 1:2 --quiet
  "$bin" render spec.frag --channel0 $1.wav -o $1-o.wav --seconds 0.01 --quiet
  check_eq "$1 music: M = 0.25 (L + R + SL + SR) or the first channel; L, R = 0.5 (L + SL), 0.5 (R + SR) or the first two" "$2 $3 $4" \
    "$(python3 -c "import struct, wave; w = wave.open('$1-o.wav'); print(bytes.fromhex('$(bytes $1.png)')[600], *struct.unpack('<2h', w.readframes(1)))")"
done
# the speakers: -o .wav (the samples a video's audio track and the viewer take) against what Chromium's
# context plays, 16-bit as the WAV is; the mono within 1 (Chromium's x / 32767 above zero), at full level
speakers() {
  python3 - "$1" <<'EOF'
import struct, sys, wave
f = sys.argv[1]
r = open(f + '.f32', 'rb').read(); ref = struct.unpack('<%df' % (len(r) // 4), r)
w = wave.open('sp_%s.wav' % f); o = w.readframes(w.getnframes()); o = struct.unpack('<%dh' % (len(o) // 2), o)
n = min(len(o), len(ref))
want = [max(-32768, min(32767, round(v * 32768))) for v in ref[:n]]
d = [abs(a - b) for a, b in zip(o[:n], want)]
tol = 1 if f == 'mono' else 0
peak = [max(abs(x) for x in o[c:n:2]) for c in (0, 1)]
print(f'{n // 2} frames, {sum(1 for x in d if x)} values differ, at most by {max(d)}, peaks {peak[0]} {peak[1]}',
      'OK' if w.getnchannels() == 2 and n >= 2 * 44100 and max(d) <= tol else 'BAD')
EOF
}
for f in mono surround; do
  "$bin" render spec.frag --channel0 $f.wav -o "sp_$f.wav" --seconds 1.5 --quiet
  out=$(speakers $f)
  check "$f music on the speakers (-o .wav): as Chromium plays it ($out)" [ "${out##* }" = OK ]
done
check "... the mono at full level on both sides: the source's peak 16383 ($(speakers mono))" \
  bash -c '[[ "$1" == *"peaks 16383 16383 "* ]]' _ "$(speakers mono)"
# a video's audio track (AAC): each side at the mono source's level, its RMS within 0.5 dB (the bug's -3 dB fails)
"$bin" render spec.frag --channel0 mono.wav -o mono.mp4 --size 64x36 --fps 10 --frames 0:20 --quiet
ffmpeg -nostdin -v error -i mono.mp4 -vn -f f32le -ac 2 -ar 44100 mono_track.f32
out=$(python3 - <<'EOF'
import math, struct, wave
w = wave.open('mono.wav'); src = [v / 32768 for v in struct.unpack('<%dh' % w.getnframes(), w.readframes(w.getnframes()))]
r = open('mono_track.f32', 'rb').read(); t = struct.unpack('<%df' % (len(r) // 4), r)
n = min(len(t) // 2, 44100 * 2) - 4410   # past the encoder's first 0.1 s
rms = lambda xs: math.sqrt(sum(x * x for x in xs) / len(xs))
ref = rms(src[4410:4410 + n])
db = [20 * math.log10(rms(t[2 * 4410 + c:2 * (4410 + n):2]) / ref) for c in (0, 1)]
peak = [max(abs(x) for x in t[c::2]) for c in (0, 1)]
print(f'{db[0]:+.2f} dB, {db[1]:+.2f} dB, peaks {peak[0]:.3f} {peak[1]:.3f} of {max(map(abs, src)):.3f}',
      'OK' if n > 44100 and all(abs(x) < 0.5 for x in db) else 'BAD')
EOF
)
check "a video of a mono-music toy: its audio track at the source's level on both sides ($out)" [ "${out##* }" = OK ]
# other formats, decoded by ffmpeg
for ext in ogg mp3 flac; do
  ffmpeg -nostdin -v error -i tone.wav "tone.$ext"
  "$bin" render spec.frag --channel0 "tone.$ext" -o "f.$ext.png" --size 512x2 --fps $FPS --frames 30:31 --quiet
  check "music from .$ext: the 1 kHz bin is loud" [ "$(python3 -c "print(bytes.fromhex('$(bytes "f.$ext.png")')[46] > 200)")" = True ]
done

# ---- video: the frame at the channel's time, upright, looping ----------------------------------------
printf 'void mainImage(out vec4 o, in vec2 f) {\n    o = vec4(texelFetch(iChannel0, ivec2(f), 0).rgb, 1.0);\n    if (f.x < 1.0 && f.y < 1.0) o = vec4(iChannelResolution[0].xy / 255.0, iChannelTime[0] / 4.0, 1.0);\n}\n' > vid.frag
mkdir v
"$bin" render vid.frag --channel0 clip.mkv -o v/%03d.png --size 64x48 --fps 10 --frames 0:27 --quiet
ok=0
for i in $(seq 0 26); do
  k=$((i % 12)); f=$(printf 'v/%03d.png' "$i")
  [ "$(png pixel "$f" 10 5)" = "$((20 * k)) $((255 - 20 * k)) 0" ] && [ "$(png pixel "$f" 10 40)" = "0 0 $((10 * k + 5))" ] && ok=$((ok + 1))
done
check_eq "video: frame i at 10 fps shows clip frame i mod 12, top half on top (27 frames)" 27 "$ok"
check_px "video: iChannelResolution 64x48, iChannelTime looping (frame 14: 0.2 s -> 13)" "64 48 13" "$(png pixel v/014.png 0 47)"
# another frame rate: frame i at 25 fps is clip frame floor(i * 10 / 25)
"$bin" render vid.frag --channel0 clip.mkv -o v25.png --size 64x48 --fps 25 --frames 13:14 --quiet
check_eq "video at 25 fps: frame 13 is clip frame 5" "100 155 0" "$(png pixel v25.png 10 5)"
# a range that starts late, going back (a new decoder from a seek), equals the long run
"$bin" render vid.frag --channel0 clip.mkv -o late.png --size 64x48 --fps 10 --frames 20:21 --quiet
check "video: a range starting at frame 20 equals frame 20 of the long run" cmp -s late.png v/020.png
# H.264: what ffmpeg decodes on its own, exactly
ffmpeg -nostdin -v error -i clip.mp4 -vf 'select=eq(n\,7)' -frames:v 1 -pix_fmt rgb24 ref7.png
"$bin" render vid.frag --channel0 clip.mp4 -o h7.png --size 64x48 --fps 10 --frames 7:8 --quiet
check "video from H.264: frame 7 rendered" [ -s h7.png ]
check "... and ffmpeg's own decoding of it made" [ -s ref7.png ]
check "... equal to it (pixel (10,5) and (30,40))" \
  [ "$(png pixel h7.png 10 5)/$(png pixel h7.png 30 40)" = "$(png pixel ref7.png 10 5)/$(png pixel ref7.png 30 40)" ]
# vflip=0 gives the clip upside down, as the site's unflipped textures
"$bin" render vid.frag --channel0 clip.mkv,vflip=0 -o nf.png --size 64x48 --fps 10 --frames 3:4 --quiet
check_eq "video with vflip=0: the clip's bottom half on top" "0 0 35" "$(png pixel nf.png 10 5)"

# ---- the site's JSON: music and video inputs beside it ------------------------------------------------
cat > mv.json <<'EOF'
{ "Shader": { "info": { "name": "media" }, "renderpass": [ { "type": "image", "name": "Image",
  "inputs": [ { "id": 1, "channel": 0, "type": "music", "filepath": "/media/a/tone.wav", "sampler": { "filter": "linear", "wrap": "clamp", "vflip": "true", "srgb": "false", "internal": "byte" } },
              { "id": 2, "channel": 1, "type": "video", "filepath": "/media/a/clip.mkv", "sampler": { "filter": "linear", "wrap": "clamp", "vflip": "true", "srgb": "false", "internal": "byte" } } ],
  "outputs": [], "code": "void mainImage(out vec4 o, in vec2 f) { o = vec4(texelFetch(iChannel0, ivec2(46, 0), 0).r, texelFetch(iChannel1, ivec2(10, 40), 0).g, iChannelTime[1] / 4.0, 1.0); }" } ] } }
EOF
"$bin" render mv.json -o mv.png --size 8x8 --fps 10 --frames 5:6 --quiet 2>mv.err
check "JSON with music and video channels renders: $(head -c 300 mv.err)" [ -s mv.png ]
check "JSON: the clip's frame 5 (top half green 155) at iChannelTime 0.5" [ "$(png pixel mv.png 4 4 | cut -d' ' -f2-)" = "155 32" ]
check "JSON: the music's 1 kHz bin is up" [ "$(png pixel mv.png 4 4 | cut -d' ' -f1)" -gt 100 ]
sed 's/clip.mkv/gone.mkv/' mv.json > gone.json
expect_fail "JSON: a missing video names it" 1 "gone.json\[Image\]: iChannel1: video '/media/a/gone.mkv' is not on disk" \
  "$bin" render gone.json -o g.png --quiet
"$bin" render gone.json -o g.png --size 8x8 --quiet --missing-media=black 2>/dev/null
check_eq "JSON: --missing-media=black makes a missing video black" "0" "$(png pixel g.png 4 4 | cut -d' ' -f2)"

# ---- the music goes where the toy's sound goes: a video's audio track, and -o .wav --------------------
"$bin" render spec.frag --channel0 tone.wav -o mt.mp4 --size 64x36 --fps 10 --frames 0:20 --quiet
check_eq "a video of a toy with music has it as its audio track" "aac,2." \
  "$(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name:stream=duration -of csv=p=0 mt.mp4 | sed 's/0*$//')"
"$bin" render spec.frag --channel0 tone.wav -o mt.wav --seconds 1 --time 0.5 --quiet
check "-o .wav of a music toy: the track's samples from 0.5 s on" python3 - <<'EOF'
import sys, wave
a = wave.open('tone.wav'); d = a.readframes(a.getnframes())
b = wave.open('mt.wav'); o = b.readframes(b.getnframes())
s = 22050 * 4
sys.exit(0 if b.getnframes() == 44100 and o == d[s:s + len(o)] else 1)
EOF
# the example: a track made by the sound example, and the picture that moves with it
"$bin" render "$tests/../examples/sound.frag" -o ex.wav --seconds 4 --quiet
"$bin" render "$tests/../examples/music.frag" --channel0 ex.wav -o ex.png --size 320x180 --time 3 --quiet
check "examples/music.frag: the spectrum's bars are drawn (blue-to-red pixels in the bottom rows)" python3 - "$tests" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1]); import png
w, h, ch, rows = png.read('ex.png')
bars = sum(1 for x in range(w) if rows[h - 3][x * ch + 2] > 150)
sys.exit(0 if bars > 20 else 1)
EOF

# ---- what users get wrong ------------------------------------------------------------------------------
expect_fail "a missing music file: a usage error naming the option" 2 "--channel0 'nothere.ogg': No such file or directory" "$bin" render spec.frag --channel0 nothere.ogg -o x.png --quiet
mkfifo fifo.wav
expect_fail "a FIFO named as music: refused, no hang" 1 "fifo.wav: a FIFO" timeout 20 "$bin" render spec.frag --channel0 fifo.wav -o x.png --quiet
head -c 5000 /dev/urandom > junk.ogg
expect_fail "a file that is not audio: ffmpeg's reason in one line" 1 "junk.ogg: ffmpeg: " "$bin" render spec.frag --channel0 junk.ogg -o x.png --quiet
cp junk.ogg junk.mp4
expect_fail "a file that is not video" 1 "junk.mp4: " "$bin" render vid.frag --channel0 junk.mp4 -o x.png --quiet
ffmpeg -nostdin -v error -f lavfi -i anullsrc=r=8000:cl=mono -t 610 long.flac
# a stream that is there but no texture or frame clock can take: said as such, not "no video stream"
ffmpeg -nostdin -v error -f lavfi -i color=red:size=20000x16:rate=5:duration=0.4 -c:v mjpeg wide.mkv
ffmpeg -nostdin -v error -f lavfi -i color=red:size=16x16:rate=5000:duration=0.01 -c:v mpeg4 fast.mp4
expect_fail "a video wider than 16384: its size named" 1 "wide.mkv: a 20000x16 video: at most 16384 pixels a side" \
  "$bin" render vid.frag --channel0 wide.mkv -o x.png --quiet
expect_fail "a video at 5000 fps: its rate named" 1 "fast.mp4: a video at 5000 frames per second: at most 1000" \
  "$bin" render vid.frag --channel0 fast.mp4 -o x.png --quiet
expect_fail "a track over 10 minutes: refused in one line, not 300 MB of memory" 1 "long.flac: longer than 10 minutes" \
  "$bin" render spec.frag --channel0 long.flac -o x.png --quiet
python3 -c "
import struct
ch = 33; data = struct.pack('<%df' % ch, *[0.1] * ch) * 441
fmt = struct.pack('<HHIIHH', 3, ch, 44100, 44100 * 4 * ch, 4 * ch, 32)
open('c33.wav', 'wb').write(b'RIFF' + struct.pack('<I', 20 + len(fmt) + len(data)) + b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data)"
expect_fail "music of 33 channels: WebAudio takes at most 32, said in one line" 1 "c33.wav: 33 channels: a music channel takes at most 32" \
  "$bin" render spec.frag --channel0 c33.wav -o x.png --quiet
expect_fail "a webcam in an offline render: refused, naming --input and --missing-media" 1 \
  "Image: iChannel0: a webcam is a live input: an offline render replays the session's recording of it \(--input: a session recorded with it\) or runs it black with --missing-media black" \
  "$bin" render spec.frag --channel0 webcam -o x.png --quiet
# with --missing-media=black (on either side of it): black, said once; in a directory toy's manifest too
printf 'void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f / iResolution.xy) + vec4(0.25, 0.0, 0.0, 1.0); }\n' > live.frag
"$bin" render live.frag --channel0 webcam --missing-media=black -o live.png --size 8x8 --quiet 2> live.err; rc=$?
check "--channel0 webcam --missing-media=black: exit 0 (rc $rc)" [ "$rc" -eq 0 ]
check_px "... the webcam is black (the shader adds 0.25 red)" "64 0 0" "$(png pixel live.png 4 4 | cut -d' ' -f1-3)"
check "... and one warning says so ($(cat live.err))" [ "$(grep -c "warning: Image: iChannel0: a webcam is a live input; black in this render" live.err)" -eq 1 ]
"$bin" render live.frag --missing-media black --channel0 mic,filter=nearest -o live2.png --size 8x8 --quiet 2> live2.err
check "--missing-media before --channel0 mic: silent (spectrum 0) too" px_near "$(png pixel live2.png 4 4 | cut -d' ' -f1-3)" "64 0 0"
check "... said once" [ "$(grep -c "a microphone is a live input; silent in this render" live2.err)" -eq 1 ]
mkdir -p livedir && cp live.frag livedir/image.glsl && printf 'image.iChannel0 = webcam\n' > livedir/manifest.txt
expect_fail "a webcam in a manifest: refused in an offline render" 1 "Image: iChannel0: a webcam is a live input" \
  "$bin" render livedir -o x.png --size 8x8 --quiet
printf 'image.iChannel0 = webcam:/dev/video0\n' > livedir/manifest.txt
expect_fail "a manifest naming a capture device: refused, naming the line" 1 "livedir/manifest.txt:1: a toy may not name a capture device \('/dev/video0'\)" \
  "$bin" render livedir -o x.png --size 8x8 --quiet --missing-media=black
printf 'image.iChannel0 = webcam\n' > livedir/manifest.txt
"$bin" render livedir --missing-media=black -o live3.png --size 8x8 --quiet 2> live3.err
check_px "... black with --missing-media=black" "64 0 0" "$(png pixel live3.png 4 4 | cut -d' ' -f1-3)"
check "... said once" [ "$(grep -c "a webcam is a live input; black in this render" live3.err)" -eq 1 ]
check "nothing left behind by the failures" [ ! -e x.png ]
# Ctrl-C, once or twice, while ffmpeg decodes a long track: it stops (a hang meets timeout's KILL: 137),
# exit 130, nothing left. The time it took is printed, not asserted.
ffmpeg -nostdin -v error -f lavfi -i "sine=f=440:d=590:r=48000" -ac 2 long2.flac
mkdir cc
for n in 1 2; do
  (cd cc && exec timeout -s KILL 60 "$bin" render ../spec.frag --channel0 ../long2.flac -o cc.mp4 --frames 30 --size 64x36 --quiet 2>/dev/null) & p=$!
  sleep 0.3; t0=$(date +%s%N); kill -INT $p; [ $n = 2 ] && { sleep 0.15; kill -INT $p; } # apart: a copy within 0.1 s is one request
  wait $p; rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  check "Ctrl-C x$n while decoding music: exit 130 (rc $rc, after ${ms} ms)" [ "$rc" -eq 130 ]
  check "... and no file, hidden or not ($(ls -A cc | tr '\n' ' '))" [ -z "$(ls -A cc)" ]
done
PATH=/nonexistent "$bin" render spec.frag --channel0 tone.wav -o x.png --quiet 2>noff.err; rc=$?
check "without ffmpeg: exit 1" [ "$rc" -eq 1 ]
check "... one line" [ "$(grep -c . noff.err)" -eq 1 ]
check "... saying how to get it" grep -q "tone.wav: decoding it needs ffmpeg (apt-get install ffmpeg)" noff.err

# ---- the viewer plays the music, kept at iTime (ALSA's file plugin stands for the speakers) ------------
mkdir alsa
asound() { printf 'pcm.!default {\n  type file\n  slave.pcm "null"\n  file "%s"\n  format "raw"\n}\n' "$tmp/alsa/out.raw" > alsa/.asoundrc; }
asound
# played START [WAV]: out.raw is the track's (tone.wav's unless WAV) 16-bit stereo from second START on (looping), byte for byte;
# a mono WAV's one channel on both sides
played() {
  python3 - "$@" <<'EOF'
import sys, wave
w = wave.open(sys.argv[2] if len(sys.argv) > 2 else 'tone.wav'); data = w.readframes(w.getnframes())
if w.getnchannels() == 1: data = b''.join(data[i:i + 2] * 2 for i in range(0, len(data), 2))
try: out = open('alsa/out.raw', 'rb').read()
except FileNotFoundError: print('nothing played'); sys.exit(1)
start = round(float(sys.argv[1]) * 44100) * 4
want = (data[start:] + data * 3)[:len(out)]
print(f'{len(out) // 4} frames played, {"equal" if out == want else "different"}')
sys.exit(0 if out == want and len(out) >= 4 * 4410 else 1)
EOF
}
# view ARGS: the viewer under Xvfb, its exit status in $vrc (0: it ran its --frames and quit)
view() { rm -f alsa/out.raw; HOME="$tmp/alsa" xvfb_exec "$bin" view "$@" --size 64x36 > view.out 2>&1; vrc=$?; }
view spec.frag --channel0 tone.wav --frames 40
check "view: the music plays from iTime 0, exactly the track's samples ($(played 0))" played 0
view spec.frag --channel0 tone.wav --frames 40 --time 1.5
check "view --time 1.5: the music from 1.5 s on ($(played 1.5))" played 1.5
view spec.frag --channel0 tone.wav --frames 40 --time 2.95
check "view --time 2.95: past the end the track loops ($(played 2.95))" played 2.95
# a mono track on both speakers at full level; a 5.1 track as -o .wav writes it (held against Chromium above)
view spec.frag --channel0 mono.wav --frames 40
check "view: a mono track plays its one channel on both sides, as it is ($(played 0 mono.wav))" played 0 mono.wav
"$bin" render spec.frag --channel0 surround.wav -o sp3_surround.wav --seconds 3 --quiet
view spec.frag --channel0 surround.wav --frames 40 --time 1
check "view: a 5.1 track plays WebAudio's down-mix to stereo ($(played 1 sp3_surround.wav))" played 1 sp3_surround.wav
view spec.frag --channel0 tone.wav --frames 20 --mute
check "view --mute: the viewer ran (exit $vrc)" [ "$vrc" -eq 0 ]
check "view --mute: nothing played" [ ! -s alsa/out.raw ]
view spec.frag --channel0 tone.wav --frames 20 --paused
check "view --paused: the viewer ran (exit $vrc)" [ "$vrc" -eq 0 ]
check "view --paused: nothing played while paused" [ ! -s alsa/out.raw ]
view vid.frag --channel0 clip.mkv --frames 20
check "a toy without music: the viewer ran (exit $vrc)" [ "$vrc" -eq 0 ]
check "a toy without music opens no sound output" [ ! -e alsa/out.raw ]
# a sound shader plays what `render -o song.wav` writes, across a 512x512-sample block (5.944 s)
"$bin" render "$tests/../examples/sound.frag" -o song.wav --seconds 8 --quiet
view "$tests/../examples/sound.frag" --frames 40 --time 5.8
check "view: a sound shader plays its WAV's samples from iTime 5.8 across a block's end ($(played 5.8 song.wav))" \
  played 5.8 song.wav
# a sound shader alone: no picture, said once, and its sound plays
printf 'vec2 mainSound(int s, float t) { return vec2(sin(6.2831853 * 440.0 * t) * 0.25, 0.1); }\n' > alone.frag
"$bin" render alone.frag -o alone.wav --seconds 4 --quiet
view alone.frag --frames 20 --time 1
check "view of a sound shader alone: its WAV's samples from iTime 1 ($(played 1 alone.wav))" played 1 alone.wav
check "... and one warning that it has no picture" [ "$(grep -c 'a sound shader alone (mainSound, no mainImage): no picture, its sound plays' view.out)" -eq 1 ]
printf 'pcm.!default {\n  type hw\n  card 9\n}\n' > alsa/.asoundrc
view spec.frag --channel0 tone.wav --frames 20; rc=$?
check "no sound device: the viewer runs on (rc $rc)" [ "$rc" -eq 0 ]
check "... and says so once" [ "$(grep -c 'no sound: ALSA' view.out)" -eq 1 ]
# a configuration ALSA itself complains about: its own lines stay out, its reason goes into our one
printf 'pcm.!default {\n  type plug\n  slave.pcm "ikshade_no_such_pcm"\n}\n' > alsa/.asoundrc
view spec.frag --channel0 tone.wav --frames 5
check "ALSA's own complaint: no line of ALSA's (its handler is ours while we open): $(grep -m1 '^ALSA lib' view.out)" \
  bash -c '! grep -q "^ALSA lib" "$1"' _ view.out
check "... and its reason in our one warning" grep -q 'no sound: ALSA: .*(Unknown PCM ikshade_no_such_pcm)' view.out

finish
