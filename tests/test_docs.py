"""Every public name has a docstring in numpydoc form (the API reference is
built from them): numpydoc's own validator with the checks of NUMPYDOC_CHECKS,
an Examples section that shows a result, and the Examples sections run as
doctests. Every data
name (dtypes, constants) has an entry on the reference's constants page. The
built HTML is checked by docs/check_inventory.py (.ci/run)."""
import inspect
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
if not (DOCS / "api_names.py").is_file():
    pytest.skip("docs/ is not here (an installed package's tests): nothing to check",
                allow_module_level=True)
sys.path.insert(0, str(DOCS))
import api_names  # noqa: E402


def _own_doc(obj):
    if inspect.isclass(obj):
        return obj.__dict__.get("__doc__")
    return getattr(obj, "__doc__", None)


NAMES = [n for n in api_names.public_names() if n not in api_names.DATA]


@pytest.mark.parametrize("name", NAMES)
def test_public_name_has_a_docstring(name):
    doc = _own_doc(api_names.resolve(name))
    assert doc and doc.strip(), f"arrstride.{name} has no docstring"
    summary = inspect.cleandoc(doc).split("\n\n", 1)[0]
    assert len(summary) >= 10, f"arrstride.{name}: the docstring's summary is too short: {summary!r}"


# ---- numpydoc form: every public name passes numpydoc's own validator ----------------
#
# The checks required of every public docstring (numpydoc.validate's codes). Chosen:
# the sections a reader relies on must be there and well formed; style checks that
# ask for more than the reference needs are left out (listed below with why).
NUMPYDOC_CHECKS = {
    # global: closing quotes on their own line, no double blank lines, no tabs, only
    # numpydoc's sections, in numpydoc's order, a docstring at all, directives with "::"
    "GL02", "GL03", "GL05", "GL06", "GL07", "GL08", "GL10",
    # a one-line summary that starts with a capital, ends with a period, no leading space
    "SS01", "SS02", "SS03", "SS04", "SS06",
    # Parameters: every parameter documented (PR01), none unknown (PR02), in the
    # signature's order (PR03), each with a type (PR04, PR10) written plainly (PR05,
    # PR06) and a description that is a sentence (PR07, PR08, PR09)
    "PR01", "PR02", "PR03", "PR04", "PR05", "PR06", "PR07", "PR08", "PR09", "PR10",
    # Returns: present for functions that return (RT01, and see _needs_returns for the
    # generated elementwise functions numpydoc does not inspect), a type first (RT02),
    # a description that is a sentence (RT03, RT04, RT05); generators document Yields
    "RT01", "RT02", "RT03", "RT04", "RT05", "YD01",
    # See Also entries, when they have a description, are sentences
    "SA02", "SA03",
}
# Left out: GL01 (the summary starts on the quotes' line, this project's style), GL09
# (nothing is deprecated), SS05 (arrstride's summaries say what a function gives, as
# "Sum of ..."), ES01 (an extended summary only where it helps), SA01 and SA04 (See
# Also only where natural, bare names allowed), EX01 (test_public_name_has_examples
# below requires an Examples section, one that prints something, and
# test_docstring_examples_run runs it).

# Names exempt from one check, with the reason.
NUMPYDOC_EXEMPT = {
    # Array is never constructed directly (its __init__(*args, **kwargs) raises
    # TypeError pointing to asarray): its docstring documents attributes instead.
    ("Array", "PR01"),
}


def numpydoc_errors(obj, name: str):
    """[(code, message)] of the NUMPYDOC_CHECKS that obj's docstring fails."""
    from numpydoc.validate import get_doc_object, validate
    errors = [(c, m) for c, m in validate(get_doc_object(obj))["errors"]
              if c in NUMPYDOC_CHECKS and (name, c) not in NUMPYDOC_EXEMPT]
    if _needs_returns(obj) and not _sections(obj)["Returns"] and not any(
            c == "RT01" for c, _ in errors):
        errors.append(("RT01", "No Returns section found"))
    return errors


def _sections(obj):
    from numpydoc.docscrape import NumpyDocString
    return NumpyDocString(inspect.getdoc(obj) or "")


def _needs_returns(obj) -> bool:
    """A callable that is not a class and whose signature does not say it returns
    None. numpydoc's RT01 looks for a `return` in the source of plain functions
    only; this covers the elementwise functions (C objects) too."""
    if inspect.isclass(obj) or not callable(obj):
        return False
    try:
        ret = inspect.signature(obj).return_annotation
    except (TypeError, ValueError):
        return True
    return ret not in (None, "None")


@pytest.mark.parametrize("name", NAMES)
def test_public_name_is_in_numpydoc_form(name):
    pytest.importorskip("numpydoc", reason="numpydoc not installed (the test extra has it)")
    errors = numpydoc_errors(api_names.resolve(name), name)
    assert not errors, f"arrstride.{name}: " + "; ".join(f"{c} {m}" for c, m in errors)


EXAMPLES = [n for n in NAMES if ">>>" in (inspect.getdoc(api_names.resolve(n)) or "")]


def _shows_a_result(doc: str) -> bool:
    """Whether the docstring has an Examples section with a doctest that prints a
    result (the doctest then checks it)."""
    import doctest
    m = re.search(r"^Examples\n-{8}\n(.*?)(?=^\S[^\n]*\n-{3,}\n|\Z)", doc or "", re.M | re.S)
    return bool(m) and any(ex.want.strip()
                           for ex in doctest.DocTestParser().get_examples(m.group(1)))


