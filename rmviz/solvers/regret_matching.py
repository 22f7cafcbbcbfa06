"""From cumulative regrets to the next strategy: regret matching, and following the leader.

* External (Blackwell 1956; Hart & Mas-Colell 2000, as taught in the CFR lecture):
  ``pi(a) = R_+(a) / sum_b R_+(b)``, uniform when no regret is positive.
* Internal, mixed strategies (Hart & Mas-Colell 2000; Blum & Mansour 2007): with the swap
  regrets ``R(b, a)`` (gain from having played ``a`` whenever ``b`` was played), play the
  stationary distribution of the Markov chain that moves from ``b`` to ``a`` at rate
  ``R_+(b, a)``.
* Internal, sampled play (Hart & Mas-Colell 2000 with the inertia of Zhang, Lerer & Brown
  2022): having last played ``k``, switch to ``a != k`` with probability
  ``R_+(k, a) / (alpha + sum_c R_+(k, c))``.
* Following the (regularised) leader on the external regrets: Hedge (:func:`hedge`), the
  Euclidean projection (:func:`euclidean_projection`) and the best response of fictitious
  play (:func:`best_response`), chosen by :func:`next_strategy`.

Regrets that are zero in exact arithmetic but not in floating point are snapped to exact
zeros (:func:`snap_ties`, :func:`snap_cancellation`). Functions take NumPy or CuPy arrays
through ``xp``.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np

TIE_TOLERANCE = 1e-12


def snap_ties(regret: Any, scale: Any, xp: ModuleType) -> Any:
    """``regret`` with every entry ``|r| <= TIE_TOLERANCE * scale`` set to exactly 0
    (``scale``, broadcastable: a bound on the ``|U(b)|`` the regret was computed from that
    rounding cannot reach, ``max(max_b |U(b)|, max |u_i|)`` in matrix games,
    :func:`rmviz.solvers.matrix.kernels.tie_bounds`, and ``max(|cfv|, U rho(I))`` in trees,
    :func:`rmviz.solvers.tree.compiled_tree.tie_scale`).

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


def instantaneous_regrets(
    utilities: Any, value: Any, strategy: Any, action: Any, bound: float, internal: bool, xp: ModuleType
) -> tuple[Any, Any]:
    """A player's instantaneous external regrets ``r(a) = U(a) - u`` and, when ``internal``,
    internal regrets (else None): ``pi(b) (U(a) - U(b))`` in mixed play (``action`` None), ``r(a)``
    in row ``action`` in sampled play. Ties are exact zeros (:func:`snap_ties`) at the scale
    ``max(bound, max |U|)``, ``bound`` the player's largest ``|u|``
    (:func:`rmviz.solvers.matrix.kernels.tie_bounds`), as the compiled kernels decide them."""
    scale = xp.maximum(xp.abs(utilities).max(), bound)
    external = snap_ties(utilities - value, scale, xp)
    if not internal:
        return external, None
    if action is None:
        return external, strategy[:, None] * snap_ties(utilities[None, :] - utilities[:, None], scale, xp)
    return external, (xp.arange(strategy.shape[0]) == action)[:, None] * external[None, :]


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
    :func:`rmviz.solvers.stationary.stationary_distribution`, which is exact).
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


# -- following the (regularised) leader ------------------------------------------------------
# The rules that turn guiding regrets (cumulative, possibly weighted, plus a prediction in
# optimistic forms) into the next strategy. Adding the same constant to every regret changes
# none of them, so the guiding regrets stand for the cumulative utilities that FTRL and
# fictitious play are usually written with. Each rule has its index in STRATEGY_MAPS, the
# compiled kernels' integer for it (:func:`strategy_map_of`).
RULES = ("regret-matching", "ftrl", "best-response")
REGULARISERS = ("entropic", "euclidean")
STRATEGY_MAPS = ("regret-matching", "entropic", "euclidean", "best-response")


