"""Broadcast views are read-only, as NumPy's are; the
PyTorch-style `expand` keeps write-through."""
import numpy as np
import pytest

import arrstride as xp


def _writes(v):
    def setitem():
        v[(0,) * v.ndim] = 1

    def inplace():
        w = v
        w += 1

    return setitem, inplace


@pytest.mark.parametrize("make", [
    lambda a: xp.broadcast_to(a, (4, 3)),
    lambda a: xp.broadcast_to(a, (3,)),            # no new dims: still a broadcast_to view
    lambda a: xp.broadcast_arrays(a, xp.ones((2, 1)))[0],
    lambda a: xp.broadcast_to(a, (4, 3))[1:, ::-1],  # views of it stay read-only
    lambda a: xp.broadcast_to(a, (4, 3)).T,
])
def test_broadcast_views_refuse_writes(make):
    a = xp.arange(3.0)
    v = make(a)
    for write in _writes(v):
        with pytest.raises(ValueError, match="read-only.*broadcast_(to|arrays).*copy it first"):
            write()
    assert a.tolist() == [0.0, 1.0, 2.0]  # nothing lost or changed
    assert v.storage.readonly and not a.storage.readonly
    c = xp.asarray(v, copy=True)           # the way out the message names
    c[(0,) * c.ndim] = 7
    assert float(c[(0,) * c.ndim]) == 7 and a.tolist() == [0.0, 1.0, 2.0]


def test_broadcast_views_read_and_export_as_read_only():
    a = xp.arange(3.0)
    v = xp.broadcast_to(a, (4, 3))
    assert v.tolist() == np.broadcast_to(np.arange(3.0), (4, 3)).tolist()
    n = np.asarray(v)
    assert not n.flags.writeable and n.strides == (0, 8)
    d = np.from_dlpack(v)
    assert not d.flags.writeable
    a[0] = 5  # the base stays writable, and the view sees the write
    assert v[3, 0] == 5.0


def test_expand_keeps_write_through():
    a = xp.zeros(3)
    e = xp.expand(a, (4, 3))
    assert not e.storage.readonly
    e[0, 1] = 2.0                  # one element, reached once by this index
    assert a.tolist() == [0.0, 2.0, 0.0] and e[3, 1] == 2.0
    with pytest.raises(ValueError, match="two indices"):
        e[...] = 1.0               # a write through the stride 0 itself is refused


def test_broadcast_arrays_returns_arguments_of_the_shape_as_they_are():
    """As NumPy's: an argument that already has the broadcast shape comes back
    itself, writable (SciPy's elementwise solvers write into it); the ones
    that broadcast are read-only views."""
    a, b = xp.arange(3.0), xp.zeros((2, 3))
    ra, rb = xp.broadcast_arrays(a, b)
    na, nb = np.broadcast_arrays(np.arange(3.0), np.zeros((2, 3)))
    assert rb is b and ra is not a
    assert ra.shape == na.shape == (2, 3)
    with pytest.raises(ValueError, match="read-only"):
        ra[0, 0] = 1.0
    rb[0, 0] = 5.0
    assert b[0, 0] == 5.0
    (only,) = xp.broadcast_arrays(a)
    assert only is a
    only[xp.isinf(only)] = 0.0  # a write through a mask works on it
    x, y = xp.broadcast_arrays(a, a)
    assert x is a and y is a
