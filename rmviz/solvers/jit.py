"""numba for the compiled kernels of every family, or nothing when it is missing.

``jit`` compiles a function with the GIL released and numba's on-disk cache (so a new
process loads kernels instead of recompiling them); without numba it leaves the function
as it is and ``AVAILABLE`` is False, so the solvers run their NumPy code instead.
"""

from __future__ import annotations

from typing import Any

try:
    import numba
except ImportError:  # numba is a dependency, but the engine still runs without it
    numba = None  # type: ignore[assignment]

AVAILABLE = numba is not None


def _identity(function: Any) -> Any:
    return function


jit: Any = numba.njit(cache=True, nogil=True) if numba is not None else _identity
