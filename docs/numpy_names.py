"""The functions NumPy and PyTorch both have, beyond the array API standard,
and the guide page that lists them (docs/guide/from_numpy_and_pytorch.md).

tests/test_numpy_names.py checks that arrstride offers every one (from the
installed NumPy and PyTorch when both are there, else from the snapshot
below); docs/conf.py writes the page at each build and tests/test_docs.py
checks that the checked-in page is the one this module writes. Rewrite it
after changing a public function with

    python docs/numpy_names.py
"""
import inspect
import os

# Public callables that are not classes, in both numpy and torch (and in their
# linalg and fft modules) and not in the standard (revision 2025.12), at NumPy 2.4
# and PyTorch 2.13: (set(dir(numpy)) & set(dir(torch))) - standard names.
BOTH_TOP = """
absolute allclose amax amin angle arccos arccosh arcsin arcsinh arctan arctan2 arctanh
argwhere atleast_1d atleast_2d atleast_3d bincount bitwise_not column_stack concatenate
corrcoef cov cross cumprod cumsum deg2rad diag diagflat diagonal dot dsplit dstack einsum
exp2 fix fliplr flipud float_power fmax fmin fmod frexp frombuffer gcd gradient heaviside
histogram histogramdd hsplit hstack i0 inner isclose isneginf isposinf isreal kron lcm
ldexp load logaddexp2 logspace median nan_to_num nanmean nanmedian nanquantile nansum
outer promote_types put quantile rad2deg ravel rot90 row_stack save select
set_printoptions sinc split swapaxes trace transpose trapezoid tril_indices triu_indices
true_divide typename unique unravel_index vander vdot vsplit vstack
""".split()
BOTH_SUB = {"linalg": "cond lstsq multi_dot norm tensorinv tensorsolve".split(),
            "fft": "fft2 ifft2 irfft2 rfft2".split()}

# Names arrstride does not offer, each with its reason.
NOT_OFFERED = {
    "row_stack": "deprecated in NumPy 2.0 (an alias of vstack)",
    "typename": "means different things in the two libraries (a dtype code's name in "
                "NumPy, a tensor's type name in PyTorch)",
}

# NumPy's spellings of standard functions: the same object as the standard's.
ALIASES = {"absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin",
           "arcsinh": "asinh", "arctan": "atan", "arctan2": "atan2", "arctanh": "atanh",
           "bitwise_not": "bitwise_invert", "concatenate": "concat", "true_divide": "divide",
           "amax": "max", "amin": "min"}


def public_functions(mod) -> set:
    """Public callables of a module that are not classes."""
    return {n for n in dir(mod) if not n.startswith("_")
            and callable(getattr(mod, n)) and not inspect.isclass(getattr(mod, n))}


def wanted() -> dict:
    """{'': names, 'linalg': names, 'fft': names} that arrstride should offer:
    computed from the installed NumPy and PyTorch, or the snapshot without PyTorch."""
    try:
        import numpy as np
        import torch
    except ImportError:
        return {"": set(BOTH_TOP), **{k: set(v) for k, v in BOTH_SUB.items()}}
    out = {"": public_functions(np) & public_functions(torch)}
    for sub in ("linalg", "fft"):
        out[sub] = public_functions(getattr(np, sub)) & public_functions(getattr(torch, sub))
    return out


# ---- the page ------------------------------------------------------------------------

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "guide", "from_numpy_and_pytorch.md")
ALIAS_GROUP = "NumPy's names for standard functions"
OTHER_GROUP = "Other NumPy functions"
# Group of a function by the module that defines it, in the page's order; a
# function of a module not listed goes to OTHER_GROUP.
GROUP_OF_MODULE = [
    ("_numpy_math", "Math, comparison and cleaning"),
    ("_numpy_products", "Products"), ("_einsum", "Products"),
    ("_numpy_shape", "Shape, assembly and types"), ("_views", "Shape, assembly and types"),
    ("_creation_functions", "Shape, assembly and types"),
    ("_numpy_stats", "Statistics"), ("_quantile", "Statistics"),
    ("_statistical_functions", "Statistics"),
    ("_io", "Files, buffers and printing"), ("_format", "Files, buffers and printing"),
]


def _summary(obj) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n", 1)[0].split()).replace("|", "\\|")


