#!/usr/bin/env bash
# `make run`: the main job. For now: the solver on a few example cases.
set -euo pipefail
bin=${1:-build/ikshade}
echo "ikshade solve on example cases (px py r1 r2 [bend] -> x y status):"
printf '1 1 1 1\n1 1 1 1 -1\n3 0 1 1\n0.2 0 1 0.5\n0 0 1 1\n' | tee /dev/stderr | "$bin" solve
