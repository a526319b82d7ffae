"""save/load/savez in NumPy's .npy/.npz format, and frombuffer, against NumPy;
untrusted files (truncated, forged, wrong size) refused with a ValueError."""
import io
import struct
import subprocess
import sys

import numpy as np
import pytest

import arrstride as xp

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def npy_bytes(a) -> bytes:
    f = io.BytesIO()
    np.save(f, a)
    return f.getvalue()


def xp_bytes(x) -> bytes:
    f = io.BytesIO()
    xp.save(f, x)
    return f.getvalue()


def load_bytes(b: bytes):
    return xp.load(io.BytesIO(b))


def sample(dtype, shape=(3, 4)):
    return (np.arange(int(np.prod(shape))) % 7 - 2).reshape(shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["c", "t", "step", "neg", "empty", "0d", "bcast"])
def test_save_any_layout_loads_in_numpy(dtype, layout, tmp_path):
    a = sample(dtype, (4, 6))
    x = xp.asarray(a)
    view, want = {
        "c": (x, a), "t": (x.T, a.T), "step": (x[::2, 1::3], a[::2, 1::3]),
        "neg": (x[::-1, ::-2], a[::-1, ::-2]), "empty": (x[:0], a[:0]), "0d": (x[1, 2], a[1, 2]),
        "bcast": (xp.broadcast_to(x[0], (3, 6)), np.broadcast_to(a[0], (3, 6))),
    }[layout]
    # the same bytes as NumPy writes
    assert xp_bytes(view) == npy_bytes(np.array(want, order="C"))
    xp.save(tmp_path / "a", view)  # .npy appended, as NumPy does
    got = np.load(tmp_path / "a.npy")
    assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
    back = xp.load(tmp_path / "a.npy")
    assert back.dtype == getattr(xp, dtype) and np.array_equal(np.asarray(back), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_load_numpy_files(dtype):
    a = sample(dtype, (3, 5))
    for arr in (a, np.asfortranarray(a), a.astype(a.dtype.newbyteorder(">")), a[:, :0], a[0, 0]):
        got = load_bytes(npy_bytes(arr))
        assert got.shape == arr.shape and np.array_equal(np.asarray(got), arr)
    # a Fortran-order file comes back as the transposed view of its data, like NumPy's
    f = load_bytes(npy_bytes(np.asfortranarray(a)))
    assert f.strides == (1, 3)


def test_header_versions_and_sequential_arrays():
    body = b"{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }"
    data = np.arange(3.0).tobytes()
    for major in (2, 3):
        pad = 64 - (12 + len(body) + 1) % 64
        v = b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<I", len(body) + pad + 1) + body + b" " * pad + b"\n"
        assert load_bytes(v + data).tolist() == [0.0, 1.0, 2.0]
    # two arrays in one open file, read one after the other as np.load does
    f = io.BytesIO()
    xp.save(f, xp.arange(3))
    xp.save(f, xp.ones(2))
    f.seek(0)
    assert xp.load(f).tolist() == [0, 1, 2]
    assert xp.load(f).tolist() == [1.0, 1.0]


def test_savez(tmp_path):
    x, y = xp.arange(5, dtype=xp.int32), xp.reshape(xp.arange(6.0), (2, 3)).T
    xp.savez(tmp_path / "z", x, y=y)
    with np.load(tmp_path / "z.npz") as z:
        assert sorted(z.files) == ["arr_0", "y"]
        assert np.array_equal(z["arr_0"], np.arange(5, dtype=np.int32))
        assert np.array_equal(z["y"], np.arange(6.0).reshape(2, 3).T)
    xp.savez_compressed(tmp_path / "c.npz", big=xp.zeros(10000))
    assert (tmp_path / "c.npz").stat().st_size < 2000
    np.savez(tmp_path / "n.npz", a=np.arange(4), b=np.eye(2, dtype=np.complex64))
    with xp.load(tmp_path / "n.npz") as z:
        assert z["a"].tolist() == [0, 1, 2, 3] and "b" in z and len(z) == 2
        assert np.array_equal(np.asarray(z["b"]), np.eye(2, dtype=np.complex64))
        with pytest.raises(KeyError):
            z["missing"]
    with pytest.raises(ValueError, match="cannot use un-named variables and keyword"):
        xp.savez(tmp_path / "bad", xp.ones(1), arr_0=xp.ones(1))


def test_bfloat16():
    ml = pytest.importorskip("ml_dtypes")
    x = xp.asarray([1.5, -2.0, 3.25], dtype=xp.bfloat16)
    b = xp_bytes(x)
    assert b == npy_bytes(np.asarray([1.5, -2.0, 3.25], dtype=ml.bfloat16))
    assert load_bytes(b).dtype == xp.bfloat16
    assert load_bytes(b).tolist() == [1.5, -2.0, 3.25]


def test_bfloat16_without_ml_dtypes(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_ml(name, *args, **kw):
        if name == "ml_dtypes":
            raise ImportError("no ml_dtypes")
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_ml)
    with pytest.raises(TypeError, match="save: bfloat16 is written with ml_dtypes' descriptor"):
        xp_bytes(xp.ones(2, dtype=xp.bfloat16))
    with pytest.raises(ValueError, match="load: a '<V2' array is read as bfloat16"):
        load_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", 118)
                   + b"{'descr': '<V2', 'fortran_order': False, 'shape': (1,), }".ljust(117) + b"\n\x00\x00")


