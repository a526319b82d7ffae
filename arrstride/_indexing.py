"""The one place keys are normalized: __getitem__ and __setitem__.

Basic keys (integers, slices, ..., None) give views. Integer arrays and
boolean masks follow the standard, with NumPy's rules where it is silent:
integers mixed with arrays join the advanced index, and separated advanced
indices put the broadcast dims first.
"""
from __future__ import annotations

import operator
from typing import Any, List, Tuple

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._array import Array
from ._creation_functions import asarray, empty, zeros
from ._errors import (broadcast_error, broadcast_into_error, index_bounds_error, index_error, msg,
                      overlap_error, read_only_error, value_error)
from ._indexing_functions import as_int64_indices, take_axis

GET = "Array.__getitem__"
SET = "Array.__setitem__"


def _expand_key(x: Array, key: Any, func: str) -> Tuple[list, bool]:
    """The key as a list of items, one per used dim or new axis, with the
    ellipsis expanded: ('int', i) ('slice', s) ('none',) ('adv', int array)
    ('mask', bool array). Also whether any item is advanced."""
    if not isinstance(key, tuple):
        key = (key,)
    items: List[tuple] = []
    consumed = 0
    ellipsis_at = -1
    advanced = False
    for k in key:
        if k is Ellipsis:
            if ellipsis_at >= 0:
                raise index_error(func, "an index can only have a single ellipsis ('...')")
            ellipsis_at = len(items)
            continue
        if k is None:
            items.append(("none",))
        elif isinstance(k, slice):
            items.append(("slice", k))
            consumed += 1
        elif isinstance(k, dt.builtins_bool):
            items.append(("mask", _as_array(k)))
            advanced = True
        elif isinstance(k, Array) or isinstance(k, (list, tuple)) or hasattr(k, "__array_interface__"):
            a = _as_array(k)
            if a.dtype is dt.bool:
                items.append(("mask", a))
                consumed += a.ndim
            elif a.dtype.kind in "iu":
                items.append(("adv", a))
                consumed += 1
            else:
                raise index_error(func, "arrays used as indices must be of integer or boolean dtype",
                                  f"dtype {a.dtype}")
            advanced = True
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise index_error(func, "only integers, slices, '...', None and integer or "
                                  "boolean arrays are valid indices", type(k).__name__) from None
            items.append(("int", i))
            consumed += 1
    ndim = x.ndim
    if consumed > ndim:
        raise index_error(func, f"too many indices: the array is {ndim}-dimensional",
                          f"{consumed} indexed")
    fill = [("slice", slice(None))] * (ndim - consumed)
    if ellipsis_at >= 0:
        items[ellipsis_at:ellipsis_at] = fill
    else:
        items.extend(fill)
    return items, advanced


def _as_array(k: Any) -> Array:
    if isinstance(k, (list, tuple)) and len(k) == 0:
        return asarray([], dtype=dt.int64)
    return asarray(k)


def _basic(lay: L.Layout, items: list, func: str) -> L.Layout:
    axis = 0  # the dim of `lay` the next item indexes
    src = 0   # the same dim, counted in the indexed array (for messages)
    for item in items:
        kind = item[0]
        if kind == "slice":
            n = lay.shape[axis]
            s = item[1]
            if s.step == 0:
                raise value_error(func, "slice step cannot be zero")
            lay = L.slice_dim(lay, axis, *s.indices(n))
            axis += 1
            src += 1
        elif kind == "int":
            i, n = item[1], lay.shape[axis]
            if not -n <= i < n:
                raise index_bounds_error(func, i, src, n)
            lay = L.select(lay, axis, i + n if i < 0 else i)
            src += 1
        else:  # none
            lay = L.insert_dims(lay, [axis])
            axis += 1
    return lay


def getitem(x: Array, key: Any) -> Array:
    """x[key] where ArrayBase's slot did not take it in C (see native/core/index.c:
    int, slice and tuple keys of them with a non-empty result)."""
    if isinstance(key, Array) and key.dtype is dt.bool and key.ndim and key.shape == x.shape:
        return _compress(x, key)
    items, advanced = _expand_key(x, key, GET)
    if not advanced:
        return x._with_layout(_basic(x._layout, items, GET))
    one = _single_index_array(items)
    if one >= 0:
        # one integer array among slices and None: a take along its dim of the
        # sliced view, the same result as the general plan, in one C pass
        idx = items[one][1]
        view = x._with_layout(_basic(x._layout, items[:one] + [("slice", slice(None))]
                                     + items[one + 1:], GET))
        if view.shape[one] or not idx.size:
            idx = as_int64_indices(GET, idx, _x_dim(items[:one]))
            return take_axis(GET, view, idx, one, _x_dim(items[:one]))
    plan = _advanced_plan(x, items, GET)
    view, offsets, adv_axes, out_shape, p, nb_dims = plan
    out = Array._empty(out_shape, x.dtype)
    rest_src, rest_dst, b_stride = _rest_layouts(view, adv_axes, out._layout, p, nb_dims)
    isz = x.dtype.itemsize
    K.gather(offsets, K.data_ptr(view), K.data_ptr(out), b_stride, rest_src, rest_dst, isz)
    return out


