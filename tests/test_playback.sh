#!/usr/bin/env bash
# A film joined from segments plays where people watch films. A frame-numbered toy (bit b of iFrame as
# column b of 8, white for 1: read back through any codec's loss) is rendered as 3 segments (--shard
# 2/3, 0/3, 1/3), the film joined by hand (--join), in MP4 (H.264), WebM (VP9) and Matroska, and:
#   browser: each film in a <video> element of headless Chromium (tests/webgl/playback.mjs): loaded
#     (readyState >= 2), its duration the frames' (within a frame), seeked to frames either side of each
#     segment boundary, the first and the last and back again, each frame drawn into a canvas carrying
#     its number; then played from its start until it ends, showing the last frame.
#   vlc: each film played by VLC (cvlc, the dummy interface, every frame shown saved by its scene
#     filter) to its end: the frames in order, none twice, every one but the first and the last there
#     (both sides of each join), and no error from VLC's demuxers or decoders. VLC's player paces its
#     frames by the clock, and under load it was seen to leave out a VP9 film's first frame, and
#     always leaves out its last, a one-run film's and ffmpeg's alike: those two are its own, not the
#     film's (ffprobe and Chromium read every frame of it, above and in cli.segments).
# usage: test_playback.sh IKSHADE TESTS_DIR BUILD_DIR browser|vlc
set -u
. "$(dirname "$0")/lib.sh"
bin=$(realpath "$1") tests=$(realpath "$2") build=$(realpath "$3") mode=$4
command -v ffprobe >/dev/null || { echo "FAIL: ffmpeg is not installed (scripts/deps.sh test installs it)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX SLURM_ARRAY_TASK_STEP \
      JOB_COMPLETION_INDEX PARALLEL_SEQ

cat >num.glsl <<'EOF'
void mainImage(out vec4 c, in vec2 p) {
    int b = int(p.x / iResolution.x * 8.0);
    c = vec4(vec3(float((iFrame >> b) & 1)), 1.0);
}
EOF
# 72 frames at 60 fps in segments of 24: boundaries after frames 23 and 47
N=72 FPS=60 W=256 H=32
R=(render num.glsl --size ${W}x$H --frames $N --fps $FPS)
EXTS=(mp4 webm mkv)
for ext in "${EXTS[@]}"; do
  for k in 2 0 1; do "$bin" "${R[@]}" -o "film.$ext" --shard "$k/3" --quiet 2>>parts.log; done
  # the film joined by hand, as a farm's last job does (render.sbatch's JOIN), not by the last part
  rm -f "film.$ext"
  "$bin" "${R[@]}" -o "film.$ext" --join --shard-count 3 --quiet 2>>parts.log
  check "$ext: the film joined from its 3 segments" [ -s "film.$ext" ]
  check_eq "$ext: ffprobe reads $N frames in it" "$N" \
    "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "film.$ext")"
done

case $mode in
browser)
  hw=$build/webgl
  bash "$tests/webgl/install.sh" "$tests/webgl" "$hw" || exit 1
  # frames either side of each boundary, the first, the last, and back to the middle (a seek backwards
  # over a boundary); each time the middle of its frame, so that rounding cannot pick a neighbour
  want=(0 23 24 25 47 48 49 71 30 12)
  at=$(printf '%s\n' "${want[@]}" | awk -v fps=$FPS '{ printf "%s%.6f", (NR > 1 ? "," : ""), ($1 + 0.5) / fps }')
  for ext in "${EXTS[@]}"; do
    if ! out=$(node "$hw/playback.mjs" "film.$ext" --at "$at" --bits 8 2>&1); then
      fail=$((fail + 1)); echo "FAIL: $ext: Chromium could not play the joined film: $out" >&2; continue
    fi
    echo "$ext: $out"
    got=$(python3 -c '
import json, sys
r = json.loads(sys.argv[1])
print(r["canPlay"] != "", r["readyState"] >= 2, r["width"], r["height"], "%.4f" % r["duration"])
print(" ".join(str(f["number"]) for f in r["frames"]))
print(min(f["readyState"] for f in r["frames"]) >= 2)
print(r["played"]["ended"], r["played"]["number"])' "$out")
    { read -r can ready w h dur; read -r numbers; read -r seek_ready; read -r ended last; } <<<"$got"
    check_eq "$ext: Chromium says it can play the type" True "$can"
    check_eq "$ext: the <video> element loads it (readyState >= 2)" True "$ready"
    check_eq "$ext: the film's size" "$W $H" "$w $h"
    check "$ext: its duration is $N frames at $FPS fps, within a frame ($dur s)" \
      python3 -c "import sys; sys.exit(abs($dur - $N / $FPS) > 1 / $FPS)"
    check_eq "$ext: the frames shown after seeking across the segment boundaries" "${want[*]}" "$numbers"
    check_eq "$ext: ... each with its data there (readyState >= 2)" True "$seek_ready"
    check_eq "$ext: played from the start, it ends on the last frame" "True $((N - 1))" "$ended $last"
  done
  ;;
vlc)
  command -v cvlc >/dev/null || { echo "FAIL: VLC is not installed (scripts/deps.sh test installs vlc-bin and vlc-plugin-base)" >&2; exit 1; }
  # VLC refuses to run as root: as nobody then, the films readable to it and the scene directories writable
  as=()
  if [ "$(id -u)" = 0 ]; then as=(setpriv --reuid=nobody --regid=nogroup --clear-groups); chmod 755 "$tmp"; fi
  # frames FILM: the numbers of the frames VLC shows of FILM, consecutive repeats as one (VLC's scene
  # filter saves the last picture of an MP4 twice), one line; VLC's log in FILM.vlc.log. At half
  # speed, so that a loaded machine leaves VLC's clock time for every frame
  frames() {
    local d=$tmp/$1.scene
    rm -rf "$d"; mkdir -p "$d"; chmod 777 "$d"
    timeout 120 "${as[@]}" env HOME="$tmp" cvlc -I dummy --play-and-exit --no-dbus --avcodec-hw=none --no-audio \
      --rate 0.5 --vout dummy --no-drop-late-frames --no-skip-frames --video-filter=scene --scene-format=png --scene-ratio=1 \
      --scene-path="$d" --scene-prefix=f "$1" vlc://quit >"$1.vlc.log" 2>&1
    /usr/bin/python3 -c '
import glob, sys
from PIL import Image
out = []
for f in sorted(glob.glob(sys.argv[1] + "/f*.png")):
    im = Image.open(f).convert("L"); w, h = im.size
    n = sum(1 << b for b in range(8) if im.getpixel((int((b + 0.5) * w / 8), h // 2)) > 128)
    if not out or out[-1] != n:
        out.append(n)
print(" ".join(map(str, out)))' "$d"
  }
  inner=$(seq -s ' ' 1 $((N - 2)))
  for ext in "${EXTS[@]}"; do
    film=$(frames "film.$ext")
    echo "$ext: VLC shows the joined film as: $film"
    # the first and the last frame, where VLC shows them, where they belong
    mid=$(sed -E "s/^0 //; s/ $((N - 1))\$//" <<<"$film")
    check_eq "$ext: VLC shows every frame in order, once, both sides of each join (the first and the last aside)" \
      "$inner" "$mid"
    errs=$(grep -E '(demux|decoder|avcodec|packetizer|input|stream|access)[a-z_ ]* error' "film.$ext.vlc.log")
    check_eq "$ext: no error from VLC's demuxers and decoders" "" "$errs"
  done
  ;;
*) echo "test_playback.sh: '$mode': expected browser or vlc" >&2; exit 2 ;;
esac
finish
