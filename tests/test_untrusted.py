"""Bytes from outside never corrupt memory.

Every way in from outside (pickles, DLPack capsules, __array_interface__,
the buffer protocol, _core's C entry points, shapes and indices) crossed with
its malformations. Each case runs in its own interpreter, so a crash (a
segfault, an abort from the allocator, a sanitizer report) fails the test
instead of killing the run; under .ci/sanitize the child inherits the
sanitizer runtime and its options.

A case is Python code run after PRELUDE. `expect(exc, fragment, call)` checks
that call() raises exc with fragment in its message; a case that must succeed
asserts its result. The child prints CASE-OK as its last act.
"""
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import arrstride as xp

PRELUDE = r'''
import ctypes, gc, pickle, sys
import numpy as np
import arrstride as xp
from arrstride import _core
from arrstride._array import _rebuild, _unpickle

def expect(exc, fragment, call):
    try:
        call()
    except exc as e:
        assert fragment in str(e), f"message {str(e)!r} lacks {fragment!r}"
        return e
    raise AssertionError(f"no {exc} raised")

# ---- DLPack tensors built by hand (ctypes), as a foreign producer would ----
# (the struct layouts are the fuzz targets' own: fuzz/targets.py)
sys.path.insert(0, FUZZ_DIR)
from targets import (DELETER, DLDataType, DLDevice, DLManagedTensor, DLManagedTensorVersioned,
                     DLPackVersion, DLTensor)

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
DELETED = []
KEEP = []

def _deleter_ok(ptr):
    DELETED.append(ptr)

def _deleter_raises(ptr):
    DELETED.append(ptr)
    raise RuntimeError("a deleter that raises")

def tensor(shape=(4,), strides=None, data="buffer", code=2, bits=64, lanes=1, ndim=None,
           byte_offset=0, device=1, versioned=False, major=1, flags=0, raising=False,
           shape_ptr=True):
    """A capsule holding a hand-built DLPack tensor over 64 bytes of zeros
    (data="buffer"), or over the address given."""
    buf = (ctypes.c_double * 8)(*range(8))
    KEEP.append(buf)
    n = len(shape) if ndim is None else ndim
    sh = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    st = (ctypes.c_int64 * max(len(strides), 1))(*strides) if strides is not None else None
    KEEP.extend([sh, st])
    t = DLTensor()
    t.data = ctypes.addressof(buf) if data == "buffer" else data
    t.device = DLDevice(device, 0)
    t.ndim = n
    t.dtype = DLDataType(code, bits, lanes)
    t.shape = ctypes.cast(sh, ctypes.POINTER(ctypes.c_int64)) if shape_ptr else None
    t.strides = ctypes.cast(st, ctypes.POINTER(ctypes.c_int64)) if st is not None else None
    t.byte_offset = byte_offset
    d = DELETER(_deleter_raises if raising else _deleter_ok)
    KEEP.append(d)
    if versioned:
        m = DLManagedTensorVersioned(DLPackVersion(major, 0), None, d, flags, t)
        name = b"dltensor_versioned"
    else:
        m = DLManagedTensor(t, None, d)
        name = b"dltensor"
    KEEP.append(m)
    return _capsule_new(ctypes.addressof(m), name, None)

def deleted_once():
    gc.collect()
    assert len(DELETED) == 1, f"deleter ran {len(DELETED)} times"

# ---- __array_interface__ exporters ----
class Iface:
    def __init__(self, **fields):
        self.mem = (ctypes.c_double * 8)(*range(8))
        d = {"version": 3, "typestr": "<f8", "shape": (8,), "strides": None,
             "data": (ctypes.addressof(self.mem), False)}
        d.update(fields)
        self.__array_interface__ = d

# ---- sequences that lie about their length ----
class LenLie(list):
    def __len__(self): return 1
class LenBig(list):
    def __len__(self): return 1000
class TupleLie(tuple):
    def __len__(self): return 2
class IterLie(list):
    def __iter__(self): return iter([9.0])
    def __getitem__(self, i): return 9.0
LEN = "len() differs from the number of its items"
'''


FUZZ_DIR = str(Path(__file__).resolve().parent.parent / "fuzz")


def run_case(code: str) -> None:
    src = f"FUZZ_DIR = {FUZZ_DIR!r}\n" + PRELUDE + textwrap.dedent(code) + "\nprint('CASE-OK')\n"
    env = dict(os.environ)
    env.setdefault("PYTHONFAULTHANDLER", "1")
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=120,
                       env=env, cwd=str(Path(__file__).resolve().parent))
    out = r.stdout.strip().splitlines()
    assert r.returncode == 0 and out and out[-1] == "CASE-OK", (
        f"exit {r.returncode}\n--- stdout\n{r.stdout[-2000:]}\n--- stderr\n{r.stderr[-4000:]}")


