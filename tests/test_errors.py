"""Bad input, one row per (function, mistake): the exception type and a stable
fragment of the message. Every public function of the namespace, linalg, fft
and the Array methods and operators is called with a non-array where an array
belongs; then, per kind of mistake, the functions where it can happen: an
axis out of range, shapes that do not broadcast, an index past an axis, an
overlapping or read-only destination, a wrong dtype category, bad shapes for
linalg, bad n/norm/s for fft, bad dtype arguments and copy=False that would
need a copy. Each kind reads the same everywhere because one builder in
arrstride/_errors.py words it; the last tests check that every builder is
exercised here and that no module words those mistakes by hand.

The rule for what counts as a mistake: where the standard leaves behaviour to
the implementation, arrstride accepts what NumPy and PyTorch both accept, and
gives NumPy's result (NumPy stays the test oracle). Where the two disagree,
follow NumPy. Where both refuse, refuse: `-mask` and `mask - mask` stay
errors here, while `mask + mask`, `(x > 0) * 1.0`, `exp` of integers,
`dtype=float` and NumPy arrays given to functions are accepted (their
results are checked against NumPy in tests/test_numpy_habits.py). Lists
where an array belongs stay refused (NumPy converts them; PyTorch's
functions do not)."""
from __future__ import annotations

import inspect
import operator
import pathlib
import re
import sys

import numpy as np
import pytest

import arrstride as xp
from arrstride import _errors

# ---- a non-array where an array belongs, for every public function ---------------------------

# the value each other required positional parameter gets (by name), so that only
# the array argument is wrong
_ARGS = {
    "x": lambda: xp.ones(4), "x1": lambda: xp.ones(4), "x2": lambda: xp.ones(4),
    "x1-int": lambda: xp.ones(4, dtype=xp.int64), "x2-int": lambda: xp.ones(4, dtype=xp.int64),
    "x1-bool": lambda: xp.ones(4, dtype=xp.bool), "x2-bool": lambda: xp.ones(4, dtype=xp.bool),
    "condition": lambda: xp.ones(4, dtype=xp.bool), "indices": lambda: xp.zeros(2, dtype=xp.int64),
    "shape": lambda: (4,), "axes": lambda: (0,), "source": lambda: 0, "destination": lambda: 0,
    "repeats": lambda: 1, "repetitions": lambda: (1,), "q": lambda: 0.5, "k": lambda: 1,
    "n": lambda: 1, "strides": lambda: (1,), "axis": lambda: 0, "start": lambda: 0,
    "length": lambda: 1, "size": lambda: 1, "step": lambda: 1, "fill_value": lambda: 0.0,
    "dtype": lambda: xp.float64, "pad_width": lambda: 1, "shift": lambda: 1, "kind": lambda: "numeric",
}
_ARRAY_PARAMS = ("x", "x1", "x2", "condition", "indices")


def _not_array_rows():
    """pytest params (function, args with a list where an array belongs, the
    function's name in messages, the parameter's name), one per array parameter."""
    rows = []
    spaces = [("", xp, xp.__all__), ("linalg.", xp.linalg, xp.linalg.__all__),
              ("fft.", xp.fft, xp.fft.__all__)]
    for prefix, mod, names in spaces:
        for name in names:
            f = getattr(mod, name)
            if not inspect.isfunction(f):
                continue
            if f.__name__ != name and getattr(mod, f.__name__, None) is f:
                continue  # NumPy's alias (amax is max): its messages name the standard's function
            params = [p for p in inspect.signature(f).parameters.values()
                      if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            for k, p in enumerate(params):
                if p.name not in _ARRAY_PARAMS:
                    continue
                kind = "-int" if name.startswith("bitwise") else "-bool" if name.startswith("logical") else ""
                args = [_ARGS[q.name + kind]() if q.name + kind in _ARGS else
                        _ARGS[q.name]() if q.name in _ARGS else None for q in params]
                if any(a is None for a in args):
                    raise AssertionError(f"no argument for {name}'s {[q.name for q in params]}")
                args[k] = [1.0, 2.0, 3.0, 4.0]
                rows.append(pytest.param(f, args, name, p.name, id=f"{prefix}{name}-{p.name}"))
    return rows


# functions taking a sequence of arrays (or *arrays): the same mistake inside it
_MANY = [
    pytest.param(xp.concat, ([xp.ones(2), [1.0, 2.0]],), "concat", "every element of arrays", id="concat"),
    pytest.param(xp.stack, ([[1.0, 2.0], xp.ones(2)],), "stack", "every element of arrays", id="stack"),
    pytest.param(xp.meshgrid, (xp.ones(2), [1.0, 2.0]), "meshgrid", "every input", id="meshgrid"),
    pytest.param(xp.broadcast_arrays, (xp.ones(2), [1.0, 2.0]), "broadcast_arrays", "every argument",
                 id="broadcast_arrays"),
]

# (function, parameter) -> the exception when it is not that of the sweep
_OTHER_ERROR = {("from_dlpack", "x"): AttributeError}  # NumPy's: no __dlpack__ attribute


@pytest.mark.parametrize("f, args, name, param", _not_array_rows() + _MANY)
def test_not_an_array(f, args, name, param, builders_called):
    """A list where an array belongs: TypeError naming the function, the
    parameter and the Python type given (worded by not_array_error)."""
    with pytest.raises(_OTHER_ERROR.get((name, param), TypeError)) as info:
        f(*args)
    if (name, param) not in _OTHER_ERROR:
        assert builders_called[-1:] == ["not_array_error"], builders_called
    text = str(info.value)
    assert text.startswith(f"{name}:"), text
    assert re.search(f"{param} must (be an arrstride|support DLPack)", text), text
    assert "got list" in text, text


# ---- the operators and methods of Array ----------------------------------------------------

_OPERATORS = ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__",
              "__and__", "__or__", "__xor__", "__lshift__", "__rshift__", "__lt__", "__le__",
              "__gt__", "__ge__", "__eq__", "__ne__", "__iadd__", "__isub__", "__imul__",
              "__itruediv__", "__ifloordiv__", "__imod__", "__ipow__", "__iand__", "__ior__",
              "__ixor__", "__ilshift__", "__irshift__"]


