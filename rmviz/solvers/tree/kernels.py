"""Compiled CFR iterations (numba) over a :class:`~rmviz.solvers.tree.compiled_tree.CompiledTree`.

The same update as :meth:`rmviz.solvers.tree.solver.CFRSolver._iterate` for the full-traversal
variants (CFR, CFR+, linear CFR, DCFR, predictive CFR+ and DCFR+; simultaneous or alternating;
greedy CFR), written as
loops over node ids: nodes are numbered breadth first, so a parent always precedes its
children and one forward loop computes reach probabilities, one reverse loop the values.
Sums run in the same order as the NumPy passes. Greedy CFR (Zhang, Lerer & Brown, AAAI 2022,
appendix) takes its one weight per iteration from :func:`.greedy_scan.greedy_lambda_scan`, the
loop form of the line search of :func:`.weighting.greedy_step`. Monte-Carlo CFR runs in
:mod:`.sampling_kernels`. Both take three bundles (:class:`CompiledRun`): the tree's arrays,
the state's and the :class:`Schedule` built once from the config.
``tests/solvers/tree/test_cfr.py`` checks both paths against each other and against OpenSpiel.
"""

from __future__ import annotations

import copy
from typing import NamedTuple

import numpy as np

from rmviz.solvers import greedy_scan, weighting
from rmviz.solvers.jit import AVAILABLE, jit
from rmviz.solvers.regret_matching import TIE_TOLERANCE
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreeArrays
from rmviz.solvers.tree.config import SAMPLINGS, CFRConfig
from rmviz.solvers.tree.correlation import Triggers, accumulate
from rmviz.solvers.tree.state import CFRState
from rmviz.solvers.weighting import Step


def runs(config: CFRConfig) -> bool:
    """Whether a :class:`FullTraversal` runs this configuration (full traversals)."""
    return AVAILABLE and config.sampling == "none"


class Schedule(NamedTuple):
    """What a :class:`CFRConfig` asks of the compiled kernels, built once per run
    (:meth:`of`): strings become integers (numba types a string through its slow path) and the
    numbers keep one type (an ``alpha`` of 2 is 2.0), so every run shares the kernels'
    compiled signatures. A field named as the config's is read from it by name: a new
    parameter is a field of the config, a field here and its use in the kernel."""

    plus: bool
    predictive: bool
    alternating: bool  # config.updates == "alternating"
    weighting: int  # index in weighting.SCHEMES
    averaging: int  # of config.averaging, or the weighting when None
    sampling: int  # index in config.SAMPLINGS
    alpha: float
    beta: float
    gamma: float
    greedy_floor: float  # resolved: CFRSolver's default where the config leaves it None
    exploration: float

    @classmethod
    def of(cls, config: CFRConfig, greedy_floor: float = 0.0) -> Schedule:
        derived = {
            "alternating": config.updates == "alternating",
            "sampling": SAMPLINGS.index(config.sampling),
            "greedy_floor": greedy_floor,
        }
        return cls(**weighting.schedule_fields(cls, config, derived))

    def step(self, t: int) -> Step:
        """The step of iteration ``t`` of a fixed schedule (:func:`.weighting.step_of`)."""
        return weighting.step_of(self, t)


class StateArrays(NamedTuple):
    """A :class:`CFRState` as the kernels update it in place: its slot arrays, and its weight
    sum and last greedy weight boxed in arrays of one element."""

    strategy: np.ndarray
    regret: np.ndarray
    strategy_sum: np.ndarray
    true_regret: np.ndarray
    prediction: np.ndarray  # (0,) when the run is not predictive
    weight_sum: np.ndarray  # (1,)
    last_lambda: np.ndarray  # (1,)


class CompiledRun:
    """The bundles a kernel takes: the tree's arrays (:class:`TreeArrays`) and the schedule
    (:class:`Schedule`), both gathered once, and the state's (:class:`StateArrays`), gathered
    each call. They travel as plain tuples, which numba's dispatcher types in C, and the
    kernel names them again (NamedTuples are typed in Python: ~1 us more each, per call)."""

    def __init__(self, tree: TreeArrays, schedule: Schedule) -> None:
        self.tree, self.schedule = tree, schedule
        self.packed = tuple(tree), tuple(schedule)
        self.weight_sum, self.last_lambda = np.zeros(1), np.zeros(1)
        self.no_prediction = np.zeros(0)

    def state_arrays(self, state: CFRState) -> tuple[np.ndarray, ...]:
        """The :class:`StateArrays` of ``state``, its scalars boxed (:meth:`finish` unboxes)."""
        self.weight_sum[0], self.last_lambda[0] = state.weight_sum, state.last_lambda
        return (
            state.strategy,
            state.regret,
            state.strategy_sum,
            state.true_regret,
            self.no_prediction if state.prediction is None else state.prediction,
            self.weight_sum,
            self.last_lambda,
        )

    def finish(self, state: CFRState, iterations: int) -> None:
        """The boxed scalars back into ``state``, ``iterations`` iterations on."""
        state.weight_sum = float(self.weight_sum[0])
        state.last_lambda = float(self.last_lambda[0])
        state.iteration += iterations