def cases(table):
    return pytest.mark.parametrize("code", [c for _, c in table], ids=[n for n, _ in table])


# ---- pickles --------------------------------------------------------------------------

PICKLE = [
    ("issue-repro-shape-edited", """
        s = pickle.dumps(xp.zeros(512), protocol=2)
        t = s.replace(b"M\\x00\\x02\\x85", b"K\\x01\\x85")
        assert t != s
        expect(ValueError, "buffer size does not match array size", lambda: pickle.loads(t))
    """),
    ("too-many-bytes", "expect(ValueError, 'buffer size does not match', lambda: _rebuild('float64', (1,), b'\\0' * 4096))"),
    ("too-few-bytes", "expect(ValueError, 'buffer size does not match', lambda: _rebuild('float64', (1000,), b'\\1' * 16))"),
    ("empty-with-bytes", "expect(ValueError, 'buffer size does not match', lambda: _rebuild('float64', (0,), b'\\0' * 800))"),
    ("float-dim", "expect(ValueError, 'shape must be a tuple of ints', lambda: _rebuild('float64', (3.0,), b'\\0' * 24))"),
    ("bool-dim", "expect(ValueError, 'shape must be a tuple of ints', lambda: _rebuild('float64', (True,), b'\\0' * 8))"),
    ("negative-dim", "expect(ValueError, 'shape must be a tuple of ints', lambda: _rebuild('int8', (-1, -1), b'\\0'))"),
    ("dim-past-int64", "expect(ValueError, '2**63 - 1', lambda: _rebuild('int8', (2**64, 0), b''))"),
    ("product-past-int64", "expect(ValueError, 'buffer size does not match', lambda: _rebuild('int8', (2**62, 2**62), b'\\0'))"),
    ("shape-list", "expect(ValueError, 'shape must be a tuple', lambda: _rebuild('int8', [1], b'\\0'))"),
    ("unknown-dtype", "expect(ValueError, 'unknown dtype name', lambda: _rebuild('float128', (1,), b'\\0' * 16))"),
    ("dtype-not-str", "expect(ValueError, 'unknown dtype name', lambda: _rebuild(None, (1,), b'\\0' * 8))"),
    ("data-not-bytes", "expect(ValueError, 'data must be bytes-like', lambda: _rebuild('float64', (1,), 5))"),
    ("data-str", "expect(ValueError, 'data must be bytes-like', lambda: _rebuild('uint8', (1,), 'a'))"),
    ("data-noncontiguous", "expect(ValueError, 'contiguous', lambda: _rebuild('float64', (2,), memoryview(b'\\0' * 32)[::2]))"),
    ("data-memoryview-ok", """
        a = _rebuild('float64', (2,), memoryview(np.arange(2.0)))
        assert a.tolist() == [0.0, 1.0]
        b = _rebuild('int16', (2,), memoryview(np.arange(2, dtype=np.int16)))
        assert b.tolist() == [0, 1]
    """),
    ("unknown-version", "expect(ValueError, 'unknown arrstride pickle format version', lambda: _unpickle(3, 'float64', (1,), b'\\0' * 8))"),
    ("format-2-payload-length", "expect(ValueError, 'format-2 payload', lambda: _unpickle(2, 'float64', (1,)))"),
    ("format-2-too-few-bytes", "expect(ValueError, 'buffer size does not match', lambda: _unpickle(2, 'float64', (1000,), bytearray(16)))"),
    ("format-2-out-of-band-wrong-size", """
        bufs = []
        s = pickle.dumps(xp.zeros(1024), protocol=5, buffer_callback=bufs.append)
        expect(ValueError, "buffer size does not match", lambda: pickle.loads(s, buffers=[bytearray(8 * 1023)]))
        expect(ValueError, "contiguous", lambda: pickle.loads(s, buffers=[memoryview(bytearray(8 * 2048))[::2]]))
        expect(pickle.UnpicklingError, "", lambda: pickle.loads(s))   # no buffers given
    """),
    ("format-2-every-header-edit", """
        # format 2 in band: every byte of the stream around the 4 KiB of data
        a = xp.arange(1024, dtype=xp.int32)
        s = pickle.dumps(a, protocol=5)
        head = len(s) - 4096 - 16
        for i in list(range(head)) + list(range(len(s) - 16, len(s))):
            for v in (0, 1, 0x7F, 0x80, 0xFF, s[i] ^ 1):
                t = s[:i] + bytes([v]) + s[i + 1:]
                try:
                    b = pickle.loads(t)
                except Exception:
                    continue
                if isinstance(b, xp.Array):
                    assert b.size * b.dtype.itemsize == 4096 or b.size == 0
                    np.asarray(b).tobytes()
    """),
    ("version-not-int", "expect(ValueError, 'unknown arrstride pickle format version', lambda: _unpickle('1', 'float64', (1,), b'\\0' * 8))"),
    ("payload-length", "expect(ValueError, 'format-1 payload', lambda: _unpickle(1, 'float64', (1,)))"),
    ("every-truncation", """
        for proto in (2, 4, 5):
            s = pickle.dumps(xp.reshape(xp.arange(6.0), (2, 3)), protocol=proto)
            for k in range(len(s)):
                try:
                    pickle.loads(s[:k])
                except Exception:
                    pass
                else:
                    raise AssertionError(f"a pickle cut to {k} bytes loaded")
    """),
    ("every-one-byte-edit", """
        # every byte of small pickles set to each of several values: an error or a
        # consistent array, never a crash or a short buffer read as data
        for proto in (2, 5):
            for a in (xp.arange(6, dtype=xp.int16), xp.ones((2, 2), dtype=xp.complex64)):
                s = pickle.dumps(a, protocol=proto)
                for i in range(len(s)):
                    for v in (0, 1, 2, 0x7F, 0x80, 0xFF, s[i] ^ 1):
                        t = s[:i] + bytes([v]) + s[i + 1:]
                        try:
                            b = pickle.loads(t)
                        except Exception:
                            continue
                        if isinstance(b, xp.Array):
                            assert b.size * b.dtype.itemsize == a.size * a.dtype.itemsize or b.size == 0
                            b.tolist()
    """),
]