@pytest.mark.parametrize("op", _OPERATORS)
def test_operator_with_a_list(op, builders_called):
    """x op [..] and [..] op x: NumPy would convert the list; arrstride refuses
    it by name, never falling back to the list's own operator (x * [1, 2]
    repeating the list) or to identity (a silent False for ==)."""
    x = xp.ones(3, dtype=xp.int64)
    one = xp.asarray([2])  # has __index__: a list would repeat itself by it
    pattern = r"Array\.__\w+__: operands must be arrstride or NumPy arrays.*got list"
    with pytest.raises(TypeError, match=pattern):
        _PY_OPS[op](x, [1, 2, 3])
    with pytest.raises(TypeError, match=pattern):
        _PY_OPS[op](one, [1, 2, 3])
    if not op.startswith("__i"):
        with pytest.raises(TypeError, match=pattern):
            _PY_OPS[op]([1, 2, 3], one)
    assert set(builders_called) == {"operand_error"}, builders_called


_PY_OPS = {
    "__add__": operator.add, "__sub__": operator.sub, "__mul__": operator.mul,
    "__truediv__": operator.truediv, "__floordiv__": operator.floordiv, "__mod__": operator.mod,
    "__pow__": operator.pow, "__and__": operator.and_, "__or__": operator.or_,
    "__xor__": operator.xor, "__lshift__": operator.lshift, "__rshift__": operator.rshift,
    "__lt__": operator.lt, "__le__": operator.le, "__gt__": operator.gt, "__ge__": operator.ge,
    "__iadd__": operator.iadd, "__isub__": operator.isub, "__imul__": operator.imul,
    "__itruediv__": operator.itruediv, "__ifloordiv__": operator.ifloordiv,
    "__imod__": operator.imod, "__ipow__": operator.ipow, "__iand__": operator.iand,
    "__ior__": operator.ior, "__ixor__": operator.ixor, "__ilshift__": operator.ilshift,
    "__irshift__": operator.irshift, "__eq__": operator.eq, "__ne__": operator.ne,
}


# ---- one row per (function, mistake) ---------------------------------------------------------

def _a(*shape, dtype=xp.float64):
    return xp.reshape(xp.arange(int(np.prod(shape)), dtype=dtype), shape) if shape else \
        xp.asarray(1, dtype=dtype)


def _cube():
    return xp.reshape(xp.arange(24.0), (2, 3, 4))


def _bcast():  # a read-only view: broadcast_to
    return xp.broadcast_to(xp.ones(3), (2, 3))


def _expanded():  # a writable stride-0 view: expand (PyTorch's write-through)
    return xp.expand(xp.ones((3, 1)), (3, 4))


def _readonly_numpy():
    n = np.ones((2, 2))
    n.flags.writeable = False
    return xp.asarray(n)


def _setitem(x, key, value):
    x[key] = value


def _iop(x, op, y):
    return getattr(x, op)(y)


AXIS10 = "axis 10 is out of bounds for array of dimension 1"
v = lambda: _a(4)  # noqa: E731
c = lambda: _a(4, dtype=xp.complex128)  # noqa: E731
sq = lambda: _a(3, 3)  # noqa: E731
rect = lambda: _a(2, 3)  # noqa: E731

