#!/usr/bin/env bash
# What checkpoints buy a late range of a feedback toy, and what writing them costs, measured in one run
# on this machine (each figure the best of REPS):
#   (a) frames L..L+60 with no checkpoint: the L frames before them are drawn first, unsaved
#   (b) the same range from the checkpoint of frame L: the same files (checked), and the ratio a / b
#   (c) frames 0..L without checkpoints, and (d) with --checkpoint-every 120: the ratio d / c
# usage: scripts/bench_scale.sh [IKSHADE] [L] [WxH] [REPS]   (defaults: build/ikshade 1200 640x360 3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/ikshade} L=${2:-1200} size=${3:-640x360} reps=${4:-3}
toy=$root/examples/scale-out/trails
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
# best DIR ARGS...: the least wall time of reps runs, each into a fresh DIR
best() {
  local dir=$1 b=999999 t0 t; shift
  for _ in $(seq "$reps"); do
    rm -rf "$tmp/$dir"; t0=$(now)
    "$bin" render "$toy" --size "$size" -o "$tmp/$dir/%05d.png" --quiet "$@"
    t=$(echo "$(now) - $t0" | awk '{print $1 - $3}'); b=$(awk -v a="$b" -v t="$t" 'BEGIN{print (t < a) ? t : a}')
  done
  echo "$b"
}
"$bin" render "$toy" --size "$size" -o "$tmp/prep/%05d.png" --frames "0:$L" --checkpoint "$tmp/ck" --checkpoint-every "$L" --quiet
a=$(best a --frames "$L:$((L + 60))")
b=$(best b --frames "$L:$((L + 60))" --checkpoint "$tmp/ck")
diff -r "$tmp/a" "$tmp/b" >/dev/null || { echo "bench_scale: the range from the checkpoint differs from the one without" >&2; exit 1; }
c=$(best c --frames "0:$L")
d=$(best d --frames "0:$L" --checkpoint "$tmp/ckd" --checkpoint-every 120)
ck=$(stat -c %s "$tmp/ck/$(ls "$tmp/ck" | head -1)")
awk -v L="$L" -v s="$size" -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v ck="$ck" -v n="$reps" 'BEGIN {
  printf "examples/scale-out/trails at %s, best of %d (one checkpoint: %.1f MB)\n", s, n, ck / 1e6
  printf "(a) frames %d:%d, no checkpoint        %8.2f s\n", L, L + 60, a
  printf "(b) the same from the checkpoint of %d %8.2f s   a / b = %.1f (same files)\n", L, b, a / b
  printf "(c) frames 0:%d                         %8.2f s\n", L, c
  printf "(d) the same, --checkpoint-every 120     %8.2f s   d / c = %.3f\n", d, d / c
}'