@cases(PICKLE)
def test_pickle(code):
    run_case(code)


FIXTURES = Path(__file__).resolve().parent / "data" / "pickles"


def _fixture_expected():
    """What each committed pickle file holds, rebuilt from its recipe with NumPy."""
    out = {}
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float32", "float64", "complex64", "complex128"):
        base = np.arange(-6, 6).reshape(3, 4)
        out[name] = (base % 2 == 0) if name == "bool" else (base * (1 + 1j) if name.startswith("complex") else base).astype(name)
    out["zero_d"] = np.asarray(2.5)
    out["empty"] = np.zeros((0, 3), dtype=np.int32)
    out["view"] = np.arange(24.0).reshape(4, 6)[::-2, 1::2].T
    return out


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.pkl")), ids=lambda p: p.name)
def test_committed_pickles_keep_loading(path):
    # written by earlier arrstride versions (tests/data/pickles/make.py says which);
    # each must load, in every later version, to the same values
    with open(path, "rb") as f:
        arrays = pickle.load(f)
    expected = _fixture_expected()
    assert set(arrays) == set(expected)
    for name, a in arrays.items():
        assert isinstance(a, xp.Array)
        e = expected[name]
        assert a.dtype == e.dtype.name and a.shape == e.shape, name
        np.testing.assert_array_equal(np.asarray(a), e)


def test_both_formats_are_committed():
    names = {p.name for p in FIXTURES.glob("*.pkl")}
    assert any(n.startswith("format0") for n in names) and any(n.startswith("format1") for n in names)


# ---- DLPack ------------------------------------------------------------------------------

