#!/usr/bin/env bash
# A film rendered in segments, as a render farm's parts make it (--shard on a video), read back by
# ffprobe/ffmpeg alone: for MP4, Matroska and WebM the joined film has every frame once and in order (a
# frame-numbered toy decoded back reads 0..N-1), key frames where segments start, the right frame rate
# and duration, the container and codec profile browsers play, and the sound of one run of the whole
# film, sample for sample (no gap or click at a join). A part killed or stopped mid-way leaves no
# segment; --resume redoes only the missing and damaged
# segments; a join refuses in one line, leaving no film, a segment missing, damaged, of another render
# or of other settings; a GIF in segments is refused; more parts than frames still make the film.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || {
  echo "FAIL: ffmpeg/ffprobe are not installed (scripts/deps.sh installs ffmpeg)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX SLURM_ARRAY_TASK_STEP \
      JOB_COMPLETION_INDEX PARALLEL_SEQ

# the frame number in 10 black or white columns (read back through any codec), and a tone whose
# phase runs on across the whole film, so that a gap or a restart at a join changes samples
cat >num.glsl <<'EOF'
void mainImage(out vec4 c, in vec2 p) {
    int b = int(p.x / iResolution.x * 10.0);
    c = vec4(vec3(float((iFrame >> b) & 1)), 1.0);
}
vec2 mainSound(int s, float t) { return vec2(0.4 * sin(6.2831853 * 441.0 * t), 0.3 * sin(6.2831853 * 660.0 * t)); }
EOF
R=(render num.glsl --size 160x32 --frames 50)
W=160 H=32 N=50

