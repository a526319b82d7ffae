"""fft workloads for `python -m arrstride bench`: (name, setup, arrstride_fn,
numpy_fn), where setup() returns (args for arrstride, args for NumPy) holding
equal values. NumPy is imported only here, as the reference to time against."""
from __future__ import annotations


def _complex_signal(n: int):
    import numpy as np

    import arrstride as xp
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    return (xp.asarray(x, copy=True),), (x,)


def _fft(x):
    import arrstride as xp
    return xp.fft.fft(x)


def _np_fft(x):
    import numpy as np
    return np.fft.fft(x)


WORKLOADS = [
    ("fft complex128 n=2^20", lambda: _complex_signal(2 ** 20), _fft, _np_fft),
    ("fft complex128 prime n=100003", lambda: _complex_signal(100003), _fft, _np_fft),
]
