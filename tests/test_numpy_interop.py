"""NumPy interop: numpy.asarray(x) and arrstride.asarray(ndarray) share memory
for every layout; __array__ honours copy= and dtype=; __array_interface__."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same
from layouts import ALL, DTYPE_NAMES, WRITABLE, address, make, params

# every layout but size1: these tests compare strides exactly, and an export of
# a contiguous array may give a size-1 dim any stride
INTEROP = [name for name in ALL if name != "size1"]


@pytest.mark.parametrize("layout", params(INTEROP, ndim=2))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_numpy_asarray_is_zero_copy(layout, name):
    a, expected = make(layout, (3, 4), name)
    n = np.asarray(a)
    assert n.dtype == expected.dtype and n.shape == a.shape
    # NumPy's own type, not an equal one: C extensions switch on the type
    # number (an int64 exported as "q" was NumPy's longlong, which SciPy's
    # rank_filter refused)
    assert n.dtype is np.dtype(name) and n.dtype.num == np.dtype(name).num
    np.testing.assert_array_equal(n, expected)
    if a.size:
        assert n.ctypes.data == address(a)
        assert n.strides == tuple(s * a.dtype.itemsize for s in a.strides)
    assert n.flags.writeable == (not a.storage.readonly)  # broadcast_to views are read-only
    if a.size and layout in WRITABLE:
        n[(-1,) * n.ndim] = n[(0,) * n.ndim]  # one memory: the write shows in a
        assert a[(-1,) * a.ndim].tolist() == n[(0,) * n.ndim].tolist()


@pytest.mark.parametrize("layout", params(INTEROP, ndim=2))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_arrstride_asarray_is_zero_copy(layout, name):
    _, n = make(layout, (3, 4), name)
    a = xp.asarray(n)
    assert a.dtype.name == n.dtype.name and a.shape == n.shape
    assert a.tolist() == n.tolist()
    if n.size:
        assert address(a) == n.ctypes.data
        assert tuple(s * a.dtype.itemsize for s in a.strides) == n.strides or n.ndim == 0
    assert a.storage.readonly == (not n.flags.writeable)
    c = xp.asarray(n, copy=True)
    assert c.tolist() == n.tolist()
    if n.size:
        assert address(c) != n.ctypes.data


def test_array_interface_fields():
    a = xp.reshape(xp.arange(12, dtype=xp.int16), (3, 4))
    iface = a.__array_interface__
    assert iface["version"] == 3 and iface["shape"] == (3, 4) and iface["typestr"] == "<i2"
    assert iface["data"] == (address(a), False) and iface["strides"] is None
    v = a[::-1, 1::2]
    assert v.__array_interface__["strides"] == (-8, 4)
    assert v.__array_interface__["data"][0] == address(v)
    assert xp.ones(2, dtype=xp.bool).__array_interface__["typestr"] == "|b1"
    assert xp.ones(2, dtype=xp.complex128).__array_interface__["typestr"] == "<c16"


@pytest.mark.parametrize("layout", ["contiguous", "negative", "broadcast", "zerod", "empty"])
def test_dunder_array_copy_keyword(layout):
    a, expected = make(layout, (3, 4), "float32")
    shared = a.__array__()
    np.testing.assert_array_equal(shared, expected)
    if a.size:
        assert shared.ctypes.data == address(a)
    assert a.__array__(copy=False).ctypes.data == shared.ctypes.data
    copied = a.__array__(copy=True)
    np.testing.assert_array_equal(copied, expected)
    assert not np.shares_memory(copied, shared)
    converted = a.__array__(dtype=np.float64)
    assert converted.dtype == np.float64
    np.testing.assert_array_equal(converted, expected.astype(np.float64))
    with pytest.raises(ValueError):
        a.__array__(dtype=np.float64, copy=False)
    same = a.__array__(dtype=np.float32, copy=False)
    assert same.dtype == np.float32


def test_numpy_array_and_asarray_copy_semantics():
    a = xp.reshape(xp.arange(6.0), (2, 3)).mT
    assert not np.shares_memory(np.array(a), np.asarray(a))  # np.array copies by default
    assert np.shares_memory(np.array(a, copy=False), np.asarray(a))
    assert np.asarray(a, dtype=np.int64).tolist() == a.tolist()


def test_read_only_round_trip():
    """asarray of a read-only NumPy array wraps it, refuses writes, and goes
    back to NumPy as the same read-only memory."""
    n = np.arange(5.0)
    n.flags.writeable = False
    a = xp.asarray(n)
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 2.0
    assert_same(a, n)
    back = np.asarray(a)
    assert not back.flags.writeable and back.ctypes.data == n.ctypes.data


def test_lifetimes():
    a = xp.reshape(xp.arange(20, dtype=xp.int32), (4, 5))[1:, ::-2]
    expected = a.tolist()
    n = np.asarray(a)
    del a
    gc.collect()
    junk = [xp.full((4, 5), -1, dtype=xp.int32) for _ in range(10)]
    assert n.tolist() == expected
    m = np.arange(10.0)[::3]
    b = xp.asarray(m)
    del m
    gc.collect()
    junk += [np.full(10, -1.0) for _ in range(10)]
    assert b.tolist() == [0.0, 3.0, 6.0, 9.0]


def test_numpy_scalars_and_buffers():
    a = xp.asarray(np.float32(2.5))
    assert a.shape == () and a.dtype == xp.float32 and a.tolist() == 2.5
    b = xp.asarray(bytearray(b"\x01\x02"))
    assert b.dtype == xp.uint8 and b.tolist() == [1, 2]


def test_asarray_takes_dlpack_producers():
    class Producer:
        """Exports an arrstride array through DLPack only."""

        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kw):
            return self.a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    src = xp.reshape(xp.arange(6, dtype=xp.uint16), (2, 3))[:, ::-1]
    a = xp.asarray(Producer(src), copy=False)
    assert a.tolist() == src.tolist() and address(a) == address(src) and a.strides == src.strides
    c = xp.asarray(Producer(src))  # copy=None: negative strides are exported as a copy
    assert c.tolist() == src.tolist() and address(c) != address(src)
    b = xp.asarray(Producer(src), dtype=xp.int32)
    assert b.dtype == xp.int32 and b.tolist() == src.tolist()
    with pytest.raises(ValueError):
        xp.asarray(Producer(src), dtype=xp.int32, copy=False)


def test_unsupported_numpy_dtype():
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray(np.ones(2, dtype=np.longdouble))


def test_c_and_python_paths_wrap_buffers_alike(fast_paths_on):
    # _core.from_buffer (the per-call path) against the Python path it skips
    from arrstride import _core
    from arrstride._foreign import wrap
    from arrstride import _storage as S
    for n in (np.arange(12.0).reshape(3, 4)[::-1, 1::2], np.arange(6, dtype=np.int16), np.ones((2, 3), np.complex64).T):
        for writeable in (True, False):
            n = n.copy() if writeable else n
            n.flags.writeable = writeable
            fast = _core.from_buffer(n)
            owner, (fmt, isz, shape, bstrides, address_, readonly) = S.export_buffer(n)
            slow = wrap("asarray", fast.dtype, shape, bstrides, address_, owner, readonly, byte_strides=True)
            assert (fast.shape, fast.strides, fast.offset) == (slow.shape, slow.strides, slow.offset)
            fs, ss = fast.storage, slow.storage
            assert (fs.address, fs.nbytes, fs.readonly, fs.external, fs._readonly_why) == \
                   (ss.address, ss.nbytes, ss.readonly, ss.external, ss._readonly_why)
            assert fast.tolist() == n.tolist()


def test_buffers_the_c_path_leaves_to_python(fast_paths_on):
    from arrstride import _core
    assert _core.from_buffer(np.float64(1.0)) is None  # a value: copied by the Python path
    assert _core.from_buffer(np.zeros((2, 0))) is None  # empty
    assert _core.from_buffer([1.0]) is None  # no buffer
    assert _core.from_buffer(xp.ones(2)) is None
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray(np.ones(3, dtype=">f8"))  # not native byte order
    rec = np.zeros(4, dtype=[("a", "f8"), ("b", "i4")])
    with pytest.raises((TypeError, ValueError), match="asarray"):
        xp.asarray(rec["a"])  # a stride of 12 bytes: not whole float64 elements


def test_the_export_is_released_when_the_array_dies():
    buf = bytearray(16)
    a = xp.asarray(buf)
    with pytest.raises(BufferError):
        buf.append(1)  # exported: cannot resize
    view = a[1:3]
    del a
    gc.collect()
    with pytest.raises(BufferError):
        buf.append(1)  # the view still holds the storage
    del view
    gc.collect()
    buf.append(1)  # released once
    assert len(buf) == 17


@pytest.mark.parametrize("layout", params(INTEROP, ndim=2))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_array_struct(layout, name):
    # numpy.asarray(x) reads __array_struct__ (NumPy's PyArrayInterface in a
    # capsule, made in C): the elements in place, NumPy's own dtype object
    a, expected = make(layout, (3, 4), name)
    cap = a.__array_struct__
    assert type(cap).__name__ == "PyCapsule"
    n = np.asarray(a)
    assert n.dtype is np.dtype(name) and n.shape == a.shape
    np.testing.assert_array_equal(n, expected)
    if a.size:
        assert n.ctypes.data == address(a)
        for st, d, s in zip(n.strides, a.shape, a.strides):
            assert d <= 1 or st == s * a.dtype.itemsize
    assert n.flags.writeable == (not a.storage.readonly)


def test_no_buffer_protocol_and_lifetime():
    # No buffer export, on purpose: torch.asarray takes any buffer exporter
    # before DLPack and reads its bytes as its default dtype, 1-D (a float64
    # array came back as float32 garbage, a transposed one as "could not
    # retrieve buffer"). torch.Tensor has no buffer export either.
    import weakref
    x = xp.reshape(xp.arange(12.0), (3, 4))
    with pytest.raises(TypeError):
        memoryview(x)
    y = xp.arange(4.0)
    r = weakref.ref(y)
    n = np.asarray(y)
    del y
    gc.collect()
    assert r() is not None  # NumPy's array keeps the arrstride array as its base
    assert n.tolist() == [0.0, 1.0, 2.0, 3.0]
    del n
    gc.collect()
    assert r() is None


# every layout with no negative stride: torch refuses negative strides (for
# NumPy's arrays too: ValueError), and torch.from_dlpack of one aborts the
# process (c10::Error), so arrstride's __dlpack__ copies those when copy=None
@pytest.mark.parametrize("layout", params(ALL))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_torch_asarray_every_layout(layout, name):
    torch = pytest.importorskip("torch", reason="PyTorch not installed (optional interop partner)")
    a, expected = make(layout, (3, 4), name)
    t = torch.asarray(a)
    assert tuple(t.shape) == expected.shape and str(t.dtype) == f"torch.{name}"
    np.testing.assert_array_equal(t.numpy(), expected)
    if a.size and all(s >= 0 for s in a.strides):
        assert t.data_ptr() == address(a)  # zero-copy, by DLPack
