"""Linear algebra and real FFTs of the narrow floats (float16, bfloat16) read
in C, without a whole float32 copy: bit for bit the float32 computation on
C-ordered float32 copies of the operands (the result rounded once to the
narrow dtype), over the layouts of tests/layouts.py, batches, vector and
matrix operands and threaded sizes."""
from __future__ import annotations

import math

import numpy as np
import pytest

import arrstride as xp
from layouts import make, views

NARROW = ["float16", "bfloat16"]
SHAPED = ["contiguous", "transposed", "stepped", "negative", "broadcast", "offset", "mixed",
          "permuted"]


def narrow_values(shape, name, seed=0):
    """float32 values exact in the narrow dtype, of mixed signs and scales."""
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(shape) * 4).astype(np.float32)
    return np.asarray(xp.astype(xp.astype(xp.asarray(v), getattr(xp, name)), xp.float32))


def narrow_views(shape, name, layouts=SHAPED, seed=0):
    """(layout name, arrstride narrow array) in each layout, of one set of values."""
    v = narrow_values(shape, name, seed)
    for lay, a, _ in views(v, layouts):
        yield lay, xp.astype(a, getattr(xp, name))


def widened(x):
    return xp.astype(x, xp.float32).contiguous()


def reference(f, *arrays, **kwargs):
    """f computed as before: the operands widened whole (C-ordered float32
    copies), f in float32, the result rounded once to the operands' dtype."""
    return xp.astype(f(*(widened(a) for a in arrays), **kwargs), arrays[0].dtype)


def same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    g = np.asarray(got.contiguous().view(xp.uint16))
    w = np.asarray(want.contiguous().view(xp.uint16))
    np.testing.assert_array_equal(g, w)


def check(f, *arrays, **kwargs):
    same_bits(f(*arrays, **kwargs), reference(f, *arrays, **kwargs))


# ---- matmul ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("shapes", [
    ((5, 7), (7, 3)),            # gemm
    ((5, 7), (7, 1)),            # gemv, a column
    ((1, 7), (7, 6)),            # gemv, a row
    ((1, 7), (7, 1)),            # dot
    ((7,), (7, 4)), ((4, 7), (7,)), ((7,), (7,)),  # vector operands
    ((3, 5, 7), (7, 2)), ((2, 1, 4, 6), (3, 6, 5)),  # batches, broadcast
    ((6, 1), (1, 5)),            # k = 1
    ((4, 0), (0, 3)),            # k = 0
    ((3, 64), (64, 40)),
])
def test_matmul_layouts(name, shapes):
    s1, s2 = shapes
    for l1, a in narrow_views(s1, name, seed=1):
        for l2, b in narrow_views(s2, name, ["contiguous", "transposed", "negative", "stepped",
                                             "broadcast"], seed=2):
            check(xp.matmul, a, b)


@pytest.mark.parametrize("name", NARROW)
def test_matmul_empty_and_same_operand(name):
    for s1, s2 in [((0, 3), (3, 4)), ((3, 4), (4, 0)), ((2, 0, 3), (3, 5)), ((0,), (0,))]:
        for _, a in narrow_views(s1, name, ["contiguous", "transposed"]):
            for _, b in narrow_views(s2, name, ["contiguous", "transposed"]):
                check(xp.matmul, a, b)
    for _, a in narrow_views((9, 6), name, ["contiguous", "transposed", "stepped"]):
        check(xp.matmul, a, a.mT)  # syrk for float32 on one storage; here two float32 copies
        check(xp.matmul, a.mT, a)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("shapes", [
    ((64, 16, 16), (16, 16)),       # a batch of small gemms over the thread pool
    ((200, 3, 8), (200, 8, 1)),     # a batch of gemvs
    ((300, 200), (200, 300)),       # one gemm BLAS threads itself
    ((1000, 8), (8, 8)),
    ((2, 600, 700), (700, 1)),
])
def test_matmul_threaded_sizes(name, shapes):
    a = xp.astype(xp.asarray(narrow_values(shapes[0], name, 3)), getattr(xp, name))
    b = xp.astype(xp.asarray(narrow_values(shapes[1], name, 4)), getattr(xp, name))
    check(xp.matmul, a, b)
    check(xp.matmul, xp.flip(a, axis=-1), b.mT.mT)


