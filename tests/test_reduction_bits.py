"""Reductions give the same bits for any thread count: how a reduction is
split into parts (which elements share a private accumulator, and the order
the parts combine in) depends on the problem only, never on the number of
threads that run the parts. Each result is computed with 1, 2, 3 and 4
threads and compared byte for byte, and against NumPy within a tolerance."""
import numpy as np
import pytest

import arrstride as xp

THREADS = (1, 2, 3, 4)
FLOATS = ["float32", "float64", "complex64", "complex128"]
# rtol against NumPy, by dtype: the summation orders differ
RTOL = {"float32": 2e-4, "float64": 1e-10, "complex64": 2e-4, "complex128": 1e-10}


@pytest.fixture
def threads():
    """Restore the thread count after the test."""
    old = xp.get_num_threads()
    yield
    xp.set_num_threads(old)


def _values(dtype: str, shape, seed: int, product: bool = False) -> np.ndarray:
    """Random values with full mantissas (so that every change of summation
    order shows): normal, or for products exp(0.01 * normal), whose products
    neither drift to 0 or inf nor sit so close to 1 that float32's rounding
    of products near 1 biases them."""
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.standard_normal(shape)
    return (np.exp(0.01 * v) if product else v).astype(dtype)


def _wide(dtype: str) -> str:
    return "complex128" if dtype.startswith("complex") else "float64"


def _bits(a) -> bytes:
    return np.asarray(a).tobytes()


def _same_bits_for_any_thread_count(compute):
    """compute() on 1, 2, 3 and 4 threads: every result's bytes equal the
    one-thread result's; returns the one-thread results."""
    xp.set_num_threads(THREADS[0])
    ref = compute()
    differ = []
    for nt in THREADS[1:]:
        xp.set_num_threads(nt)
        got = compute()
        differ += [f"{name} ({nt} threads)" for name in ref if _bits(got[name]) != _bits(ref[name])]
    assert not differ, "other bits than with 1 thread: " + ", ".join(differ)
    return ref


def _check_numpy(got: dict, want: dict, dtype: str) -> None:
    for name, w in want.items():
        w = np.asarray(w)
        # products of millions of float32 values drift by more than sums
        rtol = RTOL[dtype] * (10 if name.startswith("prod") else 1)
        np.testing.assert_allclose(np.asarray(got[name]), w, rtol=rtol,
                                   atol=rtol * float(np.max(np.abs(w))), err_msg=name)


# 10,000,013 complex elements would take 160 MB and add little: the real
# dtypes take both lengths, the complex ones the first
@pytest.mark.parametrize("dtype, n", [(d, 4_000_007) for d in FLOATS]
                         + [("float32", 10_000_013), ("float64", 10_000_013)])
