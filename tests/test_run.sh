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
if command -v Xvfb >/dev/null; then
  out=$(IKSHADE_OUT="$tmp/out2" IKSHADE_VIEW_ARGS="--frames 5" xvfb_exec bash "$root/scripts/run.sh" "$bin" 2>&1); rc=$?
  check "with a display run.sh opens the viewer" grep -q "Opening the viewer" <<<"$out"
  check "... which quits cleanly" [ $rc -eq 0 ]
  check "... and nothing is rendered" [ ! -e "$tmp/out2" ]
else
  check "Xvfb is installed (scripts/deps.sh installs xvfb)" false
fi
finish
