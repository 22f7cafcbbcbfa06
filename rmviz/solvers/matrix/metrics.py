"""Distances to equilibrium, defined once and used everywhere.

For a mixed profile ``pi`` and a joint distribution ``p`` over action profiles
(``u_i(a', a_-i)`` is player i's payoff when i deviates to ``a'``):

* NashConv(pi) = sum_i [max_a u_i(a, pi_-i) - u_i(pi)]; exploitability = NashConv / n
  (OpenSpiel's convention, Lanctot et al. 2019; for two-player zero-sum games with value v
  it is the mean of the players' best-response gains).
* CCE gap(p) = max(0, max_i max_a' sum_a p(a) [u_i(a', a_-i) - u_i(a)])  (Hannan 1957).
* CE gap(p)  = max_i max_{b, a'} sum_{a: a_i = b} p(a) [u_i(a', a_-i) - u_i(a)]
  (Aumann 1974; >= 0 because a' = b gives 0).
* The last iterate: the same distances of the *current* profile ``pi^T`` (not the average),
  whose joint distribution is the product ``p = prod_i pi_i`` (:func:`last_iterate`).
* Regret bound eps = 2 max_i max_a R_i(a) / T, the estimate printed by the regret-matching
  snippet (shared/seeds): in two-player zero-sum games NashConv <= eps.
* Potential: see :func:`rmviz.solvers.metrics.potential`.

These functions take NumPy or CuPy arrays (``xp`` is inferred by the caller). They are the
*definitions*: solvers keep streaming accumulators whose values tests compare with these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

# The summation rule of expected play. Every value ``u_i(pi)`` and, up to this many payoff
# entries per player, every expected utility ``u_i(a, pi_-i)`` is a sum in index order of terms
# rounded one by one (no fused multiply-add, no reassociation), here and in the compiled
# kernels (:mod:`.kernels`: ``_row_utilities``, ``_column_utilities``, ``_value_and_scale``,
# ``_expected_at``, ``_value``): both paths compute the same floats, so every later comparison (ties,
# weight floors, the greedy line search) decides the same way and their iterates are equal
# bit for bit. Above it BLAS (``tensordot``) and the kernels' vectorised sums each keep their
# own order, and the paths agree to rounding. (NumPy's ``@`` calls BLAS, whose dot products
# use fused multiply-adds on some processors and not on others.)
ORDERED_MAX_ENTRIES = 32 * 32


def expected_utilities(payoff: Any, strategies: Sequence[Any], player: int, xp: ModuleType = np) -> Any:
    """``U_i(a) = u_i(a, pi_-i)`` for every action ``a`` of ``player``: shape ``(|A_i|,)``.

    ``payoff`` is player i's tensor of shape ``(|A_0|, ..., |A_{n-1}|)``. The other players'
    axes are contracted from the last one down, so each step reads the shrinking tensor once;
    in index order (:data:`ORDERED_MAX_ENTRIES`) for small tensors.
    """
    ordered = payoff.size <= ORDERED_MAX_ENTRIES
    values = payoff
    for j in range(len(strategies) - 1, -1, -1):
        if j != player:
            if ordered:
                shape = [1] * values.ndim
                shape[j] = -1
                terms = values * strategies[j].reshape(shape)
                values = xp.take(xp.cumsum(terms, axis=j), -1, axis=j)
            else:
                values = xp.tensordot(values, strategies[j], axes=([j], [0]))
    return values


def expected_value(utilities: Any, strategy: Any, xp: ModuleType = np) -> Any:
    """``u_i(pi) = sum_a U_i(a) pi_i(a)``, in index order whatever the game's size (one
    player's actions: the kernels' ``_value_and_scale`` and ``_value`` sum so too)."""
    return xp.cumsum(utilities * strategy)[-1]


@dataclass(frozen=True)
class MatrixMetrics:
    """Equilibrium distances of one solver state (host floats, ready to print or plot).

    ``value`` is each player's expected payoff under the *average profile* (the product of
    average strategies); ``welfare`` is the sum of payoffs under the *empirical joint
    distribution* of play (what CE/CCE are about). ``ce_gap`` is ``None`` where it was not
    tracked (large games in expected play, see ``SolverConfig.track_ce``).
    """

    nash_conv: float
    exploitability: float
    cce_gap: float
    ce_gap: float | None
    eps_bound: float
    welfare: float
    value: tuple[float, ...]
    potential: float
    last: LastIterate | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "nash_conv": self.nash_conv,
            "exploitability": self.exploitability,
            "cce_gap": self.cce_gap,
            "ce_gap": self.ce_gap,
            "eps_bound": self.eps_bound,
            "welfare": self.welfare,
            "value": list(self.value),
            "potential": self.potential,
            **(self.last.as_dict() if self.last is not None else LastIterate.untracked()),
        }


@dataclass(frozen=True)
class LastIterate:
    """The distances of the current profile ``pi^T`` (the last iterate), in payoff units:
    NashConv and exploitability of ``pi^T``, and the CCE and CE gaps of its product
    distribution ``p(a) = prod_i pi_i(a_i)`` (:func:`last_iterate`)."""

    nash_conv: float
    exploitability: float
    cce_gap: float
    ce_gap: float

    def as_dict(self) -> dict[str, float]:
        """The ``last_*`` keys of ``rmviz solve --json`` and the trace's columns."""
        return {f"last_{name}": getattr(self, name) for name in LAST_METRICS}

    @staticmethod
    def untracked() -> dict[str, None]:
        """The ``last_*`` keys of a solver that does not track the last iterate."""
        return {f"last_{name}": None for name in LAST_METRICS}