# id -> (call, exception, message fragments, the builder that words it)
ROWS = {
    # -- axis out of range: NumPy's wording, an AxisError (IndexError and ValueError)
    "sum-axis": (lambda: xp.sum(v(), axis=10), "axis", ["sum: " + AXIS10], "axis_error"),
    "prod-axis": (lambda: xp.prod(v(), axis=(0, 10)), "axis", ["prod: " + AXIS10], "axis_error"),
    "mean-axis": (lambda: xp.mean(v(), axis=10), "axis", ["mean: " + AXIS10], "axis_error"),
    "var-axis": (lambda: xp.var(v(), axis=10), "axis", ["var: " + AXIS10], "axis_error"),
    "std-axis": (lambda: xp.std(v(), axis=10), "axis", ["std: " + AXIS10], "axis_error"),
    "min-axis": (lambda: xp.min(v(), axis=10), "axis", ["min: " + AXIS10], "axis_error"),
    "max-axis": (lambda: xp.max(v(), axis=-10), "axis",
                 ["max: axis -10 is out of bounds for array of dimension 1"], "axis_error"),
    "all-axis": (lambda: xp.all(v(), axis=10), "axis", ["all: " + AXIS10], "axis_error"),
    "any-axis": (lambda: xp.any(v(), axis=10), "axis", ["any: " + AXIS10], "axis_error"),
    "count_nonzero-axis": (lambda: xp.count_nonzero(v(), axis=10), "axis",
                           ["count_nonzero: " + AXIS10], "axis_error"),
    "cumulative_sum-axis": (lambda: xp.cumulative_sum(v(), axis=10), "axis",
                            ["cumulative_sum: " + AXIS10], "axis_error"),
    "cumulative_prod-axis": (lambda: xp.cumulative_prod(v(), axis=10), "axis",
                             ["cumulative_prod: " + AXIS10], "axis_error"),
    "diff-axis": (lambda: xp.diff(v(), axis=10), "axis", ["diff: " + AXIS10], "axis_error"),
    "argmax-axis": (lambda: xp.argmax(v(), axis=10), "axis", ["argmax: " + AXIS10], "axis_error"),
    "argmin-axis": (lambda: xp.argmin(v(), axis=10), "axis", ["argmin: " + AXIS10], "axis_error"),
    "sort-axis": (lambda: xp.sort(v(), axis=10), "axis", ["sort: " + AXIS10], "axis_error"),
    "argsort-axis": (lambda: xp.argsort(v(), axis=10), "axis", ["argsort: " + AXIS10], "axis_error"),
    "flip-axis": (lambda: xp.flip(v(), axis=10), "axis", ["flip: " + AXIS10], "axis_error"),
    "roll-axis": (lambda: xp.roll(v(), 1, axis=10), "axis", ["roll: " + AXIS10], "axis_error"),
    "squeeze-axis": (lambda: xp.squeeze(v(), axis=10), "axis", ["squeeze: " + AXIS10], "axis_error"),
    "unstack-axis": (lambda: xp.unstack(v(), axis=10), "axis", ["unstack: " + AXIS10], "axis_error"),
    "expand_dims-axis": (lambda: xp.expand_dims(v(), axis=10), "axis",
                         ["expand_dims: axis 10 is out of bounds for array of dimension 2"],
                         "axis_error"),
    "moveaxis-axis": (lambda: xp.moveaxis(v(), 10, 0), "axis", ["moveaxis: " + AXIS10], "axis_error"),
    "permute_dims-axis": (lambda: xp.permute_dims(v(), (10,)), "axis", ["permute_dims: " + AXIS10],
                          "axis_error"),
    "concat-axis": (lambda: xp.concat([v(), v()], axis=10), "axis", ["concat: " + AXIS10],
                    "axis_error"),
    "stack-axis": (lambda: xp.stack([v(), v()], axis=10), "axis",
                   ["stack: axis 10 is out of bounds for array of dimension 2"], "axis_error"),
    "repeat-axis": (lambda: xp.repeat(v(), 2, axis=10), "axis", ["repeat: " + AXIS10], "axis_error"),
    "take-axis": (lambda: xp.take(v(), xp.asarray([0]), axis=10), "axis", ["take: " + AXIS10],
                  "axis_error"),
    "take_along_axis-axis": (lambda: xp.take_along_axis(v(), xp.asarray([0]), axis=10), "axis",
                             ["take_along_axis: " + AXIS10], "axis_error"),
    "vecdot-axis": (lambda: xp.vecdot(v(), v(), axis=10), "axis", ["vecdot: " + AXIS10], "axis_error"),
    "nansum-axis": (lambda: xp.nansum(v(), axis=10), "axis", ["nansum: " + AXIS10], "axis_error"),
    "nanmean-axis": (lambda: xp.nanmean(v(), axis=10), "axis", ["nanmean: " + AXIS10], "axis_error"),
    "nanargmax-axis": (lambda: xp.nanargmax(v(), axis=10), "axis", ["nanargmax: " + AXIS10],
                       "axis_error"),
    "median-axis": (lambda: xp.median(v(), axis=10), "axis", ["median: " + AXIS10], "axis_error"),
    "quantile-axis": (lambda: xp.quantile(v(), 0.5, axis=10), "axis", ["quantile: " + AXIS10],
                      "axis_error"),
    "top_k-axis": (lambda: xp.top_k(v(), 1, axis=10), "axis", ["top_k: " + AXIS10], "axis_error"),
    "narrow-axis": (lambda: xp.narrow(v(), 10, 0, 1), "axis", ["narrow: " + AXIS10], "axis_error"),
    "unfold-axis": (lambda: xp.unfold(v(), 10, 2, 1), "axis", ["unfold: " + AXIS10], "axis_error"),
    "fft.fft-axis": (lambda: xp.fft.fft(c(), axis=10), "axis", ["fft: " + AXIS10], "axis_error"),
    "fft.fftn-axes": (lambda: xp.fft.fftn(c(), axes=(10,)), "axis", ["fftn: " + AXIS10], "axis_error"),
    "fft.fftshift-axes": (lambda: xp.fft.fftshift(v(), axes=10), "axis", ["fftshift: " + AXIS10],
                          "axis_error"),
    "linalg.vector_norm-axis": (lambda: xp.linalg.vector_norm(v(), axis=10), "axis",
                                ["vector_norm: " + AXIS10], "axis_error"),
    "linalg.cross-axis": (lambda: xp.linalg.cross(_a(3), _a(3), axis=10), "axis",
                          ["cross: " + AXIS10], "axis_error"),

    # -- an index past an axis: NumPy's wording, the axis of the indexed array (key_error:
    # what the key parser, _core.index_key, found in the key itself)
    "getitem-index": (lambda: _cube()[0, 5], IndexError,
                      ["Array.__getitem__: index 5 is out of bounds for axis 1 with size 3"],
                      "key_error"),
    "getitem-negative-index": (lambda: _cube()[-3], IndexError,
                               ["Array.__getitem__: index -3 is out of bounds for axis 0 with size 2"],
                               "key_error"),
    "getitem-array-index": (lambda: _cube()[:, :, xp.asarray([1, 4])], IndexError,
                            ["Array.__getitem__: index 4 is out of bounds for axis 2 with size 4"],
                            "index_bounds_error"),
    "getitem-after-none": (lambda: _cube()[None, 0, xp.asarray([7])], IndexError,
                           ["Array.__getitem__: index 7 is out of bounds for axis 1 with size 3"],
                           "index_bounds_error"),
    "setitem-index": (lambda: _setitem(_cube(), (1, 1, 4), 0.0), IndexError,
                      ["Array.__setitem__: index 4 is out of bounds for axis 2 with size 4"],
                      "key_error"),
    "setitem-array-index": (lambda: _setitem(_cube(), (xp.asarray([2]),), 0.0), IndexError,
                            ["Array.__setitem__: index 2 is out of bounds for axis 0 with size 2"],
                            "index_bounds_error"),
    "take-index": (lambda: xp.take(_cube(), xp.asarray([3]), axis=1), IndexError,
                   ["take: index 3 is out of bounds for axis 1 with size 3"], "index_bounds_error"),
    "take_along_axis-index": (lambda: xp.take_along_axis(_cube(), xp.zeros((2, 3, 1), dtype=xp.int64)
                                                         + 9, axis=-1), IndexError,
                              ["take_along_axis: index 9 is out of bounds for axis 2 with size 4"],
                              "index_bounds_error"),
    "take-empty-axis": (lambda: xp.take(xp.zeros((2, 0)), xp.asarray([0]), axis=1), IndexError,
                        ["take: cannot take from the empty axis 1"], "index_error"),
    "getitem-too-many": (lambda: v()[0, 0], IndexError,
                         ["Array.__getitem__: too many indices: the array is 1-dimensional"],
                         "key_error"),
    "getitem-index-arrays-broadcast": (lambda: _cube()[xp.asarray([0, 1]), xp.asarray([0, 1, 2])],
                                       IndexError,
                                       ["Array.__getitem__: shape mismatch: indexing arrays could not "
                                        "be broadcast together with shapes (2,) and (3,) "
                                        "(axis -1 has sizes 2 and 3)"], "broadcast_error"),

    # -- shapes that do not broadcast: NumPy's words, both shapes, the axis
    "add-broadcast": (lambda: xp.add(_a(2, 3), _a(4)), ValueError,
                      ["add: operands could not be broadcast together with shapes (2, 3) and (4,) "
                       "(axis -1 has sizes 3 and 4)"], "broadcast_error"),
    "operator-broadcast": (lambda: _a(2, 3) * _a(2, 1, 4), ValueError,
                           ["multiply: operands could not be broadcast together with shapes (2, 3) and "
                            "(2, 1, 4) (axis -1 has sizes 3 and 4)"], "broadcast_error"),
    "atan2-broadcast": (lambda: xp.atan2(_a(3, 2), _a(4, 1)), ValueError,
                        ["atan2: operands could not", "(axis -2 has sizes 3 and 4)"], "broadcast_error"),
    "where-broadcast": (lambda: xp.where(xp.ones(2, dtype=xp.bool), _a(3), 0.0), ValueError,
                        ["where: operands could not be broadcast together with shapes",
                         "(axis -1 has sizes"], "broadcast_error"),
    "take_along_axis-broadcast": (lambda: xp.take_along_axis(rect(), xp.zeros((3, 1), dtype=xp.int64),
                                                             axis=1), ValueError,
                                  ["take_along_axis: x and indices could not be broadcast together with "
                                   "shapes (2, 3) and (3, 1) (axis -2 has sizes 2 and 3)"],
                                  "broadcast_error"),
    "clip-broadcast": (lambda: xp.clip(_a(3), _a(4)), ValueError,
                       ["clip: operands could not be broadcast together with shapes (3,) and (4,)"],
                       "broadcast_error"),
    "broadcast_arrays": (lambda: xp.broadcast_arrays(_a(3), _a(2, 4)), ValueError,
                         ["broadcast_arrays: operands could not be broadcast together with shapes (3,) "
                          "and (2, 4) (axis -1 has sizes 3 and 4)"], "broadcast_error"),
    "broadcast_shapes": (lambda: xp.broadcast_shapes((5, 3), (1,), (4, 1)), ValueError,
                         ["broadcast_shapes: operands could not be broadcast together with shapes "
                          "(5, 3), (1,) and (4, 1) (axis -2 has sizes 5 and 4)"], "broadcast_error"),
    "matmul-batch": (lambda: xp.matmul(_a(2, 3, 3), _a(4, 3, 3)), ValueError,
                     ["matmul: the batch dims could not be broadcast together with shapes (2, 3, 3) and "
                      "(4, 3, 3) (batch axis -1 has sizes 2 and 4)"], "broadcast_error"),
    "vecdot-broadcast": (lambda: xp.vecdot(_a(2, 3), _a(4, 3)), ValueError,
                         ["vecdot: x1 and x2 could not be broadcast together with shapes (2, 3) and (4, 3) "
                          "(axis -2 has sizes 2 and 4)"], "broadcast_error"),
    "linalg.cross-broadcast": (lambda: xp.linalg.cross(_a(2, 3), _a(4, 3)), ValueError,
                               ["cross: x1 and x2 could not be broadcast together", "axis -2"],
                               "broadcast_error"),
    "linalg.solve-batch": (lambda: xp.linalg.solve(_a(2, 3, 3), _a(4, 3, 1)), ValueError,
                           ["solve: the batch dims could not be broadcast together with shapes (2, 3, 3) "
                            "and (4, 3, 1) (batch axis -1 has sizes 2 and 4)"], "broadcast_error"),
    "broadcast_to": (lambda: xp.broadcast_to(_a(3), (2, 4)), ValueError,
                     ["broadcast_to: could not broadcast x from shape (3,) into shape (2, 4) "
                      "(axis -1 has size 3, not 1 or 4)"], "broadcast_into_error"),
    "broadcast_to-fewer-dims": (lambda: xp.broadcast_to(_a(2, 3), (3,)), ValueError,
                                ["broadcast_to: could not broadcast x from shape (2, 3) into shape (3,) "
                                 "(2 dimensions do not fit in 1)"], "broadcast_into_error"),
    "expand": (lambda: xp.expand(rect(), (3, -1)), ValueError,
               ["expand: could not broadcast x from shape (2, 3) into shape (3, 3) "
                "(axis -2 has size 2, not 1 or 3)"], "broadcast_into_error"),
    "expand-fewer-dims": (lambda: xp.expand(rect(), (3,)), ValueError,
                          ["expand: could not broadcast x from shape (2, 3) into shape (3,) "
                           "(2 dimensions do not fit in 1)"], "broadcast_into_error"),
    "setitem-broadcast": (lambda: _setitem(_a(4, 3), slice(0, 2), _a(3, 3)), ValueError,
                          ["Array.__setitem__: could not broadcast the value from shape (3, 3) into "
                           "shape (2, 3) (axis -2 has size 3, not 1 or 2)"], "broadcast_into_error"),
    "iadd-broadcast": (lambda: _iop(_a(3), "__iadd__", _a(2, 3)), ValueError,
                       ["Array.__iadd__: could not broadcast the operand from shape (2, 3) into "
                        "shape (3,)"], "broadcast_into_error"),
    "linalg.matrix_rank-rtol": (lambda: xp.linalg.matrix_rank(_a(2, 3, 3), rtol=xp.ones(5)), ValueError,
                                ["matrix_rank: could not broadcast rtol from shape (5,) into shape (2,)"],
                                "broadcast_into_error"),

    # -- a write through a layout where two indices reach one element
    "setitem-overlap": (lambda: _setitem(_expanded(), Ellipsis, 2.0), ValueError,
                        ["Array.__setitem__: cannot write through a layout where two indices reach one "
                         "element", "strides (1, 0)"], "overlap_error"),
    "setitem-unfold-overlap": (lambda: _setitem(xp.unfold(_a(6), 0, 3, 1), Ellipsis, 2.0), ValueError,
                               ["Array.__setitem__: cannot write through a layout where two indices",
                                "strides (1, 1)"], "overlap_error"),
    "iadd-overlap": (lambda: _iop(_expanded(), "__iadd__", 1.0), ValueError,
                     ["Array.__iadd__: cannot write through a layout where two indices reach one element",
                      "strides (1, 0)"], "overlap_error"),
    "imatmul-overlap": (lambda: _iop(xp.expand(xp.ones((1, 2)), (2, 2)), "__imatmul__", xp.eye(2)),
                        ValueError, ["Array.__imatmul__: cannot write through a layout where two"],
                        "overlap_error"),

    # -- a write into read-only memory: NumPy's phrase, why, and how to copy
    "setitem-read-only": (lambda: _setitem(_bcast(), 0, 1.0), ValueError,
                          ["Array.__setitem__: assignment destination is read-only (a view made by "
                           "broadcast_to)", "xp.asarray(x, copy=True)"], "read_only_error"),
    "iadd-read-only": (lambda: _iop(_bcast(), "__iadd__", 1.0), ValueError,
                       ["Array.__iadd__: assignment destination is read-only"], "read_only_error"),
    "imatmul-read-only": (lambda: _iop(_readonly_numpy(), "__imatmul__", xp.eye(2)), ValueError,
                          ["Array.__imatmul__: assignment destination is read-only"], "read_only_error"),
    "broadcast_arrays-read-only": (lambda: _setitem(xp.broadcast_arrays(_a(3), _a(2, 3))[0], 0, 1.0),
                                   ValueError, ["assignment destination is read-only (a view made by "
                                                "broadcast_arrays)"], "read_only_error"),

    # -- a wrong dtype category
    "bitwise_and-floats": (lambda: xp.bitwise_and(_a(3), _a(3)), TypeError,
                           ["bitwise_and: expected an array of integer or boolean dtype; got dtype "
                            "arrstride.float64"], "dtype_error"),
    "bitwise_and-python-float": (lambda: xp.bitwise_and(1.5, _a(3, dtype=xp.int8)), TypeError,
                                 ["bitwise_and: expected an array of integer or boolean dtype; got a "
                                  "Python float and an array of dtype arrstride.int8 (together dtype "
                                  "arrstride.float64)"], "dtype_error"),
    "operator-and-floats": (lambda: _a(3) & _a(3), TypeError,
                            ["bitwise_and: expected an array of integer or boolean dtype"], "dtype_error"),
    "iand-python-float": (lambda: _iop(_a(3, dtype=xp.int16), "__iand__", 1.5), TypeError,
                          ["bitwise_and: expected an array of integer or boolean dtype; got an array of "
                           "dtype arrstride.int16 and a Python float"], "dtype_error"),
    "conj-python-int": (lambda: xp.conj(5), TypeError, ["conj: x must be an arrstride array; got Python int"],
                        "not_array_error"),
    "conj-bool": (lambda: xp.conj(xp.ones(2, dtype=xp.bool)), TypeError,
                  ["conj: expected an array of numeric dtype; got dtype arrstride.bool"], "dtype_error"),
    "negative-bool": (lambda: xp.negative(xp.ones(2, dtype=xp.bool)), TypeError,
                      ["negative: expected an array of numeric dtype; got dtype arrstride.bool"],
                      "dtype_error"),
    "subtract-bools": (lambda: xp.ones(2, dtype=xp.bool) - xp.ones(2, dtype=xp.bool), TypeError,
                       ["subtract: two bool operands are not subtracted"], "type_error"),
    "floor-complex": (lambda: xp.floor(c()), TypeError, ["floor: expected an array of real-valued (integer or real floating-point) dtype"],
                      "dtype_error"),
    "logical_not-list": (lambda: xp.logical_not([True]), TypeError,
                         ["logical_not: x must be an arrstride array"], "not_array_error"),
    "signbit-int": (lambda: xp.signbit(_a(3, dtype=xp.int8)), TypeError,
                    ["signbit: expected an array of real floating-point dtype"], "dtype_error"),
    "where-float-condition": (lambda: xp.where(_a(3), 1.0, 2.0), TypeError,
                              ["where: expected an array of boolean dtype"], "dtype_error"),
    "sort-complex": (lambda: xp.sort(c()), TypeError, ["sort: expected an array of real-valued dtype"],
                     "dtype_error"),
    "argmax-complex": (lambda: xp.argmax(c()), TypeError, ["argmax: expected an array of real-valued dtype"],
                       "dtype_error"),
    "take-float-indices": (lambda: xp.take(v(), xp.asarray([0.0])), TypeError,
                           ["take: expected an array of integer dtype; got dtype arrstride.float64"],
                           "dtype_error"),
    "getitem-float-index-array": (lambda: v()[xp.asarray([0.5])], IndexError,
                                  ["Array.__getitem__: arrays used as indices must be of integer or "
                                   "boolean dtype"], "key_error"),
    "fft.rfft-complex": (lambda: xp.fft.rfft(c()), TypeError,
                         ["rfft: expected an array of real floating-point dtype"], "dtype_error"),
    "fft.fft-int": (lambda: xp.fft.fft(_a(4, dtype=xp.int32)), TypeError,
                    ["fft: expected an array of floating-point dtype"], "dtype_error"),
    "clip-complex": (lambda: xp.clip(c(), 0.0, 1.0), TypeError, ["clip: expected an array of real-valued"],
                     "dtype_error"),
    "searchsorted-complex": (lambda: xp.searchsorted(c(), c()), TypeError,
                             ["searchsorted: expected an array of real-valued dtype"], "dtype_error"),

    "vecdot-bool": (lambda: xp.vecdot(v(), xp.ones(4, dtype=xp.bool)), TypeError,
                    ["vecdot: expected an array of numeric dtype; got dtype arrstride.bool"], "dtype_error"),
    "tensordot-bool": (lambda: xp.tensordot(xp.ones((2, 2), dtype=xp.bool), sq()[:2, :2]), TypeError,
                       ["tensordot: expected an array of numeric dtype; got dtype arrstride.bool"],
                       "dtype_error"),
    "linalg.outer-bool": (lambda: xp.linalg.outer(v(), xp.ones(2, dtype=xp.bool)), TypeError,
                          ["outer: expected an array of numeric dtype; got dtype arrstride.bool"],
                          "dtype_error"),
    "linalg.cross-bool": (lambda: xp.linalg.cross(xp.ones(3, dtype=xp.bool), _a(3)), TypeError,
                          ["cross: expected an array of numeric dtype; got dtype arrstride.bool"],
                          "dtype_error"),
    "linalg.trace-bool": (lambda: xp.linalg.trace(xp.ones((2, 2), dtype=xp.bool)), TypeError,
                          ["trace: expected an array of numeric dtype; got dtype arrstride.bool"],
                          "dtype_error"),

    # -- linalg: shapes
    "linalg.cholesky-1d": (lambda: xp.linalg.cholesky(v()), ValueError,
                           ["cholesky: x must have at least 2 dimensions; got shape (4,)"], "value_error"),
    "linalg.solve-not-square": (lambda: xp.linalg.solve(rect(), _a(2)), ValueError,
                                ["solve: x1 must be a stack of square matrices (its last two dims equal); got "
                                 "shape (2, 3)"], "not_square_error"),
    "linalg.solve-rows": (lambda: xp.linalg.solve(sq(), _a(4)), ValueError,
                          ["solve: x2 must have as many rows as x1; got shapes (3, 3) and (4,)"],
                          "shapes_error"),
    "linalg.svd-1d": (lambda: xp.linalg.svd(v()), ValueError, ["svd: x must have at least 2 dimensions"],
                      "value_error"),
    "linalg.qr-1d": (lambda: xp.linalg.qr(v()), ValueError, ["qr: x must have at least 2 dimensions"],
                     "value_error"),
    "linalg.pinv-1d": (lambda: xp.linalg.pinv(v()), ValueError, ["pinv: x must have at least 2 dimensions"],
                       "value_error"),
    "linalg.matrix_norm-1d": (lambda: xp.linalg.matrix_norm(v()), ValueError,
                              ["matrix_norm: x must have at least 2 dimensions"], "value_error"),
    "linalg.trace-1d": (lambda: xp.linalg.trace(v()), ValueError, ["trace: x must have at least 2 dimensions"],
                        "value_error"),
    "linalg.cross-size": (lambda: xp.linalg.cross(_a(2, 4), _a(2, 4)), ValueError,
                          ["cross: ", "3"], "shapes_error"),
    "linalg.outer-2d": (lambda: xp.linalg.outer(sq(), v()), ValueError, ["outer: "], "shapes_error"),
    "matmul-inner": (lambda: xp.matmul(rect(), _a(4, 2)), ValueError,
                     ["matmul: the last dim of x1 (3) must equal the second-to-last dim of x2 (4); got "
                      "shapes (2, 3) and (4, 2)"], "shapes_error"),
    "matmul-0d": (lambda: xp.matmul(_a(), v()), ValueError,
                  ["matmul: operands must have at least one dimension; got shapes () and (4,)"],
                  "shapes_error"),
    "tensordot-sizes": (lambda: xp.tensordot(rect(), _a(4, 5), axes=1), ValueError,
                        ["tensordot: contracted axes 1 of x1 and 0 of x2 differ in size; got shapes (2, 3) "
                         "and (4, 5)"], "shapes_error"),

    # -- fft: n, norm, s
    "fft.fft-n0": (lambda: xp.fft.fft(c(), n=0), ValueError, ["fft: n must be a positive number of points; "
                                                              "got 0"], "value_error"),
    "fft.ifft-n-negative": (lambda: xp.fft.ifft(c(), n=-2), ValueError, ["ifft: n must be a positive"],
                            "value_error"),
    "fft.rfft-n-float": (lambda: xp.fft.rfft(v(), n=2.5), TypeError, ["rfft: n must be"], "type_error"),
    "fft.fft-norm": (lambda: xp.fft.fft(c(), norm="unitary"), ValueError,
                     ['fft: norm must be "backward", "ortho" or "forward"; got \'unitary\''], "value_error"),
    "fft.irfftn-norm": (lambda: xp.fft.irfftn(c(), norm=None), ValueError, ["irfftn: norm must be"],
                        "value_error"),
    "fft.fftn-s-axes": (lambda: xp.fft.fftn(_a(2, 2, dtype=xp.complex64), s=(2, 2), axes=(0,)), ValueError,
                        ["fftn: s and axes must have the same length"], "value_error"),
    "fft.fftn-s-zero": (lambda: xp.fft.fftn(_a(2, 2, dtype=xp.complex64), s=(0, 2)), ValueError,
                        ["fftn: every entry of s must be a positive number of points or -1"], "value_error"),
    "fft.irfft-empty-axis": (lambda: xp.fft.irfft(xp.ones((0,), dtype=xp.complex128)), ValueError,
                             ["irfft: "], "value_error"),
    "fft.fftfreq-d0": (lambda: xp.fft.fftfreq(4, d=0.0), ValueError,
                       ["fftfreq: the sample spacing d must be nonzero"], "value_error"),
    "fft.fft-0d": (lambda: xp.fft.fft(xp.asarray(1j)), ValueError, ["fft: x must have at least one dimension"],
                   "value_error"),

    # -- bad dtype arguments
    "zeros-dtype-string": (lambda: xp.zeros(3, dtype="float128"), TypeError,
                           ["zeros: dtype must be an arrstride dtype such as arrstride.float64; "
                            "got 'float128'"],
                           "type_error"),
    "asarray-dtype-python-type": (lambda: xp.asarray([1], dtype=list), TypeError,
                                  ["asarray: dtype must be an arrstride dtype"], "type_error"),
    "sum-dtype": (lambda: xp.sum(v(), dtype="x"), TypeError, ["sum: dtype must be an arrstride dtype"],
                  "type_error"),
    "astype-dtype": (lambda: xp.astype(v(), None), TypeError, ["astype: dtype must be an arrstride dtype"],
                     "type_error"),
    "result_type-dtype": (lambda: xp.result_type(xp.int64, "x"), TypeError,
                          ["result_type: dtype must be an arrstride dtype"], "type_error"),
    "isdtype-kind": (lambda: xp.isdtype(xp.float64, "floats"), TypeError,
                     ["isdtype: kind must be a dtype, one of 'bool'"], "type_error"),
    "fft.fftfreq-int-dtype": (lambda: xp.fft.fftfreq(4, dtype=xp.int32), TypeError,
                              ["fftfreq: dtype must be a real floating-point dtype"], "type_error"),
    "linspace-bool-dtype": (lambda: xp.linspace(0, 1, 3, dtype=xp.bool), TypeError,
                            ["linspace: dtype must be a numeric dtype"], "type_error"),
    "full-fill-value": (lambda: xp.full(3, "a"), TypeError, ["full: "], "number_error"),

    # -- copy=False that would need a copy
    "asarray-list-copy-false": (lambda: xp.asarray([1, 2], copy=False), ValueError,
                                ["asarray: copy=False, but a Python object cannot be shared without a copy"],
                                "value_error"),
    "asarray-cast-copy-false": (lambda: xp.asarray(v(), dtype=xp.float32, copy=False), ValueError,
                                ["asarray: copy=False, but converting arrstride.float64 to arrstride.float32 "
                                 "needs a copy"], "value_error"),
    "asarray-numpy-scalar-copy-false": (lambda: xp.asarray(np.float32(1.0), copy=False), ValueError,
                                        ["asarray: copy=False, but a NumPy scalar is a value"], "value_error"),
    "reshape-copy-false": (lambda: xp.reshape(_a(3, 4).T, (12,), copy=False), ValueError,
                           ["reshape: no view exists of shape (12,) over a layout with shape (4, 3) and "
                            "strides (1, 4)", "use copy=None"], "no_view_error"),
    "view-no-view": (lambda: _a(3, 4).T.view((12,)), ValueError,
                     ["Array.view: no view exists of shape (12,)"], "no_view_error"),
    "asarray-copy-not-bool": (lambda: xp.asarray(v(), copy="no"), TypeError,
                              ["asarray: copy must be True, False or None; got 'no'"], "type_error"),

    # -- Array methods
    "Array.T-3d": (lambda: _cube().T, ValueError, ["Array.T: defined for 2-D arrays only"], "msg"),
    "Array.mT-1d": (lambda: v().mT, ValueError, ["Array.mT: needs at least 2 dimensions; got 1-D"], "msg"),
    "Array.__float__-size": (lambda: float(v()), TypeError,
                             ["only arrays with one element convert to Python scalars"], "msg"),
    "Array.__int__-complex": (lambda: int(xp.asarray(1j)), TypeError,
                              ["Array.__int__: cannot convert a complex array to int"], "type_error"),
    "Array.__index__-float": (lambda: [0, 1][xp.asarray(1.0)], TypeError,
                              ["Array.__index__: only integer arrays are valid indices"], "type_error"),
    "Array.to_device": (lambda: v().to_device("gpu"), ValueError,
                        ["to_device: arrstride has one device, Device('cpu'); got 'gpu'"], "value_error"),
    "Array.__eq__-list": (lambda: v() == [1.0, 2.0, 3.0, 4.0], TypeError,
                          ["Array.__eq__: operands must be arrstride or NumPy arrays, or Python or NumPy "
                           "scalars (convert sequences with asarray first); got list"], "operand_error"),

    # -- sizes no kernel can walk, and allocations no machine has
    "sum-too-large": (lambda: xp.sum(xp.broadcast_to(xp.ones(1), (2**32, 2**32))), ValueError,
                      ["sum: iterator is too large", "(18446744073709551616 elements)"],
                      "too_large_error"),
    "zeros-too-large": (lambda: xp.zeros((2**31, 2**31)), MemoryError,
                        ["zeros: cannot allocate 36893488147419103232 bytes for an array of shape "
                         "(2147483648, 2147483648) and dtype arrstride.float64"], "alloc_error"),

    # -- untrusted input: a shape no array may have, a pickle that lies
    "zeros-dim-past-int64": (lambda: xp.zeros((2**64, 0)), ValueError,
                             ["zeros: maximum allowed dimension exceeded", "got shape (18446744073709551616, 0)"],
                             "dimension_error"),
    "zeros-65-dims": (lambda: xp.zeros((1,) * 65), ValueError,
                      ["zeros: maximum supported dimension for an ndarray is currently 64, found 65"], "ndim_error"),
    "asarray-ragged": (lambda: xp.asarray([[1.0, 2.0], [3.0]]), ValueError,
                       ["asarray: setting an array element with a sequence", "inhomogeneous shape",
                        "got the shape detected before it was (2,)"], "sequence_error"),
    "pickle-size": (lambda: __import__("arrstride._array")._array._rebuild("float64", (1,), b"\0" * 16),
                    ValueError, ["pickle.loads (arrstride array): buffer size does not match array size",
                                 "got 16 bytes for shape (1,)"], "pickle_error"),
}

