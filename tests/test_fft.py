"""The fft extension against numpy.fft: lengths (powers of two, mixed, primes
small and large), both precisions, every layout, batches, axes, norms,
padding and truncation, round trips, helpers and errors."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from arrstride import _kernels as K
from layouts import EXTRA, SHAPED, params, view_of

NORMS = ["backward", "ortho", "forward"]
LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 25, 27, 30, 32, 49, 60, 64,
           97, 100, 101, 121, 128, 210, 243, 256, 257, 360, 625, 1000, 1009, 1024, 2310, 4096]


def to_np(a) -> np.ndarray:
    """An arrstride array's values as a NumPy array (through its bytes)."""
    c = a.contiguous()
    raw = K.read_bytes(c, c.size * c.dtype.itemsize) if c.size else b""
    return np.frombuffer(raw, dtype=np.dtype(a.dtype.name)).reshape(a.shape).copy()


def from_np(n: np.ndarray):
    return xp.asarray(np.array(n, order="C"), copy=True)


def rand(shape, dtype, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    nd = np.dtype(dtype)
    if nd.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(nd)
    return rng.standard_normal(shape).astype(nd)


def check(got, want, dtype=None) -> None:
    """Values equal up to the precision of `got`, relative to the largest magnitude."""
    g = to_np(got)
    want = np.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    if dtype is not None:
        assert got.dtype == dtype
    single = got.dtype in (xp.float32, xp.complex64)
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-30)
    tol = (2e-5 if single else 1e-12) * (1 + np.log2(max(want.size, 2)))
    err = float(np.max(np.abs(g - want))) / scale if want.size else 0.0
    assert err <= tol, f"relative error {err} > {tol}"


# ---- one-dimensional transforms against NumPy -------------------------------------------

@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_fft_ifft_lengths(n, dtype):
    x = rand((n,), dtype, n)
    a = from_np(x)
    check(xp.fft.fft(a), np.fft.fft(x), getattr(xp, dtype))
    check(xp.fft.ifft(a), np.fft.ifft(x), getattr(xp, dtype))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 10, 13, 16, 97, 100, 101, 243, 1000, 1009])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_real_transforms_lengths(n, dtype):
    x = rand((n,), dtype, n)
    c = rand((n // 2 + 1,), "complex64" if dtype == "float32" else "complex128", n + 1)
    a, ac = from_np(x), from_np(c)
    cdt = xp.complex64 if dtype == "float32" else xp.complex128
    rdt = getattr(xp, dtype)
    check(xp.fft.rfft(a), np.fft.rfft(x), cdt)
    check(xp.fft.ihfft(a), np.fft.ihfft(x), cdt)
    check(xp.fft.irfft(ac, n=n), np.fft.irfft(c, n=n), rdt)
    check(xp.fft.hfft(ac, n=n), np.fft.hfft(c, n=n), rdt)
    if n > 1:
        c2 = rand((n,), "complex128", n + 2).astype(c.dtype)
        check(xp.fft.irfft(from_np(c2)), np.fft.irfft(c2), rdt)
        check(xp.fft.hfft(from_np(c2)), np.fft.hfft(c2), rdt)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_large_prime(dtype):
    n = 100003
    x = rand((n,), dtype, 1)
    a = from_np(x)
    check(xp.fft.fft(a), np.fft.fft(x))
    back = xp.fft.ifft(xp.fft.fft(a))
    check(back, x)


def test_large_power_of_two_and_smooth():
    for n in (2 ** 16, 3 ** 9, 2 * 3 * 5 * 7 * 11 * 13):
        x = rand((n,), "complex128", n)
        check(xp.fft.fft(from_np(x)), np.fft.fft(x))


@pytest.mark.parametrize("n", [2 * 1031, 3 * 1049, 1031 * 1033, 4 * 97 * 89])
def test_large_prime_factors(n):
    x = rand((n,), "complex128", 3)
    check(xp.fft.fft(from_np(x)), np.fft.fft(x))


# ---- norms, n and axis ------------------------------------------------------------------

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]


def _input_for(name, shape, precision="double", seed=0):
    real = name in ("rfft", "ihfft")
    if precision == "double":
        return rand(shape, "float64" if real else "complex128", seed)
    return rand(shape, "float32" if real else "complex64", seed)


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 1, 5, 8, 9, 16, 17, 30])
def test_one_d_norm_and_n(name, norm, n):
    x = _input_for(name, (3, 12))
    got = getattr(xp.fft, name)(from_np(x), n=n, norm=norm)
    check(got, getattr(np.fft, name)(x, n=n, norm=norm))


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
@pytest.mark.parametrize("precision", ["single", "double"])
def test_one_d_axes(name, axis, precision):
    x = _input_for(name, (4, 6, 5), precision)
    got = getattr(xp.fft, name)(from_np(x), axis=axis)
    want = getattr(np.fft, name)(x, axis=axis)
    check(got, want)