@pytest.mark.parametrize("name", NARROW)
def test_matmul_reduction_panels(name):
    # m n k over 2**31 multiply-adds: the float32 product sums panels of k
    a = xp.astype(xp.asarray(narrow_values((1024, 2304), name, 5)), getattr(xp, name))
    b = xp.astype(xp.asarray(narrow_values((2304, 1024), name, 6)), getattr(xp, name))
    check(xp.matmul, a, b)


@pytest.mark.parametrize("name", NARROW)
def test_matmul_fast_path_and_mixed_dtypes(name):
    d = getattr(xp, name)
    a = xp.astype(xp.asarray(narrow_values((4, 5), name)), d)
    b = xp.astype(xp.asarray(narrow_values((5, 3), name, 1)), d)
    check(xp.matmul, a, b)
    same_bits(a @ b, reference(xp.matmul, a, b))
    m = xp.asarray(np.array([[True, False, True], [False, True, True], [True, True, False],
                             [False, False, True], [True, False, False]]))
    got = xp.matmul(a, m)
    assert got.dtype == xp.result_type(d, xp.bool)


# ---- tensordot, vecdot, outer ------------------------------------------------------------

@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("s1, s2, axes", [
    ((3, 4, 5), (4, 5, 2), 2), ((3, 4, 5), (5, 2), 1), ((4, 3), (4, 2), ([0], [0])),
    ((3, 4, 5), (3, 5, 6), ([0, 2], [0, 1])), ((2, 3), (3, 2), 0), ((6, 5), (6, 5), 2),
    ((4, 3, 2), (2, 3, 4), ([1, 0], [1, 2])),
    ((5, 4), (5,), ([0], [0])), ((5,), (3, 5), ([0], [1])), ((60, 70), (60, 50), ([0], [0])),
    ((2, 3, 4), (4, 3, 2, 5), ([0, 1, 2], [2, 1, 0])),
])
def test_tensordot(name, s1, s2, axes):
    for _, a in narrow_views(s1, name, ["contiguous", "transposed", "negative", "stepped"]):
        for _, b in narrow_views(s2, name, ["contiguous", "permuted", "broadcast"], seed=1):
            check(xp.tensordot, a, b, axes=axes)


@pytest.mark.parametrize("name", NARROW)
def test_vecdot_and_outer(name):
    for shape, axis in [((4, 6), -1), ((4, 6), 0), ((2, 3, 5), 1), ((3, 0), -1), ((0, 3), -1),
                        ((7,), 0)]:
        for _, a in narrow_views(shape, name, SHAPED + ["empty", "size1"]):
            for _, b in narrow_views(a.shape, name, ["contiguous", "transposed", "broadcast"], 1):
                check(xp.vecdot, a, b, axis=axis)
    for _, a in narrow_views((5,), name, SHAPED + ["empty"]):
        for _, b in narrow_views((7,), name, ["contiguous", "negative", "stepped"], 1):
            check(xp.linalg.outer, a, b)
    a = xp.astype(xp.asarray(narrow_values((3000, 64), name, 7)), getattr(xp, name))
    check(xp.vecdot, a, a[:1])  # threaded
    check(xp.vecdot, a, a, axis=0)


# ---- cross, norms ------------------------------------------------------------------------

@pytest.mark.parametrize("name", NARROW)
def test_cross(name):
    for shape, axis in [((4, 3), -1), ((3, 5), 0), ((2, 3, 3), 1), ((3,), 0)]:
        for _, a in narrow_views(shape, name, SHAPED):
            for _, b in narrow_views(a.shape, name, ["contiguous", "negative", "broadcast"], 1):
                check(xp.linalg.cross, a, b, axis=axis)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("ord", [2, 1, math.inf, -math.inf, 0, 3, 0.5])
