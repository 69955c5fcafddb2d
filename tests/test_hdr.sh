#!/usr/bin/env bash
# HDR and 16-bit outputs read back by independent readers: OpenEXR's exrheader for the header,
# ffmpeg's EXR decoder for the pixels, and Python's zlib for 16-bit PNGs. Known values (4.0, 0.5,
# 0.001, a fine gradient) must come back within the format's precision, the right way up.
# usage: test_hdr.sh IKSHADE
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
py=/usr/bin/python3
for t in exrheader ffmpeg; do
  command -v $t >/dev/null || { echo "FAIL: $t is not installed (scripts/deps.sh installs openexr and ffmpeg)" >&2; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# red: 4.0 in the left third, 0.5 in the middle, 0.001 on the right; green a ramp; blue 1 in the top
# half (GL's y grows upwards), 0 below; alpha 0.25
cat > hdr.frag <<'G'
void mainImage(out vec4 c, in vec2 f) {
    float r = f.x < iResolution.x / 3.0 ? 4.0 : f.x < 2.0 * iResolution.x / 3.0 ? 0.5 : 0.001;
    c = vec4(r, f.x / iResolution.x, f.y > iResolution.y * 0.5 ? 1.0 : 0.0, 0.25);
}
G
# exr_check FILE W H TOL: the pixels through ffmpeg's own EXR decoder, against the shader's values
exr_check() {
  ffmpeg -v error -i "$1" -f rawvideo -pix_fmt gbrapf32le - > px.raw
  "$py" - "$2" "$3" "$4" <<'P'
import sys, numpy as np
w, h, tol = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
d = np.fromfile('px.raw', '<f4')
if d.size != 4 * w * h: print(f'decoded {d.size} floats, want {4 * w * h}'); sys.exit(1)
g, b, r, a = d.reshape(4, h, w)                      # planar G B R A, top row first
bad = []
def want(name, got, exp):
    if abs(got - exp) > tol * max(1.0, abs(exp)): bad.append(f'{name}: {got} != {exp}')
for x, exp in ((w // 6, 4.0), (w // 2, 0.5), (w - w // 6, 0.001)):
    want(f'R at x={x}', r[h // 4, x], exp)
    want(f'R at x={x} (bottom)', r[3 * h // 4, x], exp)
want('B top', b[2, 2], 1.0); want('B bottom', b[h - 3, 2], 0.0)
want('A', a[h // 2, w // 2], 0.25)
want('G ramp', g[0, w // 2], (w // 2 + 0.5) / w)
print('; '.join(bad) if bad else 'ok')
P
}
out=$("$bin" render hdr.frag -o h.exr --size 96x64 2>&1); rc=$?
check "EXR (half) renders (rc $rc: $out)" [ $rc -eq 0 ]
hdr=$(exrheader h.exr)
check "exrheader: four half channels" [ "$(grep -c '16-bit floating-point' <<<"$hdr")" -eq 4 ]
check "exrheader: R G B A" grep -qE '^ +A,' <<<"$hdr"
check "exrheader: ZIP compression" grep -q 'compression (type compression): zip' <<<"$hdr"
check "exrheader: the data window is the frame" grep -q 'dataWindow (type box2i): (0 0) - (95 63)' <<<"$hdr"
check "exrheader: increasing y" grep -q 'lineOrder (type lineOrder): increasing y' <<<"$hdr"
# half floats: 11 significant bits, so a relative error under 2^-11
check_eq "EXR half: 4.0, 0.5, 0.001, alpha, the ramp, the right way up" ok "$(exr_check h.exr 96 64 0.0005)"

out=$("$bin" render hdr.frag -o f.exr --size 96x64 --depth 32 2>&1); rc=$?
check "EXR float renders (rc $rc: $out)" [ $rc -eq 0 ]
check "exrheader: four float channels" [ "$(exrheader f.exr | grep -c '32-bit floating-point')" -eq 4 ]
# full floats: the GPU's own float, read back exactly (the ramp is one division)
check_eq "EXR float: the values as the shader wrote them" ok "$(exr_check f.exr 96 64 0.000001)"

# a NaN in a pixel is 0 in an EXR as in every output; +inf (1.0/0.0) stays inf, as HDR can hold it
cat > nan.frag <<'G'
uniform float zero;
void mainImage(out vec4 c, in vec2 f) {
    float inf = 1.0 / zero, nan = zero / zero;
    c = f.x < iResolution.x * 0.5 ? vec4(nan, nan, 0.5, 1.0) : vec4(inf, 0.25, nan, 1.0);
}
G
for d in 16 32; do
  "$bin" render nan.frag -o "nan$d.exr" --size 8x4 --depth $d --set zero=0 --quiet
  ffmpeg -v error -i "nan$d.exr" -f rawvideo -pix_fmt gbrapf32le - > px.raw
  got=$("$py" -c "
import numpy as np
g, b, r, a = np.fromfile('px.raw', '<f4').reshape(4, 4, 8)
print(int(np.isnan(np.stack([g, b, r, a])).sum()), r[1, 1], g[1, 1], b[1, 1], r[1, 6], g[1, 6], b[1, 6])")
  check_eq "EXR --depth $d: no NaN, NaN as 0, +inf kept" "0 0.0 0.0 0.5 inf 0.25 0.0" "$got"
done
out=$("$bin" render hdr.frag -o s.exr --size 96x64 --depth 32 --ssaa 2 2>&1); rc=$?
check "EXR with --ssaa 2 (rc $rc: $out)" [ $rc -eq 0 ]
# the box filter averages flat regions to themselves, and the ramp's 2x2 cells to its value
check_eq "EXR with --ssaa 2: values above 1 survive the filter" ok "$(exr_check s.exr 96 64 0.00001)"

out=$("$bin" render hdr.frag -o seq/%02d.exr --size 32x16 --frames 3 2>&1); rc=$?
check "an EXR sequence (rc $rc: $out)" [ $rc -eq 0 ]
check_eq "an EXR sequence: one file a frame" "00.exr 01.exr 02.exr" "$(ls seq | tr '\n' ' ' | sed 's/ $//')"

# 16-bit PNG: a ramp across 4096 pixels has 4096 distinct values, which 8 bits cannot hold
cat > grad.frag <<'G'
void mainImage(out vec4 c, in vec2 f) {
    c = vec4(f.x / 4096.0, 1.0 - f.x / 4096.0, f.y > iResolution.y * 0.5 ? 1.0 : 0.0, 0.5);
}
G
for alpha in "" --alpha; do
  out=$("$bin" render grad.frag -o g16.png --size 4096x8 --depth 16 $alpha 2>&1); rc=$?
  check "16-bit PNG $alpha renders (rc $rc: $out)" [ $rc -eq 0 ]
  got=$("$py" - g16.png <<'P'
import sys, zlib, struct
import numpy as np
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat = 8, b''
while pos < len(d):
    n, k = struct.unpack('>I4s', d[pos:pos + 8]); body = d[pos + 8:pos + 8 + n]
    assert zlib.crc32(k + body) == struct.unpack('>I', d[pos + 8 + n:pos + 12 + n])[0], 'CRC'
    if k == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    if k == b'IDAT': idat += body
    pos += 12 + n
if depth != 16: print('depth', depth); sys.exit()
ch = {2: 3, 6: 4}[ctype]; bpp = 2 * ch; stride = w * bpp
raw = zlib.decompress(idat); prev = bytearray(stride); rows = []
for y in range(h):
    f = raw[y * (stride + 1)]; line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
px = np.frombuffer(b''.join(rows), '>u2').reshape(h, w, ch).astype(int)
x = np.arange(w)
exp_r = np.rint((x + 0.5) / 4096.0 * 65535)
err = np.abs(px[0, :, 0] - exp_r).max()
distinct = len(np.unique(px[0, :, 0]))
print(f'ch={ch} within1={err <= 1} distinct={distinct} top_blue={px[0, 0, 2]} bottom_blue={px[h - 1, 0, 2]}'
      + (f' alpha={px[0, 0, 3]}' if ch == 4 else ''))
P
)
  want_ch=3; want_a=""; [ -n "$alpha" ] && want_ch=4 && want_a=" alpha=32768"
  check_eq "16-bit PNG $alpha: every step of the ramp within 1/65535, the right way up" \
    "ch=$want_ch within1=True distinct=4096 top_blue=65535 bottom_blue=0$want_a" "$got"
done

expect_fail "--depth 16 with a video" 2 "--depth '16': with output 'x.mp4': MP4 takes 8 bits per channel" "$bin" render -o x.mp4 --depth 16
expect_fail "--depth 8 with an EXR" 2 "--depth '8': with output 'x.exr': OpenEXR takes 16 or 32 bits" "$bin" render -o x.exr --depth 8
expect_fail "--depth 32 with a PNG" 2 "--depth '32': with output 'x.png': PNG takes 8 or 16 bits" "$bin" render -o x.png --depth 32
expect_fail "--depth 7" 2 "--depth '7': with output 'x.png': PNG takes 8 or 16" "$bin" render -o x.png --depth 7
expect_fail "many EXR frames need a number" 2 "-o 'x.exr': 3 frames need a frame number in the name, e.g. out/frame_%04d.exr" \
  "$bin" render -o x.exr --frames 3
check "nothing left by the refusals: no x.mp4" [ ! -e x.mp4 ]
check "... no x.exr" [ ! -e x.exr ]
check "... no x.png" [ ! -e x.png ]
finish
