#!/usr/bin/env python3
"""png.py: a minimal PNG reader for the tests (8-bit RGB/RGBA, not interlaced), standard library only.

  png.py info FILE                  -> "W H channels"
  png.py pixel FILE X Y             -> "R G B [A]" (Y from the top)
  png.py diff A B MAXDIFF MAXFRAC   -> exit 1 if more than MAXFRAC of pixels differ by more than MAXDIFF
  png.py same A B                   -> exit 0 when the two pictures are the same pixels (size, channels,
                                       every byte of every row), whatever else the files hold: two
                                       renders of different identity (the ikshade:render chunk) compare
  png.py xwd FILE X Y                -> "R G B" of an xwd dump (32 bits per pixel, TrueColor), Y from the top
  png.py xwddiff A B X0 Y0 X1 Y1    -> how many pixels of that box (Y from the top) differ between two xwd dumps
  png.py count FILE R G B           -> how many pixels have exactly this colour
  png.py limb FILE MX MY IKSHADE [R1 R2] -> checks limb.frag's joint and bones against `ikshade solve`
"""
import struct, subprocess, sys, zlib


def read(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit(f'{path}: not a PNG')
    pos, idat, w = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])[0]:
            raise SystemExit(f'{path}: bad CRC in {kind}')
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            ch = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, ch, rows


def px(img, x, y):
    w, h, ch, rows = img
    return tuple(rows[y][x * ch:(x + 1) * ch])


def main():
    cmd = sys.argv[1]
    if cmd == 'info':
        w, h, ch, _ = read(sys.argv[2])
        print(w, h, ch)
    elif cmd == 'pixel':
        print(*px(read(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
    elif cmd == 'xwddiff':
        # how many pixels of the box X0 Y0 (inclusive) .. X1 Y1 (exclusive), Y from the top, differ
        # between two xwd dumps of one window
        def load(path):
            d = open(path, 'rb').read()
            h = struct.unpack('>25I', d[:100])
            assert h[11] == 32, f'xwd: {h[11]} bits per pixel, only 32 is read'
            return d, h[0] + 12 * h[19], h[12]
        (a, oa, bpl), (b, ob, _) = load(sys.argv[2]), load(sys.argv[3])
        x0, y0, x1, y1 = (int(v) for v in sys.argv[4:8])
        print(sum(a[oa + y * bpl + 4 * x0:oa + y * bpl + 4 * x1] != b[ob + y * bpl + 4 * x0:ob + y * bpl + 4 * x1] and
                  sum(a[oa + y * bpl + 4 * x:oa + y * bpl + 4 * x + 3] != b[ob + y * bpl + 4 * x:ob + y * bpl + 4 * x + 3]
                      for x in range(x0, x1))
                  for y in range(y0, y1)))
    elif cmd == 'xwd':
        d = open(sys.argv[2], 'rb').read()
        h = struct.unpack('>25I', d[:100])
        hsize, w, bpp, bpl, ncolors = h[0], h[4], h[11], h[12], h[19]
        rmask, gmask, bmask, byte_order = h[14], h[15], h[16], h[7]
        assert bpp == 32, f'xwd: {bpp} bits per pixel, only 32 is read'
        x, y = int(sys.argv[3]), int(sys.argv[4])
        off = hsize + 12 * ncolors + y * bpl + 4 * x
        v = struct.unpack('<I' if byte_order == 0 else '>I', d[off:off + 4])[0]
        def chan(mask):
            shift = (mask & -mask).bit_length() - 1
            return (v & mask) >> shift
        print(chan(rmask), chan(gmask), chan(bmask))
    elif cmd == 'count':
        w, h, ch, rows = read(sys.argv[2])
        want = bytes(int(v) for v in sys.argv[3:6])
        print(sum(1 for r in rows for i in range(0, len(r), ch) if bytes(r[i:i + 3]) == want))
    elif cmd == 'same':
        a, b = read(sys.argv[2]), read(sys.argv[3])
        sys.exit(0 if a[:3] == b[:3] and list(a[3]) == list(b[3]) else 1)
    elif cmd == 'diff':
        a, b = read(sys.argv[2]), read(sys.argv[3])
        maxd, frac = int(sys.argv[4]), float(sys.argv[5])
        if a[:3] != b[:3]:
            raise SystemExit(f'sizes differ: {a[:3]} vs {b[:3]}')
        bad = sum(1 for ra, rb in zip(a[3], b[3]) for i in range(0, len(ra), a[2])
                  if max(abs(ra[i + k] - rb[i + k]) for k in range(3)) > maxd)
        n = a[0] * a[1]
        print(f'{bad} of {n} pixels differ by more than {maxd}')
        sys.exit(1 if bad > frac * n else 0)
    elif cmd == 'limb':
        img = read(sys.argv[2])
        w, h = img[0], img[1]
        mx, my, ikshade = float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
        r1, r2 = (sys.argv[6], sys.argv[7]) if len(sys.argv) > 7 else ('0.55', '0.38')  # the demo's defaults
        # limb.frag's scene coordinates: (2 fragCoord - res) / res.y, y up; the mouse is in pixels
        px_, py_ = (2 * mx - w) / h, (2 * my - h) / h
        out = subprocess.run([ikshade, 'solve'], input=f'{px_!r} {py_!r} {r1} {r2}\n', capture_output=True,
                             text=True, check=True).stdout.split()
        jx, jy, status = float(out[0]), float(out[1]), out[2]
        assert status == 'reached', out

        def at(sx, sy):  # scene -> PNG pixel (row 0 at the top)
            fx, fy = (sx * h + w) / 2, (sy * h + h) / 2
            return px(img, int(fx), h - 1 - int(fy))
        errors = []
        if at(jx, jy)[:3] != (230, 159, 0):
            errors.append(f'joint pixel at scene ({jx:.4f}, {jy:.4f}) is {at(jx, jy)}, want orange (230,159,0)')
        for t in (0.35, 0.5, 0.65):
            c = at(t * jx, t * jy)[:3]
            if c != (0, 114, 178):
                errors.append(f'upper bone at {t}: {c}, want blue (0,114,178)')
            c = at(jx + t * (px_ - jx), jy + t * (py_ - jy))[:3]
            if c != (86, 180, 233):
                errors.append(f'lower bone at {t}: {c}, want sky (86,180,233)')
        print('\n'.join(errors) or f'joint at scene ({jx:.4f}, {jy:.4f}) and both bones drawn where the C solver puts them')
        sys.exit(1 if errors else 0)



if __name__ == '__main__':
    main()