class FullTraversal(CompiledRun):
    """Full-traversal CFR of one configuration on one tree: a call costs numba's dispatch of
    three bundles and two integers, and the iterations."""

    def __init__(self, tree: CompiledTree, config: CFRConfig, greedy_floor: float = 0.0) -> None:
        """``greedy_floor`` is the greedy weight floor (:func:`.weighting.greedy_bounds`)."""
        super().__init__(TreeArrays.of(tree), Schedule.of(config, greedy_floor))
        none = np.zeros(0, dtype=np.int64)
        self.entries: tuple[np.ndarray, ...] = (np.zeros(1, dtype=np.int64), none, none, none, none)

    def track(self, entries: Triggers) -> None:
        """Accumulate the correlation gaps' sums of ``entries`` (:mod:`.correlation`) on every
        state that has them (``CFRState.trigger_sums``)."""
        self.entries = entries.kernel_arrays()

    def with_payoffs(self, payoffs: np.ndarray, greedy_floor: float) -> FullTraversal:
        """The same traversal of a game of the same tree with other payoffs ``(n, N)`` (the
        tree's node order) and its greedy weight floor (:mod:`.batch`)."""
        other = copy.copy(self)
        tree = self.tree._replace(payoffs=payoffs)
        CompiledRun.__init__(other, tree, self.schedule._replace(greedy_floor=float(greedy_floor)))
        return other

    def run(self, state: CFRState, iterations: int) -> None:
        """Run ``iterations`` iterations on ``state``, in place."""
        tree, schedule = self.packed
        sums, follow = state.trigger_sums, state.follow_sums
        empty = self.no_prediction
        correlation = (
            (*self.entries, empty, empty) if sums is None or follow is None else (*self.entries, sums, follow)
        )
        _run(tree, self.state_arrays(state), schedule, state.iteration, iterations, correlation)
        self.finish(state, iterations)


_regret_discounts = jit(weighting.regret_discounts_of)
_averaging_step = jit(weighting.averaging_step_of)
_greedy_bounds = jit(weighting.greedy_bounds)
_greedy_lambda = jit(greedy_scan.greedy_lambda_scan)
_greedy_scratch = jit(greedy_scan.greedy_scratch)
_accumulate = accumulate