# ---- layouts ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA, ndim=2))
def test_layouts(name, axis, layout):
    x = _input_for(name, (6, 10), seed=7)
    f, g = getattr(xp.fft, name), getattr(np.fft, name)
    a, nx = view_of(layout, x)
    check(f(a, axis=axis), g(nx, axis=axis))
    check(f(a, axis=axis, n=7), g(nx, axis=axis, n=7))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_layouts_nd(name, layout):
    real = name == "rfftn"
    x = rand((4, 6, 5), "float64" if real else "complex128", 3)
    a, nx = view_of(layout, x)
    check(getattr(xp.fft, name)(a), getattr(np.fft, name)(nx))
    check(getattr(xp.fft, name)(a, axes=(2, 0)), getattr(np.fft, name)(nx, axes=(2, 0)))


def test_output_is_new_and_input_untouched():
    x = rand((8,), "complex128")
    a = from_np(x)
    out = xp.fft.fft(a)
    assert out.storage is not a.storage
    np.testing.assert_array_equal(to_np(a), x)
    assert out.is_contiguous()


# ---- batches and threads ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_big_batch_threads(dtype):
    x = rand((300, 512), dtype, 5)
    a = from_np(x)
    check(xp.fft.fft(a), np.fft.fft(x))
    check(xp.fft.fft(a, axis=0), np.fft.fft(x, axis=0))
    old = xp.get_num_threads()
    try:
        xp.set_num_threads(1)
        check(xp.fft.ifft(a, axis=0), np.fft.ifft(x, axis=0))
        xp.set_num_threads(3)
        check(xp.fft.ifft(a, axis=0), np.fft.ifft(x, axis=0))
    finally:
        xp.set_num_threads(old)


def test_many_short_lines():
    x = rand((20000, 3), "complex128", 2)
    check(xp.fft.fft(from_np(x)), np.fft.fft(x))
    r = rand((5000, 6), "float64", 2)
    check(xp.fft.rfft(from_np(r)), np.fft.rfft(r))


# ---- empty inputs ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ONE_D)
def test_empty_batch(name):
    x = _input_for(name, (0, 8))
    got = getattr(xp.fft, name)(from_np(x))
    want = getattr(np.fft, name)(x)  # NumPy gives the shape and dtype, nothing to compare
    assert got.shape == want.shape and got.dtype.name == want.dtype.name
    # An empty axis padded to n=4 is all zeros, whose transform is all zeros
    # (NumPy 2.4's irfft/hfft return uninitialised memory here, so the known
    # answer is the oracle, not NumPy).
    got = getattr(xp.fft, name)(from_np(x), axis=0, n=4)
    half = name in ("rfft", "ihfft")  # n // 2 + 1 outputs
    real_out = name in ("irfft", "hfft")
    assert got.dtype == (xp.float64 if real_out else xp.complex128)
    assert got.shape == (3 if half else 4, 8)
    assert np.all(to_np(got) == 0)


def test_empty_axis_padded():
    x = np.zeros((3, 0), np.complex128)
    check(xp.fft.fft(from_np(x), n=4), np.zeros((3, 4), np.complex128))


# ---- n-dimensional --------------------------------------------------------------------------

ND = ["fftn", "ifftn", "rfftn", "irfftn"]


@pytest.mark.parametrize("name", ND)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("s_axes", [(None, None), (None, (0,)), (None, (-1, 0)), (None, (1, 2)),
                                    ((3, 4), (0, 2)), ((8, 5, 6), (0, 1, 2)), ((2,), (1,)),
                                    ((7, 9), (2, 1)), ((-1, 6), (0, 2))])
def test_nd(name, norm, s_axes):
    s, axes = s_axes
    real = name == "rfftn"
    x = rand((4, 5, 6), "float64" if real else "complex128", 11)
    np_s = None if s is None else tuple(x.shape[a] if v == -1 else v for v, a in zip(s, axes))
    if name == "irfftn" and s is not None and s[-1] == -1:
        np_s = np_s[:-1] + (2 * (x.shape[axes[-1]] - 1),)
    got = getattr(xp.fft, name)(from_np(x), s=s, axes=axes, norm=norm)
    want = getattr(np.fft, name)(x, s=np_s, axes=axes, norm=norm)
    check(got, want)


