"""Random numbers as NumPy's ``numpy.random`` Generator draws them.

``default_rng(seed)`` gives a `Generator` on the PCG64 bit generator seeded
through NumPy's `SeedSequence`: for the same seed, ``random``, ``integers``,
``standard_normal`` (float64 and float32), ``standard_exponential``,
``normal``, ``uniform``, ``exponential``, ``permutation``, ``shuffle`` and
``choice`` give the same numbers as NumPy, bit for bit. The draws are made in
C (native/src/random.c) straight into arrstride storage.

Where NumPy returns a Python float (a float64 draw without ``size``), so does
arrstride; where it returns a NumPy scalar (an integer, a float32 draw), an
arrstride 0-d array.
"""
from __future__ import annotations

import operator
import secrets
import threading
from typing import Any, Optional

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._array import Array
from ._errors import broadcast_error, not_array_error, type_error, type_name, value_error

__all__ = ["Generator", "PCG64", "SeedSequence", "default_rng"]

_MASK32 = 0xFFFFFFFF
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_POOL_SIZE = 4


# ---- SeedSequence -------------------------------------------------------------------


def _int_words(func: str, n: int) -> list:
    """A non-negative int as 32-bit words, lowest first (0 is one word)."""
    if n < 0:
        raise value_error(func, "a seed must be a non-negative integer", n)
    words = [n & _MASK32]
    n >>= 32
    while n:
        words.append(n & _MASK32)
        n >>= 32
    return words


def _seed_words(func: str, x: Any, nested: bool = False) -> list:
    """NumPy's reading of seed material as uint32 words: an int is split into
    words, a string of digits (or 0x-hex) is an int, a sequence is the
    concatenation of its elements' words."""
    if isinstance(x, str):
        try:
            return _int_words(func, int(x, 16) if x.startswith("0x") else int(x, 10))
        except ValueError:
            raise value_error(func, "unrecognized seed string", repr(x)) from None
    if isinstance(x, bool) or not isinstance(x, (float, complex)) and hasattr(x, "__index__"):
        return _int_words(func, operator.index(x))
    if isinstance(x, (float, complex)) or (isinstance(x, Array) and x.ndim == 0):
        if isinstance(x, Array) and x.dtype in dt.INTEGER:
            return _int_words(func, int(x))
        raise type_error(func, "a seed must be an integer or a sequence of integers", type_name(x))
    if nested:
        raise type_error(func, "a seed sequence does not accept nested sequences", type_name(x))
    if isinstance(x, Array):
        if x.dtype not in dt.INTEGER or x.ndim != 1:
            raise type_error(func, "a seed array must be a 1-D integer array", f"{x.dtype} of shape {x.shape}")
        x = x.tolist()
    try:
        items = list(x)
    except TypeError:
        raise type_error(func, "a seed must be an integer or a sequence of integers", type_name(x)) from None
    words = []
    for v in items:
        words += _seed_words(func, v, nested=True)
    return words


def _hashmix(value: int, hc: list) -> int:
    value ^= hc[0]
    hc[0] = (hc[0] * _MULT_A) & _MASK32
    value = (value * hc[0]) & _MASK32
    return value ^ (value >> _XSHIFT)


def _mix(x: int, y: int) -> int:
    r = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return r ^ (r >> _XSHIFT)


