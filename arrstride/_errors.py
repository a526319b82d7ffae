"""Message wording, in one place: "<func>: <rule>; got <actual>".

One builder per kind of mistake, so the same mistake reads the same in every
function: a non-array where an array is required (`not_array_error`), a wrong
dtype category (`dtype_error`), an axis out of range (`axis_error`), an index
out of range (`index_bounds_error`), shapes that do not broadcast
(`broadcast_error`, `broadcast_into_error`), a write through a layout that
reaches one element twice (`overlap_error`) or into read-only memory
(`read_only_error`), a linalg function given matrices that are not square
(`not_square_error`). NumPy's words are kept where users search for them;
tests/test_errors.py has a row for each."""
from __future__ import annotations


def msg(func: str, rule: str, got: object = None) -> str:
    if got is None:
        return f"{func}: {rule}"
    return f"{func}: {rule}; got {got}"


def type_error(func: str, rule: str, got: object = None) -> TypeError:
    return TypeError(msg(func, rule, got))


def value_error(func: str, rule: str, got: object = None) -> ValueError:
    return ValueError(msg(func, rule, got))


# What the reader of nested sequences (native/core/seq.c) found wrong, as
# (what, detail) -> (the rule, what the detail is)
_SEQUENCE_MISTAKES = {
    "ragged": ("setting an array element with a sequence: the nested sequences have an inhomogeneous "
               "shape (each depth must have one length)", "the shape detected before it was"),
    "length": ("a sequence's len() differs from the number of its items", "(len, items) ="),
    "changed": ("a sequence changed size while it was being converted", "its length was"),
    "depth": ("setting an array element with a sequence: the requested array would exceed the maximum "
              "number of dimensions", "the maximum is"),
}


def sequence_error(func: str, what: str, detail: object) -> ValueError:
    rule, about = _SEQUENCE_MISTAKES[what]
    return ValueError(msg(func, rule, f"{about} {detail}"))


def index_error(func: str, rule: str, got: object = None) -> IndexError:
    return IndexError(msg(func, rule, got))


class AxisError(IndexError, ValueError):
    """An axis out of range; an IndexError as the standard asks, and a ValueError as NumPy's."""


def axis_error(func: str, axis: object, ndim: int) -> AxisError:
    """NumPy's wording, which users and SciPy's tests match on."""
    return AxisError(msg(func, f"axis {axis} is out of bounds for array of dimension {ndim}"))


def type_name(value: object) -> str:
    """What a value is, for a message: "Python int", "list", "numpy.ndarray"."""
    t = type(value)
    if t.__module__ == "builtins":
        return f"Python {t.__name__}" if isinstance(value, (int, float, complex)) else t.__name__
    return f"{t.__module__.split('.')[0]}.{t.__qualname__}"


def not_array_error(func: str, value: object, name: str = "x", scalars: bool = False,
                    numpy: bool = False) -> TypeError:
    """A non-array where an array (or, with scalars=True, a Python scalar; with
    numpy=True, a NumPy array too) is required."""
    kind = "an arrstride or NumPy array" if numpy else "an arrstride array"
    if scalars:
        kind += " or a Python scalar"
    return TypeError(msg(func, f"{name} must be {kind}", type_name(value)))


def operand_error(op: str, other: object) -> TypeError:
    """An operator given something that is neither an array nor a scalar."""
    return TypeError(msg(f"Array.{op}", "operands must be arrstride or NumPy arrays, or Python or "
                         "NumPy scalars (convert sequences with asarray first)", type_name(other)))


def number_error(func: str, name: str, kind: str, value: object) -> TypeError:
    """A number argument given something else."""
    return TypeError(msg(func, f"{name} must be {kind} (a Python or NumPy scalar or a 0-d array)",
                         repr(value)))


def index_bounds_error(func: str, index: object, axis: int, size: int) -> IndexError:
    """An index past an axis (NumPy's wording), naming the axis of the indexed array."""
    return IndexError(msg(func, f"index {index} is out of bounds for axis {axis} with size {size}"))


