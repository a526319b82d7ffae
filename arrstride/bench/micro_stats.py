"""micro suite: statistics, sorting, sets, take and masks."""
from __future__ import annotations

from .registry import register


def _setup(make, f_xp, f_np):
    """make(np, rng) -> NumPy inputs; the arrstride inputs are copies of them."""
    def setup(np, xp):
        n_in = make(np, np.random.default_rng(0))
        x_in = tuple(xp.asarray(a) for a in n_in)
        return (lambda: f_xp(xp, *x_in)), (lambda: f_np(np, *n_in))
    return setup


def _square(np, rng):
    return (rng.standard_normal((4000, 4000)),)


def _vector(np, rng):
    return (rng.standard_normal(10 ** 6),)


def _vector_as(dtype):
    def make(np, rng):
        return (rng.standard_normal(10 ** 6).astype(dtype),)
    return make


def _square16(np, rng):
    return (rng.standard_normal((4000, 4000)).astype(np.float16),)


def _ints(np, rng):
    return (rng.integers(0, 10 ** 5, 10 ** 6),)


def _search(np, rng):
    return np.sort(rng.standard_normal(10 ** 6)), rng.standard_normal(10 ** 5)


def _take(np, rng):
    return rng.standard_normal(10 ** 7), rng.integers(0, 10 ** 7, 10 ** 6)


def _mask(np, rng):
    return rng.standard_normal(10 ** 7), rng.random(10 ** 7) < 0.5


# (name, inputs, arrstride call, NumPy call, target)
_ROWS = [
    ("sum all 4000^2", _square, lambda xp, a: xp.sum(a), lambda np, a: a.sum(), 0.6),
    ("sum axis 0 4000^2", _square, lambda xp, a: xp.sum(a, axis=0), lambda np, a: a.sum(axis=0), 0.6),
    ("sum axis 1 4000^2", _square, lambda xp, a: xp.sum(a, axis=1), lambda np, a: a.sum(axis=1), 0.6),
    ("max 4000^2", _square, lambda xp, a: xp.max(a), lambda np, a: a.max(), 0.6),
    ("mean 4000^2", _square, lambda xp, a: xp.mean(a), lambda np, a: a.mean(), 0.6),
    ("std 4000^2", _square, lambda xp, a: xp.std(a), lambda np, a: a.std(), 0.3),
    ("var 4000^2", _square, lambda xp, a: xp.var(a), lambda np, a: a.var(), 0.3),
    ("max 4000^2 float16", _square16, lambda xp, a: xp.max(a), lambda np, a: a.max(), None),
    ("argmax 4000^2 float16", _square16, lambda xp, a: xp.argmax(a), lambda np, a: a.argmax(),
     None),
    ("cumulative_sum axis 1 4000^2", _square, lambda xp, a: xp.cumulative_sum(a, axis=1),
     lambda np, a: np.cumulative_sum(a, axis=1), None),
    ("sort 1e6 float64", _vector, lambda xp, a: xp.sort(a, stable=False),
     lambda np, a: np.sort(a), 1.0),
    ("sort 1e6 float32", _vector_as("float32"), lambda xp, a: xp.sort(a, stable=False),
     lambda np, a: np.sort(a), 1.0),
    ("sort 1e6 int64", _vector_as("int64"), lambda xp, a: xp.sort(a, stable=False),
     lambda np, a: np.sort(a), 1.0),
    ("sort 1e6 float16", _vector_as("float16"), lambda xp, a: xp.sort(a, stable=False),
     lambda np, a: np.sort(a), None),
    ("argsort 1e6 float16", _vector_as("float16"), lambda xp, a: xp.argsort(a, stable=False),
     lambda np, a: np.argsort(a), None),
    ("sort stable 1e6 float64", _vector, lambda xp, a: xp.sort(a),
     lambda np, a: np.sort(a, kind="stable"), 1.0),
    ("argsort 1e6 float64", _vector, lambda xp, a: xp.argsort(a, stable=False),
     lambda np, a: np.argsort(a), 0.3),
    ("argsort stable 1e6 float64", _vector, lambda xp, a: xp.argsort(a),
     lambda np, a: np.argsort(a, kind="stable"), 1.0),
    ("partition 1e6 float64", _vector, lambda xp, a: xp.partition(a, 500_000),
     lambda np, a: np.partition(a, 500_000), 1.0),
    ("argpartition 1e6 float64", _vector, lambda xp, a: xp.argpartition(a, 500_000),
     lambda np, a: np.argpartition(a, 500_000), 1.0),
    ("unique_values 1e6 int64", _ints, lambda xp, a: xp.unique_values(a),
     lambda np, a: np.unique_values(a), 0.3),
    ("searchsorted 1e5 into 1e6", _search, lambda xp, s, v: xp.searchsorted(s, v),
     lambda np, s, v: np.searchsorted(s, v), None),
    ("take 1e6 from 1e7", _take, lambda xp, a, i: xp.take(a, i), lambda np, a, i: np.take(a, i), 0.8),
    ("boolean mask 1e7", _mask, lambda xp, a, m: a[m], lambda np, a, m: a[m], 0.8),
]

for _name, _make, _fx, _fn, _target in _ROWS:
    register(_name, _setup(_make, _fx, _fn), suite="micro", group="stats", target=_target)
