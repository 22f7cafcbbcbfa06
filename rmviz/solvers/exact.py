"""Exact reference solutions: the value and maximin strategies of two-player zero-sum games.

Linear programme (von Neumann 1928; e.g. Shoham & Leyton-Brown 2009, section 4.1): for the
row player's payoff matrix A, maximise v subject to ``x^T A >= v`` column-wise,
``sum x = 1``, ``x >= 0``. Solved with SciPy's HiGHS.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from rmviz.errors import RmvizError


def _maximin(matrix: np.ndarray) -> tuple[float, np.ndarray]:
    rows, columns = matrix.shape
    # variables (x_1..x_m, v); minimise -v
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((columns, 1))])  # v - x^T A_j <= 0
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0, None)] * rows + [(None, None)]
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(columns),
        A_eq=equality,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if not result.success:
        raise RmvizError(f"the linear programme failed: {result.message}")
    strategy = np.maximum(result.x[:rows], 0.0)
    return float(result.x[-1]), strategy / strategy.sum()


def zero_sum_equilibrium(matrix: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """``(value, x, y)``: the row player's value and a maximin strategy for each player."""
    matrix = np.asarray(matrix, dtype=np.float64)
    value, row = _maximin(matrix)
    _, column = _maximin(-matrix.T)
    return value, row, column
