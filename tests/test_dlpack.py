"""DLPack 1.x: round trips with NumPy (and PyTorch when installed) over every
dtype and layout, both capsule kinds, flags, and lifetimes."""
from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import arrstride as xp
from arrstride import _dlpack
from arrstride._native import ffi, lib
from layouts import ALL, DTYPE_NAMES, WRITABLE, address, make, params, sample

# every layout but size1: these tests compare strides exactly, and an export of
# a contiguous array may give a size-1 dim any stride
INTEROP = [name for name in ALL if name != "size1"]


class Holder:
    """A producer that hands out one fixed capsule (to consume a capsule twice)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)

    def pop(self):
        """A producer holding the only reference to the capsule, handed over."""
        capsule, self.capsule = self.capsule, None

        class Once:
            def __dlpack__(self, **kwargs):
                nonlocal capsule
                out, capsule = capsule, None
                return out

            def __dlpack_device__(self):
                return (1, 0)

        return Once()


def exports_settle():
    gc.collect()
    return _dlpack.live_exports(), len(_dlpack._LIVE)


def negative(a) -> bool:
    """a has elements and a negative stride on a dim longer than 1: __dlpack__
    exports a copy unless copy=False (torch.from_dlpack aborts on negative strides)."""
    return a.size > 0 and any(s < 0 and d > 1 for s, d in zip(a.strides, a.shape))


def check_same(a, n: np.ndarray) -> None:
    """a views exactly n's memory with n's values and strides."""
    assert a.shape == n.shape
    assert a.dtype.name == n.dtype.name
    assert a.tolist() == n.tolist()
    if n.size:
        assert address(a) == n.ctypes.data
        assert tuple(s * a.dtype.itemsize for s in a.strides) == n.strides or n.ndim == 0


# ---- round trips over every dtype and layout -------------------------------------------

@pytest.mark.parametrize("layout", params(INTEROP, ndim=2))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_numpy_to_arrstride(layout, name):
    _, n = make(layout, (3, 4), name)
    a = xp.from_dlpack(n)
    check_same(a, n)
    if n.size and layout in WRITABLE and n.flags.writeable:
        n[(0,) * n.ndim] = n[(-1,) * n.ndim]  # writes through: one memory
        assert a[(0,) * n.ndim].tolist() == n[(0,) * n.ndim].tolist()


@pytest.mark.parametrize("layout", params(INTEROP, ndim=2))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_arrstride_to_numpy(layout, name):
    a, n_expected = make(layout, (3, 4), name)
    n = np.from_dlpack(a)
    assert n.dtype == n_expected.dtype
    np.testing.assert_array_equal(n, n_expected)
    if negative(a):  # copy=None exports negative strides as a copy (torch aborts on them)
        assert n.ctypes.data != address(a)
        n = np.from_dlpack(a, copy=False)
    check_same(a, n)


@pytest.mark.parametrize("layout", params(INTEROP, ndim=2))
@pytest.mark.parametrize("max_version", [None, (0, 8), (1, 0), (1, 1), (2, 0)])
def test_both_capsule_kinds_round_trip(layout, max_version):
    a, _ = make(layout, (3, 4), "int32")
    capsule = a.__dlpack__(max_version=max_version, copy=False if negative(a) else None)
    versioned = max_version is not None and max_version[0] >= 1
    assert _dlpack._is_valid(capsule, _dlpack.NAME_VERSIONED if versioned else _dlpack.NAME)
    b = xp.from_dlpack(capsule)  # arrstride accepts a bare capsule too
    assert b.tolist() == a.tolist()
    assert b.storage.readonly == (a.storage.readonly and versioned)
    if a.size and (versioned or not a.storage.readonly):
        assert address(b) == address(a) and b.strides == a.strides
    elif a.size:  # a legacy capsule cannot say read-only: the producer handed out a copy
        assert address(b) != address(a)
    # the consumer renamed the capsule
    assert _dlpack._is_valid(capsule, _dlpack.USED_VERSIONED if versioned else _dlpack.USED)


def test_versioned_capsule_contents():
    a = xp.reshape(xp.arange(12, dtype=xp.complex64), (3, 4))[::-1, 1::2]
    capsule = a.__dlpack__(max_version=(1, 0), copy=False)  # copy=None: a copy (negative strides)
    m = ffi.cast("DLManagedTensorVersioned *", _dlpack._get_pointer(capsule, _dlpack.NAME_VERSIONED))
    assert (m.version.major, m.version.minor) == _dlpack.VERSION
    assert m.flags == 0
    t = m.dl_tensor
    assert (t.device.device_type, t.device.device_id) == (lib.kDLCPU, 0)
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (lib.kDLComplex, 64, 1)
    assert t.ndim == 2 and list(t.shape[0:2]) == [3, 2] and list(t.strides[0:2]) == [-4, 2]
    assert t.byte_offset == 0 and _dlpack._addr(t.data) == address(a)


@pytest.mark.parametrize("name,code,bits", [("bool", "kDLBool", 8), ("int8", "kDLInt", 8),
                                            ("uint64", "kDLUInt", 64), ("float32", "kDLFloat", 32),
                                            ("complex128", "kDLComplex", 128)])
def test_dtype_codes(name, code, bits):
    capsule = xp.zeros(2, dtype=getattr(xp, name)).__dlpack__()
    m = ffi.cast("DLManagedTensor *", _dlpack._get_pointer(capsule, _dlpack.NAME))
    assert (m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits) == (getattr(lib, code), bits)


def test_byte_offset_and_null_strides():
    """A hand-built producer: data + byte_offset is the first element, strides NULL."""
    buf = ffi.new("double[]", [float(i) for i in range(10)])
    shape = ffi.new("int64_t[]", [2, 3])
    m = ffi.new("DLManagedTensorVersioned *")
    m.version.major, m.version.minor = 1, 0
    m.dl_tensor.data = buf
    m.dl_tensor.device.device_type = lib.kDLCPU
    m.dl_tensor.ndim = 2
    m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits, m.dl_tensor.dtype.lanes = lib.kDLFloat, 64, 1
    m.dl_tensor.shape = shape
    m.dl_tensor.strides = ffi.NULL
    m.dl_tensor.byte_offset = 3 * 8
    m.deleter = ffi.NULL  # DLPack allows a NULL deleter
    capsule = _dlpack._capsule_new(_dlpack._addr(m), _dlpack.NAME_VERSIONED, None)
    a = xp.from_dlpack(capsule)
    assert a.tolist() == [[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]
    assert a.strides == (3, 1)
    # The producer (m, shape, buf) must outlive its consumer: the consumer
    # reads m->deleter when `a` dies. Let the consumer go first.
    del a, capsule
    gc.collect()
    assert m.deleter == ffi.NULL and shape[1] == 3 and buf[9] == 9.0


def test_dlpack_device():
    assert xp.ones(2).__dlpack_device__() == (1, 0)
    kind, ident = xp.ones(2).__dlpack_device__()
    assert kind == _dlpack.DLDeviceType.CPU and isinstance(ident, int)


# ---- flags: read-only and copies --------------------------------------------------------

def test_read_only_both_ways():
    n = np.arange(6.0)
    n.flags.writeable = False
    a = xp.from_dlpack(n)  # NumPy's versioned capsule carries the read-only flag
    assert a.storage.readonly and address(a) == n.ctypes.data
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1.0
    back = np.from_dlpack(a)
    assert not back.flags.writeable and back.ctypes.data == n.ctypes.data
    # legacy capsules cannot say read-only: copy=None copies, copy=False refuses
    legacy = xp.from_dlpack(a.__dlpack__())
    assert address(legacy) != address(a) and legacy.tolist() == a.tolist()
    with pytest.raises(BufferError, match="read-only"):
        a.__dlpack__(copy=False)


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_copy_true_exports_a_copy(max_version):
    a = xp.reshape(xp.arange(6, dtype=xp.int16), (2, 3)).mT
    b, copied = _dlpack.from_capsule("t", a.__dlpack__(copy=True, max_version=max_version))
    assert copied == (max_version is not None)  # the IS_COPIED flag needs a versioned capsule
    assert b.tolist() == a.tolist() and address(b) != address(a)
    n = np.arange(3)
    c = xp.from_dlpack(n, copy=True)  # NumPy copies (IS_COPIED): no second copy
    assert address(c) != n.ctypes.data and c.tolist() == [0, 1, 2]
    d = xp.from_dlpack(a, copy=True)
    assert address(d) != address(a) and d.tolist() == a.tolist()
    assert xp.from_dlpack(a, copy=False) is a


def test_copy_false_shares():
    n = np.arange(8.0)[::2]
    a = xp.from_dlpack(n, copy=False)
    assert address(a) == n.ctypes.data


# ---- argument checks ----------------------------------------------------------------------

def test_export_argument_errors():
    a = xp.ones(3)
    with pytest.raises(BufferError, match="CPU"):
        a.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError, match="CPU"):
        a.__dlpack__(dl_device=(1, 1))
    with pytest.raises(TypeError, match="dl_device"):
        a.__dlpack__(dl_device="cpu")
    with pytest.raises(ValueError, match="stream"):
        a.__dlpack__(stream=1)
    with pytest.raises(TypeError, match="max_version"):
        a.__dlpack__(max_version=1)
    with pytest.raises(TypeError, match="copy"):
        a.__dlpack__(copy="yes")
    assert exports_settle()[0] == 0


def test_import_argument_errors():
    with pytest.raises(AttributeError, match="from_dlpack: x must support DLPack"):
        xp.from_dlpack([1, 2])
    with pytest.raises(ValueError, match="from_dlpack"):
        xp.from_dlpack(np.ones(2), device="gpu")
    with pytest.raises(TypeError, match="copy"):
        xp.from_dlpack(np.ones(2), copy=1)
    assert xp.from_dlpack(np.ones(2), device=xp.__array_namespace_info__().default_device()).shape == (2,)


def test_unsupported_dtype_raises_and_releases():
    torch = pytest.importorskip("torch")  # NumPy exports no dtype arrstride lacks
    n = torch.ones(3, dtype=torch.complex32)  # (kDLComplex, 32): no arrstride dtype
    ref = weakref.ref(n)
    with pytest.raises(BufferError, match="unsupported DLPack dtype"):
        xp.from_dlpack(n)
    del n
    gc.collect()
    assert ref() is None  # the producer's deleter ran


# ---- lifetimes ---------------------------------------------------------------------------

def test_delete_producer_then_read_consumer_numpy():
    a = xp.reshape(xp.arange(20, dtype=xp.float64), (4, 5))[::-1, ::2]
    expected = a.tolist()
    n = np.from_dlpack(a)
    del a
    gc.collect()
    junk = [xp.full((4, 5), -1.0) for _ in range(20)]  # reuse freed blocks if any
    assert n.tolist() == expected
    del junk, n
    assert exports_settle() == (0, 0)


def test_delete_producer_then_read_consumer_arrstride():
    n = np.arange(20, dtype=np.int64).reshape(4, 5)[:, ::-1]
    expected = n.tolist()
    ref = weakref.ref(n.base)
    a = xp.from_dlpack(n)
    del n
    gc.collect()
    junk = [np.full((4, 5), -1) for _ in range(20)]
    assert a.tolist() == expected
    assert ref() is not None  # kept alive by the capsule's owner
    v = a[1:, 1]  # a view of the imported array keeps it too
    del a, junk
    gc.collect()
    assert v.tolist() == [row[1] for row in expected[1:]]
    del v
    gc.collect()
    assert ref() is None  # the producer's deleter ran when the last view died


def test_producer_kept_alive_until_consumer_releases():
    a = xp.ones(4)
    ref = weakref.ref(a.storage)
    n = np.from_dlpack(a)
    del a
    gc.collect()
    assert ref() is not None and _dlpack.live_exports() == 1
    del n
    assert exports_settle() == (0, 0)
    assert ref() is None


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_unconsumed_capsule_freed_once(max_version):
    before = exports_settle()
    a = xp.ones(5)
    ref = weakref.ref(a.storage)
    capsule = a.__dlpack__(max_version=max_version)
    del a
    gc.collect()
    assert ref() is not None and _dlpack.live_exports() == before[0] + 1
    del capsule
    assert exports_settle() == before
    assert ref() is None


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_consumed_capsule_freed_once_by_consumer(max_version):
    before = exports_settle()
    capsule = xp.arange(3).__dlpack__(max_version=max_version)
    b = xp.from_dlpack(capsule)
    del capsule  # renamed: the capsule destructor must not delete it again
    gc.collect()
    assert _dlpack.live_exports() == before[0] + 1 and b.tolist() == [0, 1, 2]
    del b
    assert exports_settle() == before


def test_capsule_consumed_twice_raises():
    holder = Holder(xp.arange(3).__dlpack__(max_version=(1, 0)))
    first = xp.from_dlpack(holder)
    with pytest.raises(ValueError, match="already consumed"):
        xp.from_dlpack(holder)
    with pytest.raises(ValueError):
        np.from_dlpack(holder)
    assert first.tolist() == [0, 1, 2]
    legacy = xp.arange(2).__dlpack__()
    xp.from_dlpack(legacy)
    with pytest.raises(ValueError, match="already consumed"):
        xp.from_dlpack(legacy)
    del first, holder, legacy
    assert exports_settle() == (0, 0)


def test_not_a_capsule():
    class Bad:
        def __dlpack__(self, **kw):
            return 42

        def __dlpack_device__(self):
            return (1, 0)

    with pytest.raises(TypeError, match="PyCapsule"):
        xp.from_dlpack(Bad())


def test_deleter_runs_on_another_thread():
    import threading
    a = xp.ones(3)
    n = np.from_dlpack(a)
    del a
    box = [n]
    del n

    def drop():
        box.clear()
        gc.collect()

    t = threading.Thread(target=drop)
    t.start()
    t.join()
    assert exports_settle() == (0, 0)


# ---- PyTorch ---------------------------------------------------------------------------------
# torch is an optional interop partner: these tests need it and report a visible
# skip reason when it is missing. Negative strides are left out on purpose:
# torch.from_dlpack aborts the process on them (c10::Error "Storage size
# calculation overflowed"), for NumPy's exports as well as ours.

TORCH_LAYOUTS = [k for k in INTEROP if k not in ("negative", "mixed", "empty-stepped", "permuted")]


@pytest.mark.parametrize("layout", TORCH_LAYOUTS)
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_torch_round_trip(layout, name):
    torch = pytest.importorskip("torch", reason="PyTorch not installed (optional interop partner)")
    a, n = make(layout, (3, 4), name)
    t = torch.from_dlpack(a)
    assert list(t.shape) == list(a.shape) and str(t.dtype) == f"torch.{name}"
    assert t.tolist() == n.tolist()
    if a.size:
        assert t.data_ptr() == address(a) and tuple(t.stride()) == a.strides
    b = xp.from_dlpack(t)
    assert b.tolist() == n.tolist()
    if a.size:
        assert address(b) == address(a) and b.strides == a.strides
    c = xp.asarray(t)  # asarray takes DLPack producers zero-copy too
    if a.size:
        assert address(c) == address(a)


def test_torch_lifetimes():
    torch = pytest.importorskip("torch", reason="PyTorch not installed (optional interop partner)")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4).T
    a = xp.from_dlpack(t)
    del t
    gc.collect()
    assert a.tolist() == torch.arange(12, dtype=torch.float32).reshape(3, 4).T.tolist()
    a[0, 0] = 7.0
    back = torch.from_dlpack(a)
    del a
    gc.collect()
    assert back[0, 0].item() == 7.0 and _dlpack.live_exports() == 1
    del back
    assert exports_settle() == (0, 0)


def test_torch_readonly_flag_ignored_safely():
    torch = pytest.importorskip("torch", reason="PyTorch not installed (optional interop partner)")
    n = sample((3,), "float64")
    n.flags.writeable = False
    a = xp.asarray(n)
    assert a.storage.readonly
    t = torch.from_dlpack(a)  # torch ignores the flag, as the standard recommends
    assert t.tolist() == n.tolist()


def test_capsule_dropped_with_exception_pending():
    """Consumers drop capsules on their error paths with an exception set:
    NumPy refuses a non-CPU tensor after taking the capsule. Our destructor must
    still delete the tensor, and NumPy's exception must come through intact."""
    import sys
    before = exports_settle()
    unraisable = []
    old_hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        for max_version in (None, (1, 0)):
            capsule = xp.ones(3).__dlpack__(max_version=max_version)
            name = _dlpack.NAME_VERSIONED if max_version else _dlpack.NAME
            kind = "DLManagedTensorVersioned *" if max_version else "DLManagedTensor *"
            m = ffi.cast(kind, _dlpack._get_pointer(capsule, name))
            m.dl_tensor.device.device_type = lib.kDLCUDA  # NumPy will refuse it
            holder = Holder(capsule)
            del capsule
            with pytest.raises((BufferError, RuntimeError), match="device"):
                np.from_dlpack(holder.pop())  # NumPy holds the only reference
            gc.collect()
    finally:
        sys.unraisablehook = old_hook
    assert not unraisable
    assert exports_settle() == before
