#!/usr/bin/env python3
"""mic_check.py: reads back what the viewer showed of a microphone channel, standard library only.

  mic_check.py tone WAV SECONDS FREQ AMP     -> writes a 16-bit mono 44.1 kHz sine
  mic_check.py expect FREQ AMP               -> the 512 spectrum bytes of a steady sine, one line
  mic_check.py spectrum PNG|XWD              -> the spectrum row a show-the-texture shader drew (bottom half
                                                of a 512-wide picture: a PNG, or an xwd dump of the window)
  mic_check.py compare PNG FREQ AMP TOL      -> exit 1 unless the peak bin is the tone's and every bin is
                                                within TOL levels of the expected bytes
  mic_check.py above PNG BIN LEVEL           -> exit 1 unless the spectrum's BIN is above LEVEL
  mic_check.py silent PNG                    -> exit 1 unless the spectrum is all 0 (silence)
  mic_check.py wav WAV                       -> "SAMPLES PEAK": a float or 16-bit WAV's length and largest |sample|
  mic_check.py halves IMG SIDE               -> exit 1 unless SIDE (left or right) of the bottom row is bright
                                                (over 150) and brighter than the other half by 50
  mic_check.py sync VIDEO FREQ_A FREQ_B      -> a recording of a two-halves shader (left: tone A's bin, right:
                                                tone B's) with the microphone as its sound track, decoded by
                                                ffmpeg: "T_PICTURE T_SOUND PICTURE_S SOUND_S", the times the
                                                picture and the sound turn from A to B and both lengths

The expected bytes follow the site's AnalyserNode (src/media/analyser.h): Blackman window of 2048
samples, |X[k]| / 2048, smoothed 0.8 over frames (a steady tone: the same magnitude every frame, so the
smoothing gives it back times 1 - 0.8^64), 20 log10 mapped from -100..-30 dB onto 0..255, truncated.
Written from the Web Audio spec, not from analyser.c.
"""
import array, cmath, math, struct, sys, os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png  # noqa: E402

N = 2048
RATE = 44100


