"""The normal-form solver: regret minimisation in self-play, composed from small pieces.

One iteration t (simultaneous updates; alternating runs the evaluation and the regret update
once per player in turn, each against the others' newest strategies):

1. each player plays its current strategy pi_i^t (expected play) or samples a_i ~ pi_i^t;
2. utilities ``U_i(a) = u_i(a, pi_-i^t)`` (or ``u_i(a, a_-i^t)``) and the realised payoff
   ``u_i`` give the instantaneous regrets: external ``r_i(a) = U_i(a) - u_i``; internal
   ``r_i(b, a) = pi_i(b) (U_i(a) - U_i(b))`` (or ``1[b = a_i] (U_i(a) - u_i)`` sampled);
3. the weighting gives ``Step(d_pos, d_neg, c, d_avg, c_avg)``; greedy weights choose it from
   the new regrets;
4. guiding regrets ``R_i <- d R_i + c r_i`` (clipped at 0 for RM+), averages
   ``S_i <- d_avg S_i + c_avg pi_i``, and the averaging-weighted *true* regrets that the
   metrics read: the CCE gap of the weighted empirical joint distribution is exactly
   ``max_i max_a Rbar_i(a) / W`` and its CE gap ``max_i max_{b,a} Rbar^int_i(b, a) / W``
   (in two-player expected play, off the joint);
5. regret matching (or Hedge, Euclidean FTRL, the best response: ``config.rule``) turns the
   guiding regrets into pi_i^{t+1}.

``step(n)`` runs on the device without host synchronisation; on the CPU, two-player
expected play and all sampled play run in compiled kernels (:mod:`.kernels`) that produce
the same iterates (``rmviz solve``'s short runs: the array code, :data:`~rmviz.solvers.jit.SHORT_RUN`),
and on the GPU two-player expected play with external regrets and a fixed schedule runs in
CUDA kernels (:mod:`.device`). ``snapshot()`` is the one host copy.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.backend import AUTO_GPU_MIN_ENTRIES, get_backend
from rmviz.solvers.checkpoint import Checkpoint, capture
from rmviz.solvers.checkpoint import restore as restore_state
from rmviz.solvers.columns import STRATEGY_QUANTITIES, Column, metric_columns
from rmviz.solvers.config_record import config_record
from rmviz.solvers.jit import short_run
from rmviz.solvers.matrix import device, kernels
from rmviz.solvers.matrix.config import MatrixConfig
from rmviz.solvers.matrix.joint import buffers as joint_buffers
from rmviz.solvers.matrix.joint import weighted_joint
from rmviz.solvers.matrix.metrics import (
    LAST_METRICS,
    ORDERED_MAX_ENTRIES,
    MatrixMetrics,
    expected_utilities,
    expected_value,
    joint_incentives,
    last_iterate,
    nash_conv,
    regret_bound,
)
from rmviz.solvers.matrix.start import default_start_note, validated_fixed, validated_start
from rmviz.solvers.matrix.state import MatrixState
from rmviz.solvers.metrics import potential
from rmviz.solvers.regret_matching import (
    base_rate,
    conditional_regret_matching,
    instantaneous_regrets,
    next_strategy,
    rate_at,
    snap_cancellation,
)
from rmviz.solvers.scale import largest_payoff, payoff_scale, reported_values, zero_sum
from rmviz.solvers.stationary import internal_strategy
from rmviz.solvers.threads import ensure_threads
from rmviz.solvers.weighting import Step, greedy_step, inertia_at

# In expected play the joint distribution costs |A_0| |A_1| per iteration (and the CE gap,
# read off it in two-player games, |A_0| |A_1| (|A_0| + |A_1|) per metrics evaluation; an
# accumulator of |A_i|^2 per player and iteration with more players): as much as the
# matrix-vector products themselves once actions number in the hundreds. They are tracked
# automatically up to these sizes.
CE_TRACKING_MAX_ACTIONS = 64
JOINT_TRACKING_MAX_ENTRIES = 64 * 64
JOINT_REQUEST_MAX_ENTRIES = 100 * 100  # track_joint=True: up to here in expected play
AVERAGE_METRICS = ("exploitability", "nash_conv", "cce_gap", "ce_gap", "eps_bound", "welfare", "potential")
METRICS = AVERAGE_METRICS + tuple(f"last_{name}" for name in LAST_METRICS)  # and the last iterate's


@dataclass(frozen=True)
class MatrixSnapshot:
    """An immutable host copy of a solver's state after ``iteration`` iterations.

    Arrays are NumPy, read-only, and never views of solver state. ``joint`` is the weighted
    empirical joint distribution of play for two-player games (``None`` when not tracked);
    ``metrics`` is ``None`` when the snapshot was taken without them.
    """

    iteration: int
    current_strategy: tuple[np.ndarray, ...]
    average_strategy: tuple[np.ndarray, ...]
    cumulative_regret: tuple[np.ndarray, ...]
    average_regret: tuple[np.ndarray, ...]
    joint: np.ndarray | None
    metrics: MatrixMetrics | None
    seconds: float

    def trace_values(self) -> np.ndarray:
        """The metrics of :data:`METRICS` (NaN where not tracked), then per player and action
        the average strategy, current strategy and average regret (``RegretMinimizer.columns``)."""
        metrics = self.metrics.as_dict() if self.metrics is not None else {}
        head = [math.nan if metrics.get(name) is None else metrics[name] for name in METRICS]
        per_action = [
            np.stack([average, current, regret], axis=1).ravel()
            for average, current, regret in zip(
                self.average_strategy, self.current_strategy, self.average_regret, strict=True
            )
        ]
        return np.concatenate([np.array(head, dtype=np.float64), *per_action])


class RegretMinimizer:
    """Regret minimisation on a :class:`NormalFormGame` (the ``Solver`` protocol).

    Args:
        game: the game.
        config: what to run (see :class:`MatrixConfig` and :data:`PRESETS`).

    Shapes: ``current_strategy[i]``, ``average_strategy[i]``: ``(|A_i|,)``; guiding
    ``cumulative_regret[i]``: ``(|A_i|,)`` external or ``(|A_i|, |A_i|)`` internal.
    """

    last_iterate = True  # metrics include the current profile's distances (cheap: one U_i each)

    def __init__(self, game: NormalFormGame, config: MatrixConfig | None = None) -> None:
        self.game = game
        self.config = config = (config or MatrixConfig()).validated()
        ensure_threads()  # BLAS pools loaded since the count was set obey it too
        # "auto" takes the GPU for large games its CUDA kernels run (device.supports); the
        # generic array code there is launch-bound (~100-900 iterations/s, docs/performance.md)
        large = device.supports(config, game.n_players) and game.payoffs.size >= AUTO_GPU_MIN_ENTRIES
        self.backend = get_backend(config.device, large)
        self.fixed = validated_fixed(game, config.fixed_strategies)
        self.learners = [i for i in range(game.n_players) if i not in self.fixed]
        self.start = validated_start(game, config.start, self.fixed)
        xp = self.backend.xp
        # iterations run on payoffs / scale (a power of two, :mod:`rmviz.solvers.scale`);
        # metrics and regrets are multiplied back
        self.scale = payoff_scale(game.payoffs)
        # (the game's own read-only array when the scale is 1: no second copy of a large game)
        payoffs = game.payoffs / self.scale if self.scale != 1.0 else game.payoffs
        self.payoffs = self.backend.asarray(payoffs)
        self.largest_payoff = largest_payoff(payoffs)
        self.tie_bounds = tuple(float(b) for b in kernels.tie_bounds(np.asarray(payoffs)))
        n, shape = game.n_players, game.num_actions
        strides = np.cumprod((1, *shape[::-1]))[:-1][::-1]  # element strides of one tensor
        self._flat = [self.payoffs[i].reshape(-1) for i in range(n)]
        self._offsets = [xp.arange(shape[i]) * int(strides[i]) for i in range(n)]
        self._strides = [int(s) for s in strides]
        internal = config.regret == "internal"
        cheap = config.play == "sampled" or max(shape) <= CE_TRACKING_MAX_ACTIONS
        self.track_ce = internal or (cheap if config.track_ce is None else config.track_ce)
        # two-player expected play reads its CE gap off the joint (metrics.joint_incentives):
        # |A_0| |A_1| per iteration, where an accumulator per player costs |A_i|^2 each
        self.ce_from_joint = n == 2 and config.play == "expected" and not internal and self.track_ce
        entries = shape[0] * shape[1] if n == 2 else 0
        limit = JOINT_REQUEST_MAX_ENTRIES if config.track_joint else JOINT_TRACKING_MAX_ENTRIES
        wanted = config.track_joint is not False and (config.play == "sampled" or entries <= limit)
        self.track_joint = n == 2 and (wanted or self.ce_from_joint)
        floor = config.greedy_floor
        if floor is None:
            floor = 0.5 if (n == 2 and zero_sum(payoffs) and not internal) else 0.0
        self.greedy_floor = floor
        # the inertia is given in payoff units; the default scales with the game (a constant
        # game has no regrets: any inertia will do), and the iterations see inertia / scale
        inertia = config.inertia
        if inertia is None:
            inertia = 0.1 * game.payoff_range if game.payoff_range > 0 else 1.0
        self.inertia = inertia / self.scale
        # FTRL's learning rate per unit of each player's regrets (the scaled payoffs' range)
        self.rates = tuple(
            base_rate(config.regulariser, config.step_size, k, float(np.ptp(payoffs[i])))
            for i, k in enumerate(shape)
        )
        # what every path reads of the config, built once (the kernels, the GPU, _iterate)
        self.schedule = kernels.Schedule.of(config, self.greedy_floor, self.inertia)
        self._kernel: Any = (
            device.kernel_for(
                xp, payoffs, config, self.schedule, self.learners, self._accumulates_ce, self.track_joint
            )
            if self.backend.is_gpu
            else kernels.kernel_for(game, payoffs, config, self.learners, self.schedule, self.rates)
        )
        # the compiled kernel buffers the joint's terms where its products are single-pass ones
        # (above the summation rule's size, or float32 payoffs: joint.py)
        self.buffers_joint = (
            self.track_joint
            and isinstance(self._kernel, kernels.BimatrixExpectedKernel)
            and self._kernel.fused
        )
        # True when iterations run in a numba kernel without the GIL (the GUI's worker
        # thread then need not step aside while the window repaints)
        self.releases_gil = self._kernel is not None
        # the array code plays the kernel's floats here (the summation rule), so `rmviz
        # solve` without numba runs its first jit.SHORT_RUN iterations in it (jit.short_run);
        # internal RM's array code calls a kernel itself
        self.array_twin = (
            self._kernel is not None
            and not self.backend.is_gpu  # (the CUDA kernels agree to rounding, not bit for bit)
            and config.dtype == "float64"
            and config.regret == "external"
            and game.payoffs[0].size <= ORDERED_MAX_ENTRIES
        )
        self.columns = metric_columns(METRICS) + tuple(
            Column(quantity, player=i, action=a)
            for i, k in enumerate(shape)
            for a in range(k)
            for quantity in STRATEGY_QUANTITIES
        )
        self.reset(config.seed)

    def column_name(self, column: Column) -> str:
        """``average[Player 1][Rock]``; metrics by their names."""
        if column.player is None or column.action is None:
            return column.quantity
        names = self.game.action_names[column.player]
        return f"{column.quantity}[{self.game.player_names[column.player]}][{names[column.action]}]"

    # -- Solver protocol -----------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Back to iteration 0 (the starting strategies, zero regrets), reseeding the sampler."""
        xp = self.backend.xp
        self.seed = self.config.seed if seed is None else int(seed)
        self.elapsed = 0.0
        shape = self.game.num_actions
        internal = self.config.regret == "internal"
        regret = [xp.zeros((k, k) if internal else k) for k in shape]
        self.state = MatrixState(
            iteration=0,
            rng=xp.random.default_rng(self.seed),
            current=[self.backend.asarray(self.start[i].copy()) for i in range(len(shape))],
            regret=regret,
            prediction=[xp.zeros_like(r) for r in regret],
            strategy_sum=[xp.zeros(k) for k in shape],
            external_regret=[xp.zeros(k) for k in shape],
            internal_regret=[xp.zeros((k, k)) for k in shape] if self._accumulates_ce else None,
            payoff_sum=xp.zeros(self.game.n_players),
            weight_sum=xp.zeros(()),
            joint=xp.zeros(shape[:2]) if self.track_joint else None,
            last_lambda=xp.zeros(()),
            joint_terms=list(joint_buffers(*shape)) if self.buffers_joint else None,
        )

    @cached_property
    def _host_payoffs(self) -> np.ndarray:
        """The payoffs the iterations run on, on the host (the GPU's copied once)."""
        return np.asarray(self.backend.to_host(self.payoffs))

    @property
    def _accumulates_ce(self) -> bool:
        """Whether the state keeps each player's internal-regret accumulator (the CE gap
        when it is not read off the joint; internal RM's regrets)."""
        return self.track_ce and not self.ce_from_joint

    @property
    def iteration(self) -> int:
        """Iterations run since the last reset."""
        return self.state.iteration

    def step(self, iterations: int = 1) -> None:
        """Run ``iterations`` iterations (no host synchronisation on the GPU)."""
        start = time.perf_counter()
        if self._kernel is not None and not (self.array_twin and short_run(iterations)):
            self._kernel.run(self.state, iterations)
        else:
            for _ in range(iterations):
                self._iterate()
        self.elapsed += time.perf_counter() - start

    def checkpoint(self) -> Checkpoint:
        """The whole state, to go on from exactly (:mod:`rmviz.solvers.checkpoint`)."""
        return capture(self.state, self.seed, self.elapsed, self.backend.to_host)

    def restore(self, checkpoint: Checkpoint) -> None:
        """Go on from ``checkpoint`` (of a solver of this game and config)."""
        restore_state(self.state, checkpoint, self.backend.asarray)
        self.seed, self.elapsed = checkpoint.seed, checkpoint.elapsed

    def snapshot(self, metrics: bool = True) -> MatrixSnapshot:
        """An immutable host copy of the state, with the equilibrium metrics if asked."""
        host = self.backend.to_host
        weight = float(self.state.weight_sum)
        per_weight = 1.0 / weight if weight > 0 else 0.0
        joint = self._weighted_joint() * per_weight if self.state.joint is not None else None
        return MatrixSnapshot(
            iteration=self.iteration,
            current_strategy=_frozen(host(s) for s in self.state.current),
            average_strategy=_frozen(host(s) for s in self.average_strategy()),
            cumulative_regret=_frozen(host(r) * self.scale for r in self.state.regret),
            average_regret=_frozen(host(r) * (per_weight * self.scale) for r in self.state.external_regret),
            joint=_frozen([joint])[0] if joint is not None else None,
            metrics=self.metrics() if metrics else None,
            seconds=self.elapsed,
        )

    def report(self, snapshot: MatrixSnapshot) -> dict[str, Any]:
        """The family's part of ``rmviz solve --json``: actions, strategies (averages are the
        marginals of ``joint``: in sampled play the weighted frequencies of the actions
        played, in expected play the weighted average of the mixed strategies), the weighted
        empirical joint distribution of two-player games when tracked, device, config."""
        config = self.config
        return {
            "actions": [list(a) for a in self.game.action_names],
            "average_strategy": [s.tolist() for s in snapshot.average_strategy],
            "current_strategy": [s.tolist() for s in snapshot.current_strategy],
            "joint": snapshot.joint.tolist() if snapshot.joint is not None else None,
            "device": self.backend.describe(),
            "config": self.config_record(),
            # where a start nobody chose comes from (a catalog game's): the summary says it
            "start_note": None if config.start is not None else default_start_note(self.game, [*self.fixed]),
        }

    def config_record(self) -> dict[str, Any]:
        """The run's whole configuration as JSON (:mod:`rmviz.solvers.config_record`): the
        start every player began from, the fixed players, the weight floor as resolved."""
        config = self.config
        return config_record(
            config,
            start={i: s for i, s in self.start.items() if i not in self.fixed},  # a fixed one: below
            fixed_strategies=self.fixed,
            greedy_floor=self.greedy_floor if config.weighting == "greedy" else config.greedy_floor,
        )

    # -- quantities ----------------------------------------------------------------------
    def _weighted_joint(self) -> np.ndarray:
        """The weighted joint distribution (not yet divided by ``W``) on the host, with the
        kernel's buffered terms added (:func:`.joint.weighted_joint`; the state unchanged)."""
        if self.state.joint_terms is None:
            return np.asarray(self.backend.to_host(self.state.joint))
        return weighted_joint(self.state.joint, *self.state.joint_terms)

    def average_strategy(self) -> list[Any]:
        """The weighted average strategy of each player (uniform before the first iteration)."""
        averages = []
        for i, total in enumerate(self.state.strategy_sum):
            if i in self.fixed:
                averages.append(self.state.current[i])
                continue
            mass = total.sum()
            k = total.shape[0]
            averages.append(total / mass if float(mass) > 0 else self.backend.xp.full(k, 1.0 / k))
        return averages

    def metrics(self) -> MatrixMetrics:
        """NashConv and exploitability of the average profile, CCE/CE gaps of the empirical
        joint distribution, the regret bound, welfare and potential (see :mod:`.metrics`),
        in payoff units (the potential in squared payoff units); ``last``: the distances of
        the current profile (the last iterate, :func:`.metrics.last_iterate`)."""
        xp, scale = self.backend.xp, self.scale
        last = last_iterate(self.payoffs, self.state.current, scale, xp) if self.last_iterate else None
        weight = float(self.state.weight_sum)
        nc, raw = nash_conv(self.payoffs, self.average_strategy(), xp)
        nc, values = nc * scale, reported_values(raw, self.largest_payoff, scale)
        if weight <= 0:
            return MatrixMetrics(
                nc,
                nc / self.game.n_players,
                0.0,
                0.0 if self.track_ce else None,
                0.0,
                0.0,
                tuple(values),
                0.0,
                last,
            )
        max_external = max(float(r.max()) for r in self.state.external_regret)
        ce = None
        if self.ce_from_joint:
            joint = self._weighted_joint() / weight
            ce = max(0.0, *(float(m.max()) for m in joint_incentives(self._host_payoffs, joint))) * scale
        elif self.state.internal_regret is not None:
            ce = max(0.0, max(float(r.max()) for r in self.state.internal_regret) / weight) * scale
        kind = self.state.internal_regret if self.config.regret == "internal" else self.state.external_regret
        assert kind is not None  # internal regrets are always tracked
        average = potential([kind[i] / weight for i in self.learners], xp)
        return MatrixMetrics(
            nash_conv=nc,
            exploitability=nc / self.game.n_players,
            cce_gap=max(0.0, max_external / weight) * scale,
            ce_gap=ce,
            eps_bound=regret_bound(max_external, weight) * scale,
            # the same rule as the values: a zero-sum game's welfare is 0, not the sums' 1e-18
            welfare=reported_values(
                [float(self.state.payoff_sum.sum()) / weight], self.largest_payoff, scale
            )[0],
            value=tuple(values),
            potential=average * scale * scale,
            last=last,
        )

    # -- one iteration (generic array code) -----------------------------------------------
    def _iterate(self) -> None:
        config = self.config
        t = self.iteration + 1
        step = self.schedule.step(t)
        start = self._evaluate(range(self.game.n_players))
        played = dict(start)
        if config.updates == "simultaneous":
            if config.weighting == "greedy":
                step = self._greedy(played, t)
            for i in self.learners:
                self._update_guiding(i, played[i], step, t)
        else:  # alternating: each learner in turn, against the others' newest strategies
            for k, i in enumerate(self.learners):
                if k > 0:
                    played[i] = self._evaluate([i])[i]
                self._update_guiding(i, played[i], step, t)
        self._accumulate(start, step)
        self.state.iteration = t

    def _evaluate(self, players: Sequence[int]) -> dict[int, Play]:
        """What each of ``players`` gets from the current profile (sampled or expected)."""
        xp, strategies = self.backend.xp, self.state.current
        if self.config.play == "expected":
            out = {}
            for i in players:
                utilities = expected_utilities(self.payoffs[i], strategies, i, xp)
                value = expected_value(utilities, strategies[i], xp)
                out[i] = self._play(utilities, value, strategies[i], None, self.tie_bounds[i])
            return out
        draws = self.state.rng.random(self.game.n_players)
        actions = []
        for j, strategy in enumerate(strategies):
            cdf = xp.cumsum(strategy)
            index = xp.searchsorted(cdf, draws[j] * cdf[-1], side="right")
            actions.append(xp.minimum(index, strategy.shape[0] - 1))
        out = {}
        for i in players:
            base = sum(actions[j] * self._strides[j] for j in range(len(actions)) if j != i)
            utilities = xp.take(self._flat[i], self._offsets[i] + base)
            out[i] = self._play(
                utilities, utilities[actions[i]], strategies[i], actions[i], self.tie_bounds[i]
            )
        return out

    def _play(self, utilities: Any, value: Any, strategy: Any, action: Any, bound: float) -> Play:
        """A :class:`Play` with its external and (when tracked) internal regrets
        (:func:`~rmviz.solvers.regret_matching.instantaneous_regrets`)."""
        tracked = self.state.internal_regret is not None
        external, internal = instantaneous_regrets(
            utilities, value, strategy, action, bound, tracked, self.backend.xp
        )
        return Play(utilities, value, strategy, action, external, internal)

    def _instant(self, play: Play) -> Any:
        """The instantaneous regret of the configured kind."""
        return play.internal if self.config.regret == "internal" else play.external

    def _greedy(self, played: dict[int, Play], t: int) -> Step:
        xp = self.backend.xp
        state = self.state
        accumulated = state.internal_regret if self.config.regret == "internal" else state.external_regret
        assert accumulated is not None  # internal regrets are always tracked
        weight = xp.maximum(state.weight_sum, 1e-300)
        history = xp.concatenate([(accumulated[i] / weight).ravel() for i in self.learners])
        new = xp.concatenate([self._instant(played[i]).ravel() for i in self.learners])
        step, state.last_lambda = greedy_step(history, new, state.weight_sum, t, self.greedy_floor, xp)
        return step

    def _update_guiding(self, i: int, play: Play, step: Step, t: int) -> None:
        """Guiding regrets, prediction and next strategy of learner ``i`` at iteration ``t``."""
        config, xp = self.config, self.backend.xp
        instant = self._instant(play)
        regret = self.state.regret[i]
        kept = xp.where(regret > 0, step.d_pos * regret, step.d_neg * regret)
        regret = snap_cancellation(kept, step.c * instant, xp)
        if config.plus:
            regret = xp.maximum(regret, 0.0)
        self.state.regret[i] = regret
        guide = regret
        if config.predictive:
            self.state.prediction[i] = step.c * instant
            guide = regret + self.state.prediction[i]
        if config.regret == "external":
            rate = rate_at(self.rates[i], t + 1, self.schedule.anytime)
            self.state.current[i] = next_strategy(self.schedule.strategy_map, guide, rate, xp)
        elif play.action is None:
            self.state.current[i] = internal_strategy(guide, xp)
        else:
            inertia = inertia_at(self.inertia, t, config.weighting)
            self.state.current[i] = conditional_regret_matching(guide, play.action, inertia, xp)

    def _accumulate(self, start: dict[int, Play], step: Step) -> None:
        """Averaging-weighted sums of the profile played at the start of the iteration: the
        empirical distribution of play (strategies, joint), its true regrets, its payoffs.

        Each iteration contributes one profile to the empirical distribution: the one played
        at its start (in alternating updates later players update their guiding regrets
        against earlier players' new strategies, but that re-evaluated profile is not
        recorded). In sampled play the contribution is the sampled actions themselves, so
        the average strategy is the weighted empirical frequency of play (Zhang, Lerer &
        Brown 2022, Algorithm 1) and the marginal of the joint. Hence the CCE and CE gaps,
        the welfare and the average strategies all describe the one reported distribution.
        """
        xp = self.backend.xp
        d, c = step.d_avg, step.c_avg
        for i, play in start.items():
            if play.action is None:
                frequency = play.strategy
            else:
                frequency = (xp.arange(play.strategy.shape[0]) == play.action).astype(xp.float64)
            self.state.strategy_sum[i] = d * self.state.strategy_sum[i] + c * frequency
            self.state.external_regret[i] = d * self.state.external_regret[i] + c * play.external
            if self.state.internal_regret is not None:
                self.state.internal_regret[i] = d * self.state.internal_regret[i] + c * play.internal
        values = xp.stack([xp.asarray(start[i].value) for i in range(self.game.n_players)])
        self.state.payoff_sum = d * self.state.payoff_sum + c * values
        terms = self.state.joint_terms
        if terms is not None and terms[2][0] > 0:  # the kernel's buffered terms first (joint.py)
            self.state.joint = self._weighted_joint()
            terms[2][:] = (0.0, 1.0)
        if self.state.joint is not None:
            first, second = start[0], start[1]
            if first.action is None:
                self.state.joint = d * self.state.joint + c * xp.outer(first.strategy, second.strategy)
            else:
                self.state.joint = d * self.state.joint
                self.state.joint[first.action, second.action] += c
        self.state.weight_sum = d * self.state.weight_sum + c


class Play(NamedTuple):
    """What one player got from one profile: ``U_i``, ``u_i``, ``pi_i``, ``a_i`` (None in
    expected play), and the instantaneous external and internal regrets."""

    utilities: Any
    value: Any
    strategy: Any
    action: Any
    external: Any
    internal: Any


def _frozen(arrays: Any) -> tuple[np.ndarray, ...]:
    out = []
    for array in arrays:
        array = np.array(array, dtype=np.float64, copy=True)
        array.setflags(write=False)
        out.append(array)
    return tuple(out)