def _module(obj) -> str:
    target = getattr(obj, "__wrapped__", obj)
    return (getattr(target, "__module__", None) or "").rsplit(".", 1)[-1]


def groups(xp=None):
    """[(title, [(name, standard name or None, summary)])] of the top-level
    names of BOTH_TOP that arrstride offers, in the page's order."""
    if xp is None:
        import arrstride as xp
    titles = [ALIAS_GROUP] + list(dict.fromkeys(t for _, t in GROUP_OF_MODULE)) + [OTHER_GROUP]
    by_title = {t: [] for t in titles}
    home = dict(GROUP_OF_MODULE)
    for name in sorted(BOTH_TOP):
        if name in NOT_OFFERED:
            continue
        obj = getattr(xp, name)
        std = getattr(obj, "__name__", None)
        if std != name and std is not None and getattr(xp, std, None) is obj:
            by_title[ALIAS_GROUP].append((name, std, _summary(obj)))
        else:
            by_title[home.get(_module(obj), OTHER_GROUP)].append((name, None, _summary(obj)))
    return [(t, rows) for t, rows in by_title.items() if rows]


def page() -> str:
    """The Markdown of docs/guide/from_numpy_and_pytorch.md."""
    import arrstride as xp
    n_top = sum(len(rows) for _, rows in groups(xp))
    n_sub = sum(len(v) for v in BOTH_SUB.values())
    out = [
        "# From NumPy and PyTorch", "",
        "<!-- Written by docs/numpy_names.py from arrstride's code: do not edit; "
        "`python docs/numpy_names.py` rewrites it. -->", "",
        "Beyond the array API standard, arrstride offers every public function that "
        "NumPy's and PyTorch's namespaces both have (measured at NumPy 2.4 and PyTorch "
        f"2.13): {n_top} in `arrstride`, {n_sub} in `arrstride.linalg` and "
        "`arrstride.fft`, with NumPy's signature and NumPy's result (NumPy is the test "
        "oracle: `tests/test_numpy_names.py` compares each over dtypes and layouts, and "
        "fails when a name NumPy and PyTorch both have is missing). Random numbers follow "
        "`numpy.random.default_rng`. Each name has a page in the API reference.", "",
    ]
    for title, rows in groups(xp):
        out += [f"## {title}", ""]
        if title == ALIAS_GROUP:
            out += ["Each is the same function object as the standard's.", "",
                    "| NumPy's name | the standard's | what it gives |", "| --- | --- | --- |"]
            out += [f"| `{n}` | `{std}` | {s} |" for n, std, s in rows]
        else:
            out += ["| name | what it gives |", "| --- | --- |"]
            out += [f"| `{n}` | {s} |" for n, _, s in rows]
        out.append("")
    for sub, names in BOTH_SUB.items():
        mod = getattr(xp, sub)
        out += [f"## `arrstride.{sub}`", "", "| name | what it gives |", "| --- | --- |"]
        out += [f"| `{sub}.{n}` | {_summary(getattr(mod, n))} |" for n in sorted(names)]
        out.append("")
    gen = xp.random.Generator
    methods = sorted(m for m in dir(gen) if not m.startswith("_") and callable(getattr(gen, m)))
    out += ["## Random numbers: `arrstride.random`", "",
            "NumPy's interface (PyTorch's `torch.rand`, `randn`, `randint` and `randperm` are "
            "`random`, `standard_normal`, `integers` and `permutation` of a `Generator`). "
            "`random`, `integers` and `standard_normal` give NumPy's numbers for the same seed.", "",
            "| name | what it gives |", "| --- | --- |"]
    out += [f"| `random.{n}` | {_summary(getattr(xp.random, n))} |" for n in xp.random.__all__]
    out += ["", "`Generator`'s methods: " + ", ".join(f"`{m}`" for m in methods) + ".", ""]
    out += ["## Not offered", "", "| name | why |", "| --- | --- |"]
    out += [f"| `{n}` | {why} |" for n, why in sorted(NOT_OFFERED.items())]
    return "\n".join(out) + "\n"


def write(path: str = PAGE) -> bool:
    """Write the page when it differs (an unchanged file keeps its time stamp);
    True when it was written."""
    text = page()
    old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    if text == old:
        return False
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return True


if __name__ == "__main__":
    print(("wrote " if write() else "unchanged: ") + os.path.relpath(PAGE))
