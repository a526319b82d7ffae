"""arrstride: the Python array API standard (2025.12) on strided storage,
with a C kernel library doing the work on the data.

    import arrstride as xp
"""
from __future__ import annotations

__array_api_version__ = "2025.12"

import math as _math
import types as _types

# The compiled modules: a source tree that was never built has neither, and
# Python imports it instead of the installed package when it is the current
# directory (tests/test_config.py checks the message).
import importlib.util as _ilu
_missing = [m for m in ("_native", "_core") if _ilu.find_spec(f"{__name__}.{m}") is None]
if _missing:
    import os as _os
    _here = _os.path.dirname(_os.path.abspath(__file__))
    raise ImportError(
        f"arrstride: the compiled module arrstride.{_missing[0]} is missing from {_here}.\n"
        f"You are in {_os.getcwd()}: Python imported that source tree, which was not built in place,\n"
        "instead of an installed arrstride. Either build it here (needs a C compiler):\n\n"
        f"    cd {_os.path.dirname(_here)} && pip install -e .\n\n"
        "or run from another folder (e.g. `cd ..`), where the installed package is imported.")

from ._array import Array, Device
from ._dtypes import DType
from . import _dtypes as _dt
globals().update((_d.name, _d) for _d in _dt.ALL)  # every dtype of the table, by name
from ._creation_functions import (
    arange, asarray, empty, empty_like, eye, from_dlpack, full, full_like, linspace, meshgrid,
    ones, ones_like, tril, triu, zeros, zeros_like,
    diag, logspace,
)
from ._data_type_functions import astype, can_cast, finfo, iinfo, isdtype, result_type
from ._manipulation_functions import (
    broadcast_arrays, broadcast_shapes, broadcast_to, expand_dims, flip, matrix_transpose,
    moveaxis, permute_dims, reshape, squeeze, unstack,
    concat, repeat, roll, stack, tile,
)
from ._elementwise_functions import (
    abs, acos, acosh, add, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_invert,
    bitwise_left_shift, bitwise_or, bitwise_right_shift, bitwise_xor, ceil, clip, conj,
    copysign, cos, cosh, divide, equal, exp, expm1, floor, floor_divide, greater,
    greater_equal, hypot, imag, isfinite, isin, isinf, isnan, less, less_equal, log, log10,
    log1p, log2, logaddexp, logical_and, logical_not, logical_or, logical_xor, maximum,
    minimum, multiply, negative, nextafter, not_equal, positive, pow, real, reciprocal,
    remainder, round, sign, signbit, sin, sinh, sqrt, square, subtract, tan, tanh, trunc,
    where,
)
from ._statistical_functions import (
    cumulative_prod, cumulative_sum, max, mean, min, prod, std, sum, var,
    nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar,
)
from ._quantile import median, nanmedian, nanquantile, quantile
from ._utility_functions import all, any, diff
from ._searching_functions import argmax, argmin, count_nonzero, nanargmax, nanargmin, nonzero, searchsorted, top_k
from ._sorting_functions import argsort, sort
from ._set_functions import unique_all, unique_counts, unique_inverse, unique_values
from ._indexing_functions import take, take_along_axis
from ._views import as_strided, diagonal, expand, narrow, unfold
from ._pad import pad
from . import _stride_tricks

# numpy.lib.stride_tricks.sliding_window_view, where xarray looks for it
lib = _types.ModuleType("arrstride.lib", "NumPy-style helpers: lib.stride_tricks.sliding_window_view")
lib.stride_tricks = _stride_tricks
from ._info import __array_namespace_info__
from ._show import show
from ._config import __version__, show_config
from ._kernels import get_cache_limit, get_num_threads, release_cache, set_cache_limit, set_num_threads
from ._linear_algebra_functions import matmul, tensordot, vecdot
from ._einsum import einsum
from ._numpy_functions import cumprod, cumsum, gradient, nancumprod, nancumsum, transpose
# NumPy's names that PyTorch has too (docs/guide/coming_from_numpy.md); the
# aliases are the standard's functions themselves.
from ._elementwise_functions import (
    abs as absolute, acos as arccos, acosh as arccosh, asin as arcsin, asinh as arcsinh,
    atan as arctan, atan2 as arctan2, atanh as arctanh, bitwise_invert as bitwise_not,
    divide as true_divide,
)
from ._manipulation_functions import concat as concatenate
from ._statistical_functions import max as amax, min as amin
from ._numpy_math import (
    allclose, angle, deg2rad, exp2, fix, float_power, fmax, fmin, fmod, frexp, gcd, heaviside,
    i0, isclose, isneginf, isposinf, isreal, lcm, ldexp, logaddexp2, nan_to_num, rad2deg, sinc,
    trapezoid,
)
from ._numpy_products import cross, dot, inner, kron, outer, trace, vdot
from ._numpy_shape import (
    argpartition, argwhere, atleast_1d, atleast_2d, atleast_3d, column_stack, diagflat, dsplit,
    dstack, fliplr, flipud, hsplit, hstack, partition, promote_types, put, ravel, rot90, select,
    split, swapaxes, tril_indices, triu_indices, unique, unravel_index, vander, vsplit, vstack,
)
from ._numpy_stats import bincount, corrcoef, cov, histogram, histogram_bin_edges, histogramdd
from . import linalg
from . import fft
# NumPy's habits: random numbers, .npy/.npz files, buffers, print options
from . import random
from ._io import frombuffer, load, save, savez, savez_compressed
from ._format import get_printoptions, printoptions, set_printoptions
from . import _operators  # noqa: F401  (last: binds operators and [] onto Array)
from . import _threadpool
_threadpool.install()  # threadpoolctl lists and limits arrstride's pool

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None

