"""set_printoptions / get_printoptions / printoptions and summarized reprs, against
NumPy's text (with "Array(" for "array(")."""
import threading

import numpy as np
import pytest

import arrstride as xp

OPTS = [
    {}, {"precision": 3}, {"precision": 0}, {"threshold": 10}, {"threshold": 10, "edgeitems": 1},
    {"edgeitems": 5}, {"linewidth": 40}, {"linewidth": 200}, {"suppress": True},
    {"suppress": True, "precision": 2}, {"threshold": 0, "edgeitems": 2},
]
ARRAYS = [
    np.arange(2000, dtype=np.int64), np.arange(3000.0).reshape(30, 100) / 7,
    np.linspace(0, 1, 1500, dtype=np.float32), np.array([1e-10, 1.0, 123.456]),
    np.array([1e-5, 2.5e-3, 3.0]), np.arange(24).reshape(2, 3, 4), np.array([1 / 3, 2 / 3, 1e9]),
    (np.arange(1200) % 2).astype(bool), np.array([1 + 2j, 1e-7 - 3j]), np.arange(12.0).reshape(3, 4).T,
    np.arange(4000, dtype=np.uint8).reshape(10, 20, 20)[:, ::-1, ::3],
]


def as_ours(text: str) -> str:
    return text.replace("array(", "Array(").replace("\n      ", "\n      ")


@pytest.mark.parametrize("opts", OPTS, ids=[str(o) for o in OPTS])
@pytest.mark.parametrize("i", range(len(ARRAYS)))
def test_repr_and_str_match_numpy(opts, i):
    a = ARRAYS[i]
    x = xp.asarray(a)
    with np.printoptions(**opts), xp.printoptions(**opts):
        want_repr = np.array_repr(a).replace("array(", "Array(")
        # NumPy indents continuation lines by len("array(") = len("Array("): the same text
        assert repr(x) == want_repr
        assert str(x) == str(a)


def test_set_get_and_context():
    before = xp.get_printoptions()
    assert before == {"precision": 8, "threshold": 1000, "edgeitems": 3, "linewidth": 75,
                      "suppress": False}
    try:
        xp.set_printoptions(precision=4, suppress=True)
        assert xp.get_printoptions()["precision"] == 4 and xp.get_printoptions()["suppress"] is True
        with xp.printoptions(precision=1) as inside:
            assert inside["precision"] == 1 and inside["suppress"] is True
            assert repr(xp.asarray([0.25])) == "Array([0.2])"
            seen = []
            t = threading.Thread(target=lambda: seen.append(xp.get_printoptions()["precision"]))
            t.start()
            t.join()
            assert seen == [8]  # options are per thread (a context variable), as NumPy's
        assert xp.get_printoptions()["precision"] == 4
    finally:
        xp.set_printoptions(**before)
    assert xp.get_printoptions() == before


@pytest.mark.parametrize("kw,exc,fragment", [
    ({"precision": -1}, ValueError, "set_printoptions: precision must be non-negative"),
    ({"precision": 2.5}, TypeError, "set_printoptions: precision must be an int"),
    ({"threshold": "many"}, TypeError, "threshold must be an int"),
    ({"linewidth": 0}, ValueError, "linewidth must be positive"),
    ({"edgeitems": -2}, ValueError, "edgeitems must be non-negative"),
])
def test_bad_options(kw, exc, fragment):
    before = xp.get_printoptions()
    with pytest.raises(exc, match=fragment):
        xp.set_printoptions(**kw)
    with pytest.raises(exc, match=fragment.replace("set_printoptions", "printoptions")):
        with xp.printoptions(**kw):
            pass
    assert xp.get_printoptions() == before
