#!/usr/bin/env python3
"""render_frame.py: libikshade from Python through ctypes, pixels straight into numpy.

Draws the IK limb demo at 640x360, iTime 1.5, the mouse held at (400, 200): the same picture as
examples/render_frame.c and as

    ikshade render shaders/limb.frag -o limb.png --size 640x360 --time 1.5 --mouse 400,200

    python3 examples/render_frame.py [out.png]

The library is found through $IKSHADE_LIB (a path to libikshade.so), else the system's search
(ctypes.util.find_library), else ../build/libikshade.so next to this script (after `make`).
Needs numpy (Debian: apt-get install python3-numpy).
"""
import ctypes
import ctypes.util
import os
import sys
import zlib

try:
    import numpy as np
except ImportError:
    sys.exit(f'render_frame.py: needs numpy for {sys.executable} (Debian: apt-get install python3-numpy)')

WIDTH, HEIGHT = 640, 360


# ---- the structs of <ikshade/ikshade.h>, field for field: the order, the types and the arrays must
# match the header exactly, since ctypes lays them out as the C compiler does (bool is c_bool, long is
# c_long, enums are int, pointers to functions are function types or c_void_p).

LOG_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)  # iks_log_fn


class Desc(ctypes.Structure):
    """A description struct: struct_size (its first member) set to the size ctypes gives it, which is
    the header's when the fields match (IKS_DESC_SIZE in C)"""
    def __init__(self, **fields):
        super().__init__(struct_size=ctypes.sizeof(self), **fields)


class EngineDesc(Desc):  # iks_engine_desc
    _fields_ = [
        ('struct_size', ctypes.c_size_t),
        ('window', ctypes.c_void_p),        # iks_window *
        ('get_proc', ctypes.c_void_p),      # iks_glproc (*)(const char *)
        ('shader_dir', ctypes.c_char_p),
        ('log', LOG_FN),
        ('log_user', ctypes.c_void_p),
        ('media_budget', ctypes.c_size_t),  # bytes of decoded media a toy may hold; 0: 1 GiB
    ]


class ToyDesc(Desc):  # iks_toy_desc
    _fields_ = [
        ('struct_size', ctypes.c_size_t),
        ('path', ctypes.c_char_p),
        ('source', ctypes.c_char_p),
        ('channel', ctypes.c_char_p * 4),
        ('sets', ctypes.POINTER(ctypes.c_char_p)),
        ('nsets', ctypes.c_int),
        ('include_dirs', ctypes.POINTER(ctypes.c_char_p)),
        ('n_include_dirs', ctypes.c_int),
        ('glsl', ctypes.c_int),             # iks_glsl
        ('missing_media_black', ctypes.c_bool),
        ('override_include', ctypes.c_char_p),
        ('override_path', ctypes.c_char_p),
        ('width', ctypes.c_int),
        ('height', ctypes.c_int),
        ('allow_media_outside', ctypes.c_bool),
        ('es_check', ctypes.c_bool),
        ('json', ctypes.c_char_p),
        ('sound_only', ctypes.c_bool),
        ('cube_size', ctypes.c_int),
        ('values', ctypes.c_void_p),        # const iks_value *: typed first values
        ('nvalues', ctypes.c_int),
    ]


class FrameInfo(ctypes.Structure):  # iks_frame_info
    _fields_ = [
        ('time', ctypes.c_double),
        ('frame', ctypes.c_long),
        ('time_delta', ctypes.c_double),
        ('frame_rate', ctypes.c_double),
        ('mouse', ctypes.c_float * 4),
        ('real_date', ctypes.c_bool),
    ]


class DrawDesc(Desc):  # iks_draw_desc
    _fields_ = [
        ('struct_size', ctypes.c_size_t),
        ('width', ctypes.c_int),
        ('height', ctypes.c_int),
        ('rgba8', ctypes.c_void_p),
        ('rgba8_len', ctypes.c_size_t),
        ('rgba8_stride', ctypes.c_size_t),
        ('rgbaf', ctypes.c_void_p),
        ('rgbaf_len', ctypes.c_size_t),
        ('rgbaf_stride', ctypes.c_size_t),
        ('hdr', ctypes.c_bool),
        ('to_fbo', ctypes.c_bool),
        ('fbo', ctypes.c_uint),
        ('x', ctypes.c_int),
        ('y', ctypes.c_int),
        ('w', ctypes.c_int),
        ('h', ctypes.c_int),
    ]


