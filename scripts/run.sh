#!/usr/bin/env bash
# `make run`: the main job. Where a display exists, the viewer with the IK limb demo (drag the target;
# edit shaders/limb.frag and save to see it live). Without one, or if no window can be opened there,
# a headless render of the demo into $IKSHADE_OUT (default out/), saying where the frames are.
# IKSHADE_HEADLESS=1 forces the render; IKSHADE_VIEW_ARGS passes options to the viewer.
set -euo pipefail
bin=${1:-build/ikshade}
out=${IKSHADE_OUT:-out}
frames=${IKSHADE_FRAMES:-120}
if [ -z "${IKSHADE_HEADLESS:-}" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Opening the viewer (Esc quits; ikshade help view lists the keys)."
  # shellcheck disable=SC2086
  if "$bin" view ${IKSHADE_VIEW_ARGS:-}; then exit 0; fi
  rc=$?
  [ $rc -ne 1 ] && exit $rc
  echo "No window could be opened; rendering headless instead."
fi
echo "Rendering the IK limb demo headless: $frames frames of 1280x720 at 60 fps into $out/"
"$bin" render -o "$out/limb_%04d.png" --frames "$frames" --quiet
# one line: where the frames are, and a next step that works on this machine
if command -v ffmpeg >/dev/null; then
  next="$bin render -o $out/limb.mp4 --frames $frames   (the same as a video)"
else
  next="$bin render -o $out/limb.webp --frames $frames --size 640x360   (an animated WebP; apt-get install ffmpeg for .mp4)"
fi
echo "Frames are in $out/ (limb_0000.png .. limb_$(printf '%04d' $((frames - 1))).png). Next: $next"
