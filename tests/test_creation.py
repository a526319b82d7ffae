"""Creation functions against NumPy over all dtypes and layouts, asarray's copy
semantics (including zero-copy buffer-protocol inputs), and bad input."""
from __future__ import annotations

import array as pyarray

import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same, np_dtype, shares, storage_numpy, xp_dtype
from layouts import ALL, CORE, DTYPES, make, params

ids = lambda d: d.name  # noqa: E731


# ---- filled arrays ---------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=ids)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (2, 0, 3)])
def test_zeros_ones_full_empty(dt, shape):
    nd = np_dtype(dt)
    assert_same(xp.zeros(shape, dtype=dt), np.zeros(shape, nd))
    assert_same(xp.ones(shape, dtype=dt), np.ones(shape, nd))
    fill = True if dt == xp.bool else (-3 if dt.kind == "i" else (7 if dt.kind == "u" else
                                                                   (2.5 if dt.kind == "f" else 1.5 - 2j)))
    assert_same(xp.full(shape, fill, dtype=dt), np.full(shape, fill, nd))
    e = xp.empty(shape, dtype=dt)
    assert e.shape == shape and e.dtype == dt and e.is_contiguous()


def test_defaults_and_int_shape():
    assert_same(xp.zeros(3), np.zeros(3))
    assert_same(xp.ones((2, 2)), np.ones((2, 2)))
    assert xp.empty(4).dtype == xp.float64
    assert_same(xp.full((2,), 3), np.full((2,), 3))
    assert_same(xp.full((2,), 3.0), np.full((2,), 3.0))
    assert_same(xp.full((2,), True), np.full((2,), True))
    assert_same(xp.full((2,), 1j), np.full((2,), 1j))
    assert_same(xp.full((2,), xp.asarray(2, dtype=xp.int8)), np.full((2,), 2, np.int8))
    assert_same(xp.full((2,), 2 ** 63, dtype=xp.uint64), np.full((2,), 2 ** 63, np.uint64))
    assert_same(xp.full((2,), 1e300, dtype=xp.float32), np.full((2,), np.inf, np.float32))


@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_like(layout, dt):
    a, n = make(layout, (3, 4), dt)
    for f, nf in [(xp.zeros_like, np.zeros_like), (xp.ones_like, np.ones_like)]:
        r = f(a)
        assert_same(r, nf(n))
        assert r.is_contiguous() and not shares(r, a)
        assert_same(f(a, dtype=xp.int16), nf(n, dtype=np.int16))
    assert_same(xp.full_like(a, 1), np.full_like(n, 1))
    assert_same(xp.full_like(a, 1, dtype=xp.float32), np.full_like(n, 1, dtype=np.float32))
    e = xp.empty_like(a)
    assert e.shape == n.shape and e.dtype == dt and not shares(e, a)
    assert xp.empty_like(a, dtype=xp.complex64).dtype == xp.complex64


@pytest.mark.parametrize("dt", DTYPES, ids=ids)
@pytest.mark.parametrize("args", [(3,), (3, 5), (5, 3), (4, 4, 1), (4, 4, -2), (3, 3, 5),
                                  (0,), (0, 3), (2, 3, -7)])
def test_eye(dt, args):
    n_rows, n_cols, k = args + (None, 0)[len(args) - 1:] if len(args) < 3 else args
    assert_same(xp.eye(n_rows, n_cols, k=k, dtype=dt), np.eye(n_rows, n_cols, k=k, dtype=np_dtype(dt)))


def test_eye_default():
    assert_same(xp.eye(3), np.eye(3))


# ---- ranges ---------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(5,), (0,), (-3,), (2, 9), (2, 9, 3), (9, 2, -3), (9, 2),
                                  (-5, 5, 2), (0, 10, 20), (10, 0, -1)])
def test_arange_int(args):
    assert_same(xp.arange(*args), np.arange(*args))