def key_error(func: str, shape: tuple, what: str, got: object, axis: int) -> Exception:
    """A mistake _core.index_key found in an indexing key for an array of
    `shape` (native/core/index.c): what it is, the item (index, count) it
    names, and the axis of the indexed array."""
    if what == "ellipsis":
        return index_error(func, "an index can only have a single ellipsis ('...')")
    if what == "type":
        return index_error(func, "only integers, slices, '...', None and integer or "
                           "boolean arrays are valid indices", type(got).__name__)
    if what == "dtype":
        return index_error(func, "arrays used as indices must be of integer or boolean dtype",
                           f"dtype {got.dtype}")
    if what == "too_many":
        return index_error(func, f"too many indices: the array is {len(shape)}-dimensional",
                           f"{got} indexed")
    if what == "bounds":
        return index_bounds_error(func, got, axis, shape[axis])
    if what == "step":
        return value_error(func, "slice step cannot be zero")
    assert what == "mask", what
    return index_error(func, f"boolean index of shape {got.shape} does not match the indexed "
                             f"dims of shape {tuple(shape[axis:axis + got.ndim])}")


def shapes_error(func: str, rule: str, a: tuple, b: tuple) -> ValueError:
    """Two shapes that break a rule other than broadcasting (matmul's inner dims, concat)."""
    return ValueError(msg(func, rule, f"shapes {tuple(a)} and {tuple(b)}"))


def _and(items) -> str:
    items = [str(i) for i in items]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def broadcast_mismatch(shapes, skip=()):
    """(axis, sizes): the last axis, counted from the end as broadcasting aligns
    shapes, where sizes other than 1 differ (axes in `skip` aside); None when
    the shapes broadcast."""
    nd = max((len(s) for s in shapes), default=0)
    for k in range(1, nd + 1):
        if -k in skip:
            continue
        sizes = [s[-k] for s in shapes if len(s) >= k]
        if len({d for d in sizes if d != 1}) > 1:
            return -k, sizes
    return None


def broadcast_error(func: str, *shapes: tuple, what: str = "operands", core=0, skip=(),
                    cls: type = ValueError) -> Exception:
    """Shapes that do not broadcast together: NumPy's words, every shape, and
    the axis (counted from the end) where they differ. `core`: trailing dims
    that do not broadcast (2 for matmul's matrices; a tuple gives one per shape);
    `skip`: axes (negative) that need not match (take_along_axis's axis)."""
    rule = f"{what} could not be broadcast together with shapes {_and(tuple(s) for s in shapes)}"
    cores = core if isinstance(core, tuple) else (core,) * len(shapes)
    found = broadcast_mismatch([tuple(s)[:len(s) - c] for s, c in zip(shapes, cores)], skip)
    if found is not None:
        axis, sizes = found
        where = f"axis {axis}" if not max(cores) else f"batch axis {axis}"
        rule += f" ({where} has sizes {_and(sizes)})"
    return cls(msg(func, rule))


def broadcast_into_error(func: str, src: tuple, dst: tuple, what: str = "the input") -> ValueError:
    """A shape that does not broadcast into a fixed one (broadcast_to, x[key] = v,
    x += y): NumPy's words, both shapes, and the axis at fault."""
    src, dst = tuple(src), tuple(dst)
    rule = f"could not broadcast {what} from shape {src} into shape {dst}"
    if any(d < 0 for d in dst):
        why = "the target shape has a negative size"
    elif len(src) > len(dst):
        why = f"{len(src)} dimensions do not fit in {len(dst)}"
    else:
        why = next((f"axis {-k} has size {src[-k]}, not 1 or {dst[-k]}"
                    for k in range(1, len(src) + 1) if src[-k] not in (1, dst[-k])), None)
    return ValueError(msg(func, rule + (f" ({why})" if why else "")))


def overlap_error(func: str, shape: tuple, strides: tuple) -> ValueError:
    """A write through a layout where two indices reach one element."""
    return ValueError(msg(func, "cannot write through a layout where two indices reach one "
                                "element (a stride 0 over a size > 1, or overlapping windows); "
                                "write to a copy instead",
                          f"shape {tuple(shape)}, strides {tuple(strides)}"))