# numbers FILM: the frame numbers its decoded frames show, one line
numbers() {
  ffmpeg -v error -i "$1" -map 0:v:0 -fps_mode passthrough -f rawvideo -pix_fmt gray - | python3 -c '
import sys
d = sys.stdin.buffer.read(); W, H = int(sys.argv[1]), int(sys.argv[2])
row = lambda i: d[i * W * H + (H // 2) * W:i * W * H + (H // 2 + 1) * W]
print(" ".join(str(sum(1 << b for b in range(10) if row(i)[int((b + 0.5) * W / 10)] > 128)) for i in range(len(d) // (W * H))))' "$W" "$H"
}
# pts FILM: its video packets' "time,flags", in presentation order
pts() { ffprobe -v error -select_streams v:0 -show_entries packet=pts_time,flags -of csv=p=0 "$1" | sort -t, -k1,1g; }
# keys FILM: its key frames, as frame numbers at 60 fps from its first frame
keys() { pts "$1" | awk -F, 'NR == 1 { t0 = $1 } $2 ~ /K/ { printf "%s%d", n++ ? " " : "", ($1 - t0) * 60 + 0.5 }'; }
# span FILM: seconds from its first frame to its last
span() { pts "$1" | awk -F, 'NR == 1 { t0 = $1 } { t = $1 } END { print t - t0 }'; }
info() { ffprobe -v error -select_streams "$2" -show_entries "stream=$3" -of default=nw=1:nk=1 "$1" | head -1; }
pcm() { ffmpeg -v error -i "$1" -map 0:a:0 -f s16le -ac 2 -ar 44100 - | md5sum | cut -d' ' -f1; }
all=$(seq -s ' ' 0 $((N - 1)))

for ext in mp4 mkv webm; do
  "$bin" "${R[@]}" -o "one.$ext" --quiet
  for k in 3 1 0 2; do "$bin" "${R[@]}" -o "film.$ext" --shard "$k/4" 2>>"parts-$ext.log"; done
  check "$ext: four parts joined into the film by the last to finish" [ -f "film.$ext" ]
  check "$ext: ... which says so" grep -q "all 4 there: joined -> film.$ext" "parts-$ext.log"
  check "$ext: ... and the parts before it count what is there" grep -q "3 of 4 segments there" "parts-$ext.log"
  check "$ext: a segment is picture alone, from a key frame" [ "$(info "film.$ext.parts/00001-of-00004.$ext" a codec_type)" = "" ]
  check_eq "$ext: every frame once and in order" "$all" "$(numbers "film.$ext")"
  check_eq "$ext: the same frames as one run" "$(numbers "one.$ext")" "$(numbers "film.$ext")"
  check "$ext: key frames where the segments start (13+13+12+12 frames)" python3 -c "
import sys; sys.exit(not {0, 13, 26, 38} <= set(map(int, '$(keys "film.$ext")'.split())))"
  check_eq "$ext: 60 frames a second" "60/1" "$(info "film.$ext" v:0 r_frame_rate)"
  check_eq "$ext: 60 frames a second on average too" "60/1" "$(info "film.$ext" v:0 avg_frame_rate)"
  sp=$(span "film.$ext")
  check "$ext: its frames run 49/60 s from first to last (got $sp)" python3 -c "import sys; sys.exit(abs($sp - 49 / 60) > 0.002)"
  dur=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "film.$ext")
  one=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "one.$ext")
  check "$ext: it lasts as long as one run's (got $dur and $one)" python3 -c "import sys; sys.exit(abs($dur - $one) > 0.002)"
  check "$ext: ... which is 50/60 s and the sound's end (got $one)" python3 -c "import sys; sys.exit(abs($one - 50 / 60) > 0.03)"
  check_eq "$ext: yuv420p" yuv420p "$(info "film.$ext" v:0 pix_fmt)"
  check_eq "$ext: the sound of one run of the whole film, sample for sample" "$(pcm "one.$ext")" "$(pcm "film.$ext")"
  check "$ext: no temporaries left beside the film" [ -z "$(ls -A | grep '^\.')" ]
done
check_eq "mp4: H.264 High, as one run's" "$(info one.mp4 v:0 codec_name) $(info one.mp4 v:0 profile)" \
  "$(info film.mp4 v:0 codec_name) $(info film.mp4 v:0 profile)"
check_eq "mp4: the sound is AAC" aac "$(info film.mp4 a:0 codec_name)"
check_eq "webm: VP9 with Opus" "vp9 opus" "$(info film.webm v:0 codec_name) $(info film.webm a:0 codec_name)"
check "mp4: faststart (the index before the data), for browsers" python3 -c "
d = open('film.mp4', 'rb').read(); import sys; sys.exit(not 0 < d.find(b'moov') < d.find(b'mdat'))"

# ---- resume: only the missing and the damaged segments drawn again -----------------------------------
P=film.mp4.parts
rm film.mp4 "$P/00001-of-00004.mp4"
head -c "$(($(stat -c %s "$P/00002-of-00004.mp4") / 2))" "$P/00002-of-00004.mp4" >cut && cat cut >"$P/00002-of-00004.mp4"
touch -d '2001-01-01' "$P/00000-of-00004.mp4" "$P/00003-of-00004.mp4"
for k in 0 1 2 3; do "$bin" "${R[@]}" -o film.mp4 --shard "$k/4" --resume 2>>resume.log; done
check "--resume keeps the whole segments" [ "$(grep -c 'kept from before' resume.log)" -eq 2 ]
check "... untouched" [ -z "$(find "$P" -name '0000[03]-*' -newer cut)" ]
check "... and draws the missing and the cut one" [ "$(grep -c '13 frames of 160x32\|12 frames of 160x32' resume.log)" -eq 2 ]
check "... then the film is joined again" grep -q 'all 4 there: joined' resume.log
check_eq "... with every frame once and in order" "$all" "$(numbers film.mp4)"
"$bin" "${R[@]}" -o film.mp4 --shard 2/4 --resume 2>again.log
check "a part run again finds the film joined, and keeps it" grep -q 'film.mp4 is joined already' again.log
"$bin" "${R[@]}" -o film.mp4 --shard-count 4 --join 2>join.log
check "--join finds the film there, whole, and keeps it" grep -q 'film.mp4 is this film of 4 segments, whole, joined already: kept' join.log
head -c "$(($(stat -c %s film.mp4) / 2))" film.mp4 >cut && cat cut >film.mp4
"$bin" "${R[@]}" -o film.mp4 --shard-count 4 --join 2>join.log
check "... but joins a film cut short again from the segments there" grep -q '4 segments of frames 0:50 joined -> film.mp4' join.log
check_eq "... the whole film" "$all" "$(numbers film.mp4)"

# a part killed mid-way (SIGKILL: no clean-up) leaves no segment, only its hidden temporary; one stopped
# by Ctrl-C leaves nothing, and says so; the same part again (resuming) draws it whole and joins
cat >slow.glsl <<'EOF'
void mainImage(out vec4 c, in vec2 p) {
    float a = 0.0;
    for (int i = 0; i < 600; i++) a = fract(a * 1.7 + sin(p.x * 0.01 + float(i) * 0.1 + iTime));
    c = vec4(a, p.y / iResolution.y, 0.5, 1.0);
}
EOF
S=(render slow.glsl --size 320x180 --frames 120 --jobs 1)
"$bin" "${S[@]}" -o slow.mp4 --shard 1/2 --quiet
# started: once ffmpeg has written some of the segment under its hidden name
started() { for _ in $(seq 500); do [ -n "$(find slow.mp4.parts -name '.*' -size +0 2>/dev/null)" ] && return; sleep 0.02; done; }
"$bin" "${S[@]}" -o slow.mp4 --shard 0/2 --quiet & pid=$!
started; kill -KILL $pid; wait $pid 2>/dev/null
check "a part killed mid-way: no segment at its name" [ ! -e slow.mp4.parts/00000-of-00002.mp4 ]
check "... nor a film" [ ! -e slow.mp4 ]
find slow.mp4.parts -name '.*0000*' -delete
"$bin" "${S[@]}" -o slow.mp4 --shard 0/2 2>int.err & pid=$!
started; kill -INT $pid; wait $pid; rc=$?
check "a part stopped by Ctrl-C: exit 130" [ "$rc" -eq 130 ]
check "... saying its segment was not made" grep -q "segment slow.mp4.parts/00000-of-00002.mp4 not made" int.err
check "... and leaving no segment and no temporary" [ -z "$(ls -A slow.mp4.parts | grep -v -e 00001-of -e join.lock)" ]
# a joiner killed mid-join left its film in the making beside the film (no lock: its writer is dead);
# one still being written elsewhere holds its lock (flock, as ikshade holds its own)
echo partial >.slow.mp4.dEaD02.mp4
echo live >.slow.mp4.LiVe03.mp4
(flock -x 9 && exec sleep 120) 9<>.slow.mp4.LiVe03.mp4 & holder=$!
for _ in $(seq 200); do flock -n -x .slow.mp4.LiVe03.mp4 true 2>/dev/null || break; sleep 0.02; done
"$bin" "${S[@]}" -o slow.mp4 --shard 0/2 --resume --quiet
check_eq "the part again draws it and joins the film: 120 frames" 120 \
  "$(ffprobe -v error -count_packets -show_entries stream=nb_read_packets -of csv=p=0 slow.mp4)"
check_eq "... removing a dead joiner's temporaries beside the film, never a live writer's" ".slow.mp4.LiVe03.mp4" \
  "$(ls -A | grep '^\.slow' | tr '\n' ' ' | sed 's/ $//')"
kill $holder 2>/dev/null; wait $holder 2>/dev/null
rm -f .slow.mp4.LiVe03.mp4

# ---- a join refuses, in one line, what would not make this film ---------------------------------------
# refused NAME WORDS: the join exits 1 with one line holding WORDS, and leaves no film and no temporary
refused() {
  rm -f film.mp4
  "$bin" "${R[@]}" -o film.mp4 --shard-count 4 --join 2>"$1.err"; local rc=$?
  check "join with a segment $1: exit 1" [ "$rc" -eq 1 ]
  check "... in one line" [ "$(wc -l <"$1.err")" -eq 1 ]
  check "... saying so" grep -q "$2" "$1.err"
  check "... and no film, no temporary" [ -z "$(ls -A | grep -E '^film\.mp4$|^\.')" ]
}
cp "$P/00002-of-00004.mp4" keep.mp4
rm "$P/00002-of-00004.mp4"
refused missing "segment 2 of 4 (film.mp4.parts/00002-of-00004.mp4, frames 26:38) is missing"
head -c "$(($(stat -c %s keep.mp4) / 2))" keep.mp4 >"$P/00002-of-00004.mp4"
refused damaged "segment 2 of 4 .* is damaged"
# another render: the shader edited since
sed 's/441.0/442.0/' num.glsl >other.glsl
"$bin" render other.glsl --size 160x32 --frames 50 -o other.mp4 --shard 2/4 --quiet
cp other.mp4.parts/00002-of-00004.mp4 "$P/00002-of-00004.mp4"
refused "of another render" "segment 2 of 4 .* is of another render"
# other settings: this render's segment, its comment saying other encoder settings
comment=$(ffprobe -v error -show_entries format_tags=comment -of default=nw=1:nk=1 keep.mp4)
ffmpeg -v error -i keep.mp4 -c copy -metadata "comment=${comment/settings=/settings=0}" -f mp4 "$P/00002-of-00004.mp4" -y
refused "of other settings" "segment 2 of 4 .* is of other settings"
cp keep.mp4 "$P/00002-of-00004.mp4"
"$bin" "${R[@]}" -o film.mp4 --shard-count 4 --join --quiet
check_eq "the segment put back: the film joins" "$all" "$(numbers film.mp4)"

# ---- what cannot be a film in segments ----------------------------------------------------------------
"$bin" "${R[@]}" -o film.gif --shard 0/4 2>gif.err; rc=$?
check "a GIF in segments: a usage error" [ "$rc" -eq 2 ]
check "... in one line saying why" [ "$(wc -l <gif.err)" -eq 1 ] && grep -q "palette is made for the whole clip" gif.err
check "... and no file" [ ! -e film.gif ] && [ ! -e film.gif.parts ]
"$bin" "${R[@]}" -o film2.mp4 --shard 0/4 --ffmpeg-args '-c:v libx264' 2>fa.err; rc=$?
check "a film in segments with the user's ffmpeg options: a usage error naming them" [ "$rc" -eq 2 ] && grep -q -- "--ffmpeg-args" fa.err
check "... and no file" [ ! -e film2.mp4 ] && [ ! -e film2.mp4.parts ]
"$bin" "${R[@]}" -o film.mp4 --join 2>j.err; rc=$?
check "--join without --shard-count: a usage error" [ "$rc" -eq 2 ] && grep -q "needs --shard-count N" j.err

# more parts than frames: the empty ones have nothing to draw, and the film is still joined
for k in 4 3 2 1 0; do "$bin" render num.glsl --size 160x32 --frames 3 -o few.mkv --shard "$k/5" 2>>few.log; done
check "5 parts of 3 frames: the empty parts say so" [ "$(grep -c 'has no frames' few.log)" -eq 2 ]
check_eq "... and the film has the 3 frames" "0 1 2" "$(numbers few.mkv)"

finish
