"""ikshade: Shadertoy-style shaders from Python, drawn by libikshade.

    import ikshade
    toy = ikshade.Toy("shaders/limb.frag", size=(640, 360))
    img = toy.snapshot(time=1.5, mouse=(400, 200, 400, 200))   # numpy (360, 640, 4) uint8, top row first
    toy.set("r1", 0.6)
    ikshade.render("shaders/limb.frag", "out/%04d.png", frames=120, size=(1280, 720))
    x, status = ikshade.ik.solve2(points, 1.0, 1.0)            # the C solver over numpy arrays

A toy draws on a headless OpenGL context that the package makes once per process. Failures raise
ikshade.Error, whose .code and .code_name are the library's (usage, io, format, compile, ...) and
whose .field names the argument at fault.
"""
from __future__ import annotations

import ctypes
import json as _json
import os
import re
import struct
import threading
import zlib
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _lib, ik
from ._lib import Error

__all__ = ["Toy", "render", "describe", "demos", "Error", "ik", "version", "renderer"]

try:
    import numpy as _np
except ImportError:  # pragma: no cover - exercised by the tests with numpy hidden
    _np = None

_engine_lock = threading.Lock()
_engine: Optional[int] = None


def _after_fork_in_child() -> None:
    # a lock another thread of the parent held at the fork would be held for ever in the child; the
    # parent's engine stays (the library refuses it in the child with a message naming 'spawn')
    global _engine_lock
    _engine_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _interruptible(call: Callable[[], Any]) -> Any:
    """call() (a C call that can take minutes, and its check) with Ctrl-C working: the signal reaches
    Python on the main thread only, between bytecodes, never while the C call runs there; so the call
    runs on a worker thread while this one waits, and Ctrl-C asks the library to stop (iks_interrupt:
    within a frame, or a step of a slow Cube A), waits for it, and raises KeyboardInterrupt. Anywhere
    else (another thread, a callback) call() runs here."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    box: Dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["result"] = call()
        except BaseException as e:  # given back to the caller's thread below
            box["error"] = e
        finally:
            done.set()
    th = threading.Thread(target=work, name="ikshade-call", daemon=True)
    th.start()
    stopped = False
    # an Event, not join: a KeyboardInterrupt inside Thread.join can leave is_alive() saying False while
    # the call still runs (the flag would then be cleared before the library ever saw it)
    while not done.is_set():
        try:
            done.wait(0.05)
        except KeyboardInterrupt:
            stopped = True
            _lib.iks_interrupt()
    th.join()
    if stopped:
        _lib.iks_interrupt_reset()
        raise KeyboardInterrupt
    if "error" in box:
        raise box["error"]
    return box.get("result")


def version() -> str:
    """The library's version, as `ikshade --version` prints it."""
    return (_lib.iks_version() or b"").decode()


def _engine_handle() -> int:
    global _engine
    with _engine_lock:
        if _engine is None:
            e = ctypes.c_void_p()
            d = _lib.Struct("iks_engine_desc")
            _lib.check(_lib.iks_engine_create(d.ptr, ctypes.byref(e)))
            _engine = e.value
        return _engine


def renderer() -> str:
    """The GL renderer that draws (GL_RENDERER: "llvmpipe (...)" on a machine without a GPU)."""
    return (_lib.iks_engine_renderer(_engine_handle()) or b"").decode()


def _is_source(s: str) -> bool:
    # GLSL text rather than a path: a path has no newline and no braces
    return "\n" in s or "{" in s


def demos() -> Dict[str, str]:
    """The toys that ship with ikshade, by the names Toy, render and describe take in place of a path
    (as `ikshade demos --paths` lists them): {name: where its files are}, those that are there."""
    out = {}
    buf = ctypes.create_string_buffer(4096)
    i = 0
    while True:
        name = _lib.iks_demo(i, None)
        if name is None:
            return out
        if _lib.iks_demo_path(name, buf, len(buf)):
            out[name.decode()] = buf.value.decode("utf-8", "surrogateescape")
        i += 1


def _demo_or(s: str) -> str:
    # A bare name ("creature") is a demo, from the library's one table, unless something of that name is
    # here: then it is the user's, as for the command line
    if not re.fullmatch(r"[a-z0-9_-]+", s) or os.path.lexists(s):
        return s
    buf = ctypes.create_string_buffer(4096)
    return buf.value.decode("utf-8", "surrogateescape") if _lib.iks_demo_path(s.encode(), buf, len(buf)) else s