class SeedSequence:
    """Seed material mixed into a pool of 32-bit words, as NumPy's SeedSequence.

    Parameters
    ----------
    entropy : int or sequence of int, optional
        The seed; None draws 128 bits from the operating system.
    spawn_key : tuple of int, optional
        The path of this sequence among those spawned from one entropy.
    pool_size : int, optional
        Number of 32-bit words in the pool (at least 4).
    n_children_spawned : int, optional
        Number of children already spawned, so that `spawn` continues after them.

    Examples
    --------
    >>> import arrstride as xp
    >>> ss = xp.random.SeedSequence(42)
    >>> ss.generate_state(2).tolist()
    [3444837047, 2669555309]
    >>> [child.spawn_key for child in ss.spawn(2)]
    [(0,), (1,)]
    """

    def __init__(self, entropy: Any = None, *, spawn_key: Any = (), pool_size: int = _POOL_SIZE,
                 n_children_spawned: int = 0) -> None:
        func = "SeedSequence"
        pool_size = operator.index(pool_size)
        if pool_size < _POOL_SIZE:
            raise value_error(func, f"the entropy pool must hold at least {_POOL_SIZE} words", pool_size)
        if entropy is None:
            entropy = secrets.randbits(pool_size * 32)
        elif isinstance(entropy, (str, bytes, float, complex)) or not (
                hasattr(entropy, "__index__") or isinstance(entropy, (list, tuple, range, Array))):
            raise type_error(func, "entropy must be an int or a sequence of ints", type_name(entropy))
        run = _seed_words(func, entropy)
        spawn_key = tuple(operator.index(k) for k in spawn_key)
        spawn = _seed_words(func, spawn_key)
        if spawn and len(run) < pool_size:
            run = run + [0] * (pool_size - len(run))
        self.entropy = entropy
        self.spawn_key = spawn_key
        self.pool_size = pool_size
        self.n_children_spawned = operator.index(n_children_spawned)
        self._pool = self._mix_entropy(run + spawn)

    def _mix_entropy(self, entropy: list) -> list:
        hc = [_INIT_A]
        n = self.pool_size
        mixer = [_hashmix(entropy[i] if i < len(entropy) else 0, hc) for i in range(n)]
        for src in range(n):
            for dst in range(n):
                if src != dst:
                    mixer[dst] = _mix(mixer[dst], _hashmix(mixer[src], hc))
        for src in range(n, len(entropy)):
            for dst in range(n):
                mixer[dst] = _mix(mixer[dst], _hashmix(entropy[src], hc))
        return mixer

    @property
    def pool(self) -> Array:
        """The mixed pool, a uint32 array of `pool_size` words."""
        return Array_from_words(self._pool, dt.uint32)

    def _state_words(self, n_words: int) -> list:
        hc = _INIT_B
        out = []
        for i in range(n_words):
            v = self._pool[i % self.pool_size] ^ hc
            hc = (hc * _MULT_B) & _MASK32
            v = (v * hc) & _MASK32
            out.append(v ^ (v >> _XSHIFT))
        return out

    def generate_state(self, n_words: int, dtype: Any = None) -> Array:
        """Words of state for a bit generator, as NumPy's generate_state.

        Parameters
        ----------
        n_words : int
            Number of words.
        dtype : DType, optional
            uint32 (the default) or uint64 (two 32-bit words each, low first).

        Returns
        -------
        Array
            A new 1-D array of `n_words` words.
        """
        dtype = dt.uint32 if dtype is None else dt.as_dtype("SeedSequence.generate_state", dtype)
        n = operator.index(n_words)
        if dtype == dt.uint32:
            return Array_from_words(self._state_words(n), dt.uint32)
        if dtype == dt.uint64:
            w = self._state_words(2 * n)
            return Array_from_words([w[2 * i] | (w[2 * i + 1] << 32) for i in range(n)], dt.uint64)
        raise type_error("SeedSequence.generate_state", "dtype must be uint32 or uint64", dtype)

    def spawn(self, n_children: int) -> list:
        """Child sequences, independent of this one and of each other.

        Parameters
        ----------
        n_children : int
            Number of children.

        Returns
        -------
        list of SeedSequence
            The children, whose spawn keys continue after those spawned before.
        """
        n = operator.index(n_children)
        if n < 0:
            raise value_error("SeedSequence.spawn", "n_children must be non-negative", n)
        first = self.n_children_spawned
        self.n_children_spawned += n
        return [SeedSequence(self.entropy, spawn_key=self.spawn_key + (i,), pool_size=self.pool_size)
                for i in range(first, first + n)]

    def __repr__(self) -> str:
        return f"SeedSequence(entropy={self.entropy!r}, spawn_key={self.spawn_key!r})"


def Array_from_words(words: list, dtype) -> Array:
    from ._creation_functions import asarray
    return asarray(words, dtype=dtype)


# ---- PCG64 ----------------------------------------------------------------------------


