"""A newcomer's first-hour habits from NumPy that arrstride accepts with
NumPy's result: hasattr on a bool array's numeric parts, objects with
__array__, x.sort(), x.nbytes, x.itemsize, squeeze without axis, dtype
strings, x == None."""
import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same
from layouts import make, make_with_base, params, DTYPE_NAMES


def test_a_bool_array_has_no_real_or_imag_attribute():
    b = xp.asarray([True, False])
    assert not hasattr(b, "real") and not hasattr(b, "imag")
    assert getattr(b, "real", "none") == "none"
    with pytest.raises(AttributeError, match="Array.real"):
        b.real
    with pytest.raises(TypeError, match="real"):
        xp.real(b)          # the function keeps the standard's refusal
    f = xp.asarray([1.0, 2.0])
    assert f.real.tolist() == [1.0, 2.0] and f.imag.tolist() == [0.0, 0.0]


class _HasArray:
    """The smallest __array__ exporter (what pandas.Series and xarray give)."""

    def __init__(self, values):
        self.values = values
        self.calls = []

    def __array__(self, dtype=None, copy=None):
        self.calls.append(copy)
        return self.values


class _OldArray:
    """__array__ of NumPy 1's signature (no copy argument)."""

    def __array__(self, dtype=None):
        return np.arange(3.0)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
def test_asarray_of_an_object_with_array_method(dtype):
    n = np.asarray(np.arange(6).reshape(2, 3) % 2, dtype=dtype)[:, ::-1]
    obj = _HasArray(n)
    assert_same(xp.asarray(obj), np.asarray(obj))
    assert_same(xp.asarray(obj, dtype=xp.float64), np.asarray(obj, dtype=np.float64))
    assert_same(xp.asarray(obj, copy=False), n)
    assert obj.calls[-1] is False


def test_asarray_of_array_method_objects_more():
    assert xp.asarray(_OldArray()).tolist() == [0.0, 1.0, 2.0]
    assert xp.asarray(_OldArray(), copy=False).tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(TypeError, match="asarray: __array__ must return an array"):
        xp.asarray(_HasArray("not an array"))
    inner = xp.asarray([1, 2])
    assert xp.asarray(_HasArray(inner)) is inner
    pd = pytest.importorskip("pandas")
    s = pd.Series([1.0, 2.0, 3.0])
    assert_same(xp.asarray(s), np.asarray(s))


@pytest.mark.parametrize("layout", [p for p in params() if p.values[0] != "broadcast"])
def test_sort_method_sorts_in_place(layout):
    for dtype in ("int16", "float32", "float64", "uint8"):
        a, n, base, nbase = make_with_base(layout, (3, 4), dtype)
        for axis in ((-1, 0) if n.ndim >= 2 else (-1,) if n.ndim else ()):
            assert a.sort(axis=axis) is None
            n.sort(axis=axis)
            assert_same(a, n)
            assert_same(base, nbase)
    with pytest.raises(TypeError, match="Array.sort"):
        xp.asarray([1, 2]).sort(order="x")


def test_nbytes_itemsize_and_squeeze_without_axis():
    for name in DTYPE_NAMES:
        a, n = make("stepped", (3, 4), name)
        assert a.nbytes == n.nbytes and a.itemsize == n.itemsize
    a, n = make("size1", (3, 1), "float64")
    assert_same(xp.squeeze(a), np.squeeze(n))
    assert xp.squeeze(xp.zeros((1, 1))).shape == ()
    assert xp.zeros((1, 3, 1)).squeeze().shape == (3,)
    with pytest.raises(ValueError, match="squeeze"):
        xp.squeeze(xp.zeros((2, 1)), axis=0)


@pytest.mark.parametrize("spelling", ["float", "int", "complex", "i4", "<i4", "=f8", "|b1", "u1",
                                      "f", "d", "?", "float32", "c8", "i8", "uint16", "double"])
def test_dtype_strings_as_numpy_reads_them(spelling):
    want = np.dtype(spelling).name
    assert xp.asarray([1], dtype=spelling).dtype == want
    assert xp.zeros(2, dtype=spelling).dtype == want
    assert xp.astype(xp.asarray([1]), spelling).dtype == want


@pytest.mark.parametrize("spelling", [">i4", "S3", "U", "datetime64", "O", "float128", "i3"])
def test_other_dtype_strings_are_refused(spelling):
    with pytest.raises(TypeError, match="dtype"):
        xp.asarray([1], dtype=spelling)


@pytest.mark.parametrize("layout", params())
def test_comparing_with_none_is_element_by_element(layout):
    for dtype in ("bool", "int32", "float64", "complex64"):
        a, n = make(layout, (3, 4), dtype)
        assert_same(a == None, n == None)  # noqa: E711
        assert_same(a != None, n != None)  # noqa: E711
    with pytest.raises(TypeError):
        xp.asarray([1.0]) < None


def test_numpy_functions_on_arrstride_arrays_as_the_guide_says():
    """docs/guide/coming_from_numpy.md: ufuncs and method-backed functions give
    arrstride arrays, the rest NumPy arrays (the rows marked there)."""
    x = xp.asarray([[1.0, 4.0], [9.0, 2.0]])
    for f in (np.sqrt, np.exp, lambda v: np.sum(v), lambda v: np.clip(v, 0, 3)):
        assert isinstance(f(x), xp.Array)
    for f in (lambda v: np.where(v > 2, v, 0), np.sort, lambda v: np.concatenate([v, v]),
              np.linalg.inv):
        assert isinstance(f(x), np.ndarray)


def test_list_of_objects_with_array_method():
    class Wrapped:
        def __init__(self, values):
            self.values = values

        def __array__(self, dtype=None, copy=None):
            return np.asarray(self.values, dtype=dtype)

    got = xp.asarray([Wrapped([1.0, 2.0]), Wrapped([3.0, 4.0])])
    want = np.asarray([np.asarray([1.0, 2.0]), np.asarray([3.0, 4.0])])
    assert got.shape == want.shape and got.tolist() == want.tolist()