DLPACK = [
    ("good-legacy", """
        a = xp.from_dlpack(tensor((2, 4)))
        assert a.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
        del a; deleted_once()
    """),
    ("good-versioned-readonly", """
        a = xp.from_dlpack(tensor((8,), versioned=True, flags=1))
        assert a.tolist() == list(range(8))
        expect(ValueError, "read-only", lambda: a.__setitem__(0, 1.0))
        del a; deleted_once()
    """),
    ("negative-dim", "expect(BufferError, 'each dimension', lambda: xp.from_dlpack(tensor((-1,)))); deleted_once()"),
    ("negative-dims-versioned", "expect(BufferError, 'each dimension', lambda: xp.from_dlpack(tensor((2, -5), versioned=True))); deleted_once()"),
    ("stride-overflow", "expect(BufferError, 'address space', lambda: xp.from_dlpack(tensor((2, 2), strides=(2**62, 1)))); deleted_once()"),
    ("stride-product-overflow", "expect(BufferError, 'address space', lambda: xp.from_dlpack(tensor((3,), strides=(2**63 - 1,)))); deleted_once()"),
    ("negative-stride-below-zero", "expect(BufferError, 'address space', lambda: xp.from_dlpack(tensor((2,), strides=(-2**60,), data=64))); deleted_once()"),
    ("lanes", "expect(BufferError, 'unsupported DLPack dtype', lambda: xp.from_dlpack(tensor(lanes=2))); deleted_once()"),
    ("unknown-code", "expect(BufferError, 'unsupported DLPack dtype', lambda: xp.from_dlpack(tensor(code=99))); deleted_once()"),
    ("bits-mismatch", "expect(BufferError, 'unsupported DLPack dtype', lambda: xp.from_dlpack(tensor(code=2, bits=80))); deleted_once()"),
    ("null-data-nonempty", "expect(BufferError, 'NULL', lambda: xp.from_dlpack(tensor((4,), data=0))); deleted_once()"),
    ("null-data-empty-ok", """
        a = xp.from_dlpack(tensor((0, 3), data=0))
        assert a.shape == (0, 3)
        del a; deleted_once()
    """),
    ("null-shape", "expect(BufferError, 'no shape', lambda: xp.from_dlpack(tensor((4,), shape_ptr=False))); deleted_once()"),
    ("ndim-negative", "expect(BufferError, 'dimensions', lambda: xp.from_dlpack(tensor((4,), ndim=-1))); deleted_once()"),
    ("ndim-huge", "expect(BufferError, 'dimensions', lambda: xp.from_dlpack(tensor((4,), ndim=1000))); deleted_once()"),
    ("byte-offset-huge", "expect(BufferError, 'address', lambda: xp.from_dlpack(tensor((4,), byte_offset=2**64 - 8))); deleted_once()"),
    ("device-cuda", "expect(BufferError, 'CPU memory only', lambda: xp.from_dlpack(tensor(device=2))); deleted_once()"),
    ("major-version", "expect(BufferError, 'major version', lambda: xp.from_dlpack(tensor(versioned=True, major=2))); deleted_once()"),
    ("unaligned-copied", """
        a = xp.from_dlpack(tensor((3,), byte_offset=1, code=1, bits=16))
        import struct
        raw = bytes(KEEP[0])[1:7]
        assert a.tolist() == list(struct.unpack("<3h", raw))
        gc.collect(); assert len(DELETED) == 1  # copied: the producer is released at once
        del a
    """),
    ("deleter-raises-runs-once", """
        a = xp.from_dlpack(tensor((4,), raising=True))
        assert a.tolist() == [0, 1, 2, 3]
        del a; deleted_once()
        expect(BufferError, 'unsupported', lambda: xp.from_dlpack(tensor(lanes=4, raising=True)))
        gc.collect(); assert len(DELETED) == 2
    """),
    ("capsule-twice", """
        c = tensor((4,))
        a = xp.from_dlpack(c)
        expect(ValueError, 'already consumed', lambda: xp.from_dlpack(c))
        del a; deleted_once()
    """),
    ("views-outlive-capsule", """
        a = xp.from_dlpack(tensor((8,)))
        v = a[::-3]
        del a; gc.collect()
        assert DELETED == []
        assert v.tolist() == [7.0, 4.0, 1.0]
        del v; deleted_once()
    """),
]


@cases(DLPACK)
def test_dlpack(code):
    run_case(code)


# ---- __array_interface__ -------------------------------------------------------------

