"""Counterfactual regret minimisation on game trees, vectorised over a compiled tree.

CFR (Zinkevich, Johanson, Bowling & Piccione 2007): at every information set I of player
i, the instantaneous counterfactual regret of move a is
``r(I, a) = cfv(I, a) - sum_b sigma(I, b) cfv(I, b)`` with
``cfv(I, a) = sum_{h in I} pi_{-i}(h) v_i(h a)``; regret matching on the cumulative regrets
gives the next strategy, and the average strategy weighs sigma(I) by the player's own reach
``pi_i(I)``. Variants apply the normal-form pieces (:mod:`.weighting`) per information set:
``cfr+`` (Tammelin 2014), ``linear-cfr`` and ``dcfr`` (Brown & Sandholm 2019),
``greedy-cfr`` (Zhang, Lerer & Brown 2022, appendix; simultaneous updates), ``pcfr+``
(Farina, Kroer & Sandholm 2021) and ``pdcfr+`` (Xu et al. 2024): regret matching on
``[d' R + m]_+`` with the prediction ``m`` = the last instantaneous regret, and Monte-Carlo
CFR (Lanctot et al. 2009), compiled in :mod:`.sampling_kernels`. On an NVIDIA GPU
(``device="gpu"``, or ``"auto"`` from ``AUTO_GPU_MIN_NODES`` nodes) the full traversals
(all but greedy and Monte-Carlo CFR) run one CUDA kernel per depth (:mod:`.device`). Each preset's settings:
docs/algorithms.md, "Counterfactual regret minimisation".
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.solvers.backend import AUTO_GPU_MIN_NODES, get_backend
from rmviz.solvers.checkpoint import Checkpoint, capture
from rmviz.solvers.checkpoint import restore as restore_state
from rmviz.solvers.columns import Column, metric_columns
from rmviz.solvers.config_record import config_record
from rmviz.solvers.memory import TRIM_MIN_HISTORIES, give_back_freed_memory
from rmviz.solvers.metrics import potential
from rmviz.solvers.regret_matching import snap_cancellation
from rmviz.solvers.scale import payoff_scale, reported_values
from rmviz.solvers.tree import correlation, kernels, sampling, sampling_kernels
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses, compile_tree, strategy_table
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.device import DeviceCFR
from rmviz.solvers.tree.layout import DepthFirst, depth_first, profile_sums
from rmviz.solvers.tree.metrics import TreeMetrics
from rmviz.solvers.tree.state import CFRState
from rmviz.solvers.weighting import Step, greedy_step

METRICS = (
    "exploitability",
    "nash_conv",
    "eps_bound",
    "potential",
    "last_exploitability",
    "last_nash_conv",
    "cce_gap",
    "efcce_gap",
    "efce_gap",
)


@dataclass(frozen=True)
class TreeSnapshot:
    """An immutable copy of a tree solver's state; strategies are per slot (``CompiledTree``)."""

    iteration: int
    current_strategy: np.ndarray
    average_strategy: np.ndarray
    cumulative_regret: np.ndarray
    metrics: TreeMetrics | None
    seconds: float
    traced: np.ndarray = field(repr=False, compare=False)  # the traced slots (CompiledTree.traced_slots)

    def trace_values(self) -> np.ndarray:
        """The metrics of :data:`METRICS`, then the average strategy of the traced slots
        (``CFRSolver.columns``)."""
        metrics = self.metrics.as_dict() if self.metrics is not None else {}
        head = np.array(
            [math.nan if metrics.get(name) is None else metrics[name] for name in METRICS], dtype=np.float64
        )
        return np.concatenate([head, self.average_strategy[self.traced]])


@dataclass(frozen=True)
class TraversalRecord:
    """One pass over the tree: for ``player`` (or all players when ``None``).

    ``strategy`` is the profile the pass played (per slot: with alternating updates the
    players updated earlier in the iteration already play their new strategy),
    ``reach`` is ``(n+1, N)`` (chance in the last row; sampled edges count 1, unsampled 0),
    ``values`` ``(n, N)`` expected payoffs below each node, ``counterfactual_values`` and
    ``instantaneous_regret`` per slot (non-zero for the updated players' slots only).
    Outcome sampling (:func:`.sampling.outcome_sample`) records the sampled path only: the
    reaches on it, ``sample_reach`` ``q(h)``, and importance-weighted values.
    """

    player: int | None
    strategy: np.ndarray
    reach: np.ndarray
    values: np.ndarray
    counterfactual_values: np.ndarray
    instantaneous_regret: np.ndarray
    sample_reach: np.ndarray | None = None  # outcome sampling: q(h) on the path, 0 off it