def _forge(header: str, data: bytes = b"") -> bytes:
    body = header.encode("latin1")
    pad = -(10 + len(body) + 1) % 64
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(body) + pad + 1) + body + b" " * pad + b"\n" + data


GOOD = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"


@pytest.mark.parametrize("blob,fragment", [
    (b"", "not a .npy or .npz file"),
    (b"\x93NUMP", "not a .npy or .npz file"),
    (b"\x93NUMPY\x01", "load: not a .npy file: the magic string is missing"),
    (b"\x93NUMPY\x09\x00\x10\x00", "unsupported .npy format version"),
    (b"\x93NUMPY\x01\x00\x40", "the .npy header is truncated"),
    (b"\x93NUMPY\x01\x00\x40\x00{'descr'", "the .npy header is truncated"),
    (b"\x93NUMPY\x02\x00\xff\xff\xff\x7f", "header is longer than 10000 bytes"),
    (_forge("{'descr': '<f8', 'fortran_order': False}", b"\0" * 8), "exactly the keys"),
    (_forge("__import__('os').system('true')"), "not a Python dict literal"),
    (_forge("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }"), "non-negative ints"),
    (_forge("{'descr': '<f8', 'fortran_order': False, 'shape': (2.0,), }"), "non-negative ints"),
    (_forge("{'descr': '<f8', 'fortran_order': 1, 'shape': (2,), }"), "fortran_order is not a bool"),
    (_forge("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }"), "object arrays need pickle"),
    (_forge("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,), }"), "only plain dtypes"),
    (_forge("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }"), "not one arrstride has"),
    (_forge("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (2**62, 2**62)), "shape is too large"),
    (_forge("{'descr': '<f8', 'fortran_order': False, 'shape': %r, }" % ((1,) * 65,)), "more than 64 dims"),
    (_forge(GOOD, b"\0" * 15), "the file is shorter than its header says"),
    (_forge(GOOD), "the file is shorter than its header says"),
])
def test_untrusted_files_refused(blob, fragment):
    with pytest.raises(ValueError, match=fragment):
        load_bytes(blob)


def test_wrong_size_file_refused(tmp_path):
    p = tmp_path / "x.npy"
    for extra in (b"", b"\0" * 7, b"\0" * 17):
        p.write_bytes(_forge(GOOD, extra))
        with pytest.raises(ValueError, match="load: the file's size does not match its header"):
            xp.load(p)
    p.write_bytes(_forge(GOOD, b"\0" * 16))
    assert xp.load(p).tolist() == [0.0, 0.0]
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04garbage")
    with pytest.raises(ValueError, match="load: not a valid .npz"):
        xp.load(tmp_path / "bad.npz")


def test_a_short_open_file_is_refused_before_its_array_is_allocated(tmp_path):
    # a header that claims 10 GB over 6 data bytes: refused from the stream's size,
    # under an address-space limit that a 10 GB allocation would hit (Linux: /proc)
    blob = _forge("{'descr': '>u8', 'fortran_order': True, 'shape': (3, 466666, 3, 74, 4), }", b"\0" * 6)
    (tmp_path / "short.npy").write_bytes(blob)
    code = f"""
import io, resource, arrstride as xp
with open("/proc/self/status") as f:  # what is mapped now (under ASan: its shadow too), plus 4 GB
    vm = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (vm + (4 << 30), resource.RLIM_INFINITY))
with open({str(tmp_path / "short.npy")!r}, "rb") as f:
    try:
        xp.load(f)
    except ValueError as e:
        print(e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "load: the file is shorter than its header says; got 6 of 9945585792 data bytes" in out.stdout


def test_load_reads_through_read_alone_and_leaves_what_follows():
    class ReadOnly:  # read, seek and tell: no readinto, no seekable
        def __init__(self, b):
            self.f = io.BytesIO(b)

        def read(self, n=-1):
            return self.f.read(min(n, 5) if n >= 0 else n)  # short reads

        def seek(self, *args):
            return self.f.seek(*args)

        def tell(self):
            return self.f.tell()

    a, b = np.arange(12, dtype=">i4").reshape(3, 4), np.asfortranarray(np.arange(6.0).reshape(2, 3))
    s = ReadOnly(npy_bytes(a) + npy_bytes(b) + b"tail")
    assert np.array_equal(np.asarray(xp.load(s)), a)
    assert np.array_equal(np.asarray(xp.load(s)), b)
    assert s.read(10) == b"tail"


def test_pickle_never():
    with pytest.raises(ValueError, match="load: allow_pickle must be False"):
        load_bytes(npy_bytes(np.arange(2)) if False else b"", ) if False else xp.load(io.BytesIO(b""), allow_pickle=True)
    with pytest.raises(ValueError, match="save: allow_pickle must be False"):
        xp.save(io.BytesIO(), xp.ones(1), allow_pickle=True)
    with pytest.raises(ValueError, match="object arrays need pickle"):
        load_bytes(npy_bytes(np.array([None, 1], dtype=object)))
    with pytest.raises(TypeError, match="load: file must be a path or a binary file"):
        xp.load(3)
    with pytest.raises(ValueError, match="mmap_mode is not supported"):
        xp.load(io.BytesIO(b""), mmap_mode="r")


# ---- frombuffer -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_frombuffer_matches_numpy(dtype):
    raw = bytes(range(1, 2)) * 0 + bytes(b % 2 if dtype == "bool" else b for b in range(64))
    for count, offset in ((-1, 0), (3, 0), (2, 16), (0, 8)):
        want = np.frombuffer(raw, dtype=dtype, count=count, offset=offset)
        got = xp.frombuffer(raw, dtype=getattr(xp, dtype), count=count, offset=offset)
        assert got.tobytes() == want.tobytes() if hasattr(got, "tobytes") else np.array_equal(np.asarray(got), want)
        assert np.asarray(got).tobytes() == want.tobytes() and got.shape == want.shape


def test_frombuffer_shares_memory():
    buf = bytearray(16)
    x = xp.frombuffer(buf, dtype=xp.int32)
    x[1] = 7
    assert buf[4] == 7
    buf[8] = 5
    assert x[2] == 5
    ro = xp.frombuffer(b"\x00" * 8)
    assert ro.tolist() == [0.0]
    with pytest.raises(ValueError):
        ro[0] = 1.0
    assert xp.frombuffer(memoryview(buf)[4:12], dtype=xp.int32).tolist() == [7, 5]


@pytest.mark.parametrize("call,exc,fragment", [
    (lambda: xp.frombuffer(b"\0" * 7), ValueError, "frombuffer: the buffer's size must be a multiple"),
    (lambda: xp.frombuffer(b"\0" * 8, count=2), ValueError, "buffer is smaller than requested"),
    (lambda: xp.frombuffer(b"\0" * 8, offset=9), ValueError, "offset must be non-negative"),
    (lambda: xp.frombuffer(b"\0" * 8, offset=-1), ValueError, "offset must be non-negative"),
    (lambda: xp.frombuffer(b"\0" * 8, count=-2), ValueError, "count must be -1"),
    (lambda: xp.frombuffer(b"\2\0", dtype=xp.bool), ValueError, "bool elements must be the bytes 0 or 1"),
    (lambda: xp.frombuffer(3), TypeError, "frombuffer: buffer must support the buffer protocol"),
    (lambda: xp.frombuffer(b"\0" * 8, dtype="S3"), TypeError, "frombuffer: dtype must be"),
])
def test_frombuffer_errors(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()
