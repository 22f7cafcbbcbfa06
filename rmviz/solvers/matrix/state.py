"""The mutable state of a matrix-game solver, owned by the solver and updated in place by
the generic array code (:mod:`.solver`) and the compiled kernels (:mod:`.kernels`).

Per player ``i`` (lists of NumPy or CuPy arrays): the current strategy ``pi_i`` ``(|A_i|,)``;
the guiding regrets ``R_i`` and the last prediction ``m_i`` (``(|A_i|,)`` external,
``(|A_i|, |A_i|)`` internal); the averaging-weighted strategy sum ``S_i``, true external
regret ``Rbar_i`` and, when tracked, true internal regret. Totals: the weighted payoff sum,
the weight sum ``W``, the weighted empirical joint distribution of two-player games (with
``joint_terms``, where the compiled kernel buffers its terms: :mod:`.joint`), and the last
greedy weight ``lambda``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class MatrixState:
    """See the module docstring; ``rng`` draws the actions of sampled play."""

    iteration: int
    rng: Any
    current: list[Any]
    regret: list[Any]
    prediction: list[Any]
    strategy_sum: list[Any]
    external_regret: list[Any]
    internal_regret: list[Any] | None
    payoff_sum: Any
    weight_sum: Any
    joint: Any | None
    last_lambda: Any
    joint_terms: list[Any] | None = None
