"""__array_namespace_info__: what this namespace supports."""
from __future__ import annotations

from typing import Any, Optional

from . import _dtypes as dt
from ._array import CPU, Device, check_device
from ._errors import value_error


class _Devices(tuple):
    """A tuple that `+` with a list turns into a list (see Info.devices)."""

    __slots__ = ()

    def __add__(self, other):
        if isinstance(other, list):
            return list(self) + other
        return tuple.__add__(self, other)

    def __radd__(self, other):
        if isinstance(other, list):
            return other + list(self)
        return NotImplemented


class Info:
    """The inspection object the standard's __array_namespace_info__ returns."""

    __module__ = "arrstride"

    def capabilities(self) -> dict:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> Device:
        return CPU

    def devices(self) -> tuple:
        """The standard's (2025.12) tuple of devices. It also concatenates
        with a list, giving a list, because clients written against the
        2023.12 List return (SciPy's `devices` fixture: `devices() + [None]`)
        still do that."""
        return _Devices((CPU,))

    def default_dtypes(self, *, device: Optional[Any] = None) -> dict:
        check_device("default_dtypes", device)
        return {"real floating": dt.default_float, "complex floating": dt.default_complex,
                "integral": dt.default_int, "indexing": dt.default_index}

    def dtypes(self, *, device: Optional[Any] = None, kind: Any = None) -> dict:
        check_device("dtypes", device)
        try:
            hit = _DTYPES_BY_KIND.get(kind)
        except TypeError:  # an unhashable kind: worded below
            hit = None
        if hit is not None:
            return dict(hit)  # a fresh dict: callers may change theirs
        out = self._dtypes(kind)
        if len(_DTYPES_BY_KIND) < 64:
            _DTYPES_BY_KIND[kind] = out
        return dict(out)

    def _dtypes(self, kind: Any) -> dict:
        # the standard's dtypes (dt.STANDARD): the extensions (float16, ...)
        # are left out (array_api_compat's NumPy namespace leaves float16 out
        # too; array-api-tests would hold them to promotion rules the
        # standard does not give them)
        if kind is None:
            chosen = dt.STANDARD
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            chosen = []
            for k in kinds:
                if isinstance(k, dt.DType):
                    group = (k,)
                elif isinstance(k, str) and k in dt.CATEGORIES:
                    group = dt.CATEGORIES[k]
                else:
                    raise value_error("dtypes", "unknown kind", repr(k))
                chosen += [d for d in group if d not in chosen]
        return {d.name: d for d in dt.STANDARD if d in chosen}


_DTYPES_BY_KIND: dict = {}  # kind -> its dtypes (clients ask on every call)


def __array_namespace_info__() -> Info:
    """The namespace's inspection object (the standard's inspection API).

    Returns
    -------
    Info
        Object whose methods tell the namespace's capabilities, default dtypes,
        devices and the dtypes each kind holds (``capabilities()``,
        ``default_device()``, ``default_dtypes()``, ``devices()``, ``dtypes()``).

    Examples
    --------
    >>> import arrstride as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.default_dtypes()["real floating"]
    arrstride.float64
    >>> info.devices()
    (Device('cpu'),)
    """
    return Info()
