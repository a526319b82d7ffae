"""einsum: NumPy's Einstein summation, planned over views and matmul.

A small planner, so that BLAS does the work (xarray's `dot` and opt_einsum
call it): each operand's repeated labels become a diagonal view (strides
added, no copy), labels that appear nowhere else are summed out first, and
the operands are then contracted left to right, each pair as one batched
matmul of (batch, left, contracted) by (batch, contracted, right) views
reshaped to 3-D. `...` broadcasts as in NumPy; without `->` the output is
`...` then the labels that appear once, in alphabetical order. The result is
a new array (NumPy's einsum returns a view for a pure transpose)."""
from __future__ import annotations

import string
from typing import Any, Dict, List, Tuple

from . import _dtypes as dt
from . import _layout as L
from ._array import Array, check_array
from ._errors import type_error, value_error
from ._linear_algebra_functions import matmul
from ._manipulation_functions import broadcast_to, permute_dims, reshape
from ._statistical_functions import sum as _sum

_LETTERS = frozenset(string.ascii_letters)
_ELLIPSIS_LABELS = "0123456789!#$%&*+:;<=>?@[]^_{|}~"  # never user labels


def _parse(func: str, subscripts: Any, ndims: List[int]) -> Tuple[List[str], str]:
    """The labels of each operand and of the output, '...' expanded into one
    private label per broadcast dim (right-aligned, as NumPy)."""
    if not isinstance(subscripts, str):
        raise type_error(func, "subscripts must be a str such as 'ij,jk->ik' (the interleaved "
                               "operand, sublist form is not supported)", repr(subscripts))
    s = subscripts.replace(" ", "")
    if "->" in s:
        lhs, out = s.split("->", 1)
        explicit = True
    else:
        lhs, out, explicit = s, "", False
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise value_error(func, f"subscripts name {len(terms)} operands", f"{len(ndims)} operands")
    nell = 0
    for t, n in zip(terms, ndims):
        if "..." in t:
            nell = max(nell, n - (len(t) - 3))
    if nell > len(_ELLIPSIS_LABELS):
        raise value_error(func, "too many dims under '...'", nell)
    labels = []
    for t, n in zip(terms, ndims):
        core = t.replace("...", "")
        bad = [c for c in core if c not in _LETTERS]
        if bad or t.count("...") > 1 or "." in core:
            raise value_error(func, "subscripts are letters, ',', '->' and one '...' per operand",
                              repr(subscripts))
        if "..." in t:
            k = n - len(core)
            if k < 0:
                raise value_error(func, f"operand subscripts {t!r} name more dims than the "
                                        f"operand's {n}")
            t = t.replace("...", _ELLIPSIS_LABELS[nell - k:nell])
        elif len(t) != n:
            raise value_error(func, f"operand subscripts {t!r} name {len(t)} dims; the operand "
                                    f"has {n}")
        labels.append(t)
    ell = _ELLIPSIS_LABELS[:nell]
    if explicit:
        bad = [c for c in out.replace("...", "") if c not in _LETTERS]
        if bad or out.count("...") > 1:
            raise value_error(func, "output subscripts are letters and one '...'", repr(out))
        if "..." in out:
            out = out.replace("...", ell)
        elif nell:
            raise value_error(func, "operands have dims under '...' that the output does not "
                                    "name (write '...' in the output)", repr(subscripts))
        seen = set()
        for c in out:
            if c in seen:
                raise value_error(func, f"output subscript {c!r} repeated", repr(subscripts))
            seen.add(c)
            if not any(c in t for t in labels):
                raise value_error(func, f"output subscript {c!r} names no operand dim",
                                  repr(subscripts))
    else:
        counts: Dict[str, int] = {}
        for t in labels:
            for c in t:
                if c in _LETTERS:
                    counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1))
    return labels, out


def _diagonal(func: str, x: Array, labels: str) -> Tuple[Array, str]:
    """x with each repeated label merged into one dim (a diagonal view)."""
    if len(set(labels)) == len(labels):
        return x, labels
    lay = x._layout
    shape: List[int] = []
    strides: List[int] = []
    out = ""
    for k, c in enumerate(labels):
        j = out.find(c)
        if j < 0:
            out += c
            shape.append(lay.shape[k])
            strides.append(lay.strides[k])
        else:
            if shape[j] != lay.shape[k]:
                raise value_error(func, f"subscript {c!r} is repeated over dims of sizes "
                                        f"{shape[j]} and {lay.shape[k]}")
            strides[j] += lay.strides[k]
    return x._with_layout(L.Layout(tuple(shape), tuple(strides), lay.offset)), out