def fft(x):
    n = len(x)
    if n == 1:
        return list(x)
    even, odd = fft(x[0::2]), fft(x[1::2])
    out = [0j] * n
    for k in range(n // 2):
        t = cmath.exp(-2j * math.pi * k / n) * odd[k]
        out[k], out[k + n // 2] = even[k] + t, even[k] - t
    return out


def expect(freq, amp):
    a = 0.16
    win = [(1 - a) / 2 - 0.5 * math.cos(2 * math.pi * n / N) + a / 2 * math.cos(4 * math.pi * n / N) for n in range(N)]
    x = [win[n] * amp * math.sin(2 * math.pi * freq * n / RATE) for n in range(N)]
    X = fft(x)
    out = []
    for k in range(512):
        m = abs(X[k]) / N * (1 - 0.8 ** 64)
        v = 255 / 70 * (20 * math.log10(m) + 100) if m > 0 else 0
        out.append(0 if v <= 0 else 255 if v >= 255 else int(v))
    return out


def xwd_bottom_red(path):
    """the bottom row's red bytes of an xwd dump of the window (32 bits a pixel, TrueColor)"""
    d = open(path, 'rb').read()
    h = struct.unpack('>25I', d[:100])
    hsize, w, ht, bpp, bpl, ncolors, rmask, byte_order = h[0], h[4], h[5], h[11], h[12], h[19], h[14], h[7]
    assert bpp == 32, f'xwd: {bpp} bits per pixel, only 32 is read'
    shift = (rmask & -rmask).bit_length() - 1
    off = hsize + 12 * ncolors + (ht - 1) * bpl
    vals = struct.unpack(('<' if byte_order == 0 else '>') + f'{w}I', d[off:off + 4 * w])
    return w, [(v & rmask) >> shift for v in vals]


def spectrum(path):
    """the bottom row: the texture's row 0 (the shader draws it in the lower half); a PNG or an xwd"""
    if open(path, 'rb').read(8) == b'\x89PNG\r\n\x1a\n':
        w, h, ch, rows = png.read(path)
        row = [rows[h - 1][x * ch] for x in range(w)]
    else:
        w, row = xwd_bottom_red(path)
    assert w == 512, f'{path}: {w} wide, expected 512'
    return row


def bottom_red(path):
    if open(path, 'rb').read(8) == b'\x89PNG\r\n\x1a\n':
        w, h, ch, rows = png.read(path)
        return [rows[h - 1][x * ch] for x in range(w)]
    return xwd_bottom_red(path)[1]


def goertzel(x, freq):
    """the amplitude of freq in x (one bin of a DFT at any frequency)"""
    w = 2 * math.pi * freq / RATE
    c, s1, s2 = 2 * math.cos(w), 0.0, 0.0
    for v in x:
        s1, s2 = v + c * s1 - s2, s1
    return math.sqrt(max(s1 * s1 + s2 * s2 - c * s1 * s2, 0.0)) * 2 / len(x)


def first_lasting(labels, times, want, n):
    """the time of the first label want that the next n labelled ones all repeat (None: none)"""
    seen = [(t, v) for t, v in zip(times, labels) if v is not None]
    for i, (t, v) in enumerate(seen):
        if v == want and len(seen) >= i + n and all(w == want for _, w in seen[i:i + n]):
            return t
    return None


def sync(path, fa, fb):
    """when the picture and the sound of a recording turn from tone A to tone B. A recording drawn
    faster than its fps has silent gaps in its sound (each frame holds the sound that came with it):
    silent windows say nothing, and the turn is the first B that the next ones confirm"""
    import subprocess
    probe = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries',
                            'stream=width,height,r_frame_rate', '-of', 'csv=p=0', path],
                           capture_output=True, text=True, check=True).stdout.strip().split(',')
    w, h = int(probe[0]), int(probe[1])
    num, den = probe[2].split('/')
    fps = int(num) / int(den)
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-map', '0:v:0', '-f', 'rawvideo', '-pix_fmt', 'rgb24',
                          '-'], capture_output=True, check=True).stdout
    n = len(raw) // (w * h * 3)
    pic = []
    for k in range(n):
        row = raw[(k * h + h // 2) * w * 3:(k * h + h // 2 + 1) * w * 3]
        left = sum(row[3 * x] for x in range(w // 8, 3 * w // 8)) / (w // 4)
        right = sum(row[3 * x] for x in range(5 * w // 8, 7 * w // 8)) / (w // 4)
        pic.append('B' if right > 100 and right > left + 50 else 'A' if left > 100 and left > right + 50 else None)
    t_pic = first_lasting(pic, [k / fps for k in range(n)], 'B', 3)
    pcm = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-map', '0:a:0', '-f', 'f32le', '-ac', '1', '-ar',
                          str(RATE), '-'], capture_output=True, check=True).stdout
    a = array.array('f')
    a.frombytes(pcm)
    win = RATE // 100
    snd, times = [], []
    for i in range(0, len(a) - win, win):
        x = a[i:i + win]
        ga, gb = goertzel(x, fa), goertzel(x, fb)
        snd.append('B' if gb > 0.005 and gb > 3 * ga else 'A' if ga > 0.005 and ga > 3 * gb else None)
        times.append(i / RATE)
    t_snd = first_lasting(snd, times, 'B', 5)
    heard_a = sum(1 for v, t in zip(snd, times) if v == 'A' and (t_snd is None or t < t_snd))
    return t_pic, t_snd, n / fps, len(a) / RATE, heard_a


def main():
    cmd = sys.argv[1]
    if cmd == 'tone':
        path, secs, freq, amp = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
        import wave
        with wave.open(path, 'wb') as w:
            w.setnchannels(1), w.setsampwidth(2), w.setframerate(RATE)
            w.writeframes(b''.join(struct.pack('<h', round(32767 * amp * math.sin(2 * math.pi * freq * i / RATE)))
                                   for i in range(int(secs * RATE))))
    elif cmd == 'expect':
        print(' '.join(map(str, expect(float(sys.argv[2]), float(sys.argv[3])))))
    elif cmd == 'spectrum':
        print(' '.join(map(str, spectrum(sys.argv[2]))))
    elif cmd == 'compare':
        got, want = spectrum(sys.argv[2]), expect(float(sys.argv[3]), float(sys.argv[4]))
        tol = int(sys.argv[5])
        peak_got = max(range(512), key=lambda k: got[k])
        peak_want = max(range(512), key=lambda k: want[k])
        bad = [(k, got[k], want[k]) for k in range(512) if abs(got[k] - want[k]) > tol]
        print(f'peak bin {peak_got} (expected {peak_want}), level {got[peak_got]} (expected {want[peak_want]}), '
              f'{len(bad)} bins off by more than {tol}: {bad[:8]}')
        sys.exit(0 if peak_got == peak_want and not bad else 1)
    elif cmd == 'above':
        sys.exit(0 if spectrum(sys.argv[2])[int(sys.argv[3])] > int(sys.argv[4]) else 1)
    elif cmd == 'silent':
        got = spectrum(sys.argv[2])
        print(f'largest spectrum byte {max(got)}')
        sys.exit(0 if max(got) == 0 else 1)
    elif cmd == 'wav':
        d = open(sys.argv[2], 'rb').read()
        assert d[:4] == b'RIFF' and d[8:12] == b'WAVE', 'not a WAV'
        pos, fmt, data = 12, None, None
        while pos + 8 <= len(d):
            kind, n = d[pos:pos + 4], struct.unpack('<I', d[pos + 4:pos + 8])[0]
            if kind == b'fmt ':
                fmt = struct.unpack('<HHIIHH', d[pos + 8:pos + 24])
            if kind == b'data':
                data = d[pos + 8:pos + 8 + n]
                break
            pos += 8 + n + (n & 1)
        tag, chans, rate, _, _, bits = fmt
        assert chans == 1 and rate == RATE, fmt
        s = array.array('f' if tag == 3 else 'h', data)
        scale = 1.0 if tag == 3 else 32768.0
        print(len(s), max((abs(v) / scale for v in s), default=0))
    elif cmd == 'halves':
        row = bottom_red(sys.argv[2])
        w = len(row)
        left = sum(row[w // 8:3 * w // 8]) / (w // 4)
        right = sum(row[5 * w // 8:7 * w // 8]) / (w // 4)
        this, other = (left, right) if sys.argv[3] == 'left' else (right, left)
        print(f'left {left:.0f}, right {right:.0f}')
        sys.exit(0 if this > 150 and this > other + 50 else 1)
    elif cmd == 'sync':
        t_pic, t_snd, pic_s, snd_s, heard_a = sync(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]))
        print(t_pic, t_snd, f'{pic_s:.4f}', f'{snd_s:.4f}', heard_a)
    else:
        raise SystemExit(__doc__)


main()
