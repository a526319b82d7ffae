"""The one catalogue of test layouts: the same values as an arrstride view and
as the equal NumPy view, in every layout a kernel must handle.

A layout is a recipe that takes the values a test wants (a NumPy array `v`)
and returns (a, n): an arrstride array that reaches those values through a
view of a larger base (transposed, stepped, flipped, offset, ...), and the
NumPy array made by the same view operations on an equal base. Tests then
compare a function of `a` with the same function of `n`.

    from layouts import make, views, params

    @pytest.mark.parametrize("layout", params())             # ids name the layout
    def test_f(layout):
        a, n = make(layout, (3, 4), "float64")                # sample values
        ...
    for name, a, n in views(my_values, ["contiguous", "negative"]):  # given values
        ...

Layouts that keep the requested shape: contiguous, transposed, permuted
(axes rotated, a 3-D permutation that is not a reversal), stepped, negative,
mixed (transposed + flipped + offset), offset, broadcast (stride 0 on the even
axes, values repeated there). Layouts that change it: empty (last dim 0, an
offset view), empty-stepped (an empty negative-step view), zerod (one element
of a base, 0-d), size1 (a size-1 dim in front, with a stride that is not the
contiguous one). `shape_of(name, shape)` gives the shape a layout yields.
"""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp

DTYPE_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float32", "float64", "complex64", "complex128"]
DTYPES = [getattr(xp, n) for n in DTYPE_NAMES]
REAL_NAMES = [d for d in DTYPE_NAMES if not d.startswith("complex")]
NUMERIC_NAMES = [d for d in DTYPE_NAMES if d != "bool"]

# the shape-keeping layouts first, in the order the tests have always used
SHAPED = ["contiguous", "transposed", "stepped", "negative", "broadcast", "offset"]
EXTRA = ["mixed", "permuted"]  # shape-keeping, newer
CHANGING = ["empty", "zerod", "empty-stepped", "size1"]  # change the shape
CORE = SHAPED + ["empty", "zerod"]  # the classic eight
ALL = SHAPED + EXTRA + CHANGING
WRITABLE = [name for name in ALL if name != "broadcast"]


def name_of(dtype) -> str:
    """A dtype's name from an arrstride dtype, a NumPy dtype or a name."""
    return dtype if isinstance(dtype, str) else np.dtype(getattr(dtype, "name", dtype)).name


def sample(shape, dtype, seed: int = 0) -> np.ndarray:
    """Deterministic NumPy values for dtype: negatives for signed, fractions
    for floats, imaginary parts for complex."""
    rng = np.random.default_rng(seed)
    name = name_of(dtype)
    if name == "bool":
        return np.asarray(rng.integers(0, 2, shape).astype(bool))
    nd = np.dtype(name)
    if nd.kind == "i":
        return np.asarray(rng.integers(max(-100, np.iinfo(nd).min), min(100, np.iinfo(nd).max),
                                        shape).astype(nd))
    if nd.kind == "u":
        return np.asarray(rng.integers(0, 200, shape).astype(nd))
    if nd.kind == "f":
        return np.asarray((rng.integers(-400, 400, shape) / 8).astype(nd))
    return np.asarray(((rng.integers(-400, 400, shape) + 1j * rng.integers(-400, 400, shape))
                       / 8).astype(nd))