__all__ = [
    "__array_api_version__", "__array_namespace_info__", "Array", "Device", "DType",
    # dtypes: every row of the dtype table (_dtypes.ALL)
    *(_d.name for _d in _dt.ALL),
    # constants
    "e", "inf", "nan", "pi", "newaxis",
    # creation
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like", "linspace",
    "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
    # data types
    "astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type",
    # manipulation (views)
    "broadcast_arrays", "broadcast_shapes", "broadcast_to", "expand_dims", "flip",
    "matrix_transpose", "moveaxis", "permute_dims", "reshape", "squeeze", "unstack",
    # elementwise (and where, clip, isin)
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh",
    "bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "ceil", "clip", "conj", "copysign", "cos",
    "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide", "greater",
    "greater_equal", "hypot", "imag", "isfinite", "isin", "isinf", "isnan", "less",
    "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
    "negative", "nextafter", "not_equal", "positive", "pow", "real", "reciprocal",
    "remainder", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square", "subtract",
    "tan", "tanh", "trunc", "where",
    # manipulation (copies)
    "concat", "repeat", "roll", "stack", "tile",
    # statistical
    "cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var",
    # utility
    "all", "any", "diff",
    # searching
    "argmax", "argmin", "count_nonzero", "nonzero", "searchsorted",
    # sorting
    "argsort", "sort",
    # sets
    "unique_all", "unique_counts", "unique_inverse", "unique_values",
    # indexing
    "take", "take_along_axis",
    # beyond the standard
    "as_strided", "diagonal", "expand", "narrow", "unfold", "show", "show_config",
    "median", "nanargmax", "nanargmin", "nanmax", "nanmean", "nanmedian", "nanmin", "nanprod",
    "nanquantile", "nanstd", "nansum", "nanvar", "pad", "quantile", "top_k", "lib",
    "diag", "einsum", "logspace", "cumsum", "cumprod", "nancumsum", "nancumprod", "gradient",
    "transpose",
    "get_num_threads", "set_num_threads", "get_cache_limit", "set_cache_limit", "release_cache",
    # NumPy's names that PyTorch has too
    "absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
    "bitwise_not", "true_divide", "concatenate", "amax", "amin",
    "allclose", "angle", "deg2rad", "exp2", "fix", "float_power", "fmax", "fmin", "fmod", "frexp",
    "gcd", "heaviside", "i0", "isclose", "isneginf", "isposinf", "isreal", "lcm", "ldexp",
    "logaddexp2", "nan_to_num", "rad2deg", "sinc", "trapezoid",
    "cross", "dot", "inner", "kron", "outer", "trace", "vdot",
    "argpartition", "argwhere", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack",
    "diagflat", "dsplit", "dstack", "fliplr", "flipud", "hsplit", "hstack", "partition",
    "promote_types", "put", "ravel", "rot90", "select", "split", "swapaxes", "tril_indices",
    "triu_indices", "unique", "unravel_index", "vander", "vsplit", "vstack",
    "bincount", "corrcoef", "cov", "histogram", "histogram_bin_edges", "histogramdd",
    # linear algebra (matrix_transpose is with manipulation)
    "matmul", "tensordot", "vecdot", "linalg",
    # extensions
    "fft",
    # NumPy's habits: random numbers, .npy/.npz files, buffers, print options
    "random", "frombuffer", "load", "save", "savez", "savez_compressed",
    "get_printoptions", "printoptions", "set_printoptions",
]