def load_library():
    """libikshade: $IKSHADE_LIB, the system's search, then the build directory beside the sources."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = (os.environ.get('IKSHADE_LIB') or ctypes.util.find_library('ikshade')
            or os.path.join(here, '..', 'build', 'libikshade.so'))
    lib = ctypes.CDLL(path)
    p, c_int, c_void_p = ctypes.POINTER, ctypes.c_int, ctypes.c_void_p
    # iks_code is an enum: int. Handles are opaque: void *.
    lib.iks_version.restype = ctypes.c_char_p
    lib.iks_version.argtypes = []
    lib.iks_code_name.restype = ctypes.c_char_p
    lib.iks_code_name.argtypes = [c_int]
    lib.iks_last_error.restype = c_int
    lib.iks_last_error.argtypes = [p(ctypes.c_char_p)]
    lib.iks_engine_create.restype = c_int
    lib.iks_engine_create.argtypes = [p(EngineDesc), p(c_void_p)]
    lib.iks_engine_destroy.restype = None
    lib.iks_engine_destroy.argtypes = [c_void_p]
    lib.iks_engine_renderer.restype = ctypes.c_char_p
    lib.iks_engine_renderer.argtypes = [c_void_p]
    lib.iks_toy_load.restype = c_int
    lib.iks_toy_load.argtypes = [c_void_p, p(ToyDesc), p(c_void_p)]
    lib.iks_toy_destroy.restype = None
    lib.iks_toy_destroy.argtypes = [c_void_p]
    lib.iks_toy_draw.restype = c_int
    lib.iks_toy_draw.argtypes = [c_void_p, p(FrameInfo), p(DrawDesc)]
    lib.iks_write_png.restype = c_int
    lib.iks_write_png.argtypes = [ctypes.c_char_p, c_void_p, c_int, c_int, ctypes.c_bool]
    return lib, path


class IkshadeError(RuntimeError):
    pass


def check(lib, code, what):
    """Raises with the thread's last error (its code name and message) when code is not IKS_OK (0)."""
    if code != 0:
        msg = ctypes.c_char_p()
        lib.iks_last_error(ctypes.byref(msg))
        raise IkshadeError(f'{what}: {lib.iks_code_name(code).decode()}: {(msg.value or b"").decode()}')


def render_limb(lib, width=WIDTH, height=HEIGHT, time=1.5, mouse=(400, 200)):
    """The limb demo as a numpy uint8 array of shape (height, width, 4), row 0 the top of the picture."""
    def on_log(_user, level, message):  # the library never prints: warnings, notes, compile warnings
        text = message.decode(errors='replace')
        if level == 2:  # IKS_LOG_DIAGNOSTICS: already `path:line:col: warning: ...` lines
            print(text, file=sys.stderr)
        else:           # IKS_LOG_WARN (0), IKS_LOG_INFO (1)
            print(f'ikshade: {"warning" if level == 0 else "note"}: {text}', file=sys.stderr)
    log = LOG_FN(on_log)  # kept alive while the engine may call it

    engine, toy = ctypes.c_void_p(), ctypes.c_void_p()
    check(lib, lib.iks_engine_create(ctypes.byref(EngineDesc(log=log)), ctypes.byref(engine)),
          'iks_engine_create')
    try:
        print('GL:', lib.iks_engine_renderer(engine).decode())
        # path and source NULL (None): the limb demo
        check(lib, lib.iks_toy_load(engine, ctypes.byref(ToyDesc(width=width, height=height)),
                                    ctypes.byref(toy)), 'iks_toy_load')
        try:
            # iMouse as on shadertoy.com: held at xy after a click at zw (w > 0 on the click's frame);
            # time_delta and frame_rate as `ikshade render` gives frame 0 at 60 fps
            frame = FrameInfo(time=time, frame=0, time_delta=1 / 60, frame_rate=60,
                              mouse=(ctypes.c_float * 4)(mouse[0], mouse[1], mouse[0], mouse[1]))
            img = np.zeros((height, width, 4), dtype=np.uint8)  # C-contiguous: what the library fills
            target = DrawDesc(width=width, height=height, rgba8=img.ctypes.data_as(ctypes.c_void_p),
                              rgba8_len=img.nbytes)  # the library refuses a buffer too small for the frame
            check(lib, lib.iks_toy_draw(toy, ctypes.byref(frame), ctypes.byref(target)), 'iks_toy_draw')
            return img
        finally:
            lib.iks_toy_destroy(toy)
    finally:
        lib.iks_engine_destroy(engine)


def main():
    lib, path = load_library()
    print(f'libikshade {lib.iks_version().decode()} from {path}')
    try:
        img = render_limb(lib)
        print(f'shape {img.shape} dtype {img.dtype} crc32 {zlib.crc32(img.tobytes()):08x} '
              f'mean RGB {img[..., :3].mean():.4f}')
        if len(sys.argv) > 1:
            out = sys.argv[1]
            check(lib, lib.iks_write_png(os.fsencode(out), img.ctypes.data_as(ctypes.c_void_p),
                                         img.shape[1], img.shape[0], False), 'iks_write_png')
            print('wrote', out)
    except IkshadeError as e:
        print('render_frame.py:', e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
