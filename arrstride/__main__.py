"""python -m arrstride          a short tour of the view model, with storage diagrams
python -m arrstride bench    the benchmarks against NumPy (see --help)"""
from __future__ import annotations

import sys

import arrstride as xp


def _step(title: str, code: str, x) -> None:
    print(f"\n== {title}\n>>> {code}")
    print(x)
    xp.show(x)


def tour() -> None:
    print(f"arrstride {xp.__array_api_version__}: every array is a view "
          "(storage, offset, shape, strides in elements).")
    base = xp.arange(20.0)
    _step("a view into a storage of 20 elements",
          "as_strided(arange(20.), (3, 2), (4, 1), 5)", xp.as_strided(base, (3, 2), (4, 1), 5))
    n = xp.linspace(1, 4, 4)
    _step("stride 0 repeats a row", "as_strided(linspace(1, 4, 4), (3, 3), (0, 1), 1)",
          xp.as_strided(n, (3, 3), (0, 1), 1))
    _step("stride 0 repeats an element", "as_strided(linspace(1, 4, 4), (2, 4), (1, 0), 1)",
          xp.as_strided(n, (2, 4), (1, 0), 1))
    z = xp.reshape(xp.arange(12.0), (3, 4))
    _step("transpose swaps strides", "reshape(arange(12.), (3, 4)).T", z.T)
    print(">>> z.T.view(-1)")
    try:
        z.T.view(-1)
    except ValueError as e:
        print(f"ValueError: {e}")
    t = xp.reshape(xp.arange(24), (1, 2, 3, 4))
    _step("a column of a 4-D array", "reshape(arange(24), (1, 2, 3, 4))[:, :, :, 2]", t[:, :, :, 2])
    _step("broadcasting allocates nothing", "broadcast_to(arange(4), (3, 4))",
          xp.broadcast_to(xp.arange(4), (3, 4)))
    _step("flip is a negative stride", "flip(arange(6))", xp.flip(xp.arange(6)))
    _step("a diagonal is one stride", "diagonal(reshape(arange(16), (4, 4)))",
          xp.diagonal(xp.reshape(xp.arange(16), (4, 4))))
    _step("sliding windows overlap", "unfold(arange(6), 0, 3, 1)", xp.unfold(xp.arange(6), 0, 3, 1))
    x = xp.arange(10)
    x[1:] = x[:-1]
    _step("overlapping writes are exact", "x = arange(10); x[1:] = x[:-1]; x", x)


def main(argv: list) -> int:
    if argv and argv[0] == "bench":
        from . import _bench
        return _bench.main(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv:
        print(f"python -m arrstride: unknown command {argv[0]!r}\n{__doc__}", file=sys.stderr)
        return 2
    tour()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
