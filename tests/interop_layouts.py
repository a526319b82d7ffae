"""Arrays in every layout for the interop tests, built the same way in
arrstride and NumPy: (arrstride view, NumPy view of equal values)."""
from __future__ import annotations

import numpy as np

import arrstride as xp

DTYPE_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float32", "float64", "complex64", "complex128"]
DTYPES = [getattr(xp, n) for n in DTYPE_NAMES]

# name -> (view applied to a (5, 6) base in both libraries); every one is a view
LAYOUTS = {
    "contiguous": lambda a, m: a,
    "transposed": lambda a, m: a.T,
    "stepped": lambda a, m: a[::2, 1::3],
    "negative": lambda a, m: a[::-1, ::-2],
    "mixed": lambda a, m: a.T[1:, ::-1],
    "offset": lambda a, m: a[2:, 3:],
    "broadcast": lambda a, m: m.broadcast_to(a[1:2, :], (4, 6)),
    "zerod": lambda a, m: a[2, 3, ...],
    "empty": lambda a, m: a[3:3, :],
    "empty-stepped": lambda a, m: a[::-1, 6:2],
}


def sample(shape, name: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if name == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    nd = np.dtype(name)
    if nd.kind == "i":
        return rng.integers(-100, 100, shape).astype(nd)
    if nd.kind == "u":
        return rng.integers(0, 200, shape).astype(nd)
    if nd.kind == "f":
        return (rng.integers(-400, 400, shape) / 8).astype(nd)
    return ((rng.integers(-400, 400, shape) + 1j * rng.integers(-400, 400, shape)) / 8).astype(nd)


def make(layout: str, name: str = "float64", seed: int = 0):
    """(a, n): an arrstride view with its own storage and the equal NumPy view."""
    base = sample((5, 6), name, seed)
    a_base = xp.asarray(base, copy=True)
    view = LAYOUTS[layout]
    return view(a_base, xp), view(base, np)


def address(a) -> int:
    """Address of an arrstride array's first element."""
    return a.storage.address + a.offset * a.dtype.itemsize


def writable_layout(layout: str) -> bool:
    return layout != "broadcast"