def strategy_map_of(rule: str, regulariser: str) -> int:
    """The index in :data:`STRATEGY_MAPS` of ``rule`` (FTRL: with ``regulariser``)."""
    return STRATEGY_MAPS.index(regulariser if rule == "ftrl" else rule)


def base_rate(regulariser: str, step_size: float | None, num_actions: int, payoff_range: float) -> float:
    """The learning rate ``eta_0`` of one player, per unit of its regrets (the payoffs the solver
    runs on); :func:`rate_at` makes it ``eta_t``. ``step_size`` is a constant ``eta`` in units
    of 1 / the player's payoff range ``D``; ``None`` is the anytime schedule

    * entropic (Hedge): ``eta_t = sqrt(8 ln n / t) / D``, external regret at most
      ``D (2 sqrt(T ln n / 2) + sqrt(ln n / 8))`` (Cesa-Bianchi & Lugosi 2006, Theorem 2.3);
    * Euclidean: ``eta_t = sqrt(2 / (n t)) / D``, regret at most ``D sqrt(n T / 2)`` (FTRL with
      the regulariser ``|x|^2 / (2 eta_t)``, Orabona 2019, Corollary 7.9, utilities centred
      within ``D / 2``).

    A game in which a player's payoffs are all equal (``D = 0``) gives it no regrets: ``D = 1``."""
    scale = payoff_range if payoff_range > 0 else 1.0
    if step_size is not None:
        return step_size / scale
    if regulariser == "entropic":
        return math.sqrt(8.0 * math.log(num_actions)) / scale
    return math.sqrt(2.0 / num_actions) / scale


def rate_at(base: float, t: int, anytime: bool) -> float:
    """``eta_t``: the rate of the strategy played at iteration ``t`` (computed from the regrets
    of iterations ``1 .. t-1``): ``base / sqrt(t)`` on the anytime schedule, else ``base``."""
    return base / math.sqrt(t) if anytime else base


# exp by additions, multiplications and a power of two only (fdlibm's split of ln 2, Taylor's
# series to degree 13 on |r| <= ln(2)/2: relative error below 1e-16): NumPy's exp and the
# compiled kernels' (libm's) differ in the last bit for some arguments, these operations
# round alike everywhere, so Hedge's iterates are the same bits on every path.
LN2_HIGH = 6.93147180369123816490e-01  # its last 21 bits are zeros: k * LN2_HIGH is exact
LN2_LOW = 1.90821492927058770002e-10
LOG2_E = 1.44269504088896338700e00
EXP_SERIES = tuple(1.0 / math.factorial(n) for n in range(13, -1, -1))  # Horner's order
# exp(x) below it is taken as 0: its subnormal values (exp(-708) is 3e-308) would slow every
# later operation on them tenfold, and a weight below 1e-307 of the largest, 1, changes no sum
EXP_FLOOR = -708.0
# 2^k for the k of x >= EXP_FLOOR, -1021 <= k <= 0, at POWERS_OF_TWO[k + 1022]: a product with
# one is exact (a normal number times a power of two), as ldexp, without a call per entry
POWERS_OF_TWO = np.ldexp(1.0, np.arange(-1022, 1))


def exp_nonpositive(x: Any, xp: ModuleType) -> Any:
    """``exp(x)`` for ``x <= 0`` (arrays), as :data:`EXP_SERIES` says: ``x = k ln 2 + r``,
    ``exp(x) = 2^k exp(r)``; 0 below :data:`EXP_FLOOR`."""
    below = x < EXP_FLOOR
    x = xp.maximum(x, EXP_FLOOR)
    k = xp.floor(x * LOG2_E + 0.5)
    r = (x - k * LN2_HIGH) - k * LN2_LOW
    series = xp.full(x.shape, EXP_SERIES[0])
    for coefficient in EXP_SERIES[1:]:
        series = series * r + coefficient
    powers = xp.asarray(POWERS_OF_TWO)[k.astype(xp.int64) + 1022]
    return xp.where(below, 0.0, series * powers)


