"""The package's layers: no import cycle among arrstride's modules (any import
statement counts, also inside a function), and the bottom layer imports
nothing above it."""
import ast
import os

import pytest

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "arrstride")


def _graph():
    graph = {}
    for f in sorted(os.listdir(PKG)):
        if not f.endswith(".py"):
            continue
        tree = ast.parse(open(os.path.join(PKG, f)).read(), f)
        deps = {}
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                elif node.level == 0 and (node.module or "").startswith("arrstride"):
                    parts = node.module.split(".")
                    names = [parts[1]] if len(parts) > 1 else [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[1] for a in node.names
                         if a.name.startswith("arrstride.")]
                if any(a.name == "arrstride" for a in node.names):
                    names.append("__init__")
            for n in names:
                deps.setdefault(n, node.lineno)
        graph[f[:-3]] = deps
    return graph


def _cycle_from(graph, start):
    """A cycle through `start` as a list of 'module:line' steps, or None."""
    stack = [(start, [start])]
    seen = set()
    while stack:
        node, path = stack.pop()
        for dep in graph.get(node, {}):
            if dep == start:
                return path + [start]
            if dep in graph and dep not in seen:
                seen.add(dep)
                stack.append((dep, path + [dep]))
    return None


def test_graph_is_read():
    graph = _graph()
    assert "_array" in graph and "_layout" in graph and "_kernels" in graph["_array"]


@pytest.mark.parametrize("module", sorted(m for m in _graph() if m not in ("__init__", "__main__")))
def test_no_import_cycle(module):
    graph = {m: d for m, d in _graph().items() if m not in ("__main__",)}
    graph = {m: {d: l for d, l in deps.items() if d != "__init__"} for m, deps in graph.items()}
    cycle = _cycle_from(graph, module)
    if cycle:
        steps = " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:]))
        pytest.fail(f"import cycle: {steps} -> {cycle[-1]}")


BOTTOM = {"_layout": set(), "_errors": set(), "_cpus": set()}
LEAVES = {
    # the Array is a leaf: below it only metadata, storage, the C bridge and
    # its C base (_core, compiled: it imports nothing)
    "_array": {"_args", "_blas", "_dtypes", "_errors", "_kernels", "_layout", "_storage", "_format",
               "_native", "_core"},
    "_kernels": {"_errors", "_layout", "_dtypes", "_native", "_storage", "_blas", "_core", "_cpus"},
    "_storage": {"_native"},
}


@pytest.mark.parametrize("module", sorted({**BOTTOM, **LEAVES}))
def test_layers(module):
    allowed = {**BOTTOM, **LEAVES}[module]
    deps = set(_graph()[module]) - {"__init__"}
    assert deps <= allowed, f"{module} imports {sorted(deps - allowed)} from above its layer"