IFACE = [
    ("good", "a = xp.asarray(Iface(shape=(2, 4))); assert a.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]"),
    ("good-strided", "a = xp.asarray(Iface(shape=(2, 2), strides=(32, -8), offset=8)); assert a.tolist() == [[1, 0], [5, 4]]"),
    ("read-only-flag", """
        o = Iface(); o.__array_interface__["data"] = (o.__array_interface__["data"][0], True)
        b = xp.asarray(o)
        expect(ValueError, "read-only", lambda: b.__setitem__(0, 1.0))
    """),
    ("negative-dim", "expect(ValueError, 'each dimension', lambda: xp.asarray(Iface(shape=(-1,))))"),
    ("float-dim", "expect(TypeError, 'shape must be a tuple of ints', lambda: xp.asarray(Iface(shape=(2.0,))))"),
    ("shape-not-tuple", "expect(TypeError, 'shape must be a tuple of ints', lambda: xp.asarray(Iface(shape=8)))"),
    ("too-many-dims", "expect(ValueError, 'at most 64', lambda: xp.asarray(Iface(shape=(1,) * 65)))"),
    ("strides-length", "expect(ValueError, 'one entry per dimension', lambda: xp.asarray(Iface(shape=(2, 4), strides=(8,))))"),
    ("strides-not-items", "expect(ValueError, 'multiples of the item size', lambda: xp.asarray(Iface(shape=(4,), strides=(3,))))"),
    ("strides-overflow", "expect(ValueError, 'address space', lambda: xp.asarray(Iface(shape=(3,), strides=(2**62,))))"),
    ("strides-before-zero", "expect(ValueError, 'address space', lambda: xp.asarray(Iface(shape=(3,), strides=(-2**61,))))"),
    ("typestr-unknown", "expect(TypeError, 'unsupported element type', lambda: xp.asarray(Iface(typestr='<f16')))"),
    ("typestr-big-endian", "expect(TypeError, 'unsupported element type', lambda: xp.asarray(Iface(typestr='>f8')))"),
    ("typestr-not-str", "expect(TypeError, 'typestr', lambda: xp.asarray(Iface(typestr=8)))"),
    ("typestr-pipe-wide", "expect(TypeError, 'unsupported element type', lambda: xp.asarray(Iface(typestr='|f8')))"),
    ("version", "expect(ValueError, 'version must be 3', lambda: xp.asarray(Iface(version=2)))"),
    ("data-not-int", "expect(TypeError, 'data', lambda: xp.asarray(Iface(data=(1.5, False))))"),
    ("data-triple", "expect(TypeError, 'data', lambda: xp.asarray(Iface(data=(1, False, 3))))"),
    ("data-null", "expect(ValueError, 'NULL', lambda: xp.asarray(Iface(data=(0, False))))"),
    ("data-past-address-space", "expect(ValueError, 'address', lambda: xp.asarray(Iface(data=(2**64, False))))"),
    ("data-negative", "expect(ValueError, 'address', lambda: xp.asarray(Iface(data=(-8, False))))"),
    ("offset-negative", "expect(ValueError, 'offset', lambda: xp.asarray(Iface(offset=-8)))"),
    ("mask", "expect(TypeError, 'mask', lambda: xp.asarray(Iface(mask=object())))"),
    ("unaligned-copied", """
        o = Iface(shape=(3,), typestr='<i4', offset=1)
        a = xp.asarray(o)
        assert a.tolist() == list(np.frombuffer(bytes(o.mem)[1:13], dtype='<i4'))
        assert a.storage.address % 4 == 0
        expect(ValueError, 'copy=False', lambda: xp.asarray(o, copy=False))
    """),
    ("empty-any-address", "a = xp.asarray(Iface(shape=(0, 5), data=(0, False))); assert a.shape == (0, 5)"),
]


@cases(IFACE)
def test_array_interface(code):
    run_case(code)


# ---- the buffer protocol ---------------------------------------------------------------

BUFFER = [
    ("odd-format-long-double", "expect(TypeError, 'unsupported buffer format', lambda: xp.asarray(np.zeros(2, dtype=np.longdouble)))"),
    ("odd-format-pointer", "expect(TypeError, 'unsupported buffer format', lambda: xp.asarray(memoryview(bytearray(16)).cast('P')))"),
    ("odd-format-struct", "expect(TypeError, 'unsupported buffer format', lambda: xp.asarray(np.zeros(2, dtype=[('a', '<i4'), ('b', '<f8')])))"),
    ("big-endian", "expect(TypeError, 'unsupported', lambda: xp.asarray(np.zeros(3, dtype='>f8')))"),
    ("ctypes-long", "a = xp.asarray((ctypes.c_long * 3)(1, 2, 3)); assert a.dtype == xp.int64 and a.tolist() == [1, 2, 3]"),
    ("ctypes-nested", "a = xp.asarray((ctypes.c_double * 2 * 3)()); assert a.shape == (3, 2)"),
    ("unaligned-copied", """
        mv = memoryview(bytes(1) + np.arange(4.0).tobytes())[1:].cast('d')
        a = xp.asarray(mv)
        assert a.tolist() == [0.0, 1.0, 2.0, 3.0] and a.storage.address % 8 == 0
        expect(ValueError, 'copy=False', lambda: xp.asarray(mv, copy=False))
    """),
    ("numpy-unaligned-view", """
        n = np.frombuffer(bytes(1) + np.arange(5.0).tobytes(), dtype=np.uint8)[1:].view(np.float64)
        assert not n.flags.aligned
        a = xp.asarray(n)
        assert a.tolist() == n.tolist() and a.storage.address % 8 == 0
    """),
    ("many-dims", """
        t = ctypes.c_double
        for _ in range(70):  # ctypes exports all 70 dims (memoryview itself stops at 64)
            t = t * 1
        expect(ValueError, 'at most 64 dimensions', lambda: xp.asarray(t()))
    """),
    ("zero-d-and-empty", """
        assert xp.asarray(memoryview(np.float64(3.0))).shape == ()
        assert xp.asarray(np.zeros((0, 3))).shape == (0, 3)
        assert xp.asarray(memoryview(bytearray(0))).shape == (0,)
    """),
    ("suboffsets-copied", """
        import _testbuffer as tb  # CPython's own exporter of PIL-style buffers
        nd = tb.ndarray(list(range(12)), shape=[3, 4], format='d', flags=tb.ND_PIL)
        assert memoryview(nd).suboffsets
        a = xp.asarray(nd)
        assert a.tolist() == memoryview(nd).tolist()
        expect(ValueError, 'suboffsets', lambda: xp.asarray(nd, copy=False))
        nd = tb.ndarray(list(range(12)), shape=[3, 4], strides=[-32, 8], offset=64, format='q')
        assert xp.asarray(nd).tolist() == memoryview(nd).tolist()
    """),
    ("bytes-read-only", """
        a = xp.asarray(memoryview(b'abcd'))
        expect(ValueError, 'read-only', lambda: a.__setitem__(0, 1))
    """),
]


