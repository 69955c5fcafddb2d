#!/usr/bin/env bash
# Videos and GIFs decoded by an independent reader (ffprobe/ffmpeg) and held against the PNGs of the
# same frames: orientation, colours within the codec's loss (PSNR bounds below), frame count, frame
# rate, pixel format; odd sizes; an interrupted render's file; the user's own ffmpeg arguments;
# ffmpeg's own failures, a full disk included; the README's pipe example, twice in a row.
# usage: test_video.sh IKSHADE
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || {
  echo "FAIL: ffmpeg/ffprobe are not installed (scripts/deps.sh installs ffmpeg)" >&2; exit 1; }
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"

# red in the top half (fragCoord.y > half: GL's y grows upwards), a horizontal green ramp, and a blue
# that changes every frame, so that first and last frames differ
cat > t.frag <<'G'
void mainImage(out vec4 c, in vec2 f) {
    vec2 uv = f / iResolution.xy;
    c = vec4(uv.y > 0.5 ? 0.9 : 0.1, uv.x, 0.2 + 0.6 * fract(float(iFrame) / 24.0), 1.0);
}
G
N=24 W=320 H=180
"$bin" render t.frag -o png/%03d.png --frames $N --size ${W}x$H --fps 30 --quiet
check "the reference PNGs: the first" [ -f png/000.png ]
check "... and the last" [ -f png/023.png ]

probe() { ffprobe -v error -select_streams v:0 -show_entries "stream=$2" -of default=nw=1:nk=1 "$1"; }
nframes() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }
# frame K of a video as RGB24, at W x H (cropped: an odd size was padded on the right and bottom)
# (to RGB first: a crop in 4:2:0 rounds odd sizes to even)
frame_rgb() { ffmpeg -v error -i "$1" -vf "select=eq(n\\,$2),format=rgb24,crop=$3:$4:0:0" -vsync 0 -frames:v 1 -f rawvideo -pix_fmt rgb24 -; }
# psnr VIDEO K PNG W H: PSNR of frame K against the PNG (decoded by Python's zlib reader)
psnr() {
  frame_rgb "$1" "$2" "$4" "$5" > "f.rgb"
  "$py" - "$3" f.rgb "$here/png.py" <<'P'
import sys, importlib.util, numpy as np
spec = importlib.util.spec_from_file_location('png', sys.argv[3]); png = importlib.util.module_from_spec(spec); spec.loader.exec_module(png)
w, h, ch, rows = png.read(sys.argv[1])
ref = np.frombuffer(b''.join(rows), np.uint8).reshape(h, w, ch)[:, :, :3].astype(float)
got = np.frombuffer(open(sys.argv[2], 'rb').read(), np.uint8)
if got.size != w * h * 3: print(0.0); sys.exit()
got = got.reshape(h, w, 3).astype(float)
mse = ((ref - got) ** 2).mean()
print(99.0 if mse == 0 else 10 * np.log10(255.0 ** 2 / mse))
P
}
# the top-left pixel's red channel of frame 0: the shader's top half is red
top_red() { frame_rgb "$1" 0 "$2" "$3" > top.rgb; od -An -tu1 -N1 top.rgb | tr -d ' '; }
bottom_red() { frame_rgb "$1" 0 "$2" "$3" > bot.rgb; od -An -tu1 -j $(( ($3 - 1) * $2 * 3 )) -N1 bot.rgb | tr -d ' '; }
ge() { "$py" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)" "$1" "$2"; }