class PCG64:
    """The PCG64 bit generator (XSL-RR 128/64), seeded as NumPy's PCG64.

    Parameters
    ----------
    seed : None, int, sequence of int or SeedSequence, optional
        The seed, read through `SeedSequence`.

    Examples
    --------
    >>> import arrstride as xp
    >>> bg = xp.random.PCG64(42)
    >>> xp.random.Generator(bg).integers(0, 10, size=3).tolist()
    [0, 7, 6]
    """

    def __init__(self, seed: Any = None) -> None:
        self._seed_seq = seed if isinstance(seed, SeedSequence) else SeedSequence(seed)
        self._state = K.new_pcg64()
        self.lock = threading.Lock()
        w = self._seed_seq.generate_state(4, dt.uint64).tolist()
        K.pcg64_seed(self._state, w[0], w[1], w[2], w[3])

    @property
    def seed_seq(self) -> SeedSequence:
        """The SeedSequence this generator was seeded from."""
        return self._seed_seq

    @property
    def state(self) -> dict:
        """The state, as NumPy's PCG64.state gives it."""
        s = self._state
        return {"bit_generator": "PCG64",
                "state": {"state": (s.state_hi << 64) | s.state_lo, "inc": (s.inc_hi << 64) | s.inc_lo},
                "has_uint32": int(s.has_uint32), "uinteger": int(s.uinteger)}

    def spawn(self, n_children: int) -> list:
        """New bit generators seeded from children of this one's SeedSequence.

        Parameters
        ----------
        n_children : int
            Number of bit generators.

        Returns
        -------
        list of PCG64
            The new bit generators.
        """
        return [PCG64(s) for s in self._seed_seq.spawn(n_children)]


# ---- Generator ------------------------------------------------------------------------

_FLOATS = {"random": 0, "standard_normal": 1, "standard_exponential": 2}


def _size(func: str, size: Any) -> Optional[tuple]:
    if size is None:
        return None
    from ._args import check_dims, shape_ints
    return check_dims(func, shape_ints(func, size))


def _float_dtype(func: str, dtype: Any):
    if dtype is None or dtype is float:
        return dt.float64
    d = dt.as_dtype(func, dtype)
    if d == dt.float64 or d == dt.float32:
        return d
    raise type_error(func, "dtype must be float64 or float32", dtype)


def _dense_out(func: str, out: Any, dtype, size: Optional[tuple]) -> tuple:
    """The data pointer of out (C- or F-contiguous) and its shape."""
    if not isinstance(out, Array):
        raise not_array_error(func, out, "out")
    if out.dtype != dtype:
        raise type_error(func, f"out must have dtype {dtype} (the draws' dtype)", out.dtype)
    if out._storage.readonly:
        raise value_error(func, "out must be writable", "a read-only array")
    lay = out._layout
    if not _c_contiguous(lay):
        rev = L.Layout(lay.shape[::-1], lay.strides[::-1], lay.offset)
        if not (out.ndim > 1 and _c_contiguous(rev)):
            raise value_error(func, "out must be C- or F-contiguous", f"strides {lay.strides}")
    if size is not None and size != out.shape:
        raise value_error(func, "size must match out.shape when both are given",
                          f"size {size} and out.shape {out.shape}")
    return K.data_ptr(out), out.shape


def _c_contiguous(lay) -> bool:
    expect = 1
    for d, s in zip(reversed(lay.shape), reversed(lay.strides)):
        if d != 1 and s != expect:
            return False
        expect *= d
    return True


