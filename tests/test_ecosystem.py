"""arrstride swapped into array-API-agnostic libraries: array-api-compat,
array-api-extra, scikit-learn (array_api_dispatch), Cubed and xarray. Every result is
compared with the same library run on NumPy. Small data: the file runs in
well under a minute."""
from __future__ import annotations

import os

# scipy reads SCIPY_ARRAY_API once, at import; scikit-learn's array API support needs it.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import arrstride as xp  # noqa: E402

REQUIRES = "test extra of pyproject.toml (pip install -e .[test])"


def need(module: str):
    return pytest.importorskip(module, reason=f"{module} is not installed; it is in the {REQUIRES}")


def to_np(a):
    assert isinstance(a, xp.Array), f"expected an arrstride array, got {type(a).__name__}"
    return np.asarray(a)


def rng(seed=0):
    return np.random.default_rng(seed)


# ---- array-api-compat ------------------------------------------------------------------------

def test_array_api_compat_helpers():
    compat = need("array_api_compat")
    x = xp.reshape(xp.arange(6.0), (2, 3))
    assert compat.array_namespace(x) is xp
    assert compat.array_namespace(x, x[0, :]) is xp
    assert compat.is_array_api_obj(x)
    dev = compat.device(x)
    assert dev == xp.__array_namespace_info__().default_device() == x.device
    assert compat.to_device(x, dev) is x
    with pytest.raises(ValueError):
        compat.to_device(x, "cuda")
    assert compat.size(x) == 6 and compat.size(xp.ones((0, 4))) == 0
    assert compat.is_writeable_array(x)
    # compat cannot see arrstride's read-only flag (it says True for unknown
    # libraries); arrstride itself refuses the write.
    n = np.ones(2)
    n.flags.writeable = False
    ro = xp.asarray(n)
    with pytest.raises(ValueError, match="read-only"):
        ro[0] = 2.0


# ---- array-api-extra ---------------------------------------------------------------------------

def _extra_cases():
    a = rng(1).standard_normal((4, 5))
    v = np.array([3.0, 1.0, 2.0, 3.0, 1.0])
    i = np.array([5, 1, 2, 2, 7])
    return [
        ("atleast_nd", lambda m, ns: m.atleast_nd(ns.asarray(v), ndim=3, xp=ns)),
        ("cov", lambda m, ns: m.cov(ns.asarray(a), xp=ns)),
        ("create_diagonal", lambda m, ns: m.create_diagonal(ns.asarray(v), offset=1, xp=ns)),
        ("expand_dims", lambda m, ns: m.expand_dims(ns.asarray(a), axis=(0, 2), xp=ns)),
        ("kron", lambda m, ns: m.kron(ns.asarray(a[:2, :2]), ns.asarray(a[2:, 3:]), xp=ns)),
        ("nunique", lambda m, ns: m.nunique(ns.asarray(i), xp=ns)),
        ("pad", lambda m, ns: m.pad(ns.asarray(a), 2, constant_values=1.5, xp=ns)),
        ("setdiff1d", lambda m, ns: m.setdiff1d(ns.asarray(i), ns.asarray(i[:2]), xp=ns)),
        ("sinc", lambda m, ns: m.sinc(ns.asarray(a), xp=ns)),
        ("isclose", lambda m, ns: m.isclose(ns.asarray(a), ns.asarray(a + 1e-9), xp=ns)),
        ("at-set", lambda m, ns: m.at(ns.asarray(a))[1:3, ::2].set(0.0)),
        ("at-add", lambda m, ns: m.at(ns.asarray(v), ns.asarray(v > 1.5)).add(10.0)),
        ("one_hot", lambda m, ns: m.one_hot(ns.asarray(i[:3]), 8, xp=ns)),
        ("apply_where", lambda m, ns: m.apply_where(ns.asarray(v) > 1.5, ns.asarray(v),
                                                    lambda t: t * 2, fill_value=-1.0, xp=ns)),
        ("nan_to_num", lambda m, ns: m.nan_to_num(ns.asarray(np.array([np.nan, np.inf, 1.0])), xp=ns)),
        ("broadcast_shapes", lambda m, ns: np.asarray(m.broadcast_shapes((3, 1), (1, 4)))),
        ("partition", lambda m, ns: m.partition(ns.asarray(v), 2, xp=ns)[2:3]),
    ]