# the lossy codecs at their defaults: H.264 crf 18 and VP9 crf 32 on this flat test picture stay above
# 30 dB; the GIF's palette of 256 colours, dithered, above 25 dB
for spec in "mp4 h264 yuv420p 30" "mkv h264 yuv420p 30" "webm vp9 yuv420p 30" "gif gif bgra 25"; do
  set -- $spec; ext=$1 codec=$2 pix=$3 bound=$4
  out=$("$bin" render t.frag -o v.$ext --frames $N --size ${W}x$H --fps 30 2>&1); rc=$?
  check "$ext: rendered (rc $rc: $out)" [ $rc -eq 0 ]
  check_eq "$ext: codec" "$codec" "$(probe v.$ext codec_name)"
  check_eq "$ext: pixel format" "$pix" "$(probe v.$ext pix_fmt)"
  check_eq "$ext: size" "$W $H" "$(probe v.$ext width) $(probe v.$ext height)"
  check_eq "$ext: frame count" "$N" "$(nframes v.$ext)"
  if [ $ext = gif ]; then
    # GIF delays are whole centiseconds: 30 fps -> 3 cs -> 33.33 fps, and the summary says so
    check_eq "gif: frame rate (3 cs a frame)" "100/3" "$(probe v.$ext r_frame_rate)"
    check "gif: the summary names the delay it used" grep -q "GIF: 3/100 s a frame, so 33.33 fps where 30 was asked" <<<"$out"
  else
    check_eq "$ext: frame rate" "30/1" "$(probe v.$ext r_frame_rate)"
  fi
  check "$ext: the top is red, as in the PNG (top-left red $(top_red v.$ext $W $H))" [ "$(top_red v.$ext $W $H)" -gt 200 ]
  check "$ext: the bottom is not ($(bottom_red v.$ext $W $H))" [ "$(bottom_red v.$ext $W $H)" -lt 60 ]
  p0=$(psnr v.$ext 0 png/000.png $W $H); p1=$(psnr v.$ext $((N - 1)) png/023.png $W $H)
  check "$ext: first frame against its PNG: $p0 dB >= $bound" ge "$p0" "$bound"
  check "$ext: last frame against its PNG: $p1 dB >= $bound" ge "$p1" "$bound"
  check "$ext: no temporary left" [ -z "$(ls -A | grep '^\.')" ]
done
check "mp4: +faststart puts the index first (moov before mdat)" \
  "$py" -c "import sys; d=open('v.mp4','rb').read(); sys.exit(0 if 0 < d.find(b'moov') < d.find(b'mdat') else 1)"

# the same clip twice: the second run replaces the first's file
out=$("$bin" render t.frag -o v.mp4 --frames $N --size ${W}x$H --fps 30 2>&1); rc=$?
check "a second render over the same .mp4 works (rc $rc: $out)" [ $rc -eq 0 ]

# an odd size: padded to even for 4:2:0, said in the summary, the picture kept at the top left
out=$("$bin" render t.frag -o odd.mp4 --frames 3 --size 321x181 2>&1); rc=$?
check "odd size renders (rc $rc: $out)" [ $rc -eq 0 ]
check_eq "odd size: padded to even" "322 182" "$(probe odd.mp4 width) $(probe odd.mp4 height)"
check "odd size: the summary says so" grep -q "padded to 322x182" <<<"$out"
"$bin" render t.frag -o odd.png --size 321x181 --quiet
p=$(psnr odd.mp4 0 odd.png 321 181)
check "odd size: the picture is the PNG's ($p dB >= 30)" ge "$p" 30

# PATH unset: the search that starts ffmpeg (glibc's /bin:/usr/bin) is the one that looks for it first
if [ -x /usr/bin/ffmpeg ] || [ -x /bin/ffmpeg ]; then
  out=$(env -u PATH "$bin" render t.frag -o nopath.mp4 --frames 2 --size 64x36 --quiet 2>&1); rc=$?
  check "PATH unset: the video is written (rc $rc: $out)" [ $rc -eq 0 ]
  check_eq "... every frame" 2 "$(nframes nopath.mp4)"
fi

# the user's own ffmpeg arguments, and an extension of theirs
out=$("$bin" render t.frag -o own.mov --frames 5 --size ${W}x$H --ffmpeg-args '-c:v mpeg4 -q:v 2' 2>&1); rc=$?
check "--ffmpeg-args with .mov (rc $rc: $out)" [ $rc -eq 0 ]
check_eq "--ffmpeg-args: ffmpeg used the codec given" mpeg4 "$(probe own.mov codec_name)"
check_eq "--ffmpeg-args: every frame" 5 "$(nframes own.mov)"
check "--ffmpeg-args: the top is red" [ "$(top_red own.mov $W $H)" -gt 200 ]
expect_fail "--ffmpeg-args with an unknown encoder: ffmpeg's reason, nothing left" 1 \
  "bad.mp4: ffmpeg failed \(exit 1\): Unknown encoder 'nosuch'" "$bin" render t.frag -o bad.mp4 --frames 3 --ffmpeg-args '-c:v nosuch'
