"""arrstride's float -> integer conversion rule, written out in Python: the
oracle for casts whose C result is undefined (NaN, +-inf, out of range,
negative to unsigned) and NumPy's differs by platform (x86-64 and aarch64
disagree). The rule is NumPy's x86-64 result (its C conversion compiled to
cvttsd2si), which arrstride gives on every platform; see
docs/guide/standard_silent.md."""
import math

import numpy as np


def float_to_int(v, bits, signed):
    """The integer arrstride's cast gives for the float v (a Python float)."""
    def cvt(width):
        lo, hi = -2 ** (width - 1), 2 ** (width - 1)
        return int(v) if not math.isnan(v) and lo - 1 < v < hi else lo
    if signed:
        r = cvt(64 if bits == 64 else 32)
    elif bits >= 32 and v >= 0:
        r = int(v) if v < 2.0 ** bits else 0
    else:
        r = cvt(64 if bits == 64 else 32)
    r %= 1 << bits
    return r - (1 << bits) if signed and r >= 1 << (bits - 1) else r


def float_to_int_array(n, dst):
    """The rule over a real NumPy array n, into NumPy dtype dst."""
    dst = np.dtype(dst)
    flat = [float_to_int(float(v), dst.itemsize * 8, dst.kind == "i") for v in n.ravel()]
    return np.array(flat, dtype=dst).reshape(n.shape)
