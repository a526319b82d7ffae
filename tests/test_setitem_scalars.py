"""x[key] = python_scalar writes the scalar directly (the per-call fast
path); it must agree with the general path (the value as an array) on
every dtype, key and layout, errors included."""
import math

import numpy as np
import pytest

import arrstride as xp

VALUES = [0, 1, -1, 2**63 - 1, -2**63, 2**64 - 1, 300, -129, 1.5, -1.5, 1e300, -0.0,
          math.nan, math.inf, True, False, 1 + 2j, 2**70]
DTYPES = ["bool", "int8", "uint8", "int16", "int64", "uint64", "float32", "float64", "complex64",
          "complex128"]
KEYS = [2, -1, (1, 2), (slice(None), 0), (slice(1, 3),), (slice(None, None, -2), 1), (Ellipsis, 0),
        (0, slice(None, None, 2)), ()]


def _base(dtype):
    a = xp.zeros((3, 4), dtype=getattr(xp, dtype))
    return {"c": a, "t": xp.zeros((4, 3), dtype=getattr(xp, dtype)).T,
            "flip": xp.flip(xp.zeros((3, 4), dtype=getattr(xp, dtype)), axis=1)}


def _outcome(fn):
    try:
        return fn()
    except (TypeError, ValueError, OverflowError, IndexError) as e:
        return type(e).__name__


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["c", "t", "flip"])
def test_scalar_setitem_matches_general_path(dtype, layout):
    d = getattr(xp, dtype)
    for v in VALUES:
        for key in KEYS:
            def fast():
                x = _base(dtype)[layout]
                x[key] = v
                return x.tolist()

            def general():
                x = _base(dtype)[layout]
                x[key] = xp.asarray(v, dtype=d)  # the value as a 0-d array
                return x.tolist()
            f = _outcome(fast)
            g = _outcome(general)
            if isinstance(f, list) and isinstance(g, list):
                np.testing.assert_array_equal(np.array(f), np.array(g), err_msg=f"{dtype} {v!r} {key}")
            elif not isinstance(g, list):
                # where the array could not even be made, the scalar is refused too
                assert not isinstance(f, list), (dtype, v, key, f, g)


def test_scalar_setitem_one_dim_against_numpy():
    for dtype in ("int32", "float64", "complex128"):
        x = xp.arange(10, dtype=getattr(xp, dtype))[::-3]
        n = np.arange(10, dtype=dtype)[::-3]
        for k, v in [(0, 5), (-1, 7), (2, 3)]:
            x[k] = v
            n[k] = v
        assert x.tolist() == n.tolist()
        with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
            x[4] = 1
        with pytest.raises(IndexError, match="axis 0"):
            x[-5] = 1


def test_scalar_setitem_refuses_what_it_must():
    b = xp.broadcast_to(xp.zeros(3), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1.0
    e = xp.expand(xp.zeros(3), (2, 3))
    with pytest.raises(ValueError, match="two indices"):
        e[:, 0] = 1.0
    z = xp.zeros(3, dtype=xp.int8)
    with pytest.raises(OverflowError):
        z[0] = 300
    with pytest.raises(TypeError):
        xp.zeros(3)[1] = 1j