def _setting(name: str, value: Any) -> str:
    if isinstance(value, bool):
        vals = ["1" if value else "0"]
    elif isinstance(value, (int, float)):
        vals = [repr(float(value)) if isinstance(value, float) else str(value)]
    else:
        vals = [("1" if v else "0") if isinstance(v, bool) else repr(float(v)) if isinstance(v, float) else str(v)
                for v in value]
    return f"{name}={','.join(vals)}"


def _toy_desc(source: Union[str, os.PathLike, Dict[str, Any]], size: Tuple[int, int],
              channels: Optional[Dict[int, str]], sets: Optional[Dict[str, Any]], cube_size: int = 0) -> _lib.Struct:
    d = _lib.Struct("iks_toy_desc")
    if isinstance(source, dict):  # a shadertoy.com JSON, parsed: every pass and its wiring
        source = _json.dumps(source)
    s = os.fspath(source)
    if isinstance(source, str) and s.lstrip().startswith("{") and not os.path.exists(s):
        d["json"] = s
    elif isinstance(source, str) and _is_source(s) and not os.path.exists(s):
        d["source"] = s
    elif s:
        d["path"] = _demo_or(s)  # "" leaves it NULL: the limb demo
    w, h = size
    d["width"], d["height"] = int(w), int(h)
    if int(cube_size) < 0:
        raise Error(1, f"cube_size {cube_size!r}: expected a side in pixels, or 0 for the site's 1024", "cube_size")
    d["cube_size"] = int(cube_size)
    if channels:
        chans = [None] * 4
        for k, v in channels.items():
            if not isinstance(k, int) or not 0 <= k <= 3:
                raise Error(1, f"channels: {k!r}: expected a channel number 0..3", "channel")
            chans[k] = v
        d["channel"] = chans
    if sets:
        arr = _lib.string_array([_setting(k, v) for k, v in sets.items()])
        d["sets"] = arr
        d["nsets"] = len(sets)
    return d


def describe(source: Union[str, os.PathLike, Dict[str, Any]] = "", channels: Optional[Dict[int, str]] = None
             ) -> Dict[str, Any]:
    """What a toy is, without drawing it and without any GL context (so it works where none can be
    made): source as Toy takes it. A dict as `ikshade info --json` prints: name, passes (in the order a
    frame draws them; each with name, id (Toy.set_channel's pass, None for Common and Sound), source,
    entry and its channels: channel, kind, source, filter, wrap, vflip, srgb, sampler) and uniforms
    (those its author declared: name, glsl_type, type, components, passes, declared, and for an
    #iUniform its default, color, min, max and step)."""
    d = _toy_desc(source, (0, 0), channels, None)
    h = ctypes.c_void_p()
    _lib.check(_lib.iks_toy_describe(d.ptr, ctypes.byref(h)))
    try:
        return _described(h.value)
    finally:
        _lib.iks_toy_spec_free(h.value)


def _described(s: int) -> Dict[str, Any]:
    passes = []
    for i in range(_lib.iks_toy_spec_pass_count(s)):
        p = _lib.Struct("iks_pass_info")
        _lib.check(_lib.iks_toy_spec_pass(s, i, p.ptr))
        chans = []
        for c in range(4):
            ci = _lib.Struct("iks_channel_info")
            _lib.check(_lib.iks_toy_spec_channel(s, i, c, ci.ptr))
            if not ci["kind"]:
                continue
            chans.append({"channel": c, "kind": _lib.text(ci["kind"]), "source": _lib.text(ci["source"]),
                          "filter": _lib.text(ci["filter"]), "wrap": _lib.text(ci["wrap"]),
                          "vflip": bool(ci["vflip"]), "srgb": bool(ci["srgb"]), "sampler": _lib.text(ci["sampler"])})
        entry = _lib.text(p["entry"])
        passes.append({"name": _lib.text(p["name"]), "id": p["id"] if p["id"] >= 0 else None,
                       "source": _lib.text(p["source"]), "entry": entry or None, "channels": chans})
    uniforms = []
    for i in range(_lib.iks_toy_spec_uniform_count(s)):
        u = _lib.Struct("iks_declared_uniform")
        _lib.check(_lib.iks_toy_spec_uniform(s, i, u.ptr))
        d: Dict[str, Any] = {"name": _lib.text(u["name"]), "glsl_type": _lib.text(u["glsl_type"]),
                             "type": _lib._layout.UNIFORM_TYPES.get(u["type"], "float"), "components": u["n"],
                             "passes": _lib.text(u["passes"]), "declared": bool(u["declared"])}
        if u["declared"]:
            d["default"] = list(u["initial"][:u["n"]])
            d["color"] = bool(u["color"])
        if u["has_range"]:
            d["min"], d["max"], d["step"] = u["min"], u["max"], u["step"]
        uniforms.append(d)
    return {"name": (_lib.iks_toy_spec_name(s) or b"").decode("utf-8", "replace"), "passes": passes,
            "uniforms": uniforms}