def not_square_error(func: str, name: str, shape: tuple) -> ValueError:
    """A linalg function that needs square matrices given another shape."""
    return ValueError(msg(func, f"{name} must be a stack of square matrices (its last two dims "
                                "equal)", f"shape {tuple(shape)}"))


def no_view_error(func: str, shape: tuple, strides: tuple, new_shape: tuple,
                  advice: str = "use reshape(), which copies when it must, or call "
                                ".contiguous() first") -> ValueError:
    return ValueError(
        f"{func}: no view exists of shape {tuple(new_shape)} over a layout with shape "
        f"{tuple(shape)} and strides {tuple(strides)} (the array is not contiguous enough); "
        + advice
    )


def read_only_error(func: str, why: object = None) -> ValueError:
    """A write into a read-only array (NumPy's phrase first, then why and the fix)."""
    return ValueError(msg(func, f"assignment destination is read-only ({why or 'read-only memory'}); "
                                "copy it first, e.g. xp.asarray(x, copy=True)"))


def describe_operand(x: object) -> str:
    """An operand for a dtype message: "an array of dtype int8", "a Python float"."""
    if type(x).__module__.startswith("arrstride"):
        return f"an array of dtype {x.dtype}"
    name = type_name(x)
    return ("an " if name[0] in "aeiou" else "a ") + name


def dtype_error(func: str, allowed: str, dtype: object, operands: tuple = ()) -> TypeError:
    """An array (or operands promoting to a dtype) outside the dtype category
    func accepts. With operands, say what each was and what they promote to."""
    if operands:
        got = " and ".join(describe_operand(x) for x in operands)
        if len(operands) > 1:
            got += f" (together dtype {dtype})"
    else:
        got = f"dtype {dtype}"
    return TypeError(msg(func, f"expected an array of {allowed} dtype", got))


def too_large_error(func: str, shape: tuple, count: int) -> ValueError:
    """An element count past int64: the array may exist as a view (a broadcast
    of 2**64 elements) but no kernel can walk it (NumPy: "iterator is too large")."""
    return ValueError(msg(func, "iterator is too large: arrays of more than 2**63 - 1 elements "
                                "cannot be computed on", f"shape {tuple(shape)} ({count} elements)"))


def alloc_error(func: str, shape: tuple, dtype: object, nbytes: int) -> MemoryError:
    return MemoryError(msg(func, f"cannot allocate {nbytes} bytes for an array of shape "
                                 f"{tuple(shape)} and dtype {dtype}"))


MAX_DIM = (1 << 63) - 1  # the largest size of one dimension (int64, as NumPy's npy_intp)


MAX_NDIM = 64  # the most dimensions an array has (NumPy's NPY_MAXDIMS; ARS_MAX_DIMS in C)


def ndim_error(func: str, ndim: int) -> ValueError:
    """More dimensions than an array may have (NumPy's wording)."""
    return ValueError(msg(func, f"maximum supported dimension for an ndarray is currently {MAX_NDIM}, "
                                f"found {ndim}"))


def dimension_error(func: str, shape: tuple) -> ValueError:
    """A dimension past int64, even in an empty shape (NumPy's wording)."""
    return ValueError(msg(func, "maximum allowed dimension exceeded: each dimension must be at "
                                "most 2**63 - 1", f"shape {tuple(shape)}"))


def pickle_error(rule: str, got: object = None) -> ValueError:
    """A malformed arrstride pickle payload: truncated, edited or not ours."""
    return ValueError(msg("pickle.loads (arrstride array)", rule, got))


def cpu_env_message(value: str, levels: tuple) -> str:
    """ARRSTRIDE_CPU set to a value that names no SIMD level."""
    return (f"ARRSTRIDE_CPU: must be one of {', '.join(repr(v) for v in levels + ('native',))}; "
            f"got {value!r}, so the CPU's best level is used")
