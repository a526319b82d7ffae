"""Arrays pickle as (dtype, shape, data) in every layout (Cubed's processes
executor ships chunks this way); foreign dtypes are accepted by name."""
import pickle

import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same, shares
from layouts import ALL, DTYPES, make, params


@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_pickle_round_trip(layout, dtype):
    a, n = make(layout, (3, 4), dtype)
    b = pickle.loads(pickle.dumps(a))
    assert_same(b, n)
    assert not shares(a, b)
    assert b.is_contiguous()


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_numpy_dtypes_accepted_and_equal(dtype):
    nd = np.dtype(dtype.name)
    assert dtype == nd and dtype == nd.type
    assert xp.zeros(3, dtype=nd).dtype is dtype
    assert xp.astype(xp.ones(2), nd).dtype is dtype
    assert xp.isdtype(nd, dtype)


def test_foreign_dtypes_refused_clearly():
    with pytest.raises(TypeError, match="zeros: dtype must be an arrstride dtype"):
        xp.zeros(3, dtype=np.longdouble)
    with pytest.raises(TypeError, match="zeros: dtype must be an arrstride dtype"):
        xp.zeros(3, dtype="float128")
    assert xp.float64 != "float32"
    assert xp.float64 != np.dtype(">f8")