@pytest.mark.parametrize("name,call", _extra_cases(), ids=[c[0] for c in _extra_cases()])
def test_array_api_extra(name, call):
    xpx = need("array_api_extra")
    expected = np.asarray(call(xpx, np))
    got = call(xpx, xp)
    got = np.asarray(got) if isinstance(got, xp.Array) else np.asarray(got)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


# ---- scikit-learn ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sk():
    sklearn = need("sklearn")
    scipy_api = need("scipy._lib._array_api")
    if not scipy_api.SCIPY_ARRAY_API:
        pytest.fail("scipy was imported before SCIPY_ARRAY_API=1 was set; run with SCIPY_ARRAY_API=1")
    return sklearn


@pytest.fixture(scope="module")
def data():
    r = rng(2)
    X = r.standard_normal((60, 5))
    X[:, 1] *= 3.0
    y_reg = X @ r.standard_normal(5) + 0.1 * r.standard_normal(60)
    y_cls = (X[:, 0] + 0.5 * X[:, 2] > 0).astype(np.int64)
    y_3 = np.digitize(X[:, 0] + X[:, 3], [-0.7, 0.7]).astype(np.int64)
    return X, y_reg, y_cls, y_3


def both(sk, make, X, y=None, method="transform", fit_kwargs=None):
    """Fit make() on NumPy and on arrstride and call `method`: (arrstride result, NumPy result)."""
    fit_kwargs = fit_kwargs or {}
    est_n = make().fit(X, y, **fit_kwargs) if y is not None else make().fit(X, **fit_kwargs)
    with sk.config_context(array_api_dispatch=True):
        Xa = xp.asarray(X)
        ya = None if y is None else xp.asarray(y)
        est_a = make().fit(Xa, ya, **fit_kwargs) if y is not None else make().fit(Xa, **fit_kwargs)
        out_a = getattr(est_a, method)(Xa)
    return out_a, getattr(est_n, method)(X)


def check(out_a, out_n, rtol=1e-7, atol=1e-9):
    np.testing.assert_allclose(to_np(out_a), out_n, rtol=rtol, atol=atol)


def _transformers():
    from sklearn import preprocessing as pre
    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import Nystroem
    return {
        "StandardScaler": pre.StandardScaler,
        "MinMaxScaler": pre.MinMaxScaler,
        "MaxAbsScaler": pre.MaxAbsScaler,
        "Normalizer": pre.Normalizer,
        "PolynomialFeatures": lambda: pre.PolynomialFeatures(degree=2),
        "PCA-full": lambda: PCA(n_components=3, svd_solver="full"),
        "PCA-randomized": lambda: PCA(n_components=3, svd_solver="randomized", random_state=0),
        "Nystroem": lambda: Nystroem(n_components=20, random_state=0),
    }


TRANSFORMERS = ["StandardScaler", "MinMaxScaler", "MaxAbsScaler", "Normalizer",
                "PolynomialFeatures", "PCA-full", "PCA-randomized", "Nystroem"]


@pytest.mark.parametrize("name", TRANSFORMERS)
def test_sklearn_transformers(sk, data, name):
    X = data[0]
    out_a, out_n = both(sk, _transformers()[name], X)
    if name.startswith("PCA"):  # components are defined up to sign
        out_a, out_n = np.abs(to_np(out_a)), np.abs(out_n)
        np.testing.assert_allclose(out_a, out_n, rtol=1e-6, atol=1e-8)
    else:
        check(out_a, out_n)