def _params(func: str, values: list, names: list, non_negative: list, size: Optional[tuple]):
    """Float64 parameters as (scalars or None, arrays or None, shape)."""
    from ._creation_functions import asarray
    arrays = []
    scalar = True
    for v, name in zip(values, names):
        try:
            a = asarray(v, dtype=dt.float64)
        except (TypeError, ValueError):
            raise type_error(func, f"{name} must be a real number or an array of them", type_name(v)) from None
        arrays.append(a)
        scalar = scalar and a.ndim == 0
    for a, name, nn in zip(arrays, names, non_negative):
        if nn:
            from ._elementwise_functions import isnan, logical_and, logical_not, signbit
            from ._utility_functions import any as _any
            if bool(_any(logical_and(logical_not(isnan(a)), signbit(a)))):
                raise value_error(func, f"{name} must be non-negative", f"{name} < 0")
    if scalar:
        return [float(a) for a in arrays], size
    from ._manipulation_functions import broadcast_shapes
    shapes = [a.shape for a in arrays]
    try:
        shape = broadcast_shapes(*shapes)
    except ValueError:
        raise broadcast_error(func, *shapes, what="the parameters") from None
    if size is not None:
        try:
            full = broadcast_shapes(shape, size)
        except ValueError:
            full = None
        if full != size:
            raise broadcast_error(func, shape, size, what="the parameters' shape and size")
        shape = size
    return arrays, shape


def _dense_param(a: Array, shape: tuple) -> Array:
    from ._creation_functions import asarray
    from ._manipulation_functions import broadcast_to
    return asarray(broadcast_to(a, shape), copy=True)


