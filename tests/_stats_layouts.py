"""Layouts for the statistics/sorting/set tests: each case is the same
values as an arrstride array in some layout and as a NumPy array."""
import numpy as np

import arrstride as xp

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
REAL = [d for d in DTYPES if not d.startswith("complex")]
NUMERIC = [d for d in DTYPES if d != "bool"]


def values(shape, dtype, rng, lo=-20, hi=20):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind == "u":
        return rng.integers(0, hi, shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(lo, hi, shape).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def layouts(shape, dtype, rng, **kw):
    """Yield (name, arrstride array, numpy array) of one shape in many layouts."""
    nd = len(shape)
    base = values(shape, dtype, rng, **kw)
    yield "contiguous", xp.asarray(base), base
    if nd == 0:
        return
    t = np.ascontiguousarray(np.transpose(base))
    yield "transposed", xp.permute_dims(xp.asarray(t), tuple(reversed(range(nd)))), base
    big = values(tuple(2 * d + 1 for d in shape), dtype, rng, **kw)
    key = tuple(slice(1, 1 + 2 * d, 2) for d in shape)
    yield "stepped+offset", xp.asarray(big)[key], big[key]
    key = tuple(slice(2 * d, 0, -2) for d in shape)
    yield "negative", xp.asarray(big)[key], big[key]
    row = values((1,) + tuple(shape[1:]), dtype, rng, **kw)
    yield "broadcast", xp.broadcast_to(xp.asarray(row), shape), np.broadcast_to(row, shape)


def to_np(a):
    return np.asarray(a.tolist(), dtype=a.dtype.name).reshape(a.shape)
