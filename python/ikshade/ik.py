"""The two-bone IK solver of libikshade (ik_solve2_batch): the C copy that ikshade's GLSL twin is
checked against, over numpy arrays."""
from __future__ import annotations

import ctypes
from typing import Any, Tuple

from . import _lib

STATUS = ("reached", "too-far", "too-near", "degenerate")


def solve2(p: Any, r1: Any, r2: Any, bend: float = 1.0, stretch: bool = False,
           soften: float = 0.0) -> Tuple[Any, Any]:
    """Joints x for targets p from a fixed origin with bone lengths r1, r2: p an array of shape (n, 2)
    (or one point (px, py)), r1 and r2 numbers or arrays of n. Returns (x, status): x float32 of shape
    (n, 2) (or (2,) for one point), status uint8 of n (or one int): 0 reached, 1 too-far, 2 too-near,
    3 degenerate (ikshade.ik.STATUS names them). bend < 0 picks the mirrored solution. Bit for bit
    the C solver's answers, computed in float32."""
    import numpy as np  # the batch call's arrays
    pts = np.asarray(p, dtype=np.float32)
    one = pts.ndim == 1
    pts = np.ascontiguousarray(pts.reshape(-1, 2))
    n = pts.shape[0]
    px, py = np.ascontiguousarray(pts[:, 0]), np.ascontiguousarray(pts[:, 1])
    a = np.ascontiguousarray(np.broadcast_to(np.asarray(r1, dtype=np.float32), (n,)))
    b = np.ascontiguousarray(np.broadcast_to(np.asarray(r2, dtype=np.float32), (n,)))
    x = np.empty(n, dtype=np.float32)
    y = np.empty(n, dtype=np.float32)
    st = np.empty(n, dtype=np.uint8)
    o = _lib.Struct("ik_opts", bend=float(bend), stretch=1 if stretch else 0, soften=float(soften))

    def ptr(arr: Any) -> int:
        return arr.ctypes.data
    _lib.ik_solve2_batch(n, ptr(px), ptr(py), ptr(a), ptr(b), o.ptr, ptr(x), ptr(y), ptr(st))
    xy = np.stack([x, y], axis=1)
    if one:
        return xy[0], int(st[0])
    return xy, st


def solve3(p: Any, r1: Any, r2: Any, pole: Any = (0.0, 0.0, 1.0), bend: float = 1.0, stretch: bool = False,
           soften: float = 0.0) -> Tuple[Any, Any]:
    """The 3D solver (ik_solve3_batch): joints x for targets p of shape (n, 3) (or one point), bone
    lengths r1, r2 (numbers or arrays of n), and a pole choosing the bend plane: one (px, py, pz) for
    every case or an array of shape (n, 3). Returns (x, status) as solve2 does, x of shape (n, 3) (or
    (3,) for one point). Bit for bit the C solver's answers, computed in float32."""
    import numpy as np
    pts = np.asarray(p, dtype=np.float32)
    one = pts.ndim == 1
    pts = pts.reshape(-1, 3)
    n = pts.shape[0]
    cols = [np.ascontiguousarray(pts[:, k]) for k in range(3)]
    a = np.ascontiguousarray(np.broadcast_to(np.asarray(r1, dtype=np.float32), (n,)))
    b = np.ascontiguousarray(np.broadcast_to(np.asarray(r2, dtype=np.float32), (n,)))
    pl = np.asarray(pole, dtype=np.float32)
    shared = pl.ndim == 1
    if pl.shape[-1] != 3 or (not shared and pl.shape != (n, 3)):
        raise _lib.Error(1, f"pole: shape {pl.shape}: expected (3,) or ({n}, 3)", "pole")
    pl = pl.reshape(-1, 3)
    poles = [np.ascontiguousarray(pl[:, k]) for k in range(3)]
    out = [np.empty(n, dtype=np.float32) for _ in range(3)]
    st = np.empty(n, dtype=np.uint8)
    o = _lib.Struct("ik_opts", bend=float(bend), stretch=1 if stretch else 0, soften=float(soften))
    _lib.ik_solve3_batch(n, *(c.ctypes.data for c in cols), a.ctypes.data, b.ctypes.data,
                         *(c.ctypes.data for c in poles), 1 if shared else 0, o.ptr,
                         *(c.ctypes.data for c in out), st.ctypes.data)
    xyz = np.stack(out, axis=1)
    if one:
        return xyz[0], int(st[0])
    return xyz, st