def random_values(shape, dtype, rng, lo=-20, hi=20) -> np.ndarray:
    """Values drawn from rng: integers in [lo, hi) (unsigned from 0), normal
    floats and complex numbers, random bools."""
    dtype = np.dtype(name_of(dtype))
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind == "u":
        return rng.integers(0, hi, shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(lo, hi, shape).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def from_numpy(n: np.ndarray):
    """An arrstride array with its own contiguous storage holding n's values."""
    return xp.asarray(np.array(n, order="C"), copy=True)


def shape_of(name: str, shape) -> tuple:
    """The shape the layout `name` yields when asked for `shape`."""
    shape = tuple(shape)
    if name in ("empty", "empty-stepped"):
        return shape[:-1] + (0,) if shape else (0,)
    if name == "zerod":
        return ()
    if name == "size1":
        return (1,) + shape
    return shape


def applies(name: str, shape) -> bool:
    """False where a layout would only repeat another one (or cannot exist)."""
    nd = len(tuple(shape))
    if name == "permuted":  # a rotation of 2 axes is the transpose
        return nd >= 3
    if name in ("transposed", "mixed", "stepped", "negative", "offset", "broadcast"):
        return nd >= 1  # a 0-d array has one layout
    return True


# ---- the recipes: values -> (base shape, key or axes) ------------------------------------------

def _rev(nd):
    return tuple(range(nd))[::-1]


def _rot(nd):
    return tuple(range(1, nd)) + (0,)


def _embed(v: np.ndarray, base_shape, key, filler, seed):
    """A base of filler values with v written where base[key] reads."""
    base = np.array(filler(base_shape, v.dtype.name, seed + 7))
    base[key] = v
    return base


def _build(name: str, v: np.ndarray, filler, seed: int):
    """(a, n, a_base, n_base) for the values v (already of the layout's shape)."""
    nd = v.ndim
    if name == "contiguous":
        ab = from_numpy(v)
        return ab, v, ab, v
    if name in ("transposed", "permuted"):
        axes = _rev(nd) if name == "transposed" else _rot(nd)
        inv = tuple(np.argsort(axes))
        base = np.ascontiguousarray(v.transpose(inv))
        ab = from_numpy(base)
        return xp.permute_dims(ab, axes), base.transpose(axes), ab, base
    if name == "broadcast":
        small = v[tuple(slice(0, 1) if k % 2 == 0 else slice(None) for k in range(nd))]
        base = np.ascontiguousarray(small)
        ab = from_numpy(base)
        return xp.broadcast_to(ab, v.shape), np.broadcast_to(base, v.shape), ab, base
    if name == "zerod":
        base_shape, key = (3, 2), (2, 1, Ellipsis)
    elif name == "stepped":
        base_shape = tuple(2 * d + 1 for d in v.shape)
        key = tuple(slice(1, 1 + 2 * d, 2) for d in v.shape)
    elif name == "negative":
        base_shape, key = v.shape, (slice(None, None, -1),) * nd
    elif name == "offset":
        base_shape, key = tuple(d + 2 for d in v.shape), (slice(2, None),) * nd
    elif name == "empty":
        base_shape, key = tuple(d + 1 for d in v.shape), (slice(1, None),) * nd
    elif name == "empty-stepped":
        base_shape = tuple(d + 3 for d in v.shape)
        key = tuple(slice(d + 1, 1, -1) for d in v.shape[:-1]) + (slice(3, 1),)
    elif name == "mixed":
        # v transposed, read backwards along its first axis from one row in:
        # permuted, negative and offset at once
        axes = _rev(nd)
        t = v.transpose(axes)
        base_shape = (t.shape[0] + 1,) + t.shape[1:]
        key = (slice(None, 0, -1),) + (slice(None),) * (nd - 1)
        base = _embed(t, base_shape, key, filler, seed)
        ab = from_numpy(base)
        return xp.permute_dims(ab[key], axes), base[key].transpose(axes), ab, base
    elif name == "size1":
        # a size-1 first dim (shape_of adds it) whose stride is not the contiguous one
        base_shape = (3,) + v.shape[1:]
        key = (slice(1, 2, 5),) + (slice(None),) * (nd - 1)
    else:
        raise ValueError(f"unknown layout {name!r}")
    base = _embed(v, base_shape, key, filler, seed)
    ab = from_numpy(base)
    return ab[key], base[key], ab, base


def values_for(name: str, shape, dtype, seed: int = 0, values=None) -> np.ndarray:
    """The values a layout of `shape` will hold: values(shape, dtype, seed)."""
    return np.asarray((values or sample)(shape_of(name, shape), name_of(dtype), seed))


def make_with_base(name: str, shape=(3, 4), dtype="float64", seed: int = 0, values=None):
    """(a, n, a_base, n_base): make's arrays and the bases they view (a write
    through a reaches a_base; n_base is its NumPy twin)."""
    v = values_for(name, shape, dtype, seed, values)
    return _build(name, v, values or sample, seed)


def make(name: str, shape=(3, 4), dtype="float64", seed: int = 0, values=None):
    """(arrstride array, NumPy array) with equal values in the layout `name`.
    `values(shape, dtype_name, seed) -> np.ndarray` picks the values (default
    `sample`); the layout's base is filled with other values of the same kind."""
    a, n, _, _ = make_with_base(name, shape, dtype, seed, values)
    return a, n


def view_of(name: str, v: np.ndarray):
    """(a, n) holding exactly the values v in the layout `name` (a
    shape-keeping layout; broadcast repeats v's first entry on even axes)."""
    v = np.asarray(v)
    a, n, _, _ = _build(name, v, sample, 0)
    return a, n


def views(v: np.ndarray, names=None):
    """Yield (name, a, n) for v's values in every applicable shape-keeping
    layout of `names` (default: all of them)."""
    v = np.asarray(v)
    for name in names or SHAPED + EXTRA:
        if name in CHANGING or not applies(name, v.shape):
            continue
        a, n = view_of(name, v)
        yield name, a, n


def cases(shape, dtype, seed: int = 0, names=None, values=None):
    """Yield (name, a, n) for sampled values in each applicable layout of names."""
    for name in names or ALL:
        if applies(name, shape):
            a, n = make(name, shape, dtype, seed, values)
            yield name, a, n


def params(names=None, ndim=None):
    """pytest parameters for the layouts `names` (those that apply to `ndim`
    dims, when given), each with its name as id."""
    return [pytest.param(name, id=name) for name in (names or ALL)
            if ndim is None or applies(name, (1,) * ndim)]


def address(a) -> int:
    """The address of an arrstride array's first element."""
    return a.storage.address + a.offset * a.dtype.itemsize
