"""offpath suite: one call of a function off the hot paths, on 8-element
arrays, timed as timeit statements as in the percall suite. These calls take
the general path (Python glue around a kernel call) rather than a fast path
in C. Targets: each at most 1.5x NumPy, geomean at most 1.0x."""
from __future__ import annotations

from .percall import namespaces_of, statement_setup
from .registry import register, summary


def _namespaces(np, xp):
    def extra(np_):
        x = np_.arange(8, dtype=np_.float64) + 1.0
        return dict(i=np_.arange(8, dtype=np_.int32), f=np_.arange(8, dtype=np_.float32) * 0.5,
                    idx=np_.asarray([0, 3, 5, 7], dtype=np_.int64),
                    s=np_.sort(x - 4.0), z=np_.asarray([0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 4.0, 0.0]),
                    u=np_.asarray([3.0, 1.0, 3.0, 2.0, 1.0, 5.0, 2.0, 3.0]))
    return namespaces_of(np, xp, extra)


# (name, arrstride statement, NumPy statement, PyTorch statement); besides the
# percall suite's names: i (8,) int32, f (8,) float32, idx (4,) int64, s (8,)
# sorted, z (8,) with zeros, u (8,) with repeats.
_OPS = [
    ("clip(x, -1.0, 1.0)", "xp.clip(x, -1.0, 1.0)", "np.clip(x, -1.0, 1.0)", "torch.clip(x, -1.0, 1.0)"),
    ("argmax(x)", "xp.argmax(x)", "np.argmax(x)", "torch.argmax(x)"),
    ("argsort(x)", "xp.argsort(x)", "np.argsort(x)", "torch.argsort(x)"),
    ("sort(x)", "xp.sort(x)", "np.sort(x)", "torch.sort(x)"),
    ("cumulative_sum(x)", "xp.cumulative_sum(x)", "np.cumulative_sum(x)", "torch.cumsum(x, 0)"),
    ("vector_norm(x)", "xp.linalg.vector_norm(x)", "np.linalg.vector_norm(x)",
     "torch.linalg.vector_norm(x)"),
    ("take(x, idx)", "xp.take(x, idx)", "np.take(x, idx)", "torch.index_select(x, 0, idx)"),
    ("add(int32, float64)", "xp.add(i, x)", "np.add(i, x)", "torch.add(i, x)"),
    ("float32 + float64", "f + x", "f + x", "f + x"),
    ("mean(a, axis=0)", "xp.mean(a, axis=0)", "np.mean(a, axis=0)", "torch.mean(a, 0)"),
    ("max(a, axis=1)", "xp.max(a, axis=1)", "np.max(a, axis=1)", "torch.amax(a, 1)"),
    ("unique_values(u)", "xp.unique_values(u)", "np.unique_values(u)", "torch.unique(u)"),
    ("nonzero(z)", "xp.nonzero(z)", "np.nonzero(z)", "torch.nonzero(z, as_tuple=True)"),
    ("searchsorted(s, y)", "xp.searchsorted(s, y)", "np.searchsorted(s, y)",
     "torch.searchsorted(s, y)"),
    ("ones_like(x)", "xp.ones_like(x)", "np.ones_like(x)", "torch.ones_like(x)"),
    ("permute_dims(a, (1, 0))", "xp.permute_dims(a, (1, 0))", "np.permute_dims(a, (1, 0))",
     "torch.permute(a, (1, 0))"),
    ("x[idx]", "x[idx]", "x[idx]", "x[idx]"),
    ("stack([x, y])", "xp.stack([x, y])", "np.stack([x, y])", "torch.stack([x, y])"),
]

for _name, _sx, _sn, _st in _OPS:
    register(f"off: {_name}", statement_setup(_sx, _sn, _st, _namespaces), suite="offpath",
             group="off", target=1.5)

summary("offpath", "geomean of the off-path ratios", ("off",), "geomean", 1.0)
summary("offpath", "largest off-path ratio", ("off",), "max", 1.5)