# -- linalg: the functions of square matrices refuse a 2 x 3 matrix alike
# (the extra arguments each takes after x)
for _name, _extra in {"inv": (), "det": (), "slogdet": (), "cholesky": (), "eigh": (), "eigvalsh": (),
                      "eig": (), "eigvals": (), "matrix_power": (2,)}.items():
    ROWS[f"linalg.{_name}-not-square"] = (
        lambda f=getattr(xp.linalg, _name), extra=_extra: f(rect(), *extra), ValueError,
        [f"{_name}: x must be a stack of square matrices (its last two dims equal)", "got shape (2, 3)"],
        "not_square_error")
del _name, _extra

_EXC = {"axis": _errors.AxisError}


@pytest.fixture
def builders_called(monkeypatch):
    """The names of the _errors builders called (through every module's own
    binding of them) while the test runs."""
    called = []
    for mod in list(sys.modules.values()):
        if not getattr(mod, "__name__", "").startswith("arrstride.") or mod is _errors:
            continue
        for attr, value in list(vars(mod).items()):
            if inspect.isfunction(value) and value.__module__ == _errors.__name__:
                def wrapper(*args, __f=value, **kwargs):
                    called.append(__f.__name__)
                    return __f(*args, **kwargs)
                monkeypatch.setattr(mod, attr, wrapper)
    return called


