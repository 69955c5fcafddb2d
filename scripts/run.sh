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
"$bin" render -o "$out/limb_%04d.png" --frames "$frames"
echo "Frames are in $out/ (limb_0000.png .. limb_$(printf '%04d' $((frames - 1))).png)."
echo "Make a video:  ffmpeg -framerate 60 -i $out/limb_%04d.png -pix_fmt yuv420p limb.mp4"