LAST_METRICS = ("exploitability", "nash_conv", "cce_gap", "ce_gap")  # LastIterate's fields, as columns


def nash_conv(
    payoffs: Any, strategies: Sequence[Any], xp: ModuleType = np, utilities: Sequence[Any] | None = None
) -> tuple[float, list[float]]:
    """NashConv of a mixed profile, and each player's payoff ``u_i(pi)`` under it
    (``utilities``: each player's :func:`expected_utilities`, when already computed)."""
    total, values = 0.0, []
    for i in range(len(strategies)):
        if utilities is None:
            utilities_i = expected_utilities(payoffs[i], strategies, i, xp)
        else:
            utilities_i = utilities[i]
        value = float(utilities_i @ strategies[i])
        total += float(utilities_i.max()) - value
        values.append(value)
    return max(total, 0.0), values


def exploitability(payoffs: Any, strategies: Sequence[Any], xp: ModuleType = np) -> float:
    """NashConv / number of players (OpenSpiel's convention)."""
    return nash_conv(payoffs, strategies, xp)[0] / len(strategies)


def pure_regrets(payoffs: np.ndarray, player: int, profile: Sequence[int]) -> np.ndarray:
    """One-time regrets ``r_i(a') = u_i(a', a_-i) - u_i(a)`` of ``player`` at a pure profile.

    The CFR lecture's ``r_i^t(s_k) = u_i(s_k, s_-i^t) - u_i(s^t)``; in the teaching notebook,
    Rock against Paper gives (0, 1, 2).
    """
    index: list[int | slice] = list(profile)
    index[player] = slice(None)
    utilities = np.asarray(payoffs[player][tuple(index)], dtype=np.float64)
    return utilities - utilities[profile[player]]


def deviation_gains(payoffs: np.ndarray, player: int) -> np.ndarray:
    """``g[a', a] = u_i(a', a_-i) - u_i(a)``: shape ``(|A_i|, |A_0|, ..., |A_{n-1}|)``."""
    u = np.moveaxis(payoffs[player], player, 0)  # (|A_i|, rest...) with a_i first
    gains = u[:, None] - u[None, :]  # [a', a_i, rest]
    return np.moveaxis(gains, 1, player + 1)


def incentive_matrix(payoffs: np.ndarray, joint: np.ndarray, player: int) -> np.ndarray:
    """``m[b, a'] = sum_{a: a_i = b} p(a) [u_i(a', a_-i) - u_i(a)]``, shape ``(|A_i|, |A_i|)``.

    Player i's expected gain from playing ``a'`` whenever the joint distribution ``p``
    recommends ``b``: Aumann's (1974) CE constraint for ``(b, a')`` is ``m[b, a'] <= 0`` (the
    CFR lecture's definition; the diagonal is 0), and the column sum ``sum_b m[b, a']`` is the
    CCE constraint of deviating to ``a'`` unconditionally (Hannan 1957). The arithmetic is the
    arrays': float arrays give floats, object arrays of Python integers or Fractions exact
    numbers (:mod:`rmviz.solvers.matrix.correlated`).
    """
    gains = deviation_gains(payoffs, player)  # [a', a_0..]
    weighted = np.moveaxis(gains * joint[None], player + 1, 1)  # [a', b, rest]
    return weighted.reshape(*weighted.shape[:2], -1).sum(axis=2).T  # [b, a']


