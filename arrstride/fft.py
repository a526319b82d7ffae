"""The fft extension: discrete Fourier transforms on arrstride's own C FFT
(mixed radix 2/3/4/5 and any odd factor, Bluestein for large primes, so every
length is O(n log n)), in single and double precision, over any layout.

Where the standard is silent arrstride does what NumPy 2 does: fft, ifft,
fftn, ifftn, irfft(n), irfftn and hfft also accept real floating input
(promoted to the complex dtype of the same precision); `s` without `axes`
transforms the last len(s) axes. Every function returns a new array.
"""
from __future__ import annotations

import math
import operator
from typing import Any, Literal, Optional, Sequence, Tuple, Union

from . import _dtypes as dt
from . import _elementwise_functions as _ew
from . import _kernels as K
from . import _layout as L
from ._args import int_arg, normalize_axes, normalize_axis
from ._array import Array, check_array, check_device
from ._errors import dtype_error, type_error, value_error

__all__ = [
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
    # NumPy's, which PyTorch has too
    "fft2", "ifft2", "rfft2", "irfft2",
]

Norm = Literal["backward", "ortho", "forward"]
_NORMS = ("backward", "ortho", "forward")
_FORWARD, _BACKWARD = -1, 1


# ---- argument checks --------------------------------------------------------------

def _check_x(func: str, x: Any, want: str) -> Array:
    """x as an array of the dtype the transform reads: 'complex' (real floats
    promoted) or 'real' (real floating only)."""
    x = check_array(func, x)
    d = x.dtype
    if want == "real":
        if d.kind != "f":
            raise dtype_error(func, "real floating-point", d)
        return x  # a narrow float is read as float32 line by line, as NumPy computes it
    if d.kind in "cf":
        return x  # a real float is read as complex, line by line
    raise dtype_error(func, "floating-point", d)


def _check_norm(func: str, norm: Any) -> str:
    if norm not in _NORMS:
        raise value_error(func, 'norm must be "backward", "ortho" or "forward"', repr(norm))
    return norm


def _scale(norm: str, n: int, sign: int) -> float:
    """The factor a transform of length n in direction `sign` applies under `norm`."""
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if (norm == "forward") == (sign == _FORWARD):
        return 1.0 / n
    return 1.0


def _check_n(func: str, n: Any, name: str = "n") -> int:
    n = int_arg(func, n, f"{name} must be an int")
    if n < 1:
        raise value_error(func, f"{name} must be a positive number of points", n)
    return n


def _check_ndim(func: str, x: Array) -> None:
    if x.ndim == 0:
        raise value_error(func, "x must have at least one dimension", "a 0-d array")


def _s_axes(func: str, x: Array, s: Any, axes: Any) -> Tuple[Tuple[Optional[int], ...], Tuple[int, ...]]:
    """Normalized axes and the sizes asked for them (None: the input's size)."""
    if s is not None:
        if isinstance(s, Array) or not isinstance(s, (tuple, list)):
            raise type_error(func, "s must be a tuple of ints", repr(s))
        if axes is None:  # NumPy's reading: the last len(s) axes
            if len(s) > x.ndim:
                raise value_error(func, "s has more entries than x has dimensions",
                                  f"s {tuple(s)} for shape {x.shape}")
            axes = tuple(range(x.ndim - len(s), x.ndim))
    if axes is not None and not isinstance(axes, (tuple, list)):
        raise type_error(func, "axes must be a tuple of ints", repr(axes))
    ax = normalize_axes(func, axes, x.ndim)
    if s is None:
        return (None,) * len(ax), ax
    if len(s) != len(ax):
        raise value_error(func, "s and axes must have the same length",
                          f"s {tuple(s)} and axes {tuple(axes)}")
    sizes = []
    for v in s:
        if not isinstance(v, bool):
            try:
                v = operator.index(v)
            except TypeError:
                v = None
        if v is None or isinstance(v, bool):
            raise type_error(func, "s must be a tuple of ints", repr(s))
        if v == -1:
            sizes.append(None)
        elif v < 1:
            raise value_error(func, "every entry of s must be a positive number of points or -1",
                              tuple(s))
        else:
            sizes.append(v)
    return tuple(sizes), ax