@pytest.mark.parametrize("args", [(2.5,), (0.0, 1.0, 0.1), (1.0, 0.0, -0.25), (0, 5, 0.5),
                                  (-1.5, 2.5), (0.0, 1.0, 0.3)])
def test_arange_float(args):
    a = xp.arange(*args)
    n = np.arange(*args)
    assert a.shape == n.shape and a.dtype == xp.float64
    np.testing.assert_allclose(np.array(a.tolist()), n, rtol=0, atol=1e-12)


@pytest.mark.parametrize("dt", [d for d in DTYPES if d.kind in "iuf"], ids=ids)
def test_arange_dtype(dt):
    assert_same(xp.arange(1, 11, 3, dtype=dt), np.arange(1, 11, 3, dtype=np_dtype(dt)))
    assert_same(xp.arange(0, dtype=dt), np.arange(0, dtype=np_dtype(dt)))
    if dt.kind != "u":
        assert_same(xp.arange(5, -6, -2, dtype=dt), np.arange(5, -6, -2, dtype=np_dtype(dt)))


def test_arange_int64_extremes():
    big = 2 ** 62
    assert_same(xp.arange(big, big + 3), np.arange(big, big + 3))
    assert_same(xp.arange(250, 256, dtype=xp.uint8), np.arange(250, 256, dtype=np.uint8))
    with pytest.raises(OverflowError, match="arange"):
        xp.arange(250, 260, dtype=xp.uint8)


@pytest.mark.parametrize("dt", [xp.float32, xp.float64, xp.complex64, xp.complex128], ids=ids)
@pytest.mark.parametrize("args, endpoint", [((0, 1, 5), True), ((0, 1, 5), False), ((2, -3, 7), True),
                                            ((1, 4, 4), True), ((1, 1, 3), True), ((0, 1, 0), True),
                                            ((0, 1, 1), True), ((0, 1, 1), False), ((-1e10, 1e10, 11), True)])
def test_linspace(dt, args, endpoint):
    a = xp.linspace(*args, dtype=dt, endpoint=endpoint)
    n = np.linspace(*args, dtype=np_dtype(dt), endpoint=endpoint)
    assert a.shape == n.shape and a.dtype == dt
    np.testing.assert_allclose(np.array(a.tolist(), dtype=n.dtype), n, rtol=1e-6)
    if len(n) and endpoint:
        assert a.tolist()[0] == n[0] and a.tolist()[-1] == n[-1]


def test_linspace_complex():
    a = xp.linspace(1 + 2j, 3 - 4j, 4)
    n = np.linspace(1 + 2j, 3 - 4j, 4)
    assert a.dtype == xp.complex128
    np.testing.assert_allclose(np.array(a.tolist()), n)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("layout", ["contiguous", "stepped", "negative", "offset", "empty"])
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_meshgrid(indexing, layout, dt):
    a, n = make(layout, (3,), dt, seed=1)
    b, m = make("negative", (2,), dt, seed=2)
    c, o = make("stepped", (4,), dt, seed=3)
    got = xp.meshgrid(a, b, c, indexing=indexing)
    want = np.meshgrid(n, m, o, indexing=indexing)
    assert isinstance(got, tuple) and len(got) == 3
    for g, w in zip(got, want):
        assert_same(g, w)
    assert len(xp.meshgrid(a, indexing=indexing)) == 1
    assert xp.meshgrid() == ()


@pytest.mark.parametrize("layout", params(CORE[:-2] + ["empty", "mixed", "permuted", "size1"]))
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_tril_triu(layout, dt):
    a, n = make(layout, (2, 3, 4), dt)
    for k in [-5, -1, 0, 1, 2, 6]:
        assert_same(xp.tril(a, k=k), np.tril(n, k))
        assert_same(xp.triu(a, k=k), np.triu(n, k))
    assert not shares(xp.tril(a), a)


# ---- asarray ------------------------------------------------------------------------------