def test_public_name_has_examples():
    """Every public name has an Examples section with a doctest that prints a
    result."""
    assert len(NAMES) > 300
    lacking = [n for n in NAMES if not _shows_a_result(inspect.getdoc(api_names.resolve(n)))]
    assert not lacking, (f"{len(lacking)} public names have no Examples section that shows "
                         "a result: " + ", ".join(lacking))


def test_examples_check_finds_a_missing_section():
    """The check fails on a docstring without Examples, on one whose examples print
    nothing, and on one whose example sits in another section."""
    bare = "Sum of x.\n\nReturns\n-------\nArray\n    The sum.\n"
    silent = bare + "\nExamples\n--------\n>>> import arrstride as xp\n"
    shown = silent + ">>> xp.asarray(1)\nArray(1)\n"
    elsewhere = silent + "\nNotes\n-----\n>>> xp.asarray(1)\nArray(1)\n"
    assert [_shows_a_result(d) for d in (bare, silent, shown, elsewhere)] == [
        False, False, True, False]


@pytest.mark.parametrize("name", EXAMPLES)
def test_docstring_examples_run(name):
    """The Examples sections are doctests: each runs and prints what it shows."""
    import doctest
    obj = api_names.resolve(name)
    test = doctest.DocTestParser().get_doctest(inspect.getdoc(obj), {}, f"arrstride.{name}",
                                               None, 0)
    assert any(ex.want.strip() for ex in test.examples), \
        f"arrstride.{name}: the examples print nothing for the doctest to check"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


def _synthetic_bare(x, /, axis=None):
    """Sums x along an axis."""
    return x


def _synthetic_documented(x, /, axis=None):
    """Sum of x along an axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int, optional
        Axis to sum over; None (the default) sums every element.

    Returns
    -------
    Array
        The sums.
    """
    return x


def test_numpydoc_check_fails_on_missing_sections():
    """The check can fail: a function with only a summary line fails PR01 and
    RT01; the same function documented passes; an unknown parameter is PR02."""
    pytest.importorskip("numpydoc", reason="numpydoc not installed (the test extra has it)")
    codes = {c for c, _ in numpydoc_errors(_synthetic_bare, "_synthetic_bare")}
    assert {"PR01", "RT01"} <= codes
    assert numpydoc_errors(_synthetic_documented, "_synthetic_documented") == []

    def extra(x, /):
        return x
    extra.__doc__ = _synthetic_documented.__doc__
    assert {c for c, _ in numpydoc_errors(extra, "extra")} == {"PR02"}


def test_numpydoc_check_requires_returns_of_elementwise_functions():
    """The generated elementwise functions are C objects numpydoc's RT01 skips;
    the test's own rule catches a docstring without Returns there too."""
    pytest.importorskip("numpydoc", reason="numpydoc not installed (the test extra has it)")
    import arrstride
    from arrstride import _elementwise_docs
    from arrstride._core import Elementwise
    assert isinstance(arrstride.add, Elementwise)
    doc = _elementwise_docs.binary_doc("add", "numeric", {arrstride.float64: arrstride.float64},
                                       [arrstride.float64])
    assert "Returns\n-------" in doc
    impl = arrstride.add.__wrapped__

    def bare(x1, x2, /):
        return impl(x1, x2)
    bare.__doc__ = doc.split("Returns")[0]
    fake = Elementwise("add", impl._ars_op, 2, [-1] * 32, bare)
    assert "RT01" in {c for c, _ in numpydoc_errors(fake, "add")}


def test_every_data_name_is_on_the_constants_page():
    page = (DOCS / "reference" / "constants.rst").read_text()
    listed = set(re.findall(r"^\.\. data:: (\S+)$", page, re.M))
    assert listed == set(api_names.DATA)


def test_from_numpy_and_pytorch_page_is_generated():
    """docs/guide/from_numpy_and_pytorch.md is what docs/numpy_names.py writes
    from the code (docs/conf.py rewrites it at each build)."""
    import numpy_names
    page = Path(numpy_names.PAGE)
    assert page.read_text(encoding="utf-8") == numpy_names.page(), (
        f"{page.relative_to(ROOT)} is stale: run `python docs/numpy_names.py`")


def test_every_public_name_is_in_a_reference_group():
    grouped = [n for _, names in api_names.groups() for n in names]
    assert sorted(grouped) == sorted(NAMES)
    assert len(grouped) == len(set(grouped))


def test_the_inventory_check_finds_a_missing_name(tmp_path):
    """docs/check_inventory.py on an inventory that lacks one public name."""
    import zlib
    import check_inventory
    (tmp_path / "p.html").write_text("")
    names = api_names.public_names()
    lines = [f"arrstride.{n} py:function 1 p.html#$ -" for n in names[1:]]
    inv = tmp_path / "objects.inv"
    inv.write_bytes(b"# Sphinx inventory version 2\n# Project: x\n# Version: 0\n"
                    b"# The remainder of this file is compressed using zlib.\n"
                    + zlib.compress("\n".join(lines).encode()))
    assert check_inventory.main(["check", str(inv)]) == 1
    lines.append(f"arrstride.{names[0]} py:function 1 p.html#$ -")
    inv.write_bytes(b"# Sphinx inventory version 2\n# Project: x\n# Version: 0\n"
                    b"# The remainder of this file is compressed using zlib.\n"
                    + zlib.compress("\n".join(lines).encode()))
    assert check_inventory.main(["check", str(inv)]) == 0
