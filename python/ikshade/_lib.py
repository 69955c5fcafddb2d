"""The C library through ctypes: finding it, the description structs laid out as the header says
(_layout.py, made at build time by gen_layout.c), and errors as exceptions."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import threading
from typing import Any, Dict, List, Optional

from . import _layout

try:  # where the package was built from (setup.py writes it): the library in that build tree
    from ._paths import BUILD_LIBRARY as _BUILD_LIBRARY  # type: ignore
except ImportError:  # pragma: no cover - installed by the .deb, where the system finds the library
    _BUILD_LIBRARY = None
try:  # an installed prefix pkg-config named at build time, which the loader may not search
    from ._paths import PREFIX_LIBRARY as _PREFIX_LIBRARY  # type: ignore
except ImportError:  # pragma: no cover - the .deb's, or a package built before the prefix was recorded
    _PREFIX_LIBRARY = None


class Error(Exception):
    """A failure of libikshade: .code (its iks_code number), .code_name ("usage", "io", "compile",
    ...), .field (the description's field it is about, "" for none: "sets[0]", "size"), and the
    library's message as the exception's text."""

    def __init__(self, code: int, message: str, field: str = ""):
        super().__init__(message)
        self.code = code
        self.code_name = _layout.CODES.get(code, "?")
        self.field = field


def _load() -> ctypes.CDLL:
    tried: List[str] = []
    env = os.environ.get("IKSHADE_LIB")
    names = [env] if env else []
    # the build tree it was installed from, then the system's search (the .deb's /usr/lib)
    if _BUILD_LIBRARY:
        names.append(_BUILD_LIBRARY)
    if _PREFIX_LIBRARY:
        names.append(_PREFIX_LIBRARY)
    names += ["libikshade.so.1", ctypes.util.find_library("ikshade") or ""]
    for n in names:
        if not n:
            continue
        try:
            return ctypes.CDLL(n)
        except OSError as e:
            tried.append(f"{n} ({e})")
    raise ImportError("ikshade: cannot load libikshade: tried " + "; ".join(tried) +
                      " (set IKSHADE_LIB to the library's path)")


lib = _load()


def _load_ik() -> ctypes.CDLL:
    # libik is libikshade's dependency, loaded already: beside it, under the same name the loader used
    here = os.path.dirname(lib._name) if os.sep in lib._name else ""
    for n in ([os.path.join(here, "libik.so.0"), os.path.join(here, "libik.so")] if here else []) + ["libik.so.0"]:
        try:
            return ctypes.CDLL(n)
        except OSError:
            continue
    raise ImportError("ikshade: cannot load libik (the solver) beside " + lib._name)


iklib = _load_ik()


def _fn(name: str, res: Any, *args: Any, where: Optional[ctypes.CDLL] = None) -> Any:
    f = getattr(where or lib, name)
    f.restype = res
    f.argtypes = list(args)
    return f


# The package's one engine is used by one thread at a time (the library refuses a call from another
# thread while one is in progress): every call that reaches it holds this lock. Reentrant, since a
# render's progress callback runs on the calling thread and may call in again.
gl_lock = threading.RLock()


def _gl(name: str, res: Any, *args: Any) -> Any:
    f = _fn(name, res, *args)

    def call(*a: Any) -> Any:
        with gl_lock:
            return f(*a)
    call.__name__ = name
    return call


def _after_fork_in_child() -> None:
    global gl_lock
    gl_lock = threading.RLock()  # another thread of the parent may have held it at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

P = ctypes.c_void_p
iks_version = _fn("iks_version", ctypes.c_char_p)
iks_last_error = _fn("iks_last_error", ctypes.c_int, ctypes.POINTER(ctypes.c_char_p))
iks_last_error_field = _fn("iks_last_error_field", ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p))
iks_engine_create = _gl("iks_engine_create", ctypes.c_int, P, ctypes.POINTER(P))
iks_engine_destroy = _gl("iks_engine_destroy", None, P)
iks_engine_renderer = _gl("iks_engine_renderer", ctypes.c_char_p, P)
iks_toy_load = _gl("iks_toy_load", ctypes.c_int, P, P, ctypes.POINTER(P))
iks_toy_destroy = _gl("iks_toy_destroy", None, P)
iks_toy_name = _gl("iks_toy_name", ctypes.c_char_p, P)
iks_toy_set = _gl("iks_toy_set", ctypes.c_int, P, ctypes.c_char_p)
iks_toy_draw = _gl("iks_toy_draw", ctypes.c_int, P, P, P)
iks_toy_set_channel = _gl("iks_toy_set_channel", ctypes.c_int, P, ctypes.c_int, P)
iks_toy_feed_audio = _gl("iks_toy_feed_audio", ctypes.c_int, P, ctypes.c_int, ctypes.c_int, P, ctypes.c_size_t,
                         ctypes.c_int, ctypes.c_int)
iks_render = _gl("iks_render", ctypes.c_int, P, P, P)
iks_toy_reset = _gl("iks_toy_reset", ctypes.c_int, P)
iks_toy_state_size = _gl("iks_toy_state_size", ctypes.c_size_t, P)
iks_toy_state_save = _gl("iks_toy_state_save", ctypes.c_int, P, P, ctypes.c_size_t)
iks_toy_state_load = _gl("iks_toy_state_load", ctypes.c_int, P, P, ctypes.c_size_t)
iks_toy_uniform_count = _gl("iks_toy_uniform_count", ctypes.c_int, P)
iks_toy_uniform_get = _gl("iks_toy_uniform_get", ctypes.c_int, P, ctypes.c_int, P, ctypes.c_size_t)
iks_toy_describe = _fn("iks_toy_describe", ctypes.c_int, P, ctypes.POINTER(P))
iks_toy_spec_free = _fn("iks_toy_spec_free", None, P)
iks_toy_spec_name = _fn("iks_toy_spec_name", ctypes.c_char_p, P)
iks_toy_spec_pass_count = _fn("iks_toy_spec_pass_count", ctypes.c_int, P)
iks_toy_spec_pass = _fn("iks_toy_spec_pass", ctypes.c_int, P, ctypes.c_int, P)
iks_toy_spec_channel = _fn("iks_toy_spec_channel", ctypes.c_int, P, ctypes.c_int, ctypes.c_int, P)
iks_toy_spec_uniform_count = _fn("iks_toy_spec_uniform_count", ctypes.c_int, P)
iks_toy_spec_uniform = _fn("iks_toy_spec_uniform", ctypes.c_int, P, ctypes.c_int, P)
iks_demo = _fn("iks_demo", ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p))
iks_demo_path = _fn("iks_demo_path", ctypes.c_bool, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t)
iks_interrupt = _fn("iks_interrupt", None)
iks_interrupt_reset = _fn("iks_interrupt_reset", None)
PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_bool, P, P)
ik_solve2_batch = _fn("ik_solve2_batch", None, ctypes.c_size_t, P, P, P, P, P, P, P, P, where=iklib)
ik_solve3_batch = _fn("ik_solve3_batch", None, ctypes.c_size_t, P, P, P, P, P, P, P, P, ctypes.c_int, P, P, P, P, P,
                      where=iklib)

_found = (iks_version() or b"").decode()
if _found != _layout.HEADER_VERSION:
    raise ImportError(f"ikshade: this package was built against the header of libikshade {_layout.HEADER_VERSION}, "
                      f"but the library loaded ({lib._name}) is {_found}: install the package again")


def check(code: int) -> None:
    """Raises the calling thread's last error when code is not IKS_OK."""
    if code == 0:
        return
    msg = ctypes.c_char_p()
    c = iks_last_error(ctypes.byref(msg))
    field = iks_last_error_field(None) or b""
    raise Error(c or code, (msg.value or b"").decode("utf-8", "replace") or _layout.CODES.get(code, "?"),
                field.decode("utf-8", "replace"))


class Struct:
    """One of the header's description structs, zero-filled as the header asks, in memory laid out as
    the compiler laid it out (_layout.STRUCTS); the strings and arrays it points to are kept alive with
    it."""

    def __init__(self, name: str, **fields: Any):
        self.name = name
        self.size, self.fields = _layout.STRUCTS[name]
        self.buf = ctypes.create_string_buffer(self.size)
        self._keep: Dict[str, Any] = {}
        # the layout this package was built with, which the library reads by it (struct_size)
        if "struct_size" in self.fields:
            self["struct_size"] = self.size
        for k, v in fields.items():
            self[k] = v

    @property
    def ptr(self) -> int:
        return ctypes.addressof(self.buf)

    def _pointer(self, key: str, v: Any) -> int:
        if v is None:
            return 0
        if isinstance(v, int):
            return v
        if isinstance(v, str):
            v = v.encode("utf-8")
        if isinstance(v, bytes):
            if b"\0" in v:
                raise Error(1, f"{key}: a NUL byte in the text", key)
            v = ctypes.create_string_buffer(v)
        self._keep.setdefault(key, []).append(v)
        return ctypes.cast(v, ctypes.c_void_p).value or 0

    def __setitem__(self, key: str, value: Any) -> None:
        off, kind, count = self.fields[key]
        values = list(value) if count > 1 else [value]
        if len(values) != count:
            raise Error(1, f"{key}: expected {count} values, got {len(values)}", key)
        self._keep.pop(key, None)
        for i, v in enumerate(values):
            if kind == "P":
                v = self._pointer(key, v)
            struct.pack_into("@" + kind, self.buf, off + i * struct.calcsize("@" + kind), v)

    def __getitem__(self, key: str) -> Any:
        off, kind, count = self.fields[key]
        vals = [struct.unpack_from("@" + kind, self.buf, off + i * struct.calcsize("@" + kind))[0]
                for i in range(count)]
        return vals if count > 1 else vals[0]


def read(name: str, address: int, key: str) -> Any:
    """A field of a struct the library hands us (iks_progress in a callback)."""
    size, fields = _layout.STRUCTS[name]
    buf = (ctypes.c_char * size).from_address(address)
    off, kind, count = fields[key]
    return struct.unpack_from("@" + kind, buf, off)[0]


def text(address: int) -> Optional[str]:
    """A string the library hands us (NULL: None)"""
    return ctypes.string_at(address).decode("utf-8", "replace") if address else None


def string_array(items: List[str]) -> Optional[Any]:
    """A C array of char pointers, kept alive by the caller's reference to it"""
    if not items:
        return None
    arr = (ctypes.c_char_p * len(items))(*[s.encode("utf-8") for s in items])
    return arr