def test_full_reductions(threads, dtype, n):
    a = _values(dtype, (n,), 1)
    p = _values(dtype, (n,), 2, product=True)
    x, y = xp.asarray(a), xp.asarray(p)

    def compute():
        return {"sum": xp.sum(x), "mean": xp.mean(x), "var": xp.var(x), "std": xp.std(x),
                "prod": xp.prod(y), "vecdot": xp.vecdot(x, x[::-1]),
                "vector_norm": xp.linalg.vector_norm(x), "cumulative_sum": xp.cumulative_sum(x)}

    got = _same_bits_for_any_thread_count(compute)
    want = {"sum": a.sum(), "mean": a.mean(), "var": a.var(), "std": a.std(), "prod": p.astype(_wide(dtype)).prod(),
            "vecdot": np.vecdot(a, a[::-1]), "vector_norm": np.linalg.vector_norm(a)}
    _check_numpy(got, want, dtype)
    c = np.asarray(got["cumulative_sum"])
    assert c.shape == a.shape
    np.testing.assert_allclose(c[-1], a.sum(), rtol=RTOL[dtype] * 100)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_axis_reductions(threads, dtype, order):
    a = _values(dtype, (1201, 1103), 3)
    p = _values(dtype, (1201, 1103), 4, product=True)
    x, y = xp.asarray(a), xp.asarray(p)
    if order == "F":  # the same values, stored column by column: a view of the transpose
        a, p = np.asfortranarray(a), np.asfortranarray(p)
        x, y = xp.asarray(a.T).T, xp.asarray(p.T).T

    def compute():
        r = {}
        for axis in (0, 1):
            r.update({f"sum{axis}": xp.sum(x, axis=axis), f"mean{axis}": xp.mean(x, axis=axis),
                      f"var{axis}": xp.var(x, axis=axis), f"std{axis}": xp.std(x, axis=axis),
                      f"prod{axis}": xp.prod(y, axis=axis),
                      f"vecdot{axis}": xp.vecdot(x, y, axis=axis),
                      f"vector_norm{axis}": xp.linalg.vector_norm(x, axis=axis),
                      f"cumulative_sum{axis}": xp.cumulative_sum(x, axis=axis)})
        return r

    got = _same_bits_for_any_thread_count(compute)
    want = {}
    for axis in (0, 1):
        want.update({f"sum{axis}": a.sum(axis), f"mean{axis}": a.mean(axis),
                     f"var{axis}": a.var(axis), f"std{axis}": a.std(axis),
                     f"prod{axis}": p.astype(_wide(dtype)).prod(axis), f"vecdot{axis}": np.vecdot(a, p, axis=axis),
                     f"vector_norm{axis}": np.linalg.vector_norm(a, axis=axis),
                     f"cumulative_sum{axis}": np.cumsum(a, axis=axis)})
    _check_numpy(got, want, dtype)


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_reductions_of_three_dims(threads, dtype):
    """A kept innermost dim with outer dims (the column blocks, the column
    chunks of squared deviations), a reduced innermost dim between kept
    ones, and stepped views."""
    a = _values(dtype, (6, 701, 1001), 5)
    x = xp.asarray(a)

    def compute():
        return {"sum1": xp.sum(x, axis=1), "sum01": xp.sum(x, axis=(0, 1)),
                "sum02": xp.sum(x, axis=(0, 2)), "mean1": xp.mean(x, axis=1),
                "std02": xp.std(x, axis=(0, 2)), "var1": xp.var(x, axis=1),
                "var01": xp.var(x, axis=(0, 1)), "sum_stepped": xp.sum(x[:, ::2, ::-1]),
                "var_stepped": xp.var(x[::-1, :, ::3], axis=(0, 1))}

    got = _same_bits_for_any_thread_count(compute)
    want = {"sum1": a.sum(1), "sum01": a.sum((0, 1)), "sum02": a.sum((0, 2)),
            "mean1": a.mean(1), "std02": a.std(axis=(0, 2)), "var1": a.var(axis=1),
            "var01": a.var(axis=(0, 1)), "sum_stepped": a[:, ::2, ::-1].sum(),
            "var_stepped": a[::-1, :, ::3].var(axis=(0, 1))}
    _check_numpy(got, want, dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "complex64"])
def test_var_std_one_pass(threads, dtype):
    """var and std read each block once and merge blocks' moments: the merges
    follow fixed parts, whatever the thread count; values with a large mean,
    in a C-ordered matrix, its transpose, a stepped view and a full run."""
    rng = np.random.default_rng(8)
    a = rng.standard_normal((1201, 1103)) + 1e4
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(a.shape)
    a = a.astype(dtype)
    flat = (rng.standard_normal(3_000_017) + 1e4).astype(dtype)
    x, f = xp.asarray(a), xp.asarray(flat)

    def compute():
        r = {"var_full": xp.var(f), "std_full": xp.std(f, correction=1),
             "var_T_None": xp.var(x.T), "var_step": xp.var(x[::-3, ::2], axis=0)}
        for axis in (0, 1):
            r[f"var{axis}"] = xp.var(x, axis=axis)
            r[f"std_T{axis}"] = xp.std(x.T, axis=axis)
        return r

    got = _same_bits_for_any_thread_count(compute)
    wide = "complex128" if dtype.startswith("complex") else "float64"
    aw, fw = a.astype(wide), flat.astype(wide)
    want = {"var_full": fw.var(), "std_full": fw.std(ddof=1), "var_T_None": aw.T.var(),
            "var_step": aw[::-3, ::2].var(axis=0)}
    for axis in (0, 1):
        want[f"var{axis}"] = aw.var(axis=axis)
        want[f"std_T{axis}"] = aw.T.std(axis=axis)
    rtol = {"float64": 1e-12, "float32": 1e-6, "float16": 2e-3, "complex64": 1e-6}[dtype]
    for name, w in want.items():
        np.testing.assert_allclose(np.asarray(got[name]).astype("float64"), w, rtol=rtol, err_msg=name)