class Generator:
    """Random draws as NumPy's numpy.random.Generator makes them.

    Parameters
    ----------
    bit_generator : PCG64
        The source of random bits.

    Examples
    --------
    >>> import arrstride as xp
    >>> rng = xp.random.Generator(xp.random.PCG64(42))
    >>> rng.random(3).tolist()
    [0.7739560485559633, 0.4388784397520523, 0.8585979199113825]
    """

    def __init__(self, bit_generator: PCG64) -> None:
        if not isinstance(bit_generator, PCG64):
            raise type_error("Generator", "bit_generator must be an arrstride.random.PCG64",
                             type_name(bit_generator))
        self._bit_generator = bit_generator

    @property
    def bit_generator(self) -> PCG64:
        """The bit generator."""
        return self._bit_generator

    def __repr__(self) -> str:
        return "Generator(PCG64)"

    def spawn(self, n_children: int) -> list:
        """New generators seeded from children of this one's SeedSequence.

        Parameters
        ----------
        n_children : int
            Number of generators.

        Returns
        -------
        list of Generator
            Independent generators, as NumPy's Generator.spawn makes them.

        Examples
        --------
        >>> import arrstride as xp
        >>> a, b = xp.random.default_rng(42).spawn(2)
        >>> a.integers(0, 100, size=3).tolist()
        [49, 91, 58]
        """
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

    # -- float draws ---------------------------------------------------------------

    def _standard(self, func: str, size: Any, dtype: Any, out: Any):
        d = _float_dtype(func, dtype)
        shape = _size(func, size)
        if out is not None:
            ptr, shape = _dense_out(func, out, d, shape)
            result = out
        elif shape is None:
            result = Array._empty((), d)
            ptr = K.data_ptr(result)
        else:
            result = Array._empty(shape, d)
            ptr = K.data_ptr(result)
        n = result._layout.size
        bg = self._bit_generator
        with bg.lock:
            K.random_fill(bg._state, _FLOATS[func], d == dt.float32, ptr, n)
        if shape is None and out is None:
            return float(result) if d == dt.float64 else result
        return result

    def random(self, size: Any = None, dtype: Any = None, out: Optional[Array] = None):
        """Floats uniform on [0, 1), the same as NumPy's for the same seed.

        Parameters
        ----------
        size : int or tuple of int, optional
            Shape of the result; None gives one draw.
        dtype : DType, optional
            float64 (the default) or float32.
        out : Array, optional
            A C- or F-contiguous array of `dtype` to fill (in memory order).

        Returns
        -------
        float or Array
            A Python float for one float64 draw, else an array (`out` when given).

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).random(2).tolist()
        [0.7739560485559633, 0.4388784397520523]
        """
        return self._standard("random", size, dtype, out)

    def standard_normal(self, size: Any = None, dtype: Any = None, out: Optional[Array] = None):
        """Draws from the standard normal distribution (NumPy's ziggurat).

        Parameters
        ----------
        size : int or tuple of int, optional
            Shape of the result; None gives one draw.
        dtype : DType, optional
            float64 (the default) or float32.
        out : Array, optional
            A C- or F-contiguous array of `dtype` to fill (in memory order).

        Returns
        -------
        float or Array
            A Python float for one float64 draw, else an array (`out` when given).

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).standard_normal(2).tolist()
        [0.30471707975443135, -1.0399841062404955]
        """
        return self._standard("standard_normal", size, dtype, out)

    def standard_exponential(self, size: Any = None, dtype: Any = None, method: str = "zig",
                             out: Optional[Array] = None):
        """Draws from the exponential distribution of scale 1 (NumPy's ziggurat).

        Parameters
        ----------
        size : int or tuple of int, optional
            Shape of the result; None gives one draw.
        dtype : DType, optional
            float64 (the default) or float32.
        method : {'zig'}, optional
            The ziggurat method, the only one offered.
        out : Array, optional
            A C- or F-contiguous array of `dtype` to fill (in memory order).

        Returns
        -------
        float or Array
            A Python float for one float64 draw, else an array (`out` when given).

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).standard_exponential(2).tolist()
        [2.4042086039659947, 2.3361896558244535]
        """
        if method != "zig":
            raise value_error("standard_exponential", "method must be 'zig'", repr(method))
        return self._standard("standard_exponential", size, dtype, out)

    def _scaled(self, func: str, kind: int, loc: Any, scale: Any, names: list, size: Any):
        shape = _size(func, size)
        values = [scale] if loc is None else [loc, scale]
        nonneg = [True] if loc is None else [False, True]
        params, shape = _params(func, values, names, nonneg, shape)
        bg = self._bit_generator
        if isinstance(params[0], float):
            if shape is None:
                result = Array._empty((), dt.float64)
            else:
                result = Array._empty(shape, dt.float64)
            consts = [K.ffi.new("double *", v) for v in params]
            a, b = (None, consts[0]) if loc is None else consts
            with bg.lock:
                K.random_fill(bg._state, kind, False, K.data_ptr(result), result._layout.size,
                              a, 0, b, 0)
            return float(result) if shape is None else result
        dense = [_dense_param(p, shape) for p in params]
        result = Array._empty(shape, dt.float64)
        ptrs = [K.ffi.cast("double *", K.data_ptr(p)) for p in dense]
        a, b = (None, ptrs[0]) if loc is None else ptrs
        with bg.lock:
            K.random_fill(bg._state, kind, False, K.data_ptr(result), result._layout.size, a, 1, b, 1)
        return result

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None):
        """Draws from normal distributions: loc + scale * standard_normal().

        Parameters
        ----------
        loc : float or Array, optional
            Mean.
        scale : float or Array, optional
            Standard deviation (non-negative).
        size : int or tuple of int, optional
            Shape of the result; None gives the parameters' broadcast shape.

        Returns
        -------
        float or Array
            A Python float when all are scalars and size is None, else an array.

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).normal(10.0, 2.0, size=2).tolist()
        [10.609434159508863, 7.920031787519009]
        """
        return self._scaled("normal", K.lib.ARS_RAND_NORMAL, loc, scale, ["loc", "scale"], size)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None):
        """Draws uniform on [low, high): low + (high - low) * random().

        Parameters
        ----------
        low : float or Array, optional
            Lower bound.
        high : float or Array, optional
            Upper bound, not below `low`.
        size : int or tuple of int, optional
            Shape of the result; None gives the parameters' broadcast shape.

        Returns
        -------
        float or Array
            A Python float when all are scalars and size is None, else an array.

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).uniform(-1.0, 1.0, size=2).tolist()
        [0.5479120971119267, -0.12224312049589536]
        """
        from ._creation_functions import asarray
        from ._elementwise_functions import isfinite, subtract
        from ._utility_functions import all as _all
        func = "uniform"
        lo, hi = (asarray(v, dtype=dt.float64) if not isinstance(v, (int, float)) else float(v)
                  for v in (low, high))
        rng = (hi - lo) if isinstance(lo, float) and isinstance(hi, float) else subtract(lo, hi) * -1.0
        if isinstance(rng, float):
            if rng != rng or rng in (float("inf"), float("-inf")):
                raise OverflowError(f"{func}: high - low must be finite; got {rng}")
        elif not bool(_all(isfinite(rng))):
            raise OverflowError(f"{func}: high - low must be finite")
        if not isinstance(rng, float):
            rng = subtract(hi, lo)
        return self._scaled(func, K.lib.ARS_RAND_UNIFORM, lo, rng, ["low", "high - low"], size)

    def exponential(self, scale: Any = 1.0, size: Any = None):
        """Draws from exponential distributions: scale * standard_exponential().

        Parameters
        ----------
        scale : float or Array, optional
            Scale, the inverse of the rate (non-negative).
        size : int or tuple of int, optional
            Shape of the result; None gives the parameter's shape.

        Returns
        -------
        float or Array
            A Python float when scale is a scalar and size is None, else an array.

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).exponential(2.0, size=2).tolist()
        [4.808417207931989, 4.672379311648907]
        """
        return self._scaled("exponential", K.lib.ARS_RAND_EXPONENTIAL, None, scale, ["scale"], size)

    # -- integers ------------------------------------------------------------------

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = None,
                 endpoint: bool = False):
        """Integers uniform on [low, high) (or [low, high] with endpoint=True).

        Parameters
        ----------
        low : int or Array
            Lowest value; with `high` None, the range is [0, low).
        high : int or Array, optional
            One past the highest value (the highest, with `endpoint`).
        size : int or tuple of int, optional
            Shape of the result; None gives the bounds' broadcast shape.
        dtype : DType, optional
            An integer dtype or bool; default int64.
        endpoint : bool, optional
            Whether `high` is included.

        Returns
        -------
        Array
            The draws; a 0-d array when the bounds are scalars and size is None.

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).integers(0, 1000, size=4).tolist()
        [89, 773, 654, 438]
        """
        func = "integers"
        d = dt.as_dtype(func, dtype, allow_none=True) or dt.int64
        if d not in dt.INTEGER and d != dt.bool:
            raise type_error(func, "dtype must be an integer dtype or bool", d)
        if high is None:
            low, high = 0, low
        shape = _size(func, size)
        lb, ub = dt.int_range(d)
        (lows, highs), shape = _int_bounds(func, [low, high], shape)
        result = Array._empty(shape if shape is not None else (), d)
        if result._layout.size == 0:
            return result
        offs, rngs = [], []
        for lo, hi in zip(lows, highs):
            if not endpoint:
                hi -= 1
            if lo < lb:
                raise value_error(func, f"low is out of bounds for {d.name}", lo)
            if hi > ub:
                raise value_error(func, f"high is out of bounds for {d.name}", hi + (not endpoint))
            if lo > hi:
                raise value_error(func, "low must be less than or equal to high" if endpoint
                                  else "low must be less than high", f"low {lo}, high {hi + (not endpoint)}")
            offs.append(lo & 0xFFFFFFFFFFFFFFFF)
            rngs.append((hi - lo) & 0xFFFFFFFFFFFFFFFF)
        width = 0 if d == dt.bool else d.itemsize
        bg = self._bit_generator
        step = 0 if len(offs) == 1 else 1
        with bg.lock:
            K.random_integers(bg._state, width, K.data_ptr(result), result._layout.size,
                              offs, step, rngs, step)
        return result

    # -- permutations --------------------------------------------------------------

    def _perm(self, n: int) -> Array:
        result = Array._empty((n,), dt.int64)
        bg = self._bit_generator
        with bg.lock:
            K.random_permutation(bg._state, K.data_ptr(result), n)
        return result

    def shuffle(self, x: Array, axis: int = 0) -> None:
        """Shuffle x in place along an axis, as NumPy's Generator.shuffle.

        Parameters
        ----------
        x : Array
            A writable array of at least one dimension.
        axis : int, optional
            The axis whose entries are reordered.

        Examples
        --------
        >>> import arrstride as xp
        >>> x = xp.arange(5)
        >>> xp.random.default_rng(42).shuffle(x)
        >>> x.tolist()
        [4, 2, 3, 1, 0]
        """
        func = "shuffle"
        if not isinstance(x, Array):
            raise not_array_error(func, x)
        if x.ndim < 1:
            raise value_error(func, "x must be at least 1-dimensional", "a 0-d array")
        from ._args import normalize_axis
        from ._indexing_functions import take
        axis = normalize_axis(func, axis, x.ndim)
        n = x.shape[axis]
        if x._storage.readonly:
            raise value_error(func, "x must be writable", "a read-only array")
        if x._layout.size == 0 and n <= 1:
            return
        perm = self._perm(n)
        if x._layout.size:
            x[...] = take(x, perm, axis=axis)

    def permutation(self, x: Any, axis: int = 0) -> Array:
        """A shuffled copy of x along an axis, or of arange(x) for an int.

        Parameters
        ----------
        x : int or Array
            The array, or the length of a range.
        axis : int, optional
            The axis whose entries are reordered.

        Returns
        -------
        Array
            A new array.

        Examples
        --------
        >>> import arrstride as xp
        >>> xp.random.default_rng(42).permutation(5).tolist()
        [4, 2, 3, 1, 0]
        """
        func = "permutation"
        from ._indexing_functions import take
        if isinstance(x, int) and not isinstance(x, bool) or (hasattr(x, "__index__") and not isinstance(x, Array)):
            n = operator.index(x)
            if n < 0:
                raise value_error(func, "x must be non-negative", n)
            return self._perm(n)
        from ._creation_functions import asarray
        arr = asarray(x)
        if arr.ndim < 1:
            raise value_error(func, "x must be an integer or at least 1-dimensional", "a 0-d array")
        from ._args import normalize_axis
        axis = normalize_axis(func, axis, arr.ndim)
        return take(arr, self._perm(arr.shape[axis]), axis=axis)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None, axis: int = 0,
               shuffle: bool = True):
        """A random sample from a, or from arange(a) for an int, as NumPy's Generator.choice.

        Parameters
        ----------
        a : int or Array
            The population, or its size.
        size : int or tuple of int, optional
            Shape of the sample; None gives one item.
        replace : bool, optional
            Whether an item may be taken more than once.
        p : Array or sequence of float, optional
            The probability of each item (default: all equal).
        axis : int, optional
            The axis of `a` to sample along.
        shuffle : bool, optional
            Whether a sample without replacement is shuffled.

        Returns
        -------
        Array
            The sample (a 0-d array for one item of an int population).

        Examples
        --------
        >>> import arrstride as xp
        >>> rng = xp.random.default_rng(42)
        >>> rng.choice(10, size=3).tolist()
        [0, 7, 6]
        >>> rng.choice(10, size=3, replace=False).tolist()
        [9, 8, 3]
        """
        func = "choice"
        from ._creation_functions import asarray
        from ._indexing_functions import take
        from ._args import normalize_axis
        if isinstance(a, Array) or not hasattr(a, "__index__"):
            arr = asarray(a)
            if arr.ndim == 0:
                raise value_error(func, "a must be a sequence or an integer, not a 0-d array", "a 0-d array")
            axis = normalize_axis(func, axis, arr.ndim)
            pop = arr.shape[axis]
        else:
            arr = None
            pop = operator.index(a)
            if pop <= 0 and not (pop == 0 and size is not None and _count(_size(func, size)) == 0):
                raise value_error(func, "a must be a positive integer unless no samples are taken", pop)
        shape = _size(func, size)
        n = 1 if shape is None else _count(shape)
        if pop == 0 and n != 0:
            raise value_error(func, "a cannot be empty unless no samples are taken", "an empty population")
        pw = None
        if p is not None:
            pw = asarray(p, dtype=dt.float64)
            if pw.ndim != 1:
                raise value_error(func, "p must be 1-dimensional", f"shape {pw.shape}")
            if pw.shape[0] != pop:
                raise value_error(func, "a and p must have the same size", f"{pop} and {pw.shape[0]}")
            vals = pw.tolist()
            if any(v != v or v in (float("inf"), float("-inf")) for v in vals):
                raise value_error(func, "probabilities must be finite", "NaN or infinity in p")
            if any(v < 0 for v in vals):
                raise value_error(func, "probabilities must be non-negative", "a negative entry in p")
            import math
            if abs(math.fsum(vals) - 1.0) > 1.4901161193847656e-08:
                raise value_error(func, "probabilities must sum to 1", math.fsum(vals))
            pw = asarray(pw, copy=True)
        if not replace and n > pop:
            raise value_error(func, "cannot take a larger sample than the population when replace=False",
                              f"{n} > {pop}")
        if not replace and pw is not None and sum(1 for v in vals if v > 0) < n:
            raise value_error(func, "fewer non-zero entries in p than size", n)
        bg = self._bit_generator
        if replace and pw is None:
            idx = self.integers(0, pop, size=shape, dtype=dt.int64) if pop else Array._empty(shape, dt.int64)
        else:
            idx = Array._empty((n,), dt.int64)
            with bg.lock:
                if pw is None:
                    K.random_choice_noreplace(bg._state, pop, n, bool(shuffle), K.data_ptr(idx))
                else:
                    K.random_choice_p(bg._state, K.data_ptr(pw), pop, n, bool(replace), K.data_ptr(idx))
            if shape is not None:
                from ._manipulation_functions import reshape
                idx = reshape(idx, shape)
            else:
                idx = idx[0]
        if arr is None:
            return idx
        if shape is None:
            from ._manipulation_functions import moveaxis
            return moveaxis(arr, axis, 0)[int(idx)]
        from ._manipulation_functions import reshape
        flat = take(arr, reshape(idx, (-1,)), axis=axis)
        return reshape(flat, arr.shape[:axis] + shape + arr.shape[axis + 1:])