check "... and no file" [ ! -e bad.mp4 ]
check "... nor a hidden temporary" [ -z "$(ls -A | grep '^\.')" ]
# A full disk. ffmpeg 5.1 exits 0 after "Error writing trailer of F: No space left on device", leaving an
# MP4 without its index (unplayable): that must not replace the output. First an ffmpeg that does just
# that (on PATH before the real one; it reads its input, writes a stub, says so, exits 0), then a real
# full file system where this test may mount one.
mkdir -p fakebin && cat > fakebin/ffmpeg <<'SH'
#!/bin/sh
for a; do out=${a#file:}; done
cat >/dev/null
printf 'stub' >"$out"
echo "Error writing trailer of $out: No space left on device" >&2
echo "Error closing file $out: No space left on device" >&2
exit 0
SH
chmod +x fakebin/ffmpeg
printf 'old' > kept.mp4
expect_fail "ffmpeg exits 0 but could not write the trailer: a failure, with its reason" 1 \
  "^ikshade render: kept.mp4: ffmpeg could not finish it: No space left on device$" \
  env PATH="$PWD/fakebin:$PATH" "$bin" render t.frag -o kept.mp4 --frames 3 --size 64x36 --quiet
check_eq "... the old output is left as it was" old "$(cat kept.mp4)"
check "... and no temporary left" [ -z "$(ls -A | grep '^\.')" ]
if [ "$(id -u)" = 0 ] && mkdir -p full && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
  head -c 60000 /dev/urandom > full/filler 2>/dev/null
  for o in full.mp4 full.webm full.mkv full.gif; do
    expect_fail "a real full disk under -o $o: exit 1, one line" 1 "full/$o: .*No space left on device" \
      "$bin" render t.frag -o "full/$o" --frames 24 --size ${W}x$H --quiet
  done
  check "a real full disk: nothing left but the filler ($(ls -A full | tr '\n' ' '))" [ "$(ls -A full)" = filler ]
  umount full
else
  echo "note: not root, or no tmpfs mount here: the real full-disk case was not run (the stand-in above was)"
fi
expect_fail "--ffmpeg-args badly quoted" 2 "--ffmpeg-args ''x': an unclosed ' quote" "$bin" render t.frag -o q.mp4 --ffmpeg-args "'x"
expect_fail "a .mov without --ffmpeg-args is no known output" 2 "-o 'x.mov': expected a name ending in one of .png" "$bin" render t.frag -o x.mov

# Ctrl-C: the video holds the frames written, properly closed, and the message says so
"$bin" render t.frag -o int.mp4 --frames 100000 --size 160x90 2> int.err & p=$!
sleep 3; kill -INT $p; wait $p; rc=$?
check_eq "Ctrl-C on a video: exit 130" 130 "$rc"
said=$(grep -oE 'int.mp4 holds the first [0-9]+ of 100000 frames, properly closed' int.err | grep -oE 'first [0-9]+' | cut -d' ' -f2)
check "Ctrl-C: the message says how many frames the file holds ($(cat int.err))" [ -n "$said" ]
check_eq "Ctrl-C: the file holds that many frames, decodable" "$said" "$(nframes int.mp4)"
check "Ctrl-C: no temporary left" [ -z "$(ls -A | grep '^\.')" ]
# a second Ctrl-C: at once, and no partial file, hidden or not. The two must come apart, as a user's
# do (two signals sent together arrive as one), and while the first is still being honoured: a slow
# frame is being drawn, which the first Ctrl-C waits for (llvmpipe ends a loop after 65535 turns, so
# the frame is made slow by its size: seconds here)
slow='void mainImage(out vec4 c, in vec2 f) { float a = 0.0; for (int i = 0; i < 200000; i++) a += sin(a + f.x * 0.001 + float(i)); c = vec4(fract(a)); }'
printf '%s\n' "$slow" > slow.frag
"$bin" render slow.frag -o int2.mp4 --frames 100000 --size 256x144 2>/dev/null & p=$!
sleep 2; kill -INT $p; sleep 0.3; kill -INT $p; sent=$?; wait $p; rc=$?
check "the second Ctrl-C reached the render while it was still stopping" [ "$sent" -eq 0 ]
check_eq "a second Ctrl-C: exit 130" 130 "$rc"
sleep 0.5 # ffmpeg, in its own group, sees its input close and ends
check "a second Ctrl-C: no temporary left" [ -z "$(ls -A | grep '^\.')" ]
check "... and no partial int2.mp4" [ ! -e int2.mp4 ]

# `timeout` sends its SIGTERM to the render and again to its process group: one request, not two (the
# copy was taken as a second signal, which drops the file at once: half the time)
for i in 1 2 3; do
  timeout 2 "$bin" render t.frag -o "to$i.mp4" --frames 100000 --size 64x36 --quiet 2>"to$i.err"
  said=$(grep -oE "to$i.mp4 holds the first [0-9]+ of 100000 frames, properly closed" "to$i.err" | grep -oE 'first [0-9]+' | cut -d' ' -f2)
  check "timeout's SIGTERM, try $i: stopped as one request, the file closed ($(cat "to$i.err"))" [ -n "$said" ]
  check_eq "... holding the frames it says" "$said" "$(nframes "to$i.mp4")"
done
# a video whose ffmpeg takes longer than the stop's 5 s grace to write its end (a GIF's palette pass
# over every frame does; here an ffmpeg that sleeps 7 s after its input ends): waited for, said, kept
mkdir -p slowbin && cat > slowbin/ffmpeg <<'SH'
#!/bin/sh
for a; do out=${a#file:}; done
head -c 1 >/dev/null && : >"$STARTED"
cat >/dev/null
sleep 7
printf 'GIF89a' >"$out"
exit 0
SH
chmod +x slowbin/ffmpeg
rm -f started
env PATH="$PWD/slowbin:$PATH" STARTED="$PWD/started" "$bin" render t.frag -o slowend.gif --frames 100000 --size 64x36 --quiet 2>slowend.err & p=$!
for _ in $(seq 200); do [ -e started ] && break; sleep 0.1; done # frames reach ffmpeg: the stop comes after
kill -TERM $p; wait $p; rc=$?
check_eq "SIGTERM while ffmpeg takes 7 s to finish: exit 143" 143 "$rc"
check "... the file is kept" [ -s slowend.gif ]
check "... and the wait was said ($(tr '\n' '|' <slowend.err))" grep -q "ffmpeg is still finishing the video; a second signal drops it" slowend.err
check "... no temporary left" [ -z "$(ls -A | grep '^\.')" ]

# Ctrl-C on PNGs: the message says how to continue
"$bin" render t.frag -o seq/%06d.png --frames 100000 --size 64x36 2> seq.err & p=$!
sleep 2; kill -INT $p; wait $p
n=$(ls seq | wc -l)
check "PNG Ctrl-C: the rest are frames $n:100000 ($(cat seq.err))" grep -q -- "the rest are frames $n:100000" seq.err

# the README's pipe example, as written, twice in a row (the second over the first file)
for i in 1 2; do
  "$bin" render -o - --frames 60 --size 640x360 | ffmpeg -y -f rawvideo -pix_fmt rgba -s 640x360 -framerate 60 -i - \
    -pix_fmt yuv420p limb.mp4 2> pipe.err; rc=$?
  check "README pipe example, run $i (rc $rc: $(head -c 300 pipe.err))" [ $rc -eq 0 ]
done
check_eq "README pipe example: 60 frames" 60 "$(nframes limb.mp4)"
check_eq "README pipe example: 60 fps" "60/1" "$(probe limb.mp4 r_frame_rate)"
check_eq "README pipe example: yuv420p (plays in browsers)" yuv420p "$(probe limb.mp4 pix_fmt)"
# and `render -o limb.mp4` as the README shows it, twice
for i in 1 2; do
  out=$("$bin" render -o limb.mp4 --frames 120 --size 640x360 2>&1); rc=$?
  check "README video example, run $i (rc $rc: $out)" [ $rc -eq 0 ]
done
check_eq "README video example: 120 frames" 120 "$(nframes limb.mp4)"
finish
