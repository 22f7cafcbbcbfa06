"""How many threads the BLAS and OpenMP pools of the process may use (threadpoolctl).

A process that imports NumPy and SciPy holds two OpenBLAS pools, each sized to every core
by default. On a machine whose cores are busy (other processes, or the window's own GUI
thread beside the solver thread) a BLAS call split over all cores waits for the slowest
thread: on the 2-core development machine with two busy processes, a 1000x1000 NumPy RM
iteration ran 295-395 it/s with one BLAS thread and 27-48 it/s with two (8-15x slower),
the 3-player 100x100x100 tensordot iteration 100-107 against 17-27 (docs/performance.md).
The compiled kernels are single-threaded and call no BLAS in their loops; what still calls
BLAS (the generic array code: n-player expected play above the kernel's size, internal RM
on large games, metrics) gains little from a second thread when the machine is idle and
loses much when it is not. Hence :data:`DEFAULT_THREADS` = 1.

The tree CFR kernel shares a big tree's subtrees among as many threads
(:func:`solver_threads`; the same iterates on any count). The count is, in order:
:func:`set_threads` (the API; ``rmviz --threads N``), the environment variable
:data:`THREADS_VARIABLE` (``RMVIZ_THREADS``), the default. It applies
to every pool loaded when it is set (``threadpoolctl.threadpool_limits``); a solver applies
it again when it is built (:func:`ensure_threads`), so pools loaded later obey it too.
"""

from __future__ import annotations

import os
from typing import Any

from rmviz.errors import ConfigError

THREADS_VARIABLE = "RMVIZ_THREADS"
DEFAULT_THREADS = 1
# More threads than any machine rmviz runs on has cores; a count past 2^31 reached OpenBLAS
# silently and one past 2^63 ended in OverflowError (issue 33)
MAX_THREADS = 4096

_chosen: int | None = None  # set_threads's count, or None: the variable or the default
_reserved = 0  # cores kept free of BLAS threads (the window's GUI thread: reserve_cores)
_limits: Any = None  # the live threadpool_limits object (the limit holds while it lives)


def configured_threads() -> int:
    """The thread count in force: :func:`set_threads`'s, ``RMVIZ_THREADS``, or 1."""
    if _chosen is not None:
        return _chosen
    text = os.environ.get(THREADS_VARIABLE, "").strip()
    if not text:
        return DEFAULT_THREADS
    return _checked(text, f"{THREADS_VARIABLE}={text[:40]!r}{'...' if len(text) > 40 else ''}")


def set_threads(count: int | None) -> int:
    """Limit every BLAS and OpenMP pool of the process to ``count`` threads (``None``: back to
    ``RMVIZ_THREADS`` or the default); returns the count applied.

    >>> rmviz.set_threads(1)
    1
    """
    global _chosen
    _chosen = None if count is None else _checked(count, f"threads={str(count)[:40]}")
    return ensure_threads()


def reserve_cores(count: int) -> int:
    """Keep ``count`` cores free of BLAS threads from now on (the window reserves one for its
    GUI thread, so its solver thread's BLAS calls never take every core); returns the count
    applied by :func:`ensure_threads`."""
    global _reserved
    _reserved = max(0, int(count))
    return ensure_threads()


def solver_threads() -> int:
    """The threads a solver may share one run among (the tree kernels' subtrees): the count
    :func:`ensure_threads` applies, without applying it."""
    count = configured_threads()
    if _reserved:
        count = max(1, min(count, (os.cpu_count() or 1) - _reserved))
    return count


def ensure_threads() -> int:
    """Apply :func:`configured_threads`, less the reserved cores (at least 1), to every pool
    loaded now; returns the count applied."""
    global _limits
    from threadpoolctl import threadpool_limits

    count = solver_threads()
    _limits = threadpool_limits(limits=count)
    return count


def pool_threads() -> dict[str, int]:
    """Each loaded pool's thread count as threadpoolctl reports it, by library path."""
    from threadpoolctl import threadpool_info

    return {
        f"{pool['internal_api']}:{pool['filepath']}": int(pool["num_threads"]) for pool in threadpool_info()
    }


def _checked(value: Any, what: str) -> int:
    try:
        count = int(value)
    except (TypeError, ValueError):
        count = 0
    if isinstance(value, bool) or not 1 <= count <= MAX_THREADS or str(count) != str(value).strip():
        raise ConfigError(f"{what}: the thread count must be a whole number from 1 to {MAX_THREADS}")
    return count
