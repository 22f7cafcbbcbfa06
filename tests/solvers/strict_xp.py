"""A NumPy namespace whose arrays refuse to become host numbers while ``forbidden()`` is on.

On a GPU, ``float(x)``, ``bool(x)``, ``int(x)``, ``x.item()`` or ``x.tolist()`` of a CuPy
array copies it to the host and waits for the device: a synchronisation inside ``step(n)``
that stalls the pipeline (issue 15). CI has no GPU, so the generic array code runs here with
this namespace standing in for CuPy: every array it makes is a :class:`DeviceArray`, and any
such conversion raises :class:`HostConversion` inside a ``with forbidden():`` block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np

_state = {"forbidden": False}


class HostConversion(AssertionError):
    """A device array was turned into a host number where synchronisation is not allowed."""


@contextlib.contextmanager
def forbidden() -> Iterator[None]:
    _state["forbidden"] = True
    try:
        yield
    finally:
        _state["forbidden"] = False


def _refuse(what: str) -> None:
    if _state["forbidden"]:
        raise HostConversion(f"{what} of a device array inside step(): a host synchronisation on a GPU")


class DeviceArray(np.ndarray):
    def __float__(self) -> float:
        _refuse("float()")
        return float(np.asarray(self).view(np.ndarray))

    def __int__(self) -> int:
        _refuse("int()")
        return int(np.asarray(self).view(np.ndarray))

    def __bool__(self) -> bool:
        _refuse("bool()")
        return bool(np.asarray(self).view(np.ndarray))

    def __setitem__(self, key: Any, value: Any) -> None:
        # a device-to-device store, as CuPy's setitem (NumPy would call __float__ on a 0-d value)
        if isinstance(value, np.ndarray):
            value = value.view(np.ndarray)
        np.ndarray.__setitem__(self, key, value)

    def item(self, *args: Any) -> Any:
        _refuse(".item()")
        return self.view(np.ndarray).item(*args)

    def tolist(self) -> Any:
        _refuse(".tolist()")
        return self.view(np.ndarray).tolist()


def _device(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.view(DeviceArray)
    if isinstance(value, np.generic):
        return np.asarray(value).view(DeviceArray)
    if isinstance(value, tuple):
        return tuple(_device(v) for v in value)
    if isinstance(value, list):
        return [_device(v) for v in value]
    return value


def _wrapped(function: Any) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        return _device(function(*args, **kwargs))

    return call


class _Generator:
    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def __getattr__(self, name: str) -> Any:
        return _wrapped(getattr(self._rng, name))


class _Namespace:
    """``xp``: NumPy's functions returning :class:`DeviceArray`; ``asnumpy`` the one copy back."""

    random = SimpleNamespace(default_rng=_Generator)
    linalg = SimpleNamespace(lstsq=_wrapped(np.linalg.lstsq), solve=_wrapped(np.linalg.solve))

    def __getattr__(self, name: str) -> Any:
        value = getattr(np, name)
        return _wrapped(value) if callable(value) and not isinstance(value, type) else value

    @staticmethod
    def asnumpy(array: Any) -> np.ndarray:
        return np.array(array, copy=True).view(np.ndarray)


xp = _Namespace()
