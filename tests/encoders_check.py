#!/usr/bin/python3
"""encoders_check.py DIR: reads back what test_encoders wrote into DIR (cases.txt, each case's encoded
file and the RGBA pixels it was made from, top row first) with PIL, an independent decoder, and with our
own walk over the files' structure (JPEG markers, WebP's RIFF chunks), and asserts what the encoders
promise. One line per failure; exit status 1 if any."""
import io
import math
import struct
import sys

import numpy as np
from PIL import Image

# Quality 90 JPEG in 4:4:4 on the test's frames (a gradient, a red square, a blue disc, all sharp-edged)
# measured 47.4 dB at 640x360 and 40.9 dB at 97x61 (libjpeg-turbo 2.1.5); the same frames in 4:2:0 at
# the same quality 36.2 and 28.8 dB (the saturated edges lose their colour), flipped or mirrored 11-13 dB.
# 38 dB is under every 4:4:4 result and over every 4:2:0 one: it fails subsampling as well as orientation.
JPEG_Q90_MIN_DB = 38.0
# Lossy WebP (4:2:0 always) at quality 90 on the same frames measured 26.5-27.5 dB a frame at 61x37 and
# 64x48 (edges are a large share of so few pixels) and 31.3-31.8 at 200x120 (libwebp 1.2.4); a flipped
# frame measured 12-13 dB and another frame's pixels at most 18.5. 24 dB is under the first and well
# over the others.
WEBP_Q90_MIN_DB = 24.0
# ... and each frame within this of libwebp encoding that frame alone as a still at the same quality
# (PIL's encoder, with webpio.c's method 2): the animation's sub-frames and blending lose nothing
# measurable (0.1 dB at most measured), so 1 dB catches a frame encoded from the wrong pixels or at the
# wrong quality without being a hair trigger. Only at quality 90 and up: lower, libwebp keeps pixels that
# changed little from the frame before (its tolerance grows as the quality falls): a frame 3.3 dB under
# its still was measured at quality 20 (3 frames of 120x80).
WEBP_STILL_SLACK_DB = 1.0