def hedge(guide: Any, rate: float, xp: ModuleType) -> Any:
    """Hedge, multiplicative weights: ``pi(a) = exp(eta G(a)) / sum_b exp(eta G(b))``, computed
    as ``exp(eta (G(a) - max G))`` (no overflow; :func:`exp_nonpositive`), the sum in index
    order (Freund & Schapire 1997; FTRL with the entropic regulariser)."""
    weights = exp_nonpositive(rate * (guide - guide.max()), xp)
    return weights / xp.cumsum(weights)[-1]


def euclidean_projection(guide: Any, rate: float, xp: ModuleType) -> Any:
    """FTRL with the Euclidean regulariser: the point of the simplex nearest to ``v = eta G``,
    ``pi(a) = max(v(a) - theta, 0)`` with ``sum pi = 1``. ``theta`` by Michelot's (1986)
    rounds ``theta = (sum_{a in S} v(a) - 1) / |S|``, each dropping from ``S`` the entries
    ``v(a) <= theta``, summed in index order, until ``S`` stays (at most ``k`` rounds: ``S``
    only shrinks, so a float at ``theta`` cannot flip in and out for ever, as it did when
    ``S`` was recomputed as ``{v > theta}``: an integer guide at rate 0.01 hung the kernel).
    On the CPU these are the compiled kernels' rounds, bit for bit. On a GPU, where asking
    when to stop costs a synchronisation per round, ``S`` starts from the support found by
    sorting (Held, Wolfe & Crowder 1974) and :data:`MICHELOT_ROUNDS` rounds follow: a few
    launches whatever ``k``, the same projection up to rounding."""
    v = rate * guide
    if xp is np:
        active = np.ones(v.shape, dtype=bool)
        while True:
            theta = (np.cumsum(np.where(active, v, 0.0))[-1] - 1.0) / np.cumsum(active)[-1]
            kept = active & (v > theta)
            if kept.sum() in (0, active.sum()):
                return np.maximum(v - theta, 0.0)
            active = kept
    u = -xp.sort(-v)
    sizes = xp.arange(1, v.shape[0] + 1)
    rho = xp.count_nonzero(u - (xp.cumsum(u) - 1.0) / sizes > 0)  # >= 1: j = 1 always holds
    active = v >= xp.take(u, rho - 1)
    for _ in range(MICHELOT_ROUNDS):
        theta = (xp.cumsum(xp.where(active, v, 0.0))[-1] - 1.0) / xp.cumsum(active)[-1]
        active = active & (v > theta)
    return xp.maximum(v - theta, 0.0)


# a GPU's rounds from the sorted support: the first confirms it, the others settle an entry
# within rounding of theta (a fixed number: no question to the device)
MICHELOT_ROUNDS = 3


def best_response(guide: Any, xp: ModuleType) -> Any:
    """Fictitious play: uniform over the actions with the largest guiding regret, ties being
    actions within ``TIE_TOLERANCE x max |G|`` of the largest (the rule of :func:`snap_ties`:
    regrets equal in exact arithmetic may differ by rounding). Best response to the others'
    weighted empirical play (Brown 1951; Robinson 1951)."""
    top = guide.max()
    tied = guide >= top - TIE_TOLERANCE * xp.abs(guide).max()
    return tied / xp.cumsum(tied.astype(guide.dtype))[-1]


def next_strategy(strategy_map: int, guide: Any, rate: float, xp: ModuleType) -> Any:
    """The next strategy of external-regret play from the guiding regrets ``guide`` by the rule
    ``STRATEGY_MAPS[strategy_map]`` at learning rate ``rate`` (FTRL only)."""
    if strategy_map == 1:
        return hedge(guide, rate, xp)
    if strategy_map == 2:
        return euclidean_projection(guide, rate, xp)
    if strategy_map == 3:
        return best_response(guide, xp)
    return regret_matching(guide, xp)