@jit
def _run(tree, state, schedule, t0, iterations, correlation):  # pragma: no cover - compiled
    """Iterations ``t0 + 1 .. t0 + iterations`` on ``state``: the bundles of
    :class:`CompiledRun`, named again here, and their fields under the names the loops use;
    ``correlation``: the entries and the state's sums of :mod:`.correlation` (empty sums:
    not tracked), added from each iteration's first pass (the profile at its start)."""
    tree, state, schedule = TreeArrays(*tree), StateArrays(*state), Schedule(*schedule)
    parent, owner, slot = tree.parent, tree.edge_owner, tree.edge_slot
    chance_probability, child_start, child_count = tree.chance_probability, tree.child_start, tree.child_count
    payoffs, node_player, player_slots = tree.payoffs, tree.player, tree.player_slots
    slot_infoset, infoset_player, infoset_size = tree.slot_infoset, tree.infoset_player, tree.infoset_size
    infoset_first_node, infoset_first_slot = tree.infoset_first_node, tree.infoset_first_slot
    strategy, regret = state.strategy, state.regret
    strategy_sum, true_regret, prediction = state.strategy_sum, state.true_regret, state.prediction
    weight_sum, last_lambda = state.weight_sum, state.last_lambda
    alternating, predictive = schedule.alternating, schedule.predictive
    entry_start, range_start, range_lo, range_hi, terminals, trigger_sums, follow_sums = correlation
    track = follow_sums.shape[0] > 0
    n, nodes = payoffs.shape
    opponents_reach = np.empty((n if track else 0, terminals.shape[0]))  # accumulate's work space
    slots = slot_infoset.shape[0]
    infosets = infoset_player.shape[0]
    probability = np.empty(nodes)
    reach = np.ones((n + 1, nodes))
    values = np.empty((n, nodes))
    cfv = np.empty(slots)
    infoset_value = np.empty(infosets)
    infoset_scale = np.empty(infosets)
    instant = np.empty(slots)
    guide = np.empty(slots)  # what regret matching reads: R, or predictive CFR's d' R + m
    greedy = schedule.weighting == weighting.GREEDY  # simultaneous updates (CFRConfig.validated)
    history = np.empty(slots if greedy else 0)
    work, order = _greedy_scratch(slots if greedy else 0)
    for step in range(iterations):
        t = t0 + step + 1
        d_pos, d_neg = _regret_discounts(schedule.weighting, t, schedule.alpha, schedule.beta)
        d_avg, c_avg = _averaging_step(schedule.averaging, t, schedule.gamma)
        c_new = 1.0  # coefficient of the new regrets (greedy: (1 - lam) W)
        # predictive CFR: the next iteration's discounts on R (Xu et al. 2024), 1 for CFR+'s
        g_pos, g_neg = _regret_discounts(schedule.weighting, t + 1, schedule.alpha, schedule.beta)
        for traversal in range(n if alternating else 1):
            player = traversal if alternating else -1
            # edge probabilities and reach, parents before children
            for c in range(1, nodes):
                probability[c] = chance_probability[c] if slot[c] < 0 else strategy[slot[c]]
                h = parent[c]
                for q in range(n + 1):
                    reach[q, c] = reach[q, h] * probability[c] if owner[c] == q else reach[q, h]
            # values, children before parents
            for h in range(nodes - 1, -1, -1):
                if child_count[h] == 0:
                    for i in range(n):
                        values[i, h] = payoffs[i, h]
                    continue
                for i in range(n):
                    total = 0.0
                    for c in range(child_start[h], child_start[h] + child_count[h]):
                        total += values[i, c] * probability[c]
                    values[i, h] = total
            # counterfactual values per slot
            cfv[:] = 0.0
            for c in range(1, nodes):
                if slot[c] < 0:
                    continue
                h = parent[c]
                acting = node_player[h]
                others = 1.0
                for q in range(n + 1):
                    if q != acting:
                        others *= reach[q, h]
                cfv[slot[c]] += others * values[acting, c]
            infoset_value[:] = 0.0
            infoset_scale[:] = 0.0
            for s in range(slots):
                infoset_value[slot_infoset[s]] += strategy[s] * cfv[s]
                infoset_scale[slot_infoset[s]] = max(infoset_scale[slot_infoset[s]], abs(cfv[s]))
            lo, hi = (player_slots[player, 0], player_slots[player, 1]) if alternating else (0, slots)
            for s in range(lo, hi):
                info = slot_infoset[s]
                instant[s] = cfv[s] - infoset_value[info]
                if abs(instant[s]) <= TIE_TOLERANCE * infoset_scale[info]:  # exact ties: 0
                    instant[s] = 0.0
            if greedy and t > 1:  # as weighting.greedy_step: history scaled by lam, new (1-lam) W
                weight = max(weight_sum[0], 1e-300)
                for s in range(slots):
                    history[s] = true_regret[s] / weight
                lam_max, lam_tie = _greedy_bounds(t, schedule.greedy_floor)
                lam = _greedy_lambda(history, instant, lam_max, lam_tie, work, order)
                last_lambda[0] = lam
                d_pos = d_neg = d_avg = lam
                c_new = c_avg = (1.0 - lam) * weight_sum[0]
            elif greedy:
                last_lambda[0] = 0.0
            if track and traversal == 0:
                _accumulate(
                    entry_start,
                    range_start,
                    range_lo,
                    range_hi,
                    terminals,
                    slot_infoset,
                    infoset_player,
                    infoset_first_node,
                    reach,
                    strategy,
                    cfv,
                    d_avg,
                    c_avg,
                    trigger_sums,
                    follow_sums,
                    opponents_reach,
                )
            for s in range(lo, hi):
                info = slot_infoset[s]
                kept = d_pos * regret[s] if regret[s] > 0 else d_neg * regret[s]
                added = c_new * instant[s]
                updated = kept + added
                if abs(updated) <= TIE_TOLERANCE * (abs(kept) + abs(added)):  # cancelled: 0
                    updated = 0.0
                regret[s] = max(updated, 0.0) if schedule.plus else updated
                guide[s] = regret[s]
                if predictive:  # the prediction m = c r, the guide d' R + m (cancelled: 0)
                    prediction[s] = added
                    kept = g_pos * regret[s] if regret[s] > 0 else g_neg * regret[s]
                    guess = kept + added
                    if abs(guess) <= TIE_TOLERANCE * (abs(kept) + abs(added)):
                        guess = 0.0
                    guide[s] = guess
                own = reach[infoset_player[info], infoset_first_node[info]]
                strategy_sum[s] = d_avg * strategy_sum[s] + c_avg * (own * strategy[s])
                true_regret[s] = d_avg * true_regret[s] + c_avg * instant[s]
            # regret matching at the updated information sets
            for info in range(infosets):
                first = infoset_first_slot[info]
                if first < lo or first >= hi:
                    continue
                size = infoset_size[info]
                total = 0.0
                for s in range(first, first + size):
                    total += guide[s] if guide[s] > 0 else 0.0
                for s in range(first, first + size):
                    positive = guide[s] if guide[s] > 0 else 0.0
                    strategy[s] = positive / total if total > 0 else 1.0 / size
        weight_sum[0] = d_avg * weight_sum[0] + c_avg
    return 0  # an int, not None: see "GIL" in docs/architecture.md
