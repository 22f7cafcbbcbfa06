"""Correlated (CE) and coarse correlated (CCE) equilibria of matrix games: every incentive
constraint of a joint distribution, exactly, and the welfare-maximising CE and CCE by LP.

A probability distribution ``p`` over action profiles is a **correlated equilibrium**
(Aumann 1974; the CFR lecture's definition) iff for every player ``i``, recommended action
``b`` and deviation ``a' != b``

    sum_{s: s_i = b} p(s) [u_i(a', s_-i) - u_i(s)] <= 0,

and a **coarse correlated equilibrium** (Hannan 1957; Zhang, Lerer & Brown 2022, eq. 2) iff
for every player ``i`` and deviation ``a'``

    sum_s p(s) [u_i(a', s_-i) - u_i(s)] <= 0.

The left-hand sides are :func:`~rmviz.solvers.matrix.metrics.incentive_matrix`, the
definition the run metrics use; the CE gap and the CCE gap are the largest of them (0 when
all hold), as in :mod:`rmviz.solvers.matrix.metrics`. :func:`check_joint` evaluates them in
exact rational arithmetic (:class:`fractions.Fraction`: a tie reads exactly 0) for games of up
to :data:`EXACT_MAX_TERMS` terms, in floating point above.

:func:`best_correlated` maximises the social welfare ``sum_s p(s) sum_i u_i(s)`` over these
linear constraints (Papadimitriou & Roughgarden 2008: CE are an LP's feasible set) with
SciPy's HiGHS, for games of up to :data:`LP_MAX_PROFILES` action profiles.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from rmviz.errors import ConfigError, RmvizError
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.metrics import deviation_gains, incentive_matrix
from rmviz.solvers.rational import (
    RATIONAL_DENOMINATORS,
    Number,
    common_denominator,
    exact_array,
    format_number,
    fractions_of,
    parse_number,
    rational,
    simplest_near,
)

if TYPE_CHECKING:
    from scipy.sparse import coo_matrix

Kind = Literal["CE", "CCE"]

MAX_PROFILES = 100_000
"""The checker refuses games with more action profiles (the joint has one entry per profile)."""
EXACT_MAX_TERMS = 40_000
"""Exact arithmetic up to this many terms ``p(s) (u_i(a', s_-i) - u_i(s))`` (profiles times
the players' action counts summed: a 20x20 game has 16,000, 10x10x10 30,000; about 0.1 s
at most); floats above."""
LP_MAX_PROFILES = 4_096
"""The LP has one variable per action profile: a 64x64 game has 4,096 variables, 8,064 CE
constraints and 128 dense CCE ones (about 1 s for the CE, 3 s for the CCE on one core);
larger games are refused."""


def joint_tokens(text: str) -> list[str]:
    """The entries of a typed joint distribution, separated by commas, semicolons or spaces."""
    tokens = [token for token in re.split(r"[,;\s]+", text.strip()) if token]
    if not tokens:
        raise ConfigError("type one probability per action profile, e.g. 1/2, 0, 0, 1/2")
    return tokens


def parse_joint(text: str) -> list[Fraction]:
    """The numbers of a typed joint distribution (``"2/9, 4/9, 1/9, 2/9"``), exactly;
    :func:`check_joint` checks them against a game."""
    return [parse_number(token, f"entry {k}") for k, token in enumerate(joint_tokens(text), start=1)]


def profile_label(game: NormalFormGame, profile: Sequence[Any]) -> str:
    """``(Cinema, Dancing)``: the action names of a profile."""
    return "(" + ", ".join(game.action_names[i][a] for i, a in enumerate(profile)) + ")"


def check_size(game: NormalFormGame, limit: int, what: str) -> None:
    """Refuse a game with more than ``limit`` action profiles, saying what cannot be done."""
    profiles = math.prod(game.num_actions)
    if profiles > limit:
        raise ConfigError(
            f"{what} handles games of up to {limit:,} action profiles; this {game.shape_label} "
            f"game has {profiles:,}"
        )


@dataclass(frozen=True)
class Constraint:
    """One incentive constraint: ``value <= 0`` must hold.

    ``kind`` "CE": player ``player`` recommended ``recommended`` gains ``value`` in
    expectation by playing ``deviation`` instead (the sum over profiles with ``s_i =
    recommended``); "CCE": by playing ``deviation`` whatever is recommended
    (``recommended`` is None).
    """

    kind: Kind
    player: int
    deviation: int
    value: Number
    recommended: int | None = None

    @property
    def holds(self) -> bool:
        return self.value <= 0

    @property
    def slack(self) -> Number:
        """How far the constraint is from binding: ``-value`` (negative when violated)."""
        return -self.value


@dataclass(frozen=True)
class Term:
    """One term ``p(s) (u_i(a', s_-i) - u_i(s))`` of a constraint's sum."""

    profile: tuple[int, ...]
    probability: Number
    deviation_payoff: Number
    payoff: Number


@dataclass(frozen=True)
class JointCheck:
    """Every CE and CCE constraint of one joint distribution in one game.

    ``joint`` has the game's action shape and sums to 1 (the entries given, divided by
    ``total``, their sum); with ``exact``, ``joint``, ``table`` (the payoffs) and every
    number derived are Fractions, else floats. ``incentives[i][b, a']`` is
    :func:`~rmviz.solvers.matrix.metrics.incentive_matrix`.
    """

    game: NormalFormGame
    joint: np.ndarray
    table: np.ndarray
    exact: bool
    total: Number
    incentives: tuple[np.ndarray, ...]
    payoffs: tuple[Number, ...]

    @cached_property
    def ce_constraints(self) -> tuple[Constraint, ...]:
        """Per player, recommendation ``b`` and deviation ``a' != b`` (the lecture's cases)."""
        return tuple(
            Constraint("CE", i, a, _scalar(m[b, a]), recommended=b)
            for i, m in enumerate(self.incentives)
            for b in range(m.shape[0])
            for a in range(m.shape[1])
            if a != b
        )

    @cached_property
    def cce_constraints(self) -> tuple[Constraint, ...]:
        """Per player and deviation ``a'``: ``sum_b m[b, a']``."""
        return tuple(
            Constraint("CCE", i, a, _sum(m[:, a]), recommended=None)
            for i, m in enumerate(self.incentives)
            for a in range(m.shape[1])
        )

    @property
    def ce_gap(self) -> Number:
        """The largest CE left-hand side, 0 when every one holds (``metrics.ce_gap``)."""
        return max([self._zero, *(c.value for c in self.ce_constraints)])

    @property
    def cce_gap(self) -> Number:
        """The largest CCE left-hand side, 0 when every one holds (``metrics.cce_gap``)."""
        return max([self._zero, *(c.value for c in self.cce_constraints)])

    @property
    def is_ce(self) -> bool:
        return all(c.holds for c in self.ce_constraints)

    @property
    def is_cce(self) -> bool:
        return all(c.holds for c in self.cce_constraints)

    @property
    def welfare(self) -> Number:
        """``sum_i u_i(p)``: the players' expected payoffs summed."""
        return sum(self.payoffs, self._zero)

    @property
    def _zero(self) -> Number:
        return Fraction(0) if self.exact else 0.0

    @cached_property
    def support(self) -> np.ndarray:
        """The profiles of positive probability, shape ``(m, n_players)``, in table order."""
        return np.argwhere(self.joint != 0)

    def terms(self, constraint: Constraint, limit: int | None = None) -> tuple[list[Term], int]:
        """The first ``limit`` (default all) terms of ``constraint``'s sum with non-zero
        probability, in table order, and how many there are in all."""
        i, support = constraint.player, self.support
        if constraint.recommended is not None:
            support = support[support[:, i] == constraint.recommended]
        terms = []
        for profile in support[:limit]:
            s = tuple(int(a) for a in profile)
            deviated = (*s[:i], constraint.deviation, *s[i + 1 :])
            terms.append(Term(s, self.joint[s], self.table[(i, *deviated)], self.table[(i, *s)]))
        return terms, len(support)

    def expansion(self, constraint: Constraint, limit: int = 6, times: str = "*") -> str:
        """The sum written out as the lecture does: ``2/9*(0 - 10) + 4/9*(7 - 2)``, at most
        ``limit`` terms and a count of the rest; ``0`` when every term has probability 0."""
        terms, count = self.terms(constraint, limit)
        if not terms:
            return "0"
        shown = " + ".join(
            f"{format_number(t.probability)}{times}"
            f"({format_number(t.deviation_payoff)} - {format_number(t.payoff)})"
            for t in terms
        )
        return shown + (f" + ... ({count - limit} more terms)" if count > limit else "")

    def as_dict(self) -> dict[str, Any]:
        """The check as JSON-ready data: numbers as floats, with ``exact`` strings when exact."""
        names = self.game.action_names

        def value(x: Number) -> dict[str, Any]:
            return {"value": float(x), "exact": str(x) if self.exact else None}

        def constraint(c: Constraint) -> dict[str, Any]:
            return {
                "kind": c.kind,
                "player": self.game.player_names[c.player],
                "recommended": names[c.player][c.recommended] if c.recommended is not None else None,
                "deviation": names[c.player][c.deviation],
                "holds": c.holds,
                **value(c.value),
                "expansion": self.expansion(c, limit=self.joint.size),
            }

        return {
            "exact": self.exact,
            "joint": [value(p) for p in self.joint.ravel()],
            "sum_of_entries": value(self.total),
            "ce_gap": value(self.ce_gap),
            "cce_gap": value(self.cce_gap),
            "is_ce": self.is_ce,
            "is_cce": self.is_cce,
            "payoffs": [value(u) for u in self.payoffs],
            "welfare": value(self.welfare),
            "ce_constraints": [constraint(c) for c in self.ce_constraints],
            "cce_constraints": [constraint(c) for c in self.cce_constraints],
        }


def _scalar(x: Any) -> Number:
    return x if isinstance(x, Fraction) else float(x)


def _sum(values: np.ndarray) -> Number:
    return _scalar(values.sum())


def exact_size(game: NormalFormGame) -> bool:
    """Whether :func:`check_joint` computes exactly (see :data:`EXACT_MAX_TERMS`)."""
    return math.prod(game.num_actions) * sum(game.num_actions) <= EXACT_MAX_TERMS


def check_joint(
    game: NormalFormGame, joint: Sequence[Any] | np.ndarray, exact: bool | None = None
) -> JointCheck:
    """Every CE and CCE constraint of ``joint`` in ``game``.

    ``joint``: one non-negative number per action profile in table order (the first player's
    action slowest, as ``np.ravel`` orders the payoff table), or an array of the game's
    action shape: Fractions, integers, decimals or floats. The entries are divided by their
    sum, so weights (``2, 4, 1, 2``) work too; ``total`` says what they summed to. ``exact``
    (default: when the game is small enough, :func:`exact_size`) computes in Fractions, floats
    becoming :func:`rational`.
    """
    check_size(game, MAX_PROFILES, "the CE checker")
    shape = game.num_actions
    entries = list(np.asarray(joint, dtype=object).ravel()) if isinstance(joint, np.ndarray) else list(joint)
    if len(entries) != math.prod(shape):
        raise ConfigError(
            f"a joint distribution of this {game.shape_label} game has {math.prod(shape)} entries, "
            f"one per action profile in table order; got {len(entries)}"
        )
    exact = exact_size(game) if exact is None else exact
    values: list[Number] = []
    for k, entry in enumerate(entries):
        number = _entry(entry, k + 1, exact)
        if number < 0:
            profile = np.unravel_index(k, shape)
            raise ConfigError(
                f"entry {k + 1} {profile_label(game, profile)} is {format_number(number)}: "
                "probabilities cannot be negative"
            )
        values.append(number)
    total: Number = Fraction(0) if exact else 0.0
    for value in values:
        total += value
    if not total > 0:
        raise ConfigError("the joint distribution is all zeros: give some profile a positive probability")
    if exact:
        p = np.empty(len(values), dtype=object)
        p[:] = [v / total for v in values]
        table = exact_array(game.payoffs)
        integers, d_u = common_denominator(table)
        weights, d_p = common_denominator(p.reshape(shape))
        d = d_u * d_p  # every sum below is an integer over d
        incentives = tuple(fractions_of(incentive_matrix(integers, weights, i), d) for i in range(len(shape)))
        exact_payoffs: tuple[Number, ...] = tuple(
            Fraction(int((integers[i] * weights).sum()), d) for i in range(len(shape))
        )
        return JointCheck(game, p.reshape(shape), table, True, total, incentives, exact_payoffs)
    p_float = np.asarray(values, dtype=np.float64) / float(total)
    joint_array = p_float.reshape(shape)
    incentives = tuple(incentive_matrix(game.payoffs, joint_array, i) for i in range(len(shape)))
    payoffs: tuple[Number, ...] = tuple(
        float((game.payoffs[i] * joint_array).sum()) for i in range(len(shape))
    )
    return JointCheck(game, joint_array, game.payoffs, False, float(total), incentives, payoffs)


def _entry(entry: Any, position: int, exact: bool) -> Number:
    if isinstance(entry, str):
        number: Number = parse_number(entry, f"entry {position}")
    elif isinstance(entry, Fraction | int | np.integer):
        number = Fraction(entry) if isinstance(entry, Fraction) else Fraction(int(entry))
    else:
        try:
            number = float(entry)
        except (TypeError, ValueError):
            raise ConfigError(f"entry {position} ({str(entry)[:20]!r}) is not a number") from None
        if not math.isfinite(number):
            raise ConfigError(f"entry {position} is {number}: probabilities must be finite numbers")
        if exact:
            number = rational(number)
    return number if exact else float(number)


# -- the welfare-maximising CE and CCE ---------------------------------------------------------
@dataclass(frozen=True)
class CorrelatedOptimum:
    """A welfare-maximising ``kind`` ("CE" or "CCE") of a game, from the LP.

    ``check`` is the checker's verdict on the joint shown: a nearby joint of small
    denominators (:data:`~rmviz.solvers.rational.RATIONAL_DENOMINATORS`) when one satisfies
    every constraint exactly with the LP's welfare (``exact``), else HiGHS's float vertex
    itself, whose constraints hold to HiGHS's tolerance (about 1e-9 of the payoffs).
    ``lp_welfare`` is the LP's optimum as a float; ``seconds`` the time taken.
    """

    kind: Kind
    lp_welfare: float
    check: JointCheck
    seconds: float

    @property
    def exact(self) -> bool:
        """Whether the joint shown is rational and satisfies every constraint exactly."""
        return self.check.exact and (self.check.is_ce if self.kind == "CE" else self.check.is_cce)

    @property
    def joint(self) -> np.ndarray:
        """The joint shown (the game's action shape; Fractions when ``exact``)."""
        return self.check.joint

    @property
    def welfare(self) -> Number:
        """The joint's welfare: exact when ``exact``, else the LP's optimum."""
        return self.check.welfare if self.exact else self.lp_welfare


def constraint_matrix(payoffs: np.ndarray, kind: Kind) -> coo_matrix:
    """The LP's ``A`` with ``A p <= 0`` exactly the ``kind`` constraints: rows per player and
    (recommendation ``b``, deviation ``a' != b``) for CE, per player and ``a'`` for CCE;
    columns the profiles in table order; entries ``u_i(a', s_-i) - u_i(s)`` (``payoffs``:
    the game's tensor, shape ``(n, |A_0|, ..., |A_{n-1}|)``)."""
    from scipy.sparse import coo_matrix  # SciPy (~0.3 s of CPU to import) when an LP is built

    shape = payoffs.shape[1:]
    profiles = np.arange(math.prod(shape)).reshape(shape)
    rows, columns, values = [], [], []
    offset = 0
    for i, k in enumerate(shape):
        gains = deviation_gains(payoffs, i).reshape(k, -1)  # [a', s]
        own = np.indices(shape)[i].ravel()  # s_i of each profile
        for a in range(k):
            keep = (own != a) & (gains[a] != 0)  # the a' = s_i terms are 0
            s = profiles.ravel()[keep]
            if kind == "CE":  # row of (b = s_i, a'), a' != b numbered 0..k-2
                rows.append(offset + own[keep] * (k - 1) + np.where(a < own[keep], a, a - 1))
            else:
                rows.append(np.full(s.size, offset + a))
            columns.append(s)
            values.append(gains[a][keep])
        offset += k * (k - 1) if kind == "CE" else k
    return coo_matrix(
        (np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))),
        shape=(offset, profiles.size),
    )