@pytest.mark.parametrize("row", list(ROWS))
def test_mistake(row, builders_called):
    """The exception type, the message fragments, and the builder that worded it."""
    call, exc, fragments, builder = ROWS[row]
    exc = _EXC.get(exc, exc)
    with pytest.raises(exc) as info:
        call()
    assert type(info.value) is exc, (type(info.value), exc)
    text = str(info.value)
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"
    assert builders_called and builders_called[-1] == builder, (builders_called, builder)


def test_axis_errors_are_index_and_value_errors():
    """The standard asks for IndexError, NumPy (and SciPy's tests) for ValueError."""
    for exc in (IndexError, ValueError):
        with pytest.raises(exc, match="axis 10 is out of bounds"):
            xp.sum(v(), axis=10)


# ---- every builder is exercised, and no module words these mistakes by hand ------------------

_BUILDERS = {name for name, f in vars(_errors).items()
             if inspect.isfunction(f) and f.__module__ == _errors.__name__ and not name.startswith("_")
             and name.endswith("error") or name == "msg"}


def test_every_builder_has_a_row():
    used = {row[3] for row in ROWS.values()} | {"not_array_error", "operand_error"}  # the sweeps above
    assert _BUILDERS - used == set(), f"builders with no row: {sorted(_BUILDERS - used)}"
    assert used - _BUILDERS == set(), f"rows naming no builder: {sorted(used - _BUILDERS)}"