def _count(shape: Optional[tuple]) -> int:
    n = 1
    for s in shape or ():
        n *= s
    return n


def _int_bounds(func: str, values: list, size: Optional[tuple]) -> tuple:
    """Integer bounds as flat lists of Python ints, broadcast together (and to
    size), with the result's shape (None for scalars without size)."""
    from ._creation_functions import asarray
    from ._manipulation_functions import broadcast_shapes, broadcast_to, reshape
    arrays = []
    for v, name in zip(values, ("low", "high")):
        if isinstance(v, (list, tuple)):
            v = asarray(v)
        if isinstance(v, Array):
            if v.dtype not in dt.INTEGER and v.dtype != dt.bool:
                raise type_error(func, f"{name} must be an integer or an array of integers", v.dtype)
        elif isinstance(v, (bool, float, complex)) or not hasattr(v, "__index__"):
            if not isinstance(v, bool):
                raise type_error(func, f"{name} must be an integer or an array of integers", type_name(v))
        arrays.append(v)
    shapes = [a.shape for a in arrays if isinstance(a, Array)]
    if not any(shapes):
        scalars = [[int(a)] if isinstance(a, Array) else [operator.index(a)] for a in arrays]
        return scalars, size
    try:
        shape = broadcast_shapes(*shapes)
    except ValueError:
        raise broadcast_error(func, *shapes, what="low and high") from None
    if size is not None:
        try:
            ok = broadcast_shapes(shape, size) == size
        except ValueError:
            ok = False
        if not ok:
            raise broadcast_error(func, shape, size, what="the bounds' shape and size")
        shape = size
    flat = []
    for a in arrays:
        if isinstance(a, Array):
            flat.append(reshape(asarray(broadcast_to(a, shape), copy=True), (-1,)).tolist())
        else:
            n = 1
            for s in shape:
                n *= s
            flat.append([operator.index(a)] * n)
    return flat, shape


def default_rng(seed: Any = None) -> Generator:
    """A Generator on PCG64, seeded as NumPy's default_rng seeds it.

    Parameters
    ----------
    seed : None, int, sequence of int, SeedSequence, PCG64 or Generator, optional
        The seed; None draws fresh entropy from the operating system. A
        Generator is returned as it is; a PCG64 is wrapped.

    Returns
    -------
    Generator
        For an int seed, the same numbers as ``numpy.random.default_rng(seed)``.

    Examples
    --------
    >>> import arrstride as xp
    >>> rng = xp.random.default_rng(42)
    >>> rng.random()
    0.7739560485559633
    >>> rng.integers(0, 1000, size=3).tolist()
    [654, 438, 433]
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, PCG64):
        return Generator(seed)
    return Generator(PCG64(seed))
