"""Operands whose fastest dims disagree run in tiles (native/src/iter.c): a
transposed input is copied a tile at a time into a dense buffer, and a large
output dense along the tile's rows is written out from one with non-temporal
stores. Every kernel family that runs through those tiles (unary, binary,
where, clip, isin, copy, cast) is checked here against NumPy on partial tiles,
every item size, flipped, stepped and broadcast operands, and outputs large
enough to stream, aligned and not."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from layouts import sample

# 150 and 133: two full tiles of 64 and a partial one along each dim
SHAPE = (150, 133)
DTYPES = ["bool", "uint8", "int16", "float32", "int64", "float64", "complex128"]


def _pair(shape, dtype, seed):
    v = sample(shape, dtype, seed)
    return xp.asarray(v), v


def _views(x, n):
    """Transposed views of x (2-D) that reach the same values as of n."""
    yield "T", x.T, n.T
    yield "flipped-T", x[::-1, ::-1].T, n[::-1, ::-1].T
    yield "stepped-T", x[::2, 1::3].T, n[::2, 1::3].T


def _check(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_and_binary_on_transposed_inputs(dtype):
    x, n = _pair(SHAPE, dtype, 1)
    for name, xt, nt in _views(x, n):
        y, m = _pair(xt.shape, dtype, 2)
        if dtype == "bool":
            _check(xp.logical_not(xt), np.logical_not(nt))
            _check(xp.logical_xor(y, xt), np.logical_xor(m, nt))
        else:
            _check(-xt, -nt)
            _check(y + xt, m + nt)
            _check(xt * y, nt * m)
        # both inputs transposed, the output in the same order as them
        _check(xp.equal(xt, xt), np.equal(nt, nt))


@pytest.mark.parametrize("dtype", DTYPES)
def test_copy_and_cast_of_transposed_inputs(dtype):
    x, n = _pair(SHAPE, dtype, 3)
    for name, xt, nt in _views(x, n):
        _check(xp.asarray(xt, copy=True), np.array(nt, copy=True))
        for to in ["float64", "int32", "complex64"]:
            if dtype.startswith("complex") and not to.startswith("complex"):
                continue
            _check(xp.astype(xt, getattr(xp, to)), nt.astype(to))


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "complex128"])
def test_where_clip_isin_on_transposed_inputs(dtype):
    x, n = _pair(SHAPE, dtype, 4)
    c, cn = _pair(SHAPE, "bool", 5)
    for name, xt, nt in _views(x, n):
        y, m = _pair(xt.shape, dtype, 6)
        ct, cnt = next((v, w) for nm, v, w in _views(c, cn) if nm == name)
        _check(xp.where(ct, xt, y), np.where(cnt, nt, m))
        _check(xp.where(ct, y, xt), np.where(cnt, m, nt))
        if not dtype.startswith("complex"):
            lo, hi = (2, 9) if dtype in ("uint8", "int16") else (-0.5, 0.5)
            _check(xp.clip(xt, lo, hi), np.clip(nt, lo, hi).astype(nt.dtype))
        test = y[:5, :5].flatten()
        _check(xp.isin(xt, test), np.isin(nt, np.asarray(test)))


def test_permuted_three_dims_and_broadcast_operands():
    v = sample((20, 70, 90), "float64", 7)
    x = xp.asarray(v)
    xt, nt = xp.permute_dims(x, (2, 0, 1)), v.transpose(2, 0, 1)
    w = sample(nt.shape, "float64", 8)
    _check(xt + xp.asarray(w), nt + w)
    _check(xp.asarray(xt, copy=True), np.array(nt, copy=True))
    # a row broadcast along the tiled dim: stride 0 there, never buffered
    r = sample((90, 1, 70), "float64", 9)
    _check(xt + xp.asarray(r), nt + r)
    row = sample((150,), "float64", 10)
    x2, n2 = _pair(SHAPE, "float64", 11)
    _check(x2.T + xp.asarray(row), n2.T + row)


@pytest.mark.parametrize(
    "shape, dtype",
    [((1500, 1500), "float64"),      # output rows 16-byte aligned
     ((2100, 2101), "float32"),      # rows of 8404 bytes: most rows not aligned
     ((1100, 1100), "complex128"),
     ((4200, 4100), "uint8")],       # a 1-byte output past the streaming size
)
def test_large_outputs_streamed_from_tiles(shape, dtype):
    x, n = _pair(shape, dtype, 12)
    y, m = _pair(shape[::-1], dtype, 13)
    if dtype == "uint8":
        _check(y + x.T, m + n.T)
    else:
        _check(y + x.T, m + n.T)
        _check(xp.asarray(x.T, copy=True), np.array(n.T, copy=True))
        _check(x.T[::-1] - y[::-1], n.T[::-1] - m[::-1])


def test_tiles_give_the_same_bytes_on_any_thread_count():
    x, n = _pair((1500, 1500), "float64", 14)
    y, m = _pair((1500, 1500), "float64", 15)
    before = xp.get_num_threads()
    results = []
    try:
        for t in (1, 2, 3):
            xp.set_num_threads(t)
            results.append(np.asarray(xp.sqrt(xp.abs(x.T)) + y))
    finally:
        xp.set_num_threads(before)
    for r in results[1:]:
        assert r.tobytes() == results[0].tobytes()
    _check(results[0], np.sqrt(np.abs(n.T)) + m)  # sqrt is correctly rounded


@pytest.mark.parametrize("n", [100, 1500])
def test_writes_into_an_operand_that_is_read_transposed(n):
    # the output overlaps a transposed input: the engine copies that input
    # first, so each element is read before any write reaches it
    v = sample((n, n), "float64", 16)
    views = [lambda z: z.T, lambda z: z.T[::-1], lambda z: z[::-1, ::-1].T]
    for f in views:
        a = xp.asarray(v.copy())
        a += f(a)
        want = v.copy()
        want += f(want)
        _check(a, want)
        a = xp.asarray(v.copy())
        a[...] = f(a)
        _check(a, f(v))


@pytest.mark.parametrize("shape", [SHAPE, (1500, 1500)])
def test_mixed_dtypes_through_tiles(shape):
    # operands of other dtypes are cast block by block inside the tiles
    for a_dt, b_dt in [("float32", "float64"), ("int32", "float64"), ("int16", "float32"),
                       ("uint8", "complex128")]:
        x, n = _pair(shape, a_dt, 17)
        y, m = _pair(shape[::-1], b_dt, 18)
        _check(x.T + y, n.T + m)
        _check(y * x.T, m * n.T)
        _check(x.T[::-1] - y[::-1], n.T[::-1] - m[::-1])


# One dtype of each item size; copies move bits, so the values are random bit
# patterns (NaN payloads in the complex ones) compared byte for byte.
ITEM_DTYPES = ["uint8", "uint16", "uint32", "uint64", "complex128"]


def _bits(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    return rng.integers(0, 256, size, dtype=np.uint8).view(dtype).reshape(shape)


def _same_bytes(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    assert got.tobytes() == np.ascontiguousarray(want).tobytes()


def _transposed_views(x, n):
    """Views read along their last-but-one dim: contiguous rows read forwards
    from rows taken backwards (register blocks), rows read backwards or with
    a step (one element at a time), and an offset start."""
    yield x.T, n.T
    yield x[::-1].T, n[::-1].T
    yield x[:, ::-1].T, n[:, ::-1].T
    yield x[::-1, ::2].T, n[::-1, ::2].T
    yield x[3:, 1:].T, n[3:, 1:].T


@pytest.mark.parametrize("dtype", ITEM_DTYPES)
@pytest.mark.parametrize("shape", [(67, 1031), (523, 45), (301, 262)])
def test_transposed_copies_of_every_item_size(dtype, shape):
    # sizes not multiples of 2, 4, 8 or 64: partial register blocks and tiles
    n = _bits(shape, dtype, 20)
    x = xp.asarray(n)
    for xt, nt in _transposed_views(x, n):
        _same_bytes(xp.asarray(xt, copy=True), np.array(nt, copy=True))
        out = xp.asarray(_bits(nt.shape, dtype, 21))
        out[...] = xt
        _same_bytes(out, nt)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "complex128"])
def test_arithmetic_on_transposed_views_with_partial_blocks(dtype):
    x, n = _pair((141, 263), dtype, 22)
    for xt, nt in _transposed_views(x, n):
        y, m = _pair(xt.shape, dtype, 23)
        _check(y + xt, m + nt)
        _check(xt - y[::-1], nt - m[::-1])


@pytest.mark.parametrize("dtype", ITEM_DTYPES)
def test_permuted_three_and_four_dims(dtype):
    n3 = _bits((19, 37, 70), dtype, 24)
    x3 = xp.asarray(n3)
    for axes in [(2, 0, 1), (1, 2, 0), (0, 2, 1), (2, 1, 0)]:
        _same_bytes(xp.asarray(xp.permute_dims(x3, axes), copy=True),
                    np.array(n3.transpose(axes), copy=True))
    _same_bytes(xp.asarray(xp.permute_dims(x3[::-1, :, ::-1], (2, 0, 1)), copy=True),
                np.array(n3[::-1, :, ::-1].transpose(2, 0, 1), copy=True))
    n4 = _bits((18, 7, 33, 21), dtype, 25)
    x4 = xp.asarray(n4)
    for axes in [(3, 1, 0, 2), (3, 2, 1, 0), (0, 3, 2, 1), (2, 0, 3, 1)]:
        _same_bytes(xp.asarray(xp.permute_dims(x4, axes), copy=True),
                    np.array(n4.transpose(axes), copy=True))
    _same_bytes(xp.asarray(xp.permute_dims(x4[:, ::-1, :, ::-1], (3, 1, 0, 2)), copy=True),
                np.array(n4[:, ::-1, :, ::-1].transpose(3, 1, 0, 2), copy=True))


def test_permuted_four_dims_arithmetic():
    v = sample((18, 7, 33, 21), "float64", 26)
    x = xp.asarray(v)
    for axes in [(3, 1, 0, 2), (2, 0, 3, 1)]:
        w = sample(v.transpose(axes).shape, "float64", 27)
        _check(xp.permute_dims(x, axes) + xp.asarray(w), v.transpose(axes) + w)


@pytest.mark.parametrize("dtype, shape", [("uint16", (2901, 2903)), ("uint32", (2050, 2053)),
                                          ("uint64", (1450, 1451))])
def test_streamed_transposed_copies_with_partial_blocks(dtype, shape):
    # outputs past the streaming size, rows not a multiple of 4 items long
    n = _bits(shape, dtype, 28)
    x = xp.asarray(n)
    _same_bytes(xp.asarray(x.T, copy=True), np.array(n.T, copy=True))
    _same_bytes(xp.asarray(x[::-1].T, copy=True), np.array(n[::-1].T, copy=True))


@pytest.mark.parametrize("dtype", ITEM_DTYPES)
def test_large_permuted_four_dims_prefetched(dtype):
    # past 16 MB moved, each tile prefetches the next one's inputs and streams
    # its output rows as they are computed: dims around the tile edges (64
    # along one, 512 bytes along the other), flipped and offset views
    item = np.dtype(dtype).itemsize
    edge = 512 // item
    rows = -(-(9 << 20) // (2 * item * (edge + 3) * 67))
    n = _bits((edge + 3, 5, rows, 67), dtype, 29)
    x = xp.asarray(n)
    for axes in [(3, 1, 2, 0), (3, 2, 1, 0)]:
        _same_bytes(xp.asarray(xp.permute_dims(x, axes), copy=True),
                    np.array(n.transpose(axes), copy=True))
    v, nv = x[1:, ::-1, :, 2:], n[1:, ::-1, :, 2:]
    _same_bytes(xp.asarray(xp.permute_dims(v, (3, 1, 2, 0)), copy=True),
                np.array(nv.transpose(3, 1, 2, 0), copy=True))
    out = xp.asarray(_bits(nv.transpose(3, 2, 1, 0).shape, dtype, 30))
    out[...] = xp.permute_dims(v, (3, 2, 1, 0))
    _same_bytes(out, nv.transpose(3, 2, 1, 0))


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "complex128"])
def test_large_permuted_arithmetic_prefetched(dtype):
    # two inputs prefetched, one read along each tiled dim, one backwards
    item = np.dtype(dtype).itemsize
    edge = 512 // item
    rows = -(-(18 << 20) // (3 * item * (edge + 5) * 65))
    x, n = _pair((edge + 5, rows, 65), dtype, 31)
    nt = n.transpose(2, 1, 0)
    y, m = _pair(nt.shape, dtype, 32)
    _check(xp.permute_dims(x, (2, 1, 0)) + y, nt + m)
    _check(y[::-1] - xp.permute_dims(x, (2, 1, 0))[::-1], m[::-1] - nt[::-1])


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "complex128"])
def test_large_stepped_transposed_prefetched(dtype):
    # inputs read with a step along a tiled dim are prefetched too, forwards
    # and backwards
    item = np.dtype(dtype).itemsize
    s = int(((18 << 20) / (3 * item)) ** 0.5) + 1
    x, n = _pair((2 * s + 3, 3 * s + 1), dtype, 33)
    xs, ns = x[1::2, ::-3], n[1::2, ::-3]
    y, m = _pair(ns.T.shape, dtype, 34)
    _check(xs.T + y, ns.T + m)
    _check(y[::-1] - xs.T[::-1], m[::-1] - ns.T[::-1])
    _check(xs[::-1].T * y, ns[::-1].T * m)
