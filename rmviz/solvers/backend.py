"""The array module: NumPy on the CPU, CuPy on an NVIDIA GPU.

This is the only module that imports :mod:`cupy`; everything else receives the module
``xp`` chosen here and writes array code against it. CuPy is optional: importing rmviz
never requires it, and ``device="auto"`` falls back to NumPy when it is missing or no GPU
is visible.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from rmviz.errors import ConfigError

DEVICES = ("auto", "cpu", "gpu")


@functools.cache
def _cupy() -> ModuleType | None:
    """CuPy if it imports and sees at least one CUDA device, else ``None``."""
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
        return cupy
    except Exception:  # ImportError, or CUDA driver/runtime errors
        return None


def gpu_available() -> bool:
    """True when CuPy is installed and a CUDA device is visible."""
    return _cupy() is not None


def gpu_name() -> str | None:
    """The name of CUDA device 0, e.g. ``"NVIDIA H100 80GB HBM3"``, or ``None``."""
    cupy = _cupy()
    if cupy is None:
        return None
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


@dataclass(frozen=True)
class Backend:
    """An array module and the name of the device it computes on."""

    xp: ModuleType
    device: str  # "cpu" or "gpu"

    @property
    def is_gpu(self) -> bool:
        return self.device == "gpu"

    def asarray(self, array: Any, dtype: Any = None) -> Any:
        """Move ``array`` onto this backend's device."""
        return self.xp.asarray(array, dtype=dtype)

    def to_host(self, array: Any) -> np.ndarray:
        """A NumPy copy of ``array`` (the only device-to-host move; used by snapshots)."""
        if self.is_gpu:
            return self.xp.asnumpy(array)
        return np.array(array, copy=True)

    def describe(self) -> str:
        """``"cpu"`` or ``"gpu (NAME)"`` for reports."""
        return f"gpu ({gpu_name()})" if self.is_gpu else "cpu"


# Below this many payoff entries (both players' matrices) a GPU loses to the CPU: an H100
# runs ~30,000 iterations/s of a 1000x1000 game (2,400-2,900 on one CPU core) but a 10x10
# game's iteration costs more on the device than the CPU's whole iteration
# (docs/performance.md, "GPU").
AUTO_GPU_MIN_ENTRIES = 1_000_000
# Trees: CFR on the GPU runs a few launches per depth and traversal, ~0.35 ms per iteration up
# to ~10^5 nodes whatever the tree. On an H200 against one core of its host, the depth-first
# CPU walk (with partial pruning) was 0.6x at 16,383 nodes, 1.2x at 65,535 and 5.9x at 262,143
# (2026-11-27; docs/performance.md, "GPU after the depth-first walk").
AUTO_GPU_MIN_NODES = 2**16
# Batches of trees (rmviz.solvers.tree.batch): the CPU solves them game after game, so the GPU
# wins from fewer histories in all: 1.0x at 100 Kuhn games (5,800), 9-15x at 1,000 (58,000).
AUTO_GPU_MIN_BATCH_NODES = 16_000


def get_backend(device: str = "auto", large: bool = False) -> Backend:
    """The backend for ``device``.

    ``"cpu"`` is NumPy; ``"gpu"`` is CuPy (an error when there is none); ``"auto"`` takes
    the GPU when one is available *and* the caller says the problem is ``large`` enough for
    it (a matrix game of at least :data:`AUTO_GPU_MIN_ENTRIES` payoff entries, a tree of at
    least :data:`AUTO_GPU_MIN_NODES` nodes, a batch of :data:`AUTO_GPU_MIN_BATCH_NODES`, that
    the GPU's kernels run), else the CPU.
    """
    if device not in DEVICES:
        raise ConfigError(f"unknown device {device!r}; choose one of {', '.join(DEVICES)}")
    if device == "cpu":
        return Backend(np, "cpu")
    cupy = _cupy()
    if cupy is not None and (device == "gpu" or large):
        return Backend(cupy, "gpu")
    if device == "gpu":
        raise ConfigError(
            "--device gpu needs CuPy and an NVIDIA GPU, and none was found "
            "(install the extra: pip install 'rmviz[gpu]'); use --device cpu or auto"
        )
    return Backend(np, "cpu")
