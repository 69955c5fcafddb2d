#!/usr/bin/python3
"""bench_python.py: the baseline `ikshade bench render` is measured against in the README: the usual
Python way to render a Shadertoy shader to PNGs (moderngl with a headless EGL context, PIL writing
each frame at zlib level 1), on the same shader, size and frame count.

usage: /usr/bin/python3 scripts/bench_python.py [SHADER] [--frames N] [--size WxH] [-o DIR]
Debian: apt-get install python3-moderngl python3-pil python3-numpy. Prints the seconds for the
whole render, frames drawn, read back, flipped and saved one after another, as such scripts do.
"""
import argparse
import os
import sys
import tempfile
import time

import moderngl
import numpy as np
from PIL import Image

PRELUDE = """#version 330 core
uniform vec3 iResolution;
uniform float iTime;
uniform int iFrame;
uniform vec4 iMouse;
out vec4 ikFragColor;
"""
MAIN = """
void main() { mainImage(ikFragColor, gl_FragCoord.xy); }
"""
VERT = """#version 330 core
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('shader', nargs='?', default=os.path.join(here, '..', 'examples', 'busy.frag'))
    ap.add_argument('--frames', type=int, default=120)
    ap.add_argument('--size', default='1280x720')
    ap.add_argument('--fps', type=float, default=60.0)
    ap.add_argument('-o', '--out', default=None, help='directory for the PNGs (default: a temporary one)')
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split('x'))
    src = open(a.shader).read()
    ctx = moderngl.create_standalone_context(backend='egl')
    prog = ctx.program(vertex_shader=VERT, fragment_shader=PRELUDE + src + MAIN)
    vbo = ctx.buffer(np.array([-1, -1, 3, -1, -1, 3], dtype='f4').tobytes())
    vao = ctx.simple_vertex_array(prog, vbo, 'pos')
    fbo = ctx.simple_framebuffer((w, h), components=4)
    fbo.use()
    out = a.out or tempfile.mkdtemp(prefix='ikshade-pybench-')
    os.makedirs(out, exist_ok=True)
    if 'iResolution' in prog:
        prog['iResolution'].value = (float(w), float(h), 1.0)
    t0 = time.perf_counter()
    for i in range(a.frames):
        if 'iTime' in prog:
            prog['iTime'].value = i / a.fps
        if 'iFrame' in prog:
            prog['iFrame'].value = i
        vao.render(moderngl.TRIANGLES)
        px = fbo.read(components=3)
        img = Image.frombytes('RGB', (w, h), px).transpose(Image.FLIP_TOP_BOTTOM)
        img.save(os.path.join(out, '%04d.png' % i), compress_level=1)
    dt = time.perf_counter() - t0
    print(f'python moderngl + PIL (zlib level 1): {a.frames} frames of {w}x{h} in {dt:.3f} s '
          f'({1e3 * dt / a.frames:.1f} ms/frame) -> {out}')
    if not a.out:
        for f in os.listdir(out):
            os.unlink(os.path.join(out, f))
        os.rmdir(out)


if __name__ == '__main__':
    sys.exit(main())