@cases(BUFFER)
def test_buffer_protocol(code):
    run_case(code)


# ---- _core's C entry points, shapes and indices ----------------------------------------

CORE = [
    ("new-wrong-kinds", "expect(TypeError, 'expected a Storage', lambda: _core.new(1, 2, 3))"),
    ("new-numpy-dtype", "x = xp.ones(2); expect(TypeError, 'expected a Storage', lambda: _core.new(x._storage, x._layout, np.dtype('float64')))"),
    ("new-layout-past-storage", "x = xp.ones(2); expect(ValueError, 'outside the storage', lambda: _core.new(x._storage, xp.ones(3)._layout, xp.float64))"),
    ("new-wider-dtype", "x = xp.ones(2, dtype=xp.int8); expect(ValueError, 'outside the storage', lambda: _core.new(x._storage, x._layout, xp.float64))"),
    ("new-negative-offset", """
        from arrstride import _layout as L
        x = xp.ones(4)
        expect(ValueError, 'outside the storage', lambda: _core.new(x._storage, L.Layout((2,), (1,), -1), xp.float64))
        expect(ValueError, 'outside the storage', lambda: _core.new(x._storage, L.Layout((3,), (2**62,), 0), xp.float64))
        assert _core.new(x._storage, L.Layout((0, 5), (2**62, 2**62), 0), xp.float64).shape == (0, 5)
    """),
    ("empty-junk", """
        for args in [((2,), 5), ((2.0,), xp.float64), ([2], xp.float64), ((-1,), xp.float64),
                     ((2**64,), xp.float64), ((2**62, 4), xp.float64)]:
            try:
                r = _core.empty(*args)
            except (TypeError, ValueError, MemoryError):
                continue
            assert r is None, args
    """),
    ("scalar-junk", """
        for args in [(1.0, 3), ("a",), (2**70,), (1j, xp.int8), (float('nan'), xp.int64), (object(),)]:
            try:
                r = _core.scalar(*args)
            except (TypeError, ValueError, OverflowError):
                continue
            assert r is None or isinstance(r, xp.Array), args
    """),
    ("from-list-junk", """
        for v in [[1.0, 'a'], [1, 2**70], [[1.0]], [1.0, None], [], [True, 2]]:
            r = _core.from_list(v)
            assert r is None or r.tolist() == v, v
    """),
    ("other-entry-points-junk", """
        x = xp.ones((2, 3))
        for f in ("reshape", "reduce_all", "reduce_into", "copy_into", "cast", "overlaps", "where", "matmul", "from_buffer"):
            for args in [(), (1,), (1, 2), (x, 1), (1, 2, 3), (x, x, x), (x, (2,), 5), (1, 2, 3, 4, 5)]:
                try:
                    getattr(_core, f)(*args)
                except (TypeError, ValueError, IndexError, RuntimeError):
                    pass
    """),
    ("shapes-past-int64", """
        for call in [lambda: xp.ones((2**64, 0)), lambda: xp.tile(xp.zeros((0, 3)), (2**62, 2**62)),
                     lambda: xp.reshape(xp.zeros(0), (0, 2**63)), lambda: xp.broadcast_to(xp.zeros((1, 0)), (2**64, 0)),
                     lambda: xp.expand(xp.zeros((1, 0)), (2**63, 0))]:
            expect(ValueError, 'maximum allowed dimension exceeded', call)
    """),
    ("empty-result-out-of-bounds", """
        expect(IndexError, 'index 5 is out of bounds for axis 0 with size 2', lambda: xp.zeros((2, 0))[[0, 5]])
        expect(IndexError, 'out of bounds', lambda: xp.take(xp.zeros((2, 0)), xp.asarray([5]), axis=0))
        expect(IndexError, 'out of bounds', lambda: xp.zeros((2, 0))[xp.asarray([-3])])
        expect(IndexError, 'out of bounds', lambda: xp.take(xp.arange(3.0), xp.asarray([2**64 - 1], dtype=xp.uint64)))
        z = xp.zeros((2, 0)); z[xp.asarray([1, -2])] = 1.0
        expect(IndexError, 'out of bounds', lambda: z.__setitem__(xp.asarray([2]), 1.0))
    """),
    ("as-strided-outside", """
        x = xp.arange(8.0)
        for shape, strides, offset in [((3,), (4,), 0), ((2,), (-1,), 0), ((2**62,), (2**62,), 0), ((2,), (1,), 7),
                                       ((1,), (1,), -1), ((2, 2), (2**63 - 1, 1), 0)]:
            expect((ValueError, TypeError), '', lambda: xp.as_strided(x, shape, strides, offset))
    """),
]