# ---- the one-axis transform ---------------------------------------------------------

def _transform(kind: int, x: Array, axis: int, n: int, sign: int, norm: str) -> Array:
    """x (complex or real for C2C/C2R, real for R2C) transformed along axis with length n."""
    if kind == K.FFT_R2C:
        out_dtype, out_len = dt.complex_of(x.dtype), n // 2 + 1
    elif kind == K.FFT_C2R:
        out_dtype, out_len = dt.real_of(dt.complex_of(x.dtype)), n
    else:
        out_dtype, out_len = dt.complex_of(x.dtype), n
    shape = x.shape[:axis] + (out_len,) + x.shape[axis + 1:]
    out = Array._empty(shape, out_dtype)
    if out.size:
        K.fft_lines(kind, out, x, axis, n, sign, _scale(norm, n, sign))
        if out_dtype.kind == "c":
            # the kernel's zero parts may come out as -0.0 where NumPy's pocketfft
            # gives +0.0 (rfft(ones(3)) prints 3.+0.j there): adding +0.0 turns
            # -0.0 into +0.0 and changes nothing else
            _ew.binary_inplace(_ew.add, out, 0.0)
    return out


def _one_axis(func: str, kind: int, x: Array, n: Any, axis: Any, norm: Any, sign: int) -> Array:
    x = _check_x(func, x, "real" if kind == K.FFT_R2C else "complex")
    _check_ndim(func, x)
    axis = normalize_axis(func, axis, x.ndim)
    norm = _check_norm(func, norm)
    m = x.shape[axis]
    if n is not None:
        n = _check_n(func, n)
    elif kind == K.FFT_C2R:
        n = 2 * (m - 1)
        if n < 1:
            raise value_error(func, "the output length 2*(m-1) must be positive; pass n",
                              f"m = {m} along axis {axis}")
    else:
        n = m
        if n < 1:
            raise value_error(func, "cannot transform an axis of length 0; pass n", f"shape {x.shape}")
    return _transform(kind, x, axis, n, sign, norm)


# ---- one-dimensional transforms ---------------------------------------------------------

def fft(x: Array, /, *, n: Optional[int] = None, axis: int = -1, norm: Norm = "backward") -> Array:
    """One-dimensional discrete Fourier transform.

    Computed by arrstride's own C FFT: mixed radix 2/3/4/5 and any odd factor,
    Bluestein's algorithm for large primes, so every length is O(n log n).

    Parameters
    ----------
    x : Array
        Input array, complex (real floating input is promoted to the complex dtype of the same precision, as NumPy).
    n : int, optional
        Number of points along axis: x is cropped or zero-padded to it. By
        default the axis' length.
    axis : int, optional
        Axis to transform; default -1.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new complex array of x's precision, n points along axis.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype.
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.fft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
    Array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    return _one_axis("fft", K.FFT_C2C, x, n, axis, norm, _FORWARD)


def ifft(x: Array, /, *, n: Optional[int] = None, axis: int = -1, norm: Norm = "backward") -> Array:
    """One-dimensional inverse discrete Fourier transform.

    Parameters
    ----------
    x : Array
        Input array, complex (real floating input is promoted to the complex dtype of the same precision, as NumPy).
    n : int, optional
        Number of points along axis: x is cropped or zero-padded to it. By
        default the axis' length.
    axis : int, optional
        Axis to transform; default -1.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new complex array of x's precision, n points along axis.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype.
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.ifft(xp.asarray([4.0, 0.0, 0.0, 0.0]))
    Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _one_axis("ifft", K.FFT_C2C, x, n, axis, norm, _BACKWARD)


def rfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1, norm: Norm = "backward") -> Array:
    """One-dimensional discrete Fourier transform of real input.

    Parameters
    ----------
    x : Array
        Input array, of a real floating-point dtype.
    n : int, optional
        Number of points along axis: x is cropped or zero-padded to it. By
        default the axis' length.
    axis : int, optional
        Axis to transform; default -1.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new complex array of x's precision: the n//2 + 1 non-negative frequencies
        along axis.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype (real for rfft).
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.rfft(xp.asarray([1.0, 0.0, -1.0, 0.0]))
    Array([0.+0.j, 2.+0.j, 0.+0.j])
    """
    return _one_axis("rfft", K.FFT_R2C, x, n, axis, norm, _FORWARD)


def irfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1, norm: Norm = "backward") -> Array:
    """Inverse of rfft: a real signal from its non-negative frequencies.

    The imaginary parts of the zero-frequency term (and, for even n, of the Nyquist
    term) are ignored.

    Parameters
    ----------
    x : Array
        Input array, complex (real floating input is promoted to the complex dtype of the same precision, as NumPy).
    n : int, optional
        Number of output points along axis; by default 2*(m - 1) for an
        input of m points.
    axis : int, optional
        Axis to transform; default -1.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new real array of x's precision, n points along axis.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype.
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.irfft(xp.fft.rfft(xp.asarray([1.0, 2.0, 3.0, 4.0])))
    Array([1., 2., 3., 4.])
    """
    return _one_axis("irfft", K.FFT_C2R, x, n, axis, norm, _BACKWARD)


def hfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1, norm: Norm = "backward") -> Array:
    """Transform of a signal with Hermitian symmetry, given by its first half.

    Parameters
    ----------
    x : Array
        Input array, complex (real floating input is promoted to the complex dtype of the same precision, as NumPy).
    n : int, optional
        Number of output points along axis; by default 2*(m - 1) for an
        input of m points.
    axis : int, optional
        Axis to transform; default -1.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new real array of x's precision, n points along axis.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype.
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.hfft(xp.asarray([1.0, 0.5, 0.0]))
    Array([2., 1., 0., 1.])
    """
    return _one_axis("hfft", K.FFT_C2R, x, n, axis, norm, _FORWARD)


def ihfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1, norm: Norm = "backward") -> Array:
    """Inverse of hfft: the first half of a Hermitian spectrum of real input.

    Parameters
    ----------
    x : Array
        Input array, of a real floating-point dtype.
    n : int, optional
        Number of points along axis: x is cropped or zero-padded to it. By
        default the axis' length.
    axis : int, optional
        Axis to transform; default -1.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new complex array of x's precision, n//2 + 1 points along axis.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype (real for ihfft).
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.ihfft(xp.asarray([4.0, 0.0, 0.0, 0.0]))
    Array([1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _one_axis("ihfft", K.FFT_R2C, x, n, axis, norm, _BACKWARD)


# ---- n-dimensional transforms -------------------------------------------------------------

def _n_axes(func: str, kind: int, x: Array, s: Any, axes: Any, norm: Any, sign: int) -> Array:
    x = _check_x(func, x, "real" if kind == K.FFT_R2C else "complex")
    sizes, ax = _s_axes(func, x, s, axes)
    norm = _check_norm(func, norm)
    if not ax:
        return x._copy_contiguous(dt.real_of(dt.complex_of(x.dtype)) if kind == K.FFT_C2R
                                  else dt.complex_of(x.dtype))
    ns = [x.shape[a] if v is None else v for a, v in zip(ax, sizes)]
    if kind == K.FFT_C2R and sizes[-1] is None:
        ns[-1] = 2 * (x.shape[ax[-1]] - 1)
        if ns[-1] < 1:
            raise value_error(func, "the last output length 2*(m-1) must be positive; pass s",
                              f"m = {x.shape[ax[-1]]} along axis {ax[-1]}")
    for a, v in zip(ax, ns):
        if v < 1:
            raise value_error(func, "cannot transform an axis of length 0; pass s",
                              f"shape {x.shape}, axis {a}")
    if kind == K.FFT_R2C:      # the real transform first, then the others
        x = _transform(K.FFT_R2C, x, ax[-1], ns[-1], sign, norm)
        for a, v in zip(ax[:-1], ns[:-1]):
            x = _transform(K.FFT_C2C, x, a, v, sign, norm)
        return x
    if kind == K.FFT_C2R:      # the complex transforms first, the real one last
        for a, v in zip(ax[:-1], ns[:-1]):
            x = _transform(K.FFT_C2C, x, a, v, sign, norm)
        return _transform(K.FFT_C2R, x, ax[-1], ns[-1], sign, norm)
    for a, v in zip(reversed(ax), reversed(ns)):
        x = _transform(K.FFT_C2C, x, a, v, sign, norm)
    return x


def fftn(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Optional[Sequence[int]] = None,
         norm: Norm = "backward") -> Array:
    """N-dimensional discrete Fourier transform.

    Parameters
    ----------
    x : Array
        Input array, complex (real floating input is promoted to the complex dtype of the same precision, as NumPy).
    s : sequence of int, optional
        Number of points along each transformed axis (x is cropped or
        zero-padded to it); by default the axes' lengths.
    axes : sequence of int, optional
        Axes to transform; by default the last len(s) axes, or every axis when
        s is None too.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new complex array of x's precision, s points along the axes.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype.
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.fftn(xp.ones((2, 2, 2)))[0]
    Array([[8.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return _n_axes("fftn", K.FFT_C2C, x, s, axes, norm, _FORWARD)


def ifftn(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Optional[Sequence[int]] = None,
          norm: Norm = "backward") -> Array:
    """N-dimensional inverse discrete Fourier transform.

    Parameters
    ----------
    x : Array
        Input array, complex (real floating input is promoted to the complex dtype of the same precision, as NumPy).
    s : sequence of int, optional
        Number of points along each transformed axis (x is cropped or
        zero-padded to it); by default the axes' lengths.
    axes : sequence of int, optional
        Axes to transform; by default the last len(s) axes, or every axis when
        s is None too.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new complex array of x's precision, s points along the axes.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype.
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> xp.real(xp.fft.ifftn(xp.fft.fftn(x)))
    Array([[1., 2.],
           [3., 4.]])
    """
    return _n_axes("ifftn", K.FFT_C2C, x, s, axes, norm, _BACKWARD)


def rfftn(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Optional[Sequence[int]] = None,
          norm: Norm = "backward") -> Array:
    """N-dimensional discrete Fourier transform of real input.

    Parameters
    ----------
    x : Array
        Input array, of a real floating-point dtype.
    s : sequence of int, optional
        Number of points along each transformed axis (x is cropped or
        zero-padded to it); by default the axes' lengths.
    axes : sequence of int, optional
        Axes to transform; by default the last len(s) axes, or every axis when
        s is None too.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new complex array of x's precision; the last transformed axis keeps
        s[-1]//2 + 1 points.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype (real for rfftn).
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.rfftn(xp.asarray([[1.0, 0.0, -1.0, 0.0], [-1.0, 0.0, 1.0, 0.0]]))
    Array([[0.+0.j, 0.+0.j, 0.+0.j],
           [0.+0.j, 4.+0.j, 0.+0.j]])
    """
    return _n_axes("rfftn", K.FFT_R2C, x, s, axes, norm, _FORWARD)


def irfftn(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Optional[Sequence[int]] = None,
           norm: Norm = "backward") -> Array:
    """Inverse of rfftn: a real array from its half spectrum.

    Parameters
    ----------
    x : Array
        Input array, complex (real floating input is promoted to the complex dtype of the same precision, as NumPy).
    s : sequence of int, optional
        Number of output points along each transformed axis; by default the
        axes' lengths, except the last: 2*(m - 1) for m input points.
    axes : sequence of int, optional
        Axes to transform; by default the last len(s) axes, or every axis when
        s is None too.
    norm : {'backward', 'ortho', 'forward'}, optional
        Scaling: 'backward' (the default) scales the inverse transform by 1/n,
        'forward' the forward one, 'ortho' both by 1/sqrt(n).

    Returns
    -------
    Array
        A new real array of x's precision, s points along the axes.

    Raises
    ------
    TypeError
        If x is not of a floating-point dtype.
    ValueError
        If n (or an entry of s) is not positive, an axis is out of range, or
        norm is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> xp.fft.irfftn(xp.fft.rfftn(x))
    Array([[1., 2.],
           [3., 4.]])
    """
    return _n_axes("irfftn", K.FFT_C2R, x, s, axes, norm, _BACKWARD)


# ---- helpers --------------------------------------------------------------------------------

def _freq(func: str, n: Any, d: Any, dtype: Any, device: Any, rfft: bool) -> Array:
    n = _check_n(func, n)
    if isinstance(d, bool) or not isinstance(d, (int, float)):
        raise type_error(func, "d must be a Python int or float", repr(d))
    if dtype is None:
        dtype = dt.default_float
    elif not isinstance(dtype, dt.DType) or dtype.kind != "f":
        raise type_error(func, "dtype must be a real floating-point dtype", repr(dtype))
    check_device(func, device)
    if d == 0:
        raise value_error(func, "the sample spacing d must be nonzero", d)
    out = Array._empty((n // 2 + 1 if rfft else n,), dtype)
    K.fftfreq(out, n, float(d), rfft)
    return out


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """Sample frequencies of fft: [0, 1, ..., -(n//2), ..., -1] / (d*n).

    Parameters
    ----------
    n : int
        Window length, positive.
    d : float, optional
        Sample spacing; default 1.
    dtype : DType, optional
        Real floating-point dtype of the result; default float64.
    device : Device or str, optional
        Only the CPU is accepted.

    Returns
    -------
    Array
        A new 1-D array of n frequencies.

    See Also
    --------
    rfftfreq, fftshift

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.fftfreq(4)
    Array([ 0.  ,  0.25, -0.5 , -0.25])
    """
    return _freq("fftfreq", n, d, dtype, device, False)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """Sample frequencies of rfft: [0, 1, ..., n//2] / (d*n).

    Parameters
    ----------
    n : int
        Window length, positive.
    d : float, optional
        Sample spacing; default 1.
    dtype : DType, optional
        Real floating-point dtype of the result; default float64.
    device : Device or str, optional
        Only the CPU is accepted.

    Returns
    -------
    Array
        A new 1-D array of n//2 + 1 frequencies.

    See Also
    --------
    fftfreq

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.rfftfreq(4)
    Array([0.  , 0.25, 0.5 ])
    >>> xp.fft.rfftfreq(4, d=0.5)
    Array([0. , 0.5, 1. ])
    """
    return _freq("rfftfreq", n, d, dtype, device, True)


def _shift(func: str, x: Any, axes: Any, inverse: bool) -> Array:
    x = check_array(func, x)
    if axes is not None and not isinstance(axes, (tuple, list)):
        axes = (axes,)
    ax = normalize_axes(func, axes, x.ndim)
    out = Array._empty(x.shape, x.dtype)
    if out.size == 0:
        return out
    # roll each axis by k: out[k:] = x[:m-k] and out[:k] = x[m-k:], as block copies
    pieces = [(x._layout, out._layout)]
    for a in ax:
        m = x.shape[a]
        k = (m - m // 2) if inverse else m // 2
        if k == 0 or k == m:
            continue
        nxt = []
        for src, dst in pieces:
            nxt.append((L.narrow(src, a, 0, m - k), L.narrow(dst, a, k, m - k)))
            nxt.append((L.narrow(src, a, m - k, k), L.narrow(dst, a, 0, k)))
        pieces = nxt
    for src, dst in pieces:
        K.copy_into(out._with_layout(dst), x._with_layout(src))
    return out


def fftshift(x: Array, /, *, axes: Optional[Union[int, Sequence[int]]] = None) -> Array:
    """Array x with the zero frequency moved to the middle of each axis.

    Parameters
    ----------
    x : Array
        Input array (as fftfreq or fft give).
    axes : int or sequence of int, optional
        Axes to shift; None (the default) shifts every axis.

    Returns
    -------
    Array
        A new array of x's shape and dtype.

    See Also
    --------
    ifftshift

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.fftshift(xp.asarray([0, 1, 2, 3]))
    Array([2, 3, 0, 1])
    """
    return _shift("fftshift", x, axes, False)


def ifftshift(x: Array, /, *, axes: Optional[Union[int, Sequence[int]]] = None) -> Array:
    """Inverse of fftshift: the zero frequency moved back to the start.

    Parameters
    ----------
    x : Array
        Input array.
    axes : int or sequence of int, optional
        Axes to shift; None (the default) shifts every axis.

    Returns
    -------
    Array
        A new array of x's shape and dtype.

    See Also
    --------
    fftshift

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.fft.fftshift(xp.arange(5))
    >>> x
    Array([3, 4, 0, 1, 2])
    >>> xp.fft.ifftshift(x)
    Array([0, 1, 2, 3, 4])
    """
    return _shift("ifftshift", x, axes, True)


# ---- NumPy's two-dimensional transforms (fftn and kin over two axes) -------------------


def fft2(x: Array, /, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
         norm: Norm = "backward") -> Array:
    """Two-dimensional discrete Fourier transform.

    Not in the standard: NumPy's fft2, fftn over two axes.

    Parameters
    ----------
    x : Array
        Input array of at least two dimensions.
    s : sequence of int, optional
        Length of the transform along each axis (crop or pad with zeros).
    axes : sequence of int, optional
        Axes to transform; default the last two.
    norm : {'backward', 'ortho', 'forward'}, optional
        Normalization; default 'backward'.

    Returns
    -------
    Array
        A new complex array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.fft2(xp.ones((2, 2)))
    Array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return fftn(check_array("fft2", x), s=s, axes=axes, norm=norm)


def ifft2(x: Array, /, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
          norm: Norm = "backward") -> Array:
    """Two-dimensional inverse discrete Fourier transform.

    Not in the standard: NumPy's ifft2, ifftn over two axes.

    Parameters
    ----------
    x : Array
        Input array of at least two dimensions.
    s : sequence of int, optional
        Length of the transform along each axis (crop or pad with zeros).
    axes : sequence of int, optional
        Axes to transform; default the last two.
    norm : {'backward', 'ortho', 'forward'}, optional
        Normalization; default 'backward'.

    Returns
    -------
    Array
        A new complex array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.ifft2(xp.asarray([[4.0, 0.0], [0.0, 0.0]]))
    Array([[1.+0.j, 1.+0.j],
           [1.+0.j, 1.+0.j]])
    """
    return ifftn(check_array("ifft2", x), s=s, axes=axes, norm=norm)


def rfft2(x: Array, /, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
          norm: Norm = "backward") -> Array:
    """Two-dimensional discrete Fourier transform of real input.

    Not in the standard: NumPy's rfft2, rfftn over two axes.

    Parameters
    ----------
    x : Array
        Real input array of at least two dimensions.
    s : sequence of int, optional
        Length of the transform along each axis (crop or pad with zeros).
    axes : sequence of int, optional
        Axes to transform; default the last two.
    norm : {'backward', 'ortho', 'forward'}, optional
        Normalization; default 'backward'.

    Returns
    -------
    Array
        A new complex array, the last axis halved (n // 2 + 1).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.rfft2(xp.ones((4, 6))).shape
    (4, 4)
    """
    return rfftn(check_array("rfft2", x), s=s, axes=axes, norm=norm)


def irfft2(x: Array, /, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
           norm: Norm = "backward") -> Array:
    """Inverse of rfft2: a real array from its two-dimensional half spectrum.

    Not in the standard: NumPy's irfft2, irfftn over two axes.

    Parameters
    ----------
    x : Array
        Half spectrum, of at least two dimensions.
    s : sequence of int, optional
        Length of the output along each axis; default from x's shape.
    axes : sequence of int, optional
        Axes to transform; default the last two.
    norm : {'backward', 'ortho', 'forward'}, optional
        Normalization; default 'backward'.

    Returns
    -------
    Array
        A new real array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fft.irfft2(xp.asarray([[4.0, 0.0], [0.0, 0.0]]))
    Array([[1., 1.],
           [1., 1.]])
    """
    return irfftn(check_array("irfft2", x), s=s, axes=axes, norm=norm)