@dataclass(frozen=True)
class IterationRecord:
    """Everything one CFR iteration did, for the step-by-step tree view.

    Per slot: strategy, cumulative regret and the own-reach-weighted strategy sum ``S``
    before and after, and the average-strategy increment (``c_avg * pi_i(I) * sigma(I, a)``);
    ``guide_after`` (predictive CFR) the regrets that regret matching read, :meth:`CFRSolver.guide`;
    ``step`` the iteration's discounts and coefficients (:class:`~rmviz.solvers.weighting.Step`,
    as floats), ``greedy_lambda`` the greedy weight's ``lam`` (None for fixed schedules and
    at T = 1); ``order`` is the depth-first order in which a recursive CFR visits the nodes.
    :mod:`rmviz.solvers.tree.explain` writes it out per information set.
    """

    iteration: int
    traversals: tuple[TraversalRecord, ...]
    strategy_before: np.ndarray
    strategy_after: np.ndarray
    cumulative_regret_before: np.ndarray
    cumulative_regret_after: np.ndarray
    strategy_sum_before: np.ndarray
    strategy_sum_after: np.ndarray
    average_increment: np.ndarray
    step: Step
    greedy_lambda: float | None
    order: np.ndarray
    guide_after: np.ndarray | None = None  # predictive CFR: what regret matching read (guide)


def greedy_floor(config: CFRConfig, tree: CompiledTree) -> float:
    """The greedy weight floor of a run on ``tree``: the config's, else 0.5 in two-player
    zero-sum games (the greedy-weights paper's ``w_sum / 2t``) and 0 in the others."""
    if config.greedy_floor is not None:
        return config.greedy_floor
    return 0.5 if tree.two_player_zero_sum else 0.0


def _frozen(array: np.ndarray) -> np.ndarray:
    copy = np.array(array, dtype=np.float64, copy=True)
    copy.setflags(write=False)
    return copy