def _predictors():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression, Ridge, RidgeClassifier, RidgeCV
    return {
        "Ridge": (Ridge, 1, "predict"),
        "RidgeCV": (lambda: RidgeCV(alphas=(0.1, 1.0, 10.0)), 1, "predict"),
        "RidgeClassifier": (RidgeClassifier, 2, "predict"),
        "LogisticRegression": (lambda: LogisticRegression(solver="lbfgs"), 3, "predict_proba"),
        "LinearDiscriminantAnalysis": (LinearDiscriminantAnalysis, 3, "predict_proba"),
        "LDA-transform": (LinearDiscriminantAnalysis, 3, "transform"),
    }


PREDICTORS = ["Ridge", "RidgeCV", "RidgeClassifier", "LogisticRegression",
              "LinearDiscriminantAnalysis", "LDA-transform"]


@pytest.mark.parametrize("name", PREDICTORS)
def test_sklearn_predictors(sk, data, name):
    make, target, method = _predictors()[name]
    out_a, out_n = both(sk, make, data[0], data[target], method=method)
    rtol = 1e-4 if name == "LogisticRegression" else 1e-7  # lbfgs stops on a tolerance
    check(out_a, out_n, rtol=rtol, atol=1e-6 if name == "LogisticRegression" else 1e-9)


def test_sklearn_gaussian_mixture(sk, data):
    from sklearn.mixture import GaussianMixture
    X = data[0]
    out_a, out_n = both(sk, lambda: GaussianMixture(n_components=2, random_state=0, init_params="random_from_data"),
                        X, method="predict_proba")
    check(out_a, out_n, rtol=1e-5, atol=1e-7)


def test_sklearn_label_encoding(sk, data):
    from sklearn.preprocessing import LabelBinarizer, LabelEncoder
    y = np.array([3, 1, 7, 3, 3, 1])
    with sk.config_context(array_api_dispatch=True):
        enc = LabelEncoder().fit(xp.asarray(y))
        codes = enc.transform(xp.asarray(y))
        back = enc.inverse_transform(codes)
        binar = LabelBinarizer().fit_transform(xp.asarray(data[3]))
    np.testing.assert_array_equal(to_np(codes), LabelEncoder().fit_transform(y))
    np.testing.assert_array_equal(to_np(back), y)
    np.testing.assert_array_equal(to_np(binar), LabelBinarizer().fit_transform(data[3]))


def test_sklearn_grid_search_pipeline(sk, data):
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    X, y = data[0], data[1]

    def make():
        return GridSearchCV(make_pipeline(StandardScaler(), Ridge()),
                            {"ridge__alpha": [0.1, 1.0, 10.0]}, cv=3)

    search_n = make().fit(X, y)
    with sk.config_context(array_api_dispatch=True):
        search_a = make().fit(xp.asarray(X), xp.asarray(y))
        pred = search_a.predict(xp.asarray(X))
    assert search_a.best_params_ == search_n.best_params_
    check(pred, search_n.predict(X))


def _metrics():
    from sklearn import metrics as M
    from sklearn.metrics import pairwise as P
    return {
        "accuracy_score": (M.accuracy_score, "cls"),
        "zero_one_loss": (M.zero_one_loss, "cls"),
        "f1_score": (M.f1_score, "cls"),
        "precision_score": (M.precision_score, "cls"),
        "recall_score": (M.recall_score, "cls"),
        "confusion_matrix": (M.confusion_matrix, "cls"),
        "hamming_loss": (M.hamming_loss, "cls"),
        "roc_auc_score": (M.roc_auc_score, "score"),  # logical_or of float arrays
        "average_precision_score": (M.average_precision_score, "score"),
        "r2_score": (M.r2_score, "reg"),
        "mean_squared_error": (M.mean_squared_error, "reg"),
        "mean_absolute_error": (M.mean_absolute_error, "reg"),
        "explained_variance_score": (M.explained_variance_score, "reg"),
        "mean_absolute_percentage_error": (M.mean_absolute_percentage_error, "reg"),
        "median_absolute_error": (M.median_absolute_error, "reg"),  # probes xp.median
        "euclidean_distances": (P.euclidean_distances, "pair"),
        "cosine_similarity": (P.cosine_similarity, "pair"),
        "rbf_kernel": (P.rbf_kernel, "pair"),
        "polynomial_kernel": (P.polynomial_kernel, "pair"),
    }


