"""__array_namespace_info__ and the device object."""
from __future__ import annotations

import pytest

import arrstride as xp
from layouts import DTYPE_NAMES


def info():
    return xp.__array_namespace_info__()


def test_capabilities():
    caps = info().capabilities()
    assert caps["boolean indexing"] is True
    assert caps["data-dependent shapes"] is True
    assert caps["max dimensions"] == 64


def test_devices_and_default_device():
    devices = info().devices()
    assert isinstance(devices, tuple) and len(devices) == 1  # the standard (2025.12): Tuple[device, ...]
    dev = info().default_device()
    assert dev in devices and dev == xp.ones(2).device
    assert repr(dev) == "Device('cpu')"
    assert dev == xp.Device("cpu") and hash(dev) == hash(xp.Device("cpu"))
    assert dev != "cuda" and dev != xp.Device("other")
    assert xp.ones(2, device=dev).device == dev
    assert xp.ones(2).to_device(dev).device == dev
    with pytest.raises(ValueError, match="one device"):
        xp.ones(2, device="cuda")


@pytest.mark.parametrize("device", [None, xp.Device("cpu")])
def test_default_dtypes(device):
    d = info().default_dtypes(device=device)
    assert d == {"real floating": xp.float64, "complex floating": xp.complex128,
                 "integral": xp.int64, "indexing": xp.int64}


KINDS = {
    None: DTYPE_NAMES,
    "bool": ["bool"],
    "signed integer": ["int8", "int16", "int32", "int64"],
    "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
    "integral": ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"],
    "real floating": ["float32", "float64"],
    "complex floating": ["complex64", "complex128"],
    "numeric": DTYPE_NAMES[1:],
    ("bool", "complex floating"): ["bool", "complex64", "complex128"],
}


@pytest.mark.parametrize("kind", list(KINDS), ids=str)
def test_dtypes(kind):
    out = info().dtypes(kind=kind, device=info().default_device())
    assert sorted(out) == sorted(KINDS[kind])
    for name, d in out.items():
        assert getattr(xp, name) is d


def test_dtypes_errors():
    with pytest.raises(ValueError, match="unknown kind"):
        info().dtypes(kind="floating")
    with pytest.raises(ValueError, match="one device"):
        info().dtypes(device="gpu")
    with pytest.raises(ValueError, match="one device"):
        info().default_dtypes(device="gpu")
