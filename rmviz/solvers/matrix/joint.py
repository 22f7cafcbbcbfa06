"""The weighted empirical joint distribution of two-player expected play, its terms buffered.

Expected play adds ``J <- d J + c x y^T`` every iteration (:mod:`.solver`'s ``_accumulate``):
``|A_0| |A_1|`` multiply-adds, as many as the payoff products themselves, read and written
back once per iteration. Above the summation rule's size (``metrics.ORDERED_MAX_ENTRIES``)
and with float32 payoffs, where the kernel's products are the single-pass ones and agree
with the array code to rounding (``kernels.BimatrixExpectedKernel.fused``), the
compiled kernel instead keeps the terms and adds :data:`BUFFER` of them at a time with one
matrix product (BLAS), in lazily scaled form:

    J_true = D (J + sum_{s < n} R[s] C[s]^T),   R[s] = (c_s / D_s) x_s,   C[s] = y_s,

``D_s = d_1 ... d_s`` the discounts since the last fold and ``pending = [n, D]``. A fold
(when the buffer is full, or before ``D`` would pass :data:`SMALLEST_SCALE`, as at a greedy
weight of 0) sets ``J <- D (J + R^T C)``, ``n = 0``, ``D = 1``. It happens at the same
iterations however a run is cut into ``step`` calls, and the buffers are solver state
(checkpointed), so a run's joint does not depend on how it was stepped. Snapshots read
:func:`weighted_joint`, which leaves the state as it is. At 64x64, tracking the buffered
joint costs 1.26-1.30x the untracked run (``tests/benchmarks/small_matrix_tracking.py``;
docs/performance.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rmviz.solvers.jit import jit

BUFFER = 64
"""Terms added per matrix product (a rank-64 update)."""
SMALLEST_SCALE = 2.0**-500
"""A fold comes first where the running discount ``D`` would fall below this (or reach 0)."""


def buffers(rows: int, columns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty buffers ``R``, ``C`` and ``pending = [0, 1]`` for an ``rows x columns`` joint."""
    return np.zeros((BUFFER, rows)), np.zeros((BUFFER, columns)), np.array([0.0, 1.0])


@jit
def fold(joint: Any, rows: Any, columns: Any, pending: Any) -> None:
    """``J <- D (J + R[:n]^T C[:n])`` in place; the buffer emptied (``n = 0``, ``D = 1``)."""
    count, scale = int(pending[0]), pending[1]
    if count > 0:
        joint += np.dot(rows[:count].T, columns[:count])
    if scale != 1.0:
        joint *= scale
    pending[0], pending[1] = 0.0, 1.0


@jit
def record(d: float, c: float, joint: Any, rows: Any, columns: Any, pending: Any, x: Any, y: Any) -> None:
    """``J_true <- d J_true + c x y^T``: one more buffered term (module docstring)."""
    if pending[0] == rows.shape[0] or d * pending[1] < SMALLEST_SCALE:
        fold(joint, rows, columns, pending)
    if d < SMALLEST_SCALE:  # (after a fold, D = 1): the history is scaled now
        joint *= d
        d = 1.0
    count = int(pending[0])
    scale = d * pending[1]
    weight = c / scale
    for a in range(x.shape[0]):
        rows[count, a] = weight * x[a]
    for b in range(y.shape[0]):
        columns[count, b] = y[b]
    pending[0], pending[1] = count + 1.0, scale


def weighted_joint(joint: Any, rows: Any, columns: Any, pending: Any) -> np.ndarray:
    """``J_true`` of the buffered form, as a new host array; the state is left as it is."""
    joint, pending = np.asarray(joint), np.asarray(pending)
    count, scale = int(pending[0]), float(pending[1])
    if count == 0:
        return joint * scale
    return scale * (joint + np.asarray(rows)[:count].T @ np.asarray(columns)[:count])