def best_correlated(game: NormalFormGame, kind: Kind) -> CorrelatedOptimum:
    """A welfare-maximising CE or CCE: ``max_p sum_s p(s) sum_i u_i(s)`` subject to the
    ``kind`` constraints (:func:`constraint_matrix`), ``sum_s p(s) = 1``, ``p >= 0``.

    Payoffs are divided by their largest magnitude first (the same optimum, numbers HiGHS
    handles well whatever the unit).
    """
    from scipy.optimize import linprog

    if kind not in ("CE", "CCE"):
        raise ValueError(f"kind must be 'CE' or 'CCE', not {kind!r}")
    check_size(game, LP_MAX_PROFILES, f"the best-{kind} linear programme")
    started = time.perf_counter()
    scale = float(np.abs(game.payoffs).max()) or 1.0
    scaled = game.payoffs / scale
    welfare = scaled.sum(axis=0).ravel()
    upper = constraint_matrix(scaled, kind).tocsr()
    result = linprog(
        -welfare,
        A_ub=upper if upper.shape[0] else None,
        b_ub=np.zeros(upper.shape[0]) if upper.shape[0] else None,
        A_eq=np.ones((1, welfare.size)),
        b_eq=[1.0],
        bounds=(0, None),
        method="highs",
    )
    if result.status != 0:
        raise RmvizError(f"the best-{kind} linear programme failed: {result.message}")
    joint = np.maximum(result.x, 0.0)
    joint = (joint / joint.sum()).reshape(game.num_actions)
    optimum = -float(result.fun) * scale + 0.0  # no -0
    check = _verified(game, joint, kind, optimum)
    return CorrelatedOptimum(kind, optimum, check, time.perf_counter() - started)


def _verified(game: NormalFormGame, joint: np.ndarray, kind: Kind, welfare: float) -> JointCheck:
    """The check of a small-denominator joint near ``joint`` that is a ``kind`` exactly with
    the LP's welfare (to HiGHS's tolerance, 1e-7 of the payoffs), else of ``joint`` itself in
    floats. Candidates pass a float check (gap below 1e-11 of the payoffs, what rounding
    leaves of an exact 0) before the exact one."""
    floats = check_joint(game, joint, exact=False)
    if not exact_size(game):
        return floats
    scale = max(1.0, float(np.abs(game.payoffs).max()))
    tolerance = 1e-7 * scale * game.n_players
    for denominator in RATIONAL_DENOMINATORS:
        candidate = simplest_near(joint, denominator)
        if sum(candidate.ravel()) == 0:
            continue
        rough = check_joint(game, candidate.astype(np.float64), exact=False)
        gap = rough.ce_gap if kind == "CE" else rough.cce_gap
        if gap > 1e-11 * scale or float(rough.welfare) < welfare - tolerance:
            continue
        check = check_joint(game, candidate, exact=True)
        if (check.is_ce if kind == "CE" else check.is_cce) and float(check.welfare) >= welfare - tolerance:
            return check
    return floats
