"""Sphinx configuration: the user's guide (MyST Markdown, docs/guide/) and the
API reference (docs/reference/, autosummary pages for every public name,
numpydoc docstrings). Built by .ci/run with `sphinx-build -W` (warnings are
errors); the `docs` extra of pyproject.toml holds what it needs:

    pip install -e '.[docs]'
    python -m arrstride bench --suite percall --samples 3 --plot docs/_static/bench.png  # optional
    sphinx-build -W -b html docs docs/_build/html
    python docs/check_inventory.py docs/_build/html/objects.inv
"""
import inspect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import arrstride  # noqa: E402
from arrstride._core import Elementwise  # noqa: E402

import api_names  # noqa: E402  (docs/api_names.py: the public names, grouped)

project = "arrstride"
author = "the arrstride developers"
release = arrstride.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "README.md"]
root_doc = "index"

autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"          # the signature line shows them already
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "pydata_sphinx_theme"
html_title = f"arrstride {release}"
html_static_path = ["_static"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}


# ---- the reference pages, written from the package's own lists ------------------
def _write_reference():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "reference", "functions.rst")
    lines = [".. This file is written by docs/conf.py from arrstride.__all__ (docs/api_names.py);",
             "   do not edit.", "", "Functions and classes", "=====================", "",
             ".. currentmodule:: arrstride", ""]
    for title, names in api_names.groups():
        lines += [title, "-" * len(title), ""]
        plain = [n for n in names if not n.startswith("lib.")]
        if plain:
            lines += [".. autosummary::", "   :toctree: generated", ""] + [f"   {n}" for n in plain] + [""]
        for n in names:  # arrstride.lib.stride_tricks.<name> (modules registered below)
            if n.startswith("lib."):
                mod, _, base = n.rpartition(".")
                lines += [f".. currentmodule:: arrstride.{mod}", "", ".. autosummary::",
                          "   :toctree: generated", "", f"   {base}", "", ".. currentmodule:: arrstride", ""]
    text = "\n".join(lines)
    old = open(out).read() if os.path.exists(out) else None
    if text != old:  # unchanged files keep their time stamps (no needless rebuilds)
        with open(out, "w") as f:
            f.write(text)


# arrstride.lib (NumPy's lib.stride_tricks, where xarray looks) is a namespace
# object, not an importable module: autodoc imports by module name.
sys.modules.setdefault("arrstride.lib", arrstride.lib)
sys.modules.setdefault("arrstride.lib.stride_tricks", arrstride.lib.stride_tricks)
_write_reference()


# ---- the performance page's figure: drawn by the bench command when it was run -------
def _write_bench_figure():
    """docs/guide/bench_figure.inc, which guide/performance.md includes: the
    figure when docs/_static/bench.png exists (.ci/run draws it first), else
    the command that draws it, so that a fresh clone builds without it."""
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.exists(os.path.join(here, "_static", "bench.png")):
        text = "![time ratios of arrstride to NumPy](../_static/bench.png)\n"
    else:
        text = ("*The figure is not in this build: draw it with `python -m arrstride bench "
                "--suite percall --samples 3 --plot docs/_static/bench.png` (needs matplotlib), "
                "then build again.*\n")
    out = os.path.join(here, "guide", "bench_figure.inc")
    old = open(out).read() if os.path.exists(out) else None
    if text != old:
        with open(out, "w") as f:
            f.write(text)


_write_bench_figure()


# ---- the page "From NumPy and PyTorch": its tables come from the code -----------------
import numpy_names  # noqa: E402  (docs/numpy_names.py; tests/test_docs.py checks the page)

numpy_names.write()


# ---- the elementwise functions are _core.Elementwise objects, not functions --------
from sphinx.ext.autodoc import FunctionDocumenter  # noqa: E402


class ElementwiseDocumenter(FunctionDocumenter):
    """Documents an arrstride._core.Elementwise (abs, add, ...) as a function:
    its signature and docstring are those of the Python implementation."""
    objtype = "elementwise"
    directivetype = "function"
    priority = FunctionDocumenter.priority + 10

    @classmethod
    def can_document_member(cls, member, membername, isattr, parent):
        return isinstance(member, Elementwise)

    def format_args(self, **kwargs):
        sig = inspect.signature(self.object)
        return str(sig.replace(return_annotation=inspect.Signature.empty,
                               parameters=[p.replace(annotation=inspect.Parameter.empty)
                                           for p in sig.parameters.values()]))


def setup(app):
    app.add_autodocumenter(ElementwiseDocumenter)