@cases(CORE)
def test_core_shapes_indices(code):
    run_case(code)


# ---- Python sequences that lie or change while they are read ----------------------------
# (native/core/seq.c: one reader; a lie is a ValueError, nothing is written past the
# buffer and no element is left unset)

SEQUENCES = [
    ("len-smaller-than-items", """
        for values in ([1.0] * 100000, [1] * 100000, [True] * 1000, [1j] * 1000):
            expect(ValueError, LEN, lambda: xp.asarray(LenLie(values)))
            expect(ValueError, LEN, lambda: xp.asarray(LenLie(values), dtype=xp.float32))
    """),
    ("len-larger-than-items", """
        for values in ([7.0] * 3, [7] * 3, [True] * 3, [7j] * 3):
            expect(ValueError, LEN, lambda: xp.asarray(LenBig(values)))
            expect(ValueError, LEN, lambda: xp.asarray(LenBig(values), dtype=xp.int8))
    """),
    ("nested-and-tuple-lies", """
        expect(ValueError, LEN, lambda: xp.asarray([[1.0, 2.0], LenLie([3.0, 4.0])]))
        expect(ValueError, LEN, lambda: xp.asarray([LenBig([1.0, 2.0]), [3.0, 4.0]]))
        expect(ValueError, LEN, lambda: xp.asarray(TupleLie((1.0, 2.0, 3.0))))
        expect(ValueError, LEN, lambda: xp.asarray((LenLie([1, 2]), LenLie([3, 4]))))
    """),
    ("iter-lies", """
        # a subclass is read through its iterator, as NumPy reads it; its len() must agree
        expect(ValueError, LEN, lambda: xp.asarray(IterLie([1.0, 2.0, 3.0])))
        class Other(list):
            def __iter__(self): return iter([5.0, 6.0])
        assert xp.asarray(Other([1.0, 2.0])).tolist() == np.asarray(Other([1.0, 2.0])).tolist() == [5.0, 6.0]
        class Endless(list):
            def __iter__(self):
                while True:
                    yield 1.0
                    if len(self) > 10**6: raise RuntimeError("endless")
                    self.append(1.0)
        expect(RuntimeError, "endless", lambda: xp.asarray(Endless([1.0])))
    """),
    ("item-conversion-clears-the-list", """
        L = []
        class F(float):
            def __float__(self): L.clear(); return 5.0
        class I(int):
            def __int__(self): L.clear(); return 5
            def __index__(self): L.clear(); return 5
            def __bool__(self): L.clear(); return True
            def __float__(self): L.clear(); return 5.0
        class C(complex):
            def __complex__(self): L.clear(); return 5j
        for make, values, dtype, want in [
                (F, [1.5, 2.5], None, [1.5, 2.5]), (F, [1.5, 2.5], xp.int16, [1, 2]),
                (I, [1, 2], None, [1, 2]), (I, [1, 2], xp.float32, [1.0, 2.0]),
                (I, [1, 0], xp.bool, [True, True]), (C, [1j, 2], None, [1j, 2])]:
            L[:] = [make(v) for v in values] * 5000
            got = xp.asarray(L, dtype=dtype)
            assert got.shape == (10000,), got.shape
            assert got[:2].tolist() == want, (got[:2].tolist(), want)
            L[:] = [[make(v)] for v in values] * 5000
            assert xp.asarray(L, dtype=dtype).shape == (10000, 1)
    """),
    ("exporter-leaf-changes-the-outer-list", """
        keep = np.ones(2)
        outer = []
        class Shrinks:
            @property
            def __array_interface__(self):
                del outer[1:]
                return keep.__array_interface__
        outer[:] = [Shrinks() for _ in range(1000)]
        expect(ValueError, "changed size while it was being converted", lambda: xp.asarray(outer))
        outer[:] = [[Shrinks()] for _ in range(1000)]
        expect(ValueError, "changed size while it was being converted", lambda: xp.asarray(outer))
    """),
    ("another-thread-shortens-the-list", """
        import threading
        for _ in range(3):
            nested = [[1.0, 2.0] for _ in range(100000)]
            stop = threading.Event()
            def shorten():
                while not stop.is_set():
                    del nested[10:]
                    nested.extend([[1.0, 2.0]] * 10)
            t = threading.Thread(target=shorten)
            t.start()
            try:
                for _ in range(20):
                    try:
                        r = xp.asarray(nested)
                    except ValueError as e:
                        assert "changed size" in str(e) or "inhomogeneous" in str(e), e
                        continue
                    assert r.shape[1:] == (2,) and r.shape[0] >= 10
                    assert bool(xp.all((r[:, 0] == 1.0) & (r[:, 1] == 2.0)))
            finally:
                stop.set()
                t.join()
    """),
    ("keys-take-searchsorted-with-lies", """
        x = xp.arange(10.0)
        expect(ValueError, LEN, lambda: x[LenLie([1] * 100000)])
        expect(ValueError, LEN, lambda: x[LenBig([1, 2])])
        expect(ValueError, LEN, lambda: x.__setitem__(LenLie([1] * 100000), 1.0))
        expect(ValueError, LEN, lambda: x.__setitem__(LenBig([1, 2]), 1.0))
        expect(ValueError, LEN, lambda: xp.take(x, xp.asarray(LenLie([1] * 1000))))
        expect(ValueError, LEN, lambda: xp.searchsorted(x, xp.asarray(LenBig([1.0]))))
        assert x[[]].shape == (0,) and x[[1, 3]].tolist() == [1.0, 3.0]
    """),
    ("ragged-and-deep", """
        for bad in ([[1.0, 2.0], [3.0]], [1.0, [2.0]], [[1.0], 2.0], [[], [1]], [[[1]], [2]]):
            expect(ValueError, "inhomogeneous shape", lambda: xp.asarray(bad))
        deep = [1.0]
        for _ in range(1000):
            deep = [deep]
        expect(ValueError, "maximum number of dimensions", lambda: xp.asarray(deep))
        ok = [1.0]
        for _ in range(63):
            ok = [ok]
        assert xp.asarray(ok).shape == (1,) * 64
    """),
    ("len-that-raises", """
        class Raises(list):
            def __len__(self): raise RuntimeError("len refused")
        expect(RuntimeError, "len refused", lambda: xp.asarray(Raises([1.0, 2.0])))
    """),
]


@cases(SEQUENCES)
def test_sequences_that_lie(code):
    run_case(code)


# ---- the fuzz targets' corpus and findings, replayed ------------------------------------

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("target", ["pickle", "dlpack", "asarray", "views", "index", "sequences", "npy"])
def test_fuzz_corpus_and_findings_replay(target):
    # every seed of fuzz/corpus/TARGET and every finding kept in tests/data/fuzz
    # (TARGET-*) through the target and its oracle, in its own interpreter:
    # what the fuzzer once found stays fixed, in the normal and sanitizer builds
    files = sorted((ROOT / "fuzz" / "corpus" / target).glob("*"))
    files += sorted((Path(__file__).resolve().parent / "data" / "fuzz").glob(f"{target}-*"))
    assert files
    run_case(f"""
        sys.path.insert(0, {str(ROOT / 'fuzz')!r})
        import targets
        for path in {[str(f) for f in files]!r}:
            with open(path, 'rb') as f:
                targets.TARGETS[{target!r}](f.read())
    """)
