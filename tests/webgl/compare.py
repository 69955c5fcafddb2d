#!/usr/bin/env python3
"""compare.py A.png B.png MIN_PSNR: holds two 8-bit PNGs of one size against each other over RGB.

Prints "psnr P dB, max diff M, K of N pixels differ by more than 8"; exits 1 when the PSNR is below
MIN_PSNR (identical pictures have an infinite PSNR, printed as "inf"). Standard library only."""
import math, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import png  # noqa: E402  tests/png.py


def main():
    a, b, bound = png.read(sys.argv[1]), png.read(sys.argv[2]), float(sys.argv[3])
    if a[:2] != b[:2]:
        print(f'sizes differ: {a[0]}x{a[1]} and {b[0]}x{b[1]}')
        return 1
    w, h = a[0], a[1]
    se, mx, far = 0, 0, 0
    for ra, rb in zip(a[3], b[3]):
        for x in range(w):
            pa, pb = ra[x * a[2]:x * a[2] + 3], rb[x * b[2]:x * b[2] + 3]
            d = [abs(p - q) for p, q in zip(pa, pb)]
            se += sum(v * v for v in d)
            m = max(d)
            mx = max(mx, m)
            far += m > 8
    mse = se / (w * h * 3)
    psnr = math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)
    print(f'psnr {psnr:.1f} dB, max diff {mx}, {far} of {w * h} pixels differ by more than 8')
    return 0 if psnr >= bound else 1


if __name__ == '__main__':
    sys.exit(main())
