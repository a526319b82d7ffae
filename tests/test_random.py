"""arrstride.random against numpy.random: the same seed gives the same bits."""
import numpy as np
import pytest

import arrstride as xp

SEEDS = [42, 0, 2**64 + 7, [1, 2, 3]]
SIZES = [0, 1, 7, (3, 5), 100_001]


def bits(a):
    """An arrstride result as a NumPy array of the same dtype (for a bitwise compare)."""
    if isinstance(a, xp.Array):
        return np.array(a)
    return np.asarray(a)


def assert_bits(a, b):
    a, b = bits(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    assert a.tobytes() == b.tobytes()


def both(seed):
    return xp.random.default_rng(seed), np.random.default_rng(seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_first_million_draws_equal_numpy(seed):
    r, n = both(seed)
    assert_bits(r.random(10**6), n.random(10**6))
    assert_bits(r.integers(0, 1000, 10**6), n.integers(0, 1000, 10**6))
    assert_bits(r.standard_normal(10**6), n.standard_normal(10**6))
    assert_bits(r.standard_normal(10**6, dtype=xp.float32), n.standard_normal(10**6, dtype=np.float32))
    assert_bits(r.standard_exponential(10**5), n.standard_exponential(10**5))
    assert_bits(r.standard_exponential(10**5, dtype=xp.float32),
                n.standard_exponential(10**5, dtype=np.float32))
    assert r.bit_generator.state == n.bit_generator.state


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("method", ["random", "standard_normal", "standard_exponential"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_float_draws(size, method, dtype):
    r, n = both(7)
    for _ in range(2):  # the second call starts from a state the first left
        assert_bits(getattr(r, method)(size, dtype=getattr(xp, dtype)),
                    getattr(n, method)(size, dtype=getattr(np, dtype)))
    assert r.bit_generator.state == n.bit_generator.state


def test_scalar_draws_are_numpy_types():
    r, n = both(3)
    v = r.random()
    assert type(v) is float and v == n.random()
    assert r.standard_normal() == n.standard_normal()
    f = r.random(dtype=xp.float32)
    assert isinstance(f, xp.Array) and f.shape == () and float(f) == n.random(dtype=np.float32)
    i = r.integers(10)
    assert isinstance(i, xp.Array) and i.shape == () and int(i) == n.integers(10)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                   "uint64", "bool"])
@pytest.mark.parametrize("size", [0, 1, 9, (4, 33)])
def test_integers_every_dtype(dtype, size):
    info = np.iinfo(dtype) if dtype != "bool" else None
    bounds = [(0, 1), (1, 1), (0, 0)] if info is None else [
        (0, 5), (int(info.min), int(info.max)), (int(info.min) // 3, int(info.max) // 2 + 1), (3, 4)]
    r, n = both(11)
    for lo, hi in bounds:
        if lo < hi:
            assert_bits(r.integers(lo, hi, size, dtype=getattr(xp, dtype)),
                        n.integers(lo, hi, size, dtype=dtype))
        assert_bits(r.integers(lo, hi, size, dtype=getattr(xp, dtype), endpoint=True),
                    n.integers(lo, hi, size, dtype=dtype, endpoint=True))
    assert r.bit_generator.state == n.bit_generator.state


def test_integers_full_and_wide_ranges():
    r, n = both(5)
    for lo, hi, d in [(-2**63, 2**63 - 1, "int64"), (0, 2**64 - 1, "uint64"), (0, 2**40, "int64"),
                      (0, 2**32, "uint64"), (0, 2**32 - 1, "uint32")]:
        assert_bits(r.integers(lo, hi, 101, dtype=getattr(xp, d), endpoint=True),
                    n.integers(lo, hi, 101, dtype=d, endpoint=True))
        assert_bits(r.integers(lo, hi, 101, dtype=getattr(xp, d)), n.integers(lo, hi, 101, dtype=d))


def test_integers_array_bounds():
    r, n = both(9)
    lo, hi = [0, 1, -5], [[5], [100], [7]]
    assert_bits(r.integers(xp.asarray(lo), xp.asarray(hi)), n.integers(np.asarray(lo), np.asarray(hi)))
    assert_bits(r.integers(0, xp.asarray([3, 300, 30000]), size=(2, 3), dtype=xp.int16),
                n.integers(0, np.asarray([3, 300, 30000]), size=(2, 3), dtype=np.int16))


@pytest.mark.parametrize("seed", [1, 2])
def test_normal_uniform_exponential(seed):
    r, n = both(seed)
    assert r.normal() == n.normal()
    assert_bits(r.normal(3.0, 2.5, 1001), n.normal(3.0, 2.5, 1001))
    assert_bits(r.normal(xp.asarray([0.0, 10.0, -1.0]), 2.0), n.normal(np.asarray([0.0, 10.0, -1.0]), 2.0))
    assert_bits(r.normal(0.0, xp.asarray([[1.0], [2.0]]), size=(2, 3)),
                n.normal(0.0, np.asarray([[1.0], [2.0]]), size=(2, 3)))
    assert_bits(r.uniform(-2.0, 5.0, 999), n.uniform(-2.0, 5.0, 999))
    assert_bits(r.uniform(xp.asarray([0.0, 1.0]), 4.0), n.uniform(np.asarray([0.0, 1.0]), 4.0))
    assert r.uniform() == n.uniform()
    assert_bits(r.exponential(2.0, 999), n.exponential(2.0, 999))
    assert_bits(r.exponential(xp.asarray([1.0, 3.0])), n.exponential(np.asarray([1.0, 3.0])))
    assert r.bit_generator.state == n.bit_generator.state


def test_out_layouts():
    r, n = both(4)
    out = xp.empty((3, 4))
    assert r.standard_normal(out=out) is out
    assert_bits(out, n.standard_normal(size=(3, 4)))
    # F-contiguous (a transposed C array): filled in memory order, as NumPy does
    base = xp.empty((4, 3))
    nbase = np.empty((4, 3))
    r.random(out=base.T)
    n.random(out=nbase.T)
    assert_bits(base, nbase)
    out32 = xp.empty(5, dtype=xp.float32)
    r.standard_exponential(out=out32, dtype=xp.float32)
    assert_bits(out32, n.standard_exponential(5, dtype=np.float32))
    r.random(size=(3, 4), out=out)
    assert_bits(out, n.random(size=(3, 4)))


def test_out_errors():
    r = xp.random.default_rng(0)
    with pytest.raises(ValueError, match="random: out must be C- or F-contiguous"):
        r.random(out=xp.empty((4, 6))[:, ::2])
    with pytest.raises(TypeError, match="standard_normal: out must have dtype"):
        r.standard_normal(out=xp.empty(3, dtype=xp.float32))
    with pytest.raises(ValueError, match="size must match out.shape"):
        r.random(size=4, out=xp.empty(3))
    with pytest.raises(TypeError, match="out must be an arrstride array"):
        r.random(out=np.empty(3))


@pytest.mark.parametrize("n_items", [0, 1, 2, 17, 1000])
def test_permutation_and_shuffle(n_items):
    r, n = both(8)
    assert_bits(r.permutation(n_items), n.permutation(n_items))
    x = np.arange(n_items * 3, dtype=np.float32).reshape(n_items, 3)
    assert_bits(r.permutation(xp.asarray(x)), n.permutation(x))
    assert_bits(r.permutation(xp.asarray(x), axis=1), n.permutation(x, axis=1))
    a, b = xp.asarray(x), x.copy()
    r.shuffle(a)
    n.shuffle(b)
    assert_bits(a, b)
    # through a view: the base changes
    base = xp.asarray(np.arange(2 * n_items, dtype=np.int16))
    nbase = np.arange(2 * n_items, dtype=np.int16)
    r.shuffle(base[::2])
    n.shuffle(nbase[::2])
    assert_bits(base, nbase)
    assert r.bit_generator.state == n.bit_generator.state


@pytest.mark.parametrize("args,kw", [
    ((10,), {}), ((10, 5), {}), ((10, (2, 3)), {}), ((50, 20), {"replace": False}),
    ((50, 20), {"replace": False, "shuffle": False}), ((20000, 1000), {"replace": False}),
    ((20000, 5000), {"replace": False}), ((5, 100), {"p": [0.1, 0.2, 0.3, 0.4, 0.0]}),
    ((5, 3), {"p": [0.1, 0.2, 0.3, 0.4, 0.0], "replace": False}), ((4, 0), {"replace": False}),
])
def test_choice(args, kw):
    r, n = both(13)
    assert_bits(r.choice(*args, **kw), n.choice(*args, **kw))
    pop = xp.asarray(np.arange(60.0).reshape(6, 10))
    assert_bits(r.choice(pop, 4, axis=1), n.choice(np.arange(60.0).reshape(6, 10), 4, axis=1))
    assert r.bit_generator.state == n.bit_generator.state


def test_seed_sequence_and_spawn():
    for seed in [0, 1, 2**32, 2**100 + 5, [1, 2, 3], [2**40, "0xdead", "12345"], range(6)]:
        a, b = xp.random.SeedSequence(seed), np.random.SeedSequence(seed)
        assert a.generate_state(8).tolist() == b.generate_state(8).tolist()
        assert a.generate_state(3, xp.uint64).tolist() == b.generate_state(3, np.uint64).tolist()
        assert a.pool.tolist() == b.pool.tolist()
    r, n = both(42)
    for ra, na in zip(r.spawn(3), n.spawn(3)):
        assert_bits(ra.random(5), na.random(5))
    # a second spawn continues the keys
    assert_bits(r.spawn(1)[0].integers(0, 100, 5), n.spawn(1)[0].integers(0, 100, 5))
    g = xp.random.default_rng(42)
    assert xp.random.default_rng(g) is g
    assert xp.random.default_rng(xp.random.SeedSequence(42)).random() == np.random.default_rng(42).random()
    assert isinstance(xp.random.default_rng().random(), float)  # OS entropy


@pytest.mark.parametrize("call,exc,fragment", [
    (lambda r: r.integers(5, 5), ValueError, "integers: low must be less than high"),
    (lambda r: r.integers(0, 300, dtype=xp.uint8), ValueError, "high is out of bounds for uint8"),
    (lambda r: r.integers(-1, 3, dtype=xp.uint8), ValueError, "low is out of bounds for uint8"),
    (lambda r: r.integers(0, 3, dtype=xp.float64), TypeError, "integers: dtype must be an integer"),
    (lambda r: r.integers(0.5, 3), TypeError, "low must be an integer"),
    (lambda r: r.random(dtype=xp.int32), TypeError, "random: dtype must be float64 or float32"),
    (lambda r: r.random(-1), ValueError, "negative dimensions"),
    (lambda r: r.normal(0.0, -1.0), ValueError, "normal: scale must be non-negative"),
    (lambda r: r.normal(0.0, xp.asarray([1.0, -1.0])), ValueError, "scale must be non-negative"),
    (lambda r: r.exponential(-2.0), ValueError, "exponential: scale must be non-negative"),
    (lambda r: r.uniform(0.0, float("inf")), OverflowError, "uniform: high - low must be finite"),
    (lambda r: r.normal(xp.zeros(3), 1.0, size=4), ValueError, "shape and size could not be broadcast"),
    (lambda r: r.choice(5, 6, replace=False), ValueError, "larger sample than the population"),
    (lambda r: r.choice(5, p=[0.5, 0.5]), ValueError, "a and p must have the same size"),
    (lambda r: r.choice(2, p=[0.7, 0.7]), ValueError, "probabilities must sum to 1"),
    (lambda r: r.choice(2, p=[1.5, -0.5]), ValueError, "probabilities must be non-negative"),
    (lambda r: r.choice(0), ValueError, "choice: a must be a positive integer"),
    (lambda r: r.shuffle([1, 2]), TypeError, "shuffle: x must be an arrstride array"),
    (lambda r: r.shuffle(xp.asarray(1.0)), ValueError, "at least 1-dimensional"),
    (lambda r: r.permutation(xp.asarray(3.0)), ValueError, "at least 1-dimensional"),
    (lambda r: xp.random.default_rng(-1), ValueError, "SeedSequence: a seed must be a non-negative"),
    (lambda r: xp.random.default_rng(1.5), TypeError, "entropy must be an int"),
    (lambda r: xp.random.default_rng([1.5]), TypeError, "a seed must be an integer"),
    (lambda r: xp.random.default_rng([[1, 2]]), TypeError, "nested sequences"),
    (lambda r: xp.random.default_rng("12"), TypeError, "SeedSequence: entropy must be"),
    (lambda r: r.spawn(-1), ValueError, "n_children must be non-negative"),
])
def test_errors(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call(xp.random.default_rng(0))
