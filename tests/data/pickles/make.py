"""Writes the pickle fixtures tests/test_untrusted.py loads; run once per new
pickle format, and commit what it writes (never rewrite an old file).

- format0_arrstride-0.1.0.pkl: the payload arrstride 0.1.0 wrote,
  `(arrstride._array._rebuild, (dtype name, shape, bytes))`. It is emitted
  here through a stand-in whose __reduce__ is exactly that tuple, so the bytes
  are those 0.1.0's Array.__reduce__ produced (protocol 4).
- format1_protocol{2,5}.pkl: this arrstride's own pickles (protocols 2 and 5 in
  two files), `(arrstride._array._unpickle, (1, dtype name, shape, bytes))`.

Each file is a dict name -> array: every dtype (3x4), a 0-d array, an empty
array and a non-contiguous view; tests/test_untrusted._fixture_expected
rebuilds the same values with NumPy.
"""
import pickle
import sys
from pathlib import Path

import numpy as np

import arrstride as xp
from arrstride import _array

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from test_untrusted import _fixture_expected  # noqa: E402


class _Format0:
    def __init__(self, a):
        self.a = a

    def __reduce__(self):
        a = self.a
        return (_array._rebuild, (a.dtype.name, a.shape, np.asarray(a).tobytes(order="C")))


def arrays():
    out = {}
    for name, e in _fixture_expected().items():
        a = xp.asarray(e.copy(order="C"))
        if name == "view":  # a real non-contiguous arrstride view
            a = xp.permute_dims(xp.reshape(xp.arange(24.0), (4, 6))[::-2, 1::2], (1, 0))
            assert not a.is_contiguous()
        out[name] = a
    return out


if __name__ == "__main__":
    a = arrays()
    (HERE / "format0_arrstride-0.1.0.pkl").write_bytes(
        pickle.dumps({k: _Format0(v) for k, v in a.items()}, protocol=4))
    for proto in (2, 5):
        (HERE / f"format1_protocol{proto}.pkl").write_bytes(pickle.dumps(a, protocol=proto))
