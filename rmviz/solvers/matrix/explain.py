"""One iteration of matrix-game regret minimisation, number by number (step mode;
:mod:`rmviz.present.step_text` writes it out).

:func:`explain_next` reads a :class:`~.solver.RegretMinimizer`'s state at iteration t-1 and
computes, without changing it, what iteration t does for every player (in payoff units):

1. the utility of each action against the others' current strategies (expected play) or
   against their drawn actions (sampled play), ``U_i(a) = u_i(a, pi_-i^t)`` or
   ``u_i(a, a_-i^t)``, and the realised payoff ``u_i^t = sum_a pi_i^t(a) U_i(a)`` or
   ``U_i(a_i^t)``;
2. the instantaneous regret: external ``r_i^t(a) = U_i(a) - u_i^t`` (the CFR lecture's
   one-time regret; Hart & Mas-Colell 2000, section 2) or internal (swap)
   ``r_i^t(b, a) = pi_i^t(b) (U_i(a) - U_i(b))``, sampled ``1[b = a_i^t] (U_i(a) - u_i^t)``
   (Hart & Mas-Colell 2000, eq. 2.1);
3. the iteration's weights: regret discounts ``d_+``, ``d_-`` and coefficient ``c`` (uniform:
   1, 1, 1; linear: ``(t-1)/t``; discounted: ``s^alpha/(s^alpha+1)``, ``s^beta/(s^beta+1)``,
   s = t-1, Brown & Sandholm 2019); greedy weights choose ``lam`` minimising the potential
   ``sum [lam x + (1 - lam) r]_+^2`` of the new average regret (``x`` the average regret so
   far), and then ``d = lam``, ``c = (1 - lam) W`` (Zhang, Lerer & Brown 2022, Algorithm 1);
4. the cumulative (guiding) regret ``R_i^t = d_+ [R_i^{t-1}]_+ + d_- [R_i^{t-1}]_- + c r_i^t``,
   clipped at 0 for RM+ (``R_i^t = [R_i^{t-1} + r_i^t]_+``, Tammelin 2014);
5. the regret-matched next strategy ``pi_i^{t+1}(a) = [G(a)]_+ / sum_b [G(b)]_+`` (uniform when
   nothing is positive) of ``G = R_i^t``, or ``G = R_i^t + m_i^t`` with the prediction
   ``m_i^t = c r_i^t`` for predictive RM+ (Farina, Kroer & Sandholm 2021); internal RM plays
   the stationary distribution of the chain with rates ``[R_i^t(b, a)]_+`` (expected play) or,
   sampled, switches from ``a_i^t`` to ``a`` with probability ``[R(a_i^t, a)]_+ / (mu + sum_c
   [R(a_i^t, c)]_+)`` and stays with ``mu / (mu + ...)`` (inertia ``mu``; Hart & Mas-Colell 2000);
6. the average strategy ``S_i^t / sum S_i^t`` with ``S_i^t = d_avg S_i^{t-1} + c_avg pi_i^t``
   (sampled play: the indicator of the action played; RM+ and predictive RM+ average with
   weight t, Tammelin 2014).

With alternating updates a later player's utilities and regrets are those against the
earlier players' already-updated strategies (Tammelin 2014), while the average records the
profile played at the start of the iteration. ``tests/solvers/matrix/test_explain.py``
checks every preset against a plain NumPy computation and against the solver's own step.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from rmviz.solvers.matrix.script import Profile, advance, following
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.regret_matching import (
    conditional_regret_matching,
    instantaneous_regrets,
    next_strategy,
    rate_at,
    snap_cancellation,
)
from rmviz.solvers.stationary import internal_strategy
from rmviz.solvers.weighting import Step, greedy_bounds, greedy_step, inertia_at


@dataclass(frozen=True)
class PlayerStep:
    """What iteration t did for one player (arrays are NumPy, in payoff units).

    ``regret``, ``cumulative_before``, ``cumulative_after``, ``guide`` have shape ``(k,)`` for
    external regret and ``(k, k)`` (rows: the action played, columns: the swap) for internal.
    A fixed player (``learning=False``) keeps its strategy; its regrets stay 0.
    """

    name: str
    actions: tuple[str, ...]
    learning: bool
    strategy: np.ndarray  # pi_i^t, the strategy played
    action: int | None  # a_i^t drawn in sampled play
    utilities: np.ndarray  # U_i(a)
    value: float  # u_i^t, the realised payoff
    regret: np.ndarray  # r_i^t, instantaneous
    cumulative_before: np.ndarray  # R_i^{t-1}
    cumulative_after: np.ndarray  # R_i^t
    guide: np.ndarray  # what regret matching reads: R_i^t (+ m_i^t, predictive)
    next_strategy: np.ndarray  # pi_i^{t+1}
    rate: float | None  # FTRL's eta_{t+1} per payoff unit of the guide (None: other rules)
    average: np.ndarray  # the average strategy after iteration t

    def as_dict(self) -> dict[str, Any]:
        return {
            key: value.tolist() if isinstance(value, np.ndarray) else value
            for key, value in self.__dict__.items()
        }


@dataclass(frozen=True)
class IterationStep:
    """Iteration ``t`` of ``algorithm`` for every player, with the iteration's weights.

    ``lam`` is the greedy weight (history scaled by ``lam``, the new iterate's share of the
    average ``1 - lam``), ``lam_uniform`` the uniform weight's ``(t-1)/t`` and ``potential`` /
    ``potential_uniform`` the potential ``sum [lam x + (1-lam) r]_+^2`` at both (the reason
    for the choice); ``inertia`` the inertia of sampled internal RM at t.
    """

    iteration: int
    algorithm: str
    regret_kind: str  # "external" or "internal"
    play: str  # "expected" or "sampled"
    updates: str
    rule: str  # "regret-matching", "ftrl" or "best-response"
    regulariser: str  # of FTRL
    plus: bool
    predictive: bool
    weighting: str
    averaging: str
    d_pos: float
    d_neg: float
    c: float
    d_avg: float
    c_avg: float
    lam: float | None
    lam_uniform: float | None
    potential: float | None
    potential_uniform: float | None
    inertia: float | None
    players: tuple[PlayerStep, ...]

    def as_dict(self) -> dict[str, Any]:
        out = {key: value for key, value in self.__dict__.items() if key != "players"}
        out["players"] = [player.as_dict() for player in self.players]
        return out


def _host(solver: RegretMinimizer, arrays: Any) -> list[np.ndarray]:
    return [np.array(solver.backend.to_host(a), dtype=np.float64) for a in arrays]


def _draw(strategies: list[np.ndarray], draws: np.ndarray) -> list[int]:
    """The solver's sampling rule: ``a_j = searchsorted(cumsum(pi_j), u_j sum pi_j, "right")``."""
    actions = []
    for strategy, u in zip(strategies, draws, strict=True):
        cdf = np.cumsum(strategy)
        actions.append(int(min(np.searchsorted(cdf, u * cdf[-1], side="right"), strategy.shape[0] - 1)))
    return actions


