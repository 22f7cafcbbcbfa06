"""numba for the compiled kernels of every family, or nothing when it is missing.

``jit`` compiles a function with the GIL released and numba's on-disk cache (so a new
process loads kernels instead of recompiling them: ~12 s of compiling on an idle machine,
70-80 s under load, against ~2 s of loading); without numba it leaves the function as it
is and ``AVAILABLE`` is False, so the solvers run their NumPy code instead.

The cache lives in a per-user cache directory, :func:`cache_dir` (``~/.cache/rmviz/numba``
on Linux, ``~/Library/Caches/rmviz/numba`` on macOS, ``%LOCALAPPDATA%\\rmviz\\Cache\\numba``
on Windows), whatever the launch directory and however rmviz was installed: numba's
default, a ``__pycache__`` beside each source file, is not writable in a system-wide or
read-only install and does not exist in the PyInstaller bundle. ``NUMBA_CACHE_DIR``, when
set, wins. Inside it, each version of the solver sources caches in a directory of its own,
named by their hash: numba checks a cached kernel against the file that defines it only, so
a kernel compiled before an edit of a function it calls in another module (the greedy line
search of ``weighting.py`` inside the matrix and tree kernels) would load unchanged. A frozen
app (the bundle) has directories of its own (``bundle-``): numba stamps a frozen app's
kernels with the executable, the same PyInstaller bootloader in every build.

The directory is chosen before numba reads its configuration (at import), and before the
kernels are decorated (numba picks a function's cache location then).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import platformdirs


def cache_dir() -> Path:
    """Where the compiled kernels are cached: ``NUMBA_CACHE_DIR`` if set, else the
    per-user cache directory of rmviz, one folder per version of the solver sources."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = Path(platformdirs.user_cache_dir("rmviz", appauthor=False)) / "numba"
    kind = "bundle" if getattr(sys, "frozen", False) else "source"
    return base / f"{kind}-{solvers_digest()}"


def solvers_digest(root: Path = Path(__file__).parent) -> str:
    """A short hash of the solver sources under ``root`` (the kernels and what they call)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())

try:
    import numba
except ImportError:  # numba is a dependency, but the engine still runs without it
    numba = None  # type: ignore[assignment]
else:
    numba.config.reload_config()  # numba was imported earlier: it reads the variable again

AVAILABLE = numba is not None


def _identity(function: Any) -> Any:
    return function


jit: Any = numba.njit(cache=True, nogil=True) if numba is not None else _identity

# ``jit`` that may reassociate floating-point sums (and contract a*b+c into one fused
# multiply-add): what lets LLVM keep several vector accumulators in a dot product, which a
# strict left-to-right sum forbids. Only for kernels whose tests allow last-bit differences
# (the matrix-vector products of large games, as BLAS itself sums in its own order); never
# "fast" as a whole, which would also assume no NaN or infinity.
jit_reassociating: Any = (
    numba.njit(cache=True, nogil=True, fastmath={"reassoc", "contract"}) if numba is not None else _identity
)