@pytest.mark.parametrize("name", ND)
def test_nd_single(name):
    real = name == "rfftn"
    x = rand((6, 7, 4), "float32" if real else "complex64", 4)
    got = getattr(xp.fft, name)(from_np(x))
    assert got.dtype == (xp.complex64 if name != "irfftn" else xp.float32)
    check(got, getattr(np.fft, name)(x.astype(np.float64 if real else np.complex128)))


def test_s_without_axes_uses_last_axes():
    x = rand((3, 4, 5), "complex128")
    check(xp.fft.fftn(from_np(x), s=(6, 2)), np.fft.fftn(x, s=(6, 2), axes=(1, 2)))


# ---- round trips --------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 7, 16, 97, 100, 1009])
@pytest.mark.parametrize("norm", NORMS)
def test_round_trips(n, norm):
    x = rand((3, n), "complex128", n)
    a = from_np(x)
    check(xp.fft.ifft(xp.fft.fft(a, norm=norm), norm=norm), x)
    r = rand((3, n), "float64", n)
    ar = from_np(r)
    check(xp.fft.irfft(xp.fft.rfft(ar, norm=norm), n=n, norm=norm), r)
    check(xp.fft.hfft(xp.fft.ihfft(ar, norm=norm), n=n, norm=norm), r)
    y = rand((4, 3, n), "complex64", n)
    check(xp.fft.ifftn(xp.fft.fftn(from_np(y), norm=norm), norm=norm), y)
    z = rand((4, 3, n), "float32", n)
    check(xp.fft.irfftn(xp.fft.rfftn(from_np(z), norm=norm), s=(4, 3, n), norm=norm), z)


# ---- input dtypes --------------------------------------------------------------------------------

def test_real_input_promotes():
    x = rand((10,), "float32")
    got = xp.fft.fft(from_np(x))
    assert got.dtype == xp.complex64
    check(got, np.fft.fft(x.astype(np.float64)))
    got = xp.fft.irfft(from_np(rand((6,), "float64")))
    assert got.dtype == xp.float64


def test_irfft_ignores_imaginary_dc_and_nyquist():
    c = rand((5,), "complex128", 9)
    check(xp.fft.irfft(from_np(c)), np.fft.irfft(c))
    check(xp.fft.irfft(from_np(c), n=9), np.fft.irfft(c, n=9))


# ---- frequencies and shifts ----------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 8, 9, 100, 101])
@pytest.mark.parametrize("d", [1.0, 0.25, 3])
def test_fftfreq(n, d):
    got = xp.fft.fftfreq(n, d=d)
    assert got.dtype == xp.float64
    np.testing.assert_array_equal(to_np(got), np.fft.fftfreq(n, d=d))
    got = xp.fft.rfftfreq(n, d=d)
    np.testing.assert_array_equal(to_np(got), np.fft.rfftfreq(n, d=d))
    got = xp.fft.fftfreq(n, d=d, dtype=xp.float32, device=xp.asarray(1.0).device)
    assert got.dtype == xp.float32
    np.testing.assert_allclose(to_np(got), np.fft.fftfreq(n, d=d).astype(np.float32), rtol=1e-6)
    assert xp.fft.rfftfreq(n, dtype=xp.float32).dtype == xp.float32


@pytest.mark.parametrize("axes", [None, 0, 1, -1, (0,), (1, 0), (0, 1, 2), [2]])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_shifts(axes, layout):
    x = rand((4, 5, 3), "float64")
    np_axes = axes
    a, nx = view_of(layout, x)
    np.testing.assert_array_equal(to_np(xp.fft.fftshift(a, axes=axes)), np.fft.fftshift(nx, axes=np_axes))
    np.testing.assert_array_equal(to_np(xp.fft.ifftshift(a, axes=axes)), np.fft.ifftshift(nx, axes=np_axes))


def test_shifts_dtypes_and_empty():
    for dtype in ("complex64", "float32", "int32"):
        x = (np.arange(7) * 3).astype(dtype)
        np.testing.assert_array_equal(to_np(xp.fft.fftshift(from_np(x))), np.fft.fftshift(x))
        np.testing.assert_array_equal(to_np(xp.fft.ifftshift(from_np(x))), np.fft.ifftshift(x))
    e = xp.fft.fftshift(from_np(np.zeros((0, 3))))
    assert e.shape == (0, 3)
    z = xp.fft.fftshift(from_np(np.array(2.5)))
    assert z.shape == () and to_np(z) == 2.5


