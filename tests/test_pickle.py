"""Arrays pickle as (dtype, shape, data) in every layout (Cubed's processes
executor ships chunks this way); foreign dtypes are accepted by name."""
import pickle

import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same, shares
from layouts import ALL, DTYPES, make, params


@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_pickle_round_trip(layout, dtype):
    a, n = make(layout, (3, 4), dtype)
    b = pickle.loads(pickle.dumps(a))
    assert_same(b, n)
    assert not shares(a, b)
    assert b.is_contiguous()


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_numpy_dtypes_accepted_and_equal(dtype):
    nd = np.dtype(dtype.name)
    assert dtype == nd and dtype == nd.type
    assert xp.zeros(3, dtype=nd).dtype is dtype
    assert xp.astype(xp.ones(2), nd).dtype is dtype
    assert xp.isdtype(nd, dtype)


def test_foreign_dtypes_refused_clearly():
    with pytest.raises(TypeError, match="zeros: dtype must be an arrstride dtype"):
        xp.zeros(3, dtype=np.longdouble)
    with pytest.raises(TypeError, match="zeros: dtype must be an arrstride dtype"):
        xp.zeros(3, dtype="float128")
    assert xp.float64 != "float32"
    assert xp.float64 != np.dtype(">f8")


# ---- protocol 5: PickleBuffer, in band and out of band -------------------------------------

def _address(buf) -> int:
    return np.frombuffer(buf, dtype=np.uint8).ctypes.data


def test_protocol5_out_of_band_without_copies():
    a = np.random.default_rng(0).standard_normal(1 << 17)       # 1 MiB
    x = xp.asarray(a)
    bufs = []
    s = pickle.dumps(x, protocol=5, buffer_callback=bufs.append)
    assert len(s) < 4096 and len(bufs) == 1
    raw = bufs[0].raw()
    assert raw.nbytes == a.nbytes
    assert _address(raw) == x.__array_interface__["data"][0]   # the array's own memory, not a copy
    y = pickle.loads(s, buffers=bufs)
    assert_same(y, a)
    assert y.__array_interface__["data"][0] == _address(raw)   # wrapped, not copied
    # a buffer the receiver owns (as Dask's frames are): the array keeps it alive
    frame = bytearray(raw)
    z = pickle.loads(s, buffers=[frame])
    del frame
    assert_same(z, a)
    z[0] = 5.0                                                 # writable, and its own
    assert float(x[0]) == a[0]


def test_protocol5_in_band():
    a = np.arange(4096, dtype=np.int32).reshape(64, 64)
    x = xp.asarray(a)
    s = pickle.dumps(x, protocol=5)
    assert len(s) < a.nbytes + 200
    y = pickle.loads(s)
    assert_same(y, a)
    y[0, 0] = 7                                                # its own writable memory
    assert int(x[0, 0]) == 0


@pytest.mark.parametrize("layout", params(ALL, ndim=2))
def test_protocol5_layouts(layout):
    # views (transposed, stepped, negative, broadcast, offset) travel contiguous
    x, a = make(layout, shape=(40, 30))
    for cb in (None, []):
        s = pickle.dumps(x, protocol=5, buffer_callback=None if cb is None else cb.append)
        assert_same(pickle.loads(s, buffers=cb), a)


def test_protocol5_small_arrays_stay_format_1():
    x = xp.arange(100.0)                                       # 800 bytes
    bufs = []
    s = pickle.dumps(x, protocol=5, buffer_callback=bufs.append)
    assert bufs == [] and b"_unpickle" in s
    assert_same(pickle.loads(s), np.arange(100.0))
    assert pickle.dumps(xp.zeros(1 << 12), protocol=4).count(b"\x96") == 0   # no BYTEARRAY8 below 5


def test_protocol5_unaligned_and_read_only_buffers_are_copied():
    a = np.arange(1024, dtype=np.float64)
    bufs = []
    s = pickle.dumps(xp.asarray(a), protocol=5, buffer_callback=bufs.append)
    frame = bytearray(a.nbytes + 1)
    frame[1:] = a.tobytes()
    y = pickle.loads(s, buffers=[memoryview(frame)[1:]])      # unaligned for float64
    assert_same(y, a)
    y[0] = 9.0
    assert frame[1:9] == a[:1].tobytes()                       # a copy, not the frame
    z = pickle.loads(s, buffers=[a.tobytes()])                # read-only bytes
    assert_same(z, a)
    z[0] = 9.0                                                 # loaded arrays are writable


def test_protocol5_read_only_array():
    a = np.arange(1024.0)
    a.flags.writeable = False
    x = xp.asarray(a)                                          # wraps read-only memory
    bufs = []
    pickle.dumps(x, protocol=5, buffer_callback=bufs.append)
    assert bufs[0].raw().readonly
    assert_same(pickle.loads(pickle.dumps(x, protocol=5)), a)