def joint_incentives(payoffs: np.ndarray, joint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both players' :func:`incentive_matrix` of a two-player joint distribution ``J``, one
    recommendation at a time (memory ``O(|A_0| |A_1|)``, not the definition's cube):

        m_0[b, a'] = sum_s J(b, s) [P_0(a', s) - P_0(b, s)] = ((P_0 - P_0[b]) J[b])[a'],
        m_1[b, a'] = sum_r J(r, b) [P_1(r, a') - P_1(r, b)] = (J[:, b] (P_1 - P_1[:, b]))[a'].

    Each gain is formed before it is weighted, so an action that ties with ``b`` against
    every opponent action gains exactly 0. Two-player expected play reads its CE gap here
    (``RegretMinimizer.metrics``): the sum over iterations of the internal regrets
    ``pi_i(b) (U_i(a') - U_i(b))`` is this matrix of the weighted empirical joint
    distribution, for ``O(|A_0| |A_1|)`` per iteration instead of ``|A_i|^2`` per player.
    """
    first, second = payoffs[0], payoffs[1]
    m0 = np.empty((first.shape[0], first.shape[0]))
    m1 = np.empty((second.shape[1], second.shape[1]))
    for b in range(first.shape[0]):
        m0[b] = (first - first[b]) @ joint[b]
    for b in range(second.shape[1]):
        m1[b] = joint[:, b] @ (second - second[:, b : b + 1])
    return m0, m1


def incentive_summary(incentives: Any) -> tuple[Any, Any]:
    """What the gaps read of one player's incentive matrix ``m[b, a']``
    (:func:`incentive_matrix`): its column sums (the CCE constraint of each deviation ``a'``)
    and its row maxima (the best swap of each recommendation ``b``)."""
    return incentives.sum(axis=0), incentives.max(axis=1)


def gaps(summaries: Sequence[tuple[Any, Any]]) -> tuple[float, float]:
    """The CCE and CE gaps from every player's :func:`incentive_summary`:
    ``max(0, max_i max_a' sum_b m_i[b, a'])`` and ``max(0, max_i max_{b, a'} m_i[b, a'])``."""
    cce = max([0.0, *(float(columns.max()) for columns, _ in summaries)])
    ce = max([0.0, *(float(rows.max()) for _, rows in summaries)])
    return cce, ce


def cce_gap(payoffs: np.ndarray, joint: np.ndarray) -> float:
    """CCE gap of a joint distribution ``p`` over profiles (explicit definition, any size):
    ``max_i max_a' sum_b m_i[b, a']`` (:func:`incentive_matrix`), the largest gain from one
    fixed deviation: the average external regret of Zhang, Lerer & Brown (2022), eq. 3."""
    return gaps([incentive_summary(incentive_matrix(payoffs, joint, i)) for i in range(payoffs.shape[0])])[0]


def ce_gap(payoffs: np.ndarray, joint: np.ndarray) -> float:
    """CE gap of a joint distribution ``p`` over profiles (explicit definition):
    ``max_i max_{b, a'} m_i[b, a']``, the largest gain from one swap "play a' when told b":
    the average internal regret of Zhang, Lerer & Brown (2022), pair by pair as in Hart &
    Mas-Colell's (2000) correlated epsilon-equilibrium. It can be below :func:`cce_gap`,
    which adds a deviation's gains over every recommendation (``cce <= k x ce``)."""
    return gaps([incentive_summary(incentive_matrix(payoffs, joint, i)) for i in range(payoffs.shape[0])])[1]


def product_summary(utilities: Any, strategy: Any, value: Any) -> tuple[Any, Any]:
    """:func:`incentive_summary` of player i's incentive matrix under a *product*
    distribution ``p = prod_j pi_j``, without the joint: there ``m[b, a'] = pi_i(b) (U_i(a') -
    U_i(b))`` with ``U_i = u_i(., pi_-i)`` (``utilities``), so its column sums are
    ``U_i(a') - u_i(pi)`` (``value``) and its row maxima ``pi_i(b) (max U_i - U_i(b))``:
    O(|A_i|), where the joint has prod_j |A_j| entries (tests compare both to 1e-12)."""
    return utilities - value, strategy * (utilities.max() - utilities)


def last_iterate(
    payoffs: Any, strategies: Sequence[Any], scale: float = 1.0, xp: ModuleType = np
) -> LastIterate:
    """The distances of the profile ``strategies`` (a solver's current strategies), in payoff
    units (``scale``: the payoffs' divisor): :func:`nash_conv` and :func:`exploitability` of
    the profile, :func:`cce_gap` and :func:`ce_gap` of its product distribution (through
    :func:`product_summary`). Costs one expected-utility vector per player: what NashConv of
    the average costs."""
    n = len(strategies)
    utilities = [expected_utilities(payoffs[i], strategies, i, xp) for i in range(n)]
    nc, values = nash_conv(payoffs, strategies, xp, utilities)
    cce, ce = gaps([product_summary(utilities[i], strategies[i], values[i]) for i in range(n)])
    nc *= scale
    return LastIterate(nc, nc / n, cce * scale, ce * scale)


def regret_bound(max_cumulative_regret: float, weight_sum: float) -> float:
    """``eps = 2 max_i max_a R_i(a) / T`` as in the regret-matching snippet (0 before any play)."""
    return 2.0 * max(max_cumulative_regret, 0.0) / weight_sum if weight_sum > 0 else 0.0
