#!/usr/bin/env bash
# GNU parallel renders one shader's frames as PARTS contiguous parts, on this machine or over ssh:
# PNG frames, or, when OUT names a video (.mp4 .mkv .webm), a film in segments that the last job to
# finish joins into OUT.
#
#   examples/scale-out/render-parallel.sh 8                                  # here, one job per core
#   HOSTS=2/render1,2/render2 examples/scale-out/render-parallel.sh 16       # ssh: 2 at a time on each
#   SHADER=my.json FRAMES=0:36000 SIZE=3840x2160 examples/scale-out/render-parallel.sh 64
#   OUT=film.mp4 FRAMES=0:36000 SIZE=3840x2160 HOSTS=... examples/scale-out/render-parallel.sh 60
#
# Every job runs `ikshade render ... --shard auto --shard-count PARTS --resume`: GNU parallel numbers
# the jobs 1..PARTS in PARALLEL_SEQ (also on remote hosts), a failed job is retried, and running the
# whole line again draws only what is missing. Over ssh the hosts must have ikshade on their PATH (or
# IKSHADE set to its path there) and see this directory at the same path (a shared file system).
set -euo pipefail
parts=${1:-8}
IKSHADE=${IKSHADE:-ikshade}
SHADER=${SHADER:-examples/scale-out/trails}
OUT=${OUT:-frames}
FRAMES=${FRAMES:-0:240}
SIZE=${SIZE:-1280x720}
FPS=${FPS:-60}
CHECKPOINT_EVERY=${CHECKPOINT_EVERY:-600}
# -N0: the arguments 1..PARTS only count the jobs; -q: the command's words reach it as they are
opts=(--will-cite -q -N0 --retries 2)
case ${OUT,,} in
  *.mp4 | *.mkv | *.webm) output=$OUT film=1 ;;
  *) output=$OUT/%05d.png film= ;;
esac
if [ -n "${HOSTS:-}" ]; then opts+=(-S "$HOSTS" --workdir .); else opts+=(--jobs "${JOBS:-100%}"); fi
status=0
parallel "${opts[@]}" "$IKSHADE" render "$SHADER" -o "$output" --frames "$FRAMES" --size "$SIZE" \
    --fps "$FPS" --shard auto --shard-count "$parts" --resume --checkpoint "$OUT.checkpoints" \
    --checkpoint-every "$CHECKPOINT_EVERY" --quiet ::: $(seq "$parts") || status=$?
# parallel's exit status counts failed jobs, but a remote job that never started (a host whose ssh
# session lacks SHELL, a directory the host does not share) can still count as done: count the files
if [ -n "$film" ]; then
  # the film is there only once every segment was; the join, run here, says which one is missing
  if [ ! -s "$OUT" ]; then
    "$IKSHADE" render "$SHADER" -o "$OUT" --frames "$FRAMES" --size "$SIZE" --fps "$FPS" --join \
        --shard-count "$parts" --quiet || { [ "$status" -ne 0 ] || status=1; }
  fi
  exit "$status"
fi
case $FRAMES in *:*) first=${FRAMES%%:*} end=${FRAMES#*:} ;; *) first=0 end=$FRAMES ;; esac
missing=0
for ((f = first; f < end; f++)); do printf -v name '%s/%05d.png' "$OUT" "$f"; [ -s "$name" ] || missing=$((missing + 1)); done
if [ "$missing" -gt 0 ]; then
  echo "render-parallel.sh: $missing of $((end - first)) frames missing in $OUT/; run the same line again to draw them" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