def _sum_out(x: Array, labels: str, keep: set) -> Tuple[Array, str]:
    axes = tuple(k for k, c in enumerate(labels) if c not in keep)
    if not axes:
        return x, labels
    return (_sum(x, axis=axes, dtype=x.dtype),
            "".join(c for c in labels if c in keep))


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _contract(a: Array, la: str, b: Array, lb: str, keep: set) -> Tuple[Array, str]:
    """a and b (labels la, lb; each label once per operand) as one matmul:
    labels in both and kept are a batch, in both and not kept are summed."""
    sizes: Dict[str, int] = {}
    for x, lab in ((a, la), (b, lb)):
        for c, d in zip(lab, x.shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = d
            elif d not in (1, sizes[c]):
                raise value_error("einsum", f"subscript {c!r} stands for dims of sizes "
                                            f"{sizes[c]} and {d}")
    batch = [c for c in la if c in lb and c in keep]
    con = [c for c in la if c in lb and c not in keep]
    left = [c for c in la if c not in lb]
    right = [c for c in lb if c not in la]
    pa = [la.index(c) for c in batch + left + con]
    pb = [lb.index(c) for c in batch + con + right]
    a = permute_dims(a, tuple(pa))
    b = permute_dims(b, tuple(pb))
    # broadcast size-1 dims of shared labels (from '...') to the other's size
    a = broadcast_to(a, tuple(sizes[c] for c in batch + left + con))
    b = broadcast_to(b, tuple(sizes[c] for c in batch + con + right))
    nb, nl, nc, nr = (_prod(sizes[c] for c in g) for g in (batch, left, con, right))
    out = matmul(reshape(a, (nb, nl, nc)), reshape(b, (nb, nc, nr)))
    labels = "".join(batch + left + right)
    return reshape(out, tuple(sizes[c] for c in labels)), labels


def einsum(subscripts: str, /, *operands: Array, optimize: Any = False) -> Array:
    """Einstein summation over the operands, NumPy's string form.

    Not in the standard. Supports 'ij,jk->ik', 'ii->i' (diagonal), 'ii' (trace),
    'i,j->ij' (outer), '...ij,...jk' (batches) and implicit output. Contractions
    run as matmul (BLAS for floats); the operands contract left to right.

    Parameters
    ----------
    subscripts : str
        The subscripts, one comma-separated group per operand, with an optional
        '->' and the output's.
    *operands : Array
        Arrays to combine, one per subscript group.
    optimize : bool or str, optional
        Accepted for NumPy compatibility and ignored.

    Returns
    -------
    Array
        A new array (also for a pure transpose, where NumPy returns a view).

    Raises
    ------
    ValueError
        If the subscripts do not match the operands' shapes.

    See Also
    --------
    matmul, tensordot

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.reshape(xp.arange(6.0), (2, 3))
    >>> xp.einsum("ij,kj->ik", a, a)
    Array([[ 5., 14.],
           [14., 50.]])
    >>> xp.einsum("ii", xp.reshape(xp.arange(9), (3, 3)))
    Array(12)
    """
    func = "einsum"
    if not operands:
        raise type_error(func, "needs at least one operand")
    ops = [check_array(func, x, "every operand") for x in operands]
    dtype = ops[0].dtype
    for x in ops[1:]:
        dtype = dt.promote(dtype, x.dtype)
    ops = [dt.in_dtype(x, dtype) for x in ops]
    labels, out = _parse(func, subscripts, [x.ndim for x in ops])
    work = []
    for x, lab in zip(ops, labels):
        x, lab = _diagonal(func, x, lab)
        work.append((x, lab))
    # a label in one operand only and not in the output: summed out at once
    for i, (x, lab) in enumerate(work):
        others = set(out).union(*(set(l2) for j, (_, l2) in enumerate(work) if j != i))
        work[i] = _sum_out(x, lab, others)
    x, lab = work[0]
    for i in range(1, len(work)):
        later = set(out).union(*(set(l2) for _, l2 in work[i + 1:]))
        x, lab = _contract(x, lab, work[i][0], work[i][1], later)
    x, lab = _sum_out(x, lab, set(out))
    if lab != out:
        x = permute_dims(x, tuple(lab.index(c) for c in out))
    return x._copy_contiguous() if x._storage in {o._storage for o in ops} else x
