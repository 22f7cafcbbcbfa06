"""The joint distribution and CE accumulators of two-player expected play, from one sum.

Expected play records ``J <- d J + c x y^T`` and, per player, the internal regrets
``I_0(b, a) <- d I_0(b, a) + c x(b) (U_0(a) - U_0(b))`` with ``U_0 = P_0 y`` (player 2 alike,
``U_1 = x P_1``). Summed over iterations, ``I_0 = G_0 - diag(G_0) 1^T`` with ``G_0 = J P_0^T``
and ``I_1 = G_1 - diag(G_1) 1^T`` with ``G_1 = J^T P_1``: the CE gap of a joint distribution
is its incentive matrix (Hart & Mas-Colell 2000; :func:`.metrics.incentive_matrix`). So a
kernel call keeps one pending sum ``E`` in a lazy scale ``S`` (the true increment is ``S E``;
``S <- d S`` and ``E <- E + (c / S) x y^T``: no pass over the history when ``d != 1``), buffers
:data:`BLOCK` profiles and adds them as one matrix product (BLAS), and :func:`fold` turns
``E`` into the joint and both accumulators once per call (``2 |A_0| |A_1| (|A_0| + |A_1|)``
operations) or when ``S`` would underflow. The sums agree with the per-iteration updates to
rounding (``tests/solvers/matrix/test_joint_tracking.py``: 1e-12 of the weight sum).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rmviz.solvers.jit import jit, jit_reassociating

# Below this lazy scale the pending sum is folded in (c / S stays far from overflow).
FOLD_BELOW = 2.0**-500


# Profiles buffered before one product adds them to the pending sum.
BLOCK = 64


class Pending(NamedTuple):
    """A kernel call's pending sum ``E`` and its buffer: row ``t`` of ``rows`` holds
    ``(c_t / S_t) x_t``, of ``columns`` ``y_t``. The kernel keeps ``S`` and the count of rows
    filled: per iteration ``S <- d S`` (:func:`fold` first when it would pass
    :data:`FOLD_BELOW`; ``d = 0``, a greedy weight, drops the history), one row each, and
    :func:`flush` when :data:`BLOCK` rows are filled (the loop is written in the kernel: a
    call passing these arrays costs ~100 ns of reference counting per iteration)."""

    total: np.ndarray  # (|A_0|, |A_1|)
    rows: np.ndarray  # (BLOCK, |A_0|)
    columns: np.ndarray  # (BLOCK, |A_1|)


@jit
def pending_sum(rows: int, columns: int) -> Pending:
    """An empty pending sum (to start with ``S = 1`` and no row filled)."""
    return Pending(np.zeros((rows, columns)), np.empty((BLOCK, rows)), np.empty((BLOCK, columns)))


@jit
def flush(pending: Pending, filled: int) -> None:
    """``E <- E + X^T Y`` over the ``filled`` buffered rows (one BLAS product)."""
    if filled > 0:
        pending.total[:] += np.dot(pending.rows[:filled].T, pending.columns[:filled])


@jit_reassociating
def _rows_against(pending: Any, payoff: Any, out: Any) -> None:  # pragma: no cover - compiled
    """``out = E P^T``: ``out(b, a) = sum_c E(b, c) P(a, c)`` (player 1's ``G_0``)."""
    for b in range(pending.shape[0]):
        for a in range(payoff.shape[0]):
            total = 0.0
            for c in range(pending.shape[1]):
                total += pending[b, c] * payoff[a, c]
            out[b, a] = total


@jit_reassociating
def _columns_against(pending: Any, payoff: Any, sign: float, out: Any) -> None:  # pragma: no cover
    """``out = sign E^T P``: ``out(b, a) = sign sum_r E(r, b) P(r, a)`` (player 2's ``G_1``)."""
    out[:] = 0.0
    for r in range(pending.shape[0]):
        for b in range(pending.shape[1]):
            weight = sign * pending[r, b]
            for a in range(payoff.shape[1]):
                out[b, a] += weight * payoff[r, a]


@jit
def _add_incentives(scale: float, accumulated: Any, gains: Any) -> None:
    """``I <- S (I + G - diag(G) 1^T)`` (the diagonal stays exactly 0)."""
    for b in range(gains.shape[0]):
        for a in range(gains.shape[1]):
            accumulated[b, a] = scale * (accumulated[b, a] + (gains[b, a] - gains[b, b]))


@jit
def fold(
    scale: float,
    pending: Pending,
    filled: int,
    joint: Any,
    internal0: Any,
    internal1: Any,
    payoff0: Any,
    payoff1: Any,
    sign1: float,
    track_ce: bool,
    track_joint: bool,
) -> None:
    """Apply the pending increment (``filled`` rows still buffered) in the scale ``S =
    scale`` to the joint and the CE accumulators (each only when tracked: ``J <- S (J + E)``,
    ``I_i <- S (I_i + G_i - diag(G_i))``) and empty ``E``. ``payoff1`` is ``P_1``, or ``P_0``
    with ``sign1 = -1`` in an exactly zero-sum game."""
    flush(pending, filled)
    total = pending.total
    rows, columns = total.shape
    if track_joint:
        for a in range(rows):
            for b in range(columns):
                joint[a, b] = scale * (joint[a, b] + total[a, b])
    if track_ce:
        gains0, gains1 = np.empty((rows, rows)), np.empty((columns, columns))
        _rows_against(total, payoff0, gains0)
        _columns_against(total, payoff1, sign1, gains1)
        _add_incentives(scale, internal0, gains0)
        _add_incentives(scale, internal1, gains1)
    total[:] = 0.0