def test_vector_norm(name, ord):
    for _, a in narrow_views((4, 5, 6), name, SHAPED + ["empty", "size1", "zerod"]):
        for axis in [None, -1, 0, (0, 2), (1, 2)] if a.ndim == 3 else [None]:
            for keepdims in (False, True):
                check(xp.linalg.vector_norm, a, axis=axis, ord=ord, keepdims=keepdims)
    big = xp.astype(xp.asarray(narrow_values((3, 700), name, 8) * 1000), getattr(xp, name))
    check(xp.linalg.vector_norm, big, axis=-1, ord=ord)  # rows of 256 combined
    check(xp.linalg.vector_norm, big, ord=ord)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("ord", ["fro", 1, -1, math.inf, -math.inf, "nuc", 2, -2])
def test_matrix_norm(name, ord):
    for _, a in narrow_views((3, 4, 5), name, SHAPED):
        for keepdims in (False, True):
            check(xp.linalg.matrix_norm, a, ord=ord, keepdims=keepdims)


# ---- real FFTs ---------------------------------------------------------------------------

def same_complex_bits(got, want):
    assert got.dtype == want.dtype == xp.complex64 and got.shape == want.shape
    g = np.asarray(got).view(np.uint32)
    w = np.asarray(want).view(np.uint32)
    np.testing.assert_array_equal(g, w)


def fft_reference(f, x, **kwargs):
    """f of the C-ordered float32 copy of x (how a narrow input was read)."""
    return f(widened(x), **kwargs)


@pytest.mark.parametrize("name", NARROW)
def test_real_ffts_read_narrow_input(name):
    for _, a in narrow_views((4, 6, 5), name, SHAPED):
        for f, kwargs in [(xp.fft.rfft, {}), (xp.fft.rfft, {"axis": 0}), (xp.fft.rfft, {"n": 9}),
                          (xp.fft.rfft, {"n": 3, "axis": 1}), (xp.fft.ihfft, {}),
                          (xp.fft.rfftn, {}), (xp.fft.rfftn, {"axes": (0, 2), "s": (5, 8)}),
                          (xp.fft.rfft2, {}), (xp.fft.rfftn, {"axes": ()})]:
            same_complex_bits(f(a, **kwargs), fft_reference(f, a, **kwargs))
    for _, a in narrow_views((7,), name, ["contiguous", "negative", "stepped", "zerod",
                                           "size1", "empty"]):
        if a.ndim and a.shape[-1]:
            same_complex_bits(xp.fft.rfft(a), fft_reference(xp.fft.rfft, a))
    big = xp.astype(xp.asarray(narrow_values((64, 4096), name, 9)), getattr(xp, name))
    same_complex_bits(xp.fft.rfft(big), fft_reference(xp.fft.rfft, big))  # threaded lines
    same_complex_bits(xp.fft.rfft(big[0]), fft_reference(xp.fft.rfft, big[0]))
    same_complex_bits(xp.fft.rfft(big, axis=0), fft_reference(xp.fft.rfft, big, axis=0))


def same_bits_any(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = np.asarray(got), np.asarray(want)
    np.testing.assert_array_equal(g.view(np.uint8), w.view(np.uint8))


@pytest.mark.parametrize("name", NARROW + ["float32", "float64"])
def test_complex_ffts_read_real_input(name):
    # before: a real input was cast whole to its complex dtype, then transformed
    cplx = xp.complex128 if name == "float64" else xp.complex64
    for _, a in narrow_views((4, 6, 5), name, SHAPED):
        for f, kwargs in [(xp.fft.fft, {}), (xp.fft.ifft, {"axis": 0, "norm": "ortho"}),
                          (xp.fft.fft, {"n": 9}), (xp.fft.hfft, {}), (xp.fft.irfft, {"n": 7}),
                          (xp.fft.fftn, {}), (xp.fft.ifftn, {"axes": (0, 2), "s": (5, 8)}),
                          (xp.fft.irfftn, {}), (xp.fft.fft2, {}), (xp.fft.fftn, {"axes": ()}),
                          (xp.fft.irfftn, {"axes": ()})]:
            same_bits_any(f(a, **kwargs), f(xp.astype(a, cplx), **kwargs))
    big = xp.astype(xp.asarray(narrow_values((64, 4096), name, 9)), getattr(xp, name))
    for f in (xp.fft.fft, xp.fft.hfft):
        same_bits_any(f(big), f(xp.astype(big, cplx)))  # threaded lines
        same_bits_any(f(big[0]), f(xp.astype(big[0], cplx)))
