#!/usr/bin/env bash
# `make run` on a machine without a display renders the default demo and says where the frames are;
# with a display it opens the viewer (here under Xvfb, told to quit after a few frames).
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$(env -u DISPLAY -u WAYLAND_DISPLAY IKSHADE_OUT="$tmp/out" IKSHADE_FRAMES=3 bash "$root/scripts/run.sh" "$bin" 2>&1); rc=$?
check "run.sh succeeds" [ $rc -eq 0 ]
check "frames written" test -f "$tmp/out/limb_0000.png" -a -f "$tmp/out/limb_0002.png"
check "says where the frames are" grep -q "Frames are in $tmp/out/" <<<"$out"
check_eq "and nothing else after the first line" 1 "$(tail -n +2 <<<"$out" | grep -c .)"
# the next step it suggests works as printed, on this machine (with or without ffmpeg)
next=$(sed -n 's/.*Next: \(.*\)   (.*/\1/p' <<<"$out")
check "it suggests a next command ($next)" test -n "$next"
(cd "$tmp" && eval "$next" --quiet) >/dev/null 2>&1
check "... which works ($next)" test -s "$(sed 's/.* -o \([^ ]*\).*/\1/' <<<"$next")"
# without ffmpeg on PATH the next step needs none
out=$(env -u DISPLAY -u WAYLAND_DISPLAY PATH="$tmp/nothing" IKSHADE_OUT="$tmp/out3" IKSHADE_FRAMES=3 /bin/bash "$root/scripts/run.sh" "$bin" 2>&1)
next=$(sed -n 's/.*Next: \(.*\)   (.*/\1/p' <<<"$out")
check "without ffmpeg it suggests what needs none ($next)" grep -q '\.webp' <<<"$next"
(cd "$tmp" && eval "$next" --quiet) >/dev/null 2>&1
check "... which works ($next)" test -s "$(sed 's/.* -o \([^ ]*\).*/\1/' <<<"$next")"
if command -v Xvfb >/dev/null; then
  out=$(IKSHADE_OUT="$tmp/out2" IKSHADE_VIEW_ARGS="--frames 5" xvfb_exec bash "$root/scripts/run.sh" "$bin" 2>&1); rc=$?
  check "with a display run.sh opens the viewer" grep -q "Opening the viewer" <<<"$out"
  check "... which quits cleanly" [ $rc -eq 0 ]
  check "... and nothing is rendered" [ ! -e "$tmp/out2" ]
else
  check "Xvfb is installed (scripts/deps.sh installs xvfb)" false
fi
finish
