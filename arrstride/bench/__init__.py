"""The benchmarks of arrstride against NumPy, run by `python -m arrstride bench`
(see registry.py for how a workload is added). They ship with the package, so
that a user of the wheel measures their own machine; they need NumPy, which
arrstride itself never imports.

Suites: micro (large and strided kernels, one module per area: micro.py,
micro_stats.py, micro_linalg.py, micro_fft.py), percall (the fixed cost of one
call on 8 elements: percall.py) and e2e (scikit-learn and SciPy through the
array API: e2e.py, each size run in its own process). NumPy is the yardstick
only; arrstride never calls it.
"""
