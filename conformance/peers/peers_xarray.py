"""Pytest plugin: arrstride (or array_api_strict, the control) as the array
namespace of xarray's array-API tests.

One run per namespace, chosen with ``--peers-xarray=arrstride`` or
``--peers-xarray=array_api_strict``; the two runs' ids are the same (or differ
only by that name), and run.py pairs them.

- ``xarray/tests/test_array_api.py`` imports array_api_strict as ``xp`` and its
  ``Array`` class at module level: the arrstride run rebinds both.
- ``xarray/tests/test_namedarray.py``: the test that imports array_api_strict
  inside (``test_duck_array_class_array_api``) gets arrstride in its place.
- ``xarray/tests/test_duck_array_wrapping.py`` parametrizes its classes over
  ``NAMESPACES`` (CuPy, Dask, JAX, pint, sparse): each run replaces that list by
  its own namespace, with no xfails (``NAMESPACE_ARRAYS`` gets an entry).
"""
from __future__ import annotations

import importlib
import sys

import pytest

NAMESPACES = ("arrstride", "array_api_strict")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("peers").addoption("--peers-xarray", default="arrstride", choices=NAMESPACES,
                                       help="the namespace swapped in for array_api_strict")


def _namespace(name: str):
    xp = importlib.import_module(name)
    if not hasattr(xp, "Array"):  # array_api_strict keeps its class in _array_object
        xp.Array = importlib.import_module(f"{name}._array_object").Array
    return xp


def pytest_configure(config: pytest.Config) -> None:
    name = config.getoption("--peers-xarray")
    xp = _namespace(name)
    config._peers_xarray = (name, xp)
    # import the test modules as pytest will (rootdir = site-packages, package
    # xarray.tests), then edit them before collection reads them
    api = importlib.import_module("xarray.tests.test_array_api")
    if name == "arrstride":
        api.xp, api.Array = xp, xp.Array
    duck = importlib.import_module("xarray.tests.test_duck_array_wrapping")
    duck.NAMESPACE_ARRAYS[name] = {"attrs": {"array": "Array", "constructor": "asarray"},
                                   "xfails": {}}
    for obj in list(vars(duck).values()):
        if isinstance(obj, type) and "pytestmark" in vars(obj):
            obj.pytestmark = [pytest.mark.parametrize("namespace", [name]).mark
                              if m.name == "parametrize" and m.args[0] == "namespace" else m
                              for m in obj.pytestmark]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    name, xp = item.config._peers_xarray
    swap = name == "arrstride" and item.nodeid.startswith("xarray/tests/test_namedarray.py")
    saved = sys.modules.get("array_api_strict")
    if swap:
        sys.modules["array_api_strict"] = xp
    try:
        return (yield)
    finally:
        if swap:
            sys.modules["array_api_strict"] = saved