@dataclass
class CFRSolver:
    """CFR and its variants on an :class:`ExtensiveFormGame` (the ``Solver`` protocol).

    ``last_iterate``: whether the metrics include the current profile's NashConv and
    exploitability (a second best-response pass: it nearly doubles a metrics evaluation,
    1.9x on Leduc, so it is off by default; docs/algorithms.md, "The last iterate")."""

    game: ExtensiveFormGame
    config: CFRConfig = field(default_factory=CFRConfig)
    last_iterate: bool = False

    def __post_init__(self) -> None:
        self.config = self.config.validated()
        tree = compile_tree(self.game)
        # iterations run on payoffs / scale (a power of two, :mod:`rmviz.solvers.scale`);
        # metrics, regrets and records are multiplied back
        self.scale = payoff_scale(tree.outcomes)
        if self.scale != 1.0:
            tree = replace(tree, outcomes=tree.outcomes / self.scale)
        self.tree: CompiledTree = tree
        self.passes = TreePasses(tree)
        self.greedy_floor = floor = greedy_floor(self.config, tree)
        self.schedule = kernels.Schedule.of(self.config, self.passes.payoff_bound, floor)  # NumPy's steps too
        # whether iterations run in the numba kernel without the GIL (the app's worker need
        # not step aside while the window draws)
        self.sampler = (
            sampling_kernels.Sampler(tree, self.config) if sampling_kernels.runs(self.config) else None
        )
        large = self.config.runs_on_gpu and tree.n_nodes >= AUTO_GPU_MIN_NODES
        tracked = self.config.track_correlation
        if tracked is None:
            cheap = self.config.device != "gpu" and not large
            tracked = self.config.sampling == "none" and cheap and correlation.tracked_by_default(tree)
        # the correlation gaps' entries and their evaluator, None when not tracked
        self.entries = correlation.triggers(tree, self.passes) if tracked else None
        self.gap_evaluator = (
            None if self.entries is None else correlation.GapEvaluator(tree, self.passes, self.entries)
        )
        self.backend = get_backend(self.config.device, large and not tracked)
        self.device = DeviceCFR(self.backend.xp, tree, self.config) if self.backend.is_gpu else None
        self.traversal = (
            kernels.FullTraversal(tree, self.config, floor)
            if kernels.runs(self.config) and self.device is None
            else None
        )
        if self.traversal is not None and self.entries is not None:
            self.traversal.track(self.entries)
        self.releases_gil = self.traversal is not None or self.sampler is not None or self.device is not None
        first = tree.infoset_first_slot[tree.slot_infoset]
        self.columns = metric_columns(METRICS) + tuple(
            Column(
                "average",
                player=int(tree.infoset_player[tree.slot_infoset[s]]),
                infoset=int(tree.slot_infoset[s]),
                action=int(s - first[s]),
            )
            for s in tree.traced_slots.tolist()
        )
        self.reset(self.config.seed)
        if tree.n_nodes >= TRIM_MIN_HISTORIES:  # the build's temporaries (rmviz.solvers.memory)
            give_back_freed_memory()

    def column_name(self, column: Column) -> str:
        """``average[Player 1][1pb][p]``; metrics by their names."""
        if column.infoset is None or column.action is None or column.player is None:
            return column.quantity
        tree = self.tree
        move = tree.slot_move[tree.infoset_first_slot[column.infoset] + column.action]
        player = self.game.player_names[column.player]
        return f"{column.quantity}[{player}][{tree.infoset_label[column.infoset]}][{move}]"

    def slot(self, column: Column) -> int:
        """The slot of a per-move column."""
        assert column.infoset is not None and column.action is not None
        return int(self.tree.infoset_first_slot[column.infoset]) + column.action

    # -- Solver protocol -----------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Back to the uniform strategy, zero regrets, iteration 0."""
        self.seed = self.config.seed if seed is None else int(seed)
        slots = self.tree.n_slots
        self.elapsed = 0.0
        self.state = CFRState(
            iteration=0,
            strategy=self.tree.uniform_strategy(),
            regret=np.zeros(slots),
            strategy_sum=np.zeros(slots),
            true_regret=np.zeros(slots),
            prediction=np.zeros(slots) if self.config.predictive else None,
            trigger_sums=None if self.entries is None else np.zeros(self.entries.slot.size),
            follow_sums=None if self.entries is None else np.zeros(slots),
        )

    @property
    def iteration(self) -> int:
        """Iterations run since the last reset."""
        return self.state.iteration

    def step(self, iterations: int = 1) -> None:
        """Run ``iterations`` iterations."""
        start = time.perf_counter()
        if self.sampler is not None and self.entries is not None:
            for _ in range(iterations):  # the device's sums need each iteration's whole profile
                self._accumulate_profile(self.schedule.step(self.iteration + 1))
                self.sampler.run(self.state, self.seed, 1)
        elif self.sampler is not None:
            self.sampler.run(self.state, self.seed, iterations)
        elif self.device is not None:
            self.device.run(self.state, iterations)
        elif self.traversal is not None:
            self.traversal.run(self.state, iterations)
        else:
            for _ in range(iterations):
                self._iterate(record=False)
        self.elapsed += time.perf_counter() - start

    def checkpoint(self) -> Checkpoint:
        """The whole state, to go on from exactly (:mod:`rmviz.solvers.checkpoint`)."""
        return capture(self.state, self.seed, self.elapsed, np.asarray)

    def restore(self, checkpoint: Checkpoint) -> None:
        """Go on from ``checkpoint`` (of a solver of this game and config)."""
        restore_state(self.state, checkpoint, np.asarray)
        self.seed, self.elapsed = checkpoint.seed, checkpoint.elapsed

    def step_recorded(self) -> IterationRecord:
        """Run one iteration and return what happened in it (same update as :meth:`step`)."""
        start = time.perf_counter()
        record = self._iterate(record=True)
        self.elapsed += time.perf_counter() - start
        assert record is not None
        return record

    def average_strategy(self) -> np.ndarray:
        """The average behaviour strategy per slot (uniform where never reached)."""
        return self.passes.average_strategy(self.state.strategy_sum)

    @functools.cached_property
    def metrics_layout(self) -> DepthFirst | None:
        """The depth-first layout a profile's NashConv walks: the full-traversal kernel's
        where it runs, one made on first use where another runs (Monte-Carlo CFR, the GPU:
        a snapshot's metrics on goofspiel 6 took 59 ms by the NumPy passes, 14 ms walked);
        None without numba."""
        if self.traversal is not None:
            return self.traversal.tree
        return depth_first(self.tree) if kernels.AVAILABLE else None

    def nash_conv(self, strategy: np.ndarray) -> tuple[float, np.ndarray]:
        """NashConv of ``strategy`` (payoffs / scale) and each player's value: by one walk of
        :attr:`metrics_layout` (:func:`.layout.profile_sums`: a big tree's metrics without the
        NumPy passes' per-history arrays), by those passes without numba: equal to rounding
        (``tests/solvers/tree/test_big_trees.py``)."""
        layout = self.metrics_layout
        if layout is None:
            return self.passes.nash_conv(strategy)
        passes = self.passes
        values, sums = profile_sums(
            layout, strategy, self.tree.outcome_terminal, passes.terminal_sequence, self.tree.n_slots
        )
        return passes.nash_conv_of(values, passes.best_responses(sums))

    def metrics(self) -> TreeMetrics:
        """NashConv (exact best responses), exploitability = NashConv / n, value, bounds, in
        payoff units (the potential in squared payoff units); with :attr:`last_iterate` the
        NashConv and exploitability of the current strategy too (the same best responses)."""
        scale = self.scale
        nash_conv, values = self.nash_conv(self.average_strategy())
        last = self.nash_conv(self.state.strategy)[0] * scale if self.last_iterate else None
        weight = self.state.weight_sum if self.state.weight_sum > 0 else 1.0
        average = self.state.true_regret / weight
        best = np.maximum.reduceat(np.maximum(average, 0.0), self.tree.infoset_first_slot)
        return TreeMetrics(
            correlation=self.correlation_gaps(),
            nash_conv=nash_conv * scale,
            exploitability=nash_conv * scale / self.tree.n_players,
            value=reported_values(values, self.passes.payoff_bound, scale),
            eps_bound=float(best.sum()) * scale,
            potential=potential([average]) * scale * scale,
            last_nash_conv=last,
            last_exploitability=None if last is None else last / self.tree.n_players,
        )

    def correlation_gaps(self) -> correlation.CorrelationGaps | None:
        """The device's CCE, EFCCE and EFCE gaps per player (:mod:`.correlation`), in payoff
        units; None when not tracked or before the first iteration."""
        state = self.state
        if self.gap_evaluator is None or state.trigger_sums is None or state.follow_sums is None:
            return None
        if state.weight_sum <= 0:
            return None
        return self.gap_evaluator.gaps(state.trigger_sums, state.follow_sums, state.weight_sum, self.scale)

    def snapshot(self, metrics: bool = True) -> TreeSnapshot:
        return TreeSnapshot(
            iteration=self.iteration,
            current_strategy=_frozen(self.state.strategy),
            average_strategy=_frozen(self.average_strategy()),
            cumulative_regret=_frozen(self.state.regret * self.scale),
            metrics=self.metrics() if metrics else None,
            seconds=self.elapsed,
            traced=self.tree.traced_slots,
        )

    def report(self, snapshot: TreeSnapshot) -> dict[str, Any]:
        """The family's part of ``rmviz solve --json``: strategies per information set, config."""
        return {
            "average_strategy": self.strategy_table(snapshot.average_strategy),
            "current_strategy": self.strategy_table(snapshot.current_strategy),
            "device": self.backend.describe(),
            "config": self.config_record(),
        }

    def config_record(self) -> dict[str, Any]:
        """The run's whole configuration as JSON (:mod:`rmviz.solvers.config_record`), the
        weight floor as resolved."""
        config = self.config
        floor = self.greedy_floor if config.weighting == "greedy" else config.greedy_floor
        return config_record(config, greedy_floor=floor)

    def strategy_table(self, strategy: np.ndarray) -> dict[str, dict[str, float]]:
        """``{infoset label: {move: probability}}`` (:func:`.compiled_tree.strategy_table`)."""
        return strategy_table(self.tree, self.game.player_names, strategy)

    # -- one iteration ---------------------------------------------------------------------
    def _iterate(self, record: bool) -> IterationRecord | None:
        config, tree = self.config, self.tree
        t = self.iteration + 1
        step = self.schedule.step(t)
        state = self.state
        before = (state.strategy.copy(), state.regret.copy(), state.strategy_sum.copy()) if record else None
        traversals = []
        if config.sampling != "none":  # a sample's reaches are not the profile's: a full pass
            self._accumulate_profile(step)
        if config.updates == "simultaneous":
            regret, increment, trace = self._traverse(None)
            if config.weighting == "greedy":
                step, self.state.last_lambda = greedy_step(
                    self.state.true_regret / max(self.state.weight_sum, 1e-300),
                    regret,
                    self.state.weight_sum,
                    t,
                    self.greedy_floor,
                    np,
                )
                self.state.last_lambda = float(self.state.last_lambda)
            self._update(slice(None), regret, increment, step, t)
            traversals.append(trace)
        else:
            for player in range(tree.n_players):
                regret, increment, trace = self._traverse(player)
                self._update(slice(*tree.player_slots[player]), regret, increment, step, t)
                if config.sampling == "external":
                    self._update_opponent_averages(trace, player, step)
                traversals.append(trace)
        if config.sampling == "none":
            first = traversals[0]
            self._accumulate(first.reach, first.strategy, first.counterfactual_values, step)
        self.state.weight_sum = float(step.d_avg * self.state.weight_sum + step.c_avg)
        self.state.iteration = t
        if before is None:
            return None
        scale = self.scale
        return IterationRecord(
            iteration=t,
            traversals=tuple(
                replace(
                    trace,
                    values=trace.values * scale,
                    counterfactual_values=trace.counterfactual_values * scale,
                    instantaneous_regret=trace.instantaneous_regret * scale,
                )
                for trace in traversals
            ),
            strategy_before=_frozen(before[0]),
            strategy_after=_frozen(self.state.strategy),
            cumulative_regret_before=_frozen(before[1] * scale),
            cumulative_regret_after=_frozen(self.state.regret * scale),
            strategy_sum_before=_frozen(before[2]),
            strategy_sum_after=_frozen(self.state.strategy_sum),
            average_increment=_frozen(self.state.strategy_sum - step.d_avg * before[2]),
            step=Step(*(float(getattr(step, name)) for name in ("d_pos", "d_neg", "c", "d_avg", "c_avg"))),
            greedy_lambda=self.state.last_lambda if config.weighting == "greedy" and t > 1 else None,
            order=tree.preorder,
            guide_after=None if state.prediction is None else _frozen(self.guide(t) * scale),
        )

    def _accumulate_profile(self, step: Step) -> None:
        """The correlation sums' terms of the current profile, by a full pass (Monte-Carlo
        CFR's device: the profile at each iteration's start, whatever the sample)."""
        if self.entries is None:
            return
        passes, strategy = self.passes, self.state.strategy
        probabilities = passes.edge_probabilities(strategy)
        reach = passes.reach(probabilities)
        cfv = passes.counterfactual_values(passes.others_reach(reach), passes.values(probabilities))
        self._accumulate(reach, strategy, cfv, step)

    def _accumulate(self, reach: np.ndarray, strategy: np.ndarray, cfv: np.ndarray, step: Step) -> None:
        """The correlation sums' terms of one profile (``strategy``, its ``reach`` and
        ``cfv``), by the kernels' own function (:func:`.correlation.accumulate`)."""
        state, entries, tree = self.state, self.entries, self.tree
        if entries is None or state.trigger_sums is None or state.follow_sums is None:
            return
        correlation.accumulate(
            *entries.kernel_arrays(),
            tree.slot_infoset,
            tree.infoset_player,
            tree.infoset_first_node,
            reach,
            strategy,
            cfv,
            float(step.d_avg),
            float(step.c_avg),
            state.trigger_sums,
            state.follow_sums,
            np.empty((tree.n_players, entries.terminals.size)),
        )

    def _traverse(self, player: int | None) -> tuple[np.ndarray, np.ndarray, TraversalRecord]:
        """Regrets and own-reach-weighted strategy of ``player`` (all players if None)."""
        passes, tree = self.passes, self.tree
        if self.config.sampling == "outcome":
            assert player is not None
            return self._outcome_traverse(player)
        probabilities = passes.edge_probabilities(self.state.strategy)
        if self.config.sampling != "none":
            probabilities = self._sampled(probabilities, player)
        reach = passes.reach(probabilities)
        values = passes.values(probabilities)
        others = passes.others_reach(reach)
        cfv = passes.counterfactual_values(others, values)
        regret = passes.instantaneous_regret(self.state.strategy, cfv, passes.counterfactual_reach(others))
        own_reach = reach[tree.infoset_player, tree.infoset_first_node][tree.slot_infoset]
        increment = own_reach * self.state.strategy
        if player is not None:
            mine = tree.infoset_player[tree.slot_infoset] == player
            regret = np.where(mine, regret, 0.0)
            # external sampling: the traverser's average is updated on the opponents' passes
            increment = np.where(mine & (self.config.sampling != "external"), increment, 0.0)
        if self.config.sampling == "chance":  # the average adds where the sample reached
            increment = np.where(sampling.reached_infosets(tree, reach)[tree.slot_infoset], increment, 0.0)
        # the profile played (copied: the updates that follow change the state in place)
        played = self.state.strategy.copy()
        return regret, increment, TraversalRecord(player, played, reach, values, cfv, regret)

    def _sampled(self, probabilities: np.ndarray, player: int | None) -> np.ndarray:
        """Edge probabilities with one sampled move (probability 1) at the sampled nodes:
        chance nodes, and for external sampling the non-traversing players' nodes; the
        compiled kernels' draws (:mod:`.sampling`)."""
        tree = self.tree
        key = self._traversal_key(player)
        return sampling.sampled_probabilities(
            tree, probabilities, player, self.config.sampling == "external", key
        )

    def _traversal_key(self, player: int | None) -> np.uint64:
        """This iteration's key of ``player``'s traversal (n for a simultaneous one)."""
        traversal = self.tree.n_players if player is None else player
        return sampling.traversal_key(self.seed, self.iteration + 1, traversal)

    def _outcome_traverse(self, player: int) -> tuple[np.ndarray, np.ndarray, TraversalRecord]:
        """Outcome sampling's regrets and average increments of ``player``, and its record."""
        tree, strategy = self.tree, self.state.strategy
        sample = sampling.outcome_sample(
            tree, strategy, player, self.config.exploration, self._traversal_key(player)
        )
        cfv, reach = sample.counterfactual_values, sample.counterfactual_reach
        regret = self.passes.instantaneous_regret(strategy, cfv, reach)
        mine = tree.infoset_player[tree.slot_infoset] == player
        regret = np.where(mine, regret, 0.0)
        played = strategy.copy()
        record = TraversalRecord(
            player,
            played,
            sample.reach,
            sample.values,
            sample.counterfactual_values,
            regret,
            sample.sample_reach,
        )
        return regret, sample.increment, record

    def _update(self, slots: slice, regret: np.ndarray, increment: np.ndarray, step: Step, t: int) -> None:
        """Discount-form updates of the given slots, then regret matching (predictive CFR: on
        the guide :meth:`guide` of iteration ``t``)."""
        config, state = self.config, self.state
        current = state.regret[slots]
        kept = np.where(current > 0, step.d_pos * current, step.d_neg * current)
        added = step.c * regret[slots]
        updated = snap_cancellation(kept, added, np)
        if config.plus:
            updated = np.maximum(updated, 0.0)
        state.regret[slots] = updated
        state.strategy_sum[slots] = step.d_avg * state.strategy_sum[slots] + step.c_avg * increment[slots]
        state.true_regret[slots] = step.d_avg * state.true_regret[slots] + step.c_avg * regret[slots]
        if state.prediction is not None:
            state.prediction[slots] = added
        state.strategy[slots] = self.passes.regret_matching(self.guide(t))[slots]

    def guide(self, t: int) -> np.ndarray:
        """What regret matching reads after iteration ``t``: the cumulative regrets ``R``, or in
        predictive CFR ``d' R + m`` with the prediction ``m`` (the last added regret ``c r``)
        and the discounts ``d'`` of iteration ``t + 1`` (1 unless the weighting discounts;
        Farina, Kroer & Sandholm 2021; Xu et al. 2024's PDCFR+). A guide that cancels to
        within 1e-12 of its terms is 0 (:func:`~rmviz.solvers.regret_matching.snap_cancellation`)."""
        state = self.state
        if state.prediction is None:
            return state.regret
        following = self.schedule.step(t + 1)
        current = state.regret
        kept = np.where(current > 0, following.d_pos * current, following.d_neg * current)
        return snap_cancellation(kept, state.prediction, np)

    def _update_opponent_averages(self, trace: TraversalRecord, player: int, step: Step) -> None:
        """External sampling: opponents' average strategies where the sample visits them."""
        tree = self.tree
        rows = [q for q in range(tree.n_players + 1) if q != player]
        visited = np.prod(trace.reach[rows], axis=0)
        decision = tree.node_infoset >= 0
        counts = np.bincount(tree.node_infoset[decision], visited[decision], minlength=tree.n_infosets)
        opponents = tree.infoset_player[tree.slot_infoset] != player
        add = np.where(opponents, counts[tree.slot_infoset] * self.state.strategy, 0.0)
        self.state.strategy_sum = np.where(
            opponents, step.d_avg * self.state.strategy_sum + step.c_avg * add, self.state.strategy_sum
        )
