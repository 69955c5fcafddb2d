#!/usr/bin/env python3
"""make_media.py DIR: writes the harness's textures into DIR, made here (no third-party media):
tex.png (64x32 RGBA, colour ramps and a checker, alpha varying) and the six faces of a cubemap,
cube.png and cube_1.png .. cube_5.png (32x32 RGB, each face its own colour and a gradient)."""
import os, struct, sys, zlib


def write_png(path, w, h, ch, pixel):
    raw = bytearray()
    for y in range(h):
        raw.append(0)
        for x in range(w):
            raw.extend(pixel(x, y))
    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 6 if ch == 4 else 2, 0, 0, 0)
    with open(path + '.tmp', 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(bytes(raw))) + chunk(b'IEND', b''))
    os.replace(path + '.tmp', path)


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    write_png(os.path.join(d, 'tex.png'), 64, 32, 4,
              lambda x, y: (x * 4, y * 8, 255 if (x // 4 + y // 4) % 2 else 40, 128 + x))
    faces = [(255, 64, 64), (64, 255, 64), (64, 64, 255), (255, 255, 64), (64, 255, 255), (255, 64, 255)]
    for k, (r, g, b) in enumerate(faces):
        name = 'cube.png' if k == 0 else f'cube_{k}.png'
        write_png(os.path.join(d, name), 32, 32, 3,
                  lambda x, y, r=r, g=g, b=b: (r * (x + 8) // 40, g * (y + 8) // 40, b))


if __name__ == '__main__':
    main()
