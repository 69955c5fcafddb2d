#!/usr/bin/env bash
# `make run` on a machine without a display renders the default demo and says where the frames are.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$(env -u DISPLAY -u WAYLAND_DISPLAY IKSHADE_OUT="$tmp/out" IKSHADE_FRAMES=3 bash "$root/scripts/run.sh" "$bin" 2>&1); rc=$?
check "run.sh succeeds" [ $rc -eq 0 ]
check "frames written" [ -f "$tmp/out/limb_0000.png" ] && [ -f "$tmp/out/limb_0002.png" ]
check "says where the frames are" grep -q "Frames are in $tmp/out/" <<<"$out"
finish
