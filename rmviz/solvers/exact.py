"""Exact reference solutions: the value and maximin strategies of two-player zero-sum games.

Linear programme (von Neumann 1928; e.g. Shoham & Leyton-Brown 2009, section 4.1): for the
row player's payoff matrix A, maximise v subject to ``x^T A >= v`` column-wise,
``sum x = 1``, ``x >= 0``. Solved with SciPy's HiGHS. :func:`zero_sum_solution` reads the
solution back as fractions and checks it exactly (a saddle point: the row strategy guarantees
what the column strategy concedes); :func:`reference_equilibrium` is the equilibrium the
matrix window stars, for catalog games and any two-player constant-sum game.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from rmviz.errors import ConfigError, RmvizError
from rmviz.games.catalog import known_equilibrium
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.rational import (
    RATIONAL_DENOMINATORS,
    Number,
    common_denominator,
    exact_array,
    rational,
    simplest_near,
)
from rmviz.solvers.scale import largest_payoff, reported_values


def _maximin(matrix: np.ndarray) -> tuple[float, np.ndarray]:
    from scipy.optimize import linprog  # ~0.2 s of CPU to import: only when a value is solved

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
    """``(value, x, y)``: the row player's value and a maximin strategy for each player.

    The LP sees the payoffs divided by the power of two ``2^e`` that brings ``max |A|`` into
    ``[0.5, 1)`` (exact in floats; strategies do not change and the value is multiplied
    back): HiGHS treats numbers from 1e20 as infinite and tiny ones as zero, and refused
    games at such scales ("Model error")."""
    matrix = np.asarray(matrix, dtype=np.float64)
    top = float(np.abs(matrix).max()) if matrix.size else 0.0
    scale = math.ldexp(1.0, math.frexp(top)[1]) if top > 0 else 1.0
    value, row = _maximin(matrix / scale)
    _, column = _maximin(-matrix.T / scale)
    return value * scale, row, column


ZERO_SUM_MAX_PROFILES = 10_000
"""The window computes the zero-sum LP on every edit up to this many profiles (100x100: about
0.03 s); :func:`reference` gives no star above it."""
ZERO_SUM_LP_MAX_PROFILES = 250_000
""":func:`zero_sum_solution` refuses larger games (500x500: a few seconds)."""


@dataclass(frozen=True)
class ZeroSumSolution:
    """The value and a maximin strategy of each player of a two-player constant-sum game.

    ``value`` is the row player's value (the column player's is ``constant - value``);
    ``strategies`` the LP's floats. With ``exact``, ``exact_strategies`` are fractions near
    them that form an equilibrium exactly: the row strategy guarantees ``value`` against
    every column and the column strategy concedes at most ``value`` to every row, so
    ``value`` (a Fraction) is the game's value exactly.
    """

    value: Number
    constant: Number
    strategies: tuple[np.ndarray, np.ndarray]
    exact_strategies: tuple[np.ndarray, np.ndarray] | None
    seconds: float

    @property
    def exact(self) -> bool:
        return self.exact_strategies is not None

    @property
    def values(self) -> tuple[Number, Number]:
        """Each player's value."""
        return self.value, self.constant - self.value

    @property
    def equilibrium(self) -> tuple[tuple[float, ...], ...]:
        """The strategies as float tuples (the simplex star)."""
        shown = self.exact_strategies if self.exact_strategies is not None else self.strategies
        return tuple(tuple(float(p) for p in s) for s in shown)


def zero_sum_solution(game: NormalFormGame) -> ZeroSumSolution:
    """The LP solution of a two-player constant-sum ``game`` (:func:`zero_sum_equilibrium` on
    the row player's payoffs; with ``u_2 = c - u_1`` the column player's minimax strategy is
    its maximin one), verified exactly with small denominators when it can be."""
    constant = game.constant_sum() if game.n_players == 2 else None
    if constant is None:
        raise ConfigError(f"{game.title} is not a two-player zero-sum (or constant-sum) game")
    if game.payoffs[0].size > ZERO_SUM_LP_MAX_PROFILES:
        raise ConfigError(
            f"the zero-sum linear programme handles games of up to {ZERO_SUM_LP_MAX_PROFILES:,} "
            f"action profiles; this {game.shape_label} game has {game.payoffs[0].size:,}"
        )
    started = time.perf_counter()
    matrix = game.payoffs[0]
    value, row, column = zero_sum_equilibrium(matrix)
    exact = _verified_saddle(matrix, row, column, value)
    if exact is not None:
        (row_exact, column_exact), exact_value = exact
        return ZeroSumSolution(
            exact_value,
            rational(constant),
            (row, column),
            (row_exact, column_exact),
            time.perf_counter() - started,
        )
    # the LP's float value of a symmetric game is 0 up to rounding (1e-17): 0, by the values' rule
    (value,) = reported_values([value], largest_payoff(matrix), 1.0)
    return ZeroSumSolution(value, constant, (row, column), None, time.perf_counter() - started)