@pytest.mark.parametrize("obj", [0, -5, 2 ** 63, True, 1.5, 1 + 2j, [], [[]], [1, 2, 3],
                                 [[1.0, 2], [3, 4]], [True, False], [[1j], [2]], (1, (2,)) * 0 or [(1, 2), (3, 4)],
                                 [1, 2.5], [True, 2], [[[1]]]])
def test_asarray_python(obj):
    a = xp.asarray(obj)
    n = np.asarray(obj)
    assert_same(a, n)


@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_asarray_python_dtype(dt):
    vals = [[0, 1], [1, 0]]
    assert_same(xp.asarray(vals, dtype=dt), np.asarray(vals, dtype=np_dtype(dt)))
    if dt.kind in "fc":
        assert_same(xp.asarray([0.5, -2.25], dtype=dt), np.asarray([0.5, -2.25], dtype=np_dtype(dt)))
    assert_same(xp.asarray(True, dtype=dt), np.asarray(True, dtype=np_dtype(dt)))


def test_asarray_big_ints():
    # NumPy 2 gives float64 here; arrstride keeps exact integers in uint64
    a = xp.asarray([2 ** 64 - 1, 0])
    assert a.dtype == xp.uint64 and a.tolist() == [2 ** 64 - 1, 0]
    with pytest.raises(OverflowError, match="asarray"):
        xp.asarray([2 ** 64])
    with pytest.raises(OverflowError, match="asarray"):
        xp.asarray([-1, 2 ** 63])


def test_asarray_nested_arrays():
    a = xp.asarray([xp.asarray([1, 2]), xp.asarray([3, 4])])
    assert_same(a, np.array([[1, 2], [3, 4]]))
    assert_same(xp.asarray([xp.asarray(1.5), 2.0]), np.array([1.5, 2.0]))


@pytest.mark.parametrize("make", [
    lambda: [np.int32(1), np.int32(2)],              # as SciPy builds its status arrays
    lambda: [[np.int16(1)], [np.int16(-2)]],
    lambda: [np.int32(1), 5],                        # a Python int counts as int64
    lambda: [np.float32(1.5), np.float32(2)],
    lambda: [np.float32(1.5), 1.0],
    lambda: [np.float32(1.5), np.int64(2)],
    lambda: [np.uint8(1), np.int8(-1)],
    lambda: [True, np.int8(3)],
    lambda: [np.bool_(True), 1],
    lambda: [np.complex64(1j), np.float32(2)],
    lambda: [np.float32(1), 1j],
    lambda: [np.uint64(2 ** 64 - 1)],
    lambda: [np.array([1, 2], dtype=np.float32), [3, 4]],
    lambda: [xp.asarray(1, dtype=xp.int8), xp.asarray(-2, dtype=xp.int8)],
    lambda: [[xp.asarray([1, 2], dtype=xp.uint16)], [[3, 4]]],
])
def test_asarray_typed_elements_keep_their_dtypes(make):
    """NumPy scalars and arrays inside a sequence take part in its dtype, as
    in NumPy (the promotion of the typed elements with the default dtypes of
    the Python scalars beside them)."""
    obj = make()
    want = np.asarray([np.asarray(v) if isinstance(v, xp.Array) else v for v in obj]
                      if isinstance(obj, list) else obj)
    assert_same(xp.asarray(obj), want)


@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_asarray_array_copy_semantics(layout, dt):
    a, n = make(layout, (3, 4), dt)
    assert xp.asarray(a) is a or (shares(xp.asarray(a), a) and xp.asarray(a).strides == a.strides)
    assert xp.asarray(a, copy=False).strides == a.strides
    assert shares(xp.asarray(a, copy=False), a)
    c = xp.asarray(a, copy=True)
    assert_same(c, n)
    assert not shares(c, a)
    other = xp.int16 if dt != xp.int16 else xp.int32
    assert_same(xp.asarray(a, dtype=other), np.real(n).astype(np_dtype(other)))
    with pytest.raises(ValueError, match="asarray"):
        xp.asarray(a, dtype=other, copy=False)
    assert shares(xp.asarray(a, dtype=dt, copy=False), a)