# ---- errors ------------------------------------------------------------------------------------

def test_errors():
    c = from_np(rand((4, 6), "complex128"))
    r = from_np(rand((4, 6), "float64"))
    with pytest.raises(ValueError, match="fft: n must be a positive"):
        xp.fft.fft(c, n=0)
    with pytest.raises(ValueError, match="irfft: n must be a positive"):
        xp.fft.irfft(c, n=-3)
    with pytest.raises(TypeError, match="fft: n must be an int"):
        xp.fft.fft(c, n=2.5)
    with pytest.raises(ValueError, match="ifft: norm must be"):
        xp.fft.ifft(c, norm="none")
    with pytest.raises(TypeError, match="rfft: expected an array of real floating-point dtype"):
        xp.fft.rfft(c)
    with pytest.raises(TypeError, match="ihfft: expected an array of real"):
        xp.fft.ihfft(c)
    with pytest.raises(TypeError, match="fft: expected an array of floating-point"):
        xp.fft.fft(from_np(np.arange(4)))
    with pytest.raises(TypeError, match="x must be an arrstride array"):
        xp.fft.fft([1.0, 2.0])
    with pytest.raises(IndexError, match="axis 2 is out of bounds"):
        xp.fft.fft(c, axis=2)
    with pytest.raises(ValueError, match="at least one dimension"):
        xp.fft.fft(from_np(np.array(1 + 0j)))
    with pytest.raises(ValueError, match="irfft: the output length"):
        xp.fft.irfft(from_np(rand((3, 1), "complex128")))
    with pytest.raises(ValueError, match="fft: cannot transform an axis of length 0"):
        xp.fft.fft(from_np(np.zeros((3, 0), np.complex128)))
    with pytest.raises(ValueError, match="fftn: s and axes must have the same length"):
        xp.fft.fftn(c, s=(2, 3), axes=(0,))
    with pytest.raises(ValueError, match="rfftn: every entry of s"):
        xp.fft.rfftn(r, s=(0, 3), axes=(0, 1))
    with pytest.raises(ValueError, match="repeated axis"):
        xp.fft.fftn(c, axes=(0, 0))
    with pytest.raises(ValueError, match="fftfreq: n must be a positive"):
        xp.fft.fftfreq(0)
    with pytest.raises(TypeError, match="rfftfreq: dtype must be a real floating-point"):
        xp.fft.rfftfreq(4, dtype=xp.complex64)
    with pytest.raises(ValueError, match="fftfreq: arrstride has one device"):
        xp.fft.fftfreq(4, device="gpu")
    with pytest.raises(IndexError, match="fftshift: axis 5"):
        xp.fft.fftshift(c, axes=5)


# ---- vector lanes and concurrency -----------------------------------------------------------------

@pytest.mark.parametrize("lines", [1, 2, 3, 4, 5, 7, 9])
@pytest.mark.parametrize("n", [12, 97, 1009, 1024])
def test_line_groups(lines, n):
    """Lines go through the core several at a time; every remainder is exact."""
    for dtype in ("complex64", "complex128"):
        x = rand((lines, n), dtype, lines * n)
        check(xp.fft.fft(from_np(x)), np.fft.fft(x))
        check(xp.fft.ifft(from_np(x.T.copy()), axis=0), np.fft.ifft(x.T, axis=0))
    r = rand((lines, n), "float32", 1)
    check(xp.fft.rfft(from_np(r)), np.fft.rfft(r))


def test_threads_share_plans():
    import threading
    errors = []

    def work(seed):
        # Any exception, not only a failed check, is collected: an exception
        # escaping a thread would be printed and lost, and the test would pass.
        try:
            rng = np.random.default_rng(seed)
            for it in range(40):
                n = int(rng.integers(1, 2000))
                x = rng.standard_normal((3, n)) + 1j * rng.standard_normal((3, n))
                try:
                    check(xp.fft.fft(from_np(x)), np.fft.fft(x))
                except Exception as e:  # pragma: no cover - reported below
                    errors.append((seed, n, repr(e)))
                if it % 13 == 0:
                    K.fft_cache_clear()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append((seed, None, repr(e)))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
