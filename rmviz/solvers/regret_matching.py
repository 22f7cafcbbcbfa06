"""Regret matching: from cumulative regrets to the next strategy.

* External (Blackwell 1956; Hart & Mas-Colell 2000, as taught in the CFR lecture):
  ``pi(a) = R_+(a) / sum_b R_+(b)``, uniform when no regret is positive.
* Internal, mixed strategies (Hart & Mas-Colell 2000; Blum & Mansour 2007): with the swap
  regrets ``R(b, a)`` (gain from having played ``a`` whenever ``b`` was played), play the
  stationary distribution of the Markov chain that moves from ``b`` to ``a`` at rate
  ``R_+(b, a)``.
* Internal, sampled play (Hart & Mas-Colell 2000 with the inertia of Zhang, Lerer & Brown
  2022): having last played ``k``, switch to ``a != k`` with probability
  ``R_+(k, a) / (alpha + sum_c R_+(k, c))``.

Regrets that are zero in exact arithmetic but not in floating point are snapped to exact
zeros (:func:`snap_ties`, :func:`snap_cancellation`). Functions take NumPy or CuPy arrays
through ``xp``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

TIE_TOLERANCE = 1e-12


def snap_ties(regret: Any, scale: Any, xp: ModuleType) -> Any:
    """``regret`` with every entry ``|r| <= TIE_TOLERANCE * scale`` set to exactly 0
    (``scale``: the largest ``|U(b)|`` the regret was computed from, broadcastable).

    The instantaneous external regret ``r(a) = U(a) - sum_b pi(b) U(b)`` of tied actions is 0
    in exact arithmetic, but ``sum_b pi(b) U(b)`` rounds, so a tie comes out as +-1e-18 and
    regret matching then plays the action with the rounding error as a pure strategy (a CFR
    run on 2x2 battleship left exact CFR at iteration 2, NashConv 0.484 against 0.047
    exactly). Every family snaps its instantaneous regrets so. The tolerance is far above
    rounding (a sum of k terms errs by about k x 1.1e-16 of its largest term) and far below
    any regret that changes play."""
    return xp.where(xp.abs(regret) <= TIE_TOLERANCE * scale, 0.0, regret)


def snap_cancellation(kept: Any, added: Any, xp: ModuleType) -> Any:
    """``kept + added``, exactly 0 where ``|kept + added| <= TIE_TOLERANCE (|kept| + |added|)``
    (the discounted regrets and the new ones; the compiled kernels inline the same rule).

    With linear weights ``R <- (t-1)/t R + r`` cancels to exactly 0 in one game and to
    3.6e-16 of its terms in the same game with every payoff multiplied by 1e150 (``(t-1)/t``
    rounds), and regret matching then plays a pure strategy instead of the uniform one."""
    total = kept + added
    return xp.where(xp.abs(total) <= TIE_TOLERANCE * (xp.abs(kept) + xp.abs(added)), 0.0, total)


def regret_matching(regret: Any, xp: ModuleType) -> Any:
    """``[R]_+ / sum [R]_+``, or uniform when no regret is positive (shape ``(A,)``); the sum
    in index order, as the compiled kernels sum (``metrics.ORDERED_MAX_ENTRIES``)."""
    positive = xp.maximum(regret, 0.0)
    total = xp.cumsum(positive)[-1]
    uniform = xp.full(regret.shape, 1.0 / regret.shape[0])
    return xp.where(total > 0, positive / xp.where(total > 0, total, 1.0), uniform)


def internal_regret_matching(swap_regret: Any, xp: ModuleType) -> Any:
    """The stationary distribution of the chain with rates ``R_+(b, a)``, ``b != a``: then
    ``sum_b pi(b) R_+(b, a) = pi(a) sum_c R_+(a, c)`` for every ``a``, which is what makes the
    internal regrets approach the negative orthant (Hart & Mas-Colell 2000).

    Solves ``pi M = 0, sum pi = 1`` with the generator ``M = R_+ - diag(row sums)`` by least
    squares: when the chain has several closed classes the minimum-norm solution is a
    positive mixture of their stationary distributions, and with no positive regret at all
    it is uniform. Cost O(A^3): meant for small games (use sampled play for large ones).

    The stationary distribution does not change when every rate is multiplied by the same
    positive factor, so the rates are divided by the largest one first: the system's
    ``sum pi = 1`` row then has the generator's scale whatever the payoffs' magnitude and
    the number of iterations (regrets of 1e20, or 1e-300, made the least-squares solution
    NaN or the SVD fail to converge).

    Transient actions have probability exactly 0, but least squares leaves ~1e-17 there; that
    noise made instantaneous regrets ``pi(b) (U(a) - U(b))`` of ~1e-17, hence positive rates
    out of a row that is exactly zero, a different chain and a different strategy (greedy
    internal RM on a 5x7 game played uniform or not depending on it). Probabilities within
    ``TIE_TOLERANCE`` of the largest are therefore exact zeros (as
    :func:`rmviz.solvers.matrix.stationary.stationary_distribution`, which is exact).
    """
    rates = xp.maximum(swap_regret, 0.0)
    rates = rates - xp.diag(xp.diag(rates))
    top = rates.max()
    rates = rates / (top + (top == 0.0))
    generator = rates - xp.diag(rates.sum(axis=1))
    n = rates.shape[0]
    system = xp.concatenate([generator.T, xp.ones((1, n))], axis=0)
    target = xp.concatenate([xp.zeros(n), xp.ones(1)])
    solution = xp.linalg.lstsq(system, target, rcond=None)[0]
    solution = xp.maximum(solution, 0.0)
    solution = xp.where(solution > TIE_TOLERANCE * solution.max(), solution, 0.0)
    return solution / solution.sum()


def conditional_regret_matching(swap_regret: Any, last_action: Any, inertia: float, xp: ModuleType) -> Any:
    """Next-action distribution after playing ``last_action`` (sampled internal RM, with
    the inertia ``alpha`` of Zhang, Lerer & Brown 2022, eq. "regret matching"): switch to
    ``a != k`` with probability ``R_+(k, a) / (alpha + sum_c R_+(k, c))``, stay with
    ``alpha / (alpha + sum_c R_+(k, c))``."""
    row = xp.maximum(swap_regret[last_action], 0.0)
    n = row.shape[0]
    stay = xp.arange(n) == last_action
    row = xp.where(stay, 0.0, row)
    denominator = inertia + xp.cumsum(row)[-1]  # in index order, as the kernels
    return xp.where(stay, inertia, row) / denominator