def _x_dim(items: list) -> int:
    """The dim of the indexed array that the item after `items` indexes (None
    items add dims of their own; the others come after the expansion)."""
    return sum(1 for item in items if item[0] == "slice")


def _single_index_array(items: list) -> int:
    """The position of the only advanced item when it is an integer array and
    every other item is a slice or None; else -1."""
    found = -1
    for k, item in enumerate(items):
        kind = item[0]
        if kind == "adv" and found < 0:
            found = k
        elif kind != "slice" and kind != "none":
            return -1
    return found


def _compress(x: Array, mask: Array) -> Array:
    """x[mask] for a mask of x's shape: one C pass, in C order."""
    count = K.count_true(mask)
    out = Array._empty((count,), x.dtype)
    if count:
        K.compress(x, mask, out, count)
    return out


# A Python scalar written straight into the elements (no array made for it)
# when its kind fits the array's: the per-call path of x[i] = v, x[a:b] = v.
_SCALAR_KINDS = {float: "fc", int: "iufc", bool: "b", complex: "c"}


def setitem(x: Array, key: Any, value: Any) -> None:
    if x._storage.readonly:
        raise read_only_error(SET, x._storage._readonly_why)
    kinds = _SCALAR_KINDS.get(type(value))
    if kinds is not None and x._dtype.kind in kinds:
        lay = x._layout
        if type(key) is int and len(lay.shape) == 1:
            n = lay.shape[0]
            if not -n <= key < n:
                raise index_bounds_error(SET, key, 0, n)
            K.write_element(x, lay.offset + (key + n if key < 0 else key) * lay.strides[0],
                            dt.pack_scalar(value, x._dtype, SET))
            return
        items, advanced = _expand_key(x, key, SET)
        if not advanced:
            dst = x._with_layout(_basic(lay, items, SET))
            _check_writable(dst)
            K.fill(dst, dt.pack_scalar(value, x._dtype, SET))
            return
    else:
        items, advanced = _expand_key(x, key, SET)
    value = _value_array(value, x.dtype)
    if not advanced:
        dst = x._with_layout(_basic(x._layout, items, SET))
        _check_writable(dst)
        src = _broadcast_value(value, dst.shape)
        K.copy_into(dst, src)
        return
    view, offsets, adv_axes, out_shape, p, nb_dims = _advanced_plan(x, items, SET)
    _check_writable(view)
    src = _broadcast_value(value, out_shape)
    if K.may_share_memory(src, x) or src.dtype is not x.dtype:
        src = src._copy_contiguous(x.dtype)
    rest_dst, rest_src, b_stride = _rest_layouts(view, adv_axes, src._layout, p, nb_dims)
    if b_stride is None:  # the broadcast dims of the value do not flatten: copy it
        src = src._copy_contiguous()
        rest_dst, rest_src, b_stride = _rest_layouts(view, adv_axes, src._layout, p, nb_dims)
    K.scatter(offsets, K.data_ptr(view), K.data_ptr(src), b_stride, rest_dst, rest_src,
              x.dtype.itemsize)


def _value_array(value: Any, dtype: dt.DType) -> Array:
    if isinstance(value, Array):
        return value
    if isinstance(value, (dt.builtins_bool, int, float, complex)):
        if isinstance(value, complex) and dtype.kind != "c":
            raise TypeError(msg(SET, f"cannot assign a complex scalar to an array of dtype {dtype}"))
        return asarray(value, dtype=dtype)
    return asarray(value)


def _broadcast_value(value: Array, shape: tuple) -> Array:
    lay = L.expand(value._layout, shape)
    if lay is None:
        raise broadcast_into_error(SET, value.shape, shape, "the value")
    return value._with_layout(lay)


def _check_writable(dst: Array) -> None:
    if L.has_internal_overlap(dst._layout):
        raise overlap_error(SET, dst.shape, dst.strides)