@pytest.mark.parametrize("name", ["accuracy_score", "zero_one_loss", "f1_score", "precision_score",
                                  "recall_score", "confusion_matrix", "hamming_loss", "roc_auc_score",
                                  "average_precision_score", "r2_score",
                                  "mean_squared_error", "mean_absolute_error",
                                  "explained_variance_score", "mean_absolute_percentage_error",
                                  "median_absolute_error", "euclidean_distances", "cosine_similarity", "rbf_kernel",
                                  "polynomial_kernel"])
def test_sklearn_metrics(sk, data, name):
    fn, kind = _metrics()[name]
    r = rng(3)
    if kind == "cls":
        a, b = data[2], (data[2] ^ (r.random(60) < 0.2)).astype(np.int64)
    elif kind == "reg":
        a, b = data[1], data[1] + 0.3 * r.standard_normal(60)
    elif kind == "score":  # labels and scores, with ties
        a, b = data[2], np.round(data[0][:, 0] + r.standard_normal(60), 1)
    else:
        a, b = data[0][:7], data[0][7:12]
    expected = fn(a, b)
    with sk.config_context(array_api_dispatch=True):
        got = fn(xp.asarray(a), xp.asarray(b))
    got = to_np(got) if isinstance(got, xp.Array) else np.asarray(float(got))
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


# ---- Cubed -----------------------------------------------------------------------------------------

CUBED_SCRIPT = r"""
import warnings
warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's oracle: mean of an all-NaN row
import numpy as np, cubed, cubed.array_api as cxp
from cubed.backend_array_api import namespace as nxp
assert nxp.__name__ == "arrstride", nxp
from cubed.runtime.create import create_executor
spec = cubed.Spec(work_dir={work_dir!r}, allowed_mem="200MB")
r = np.random.default_rng(4)
A, B = r.standard_normal((8, 6)), r.standard_normal((6, 5))
a = cxp.asarray(nxp.asarray(A), chunks=(3, 4), spec=spec)
b = cxp.asarray(nxp.asarray(B), chunks=(4, 2), spec=spec)
results = {{
    "elementwise": (cxp.add(cxp.multiply(a, 2.0), cxp.abs(a)), 2 * A + np.abs(A)),
    "sum": (cxp.sum(a, axis=0), A.sum(axis=0)),
    "mean": (cxp.mean(a), A.mean()),
    "max": (cxp.max(a, axis=1), A.max(axis=1)),
    "matmul": (cxp.matmul(a, b), A @ B),
    # Cubed's var and std call mean(x, dtype=...) and take(x, 0, axis=...) on the backend
    "std": (cxp.std(a, axis=0), A.std(axis=0)),
    "var": (cxp.var(a, correction=1), A.var(ddof=1)),
}}
An = A.copy()
An[1, 2] = np.nan
An[5, :] = np.nan
an = cxp.asarray(nxp.asarray(An), chunks=(3, 4), spec=spec)
results["nanmean"] = (cubed.nanmean(an, axis=1), np.nanmean(An, axis=1))  # the backend's nansum
results["nansum"] = (cubed.nansum(an, axis=0), np.nansum(An, axis=0))
for name, (lazy, expected) in results.items():
    got = lazy.compute(executor=create_executor({executor!r}))
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, atol=1e-12, err_msg=name)
print("cubed ok")
"""


