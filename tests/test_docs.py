"""Every public name has a docstring (the API reference is built from them),
and every data name (dtypes, constants) has an entry on the reference's
constants page. The built HTML is checked by docs/check_inventory.py (.ci/run)."""
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


def test_every_data_name_is_on_the_constants_page():
    page = (DOCS / "reference" / "constants.rst").read_text()
    listed = set(re.findall(r"^\.\. data:: (\S+)$", page, re.M))
    assert listed == set(api_names.DATA)


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
