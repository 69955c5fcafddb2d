#!/usr/bin/env bash
# `make run`: the main job. The interactive viewer is not built yet, so this renders the default IK
# demo headless (no display needed) into $IKSHADE_OUT (default out/) and says where the frames are.
set -euo pipefail
bin=${1:-build/ikshade}
out=${IKSHADE_OUT:-out}
frames=${IKSHADE_FRAMES:-120}
echo "Rendering the IK limb demo headless: $frames frames of 1280x720 at 60 fps into $out/"
"$bin" render -o "$out/limb_%04d.png" --frames "$frames"
echo "Frames are in $out/ (limb_0000.png .. limb_$(printf '%04d' $((frames - 1))).png)."
echo "Make a video:  ffmpeg -framerate 60 -i $out/limb_%04d.png -pix_fmt yuv420p limb.mp4"