class Toy:
    """A shader toy loaded and built: a file (.frag/.glsl), a shadertoy.com JSON file, a directory toy,
    a JSON in memory (a dict, or text starting with "{": every pass and its wiring), or GLSL text of
    the Image pass (anything else with a newline or a brace that is not a path), or a demo's name
    ("creature": ikshade.demos() lists them; a file or directory of that name here wins); "" is the IK
    limb demo. A JSON in memory finds its media in the current directory. size is (width, height) of its
    snapshots; channels maps 0..3 to what `--channelN` takes ("tex.png,filter=mipmap", "keyboard");
    sets gives uniforms their first values; cube_size is the side of Cube A's faces (0: the site's
    1024; smaller for quick previews on a CPU renderer)."""

    def __init__(self, source: Union[str, os.PathLike, Dict[str, Any]] = "", size: Tuple[int, int] = (640, 360),
                 channels: Optional[Dict[int, str]] = None, sets: Optional[Dict[str, Any]] = None,
                 cube_size: int = 0):
        self.size = (int(size[0]), int(size[1]))
        if self.size[0] < 1 or self.size[1] < 1:
            raise Error(1, f"size {size!r}: expected whole numbers from 1", "size")
        self._handle: Optional[int] = None
        engine = _engine_handle()
        d = _toy_desc(source, self.size, channels, sets, cube_size)
        t = ctypes.c_void_p()
        _lib.check(_lib.iks_toy_load(engine, d.ptr, ctypes.byref(t)))
        self._handle = t.value
        self.frame = 0
        self._at = self.size  # the size the toy's buffers have now: its last snapshot's

    @property
    def name(self) -> str:
        return (_lib.iks_toy_name(self._live()) or b"").decode("utf-8", "replace")

    def _live(self) -> int:
        if not self._handle:
            raise Error(1, "the toy was closed", "")
        return self._handle

    def set(self, name: str, value: Union[float, int, bool, Sequence[float]]) -> None:
        """Gives uniform `name` a value: a number, a bool, or a sequence for a vector."""
        _lib.check(_lib.iks_toy_set(self._live(), _setting(name, value).encode()))

    _PASSES = _lib._layout.PASSES  # the header's iks_pass_id, by name (gen_layout.c)

    def set_channel(self, channel: int, pixels: Any, pass_: str = "image") -> None:
        """Feeds iChannel`channel` (0-3) of a pass ("image", "a".."d", "cube_a") with pixels in memory
        instead of what the toy named: an array of shape (height, width, 4), top row first, uint8
        (RGBA8) or float32 (RGBA floats, kept as floats: values above 1 survive); float64 is taken as
        float32. A numpy array's own row stride is used as it is (a slice of a larger image is not
        copied). The pixels are copied at once, so the array may change after; call again for the next
        frame of a camera or video. None gives the channel back to what the toy named."""
        if pass_ not in self._PASSES:
            raise Error(1, f"pass {pass_!r}: expected one of " + ", ".join(self._PASSES), "pass")
        # ctypes would cut a larger number to its low 32 bits: 2**32 + 1 would feed channel 1
        if isinstance(channel, bool) or not isinstance(channel, int) or not 0 <= channel <= 3:
            raise Error(1, f"channel {channel!r}: expected 0 to 3", "channel")
        d = _lib.Struct("iks_channel_desc", **{"pass": self._PASSES[pass_]})
        if pixels is None:
            _lib.check(_lib.iks_toy_set_channel(self._live(), int(channel), None))
            return
        if _np is not None:
            a = _np.asarray(pixels)
            if a.dtype == _np.float64:
                a = a.astype(_np.float32)
            if a.ndim != 3 or a.shape[2] != 4:
                raise Error(1, f"pixels: shape {a.shape}: expected (height, width, 4)", "pixels")
            if a.dtype not in (_np.uint8, _np.float32):
                raise Error(1, f"pixels: dtype {a.dtype}: expected uint8 or float32", "format")
            # rows may lie apart (a slice); within a row the pixels must be packed, as the library reads them
            if a.strides[2] != a.itemsize or a.strides[1] != 4 * a.itemsize or a.strides[0] <= 0:
                a = _np.ascontiguousarray(a)
            h, w = a.shape[:2]
            fmt, stride, ptr, keep = ("rgbaf" if a.dtype == _np.float32 else "rgba8"), a.strides[0], a.ctypes.data, a
        else:
            m = memoryview(pixels)
            if m.ndim != 3 or m.shape[2] != 4 or m.format not in ("B", "f") or not m.c_contiguous:
                raise Error(1, "pixels: expected a contiguous (height, width, 4) memoryview of 'B' or 'f'", "pixels")
            h, w = m.shape[:2]
            keep = (ctypes.c_char * m.nbytes).from_buffer_copy(m)
            fmt, stride, ptr = ("rgbaf" if m.format == "f" else "rgba8"), w * 4 * m.itemsize, ctypes.addressof(keep)
        if not (0 < w <= 2**31 - 1 and 0 < h <= 2**31 - 1):
            raise Error(1, f"size {w}x{h}: expected 1 to {2**31 - 1} pixels on each side", "size")
        d["pixels"] = ptr
        d["format"] = _lib._layout.PIXELS[fmt]
        d["width"], d["height"], d["stride"] = w, h, stride
        _lib.check(_lib.iks_toy_set_channel(self._live(), int(channel), d.ptr))
        del keep  # the library copied the pixels

    def feed_audio(self, channel: int, samples: Any, pass_: str = "image") -> None:
        """Appends sound to a microphone channel (`mic` in channels): float samples at 44.1 kHz, shape (n,)
        mono or (n, 2) stereo (mixed to mono as WebAudio does, (L + R) / 2), from your own capture; each
        snapshot then shows the site's 512x2 analyser texture of the newest sound. Other rates: resample
        first. Needs numpy."""
        if pass_ not in self._PASSES:
            raise Error(1, f"pass {pass_!r}: expected one of " + ", ".join(self._PASSES), "pass")
        if isinstance(channel, bool) or not isinstance(channel, int) or not 0 <= channel <= 3:
            raise Error(1, f"channel {channel!r}: expected 0 to 3", "channel")
        if _np is None:
            raise Error(1, "feed_audio needs numpy", "samples")
        a = _np.ascontiguousarray(samples, dtype=_np.float32)
        if a.ndim not in (1, 2) or (a.ndim == 2 and a.shape[1] not in (1, 2)):
            raise Error(1, f"samples: shape {a.shape}: expected (n,) or (n, 2)", "channels")
        chans = 1 if a.ndim == 1 else a.shape[1]
        _lib.check(_lib.iks_toy_feed_audio(self._live(), self._PASSES[pass_], int(channel), a.ctypes.data,
                                           a.shape[0], chans, 44100))

    def reset(self) -> None:
        """Back to before the first frame: buffers and Cube A zero, no key held; the next snapshot is
        iFrame 0."""
        _lib.check(_lib.iks_toy_reset(self._live()))
        self.frame = 0

    def state(self) -> bytes:
        """What the frames so far left behind (the buffers, Cube A, the keyboard, and the frame count),
        to give back to restore()."""
        t = self._live()
        n = _lib.iks_toy_state_size(t)
        buf = ctypes.create_string_buffer(n)
        _lib.check(_lib.iks_toy_state_save(t, ctypes.addressof(buf), n))
        return self.frame.to_bytes(8, "little") + buf.raw

    def restore(self, state: bytes) -> None:
        """Back to a state() of this toy at this size: the next snapshot goes on from there."""
        if len(state) < 8:
            raise Error(1, "state: too short to be a state() of a toy", "state")
        buf = ctypes.create_string_buffer(bytes(state[8:]), len(state) - 8)
        _lib.check(_lib.iks_toy_state_load(self._live(), ctypes.addressof(buf), len(state) - 8))
        self.frame = int.from_bytes(state[:8], "little")

    def uniforms(self) -> List[Dict[str, Any]]:
        """The toy's own uniforms (not ikshade's iTime, iMouse, ...), each a dict: name, type (as
        declared: "float", "vec3", "bool"), value (its value now: a number, a bool, or a tuple for a
        vector), default (its value at load, the same shape), active (False when the compiler removed
        it), range ((min, max, step) where the shader declares one with #iUniform, else None) and color
        (True for an #iUniform color3 or color4)."""
        out = []
        t = self._live()
        for i in range(_lib.iks_toy_uniform_count(t)):
            u = _lib.Struct("iks_uniform_info")
            _lib.check(_lib.iks_toy_uniform_get(t, i, u.ptr, u.size))
            kind = _lib._layout.UNIFORM_TYPES.get(u["type"], "float")
            conv = {"float": float, "int": int, "uint": int, "bool": bool}[kind]
            vals = tuple(conv(v) for v in u["value"][:u["n"]])
            init = tuple(conv(v) for v in u["initial"][:u["n"]])
            out.append({
                "name": ctypes.string_at(u["name"]).decode("utf-8", "replace"),
                "type": ctypes.string_at(u["glsl_type"]).decode("utf-8", "replace"),
                "value": vals[0] if len(vals) == 1 else vals,
                "default": init[0] if len(init) == 1 else init,
                "active": bool(u["active"]),
                "range": (u["min"], u["max"], u["step"]) if u["has_range"] else None,
                "color": bool(u["color"]),
            })
        return out

    def snapshot(self, time: float = 0.0, frame: Optional[int] = None,
                 mouse: Optional[Sequence[float]] = None, size: Optional[Tuple[int, int]] = None,
                 fps: float = 60.0) -> Any:
        """Draws one frame (iTime = time, iFrame = frame, or one more than the last snapshot's; iMouse
        as shadertoy.com defines it, two or four numbers in pixels, y up; iTimeDelta 1/fps and
        iFrameRate fps, as `ikshade render` gives them) and returns it as a numpy array of shape
        (height, width, 4), dtype uint8, the top row first; a memoryview of that shape where numpy is
        missing."""
        w, h = size or self.size
        if fps <= 0:
            raise Error(1, f"fps {fps!r}: expected a number above 0", "fps")
        f = _lib.Struct("iks_frame_info", time=float(time), frame=int(self.frame if frame is None else frame),
                        time_delta=1.0 / fps, frame_rate=float(fps))
        if mouse is not None:
            m = [float(v) for v in mouse]
            if len(m) == 2:
                m += [abs(m[0]), abs(m[1])]
            f["mouse"] = m
        if _np is not None:
            out = _np.zeros((h, w, 4), dtype=_np.uint8)
            ptr = out.ctypes.data
        else:
            buf = bytearray(w * h * 4)
            ptr = ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))
            out = memoryview(buf).cast("B", (h, w, 4))
        d = _lib.Struct("iks_draw_desc", width=w, height=h, rgba8=ptr, rgba8_len=w * h * 4)
        t = self._live()
        _interruptible(lambda: _lib.check(_lib.iks_toy_draw(t, f.ptr, d.ptr)))
        self.frame = (self.frame if frame is None else int(frame)) + 1
        self._at = (w, h)
        return out

    def _repr_png_(self) -> bytes:
        """The toy at iTime 0 as a PNG, so that Jupyter shows it. Showing a toy never changes it: what
        its frames left behind (buffers, Cube A, keys) and its frame count are as they were after."""
        saved, frame, (w, h) = self.state(), self.frame, self._at
        try:
            img = self.snapshot(time=0.0, frame=0, size=(w, h))  # at the size its state has
        finally:
            self.restore(saved)
            self.frame = frame
        raw = bytes(img) if _np is None else img.tobytes()
        return _png(raw, w, h)

    def close(self) -> None:
        if self._handle:
            _lib.iks_toy_destroy(self._handle)
            self._handle = None

    def __enter__(self) -> "Toy":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def _png(rgba: bytes, w: int, h: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + rgba[y * w * 4:(y + 1) * w * 4] for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def render(source: Union[str, os.PathLike], output: str, frames: Union[int, Tuple[int, int], range] = 1,
           size: Tuple[int, int] = (1280, 720), fps: float = 60.0, time: float = 0.0,
           mouse: Optional[Sequence[float]] = None, seconds: float = 0.0, ssaa: int = 1,
           channels: Optional[Dict[int, str]] = None, sets: Optional[Dict[str, Any]] = None,
           progress: Optional[Callable[[int, int], Optional[bool]]] = None, cube_size: int = 0,
           segment: int = 0, segments: int = 0, join: str = "when_done") -> Dict[str, Any]:
    """Renders frames of a toy to files, as `ikshade render` does: output is a pattern (out/%04d.png),
    one file for one frame, a video (.mp4 .webm .gif through ffmpeg), an animated .webp, .exr, or .wav
    for the sound (seconds long). frames: a count from 0, (first, end) or a range. progress(done, total)
    is called as frames are written, and with the same numbers between the steps of a frame whose Cube A
    is drawn in steps (strips of its faces); returning False stops the render, within the frame too
    (ikshade.Error, code_name "interrupted", every file on disk complete); Ctrl-C stops it the same way
    and raises KeyboardInterrupt (progress runs on a worker thread of the package's then). A film in
    segments, for a render farm (`ikshade render --shard K/N` on a video): segments=N and segment=K
    (0..N-1) render part K of the film output (.mp4 .mkv .webm) into its own segment,
    output.parts/KKKKK-of-NNNNN.EXT; join "when_done" (the default, as the command line does) joins the
    film once every segment is there, "none" leaves that to a later call, and "now" draws nothing and
    joins the segments there (segment unused), refusing one that is missing, damaged or of another
    render. Returns the render's numbers (written, total, seconds, samples, width, height; and for a film
    in segments segments_there, how many are there whole, and joined, joined_before: whether the film
    was joined by this call, or found joined already)."""
    if isinstance(frames, range):
        if frames.step != 1:
            raise Error(1, f"frames {frames!r}: a range with step 1", "frames")
        first, end = frames.start, frames.stop
    elif isinstance(frames, tuple):
        first, end = frames
    else:
        first, end = 0, int(frames)
    if join not in _lib._layout.JOIN:
        raise Error(1, f"join {join!r}: expected one of " + ", ".join(_lib._layout.JOIN), "join")
    with Toy(source, size=size, channels=channels, sets=sets, cube_size=cube_size) as toy:
        d = _lib.Struct("iks_render_desc", output=os.fspath(output), width=int(size[0]), height=int(size[1]),
                        first=int(first), end=int(end), fps=float(fps), time0=float(time), ssaa=int(ssaa),
                        seconds=float(seconds))
        # the library refuses a join without segments, naming the segments it needs
        if segments or join != "when_done":
            # the header's iks_join, by name (gen_layout.c)
            d["segment"], d["segments"], d["join"] = int(segment), int(segments), _lib._layout.JOIN[join]
        if mouse is not None:
            m = [float(v) for v in mouse]
            d["mouse"] = m if len(m) == 4 else m + [abs(m[0]), abs(m[1])]
            d["have_mouse"] = True
        errors = []

        def on_progress(user: Any, p: int) -> bool:
            try:
                r = progress(_lib.read("iks_progress", p, "done"), _lib.read("iks_progress", p, "total"))
                return r is None or bool(r)
            except BaseException as e:  # raised again after the render, which this stops
                errors.append(e)
                return False
        cb = _lib.PROGRESS_FN(on_progress) if progress else None
        if cb:
            d["progress"] = ctypes.cast(cb, ctypes.c_void_p).value
        stats = _lib.Struct("iks_render_stats")
        d["stats_size"] = stats.size  # the library fills this layout's members, no more
        t = toy._live()

        def run() -> None:
            code = _lib.iks_render(t, d.ptr, stats.ptr)
            if errors:
                raise errors[0]
            _lib.check(code)  # on the thread that made the call: the last error is per thread
        _interruptible(run)
        return {k: stats[k] for k in ("written", "total", "seconds", "samples", "width", "height",
                                      "segments_there", "joined", "joined_before")}
