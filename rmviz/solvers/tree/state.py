"""The mutable state of a CFR solver, owned by the solver and updated in place by the
NumPy passes (:mod:`.solver`) and the compiled kernel (:mod:`.kernels`).

Per slot (information-set move, :mod:`.compiled_tree`): the current strategy ``sigma``, the
guiding cumulative regrets ``R``, the own-reach-weighted strategy sum ``S`` and the
averaging-weighted counterfactual regrets that the metrics read; in predictive CFR the
prediction ``m`` (the slot's last added regret, Farina, Kroer & Sandholm 2021); the weight sum
``W`` and the last greedy weight; when the correlation gaps are tracked, their sums
(:mod:`.correlation`: one per trigger and terminal, one per slot).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class CFRState:
    """See the module docstring. Monte-Carlo samples are drawn from the solver's seed and
    the iteration (counter-based, :mod:`.sampling_kernels`): no generator state is kept."""

    iteration: int
    strategy: np.ndarray
    regret: np.ndarray
    strategy_sum: np.ndarray
    true_regret: np.ndarray
    prediction: np.ndarray | None = None  # predictive CFR: the last c r per slot, else None
    weight_sum: float = 0.0
    last_lambda: float = 0.0
    trigger_sums: np.ndarray | None = None  # correlation.Triggers' entries: A(I, a, z)
    follow_sums: np.ndarray | None = None  # per slot: F(I, a)
