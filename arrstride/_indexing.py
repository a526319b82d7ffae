"""__getitem__ and __setitem__ where the C [] slots decline.

The key is parsed in one place, _core.index_key (native/core/index.c), which
the slots use too; this module makes the view from its plan
(_layout.index_view) and does the advanced part. Basic keys (integers,
slices, ..., None) give views. Integer arrays and boolean masks follow the
standard, with NumPy's rules where it is silent: integers mixed with arrays
join the advanced index, and separated advanced indices put the broadcast
dims first.
"""
from __future__ import annotations

from typing import Any, List, Tuple

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._array import Array
from ._creation_functions import asarray, zeros
from ._elementwise_functions import true_coordinates
from ._core import index_key as _index_key, overlaps as _core_overlaps
from ._errors import (broadcast_error, broadcast_into_error, index_bounds_error, key_error, msg,
                      overlap_error, read_only_error)
from ._indexing_functions import as_int64_indices, take_axis

GET = "Array.__getitem__"
SET = "Array.__setitem__"


def _parse(x: Array, key: Any, func: str) -> tuple:
    """The key parsed by the one key parser, _core.index_key (native/core/index.c,
    which the [] slots use too): (view, adv). view is x indexed by the basic
    part of the key; for an advanced key (integer arrays, boolean masks, and
    the integers beside them) the advanced items keep full dims in it, listed
    in adv as (dim of the view, dim of x, index: an int in range or an Array,
    position of the item in the key)."""
    plan = _index_key(x, key, _as_array)
    if type(plan[0]) is str:
        raise key_error(func, x.shape, *plan)
    shape, axes, steps, starts, adv = plan
    return x._with_layout(L.index_view(x._layout, shape, axes, steps, starts)), adv


def _as_array(k: Any) -> Array:
    a = asarray(k)
    # an empty list is an empty integer index, as in NumPy
    return asarray(a, dtype=dt.int64) if a.size == 0 and a.dtype is dt.float64 and isinstance(k, (list, tuple)) else a


def getitem(x: Array, key: Any) -> Array:
    """x[key] where ArrayBase's slot did not take it in C (see native/core/index.c:
    basic keys of plain ints and slices on arrays C holds, and masks of leading dims)."""
    if isinstance(key, Array) and key.dtype is dt.bool and key.ndim and key.shape == x.shape:
        return _compress(x, key)
    view, adv = _parse(x, key, GET)
    if not adv:
        return view
    if len(adv) == 1 and isinstance(adv[0][2], Array) and adv[0][2].dtype is not dt.bool:
        # one integer array among slices and None: a take along its dim of the
        # sliced view, the same result as the general plan, in one C pass
        one, xdim, idx, _ = adv[0]
        if view.shape[one] or not idx.size:
            idx = as_int64_indices(GET, idx, xdim)
            return take_axis(GET, view, idx, one, xdim)
    offsets, adv_axes, out_shape, p, nb_dims = _advanced_plan(view, adv, GET)
    out = Array._empty(out_shape, x.dtype)
    rest_src, rest_dst, b_stride = _rest_layouts(view, adv_axes, out._layout, p, nb_dims)
    isz = x.dtype.itemsize
    K.gather(offsets, K.data_ptr(view), K.data_ptr(out), b_stride, rest_src, rest_dst, isz)
    return out


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
    view, adv = _parse(x, key, SET)
    if not adv:
        kinds = _SCALAR_KINDS.get(type(value))
        if kinds is not None and x._dtype.kind in kinds:
            _check_writable(view)
            K.fill(view, dt.pack_scalar(value, x._dtype, SET))
            return
        src = _broadcast_value(_value_array(value, x.dtype), view.shape)
        K.copy_into(view, src, SET)  # (refuses a view reaching an element twice)
        return
    value = _value_array(value, x.dtype)
    offsets, adv_axes, out_shape, p, nb_dims = _advanced_plan(view, adv, SET)
    _check_writable(view)
    src = _broadcast_value(value, out_shape)
    if src.dtype is not x.dtype or _core_overlaps(x, src):
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


def _advanced_plan(view: Array, adv: tuple, func: str):
    """The advanced items of a key (see _parse) as element offsets into the view:
    integers as 0-d indices, a mask as the coordinates of its true elements.
    Returns (offsets, the view dims indexed, out_shape, p, len(B))."""
    K.check_size(func, view)
    items: List[Tuple[int, int, Array]] = []
    # NumPy's rule: the broadcast dims go where the advanced items are when
    # they stand next to each other in the key, else first. An ... between
    # them separates them even where it covers no dim (PyTorch's result
    # differs there: (3, 2) for x[:, [0], ..., [0, 1]] on 3-d, NumPy's (2, 3))
    where = [pos for _, _, _, pos in adv]
    adjacent = where == list(range(where[0], where[0] + len(where)))
    for ax, xdim, k, _ in adv:
        if type(k) is int:
            items.append((ax, xdim, asarray(k, dtype=dt.int64)))
        elif k.dtype is not dt.bool:
            items.append((ax, xdim, k))
        elif k.ndim == 0:  # a new axis, selected entirely or not at all
            items.append((ax, xdim, zeros((1 if k._item() else 0,), dtype=dt.int64)))
        else:
            coords = true_coordinates(func, k)
            items.extend((ax + d, xdim + d, coords[d]) for d in range(k.ndim))
    bshape = L.broadcast_shapes(*[a.shape for _, _, a in items])
    if bshape is None:
        raise broadcast_error(func, *[a.shape for _, _, a in items], cls=IndexError,
                              what="shape mismatch: indexing arrays")
    offsets = zeros(bshape, dtype=dt.int64)
    for ax, xdim, idx in items:
        idx = as_int64_indices(func, idx, xdim)
        idx = idx._with_layout(L.expand(idx._layout, bshape))
        n = view.shape[ax]
        bad = K.index_accumulate(offsets, idx, n, view.strides[ax])
        if bad is not None:  # name the axis of x: the view has x's dims plus None's
            raise index_bounds_error(func, bad, xdim, n)
    adv_axes = [ax for ax, _, _ in items]
    p = adv_axes[0] if adjacent else 0
    rest = [d for k, d in enumerate(view.shape) if k not in adv_axes]
    out_shape = tuple(rest[:p]) + tuple(bshape) + tuple(rest[p:])
    return offsets, adv_axes, out_shape, p, len(bshape)


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