@pytest.mark.parametrize("layout", params([name for name in ALL if "empty" not in name], ndim=2))
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_asarray_numpy_zero_copy(layout, dt):
    _, n = make(layout, (3, 4), dt)  # the NumPy twin of the layout
    a = xp.asarray(n)
    assert_same(a, n)
    ro = not n.flags.writeable
    for copy in (None, False):
        v = xp.asarray(n, copy=copy)
        assert np.shares_memory(storage_numpy(v), n)
    if n.size and not ro:
        idx = (0,) * n.ndim
        old = n[idx].copy()
        n[idx] = not old if dt == xp.bool else old + 1
        assert a[idx].tolist() == n[idx].tolist()
        n[idx] = old
    c = xp.asarray(n, copy=True)
    assert not np.shares_memory(storage_numpy(c), n)
    assert_same(c, n)


def test_asarray_bytearray_and_buffers():
    b = bytearray(b"\x01\x02\x03\x04")
    a = xp.asarray(b)
    assert a.dtype == xp.uint8 and a.tolist() == [1, 2, 3, 4]
    a[1] = 20
    assert b[1] == 20                       # zero-copy
    b[2] = 30
    assert a[2].tolist() == 30
    c = xp.asarray(b, copy=True)
    c[0] = 99
    assert b[0] == 1
    assert xp.asarray(b, copy=False).storage.ptr == a.storage.ptr
    ints = pyarray.array("i", [5, -6, 7])
    assert_same(xp.asarray(ints), np.asarray(ints))
    assert xp.asarray(ints).dtype == xp.int32
    dbl = pyarray.array("d", [0.5, 1.5])
    assert_same(xp.asarray(dbl), np.asarray(dbl))
    mv = memoryview(bytes(range(8))).cast("B", (2, 4))
    ro = xp.asarray(mv)
    assert ro.shape == (2, 4) and ro.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    with pytest.raises(ValueError, match="read-only"):
        ro[0, 0] = 1
    # bytes are text, not numbers (NumPy makes an |S array of them): refused, as
    # the issue-19 rule's "never raw bytes"; a bytearray or memoryview is a buffer
    with pytest.raises(TypeError, match="asarray.*got bytes"):
        xp.asarray(b"")
    assert xp.asarray(bytearray(b"")).shape == (0,)


def test_asarray_copy_false_needs_copy():
    for obj in (1, [1, 2], 2.5, (1, 2)):
        with pytest.raises(ValueError, match="asarray"):
            xp.asarray(obj, copy=False)
    with pytest.raises(ValueError, match="asarray"):
        xp.asarray(np.arange(6.0), dtype=xp.float32, copy=False)
    with pytest.raises(ValueError, match="NumPy scalar"):
        xp.asarray(np.float32(1.5), copy=False)


def test_asarray_strided_buffer_is_shared():
    # a strided buffer-protocol export is wrapped without a copy, any step
    raw = bytearray(range(8))
    strided = xp.asarray(memoryview(raw)[::2], copy=False)
    assert strided.tolist() == [0, 2, 4, 6] and strided.strides == (2,)
    strided[1] = 99
    assert raw[2] == 99
    back = xp.asarray(memoryview(raw)[::-3])
    assert back.tolist() == [7, 4, 1] and back.strides == (-3,)


def test_asarray_numpy_scalar_is_a_writable_copy():
    for v in (np.float32(0.5), np.int16(-3), np.complex128(1 + 2j), np.bool_(True)):
        p = xp.asarray(v)
        assert not p.storage.readonly and p.tolist() == v.item()
    p = xp.asarray(np.float32(0.5))
    p *= 2
    assert p.dtype == xp.float32 and float(p) == 1.0


def test_asarray_numpy_non_native():
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray(np.arange(3, dtype=">i4"))
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray(np.array(["a"]))


