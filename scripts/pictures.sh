#!/usr/bin/env bash
# pictures.sh IKSHADE DIR: the README's pictures, drawn by ikshade itself (`make pictures` writes them
# into docs/; tests/test_readme.sh draws them again and holds them against the committed ones).
set -euo pipefail
bin=$1 dir=$2
"$bin" render limb -o "$dir/limb.png" --size 480x270 --time 2 --mouse 322,90,322,90 --ssaa 2 --quiet
"$bin" render creature -o "$dir/creature.png" --size 480x270 --time 2 --ssaa 2 --quiet
