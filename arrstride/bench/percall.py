"""percall suite: the fixed cost of one call on 8-element float64
arrays, timed as timeit statements (no wrapper call in the loop). Targets: no
operation above 5x NumPy, geomean at most 2x."""
from __future__ import annotations

from .registry import register, summary


def namespaces_of(np, xp, extra=None):
    """The statements' names in arrstride's and NumPy's namespaces: x, y (8,),
    c (8,) bool, a (2, 4), b (4, 2), r (1000, 8), and what extra(np) adds."""
    x = np.arange(8, dtype=np.float64) + 1.0
    y = np.arange(8, dtype=np.float64)[::-1] + 0.5
    n = dict(np=np, x=x, y=y, c=x > 4.0, a=x.reshape(2, 4), b=(x + 1.0).reshape(4, 2),
             r=np.ones((1000, 8)))
    if extra is not None:
        n.update(extra(np))
    a = {k: (v if k == "np" else xp.asarray(v)) for k, v in n.items()}
    a["xp"] = xp
    del a["np"]
    return a, n


def _namespaces(np, xp):
    return namespaces_of(np, xp)


def statement_setup(stmt_xp: str, stmt_np: str, stmt_torch: str, namespaces=_namespaces):
    """A workload setup timing three statements over namespaces(np, xp)."""
    def setup(np, xp):
        ns_xp, ns_np = namespaces(np, xp)
        return (stmt_xp, ns_xp), (stmt_np, ns_np)

    def setup_torch(np, torch):
        _, ns_np = namespaces(np, np)
        ns = {k: torch.from_numpy(v.copy()) for k, v in ns_np.items() if k != "np"}
        ns["torch"] = torch
        return stmt_torch, ns
    setup.torch = setup_torch
    return setup


# (name, arrstride statement, NumPy statement, PyTorch statement); the names x, y
# (8,), c (8,) bool, a (2, 4), b (4, 2) and r (1000, 8) are bound in the three namespaces (float64
# tensors for PyTorch, whose statements ask for float64 where its default is float32).
_OPS = [
    ("x[2] = 1.0", "x[2] = 1.0", "x[2] = 1.0", "x[2] = 1.0"),
    ("x[1:3] = 0.0", "x[1:3] = 0.0", "x[1:3] = 0.0", "x[1:3] = 0.0"),
    ("float(x[0])", "float(x[0])", "float(x[0])", "float(x[0])"),
    ("x[2]", "x[2]", "x[2]", "x[2]"),
    ("x[1:3]", "x[1:3]", "x[1:3]", "x[1:3]"),
    ("asarray(1.0)", "xp.asarray(1.0)", "np.asarray(1.0)",
     "torch.asarray(1.0, dtype=torch.float64)"),
    ("asarray([1., 2., 3.])", "xp.asarray([1.0, 2.0, 3.0])", "np.asarray([1.0, 2.0, 3.0])",
     "torch.asarray([1.0, 2.0, 3.0], dtype=torch.float64)"),
    ("zeros(8)", "xp.zeros(8)", "np.zeros(8)", "torch.zeros(8, dtype=torch.float64)"),
    ("astype(x, float32)", "xp.astype(x, xp.float32)", "x.astype(np.float32)",
     "x.to(torch.float32)"),
    ("concat([x, y])", "xp.concat([x, y])", "np.concat([x, y])", "torch.concat([x, y])"),
    ("reshape(x, (2, 4))", "xp.reshape(x, (2, 4))", "np.reshape(x, (2, 4))",
     "torch.reshape(x, (2, 4))"),
    ("x + y", "x + y", "x + y", "x + y"),
    ("x * 2.0", "x * 2.0", "x * 2.0", "x * 2.0"),
    ("x > 0", "x > 0", "x > 0", "x > 0"),
    ("exp(x)", "xp.exp(x)", "np.exp(x)", "torch.exp(x)"),
    ("where(c, x, y)", "xp.where(c, x, y)", "np.where(c, x, y)", "torch.where(c, x, y)"),
    ("sum(x)", "xp.sum(x)", "np.sum(x)", "torch.sum(x)"),
    ("mean(x)", "xp.mean(x)", "np.mean(x)", "torch.mean(x)"),
    ("a @ b, (2,4) @ (4,2)", "a @ b", "a @ b", "a @ b"),
    # the 1000 rows of r (1000, 8), one view each
    ("for row in r (1000 rows)", "for row in r: pass", "for row in r: pass", "for row in r: pass"),
    ("list(r) (1000 rows)", "list(r)", "list(r)", "list(r)"),
]

for _name, _sx, _sn, _st in _OPS:
    register(f"call: {_name}", statement_setup(_sx, _sn, _st), suite="percall", group="call", target=5.0)

summary("percall", "geomean of the per-call ratios", ("call",), "geomean", 2.0)
summary("percall", "largest per-call ratio", ("call",), "max", 5.0)
