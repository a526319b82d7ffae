"""The shared strided iterator: after preparation (dropping size-1 dims,
flipping negative strides, sorting, coalescing) it visits exactly the same
elements, paired across operands the same way, as the plain nested loop.
Then the kernels on it (copy, cast, fill) over random layouts against NumPy."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

import arrstride as xp
from arrstride._kernels import iter_describe
from conftest import assert_same, np_dtype, through_storage
from layouts import DTYPES, sample


def visits(shape, strides_per_op, offsets=None):
    """The multiset of per-operand address tuples a nested loop visits."""
    nop = len(strides_per_op)
    offsets = offsets or (0,) * nop
    out = Counter()
    for idx in itertools.product(*[range(d) for d in shape]):
        out[tuple(offsets[op] + sum(i * s for i, s in zip(idx, strides_per_op[op]))
                  for op in range(nop))] += 1
    return out


def random_case(rng: random.Random):
    ndim = rng.randint(0, 5)
    shape = tuple(rng.choice([1, 1, 2, 3, 4]) if rng.random() > 0.05 else 0 for _ in range(ndim))
    nop = rng.randint(1, 3)
    strides = []
    for _ in range(nop):
        kind = rng.random()
        if kind < 0.4:   # a permuted, maybe flipped, maybe stepped contiguous layout
            perm = list(range(ndim))
            rng.shuffle(perm)
            acc, st = 1, [0] * ndim
            for d in reversed(perm):
                st[d] = acc * rng.choice([1, 1, 2])
                acc *= max(shape[d], 1) * rng.choice([1, 1, 3])
            st = [s * rng.choice([1, 1, -1]) for s in st]
        else:            # anything, with zeros (broadcast) and overlaps
            st = [rng.choice([0, 1, -1, 2, -3, 4, 5, 12, -12, 7]) for _ in range(ndim)]
        strides.append(tuple(st))
    return shape, strides


@pytest.mark.parametrize("seed", range(40))
def test_prepared_iteration_visits_the_same_elements(seed):
    rng = random.Random(seed)
    for _ in range(25):
        shape, strides = random_case(rng)
        before = visits(shape, strides)
        desc = iter_describe(shape, strides)
        size = int(np.prod(shape)) if shape else 1
        if size == 0:
            assert desc is None
            continue
        pshape, pstrides, poffsets = desc
        assert all(d > 1 for d in pshape), pshape          # size-1 dims dropped
        assert len(pshape) <= len(shape)
        assert int(np.prod(pshape)) == size
        for d in range(len(pshape)):                         # lead operand never runs backwards
            lead = next((pstrides[op][d] for op in range(len(strides)) if pstrides[op][d]), 0)
            assert lead >= 0
        after = visits(pshape, pstrides, poffsets)
        assert after == before, (shape, strides, desc)


def test_coalescing_and_order():
    # contiguous, any order of its dims, flipped: one dim
    assert iter_describe((2, 3, 4), [(12, 4, 1)]) == ((24,), ((1,),), (0,))
    assert iter_describe((4, 3, 2), [(1, 4, 12)]) == ((24,), ((1,),), (0,))
    assert iter_describe((2, 3, 4), [(-12, -4, -1)]) == ((24,), ((1,),), (-23,))
    # two operands that agree coalesce; a transposed second operand keeps 2 dims
    assert iter_describe((3, 4), [(4, 1), (4, 1)])[0] == (12,)
    shp, st, _ = iter_describe((3, 4), [(4, 1), (1, 3)])
    assert shp == (4, 3) and st == ((1, 4), (3, 1))
    # size-1 dims vanish; 0-d is a single element
    assert iter_describe((1, 5, 1), [(99, 2, 7)]) == ((5,), ((2,),), (0,))
    assert iter_describe((), [()]) == ((), ((),), (0,))
    assert iter_describe((1, 1), [(3, 3)]) == ((), ((),), (0,))
    # empty
    assert iter_describe((3, 0), [(1, 1)]) is None
    # stepped: stride 2 contiguous-in-steps coalesces
    assert iter_describe((3, 4), [(8, 2)])[0] == (12,)
    # stride 0 dims stay (they are visited repeatedly)
    assert iter_describe((3, 4), [(0, 1)])[0] == (4, 3)


# ---- kernels on the iterator, over random layouts --------------------------------

def random_view(rng: random.Random, shape, dtype):
    """A non-overlapping random view with `shape` (permuted, flipped, stepped,
    offset) over a fresh base; returns (arrstride view, numpy view, bases)."""
    nd = len(shape)
    perm = list(range(nd))
    rng.shuffle(perm)
    steps = [rng.choice([1, 1, 2, 3]) for _ in range(nd)]
    base_shape = [0] * nd
    for k, d in enumerate(perm):
        base_shape[k] = shape[d] * steps[d] + rng.choice([0, 1])
    base = sample(tuple(base_shape), dtype, rng.randrange(1000))
    a_base = xp.asarray(base, copy=True)
    key = []
    for k, d in enumerate(perm):
        n = shape[d]
        st = steps[d]
        if rng.random() < 0.5:
            key.append(slice(0, n * st, st))
        else:
            key.append(slice(n * st - 1 if n else None, None, -st) if n else slice(0, 0))
    key = tuple(key)
    inv = tuple(np.argsort(perm))
    a = xp.permute_dims(a_base[key], inv)
    nview = base[key + (Ellipsis,)].transpose(inv)
    assert a.shape == tuple(shape) and nview.shape == tuple(shape)
    return a, nview, a_base, base


@pytest.mark.parametrize("seed", range(30))
def test_copy_cast_fill_random_layouts(seed):
    rng = random.Random(1000 + seed)
    shape = tuple(rng.choice([1, 2, 3, 5]) for _ in range(rng.randint(0, 4)))
    sdt = rng.choice(DTYPES)
    ddt = rng.choice(DTYPES)
    src, nsrc, _, _ = random_view(rng, shape, sdt)
    if rng.random() < 0.3 and shape:      # a broadcast source
        src = xp.broadcast_to(src[(slice(0, 1),) * len(shape)], shape)
        nsrc = np.broadcast_to(nsrc[(slice(0, 1),) * len(shape)], shape)
    dst, ndst, dbase, nbase = random_view(rng, shape, ddt)
    dst[...] = xp.astype(src, ddt) if (sdt.kind == "c" and ddt.kind != "c") else src
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            val = nsrc.real if (sdt.kind == "c" and ddt.kind != "c") else nsrc
            if sdt.kind in "fc" and ddt.kind == "u":
                val = val.real.astype(np.int64)
            ndst[...] = val
    assert_same(dbase, nbase)            # only the view's elements changed
    fill = sample((), ddt, seed).item()
    dst[...] = fill
    ndst[...] = fill
    assert_same(dbase, nbase)


@pytest.mark.parametrize("dt", [xp.uint8, xp.float32, xp.complex128], ids=lambda d: d.name)
def test_large_threaded_copy(dt):
    """Large enough to run on several threads; each part lands where it must."""
    old = xp.get_num_threads()
    xp.set_num_threads(4)
    try:
        n = sample((700, 600), dt, 5)
        a = xp.asarray(n, copy=True)
        t = a.T[::-1]
        np.testing.assert_array_equal(through_storage(t.contiguous()), n.T[::-1])
        out = xp.zeros((1200, 700), dtype=dt)
        out[::2] = t
        want = np.zeros((1200, 700), np_dtype(dt))
        want[::2] = n.T[::-1]
        np.testing.assert_array_equal(through_storage(out), want)
        c = xp.astype(t, xp.float64)
        np.testing.assert_array_equal(through_storage(c), n.T[::-1].real.astype(np.float64))
        out[1::2] = 1
        want[1::2] = 1
        np.testing.assert_array_equal(through_storage(out), want)
    finally:
        xp.set_num_threads(old)