# Cubed normalizes every dtype to a NumPy dtype and hands those back to the
# backend (nxp.asarray(x, dtype=numpy.float64), scalar promotion compares
# numpy dtypes with nxp.float64): arrstride accepts NumPy dtypes of the
# standard's 13 in dtype= arguments and compares equal to them for this.
@pytest.mark.parametrize("executor", ["threads", "processes"])
def test_cubed_backend(executor, tmp_path):
    need("cubed")
    import subprocess
    import sys
    env = dict(os.environ, CUBED_BACKEND_ARRAY_API_MODULE="arrstride")
    root = os.path.dirname(os.path.dirname(os.path.abspath(xp.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    script = CUBED_SCRIPT.format(work_dir=str(tmp_path), executor=executor)
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and "cubed ok" in proc.stdout, proc.stderr[-3000:]


# ---- xarray ----------------------------------------------------------------------------------------
# xarray wraps any array with __array_namespace__. It asks isinstance(dtype,
# numpy.dtype) before filling, shifting and padding, passes dtype names
# ('int8') to result_type, reduces with xp.nanmean & co. when skipna, and
# builds rolling windows with xp.lib.stride_tricks.sliding_window_view.

def _xr_pair(values):
    xr = pytest.importorskip("xarray", reason=f"xarray is not installed; it is in the {REQUIRES}")
    dims = ("x", "y")[:values.ndim]
    return xr, xr.DataArray(values, dims=dims), xr.DataArray(xp.asarray(values), dims=dims)


def _xr_check(got, expected):
    assert isinstance(got.data, xp.Array), f"xarray handed back {type(got.data).__name__}"
    np.testing.assert_allclose(np.asarray(got.data), np.asarray(expected.data), rtol=1e-12,
                               atol=1e-12, equal_nan=True)
    assert got.dims == expected.dims


XR_VALUES = np.array([[1.0, np.nan, 3.0, 4.5], [np.nan, np.nan, np.nan, np.nan],
                      [2.0, -1.0, 7.0, 0.25]])

XR_OPS = {
    "mean": lambda xr, d: d.mean(),
    "mean_y": lambda xr, d: d.mean("y"),
    "sum_x": lambda xr, d: d.sum("x"),
    "max_y": lambda xr, d: d.max("y"),
    "min": lambda xr, d: d.min(),
    "std_x": lambda xr, d: d.std("x"),
    "var_ddof": lambda xr, d: d.var("y", ddof=1),
    "prod_y": lambda xr, d: d.prod("y"),
    "median_y": lambda xr, d: d.median("y"),
    "mean_noskip": lambda xr, d: d.mean("y", skipna=False),
    "where": lambda xr, d: d.where(d > 2),
    "where_other": lambda xr, d: d.where(d > 2, -5.0),
    "xr_where": lambda xr, d: xr.where(d > 3, d, 0),
    "fillna": lambda xr, d: d.fillna(0),
    "shift": lambda xr, d: d.shift(x=1),
    "pad": lambda xr, d: d.pad(y=(1, 2)),
    "rolling_mean": lambda xr, d: d.rolling(y=2).mean(),
    "rolling_sum_center": lambda xr, d: d.rolling(y=3, center=True).sum(),
    "arith": lambda xr, d: (d * 2 + 1) / 3,
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", list(XR_OPS))
def test_xarray(name):
    xr, expected_in, got_in = _xr_pair(XR_VALUES)
    op = XR_OPS[name]
    _xr_check(op(xr, got_in), op(xr, expected_in))


def test_xarray_integer_data():
    xr, n, a = _xr_pair(np.arange(12, dtype=np.int16).reshape(3, 4))
    for op in (lambda d: d.sum("x"), lambda d: d.mean(), lambda d: d.where(d > 3),
               lambda d: xr.where(d > 3, d, 0), lambda d: d.shift(y=1)):
        _xr_check(op(a), op(n))
