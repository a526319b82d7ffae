"""micro suite: fft."""
from __future__ import annotations

from .registry import workload


def _complex_signal(np, xp, n: int):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    xa = xp.asarray(x, copy=True)
    return (lambda: xp.fft.fft(xa)), (lambda: np.fft.fft(x))


@workload("fft complex128 n=2^20", suite="micro", group="fft", target=1.5)
def _fft_pow2(np, xp):
    return _complex_signal(np, xp, 2 ** 20)


@workload("fft complex128 prime n=100003", suite="micro", group="fft", target=2.0)
def _fft_prime(np, xp):
    return _complex_signal(np, xp, 100003)
