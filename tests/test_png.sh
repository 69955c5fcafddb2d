#!/usr/bin/env bash
# Every PNG path (the fast default, libdeflate's levels, stored; RGB and RGBA; odd and tiny sizes)
# decoded by an independent reader (PIL, and Python's zlib through tests/png.py, which checks every
# CRC) and compared byte for byte with the raw frames the same render sends down a pipe.
# usage: test_png.sh IKSHADE
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > t.frag <<'G'
void mainImage(out vec4 c, in vec2 f) {
    // noise-like detail (hard to compress) and a top/bottom split that shows the row order
    float n = fract(sin(dot(f, vec2(12.9898, 78.233))) * 43758.5453);
    c = vec4(n, f.x / iResolution.x, f.y > iResolution.y * 0.5 ? 1.0 : 0.0, 0.5 + 0.5 * n);
}
G
for size in 1x1 3x2 97x61 640x360; do
  for alpha in "" --alpha; do
    for level in "" "--png-level 1" "--png-level 2" "--png-level 9" "--png-level 0"; do
      what="$size ${alpha:-rgb} ${level:-default}"
      "$bin" render t.frag -o p.png --size $size $alpha $level --quiet 2>err || { check "$what: renders ($(cat err))" false; continue; }
      "$bin" render t.frag -o - --size $size $alpha --quiet > p.raw
      got=$("$py" - "$size" "$alpha" "$here/png.py" <<'P'
import sys, importlib.util
import numpy as np
from PIL import Image
w, h = map(int, sys.argv[1].split('x')); ch = 4 if sys.argv[2] else 3
raw = np.fromfile('p.raw', np.uint8).reshape(h, w, 4)[:, :, :ch]
im = Image.open('p.png'); a = np.asarray(im)
spec = importlib.util.spec_from_file_location('png', sys.argv[3]); png = importlib.util.module_from_spec(spec); spec.loader.exec_module(png)
pw, ph, pch, rows = png.read('p.png')           # checks every chunk's CRC
b = np.frombuffer(b''.join(rows), np.uint8).reshape(ph, pw, pch)
ok = im.mode == ('RGBA' if ch == 4 else 'RGB') and a.shape == raw.shape and (a == raw).all() and (b == raw).all()
print('same' if ok else f'DIFFERENT mode={im.mode} shape={a.shape}')
P
)
      check_eq "$what: the PNG holds exactly the frame" same "$got"
    done
  done
done
# the fast path is the default, and it is smaller than stored
"$bin" render t.frag -o fast.png --size 640x360 --quiet
"$bin" render t.frag -o stored.png --size 640x360 --png-level 0 --quiet
check "the default compresses ($(stat -c %s fast.png) < $(stat -c %s stored.png) bytes)" [ "$(stat -c %s fast.png)" -lt "$(stat -c %s stored.png)" ]
finish
