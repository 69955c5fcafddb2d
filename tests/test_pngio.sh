#!/usr/bin/env bash
# The 8-bit PNG encoder on synthetic frames (tests/test_pngio.c writes them): each PNG decoded by PIL
# and by our own reader of the chunks (every CRC checked with Python's zlib, the stream inflated by
# zlib) equals the pixels it was made from, byte for byte; incompressible frames span several IDAT
# chunks; stored PNGs are stored. test_pngio itself asserts that threads encoding at once with
# different settings make the same bytes as one thread alone.
# usage: test_pngio.sh TEST_PNGIO
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$("$bin" "$tmp" 2>&1); rc=$?
check_eq "test_pngio: encodes every case; threads do not change the bytes ($out)" 0 "$rc"
[ -s "$tmp/cases.txt" ] || { check "test_pngio wrote its cases" false; finish; exit 1; }
while read -r name w h ch; do
  got=$("$py" - "$tmp/$name" "$w" "$h" "$ch" <<'P'
import struct, sys, zlib
import numpy as np
from PIL import Image
base, w, h, ch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
want = np.fromfile(base + '.rgba', np.uint8).reshape(h, w, 4)[:, :, :ch]
data = open(base + '.png', 'rb').read()
# our own walk over the chunks: order, CRCs, the zlib stream
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
pos, kinds, idat = 8, [], b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    assert zlib.crc32(kind + body) == struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])[0], f'CRC of {kind}'
    kinds.append(kind)
    if kind == b'IDAT':
        idat += body
    pos += 12 + n
assert pos == len(data) and kinds[0] == b'IHDR' and kinds[-1] == b'IEND', kinds
raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, w * ch + 1)
# undo the filters (each row: 0 None or 2 Up, the only ones the encoder writes)
assert set(raw[:, 0].tolist()) <= {0, 2}, set(raw[:, 0].tolist())
rows = raw[:, 1:].copy()
for y in range(h):
    if raw[y, 0] == 2 and y > 0:
        rows[y] = rows[y] + rows[y - 1]
ours = rows.reshape(h, w, ch)
im = Image.open(base + '.png')
pil = np.asarray(im)
ok = im.mode == ('RGBA' if ch == 4 else 'RGB') and pil.shape == want.shape and (pil == want).all() and (ours == want).all()
# a deflate stream's first block header says stored (BTYPE 00) or compressed
stored = (idat[2] >> 1) & 3 == 0
smaller = len(idat) < raw.size
print(('same' if ok else f'DIFFERENT mode={im.mode} shape={pil.shape}') +
      f' idat={kinds.count(b"IDAT")} smaller={int(smaller)} stored={int(stored)}')
P
)
  check_eq "$name: the PNG holds exactly the frame" same "${got%% *}"
  case $name in
    *_noise_rgba|*_noise_rgb) idat=${got#*idat=}; idat=${idat%% *}
      check "$name: incompressible, over 1 MiB: several IDAT chunks ($got)" [ "$idat" -gt 1 ] ;;
  esac
  case $name in
    *stored) check_eq "$name: stored, not compressed" "stored=1" "${got##* }" ;;
    *noise*|1x1*|3x2*) ;; # a compressor may store what does not compress
    *) check "$name: compressed ($got)" grep -q "smaller=1" <<<"$got" ;;
  esac
done < "$tmp/cases.txt"
finish
