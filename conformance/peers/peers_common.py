"""Pytest plugin shared by the peer suites: keep the tests parametrized with a
backend under test, and record every test's outcome for run.py.

Loaded with ``-p peers_common`` (conformance/peers on PYTHONPATH) together with
one suite plugin (peers_sklearn, peers_scipy, peers_extra).

Options:
  --peers-backends=arrstride,array_api_strict   keep only tests whose id names one (*: all)
  --peers-log=PATH                              JSON lines, one per test report
"""
from __future__ import annotations

import json

import pytest

import arrstride

from peers_ids import BACKENDS, backend_of


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("peers", "arrstride in peer libraries' test suites")
    group.addoption("--peers-backends", default=",".join(BACKENDS),
                    help="comma-separated backends whose tests are kept")
    group.addoption("--peers-log", default=None, help="JSON-lines report file")


def pytest_report_header(config: pytest.Config) -> str:
    return f"arrstride: {arrstride.__file__}"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    wanted = set(config.getoption("--peers-backends").split(","))
    if "*" in wanted:  # a run whose backend is set for the whole run (Cubed, xarray)
        return
    keep, drop = [], []
    for item in items:
        (keep if backend_of(item.nodeid) in wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


class _Log:
    def __init__(self, path: str):
        self.f = open(path, "w", encoding="utf-8")

    def write(self, report: pytest.TestReport) -> None:
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash is not None else None
        text = None
        if report.failed or (report.skipped and report.longrepr is not None):
            if report.skipped and isinstance(report.longrepr, tuple):
                message = report.longrepr[2]
            else:
                text = str(report.longrepr)
                if message is None:
                    message = text.strip().splitlines()[-1] if text.strip() else ""
                text = text[-6000:]
        rec = {"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome,
               "wasxfail": hasattr(report, "wasxfail"), "message": message,
               "longrepr": text, "duration": getattr(report, "duration", 0.0)}
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--peers-log")
    if path and not hasattr(config, "workerinput"):  # the controller writes the log
        config.pluginmanager.register(_Logger(_Log(path)), "peers-log")


class _Logger:
    def __init__(self, log: _Log):
        self.log = log

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.log.write(report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.log.f.write(json.dumps({
                "nodeid": report.nodeid, "when": "collect", "outcome": "failed",
                "wasxfail": False, "message": str(report.longrepr).strip().splitlines()[-1],
                "longrepr": str(report.longrepr)[-6000:], "duration": 0.0}) + "\n")