def explain_next(solver: RegretMinimizer) -> IterationStep:
    """What ``solver.step(1)`` will do, number by number (see the module docstring); the
    solver is not changed. CPU solvers only (the draws of sampled play are predicted from a
    copy of the solver's NumPy generator)."""
    config, game, state = solver.config, solver.game, solver.state
    scale = solver.scale
    n = game.n_players
    t = solver.iteration + 1
    internal = config.regret == "internal"
    sampled = config.play == "sampled"
    payoffs = np.asarray(solver.backend.to_host(solver.payoffs), dtype=np.float64)  # payoffs / scale
    current = _host(solver, state.current)
    regret_before = _host(solver, state.regret)
    strategy_sum = _host(solver, state.strategy_sum)
    weight_sum = float(state.weight_sum)
    learners = list(solver.learners)

    draws: np.ndarray | None = None
    if sampled:
        evaluations = len(learners) if config.updates == "alternating" else 1
        draws = np.asarray(copy.deepcopy(state.rng).random((1, evaluations, n)))[0]

    def evaluate(
        profile: list[np.ndarray], row: int
    ) -> tuple[list[np.ndarray], list[float], list[int] | None]:
        if draws is None:
            utilities = [_expected(payoffs[i], profile, i) for i in range(n)]
            return utilities, [float(u @ profile[i]) for i, u in enumerate(utilities)], None
        actions = _draw(profile, draws[row])
        utilities = [_pure(payoffs[i], actions, i) for i in range(n)]
        return utilities, [float(u[actions[i]]) for i, u in enumerate(utilities)], actions

    def instantaneous(
        utilities: np.ndarray, value: float, strategy: np.ndarray, action: int | None, bound: float
    ) -> tuple[np.ndarray, np.ndarray]:
        return instantaneous_regrets(utilities, value, strategy, action, bound, True, np)

    utilities, values, actions = evaluate(current, 0)
    external, swap = zip(
        *(
            instantaneous(
                utilities[i],
                values[i],
                current[i],
                None if actions is None else actions[i],
                solver.tie_bounds[i],
            )
            for i in range(n)
        ),
        strict=True,
    )
    instant = list(swap if internal else external)

    step = solver.schedule.step(t)
    lam = lam_uniform = potential = potential_uniform = None
    if config.weighting == "greedy":
        accumulated = state.internal_regret if internal else state.external_regret
        assert accumulated is not None
        history = np.concatenate(
            [
                (a / max(weight_sum, 1e-300)).ravel()
                for i, a in enumerate(_host(solver, accumulated))
                if i in learners
            ]
        )
        new = np.concatenate([instant[i].ravel() for i in learners])
        greedy, lam_array = greedy_step(history, new, np.asarray(weight_sum), t, solver.greedy_floor, np)
        step = Step(*(float(v) for v in (greedy.d_pos, greedy.d_neg, greedy.c, greedy.d_avg, greedy.c_avg)))
        if t > 1:
            lam = float(lam_array)
            lam_uniform = greedy_bounds(t, solver.greedy_floor)[1]
            potential = _potential(history, new, lam) * scale * scale
            potential_uniform = _potential(history, new, lam_uniform) * scale * scale

    played_utilities = list(utilities)
    played_values = list(values)
    played_actions = None if actions is None else list(actions)
    profile = [s.copy() for s in current]
    regret_after = [r.copy() for r in regret_before]
    guides = [r.copy() for r in regret_before]
    inertia = inertia_at(solver.inertia, t, config.weighting) if (internal and sampled) else None
    rates = [rate_at(base, t + 1, solver.schedule.anytime) for base in solver.rates]
    for k, i in enumerate(learners):
        if config.updates == "alternating" and k > 0:  # against the earlier players' new strategies
            u, v, a = evaluate(profile, k)
            played_utilities[i], played_values[i] = u[i], v[i]
            if a is not None:
                assert played_actions is not None
                played_actions[i] = a[i]
            pair = instantaneous(u[i], v[i], profile[i], None if a is None else a[i], solver.tie_bounds[i])
            instant[i] = pair[1] if internal else pair[0]
        old = regret_before[i]
        kept = np.where(old > 0, step.d_pos * old, step.d_neg * old)
        new_regret = snap_cancellation(kept, step.c * instant[i], np)
        if config.plus:
            new_regret = np.maximum(new_regret, 0.0)
        regret_after[i] = new_regret
        guide = new_regret + step.c * instant[i] if config.predictive else new_regret
        guides[i] = guide
        if not internal:
            profile[i] = next_strategy(solver.schedule.strategy_map, guide, rates[i], np)
        elif not sampled:
            profile[i] = internal_strategy(guide, np)
        else:
            assert played_actions is not None and inertia is not None
            profile[i] = conditional_regret_matching(guide, played_actions[i], inertia, np)

    players = []
    for i in range(n):
        played = current[i] if actions is None else np.eye(current[i].shape[0])[actions[i]]
        total = step.d_avg * strategy_sum[i] + step.c_avg * played
        if i in solver.fixed:
            average = current[i]
        else:
            average = total / total.sum() if total.sum() > 0 else np.full(total.shape, 1.0 / total.shape[0])
        learning = i in learners
        players.append(
            PlayerStep(
                name=game.player_names[i],
                actions=tuple(game.action_names[i]),
                learning=learning,
                strategy=current[i],
                action=None if played_actions is None else played_actions[i],
                utilities=played_utilities[i] * scale,
                value=played_values[i] * scale,
                regret=instant[i] * scale,
                cumulative_before=regret_before[i] * scale,
                cumulative_after=regret_after[i] * scale,
                guide=guides[i] * scale,
                next_strategy=profile[i],
                rate=rates[i] / scale if config.rule == "ftrl" else None,
                average=average,
            )
        )
    return IterationStep(
        iteration=t,
        algorithm=config.algorithm,
        regret_kind=config.regret,
        play=config.play,
        updates=config.updates,
        rule=config.rule,
        regulariser=config.regulariser,
        plus=config.plus,
        predictive=config.predictive,
        weighting=config.weighting,
        averaging=config.averaging or config.weighting,
        d_pos=float(step.d_pos),
        d_neg=float(step.d_neg),
        c=float(step.c),
        d_avg=float(step.d_avg),
        c_avg=float(step.c_avg),
        lam=lam,
        lam_uniform=lam_uniform,
        potential=potential,
        potential_uniform=potential_uniform,
        inertia=None if inertia is None else inertia * scale,
        players=tuple(players),
    )