EXACT_MAX_ENTRIES = 2_500  # exact verification of zero-sum solutions up to 50x50


def _verified_saddle(
    matrix: np.ndarray, row: np.ndarray, column: np.ndarray, value: float
) -> tuple[tuple[np.ndarray, np.ndarray], Fraction] | None:
    """Fractions near ``(row, column)`` with ``min_j (x A)_j == max_i (A y)_i`` exactly (then
    that number is the value and the pair an equilibrium), or None."""
    if matrix.size > EXACT_MAX_ENTRIES:
        return None
    scale = max(1.0, float(np.abs(matrix).max()))
    tolerance = 1e-7 * scale  # HiGHS's feasibility tolerance
    exact: tuple[np.ndarray, int] | None = None  # the payoffs over a common denominator, when needed
    for denominator in RATIONAL_DENOMINATORS:
        x, y = simplest_near(row, denominator), simplest_near(column, denominator)
        if sum(x) == 0 or sum(y) == 0:
            continue
        x, y = x / sum(x), y / sum(y)
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        guaranteed_f, conceded_f = float((xf @ matrix).min()), float((matrix @ yf).max())
        if abs(guaranteed_f - value) > tolerance or conceded_f - guaranteed_f > 1e-11 * scale:
            continue  # not the LP's value, or not a saddle point even in floats
        if exact is None:
            exact = common_denominator(exact_array(matrix))
        payoffs, d_a = exact
        xi, d_x = common_denominator(x)
        yi, d_y = common_denominator(y)
        guaranteed = Fraction(int(min(xi @ payoffs)), d_x * d_a)
        conceded = Fraction(int(max(payoffs @ yi)), d_a * d_y)
        if guaranteed == conceded:
            return (x, y), guaranteed
    return None


@dataclass(frozen=True)
class Reference:
    """What the matrix window shows of a game's exact solution.

    ``equilibrium``: the star (one mixed strategy per player) or None; ``source`` says where
    it comes from (``"catalog"``, ``"LP"``, ``""``); ``zero_sum``: the LP solution of a
    two-player constant-sum game (its value), None otherwise; ``note``: why there is none
    when the game is zero-sum but too large for the automatic LP.
    """

    equilibrium: tuple[tuple[float, ...], ...] | None
    source: str
    zero_sum: ZeroSumSolution | None
    note: str = ""


def reference(game: NormalFormGame) -> Reference:
    """The star and the zero-sum solution of ``game``: the catalog's known equilibrium for a
    catalog game as built; for a two-player constant-sum game of up to
    :data:`ZERO_SUM_MAX_PROFILES` profiles, :func:`zero_sum_solution` (its equilibrium is
    the star when the catalog has none)."""
    known = known_equilibrium(game)
    solution, note = None, ""
    if game.n_players == 2 and game.is_constant_sum():
        if game.payoffs[0].size <= ZERO_SUM_MAX_PROFILES:
            solution = zero_sum_solution(game)
        else:
            note = (
                f"the value is not computed automatically above {ZERO_SUM_MAX_PROFILES:,} profiles "
                "(rmviz equilibria GAME computes it)"
            )
    if known is not None:
        return Reference(known, "catalog", solution, note)
    if solution is not None:
        return Reference(solution.equilibrium, "LP", solution, note)
    return Reference(None, "", None, note)


def reference_equilibrium(game: NormalFormGame) -> tuple[tuple[float, ...], ...] | None:
    """The equilibrium the simplex stars (:func:`reference`)."""
    return reference(game).equilibrium