# phrases only a builder may word: (regex, the builder)
_PHRASES = [
    (r"out of bounds for axis", "index_bounds_error"),
    (r"is out of bounds for array of dimension", "axis_error"),
    (r"could not be broadcast|cannot be broadcast|could not broadcast|do(es)? not broadcast",
     "broadcast_error"),
    (r"reach(es)? one element|elements overlap", "overlap_error"),
    (r"assignment destination is read-only", "read_only_error"),
    (r"must be an arrstride (or NumPy )?array|expected an array;|expected an array\"|expected arrstride arrays",
     "not_array_error"),
    (r"expected an array of", "dtype_error"),
]


@pytest.mark.parametrize("phrase, builder", _PHRASES, ids=[b for _, b in _PHRASES])
def test_no_hand_worded_message(phrase, builder):
    """Each kind of mistake is worded once, in _errors.py: a string literal
    anywhere else in the package that words it is a second version."""
    root = pathlib.Path(_errors.__file__).parent
    found = []
    for path in sorted(root.glob("*.py")):
        if path.name == "_errors.py":
            continue
        for k, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            if re.search(r"[\"']", code) and re.search(phrase, code) and not \
                    code.lstrip().startswith(('"""', "'''")):
                found.append(f"{path.name}:{k}: {line.strip()}")
    assert not found, f"worded by hand instead of by {builder}:\n" + "\n".join(found)
