"""Pure view math on (shape, strides, offset), in elements. No data is touched
and the C extension is not imported, so this module can be tested alone.

Every view function takes a Layout and returns a new one (or None where no
view exists). Callers validate user input first; these functions trust it.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

Shape = Tuple[int, ...]
_MAX_DIM = (1 << 63) - 1  # the largest size of one dimension (int64); callers check it first


class Layout:
    """An immutable (shape, strides, offset): x[i...] lives at offset + sum(i*s)."""

    __slots__ = ("shape", "strides", "offset", "size")

    def __init__(self, shape: Shape, strides: Shape, offset: int = 0):
        n = 1
        for d in shape:
            n *= d
        if n > _MAX_DIM or not n:  # a dim past int64 (in an empty shape too): never made
            for d in shape:
                if d > _MAX_DIM:
                    raise ValueError(f"arrstride: maximum allowed dimension exceeded; got shape {tuple(shape)}")
        _set_shape(self, shape)  # slot setters: __setattr__ below refuses assignment
        _set_strides(self, strides)
        _set_offset(self, offset)
        _set_size(self, n)

    def __setattr__(self, name, value):
        raise AttributeError("Layout is immutable: view functions return a new one")

    def __repr__(self) -> str:
        return f"Layout(shape={self.shape}, strides={self.strides}, offset={self.offset})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Layout) and self.shape == other.shape
                and self.strides == other.strides and self.offset == other.offset)

    def __hash__(self) -> int:
        return hash((self.shape, self.strides, self.offset))

    @property
    def ndim(self) -> int:
        return len(self.shape)


_set_shape = Layout.shape.__set__
_set_strides = Layout.strides.__set__
_set_offset = Layout.offset.__set__
_set_size = Layout.size.__set__


def contiguous_strides(shape: Sequence[int]) -> Shape:
    strides = []
    acc = 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(strides))


def contiguous(shape: Shape, offset: int = 0) -> Layout:
    return Layout(shape, contiguous_strides(shape), offset)


_CONTIGUOUS: dict = {}  # shape -> contiguous Layout at offset 0 (Layouts are immutable values)


def contiguous_of(shape: Shape) -> Layout:
    """contiguous(shape), cached: the layout of every new array."""
    lay = _CONTIGUOUS.get(shape)
    if lay is None:
        if len(_CONTIGUOUS) > 4096:
            _CONTIGUOUS.clear()
        lay = _CONTIGUOUS[shape] = contiguous(shape)
    return lay


def is_contiguous(lay: Layout) -> bool:
    """strides[k] == prod(shape[k+1:]) for every dim of size > 1; empty is contiguous."""
    if lay.size == 0:
        return True
    acc = 1
    for d, s in zip(reversed(lay.shape), reversed(lay.strides)):
        if d != 1 and s != acc:
            return False
        acc *= d
    return True


def extent(lay: Layout) -> Tuple[int, int]:
    """The lowest and highest element index reached (lo > hi when empty)."""
    if lay.size == 0:
        return lay.offset, lay.offset - 1
    lo = hi = lay.offset
    for d, s in zip(lay.shape, lay.strides):
        if s > 0:
            hi += (d - 1) * s
        else:
            lo += (d - 1) * s
    return lo, hi


EXACT_OVERLAP_LIMIT = 1 << 16  # up to this size, interleaved layouts are checked element by element


def has_internal_overlap(lay: Layout) -> bool:
    """True when two indices reach one element (stride 0 over size > 1,
    overlapping windows). Dims sorted by stride that nest without
    interleaving decide at once; interleaved ones (e.g. shape (2, 3),
    strides (3, 2)) are checked exactly up to EXACT_OVERLAP_LIMIT elements
    and assumed to overlap beyond it (a False is always right)."""
    if lay.size <= 1:
        return False
    if len(lay.shape) == 1:
        return lay.strides[0] == 0
    dims = sorted((abs(s), d) for d, s in zip(lay.shape, lay.strides) if d > 1)
    reach = 0  # highest element distance reached by the inner dims
    for s, d in dims:
        if s == 0:
            return True
        if s <= reach:
            break
        reach += (d - 1) * s
    else:
        return False
    if lay.size > EXACT_OVERLAP_LIMIT:
        return True
    seen = {0}
    for s, d in dims:
        seen = {o + i * s for o in seen for i in range(d)}
    return len(seen) < lay.size


# ---- views -------------------------------------------------------------------

def permute(lay: Layout, axes: Sequence[int]) -> Layout:
    return Layout(tuple(lay.shape[a] for a in axes), tuple(lay.strides[a] for a in axes), lay.offset)


def insert_dims(lay: Layout, axes: Sequence[int]) -> Layout:
    """New size-1 dims at the (normalized, sorted) positions of the result."""
    shape, strides = list(lay.shape), list(lay.strides)
    for a in sorted(axes):
        shape.insert(a, 1)
        strides.insert(a, 0)
    return Layout(tuple(shape), tuple(strides), lay.offset)


def drop_dims(lay: Layout, axes: Sequence[int]) -> Layout:
    keep = [k for k in range(len(lay.shape)) if k not in set(axes)]
    return Layout(tuple(lay.shape[k] for k in keep), tuple(lay.strides[k] for k in keep), lay.offset)


def broadcast_shapes(*shapes: Shape) -> Optional[Shape]:
    """The broadcast shape, or None when the shapes do not broadcast."""
    if len(shapes) == 1:
        return tuple(shapes[0])
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        off = ndim - len(s)
        for k, d in enumerate(s):
            o = out[off + k]
            if d == o or d == 1:
                continue
            if o == 1:
                out[off + k] = d
            else:
                return None
    return tuple(out)


def expand(lay: Layout, shape: Shape) -> Optional[Layout]:
    """Broadcast to `shape` by stride 0 (PyTorch's inferExpandGeometry);
    None when the shapes are incompatible."""
    nd = len(shape)
    extra = nd - len(lay.shape)
    if extra < 0:
        return None
    strides = []
    for k in range(nd):
        if k < extra:
            strides.append(0)
            continue
        d, s = lay.shape[k - extra], lay.strides[k - extra]
        if d == shape[k]:
            strides.append(s if d != 1 else 0)
        elif d == 1:
            strides.append(0)
        else:
            return None
    return Layout(tuple(shape), tuple(strides), lay.offset)


def flip(lay: Layout, axes: Sequence[int]) -> Layout:
    strides = list(lay.strides)
    offset = lay.offset
    for a in axes:
        if lay.size:  # an empty view keeps its offset (see slice_dim)
            offset += (lay.shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return Layout(lay.shape, tuple(strides), offset)


def slice_length(start: int, stop: int, step: int) -> int:
    """len(range(start, stop, step)), also past sys.maxsize (a dim of a huge
    broadcast view), where len() raises OverflowError."""
    try:
        return len(range(start, stop, step))
    except OverflowError:
        if step > 0:
            return max(0, (stop - start + step - 1) // step)
        return max(0, (start - stop - step - 1) // -step)


def slice_dim(lay: Layout, axis: int, start: int, stop: int, step: int) -> Layout:
    """x[start:stop:step] along axis, with start/stop already clamped as
    slice.indices() gives them. An empty result keeps lay's offset: it
    reaches no element, and moving it could leave the addressable range
    (a dim past int64 in an empty array)."""
    n = slice_length(start, stop, step)
    s = lay.strides[axis]
    return Layout(lay.shape[:axis] + (n,) + lay.shape[axis + 1:],
                  lay.strides[:axis] + (s * step,) + lay.strides[axis + 1:],
                  lay.offset + start * s if n > 0 and lay.size else lay.offset)


def select(lay: Layout, axis: int, index: int) -> Layout:
    """x[..., index, ...] along axis, with 0 <= index < shape[axis]."""
    return Layout(lay.shape[:axis] + lay.shape[axis + 1:],
                  lay.strides[:axis] + lay.strides[axis + 1:],
                  lay.offset + index * lay.strides[axis] if lay.size else lay.offset)


def index_view(lay: Layout, shape: Shape, axes: Shape, steps: Shape, starts: Shape) -> Layout:
    """The view a parsed key gives (_core.index_key, native/core/index.c): dim j
    of the result is shape[j] long, from dim axes[j] of lay with its stride
    times steps[j] (-1: a new axis, stride 0), and dim a of lay moves the
    offset by starts[a] elements (slice_dim's and select's rule: never in an
    empty array or past an empty slice)."""
    st = lay.strides
    offset = lay.offset
    for a, i in enumerate(starts):
        if i:
            offset += i * st[a]
    return Layout(shape, tuple(st[a] * m if a >= 0 else 0 for a, m in zip(axes, steps)), offset)


def narrow(lay: Layout, axis: int, start: int, length: int) -> Layout:
    return slice_dim(lay, axis, start, start + length, 1)


def diagonal(lay: Layout, offset: int, axis1: int, axis2: int) -> Layout:
    """The diagonal as the last dim (PyTorch's diagonal): axes are normalized and distinct."""
    n1, n2 = lay.shape[axis1], lay.shape[axis2]
    base = lay.offset
    if offset >= 0:
        n = max(min(n1, n2 - offset), 0)
        if n > 0 and lay.size:
            base += offset * lay.strides[axis2]
    else:
        n = max(min(n1 + offset, n2), 0)
        if n > 0 and lay.size:
            base -= offset * lay.strides[axis1]
    keep = [k for k in range(len(lay.shape)) if k not in (axis1, axis2)]
    shape = tuple(lay.shape[k] for k in keep) + (n,)
    strides = tuple(lay.strides[k] for k in keep) + (lay.strides[axis1] + lay.strides[axis2],)
    return Layout(shape, strides, base)


def unfold(lay: Layout, axis: int, size: int, step: int) -> Layout:
    """Windows of `size` every `step` along axis; the window is a new last dim."""
    shape = list(lay.shape)
    strides = list(lay.strides)
    shape[axis] = (lay.shape[axis] - size) // step + 1
    strides[axis] = lay.strides[axis] * step
    return Layout(tuple(shape) + (size,), tuple(strides) + (lay.strides[axis],), lay.offset)


def view_strides(lay: Layout, new_shape: Shape) -> Optional[Shape]:
    """Strides that give `new_shape` over the same elements, or None when no
    such strides exist (PyTorch's computeStride)."""
    old_shape, old_strides = lay.shape or (1,), lay.strides or (1,)
    numel = lay.size
    if numel == 0:
        return contiguous_strides(new_shape) if old_shape != new_shape else old_strides
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base = old_strides[-1] if old_strides else 1
    tensor_numel = 1
    view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        if d == 0 or (old_shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk_base = old_strides[d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)
