"""Run CUDA kernels without a GPU: each thread of each block, one after another, on the CPU.

Exact for kernels whose threads never talk to each other (no shared memory, barriers, warp
shuffles or atomics), as the per-depth CFR kernels of ``rmviz/solvers/tree/cfr.cu``: compiled
with the host's C++ compiler (``-ffp-contract=off``, as ``--fmad=false`` on the device), they
run under :class:`EmulatedCuPy`, a stand-in for the ``xp`` module that
:mod:`rmviz.solvers.tree.device` receives (NumPy arrays, a ``RawModule`` whose functions loop
over the launch grid). CI has no GPU; this checks the kernels' arithmetic and the launches'
arguments and ranges there.
"""

from __future__ import annotations

import ctypes
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

PRELUDE = """
#include <cmath>
using std::fabs;
using std::fmax;
#define __global__
extern "C" {
struct Dim3 { unsigned x, y, z; };
Dim3 blockIdx, blockDim, threadIdx;
}
"""


def compiler() -> str | None:
    return shutil.which("g++") or shutil.which("c++")


class _Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint)]


def _argument(value: Any) -> tuple[Any, Any]:
    if isinstance(value, np.ndarray):
        assert value.flags.c_contiguous, "kernels take C-contiguous arrays"
        return ctypes.c_void_p, value.ctypes.data_as(ctypes.c_void_p)
    if isinstance(value, np.int64):
        return ctypes.c_longlong, ctypes.c_longlong(int(value))
    if isinstance(value, np.int32):
        return ctypes.c_int, ctypes.c_int(int(value))
    if isinstance(value, np.float64):
        return ctypes.c_double, ctypes.c_double(float(value))
    raise TypeError(f"a kernel argument of type {type(value).__name__}: pass NumPy arrays or scalars")


class _Function:
    def __init__(self, library: ctypes.CDLL, name: str) -> None:
        self.function = getattr(library, name)
        self.function.restype = None
        self.block_index = _Dim3.in_dll(library, "blockIdx")
        self.block_dim = _Dim3.in_dll(library, "blockDim")
        self.thread_index = _Dim3.in_dll(library, "threadIdx")

    def __call__(self, grid: tuple[int, ...], block: tuple[int, ...], args: tuple[Any, ...]) -> None:
        types, values = zip(*(_argument(a) for a in args), strict=True)
        self.function.argtypes = list(types)
        self.block_dim.x = block[0]
        for y in range(grid[1] if len(grid) > 1 else 1):
            self.block_index.y = y
            for b in range(grid[0]):
                self.block_index.x = b
                for t in range(block[0]):
                    self.thread_index.x = t
                    self.function(*values)


class _Module:
    def __init__(self, code: str, options: tuple[str, ...] = ()) -> None:
        source = PRELUDE + code
        digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        folder = Path(tempfile.gettempdir()) / "rmviz-cuda-emulator"
        folder.mkdir(exist_ok=True)
        library = folder / f"kernels-{digest}.so"
        if not library.exists():
            cpp = folder / f"kernels-{digest}.cpp"
            cpp.write_text(source)
            built = folder / f"kernels-{digest}.{id(self)}.so"
            cxx = compiler()
            assert cxx is not None
            subprocess.run(
                [cxx, "-O1", "-ffp-contract=off", "-shared", "-fPIC", "-o", str(built), str(cpp)],
                check=True,
                capture_output=True,
            )
            built.replace(library)
        self.library = ctypes.CDLL(str(library))

    def get_function(self, name: str) -> _Function:
        return _Function(self.library, name)


class EmulatedCuPy:
    """The parts of CuPy that :mod:`rmviz.solvers.tree.device` uses, on NumPy."""

    RawModule = _Module

    def __getattr__(self, name: str) -> Any:
        return getattr(np, name)

    @staticmethod
    def asarray(array: Any, dtype: Any = None) -> np.ndarray:
        return np.array(array, dtype=dtype, copy=True)  # a "device" copy, never a view

    @staticmethod
    def asnumpy(array: Any) -> np.ndarray:
        return np.array(array, copy=True)
