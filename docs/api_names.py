"""Every public name of arrstride, grouped for the API reference.

The public names are arrstride.__all__ (with the modules in it opened:
linalg, fft, lib.stride_tricks) and those of linalg.__all__ and fft.__all__.
docs/conf.py writes the reference's autosummary page from groups();
docs/check_inventory.py and tests/test_docs.py check every name of
public_names() against the built inventory and the docstrings.
"""
import inspect
import types

import arrstride

# Names documented as data on docs/reference/constants.rst (no docstring of
# their own: Python floats, None, a str, DType instances).
DATA = ["__array_api_version__", *(d.name for d in arrstride._dtypes.ALL),  # the dtype table
        "e", "inf", "nan", "pi", "newaxis"]
MODULES = {"linalg": arrstride.linalg, "fft": arrstride.fft, "random": arrstride.random}
EXTRA = ["lib.stride_tricks.sliding_window_view"]

# Section title of each defining module (by the module the code lives in).
TITLES = [
    ("_array", "The array object"), ("_dtypes", "The array object"),
    ("_info", "Inspection"), ("_creation_functions", "Creation functions"),
    ("_data_type_functions", "Data type functions"),
    ("_manipulation_functions", "Manipulation functions"),
    ("_elementwise_functions", "Elementwise functions"),
    ("_statistical_functions", "Statistical functions"), ("_utility_functions", "Utility functions"),
    ("_searching_functions", "Searching functions"), ("_sorting_functions", "Sorting functions"),
    ("_set_functions", "Set functions"), ("_indexing_functions", "Indexing functions"),
    ("_linear_algebra_functions", "Linear algebra functions"),
    ("_views", "Beyond the standard: views"), ("_stride_tricks", "Beyond the standard: views"),
    ("_show", "Beyond the standard: tools"), ("_config", "Beyond the standard: tools"),
    ("_kernels", "Beyond the standard: threads and memory"),
    ("_quantile", "Beyond the standard: statistics"), ("_pad", "Beyond the standard: other functions"),
    ("_numpy_math", "From NumPy and PyTorch: math and comparison"),
    ("_numpy_products", "From NumPy and PyTorch: products"),
    ("_numpy_shape", "From NumPy and PyTorch: shape, assembly, sorting, types"),
    ("_numpy_stats", "From NumPy and PyTorch: statistics"),
    ("linalg", "Linear algebra extension (arrstride.linalg)"),
    ("fft", "Fourier transform extension (arrstride.fft)"),
    ("random", "Random numbers (arrstride.random)"),
    ("_io", "Beyond the standard: files and buffers"),
    ("_format", "Beyond the standard: tools"),
]


def resolve(name: str):
    obj = arrstride
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def public_names():
    """Every public dotted name (relative to arrstride), data included."""
    names = []
    for n in arrstride.__all__:
        obj = getattr(arrstride, n)
        if isinstance(obj, types.ModuleType):
            continue
        names.append(n)
    for m, mod in MODULES.items():
        names += [f"{m}.{n}" for n in mod.__all__]
    return names + EXTRA


def _home(name: str, obj) -> str:
    if name.startswith("linalg."):
        return "linalg"
    if name.startswith("fft."):
        return "fft"
    if name.startswith("random."):
        return "random"
    target = getattr(obj, "__wrapped__", obj)
    mod = getattr(target, "__module__", None) or ""
    return mod.rsplit(".", 1)[-1]


def groups():
    """[(title, [names])] for the reference, in TITLES' order; every callable
    and class among public_names() exactly once."""
    order = []
    for _, title in TITLES:
        if title not in order:
            order.append(title)
    by_title = {t: [] for t in order}
    home_title = dict(TITLES)
    for name in public_names():
        if name in DATA:
            continue
        obj = resolve(name)
        title = home_title.get(_home(name, obj))
        if title is None:
            if name.startswith("lib."):
                title = "Beyond the standard: views"
            elif inspect.isclass(obj):
                title = "The array object"
            else:
                title = "Beyond the standard: other functions"
        by_title[title].append(name)
    return [(t, sorted(by_title[t], key=str.lower)) for t in order if by_title[t]]
