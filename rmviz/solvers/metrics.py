"""Metric pieces every family shares.

* Potential ``phi = sum_i sum_a [Rbar_i(a)]_+^2`` of the average regrets (external regrets of
  matrix games, counterfactual regrets of trees): the quantity regret matching drives down
  (Cesa-Bianchi & Lugosi 2006) and greedy weights minimise (Zhang, Lerer & Brown 2022).

The definitions of each family's distances to equilibrium live beside its solver
(:mod:`rmviz.solvers.matrix.metrics`, :mod:`rmviz.solvers.tree.metrics`).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np


def potential(average_regrets: Sequence[Any], xp: ModuleType = np) -> float:
    """``sum_i sum_a [Rbar_i(a)]_+^2`` over the players' average regrets (any shape)."""
    return float(sum(float(xp.sum(xp.maximum(r, 0.0) ** 2)) for r in average_regrets))
