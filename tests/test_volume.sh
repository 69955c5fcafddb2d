#!/usr/bin/env bash
# Volume channels: shadertoy.com's .bin format (a 20-byte header: u32 signature, u32 x y z, u8 channels,
# u8 layout, u16 format 0 bytes / 10 floats; then texels x fastest) as a sampler3D, from --channelN, a
# JSON's "volume" input and a manifest; each texel read back at its place; malformed files refused with
# one line. The volumes are written here by Python. Bytes read back through no arithmetic, and means that
# are whole numbers, are compared exactly; values whose times 255 is not whole (3/20, 0.150) within 1
# (px_near, tests/lib.sh), the 8-bit rounding being the driver's.
# usage: test_volume.sh IKSHADE
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tests=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
png() { python3 "$tests/png.py" "$@"; }
R() { "$bin" render "$@" --quiet; }
# vol NAME X Y Z CHANNELS FORMAT [EXTRA_BYTES]: texel (x, y, z) channel c holds 10*x + 40*y + 100*z + c
# (bytes), or that / 1000 (floats)
vol() {
  python3 - "$@" <<'P'
import struct, sys
name, x, y, z, ch, fmt = sys.argv[1], *map(int, sys.argv[2:7])
extra = int(sys.argv[7]) if len(sys.argv) > 7 else 0
data = b''
for k in range(z):
    for j in range(y):
        for i in range(x):
            for c in range(ch):
                v = 10 * i + 40 * j + 100 * k + c
                data += struct.pack('<f', v / 1000) if fmt == 10 else bytes([v & 255])
open(name, 'wb').write(b'BIN\0' + struct.pack('<IIIBBH', x, y, z, ch, 0, fmt) + data + b'\0' * extra)
P
}
vol rgba.bin 2 2 2 4 0
# pixel (i, 0) of an 8x1 frame reads texel (i & 1, i >> 1 & 1, i >> 2)
FETCH='void mainImage(out vec4 c, in vec2 f) { int i = int(f.x); c = vec4(texelFetch(iChannel0, ivec3(i & 1, (i >> 1) & 1, i >> 2), 0).rgb, 1.0); }'
echo "$FETCH" > fetch.frag
R fetch.frag -o rgba.png --size 8x1 --channel0 rgba.bin
got=$(for i in 0 1 2 3 4 5 6 7; do png pixel rgba.png $i 0; done | tr '\n' ' ')
want=$(python3 -c 'print(" ".join("%d %d %d" % tuple(10*(i&1)+40*((i>>1)&1)+100*(i>>2)+c for c in range(3)) for i in range(8)) + " ")')
check "RGBA bytes: each texel at its x, y, z" [ "$got" = "$want" ]
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(iChannelResolution[0] / 20.0, 1.0); }' > res.frag
vol flat.bin 3 5 7 1 0
R res.frag -o res.png --size 1x1 --channel0 flat.bin
check "iChannelResolution is x, y, z (3, 5, 7)" px_near "$(png pixel res.png 0 0)" "38 64 89"
# linear filtering between texels, in 3D: the centre of a 2x2x2 volume is the mean of all eight
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texture(iChannel0, vec3(0.5)).rgb, 1.0); }' > mid.frag
R mid.frag -o mid.png --size 1x1 --channel0 rgba.bin
check "linear: the centre is the mean of the eight texels" [ "$(png pixel mid.png 0 0)" = "75 76 77" ]
R mid.frag -o near.png --size 1x1 --channel0 rgba.bin,filter=nearest
check "nearest: the centre rounds to one texel (1, 1, 1)" [ "$(png pixel near.png 0 0)" = "150 151 152" ]
# wrap=repeat on the third axis too
echo 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texture(iChannel0, vec3(0.25, 0.25, 1.75)).rgb, 1.0); }' > wrap.frag
R wrap.frag -o rep.png --size 1x1 --channel0 rgba.bin,filter=nearest,wrap=repeat
check "wrap=repeat: z 1.75 wraps to 0.75 (the second slice)" [ "$(png pixel rep.png 0 0)" = "100 101 102" ]
# one channel of floats: red only, values above what a byte holds kept until the frame
vol f.bin 2 2 2 1 10
echo 'void mainImage(out vec4 c, in vec2 f) { vec4 v = texelFetch(iChannel0, ivec3(1, 1, 1), 0); c = vec4(v.r, v.g, v.b, 1.0); }' > f.frag
R f.frag -o f.png --size 1x1 --channel0 f.bin
check "one float channel: red 0.150, green and blue 0" px_near "$(png pixel f.png 0 0)" "38 0 0"

# ---- from the site's JSON (type "volume", found beside it) and a manifest ---------------------------------
mkdir -p j/media/a
cp rgba.bin j/media/a/27012b4eadd0c3ce12498b867058e4f717ce79e10a99568cca461682d84a4b04.bin
python3 - "$FETCH" <<'P' > j/toy.json
import json, sys
print(json.dumps({"renderpass": [{"type": "image", "code": sys.argv[1], "outputs": [], "inputs": [
  {"id": "4sfGRr", "filepath": "/media/a/27012b4eadd0c3ce12498b867058e4f717ce79e10a99568cca461682d84a4b04.bin",
   "type": "volume", "channel": 0, "sampler": {"filter": "mipmap", "wrap": "repeat", "vflip": "true", "srgb": "false"}}]}]}))
P
R j/toy.json -o json.png --size 8x1
check "JSON: a volume input, found beside the JSON" png same rgba.png json.png
rm j/media/a/*.bin
expect_fail "JSON: a volume not on disk is named" 1 "toy.json\\[Image\\]: iChannel0: volume '/media/a/27012b4e.*' is not on disk beside the JSON" \
  "$bin" render j/toy.json -o x.png --size 8x1
R j/toy.json -o black.png --size 8x1 --missing-media black
check "... or black with --missing-media black" [ "$(png pixel black.png 0 0)" = "0 0 0" ]
mkdir d && echo "$FETCH" > d/image.glsl && cp rgba.bin d/noise.bin && echo 'image.iChannel0 = noise.bin' > d/manifest.txt
R d -o dir.png --size 8x1
check "manifest: a volume by its file name" cmp rgba.png dir.png

# ---- malformed volumes: one line naming the file and what is wrong ----------------------------------------
head -c 12 rgba.bin > short.bin
expect_fail "shorter than the header" 1 "short.bin: 12 bytes, shorter than a volume's 20-byte header" \
  "$bin" render fetch.frag -o x.png --channel0 short.bin
vol five.bin 2 2 2 5 0
expect_fail "five channels" 1 "five.bin: a volume of 5 channels in format 0: expected 1-4 channels" \
  "$bin" render fetch.frag -o x.png --channel0 five.bin
vol big.bin 2 2 2 4 0 3
expect_fail "texels that do not fill the sizes" 1 "big.bin: a 2x2x2 volume of 4 channels holds 35 bytes of texels, not 32" \
  "$bin" render fetch.frag -o x.png --channel0 big.bin
python3 -c 'import struct; open("huge.bin", "wb").write(b"BIN\0" + struct.pack("<IIIBBH", 100000, 100000, 100000, 1, 0, 0))'
expect_fail "sizes beyond the GL's" 1 "huge.bin: a volume of 100000x100000x100000: this GL takes 1 to" \
  "$bin" render fetch.frag -o x.png --channel0 huge.bin
expect_fail "a volume that is not there: a usage error naming the option" 2 "--channel0 'nope.bin': No such file or directory" "$bin" render fetch.frag -o x.png --channel0 nope.bin
check "... no picture left by any of them" [ ! -e x.png ]
finish