# The standard (Annex K) Huffman tables' code counts: optimized tables are fitted to the image and differ
STD_DHT_COUNTS = {
    (0, 0): [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
    (0, 1): [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
    (1, 0): [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
    (1, 1): [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
}

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 99.0 if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


def rnd(x):
    """round half away from zero, as C's llround"""
    return math.floor(x + 0.5)


def source(d, name, w, h):
    return np.fromfile(f"{d}/{name}.rgba", np.uint8).reshape(h, w, 4)[:, :, :3]


def red(block):
    m = block.reshape(-1, 3).mean(axis=0)
    return m[0] > 190 and m[1] < 70 and m[2] < 70


def check_orientation(name, img, w, h):
    """the red square is at the top left and nowhere else (a flip or a mirror moves it)"""
    s = min(w, h) // 4 + 1
    k = max(1, s // 2)  # inside the square, away from its blurred edge
    corners = {"top left": img[:k, :k], "top right": img[:k, w - k:], "bottom left": img[h - k:, :k],
               "bottom right": img[h - k:, w - k:]}
    check(red(corners["top left"]), f"{name}: the top-left corner is not red (flipped or mirrored?)")
    for where in ("top right", "bottom left", "bottom right"):
        check(not red(corners[where]), f"{name}: the {where} corner is red (flipped or mirrored?)")


def jpeg_markers(data):
    """(SOF marker, [(component id, sampling byte)]), {(class, id): counts} from our own walk"""
    assert data[:2] == b"\xff\xd8", "no SOI"
    pos, sof, comps, dht = 2, None, [], {}
    while pos < len(data):
        assert data[pos] == 0xFF, f"no marker at {pos}"
        m = data[pos + 1]
        if m == 0xD9:
            break
        n = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        body = data[pos + 4:pos + 2 + n]
        if 0xC0 <= m <= 0xCF and m not in (0xC4, 0xC8, 0xCC):
            sof = m
            nc = body[5]
            comps = [(body[6 + 3 * i], body[7 + 3 * i]) for i in range(nc)]
        elif m == 0xC4:
            p = 0
            while p < len(body):
                tc, th = body[p] >> 4, body[p] & 15
                counts = list(body[p + 1:p + 17])
                dht[(tc, th)] = counts
                p += 17 + sum(counts)
        if m == 0xDA:
            # entropy-coded data follows: skip to the EOI at the end (one scan: baseline)
            pos = len(data) - 2
            continue
        pos += 2 + n
    return sof, comps, dht


def check_jpeg(d, name, w, h, q):
    path = f"{d}/{name}.jpg"
    data = open(path, "rb").read()
    check(data[-2:] == b"\xff\xd9", f"{name}: does not end with EOI")
    try:
        sof, comps, dht = jpeg_markers(data)
    except AssertionError as e:
        check(False, f"{name}: markers: {e}")
        return
    check(sof == 0xC0, f"{name}: SOF {sof and hex(sof)}: want SOF0 (baseline, not progressive)")
    check(len(comps) == 3 and all(s == 0x11 for _, s in comps), f"{name}: components {comps}: want 3, all 1x1 (4:4:4)")
    check(dht and all(STD_DHT_COUNTS.get(k) != v for k, v in dht.items()),
          f"{name}: a standard Huffman table: optimize_coding is off")
    im = Image.open(path)
    check(im.format == "JPEG" and im.mode == "RGB", f"{name}: {im.format} {im.mode}: want a JPEG in RGB")
    check(im.size == (w, h), f"{name}: size {im.size}: want {(w, h)}")
    check("progressive" not in im.info and "progression" not in im.info, f"{name}: PIL reads it as progressive")
    img = np.asarray(im.convert("RGB"))
    want = source(d, name, w, h)
    db = psnr(img, want)
    if q >= 50 and min(w, h) >= 16:
        check_orientation(name, img, w, h)
    if q >= 90:  # 4:4:4 at quality 100 only measures higher
        check(db >= JPEG_Q90_MIN_DB, f"{name}: PSNR {db:.2f} dB at quality {q}: want at least {JPEG_Q90_MIN_DB}")
    print(f"ok: {name}: {w}x{h} quality {q}: {len(data)} bytes, PSNR {db:.2f} dB")


def riff_chunks(data, pos, end):
    out = []
    while pos < end:
        fourcc, n = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        out.append((fourcc, data[pos + 8:pos + 8 + n]))
        pos += 8 + n + (n & 1)
    assert pos == end, f"chunks overrun the file ({pos} != {end})"
    return out


def u24(b):
    return b[0] | b[1] << 8 | b[2] << 16


def check_webp(d, name, w, h, n, fps, q):
    path = f"{d}/{name}.webp"
    data = open(path, "rb").read()
    want_dur = [rnd((i + 1) * 1000 / fps) - rnd(i * 1000 / fps) for i in range(n)]
    # our own walk over the RIFF chunks: what PIL does not show
    ok = check(data[:4] == b"RIFF" and data[8:12] == b"WEBP" and struct.unpack("<I", data[4:8])[0] == len(data) - 8,
               f"{name}: not a RIFF WEBP file of its own length")
    if not ok:
        return
    chunks = riff_chunks(data, 12, len(data))
    kinds = [c[0] for c in chunks]
    if n > 1:
        vp8x = chunks[0][1] if kinds[0] == b"VP8X" else None
        if check(vp8x is not None, f"{name}: first chunk {kinds[0]}: want VP8X"):
            check(vp8x[0] & 0x02, f"{name}: VP8X without the animation flag")
            check((u24(vp8x[4:7]) + 1, u24(vp8x[7:10]) + 1) == (w, h), f"{name}: canvas size")
        anim = [c[1] for c in chunks if c[0] == b"ANIM"]
        if check(len(anim) == 1, f"{name}: {len(anim)} ANIM chunks"):
            check(struct.unpack("<H", anim[0][4:6])[0] == 0, f"{name}: loop count is not 0 (for ever)")
        frames = [c[1] for c in chunks if c[0] == b"ANMF"]
        check(len(frames) == n, f"{name}: {len(frames)} ANMF frames: want {n}")
        durs = [u24(f[12:15]) for f in frames]
        check(durs == want_dur, f"{name}: durations {durs}: want {want_dur}")
        check(sum(durs) == rnd(n * 1000 / fps), f"{name}: total {sum(durs)} ms: want {rnd(n * 1000 / fps)}")
        # every frame lossy (allow_mixed off); the first whole and opaque. Later frames may carry alpha:
        # libwebp marks the pixels that did not change transparent, to be blended over the frame before
        for i, f in enumerate(frames):
            sub = [c[0] for c in riff_chunks(f, 16, len(f))]
            check(sub in ([b"VP8 "], [b"ALPH", b"VP8 "]), f"{name}: frame {i} holds {sub}: want a lossy VP8 chunk")
            if i == 0:
                check(sub == [b"VP8 "] and (u24(f[0:3]), u24(f[3:6]), u24(f[6:9]) + 1, u24(f[9:12]) + 1) == (0, 0, w, h),
                      f"{name}: the first frame is not the whole opaque canvas ({sub})")
    else:
        # libwebp writes an animation of one frame as a still image
        check(b"ANMF" not in kinds and b"ALPH" not in kinds and b"VP8L" not in kinds and b"VP8 " in kinds,
              f"{name}: chunks {kinds}: want a still lossy image with no alpha")
    im = Image.open(path)
    check(im.format == "WEBP" and im.size == (w, h), f"{name}: PIL reads {im.format} {im.size}")
    check(getattr(im, "n_frames", 1) == n, f"{name}: PIL counts {getattr(im, 'n_frames', 1)} frames: want {n}")
    if n > 1:
        check(im.info.get("loop") == 0, f"{name}: PIL's loop {im.info.get('loop')}: want 0")
    wants = [np.fromfile(f"{d}/{name}.{i}.rgba", np.uint8).reshape(h, w, 4)[:, :, :3] for i in range(n)]
    got_dur, worst = [], 99.0
    for i in range(min(n, getattr(im, "n_frames", 1))):
        im.seek(i)
        rgba = np.asarray(im.convert("RGBA"))
        img = rgba[:, :, :3]
        got_dur.append(im.info.get("duration"))
        check(rgba[:, :, 3].min() == 255, f"{name}: frame {i} is not opaque everywhere (the source's alpha leaked)")
        own = psnr(img, wants[i])
        worst = min(worst, own)
        if q >= 90:
            check(own >= WEBP_Q90_MIN_DB, f"{name}: frame {i}: PSNR {own:.2f} dB: want at least {WEBP_Q90_MIN_DB}")
            buf = io.BytesIO()
            Image.fromarray(wants[i]).save(buf, "WEBP", quality=q, method=2)
            still = psnr(np.asarray(Image.open(buf).convert("RGB")), wants[i])
            check(own >= still - WEBP_STILL_SLACK_DB, f"{name}: frame {i}: PSNR {own:.2f} dB, libwebp's still "
                  f"of it {still:.2f}: want within {WEBP_STILL_SLACK_DB} dB")
        others = [psnr(img, wants[j]) for j in range(n) if j != i]
        check(all(own > o for o in others), f"{name}: frame {i} is closer to another frame's pixels "
              f"({own:.2f} dB to its own, {max(others, default=0):.2f} to another)")
        if min(w, h) >= 32:
            check_orientation(f"{name}: frame {i}", img, w, h)
    if n > 1:
        check(got_dur == want_dur, f"{name}: PIL's durations {got_dur}: want {want_dur}")
    print(f"ok: {name}: {w}x{h}, {n} frames at {fps:g} fps, quality {q}: {len(data)} bytes, "
          f"worst frame {worst:.2f} dB")


def main():
    d = sys.argv[1]
    seen = 0
    for line in open(f"{d}/cases.txt"):
        kind, name, w, h, n, fps, q = line.split()
        w, h, n, fps, q = int(w), int(h), int(n), float(fps), int(q)
        seen += 1
        try:
            if kind == "jpg":
                check_jpeg(d, name, w, h, q)
            else:
                check_webp(d, name, w, h, n, fps, q)
        except Exception as e:  # a file PIL or our walk cannot read is a failure, not a crash
            check(False, f"{name}: {type(e).__name__}: {e}")
    check(seen == 9, f"{seen} cases: want 9 (test_encoders writes 5 JPEGs and 4 WebPs)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