def step_explained(solver: RegretMinimizer, actions: Profile | None = None) -> IterationStep:
    """Explain the next iteration and run it; ``actions``: the profile sampled play must draw
    (0-based, ``None`` for a player who draws; :mod:`.script`). Returns the explanation."""
    with following(solver, actions):
        explained = explain_next(solver)
        solver.step(1)
    return explained


class Replay:
    """Iteration t of a run, explained without touching the run's solver: a private CPU solver
    of the same game and config (so the same seed and draws) is stepped to t - 1, following
    the run's ``script`` (``{iteration: profile}``, :mod:`.script`), and :func:`explain_next`
    read from it. Stepping on from the last iteration explained costs one iteration; going
    back replays from the start."""

    def __init__(self, game: Any, config: Any, script: Mapping[int, Profile] | None = None) -> None:
        self.solver = RegretMinimizer(game, config.with_(device="cpu"))
        self.script = dict(script or {})

    def explain(self, iteration: int) -> IterationStep:
        """The numbers of iteration ``iteration`` (>= 1)."""
        if self.solver.iteration > iteration - 1:
            self.solver.reset()
        advance(self.solver, iteration - 1, self.script)
        with following(self.solver, self.script.get(iteration)):
            return explain_next(self.solver)


def _expected(payoff: np.ndarray, profile: list[np.ndarray], i: int) -> np.ndarray:
    """``U_i(a) = u_i(a, pi_-i)``: the others' axes contracted with their strategies."""
    tensor = payoff
    for j in reversed(range(len(profile))):
        if j != i:
            tensor = np.tensordot(tensor, profile[j], axes=([j], [0]))
    return np.asarray(tensor)


def _pure(payoff: np.ndarray, actions: list[int], i: int) -> np.ndarray:
    """``U_i(a) = u_i(a, a_-i)``."""
    index = tuple(slice(None) if j == i else a for j, a in enumerate(actions))
    return np.array(payoff[index], dtype=np.float64)


def _potential(history: np.ndarray, new: np.ndarray, lam: float) -> float:
    """``sum [lam x + (1 - lam) r]_+^2`` (Zhang, Lerer & Brown 2022)."""
    return float(np.sum(np.maximum(lam * history + (1 - lam) * new, 0.0) ** 2))