def _advanced_plan(x: Array, items: list, func: str):
    """Basic-index the non-advanced items into a view, then turn the advanced
    ones into element offsets into that view.
    Returns (view, offsets, adv_axes, out_shape, p, len(B))."""
    basic: list = []
    adv: List[Tuple[int, Array]] = []
    axis = 0
    for item in items:
        kind = item[0]
        if kind == "slice":
            basic.append(item)
            axis += 1
        elif kind == "none":
            basic.append(item)
            axis += 1
        elif kind == "int":  # checked here: an empty broadcast would skip its check
            i, xdim = item[1], _x_dim(basic)
            n = x.shape[xdim]
            if not -n <= i < n:
                raise index_bounds_error(func, i, xdim, n)
            basic.append(("slice", slice(None)))
            adv.append((axis, asarray(i, dtype=dt.int64)))
            axis += 1
        elif kind == "adv":
            basic.append(("slice", slice(None)))
            adv.append((axis, item[1]))
            axis += 1
        else:  # mask
            m = item[1]
            if m.ndim == 0:  # a new axis, selected entirely or not at all
                basic.append(("none",))
                adv.append((axis, zeros((1 if m._item() else 0,), dtype=dt.int64)))
                axis += 1
                continue
            coords = _mask_coords(m, x, basic, func)
            for d in range(m.ndim):
                basic.append(("slice", slice(None)))
                adv.append((axis, coords[d]))
                axis += 1
    view = x._with_layout(_basic(x._layout, basic, func))
    K.check_size(func, view)
    bshape = L.broadcast_shapes(*[a.shape for _, a in adv])
    if bshape is None:
        raise broadcast_error(func, *[a.shape for _, a in adv], cls=IndexError,
                              what="shape mismatch: indexing arrays")
    offsets = zeros(bshape, dtype=dt.int64)
    for ax, idx in adv:
        idx = as_int64_indices(func, idx, _x_dim(basic[:ax]))
        idx = idx._with_layout(L.expand(idx._layout, bshape))
        n = view.shape[ax]
        bad = K.index_accumulate(offsets, idx, n, view.strides[ax])
        if bad is not None:  # name the axis of x: the view has x's dims plus None's
            raise index_bounds_error(func, bad, _x_dim(basic[:ax]), n)
    adv_axes = [ax for ax, _ in adv]
    rest = [d for k, d in enumerate(view.shape) if k not in adv_axes]
    adjacent = adv_axes == list(range(adv_axes[0], adv_axes[0] + len(adv_axes)))
    p = adv_axes[0] if adjacent else 0
    out_shape = tuple(rest[:p]) + tuple(bshape) + tuple(rest[p:])
    return view, offsets, adv_axes, out_shape, p, len(bshape)


def _mask_coords(m: Array, x: Array, basic: list, func: str) -> list:
    """The coordinates of the true elements of mask m, after checking its
    shape against the dims of x it covers."""
    start = _x_dim(basic)
    covered = x.shape[start:start + m.ndim]
    # a mask dim of size 0 selects nothing from a dim of any size (NumPy allows
    # it for size 1; the standard's test suite asks it for every size)
    if len(covered) != m.ndim or any(k not in (d, 0) for d, k in zip(covered, m.shape)):
        raise index_error(func, f"boolean index of shape {m.shape} does not match the indexed "
                                f"dims of shape {tuple(covered)}")
    count = K.count_true(m)
    out = empty((m.ndim, count), dtype=dt.int64)
    K.nonzero_bool(m, out, count)
    return [out[d] for d in range(m.ndim)]


def _rest_layouts(view: Array, adv_axes: list, other: L.Layout, p: int, nb: int):
    """The layouts walked per advanced position: the view's remaining dims and
    the matching dims of `other` (laid out as the output), plus the stride
    between consecutive positions of the flattened broadcast dims of `other`
    (None when those dims do not flatten)."""
    vrest = [k for k in range(view.ndim) if k not in adv_axes]
    rest_view = L.Layout(tuple(view.shape[k] for k in vrest), tuple(view.strides[k] for k in vrest), 0)
    orest = [k for k in range(len(other.shape)) if not p <= k < p + nb]
    rest_other = L.Layout(tuple(other.shape[k] for k in orest), tuple(other.strides[k] for k in orest), 0)
    blay = L.Layout(other.shape[p:p + nb], other.strides[p:p + nb], 0)
    flat = L.view_strides(blay, (blay.size,))
    return rest_view, rest_other, (flat[0] if flat is not None else None)
