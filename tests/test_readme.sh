#!/usr/bin/env bash
# test_readme.sh SRC BUILD: every indented command block of README.md and of the guide's pages in docs/
# (PAGES below, in the order a reader meets them), run as written, in order, in a fresh copy of the
# repository (its tracked files and those git does not ignore, as a clone has them)
# with `build` there pointing at BUILD, as after `make build`. Blocks after a
# `<!-- readme-test: skip (REASON) -->` line are left out (tests/readme_blocks.py says which); viewer
# commands run under a fresh Xvfb with `--frames 30` added after `ikshade view`. A failing command is
# named with its README line and exit status; then a few outputs the README promises are read back.
set -u
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
. "$src/tests/lib.sh"
png() { python3 "$src/tests/png.py" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
clone=$tmp/clone
mkdir -p "$clone" "$tmp/home"
# the files a fresh clone has: tracked (as they are in the working tree) and new ones not ignored
(cd "$src" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
   [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -xf - -C "$clone"
check "the copy has the README and examples/" test -f "$clone/README.md" -a -d "$clone/examples"
check "the copy has no build output" test ! -e "$clone/build"
ln -s "$build" "$clone/build"
limit=1500 # s, for all of them

# the guide: the README, then its pages as its contents list them; every page in docs/ but the design
# notes must be one of them (a new page cannot go untested)
PAGES="README.md docs/viewer.md docs/rendering.md docs/shadertoy.md docs/scale-out.md docs/library.md docs/internals.md docs/troubleshooting.md"
for f in "$clone"/docs/*.md; do
  f=docs/${f##*/}
  [ "$f" = docs/DESIGN-NOTES.md ] && continue
  check "$f is one of the pages the test runs" grep -qw "$f" <<<"$PAGES"
done
for f in $PAGES; do
  check "README.md links to $f" bash -c '[ "$1" = README.md ] || grep -qF "($1)" "$2/README.md"' _ "$f" "$clone"
done
(cd "$clone" && python3 "$src/tests/readme_blocks.py" 30 $PAGES) > "$tmp/readme.sh"
for f in README.md docs/viewer.md docs/rendering.md; do
  check "$f has command blocks" grep -q "^echo \"== $f:" "$tmp/readme.sh"
done
grep '^# [^ ]*\.md:' "$tmp/readme.sh" | sed 's/^# /note: /' >&2
# HOME is the test's own, so that `make install PREFIX=$HOME/.local` stays inside it; PATH is Debian's
# default for a new user (no python from pyenv or a virtualenv before the system's)
(cd "$clone" && HOME=$tmp/home PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin timeout -s KILL $limit bash -c 'xvfb_exec() { '"$(declare -f xvfb_exec | tail -n +2)"'; }; xvfb_exec bash "$1"' _ "$tmp/readme.sh") \
  > "$tmp/out.log" 2> "$tmp/err.log"
rc=$?
if [ $rc -eq 137 ]; then
  fail=$((fail + 1))
  echo "FAIL: the guide's commands: killed after $limit s, while running: $(grep '^\$ ' "$tmp/out.log" | tail -n 1)" >&2
  echo "  the last lines of their output:" >&2; tail -n 25 "$tmp/err.log" | sed 's/^/    /' >&2
elif [ $rc -ne 0 ]; then
  fail=$((fail + 1))
  echo "FAIL: the guide's commands: $rc failed; each with its page and line:" >&2
  grep '^[^ ]*\.md:[0-9]*: exit' "$tmp/err.log" | sed 's/^/  /' >&2
  echo "  the last lines of their output:" >&2; tail -n 25 "$tmp/err.log" | sed 's/^/    /' >&2
else
  pass=$((pass + 1))
fi
echo "$(grep -c '^\$ ' "$tmp/out.log") commands of the guide run" >&2

# ---- what they made, read back ----
c=$clone
check_eq "render -o out/%04d.png --frames 120: frame 119 is a 1280x720 RGB PNG" "1280 720 3" "$(png info "$c/out/0119.png" 2>&1)"
check_eq "the feedback toy: 240 frames" "240" "$(ls "$c/trail" 2>/dev/null | grep -c '\.png$')"
moved=$(python3 "$src/tests/png.py" diff "$c/trail/0100.png" "$c/trail/0239.png" 0 0 2>&1)
check "... its trail moves (frames 100 and 239 differ: $moved)" grep -qE '^[1-9][0-9]* of [0-9]+ pixels differ' <<<"$moved"
# docs/scale-out.md, run in page order: GNU parallel's parts drew their frames (into a directory the
# page's earlier parts had filled they would have kept them all and drawn nothing: issue 42), and the
# two parts of the film joined it, every frame at 60 fps
check_eq "scale-out: GNU parallel's four parts, 240 frames in ptrails/" "240" "$(ls "$c/ptrails" 2>/dev/null | grep -c '\.png$')"
check "... drawn by them, not kept from before" grep -qE 'ptrails/%05d.png \(shard [0-3]/4: frames [0-9]+:[0-9]+\)( \([0-9]+ drawn unsaved for the buffers\))?$' "$tmp/err.log"
check_eq "scale-out: the film in two segments, joined: 240 frames at 60/1" "60/1,240" \
  "$(ffprobe -v error -count_packets -show_entries stream=r_frame_rate,nb_read_packets -of csv=p=0 "$c/film/trails.mp4" 2>&1)"
check_eq "the texture toy: t.png, 1280x720" "1280 720 3" "$(png info "$c/t.png" 2>&1)"
check_eq "render --input take.txt at 3840x2160: the first frame" "3840 2160 3" "$(png info "$c/take/0000.png" 2>&1)"
check_eq "view --record take.mp4: 30 frames in the video" "30" \
  "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$c/take.mp4" 2>&1)"
check_eq "the piped ffmpeg command: limb.mp4, 60 frames of 640x360" "640,360,60" \
  "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=width,height,nb_read_frames -of csv=p=0 "$c/limb.mp4" 2>&1)"
check_eq "render_frame (built against the installed prefix): limb.png 640x360" "640 360 3" "$(png info "$c/limb.png" 2>&1)"
check "make install PREFIX=\$HOME/.local installed under the test's HOME" test -x "$tmp/home/.local/bin/ikshade"
check "make install DESTDIR=\$PWD/out/stage PREFIX=/usr staged the tree" test -x "$c/out/stage/usr/bin/ikshade"
# examples/media/tiles.png is what examples/media/tiles.frag draws (no third-party picture, and none
# that cannot be made again)
"$build/ikshade" render "$src/examples/media/tiles.frag" -o "$tmp/tiles.png" --size 256x256 --quiet
check "examples/media/tiles.png is tiles.frag's picture (at most 1/255 off)" png diff "$tmp/tiles.png" "$src/examples/media/tiles.png" 1 0
check "examples/dirtoy/tiles.png is the same picture" cmp "$src/examples/media/tiles.png" "$src/examples/dirtoy/tiles.png"
# the README's pictures are what `make pictures` draws from the demos as they are now
mkdir -p "$tmp/pictures" && bash "$src/scripts/pictures.sh" "$build/ikshade" "$tmp/pictures"
for p in limb creature; do
  check "docs/$p.png is what scripts/pictures.sh draws (at most 1/255 off)" png diff "$tmp/pictures/$p.png" "$src/docs/$p.png" 1 0
  check "README.md shows docs/$p.png" grep -qF "](docs/$p.png)" "$src/README.md"
done
check_eq "the first steps' clip: walk.webp, 240 frames of 640x360 (read by PIL)" "240 640x360" \
  "$(/usr/bin/python3 -c 'import sys; from PIL import Image; im = Image.open(sys.argv[1]); print(im.n_frames, "%dx%d" % im.size)' "$c/walk.webp" 2>&1)"
# what a newcomer met in the first hour, said where they meet it (issue 42): pip into a venv needs
# python3-venv; `man` needs man-db; the npm tests can be left out; a 4K replay is slow on the CPU
check "README.md says python3-venv where it gives pip install ./python" \
  bash -c 'grep -A1 "pip install ./python" "$1" | grep -q "python3-venv"' _ "$src/README.md"
check "README.md says man-db beside man ikshade" bash -c 'grep -q "^    man ikshade " "$1" && grep -q "man-db" "$1"' _ "$src/README.md"
check "README.md gives make test SKIP=npm" grep -q "^    make test SKIP=npm " "$src/README.md"
check "docs/viewer.md warns that a 4K replay is slow on a CPU renderer" \
  bash -c 'grep -A3 "^A 4K replay is slow" "$1" | grep -q "llvmpipe"' _ "$src/docs/viewer.md"
# the guide's C excerpts (```c blocks of docs/library.md) are lines of the program its commands build
missing=$(/usr/bin/python3 - "$src/docs/library.md" "$src/examples/gpu_io.c" <<'P' 2>&1
import re, sys
doc, prog = open(sys.argv[1]).read(), open(sys.argv[2]).read()
blocks = re.findall(r'^```c\n(.*?)^```$', doc, re.S | re.M)
print(len(blocks), sum(b not in prog for b in blocks))
P
)
check_eq "docs/library.md's C excerpts: 4, each verbatim in examples/gpu_io.c" "4 0" "$missing"
check "... which the guide built and ran (gpu_io: the field of the refusal named)" grep -q "^refused: rgba8_len: " "$tmp/out.log"
finish