# ---- bad input -------------------------------------------------------------------------

@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: xp.zeros((2, -1)), ValueError, "zeros"),
    (lambda: xp.zeros("ab"), TypeError, "zeros"),
    (lambda: xp.zeros((2.0, 3)), TypeError, "zeros"),
    (lambda: xp.ones(3, dtype="float128"), TypeError, "ones"),
    (lambda: xp.ones(3, dtype=np.longdouble), TypeError, "ones"),
    (lambda: xp.empty((-1,)), ValueError, "empty"),
    (lambda: xp.empty(3, device="gpu"), ValueError, "empty"),
    (lambda: xp.full((2,), "x"), TypeError, "full"),
    (lambda: xp.full((2,), 1j, dtype=xp.float64), TypeError, "full"),
    (lambda: xp.full((2,), 300, dtype=xp.uint8), OverflowError, "full"),
    (lambda: xp.full((2,), xp.arange(2)), TypeError, "full"),
    (lambda: xp.zeros_like([1, 2]), TypeError, "zeros_like"),
    (lambda: xp.ones_like((0.0, 0.0)), TypeError, "ones_like"),
    (lambda: xp.empty_like(xp.zeros(2), dtype=list), TypeError, "empty_like"),
    (lambda: xp.full_like(xp.zeros(2), "a"), TypeError, "full"),
    (lambda: xp.eye(-1), ValueError, "eye"),
    (lambda: xp.eye(2.5), TypeError, "eye"),
    (lambda: xp.eye(2, 2, k=0.5), TypeError, "eye"),
    (lambda: xp.arange(0, 5, 0), ValueError, "arange"),
    (lambda: xp.arange(1j), TypeError, "arange"),
    (lambda: xp.arange("5"), TypeError, "arange"),
    (lambda: xp.linspace(0, 1, -1), ValueError, "linspace"),
    (lambda: xp.linspace(0, 1, 2.0), TypeError, "linspace"),
    (lambda: xp.linspace(0, 1, 3, dtype=xp.bool), TypeError, "linspace"),
    (lambda: xp.linspace("a", 1, 3), TypeError, "linspace"),
    (lambda: xp.meshgrid(xp.zeros((2, 2))), ValueError, "meshgrid"),
    (lambda: xp.meshgrid(xp.zeros(2), xp.zeros(2, dtype=xp.int8)), TypeError, "meshgrid"),
    (lambda: xp.meshgrid([1, 2]), TypeError, "meshgrid"),
    (lambda: xp.meshgrid(xp.zeros(2), indexing="xx"), ValueError, "meshgrid"),
    (lambda: xp.tril(xp.zeros(3)), ValueError, "tril"),
    (lambda: xp.triu([[1]]), TypeError, "triu"),
    (lambda: xp.triu(xp.zeros((2, 2)), k=1.5), TypeError, "triu"),
    (lambda: xp.asarray([[1, 2], [3]]), ValueError, "asarray"),
    (lambda: xp.asarray({"a": 1}), TypeError, "asarray"),
    (lambda: xp.asarray([1, "a"]), TypeError, "asarray"),
    (lambda: xp.asarray([1, 2], copy="yes"), TypeError, "asarray"),
    (lambda: xp.asarray([256], dtype=xp.uint8), OverflowError, "asarray"),
    (lambda: xp.asarray([1j], dtype=xp.float64), TypeError, "asarray"),
    (lambda: xp.asarray([1], dtype="float128"), TypeError, "asarray"),
    (lambda: xp.asarray([1], device="gpu"), ValueError, "asarray"),
])
def test_bad_input(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


def test_asarray_numpy_scalars_keep_their_memory():
    import gc
    vals = [np.uint64(2 ** 64 - 1), np.float32(2.5), np.bool_(True), np.int8(-3),
            np.complex64(1 + 2j), np.float64(0.1)]
    arrs = [xp.asarray(v) for v in vals]
    gc.collect()
    junk = [np.full(4, 7.0) for _ in range(200)]  # would reuse freed temporaries
    for a, v in zip(arrs, vals):
        assert a.ndim == 0 and a.dtype == xp_dtype(v.dtype) and a.tolist() == v.item()
    assert len(junk) == 200
    # subclasses of Python scalars are read by value, not by type name
    assert_same(xp.asarray([np.float64(1.25), 2.0]), np.array([1.25, 2.0]))
    assert_same(xp.asarray(np.float64(1.25)), np.asarray(1.25))


def test_extreme_sizes_fail_cleanly():
    with pytest.raises(ValueError, match="^ones: maximum allowed dimension exceeded"):
        xp.ones(2 ** 63)  # as NumPy
    for call in (lambda: xp.empty((2 ** 62, 4)), lambda: xp.ones(2 ** 63 - 1), lambda: xp.arange(2 ** 62),
                 lambda: xp.eye(2 ** 40), lambda: xp.linspace(0, 1, 2 ** 62)):
        with pytest.raises(MemoryError, match="arrstride"):
            call()
    assert xp.reshape(xp.zeros((0,)), (2 ** 62, 2 ** 62, 0)).shape == (2 ** 62, 2 ** 62, 0)
    assert_same(xp.tril(xp.ones((3, 3)), k=2 ** 63), np.ones((3, 3)))
    assert_same(xp.triu(xp.ones((3, 3)), k=-2 ** 63), np.ones((3, 3)))


def test_many_dims():
    a = xp.zeros((1,) * 63 + (2,), dtype=xp.int8)  # 64 dims, the most an array has
    b = xp.astype(a, xp.float32)                   # size-1 dims are dropped before C
    assert b.shape == a.shape and b.tolist() is not None
    a[...] = 3
    assert xp.reshape(a, (-1,)).tolist() == [3, 3]


@pytest.mark.parametrize("obj", ["a duck", object(), [1.0, "a duck"]])
def test_asarray_of_an_unsupported_object_names_it(obj):
    # SciPy's ndimage input validation matches other libraries' wordings
    # ("Unsupported", "new", ...) against this message
    with pytest.raises(TypeError, match=r"^asarray: Unsupported type: expected a bool, int, float, "
                                        r"complex, array or nested sequence of them; got (str|object)$"):
        xp.asarray(obj)


# ---- the dimension limit: one rule (64, NumPy's), refused where an array would be made ----

_PAST_NDIM = {
    "zeros": lambda: xp.zeros((1,) * 65), "ones": lambda: xp.ones((1,) * 65),
    "empty": lambda: xp.empty((1,) * 65), "full": lambda: xp.full((1,) * 65, 2.0),
    "reshape": lambda: xp.reshape(xp.zeros(1), (1,) * 65),
    "expand_dims": lambda: xp.expand_dims(xp.zeros((1,) * 64), axis=0),
    "none-key": lambda: xp.zeros(())[(None,) * 65],
    "stack": lambda: xp.stack([xp.zeros((1,) * 64)] * 2),
    "broadcast_to": lambda: xp.broadcast_to(xp.zeros(1), (1,) * 65),
    "asarray-nested": lambda: xp.asarray(np.zeros((1,) * 64).tolist() and [np.zeros((1,) * 64).tolist()]),
}


@pytest.mark.parametrize("name", sorted(_PAST_NDIM))
def test_more_than_64_dims_refused(name):
    with pytest.raises(ValueError, match="maximum (supported dimension for an ndarray is currently 64, found 65"
                                         "|number of dimensions)"):
        _PAST_NDIM[name]()


def test_64_dims_work_everywhere():
    a = xp.zeros((1,) * 64)
    assert a.ndim == 64 and float(xp.sum(a)) == 0.0 and (a + 1).ndim == 64
    assert np.from_dlpack(a).shape == (1,) * 64
    assert xp.asarray(np.ones((1,) * 64)).ndim == 64
