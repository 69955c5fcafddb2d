#!/usr/bin/env bash
# Sound shaders through `render`: mainSound(int samp, float time) and the older mainSound(float time)
# drawn on the GPU in blocks of 512x512 samples and written as a WAV (44100 Hz, 16-bit stereo, clamped
# to [-1, 1]); from a file, the site's JSON "sound" pass and a directory's sound.glsl; a video's audio
# track. The WAVs are read back with Python's wave module and compared sample by sample with what the
# formula gives; the videos with ffprobe and ffmpeg.
# usage: test_sound.sh IKSHADE
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tests=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'umount "$tmp/ro" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
R() { "$bin" render "$@" --quiet; }
# wavcheck FILE FRAMES PYEXPR TOL: the WAV is 44100 Hz 16-bit stereo with FRAMES frames, and every
# sample i (0-based, stereo pair) is within TOL of the site's 16-bit code for the values [yl, yr] that
# PYEXPR gives from i (math imported; nan and inf are names): the site's sound pass writes
# u = floor((0.5 + 0.5*y) * 65536) in 32-bit float as a low and a high byte into an RGBA8 target (each
# byte clamped to 0..255 by the store, NaN stored as 0) and reads back lo + 256*hi; the WAV holds u - 32768
wavcheck() {
  python3 - "$@" <<'P'
import math, struct, sys, wave
path, frames, expr, tol = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
def f32(x): return struct.unpack('<f', struct.pack('<f', x))[0]
def site(y):
    y = f32(y)
    if math.isnan(y) or math.isinf(y):
        v = y  # +inf: low byte NaN (0), high byte 255; -inf and NaN: both bytes 0
        return (255 * 256 if v > 0 else 0) - 32768
    v = math.floor(f32(0.5 + 0.5 * y) * 65536.0)
    lo = v % 256                     # GLSL mod: v - 256*floor(v/256), never negative
    hi = min(max(v // 256, 0), 255)  # the 8-bit store clamps
    return lo + 256 * hi - 32768
w = wave.open(path)
fmt = (w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes(), w.getcomptype())
if fmt != (2, 2, 44100, frames, 'NONE'):
    sys.exit("format %r, expected (2, 2, 44100, %d, 'NONE')" % (fmt, frames))
d = w.readframes(frames)
s = struct.unpack('<%dh' % (2 * frames), d)
f = eval('lambda i: ' + expr, {'math': math, 'nan': float('nan'), 'inf': float('inf')})
worst = (0, -1)
for i in range(frames):
    want = [site(y) for y in f(i)]
    for c in range(2):
        err = abs(s[2 * i + c] - want[c])
        if err > worst[0]: worst = (err, i)
if worst[0] > tol:
    i = worst[1]
    sys.exit("sample %d: got %r, expected %r (off by %g > %g)" % (i, s[2 * i:2 * i + 2], [site(y) for y in f(i)], worst[0], tol))
P
}

# ---- exact: the sample number decides each value; past the first block of 262144 samples -------------
cat > ramp.frag <<'G'
vec2 mainSound(int samp, float time) {
    return vec2(float(samp % 1000) / 1024.0 - 0.5, float(samp / 1000) / 1024.0);
}
G
R ramp.frag -o ramp.wav --seconds 6.5
check "mainSound(int, float): every sample, across two blocks, is what samp says" \
  wavcheck ramp.wav 286650 '[(i % 1000) / 1024 - 0.5, (i // 1000) / 1024]' 0
R ramp.frag -o late.wav --seconds 0.5 --time 10
check "--time 10 starts at sample 441000" \
  wavcheck late.wav 22050 '[((i + 441000) % 1000) / 1024 - 0.5, ((i + 441000) // 1000) / 1024]' 0

# a range that starts inside one of the site's blocks is cut from that block: each sample's time is its
# block's float iTimeOffset plus its place in the block, to the last bit (the time's low 24 bits as
# two 12-bit values, each exact in 16 bits), so a render from --time 6 is seconds 6..7 of one from 0
cat > tbits.frag <<'G'
vec2 mainSound(int samp, float time) {
    uint b = floatBitsToUint(time);
    return vec2(float(b & 4095u) / 4096.0 - 0.5, float((b >> 12) & 4095u) / 4096.0 - 0.5);
}
G
R tbits.frag -o tb0.wav --seconds 7
R tbits.frag -o tb6.wav --seconds 1 --time 6
check "a render from --time 6 holds, bit for bit, seconds 6..7 of one from 0 (the site's block times)" python3 - <<'P'
import wave
a, b = wave.open('tb0.wav'), wave.open('tb6.wav')
a.setpos(6 * 44100)
x, y = a.readframes(44100), b.readframes(b.getnframes())
exit(not (len(x) == len(y) == 44100 * 4 and x == y))
P

# ---- a tone: the site's time per sample (float), within float precision -------------------------------
cat > tone.frag <<'G'
vec2 mainSound(int samp, float time) {
    return vec2(0.8 * sin(6.2831853 * 440.0 * time), 0.4 * sin(6.2831853 * 220.0 * time));
}
G
R tone.frag -o tone.wav --seconds 2
# 2 s of 32-bit float time carries about 2.4e-7 s of error: 7e-4 rad at 440 Hz, 17 steps of 16 bits
check "a 440/220 Hz tone, left and right, within float time's precision" \
  wavcheck tone.wav 88200 '[0.8 * math.sin(2 * math.pi * 440 * i / 44100), 0.4 * math.sin(2 * math.pi * 220 * i / 44100)]' 24

# ---- the older mainSound(float time) -----------------------------------------------------------------
echo 'vec2 mainSound(float time) { return vec2(time * 0.1, -time * 0.1); }' > old.frag
R old.frag -o old.wav --seconds 1
# 1 code: the GPU's time * 0.1 in float may fall on the other side of a step of the floor
check "mainSound(float time), the site's first form" wavcheck old.wav 44100 '[i / 44100 * 0.1, -i / 44100 * 0.1]' 1

# ---- packed as the site packs: past +-1 and NaN ---------------------------------------------------------------
echo 'vec2 mainSound(int s, float t) { float z = float(s) - float(s); return s < 100 ? vec2(3.0, -7.0) : vec2(z / z, 0.25); }' > clamp.frag
"$bin" render clamp.frag -o clamp.wav --seconds 0.01 2>clamp.err
check "values past +-1 and NaN as the site packs them" wavcheck clamp.wav 441 '[3.0, -7.0] if i < 100 else [nan, 0.25]' 0
check "... which is 32512 and -32768 past +-1, and -32768 for NaN" \
  wavcheck clamp.wav 441 '[0.9921875, -1.0] if i < 100 else [-1.0, 0.25]' 0
check "... and the NaNs are counted in one warning" grep -q "returned 341 NaN or infinite sample values, packed as the site" clamp.err
# the values the issue names, each on its own sample: the expected codes come from the formula above,
# and a few of them spelled out (1.0 is 32512: the high byte 256 clamps to 255; 1.2 keeps its low byte)
cat > known.frag <<'G'
vec2 mainSound(int s, float t) {
    float y[8] = float[8](0.5, 1.0, 1.2, -1.3, -1.0, 0.0, 0.99, -0.5);
    return vec2(y[s % 8], -y[s % 8]);
}
G
R known.frag -o known.wav --seconds 0.01
check "0.5, 1.0, 1.2, -1.3, -1, 0, 0.99, -0.5 (and negated) are the site's codes" \
  wavcheck known.wav 441 '[[0.5, 1.0, 1.2, -1.3, -1.0, 0.0, 0.99, -0.5][i % 8], -[0.5, 1.0, 1.2, -1.3, -1.0, 0.0, 0.99, -0.5][i % 8]]' 0
check "... 0.5 is 16384, 1.0 is 32512, 1.2 is 32665, -1.3 is -32615" python3 - <<'P'
import struct, sys, wave
w = wave.open('known.wav')
s = struct.unpack('<16h', w.readframes(8))
sys.exit(s[0::2][:4] != (16384, 32512, 32665, -32615))
P

# ---- the default length is the site's 180 s -------------------------------------------------------------
echo 'vec2 mainSound(int s, float t) { return vec2(0.0); }' > quiet.frag
R quiet.frag -o quiet.wav
check "with no --seconds, 180 s as on the site" [ "$(python3 -c 'import wave; print(wave.open("quiet.wav").getnframes())')" = 7938000 ]

# ---- the site's JSON: a "sound" pass beside the Image, with Common ----------------------------------------
python3 - <<'P' > toy.json
import json
print(json.dumps({"ver": "0.1", "info": {"name": "sound"}, "renderpass": [
  {"inputs": [], "outputs": [], "code": "float amp() { return 0.25; }", "name": "Common", "type": "common"},
  {"inputs": [], "outputs": [{"id": "4dfGRr", "channel": 0}], "code": "void mainImage(out vec4 c, in vec2 f) { c = vec4(amp()); }", "name": "Image", "type": "image"},
  {"inputs": [], "outputs": [], "code": "vec2 mainSound(int s, float t) { return vec2(amp(), -amp()) * float(s % 2); }", "name": "Sound", "type": "sound"}]}))
P
"$bin" render toy.json -o toy.wav --seconds 0.1 2>toy.err
check "JSON: the sound pass, with Common" wavcheck toy.wav 4410 '[0.25 * (i % 2), -0.25 * (i % 2)]' 0
check "... and no warning that it is ignored" [ "$(grep -c . toy.err)" = 1 ]
check "... only the summary: 0.1 s, 4410 samples" grep -q "0.100 s of sound (4410 samples, 44100 Hz 16-bit stereo)" toy.err
R toy.json -o toy.png --size 4x4
check "... and the Image pass still draws" px_near "$(python3 "$tests/png.py" pixel toy.png 0 0)" "64 64 64"

# ---- the sound reads only its own channels: the Image's texture need not be on disk for a .wav --------------
python3 - <<'P' > lost.json
import json
print(json.dumps({"ver": "0.1", "info": {"name": "lost"}, "renderpass": [
  {"inputs": [{"id": 5, "type": "texture", "channel": 0, "filepath": "/media/a/not-here.png", "sampler": {}}],
   "outputs": [{"id": "4dfGRr", "channel": 0}], "code": "void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f); }",
   "name": "Image", "type": "image"},
  {"inputs": [], "outputs": [], "code": "vec2 mainSound(int s, float t) { return vec2(0.5, -0.5); }", "name": "Sound", "type": "sound"}]}))
P
R lost.json -o lost.wav --seconds 0.01
check "a JSON whose Image texture is not on disk still renders its sound" wavcheck lost.wav 441 '[0.5, -0.5]' 0
expect_fail "... while a picture of it still asks for the texture" 1 "not-here.png' is not on disk" "$bin" render lost.json -o lost.png --frames 1

# ... but a music channel of the Image is heard (the site plays it beside the sound): still loaded
python3 - <<'P'
import json, struct, wave
w = wave.open('music.wav', 'wb'); w.setnchannels(2); w.setsampwidth(2); w.setframerate(44100)
w.writeframes(struct.pack('<hh', 1000, -2000) * 4410); w.close()
print(json.dumps({"ver": "0.1", "info": {"name": "heard"}, "renderpass": [
  {"inputs": [{"id": 5, "type": "texture", "channel": 0, "filepath": "/media/a/not-here.png", "sampler": {}},
              {"id": 6, "type": "music", "channel": 1, "filepath": "/media/a/music.wav", "sampler": {}}],
   "outputs": [{"id": "4dfGRr", "channel": 0}], "code": "void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f); }",
   "name": "Image", "type": "image"}]}), file=open('heard.json', 'w'))
P
R heard.json -o heard.wav --seconds 0.01
check "... and the Image's music channel is in the .wav, its texture still not needed" \
  python3 -c "import struct, wave; w = wave.open('heard.wav'); s = struct.unpack('<882h', w.readframes(441)); exit(set(s[0::2]) != {1000} or set(s[1::2]) != {-2000})"

# ---- a directory toy's sound.glsl, wired in manifest.txt like any pass --------------------------------------
mkdir dir
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }' > dir/image.glsl
echo 'vec2 mainSound(int s, float t) { return vec2(iChannelResolution[1].x / 100.0, 0.0); }' > dir/sound.glsl
python3 - <<'P'
import struct, zlib
def png(path, w, h):
    raw = b''.join(b'\0' + b'\x80\x40\x20' * w for _ in range(h))
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
png('dir/tex.png', 25, 3)
P
echo 'sound.iChannel1 = tex.png' > dir/manifest.txt
R dir -o dir.wav --seconds 0.01
check "directory: sound.glsl with a texture on iChannel1 (iChannelResolution 25)" wavcheck dir.wav 441 '[0.25, 0]' 0

# ---- a video gets the sound as its audio track --------------------------------------------------------------
cat > both.frag <<'G'
void mainImage(out vec4 c, in vec2 f) { c = vec4(0.5); }
vec2 mainSound(int samp, float time) { return vec2(0.5 * sin(6.2831853 * 441.0 * time)); }
G
if command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; then
  R both.frag -o both.mp4 --size 32x32 --frames 30 --fps 30
  check "mp4: an AAC audio stream, 44100 Hz stereo, as long as the frames" \
    [ "$(ffprobe -v error -select_streams a -show_entries stream=codec_name,sample_rate,channels -of csv=p=0 both.mp4)" = "aac,44100,2" ]
  dur=$(ffprobe -v error -select_streams a -show_entries stream=duration -of csv=p=0 both.mp4)
  check "... lasting the frames' 1 s (got $dur)" python3 -c "import sys; sys.exit(abs(float('$dur') - 1.0) > 0.03)"
  # decoded back: a 441 Hz tone of amplitude 0.5 (RMS 0.354), 882 zero crossings a second
  ffmpeg -v error -i both.mp4 -f s16le -ac 1 -ar 44100 both.raw
  check "... which decodes to the 441 Hz tone of amplitude 0.5" python3 - <<'P'
import struct, sys
d = open('both.raw', 'rb').read()
s = struct.unpack('<%dh' % (len(d) // 2), d)[4410:-4410]  # the codec's ramps at both ends left out
rms = (sum(v * v for v in s) / len(s)) ** 0.5 / 32768
zc = sum(1 for a, b in zip(s, s[1:]) if (a < 0) != (b < 0)) / (len(s) / 44100)
sys.exit(not (abs(rms - 0.3536) < 0.02 and abs(zc - 882) < 10))
P
  R both.frag -o both.webm --size 32x32 --frames 15 --fps 30
  check "webm: an Opus audio stream" [ "$(ffprobe -v error -select_streams a -show_entries stream=codec_name -of csv=p=0 both.webm)" = "opus" ]
  R both.frag -o both.gif --size 32x32 --frames 3
  check "gif: no audio (the format has none), the frames still made" [ -s both.gif ]
  echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(0.5); }' > silent.frag
  R silent.frag -o silent.mp4 --size 32x32 --frames 3
  check "a toy without sound makes a video" [ "$(ffprobe -v error -select_streams v -show_entries stream=codec_type -of csv=p=0 silent.mp4)" = video ]
  check "... without audio" [ -z "$(ffprobe -v error -select_streams a -show_entries stream=codec_name -of csv=p=0 silent.mp4)" ]
  R both.frag -o secs.mp4 --size 32x32 --fps 30 --seconds 0.5
  check "--seconds 0.5 at 30 fps: 15 frames" [ "$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 secs.mp4)" = 15 ]
else
  check "ffmpeg and ffprobe are installed (scripts/deps.sh installs them)" false
fi

# ---- --each: a sound shader is run for its first block, not refused for want of a picture ------------------
mkdir each && cp old.frag ramp.frag each/
"$bin" render --each each --size 8x8 >each.md 2>/dev/null
check "--each: a sound shader is ok, its first block drawn" grep -q "| old.frag | ok | .* | sound: the first 262144 samples" each.md

# ---- examples/sound.frag: the arpeggio's notes, by their zero crossings -----------------------------------
R "$tests/../examples/sound.frag" -o arp.wav --seconds 0.5
check "examples/sound.frag: 220 Hz, then 261.6 Hz (A, then C), a quarter second each" python3 - <<'P'
import struct, sys, wave
w = wave.open('arp.wav')
s = struct.unpack('<%dh' % (2 * w.getnframes()), w.readframes(w.getnframes()))[0::2]
def hz(a, b):
    seg = s[a:b]
    return sum(1 for x, y in zip(seg, seg[1:]) if (x < 0) != (y < 0)) / 2 / ((b - a) / 44100)
f1, f2 = hz(500, 8000), hz(11525, 19000)
peak = max(abs(v) for v in s) / 32767
sys.exit(not (abs(f1 - 220) < 4 and abs(f2 - 261.6) < 4 and 0.2 < peak < 0.6))
P

# ---- errors -----------------------------------------------------------------------------------------------
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }' > pic.frag
expect_fail "a .wav of a toy without sound" 2 "-o 'x.wav': pic.frag has no sound \(a mainSound" "$bin" render pic.frag -o x.wav
check "... leaves no file" [ ! -e x.wav ]
expect_fail "a picture of a sound shader" 2 "old.frag: a sound shader \\(mainSound and no mainImage\\) has no picture: render it to a .wav" \
  "$bin" render old.frag -o x.png
expect_fail "--seconds 0" 2 "--seconds '0': expected a number other than 0" "$bin" render old.frag -o x.wav --seconds 0
expect_fail "--seconds with --frames" 2 "--seconds and --frames both say how long" "$bin" render pic.frag -o x.mp4 --seconds 1 --frames 3
printf 'vec2 mainSound(int s, float t) {\n    return vec2(nope);\n}\n' > bad.frag
"$bin" render bad.frag -o x.wav 2>bad.err; rc=$?
check "a compile error in mainSound fails the render (exit 1)" [ $rc = 1 ]
check "... naming the file's own line" grep -q "bad.frag:2:.*nope" bad.err
check "... leaving no file" [ ! -e x.wav ]
echo 'old' > keep.wav
echo 'vec2 mainSound(int s, float t) { return vec2(0.0); }' > sil.frag
# a directory this user cannot write: by its mode, or for root (whom modes do not stop) a read-only mount
mkdir ro
if [ "$(id -u)" != 0 ]; then chmod 555 ro; ro=mode; elif mount -t tmpfs -o ro,size=64k tmpfs ro 2>/dev/null; then ro=mount; else ro=; fi
if [ -n "$ro" ]; then
  expect_fail "an unwritable directory ($ro)" 1 "ro/x.wav" "$bin" render sil.frag -o ro/x.wav --seconds 0.1
else
  echo "note: root without mounts here: the unwritable-directory row was not run"
fi
ln -s keep.wav link.wav
expect_fail "a symbolic link as the output is not replaced" 1 "link.wav: .*link" "$bin" render sil.frag -o link.wav --seconds 0.1
check "... and what it points to is untouched" [ "$(cat keep.wav)" = old ]
finish
