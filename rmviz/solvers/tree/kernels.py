"""Compiled CFR iterations (numba) over a :class:`~rmviz.solvers.tree.compiled_tree.CompiledTree`.

The same update as :meth:`rmviz.solvers.tree.solver.CFRSolver._iterate` for the full-traversal
variants (CFR, CFR+, linear CFR, DCFR, predictive CFR+ and DCFR+; simultaneous or alternating;
greedy CFR). An iteration walks the tree's depth-first layout (:mod:`.layout`) with one frame
per level (:func:`_walk`: reach on the way down, values and counterfactual values on the way
up, the traverser's alone in an alternating pass), then updates the slots (:func:`_update`).
A partitioned tree's subtrees are walked in groups, on up to
:func:`~rmviz.solvers.threads.solver_threads` threads, with the same iterates on any number.
Sums over children run in the NumPy passes' order; a slot's counterfactual value sums its
histories in depth-first order (the NumPy passes': breadth first; the same value to rounding,
and exact ties are snapped in both). Greedy CFR (Zhang, Lerer & Brown, AAAI 2022,
appendix) takes its one weight per iteration from :func:`.greedy_scan.greedy_lambda_scan`, the
loop form of the line search of :func:`.weighting.greedy_step`. Monte-Carlo CFR runs in
:mod:`.sampling_kernels`. Both take three bundles (:class:`CompiledRun`): the tree's arrays,
the state's and the :class:`Schedule` built once from the config.
``tests/solvers/tree/test_cfr.py`` and ``test_layout.py`` check both paths against each other
(on generated trees too) and against OpenSpiel.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

import numpy as np

from rmviz.solvers import greedy_scan, weighting
from rmviz.solvers.jit import AVAILABLE, jit, jit_inline
from rmviz.solvers.regret_matching import TIE_TOLERANCE
from rmviz.solvers.scale import largest_payoff
from rmviz.solvers.threads import solver_threads
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreeArrays
from rmviz.solvers.tree.config import SAMPLINGS, CFRConfig
from rmviz.solvers.tree.correlation import Triggers, accumulate
from rmviz.solvers.tree.layout import (
    DepthFirst,
    Partition,
    depth_first,
    partition,
)
from rmviz.solvers.tree.state import CFRState
from rmviz.solvers.weighting import Step

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor


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
    payoff_bound: float  # the game's largest |u| (solver units): the tie rule's U (tie_scale)

    @classmethod
    def of(cls, config: CFRConfig, payoff_bound: float, greedy_floor: float = 0.0) -> Schedule:
        derived = {
            "alternating": config.updates == "alternating",
            "sampling": SAMPLINGS.index(config.sampling),
            "greedy_floor": greedy_floor,
            "payoff_bound": payoff_bound,
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


TreeBundle = TypeVar("TreeBundle", TreeArrays, DepthFirst)


class CompiledRun(Generic[TreeBundle]):
    """The bundles a kernel takes: the tree's arrays (:class:`TreeArrays`, or the full
    traversal's :class:`~.layout.DepthFirst`) and the schedule
    (:class:`Schedule`), both gathered once, and the state's (:class:`StateArrays`), gathered
    each call. They travel as plain tuples, which numba's dispatcher types in C, and the
    kernel names them again (NamedTuples are typed in Python: ~1 us more each, per call)."""

    def __init__(self, tree: TreeBundle, schedule: Schedule) -> None:
        self.tree: TreeBundle = tree
        self.schedule = schedule
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


class FullTraversal(CompiledRun[DepthFirst]):
    """Full-traversal CFR of one configuration on one tree, over the tree's depth-first layout
    (:mod:`.layout`): a call costs numba's dispatch of its bundles, and the iterations. A
    tree with a :class:`~.layout.Partition` shares each traversal's subtrees among up to
    :func:`~rmviz.solvers.threads.solver_threads` threads, with the same iterates on any
    number of them."""

    def __init__(self, tree: CompiledTree, config: CFRConfig, greedy_floor: float = 0.0) -> None:
        """``greedy_floor`` is the greedy weight floor (:func:`.weighting.greedy_bounds`)."""
        layout = depth_first(tree)
        super().__init__(layout, Schedule.of(config, largest_payoff(layout.payoffs), greedy_floor))
        self.split = partition(layout, tree.n_slots)
        self.work = _work(layout, self.split, self.schedule.weighting == weighting.GREEDY)
        self.frames = [self.work[0]]  # one stack of frames per thread that walks subtrees
        none = np.zeros(0, dtype=np.int64)
        self.entries: tuple[np.ndarray, ...] = (np.zeros(1, dtype=np.int64), none, none, none, none, none)
        self.untracked = np.zeros((tree.n_players + 1, 0))  # no terminal reach kept
        self.reached, self.opponents = self.untracked, np.zeros((tree.n_players, 0))

    def track(self, entries: Triggers) -> None:
        """Accumulate the correlation gaps' sums of ``entries`` (:mod:`.correlation`) on every
        state that has them (``CFRState.trigger_sums``): the kernel keeps the reach of each
        terminal (the layout's order, which is ``entries.terminals``') and each information
        set's own reach, and :func:`.correlation.accumulate` reads them by those numbers."""
        terminals, infosets = self.tree.payoffs.shape[0], self.tree.infoset_player.size
        assert entries.terminals.size == terminals
        start, range_start, range_lo, range_hi, _ = entries.kernel_arrays()
        first_node = terminals + np.arange(infosets, dtype=np.int64)
        self.entries = (
            start,
            range_start,
            range_lo,
            range_hi,
            np.arange(terminals, dtype=np.int64),
            first_node,
        )
        n = self.tree.payoffs.shape[1]
        self.reached = np.zeros((n + 1, terminals + infosets))
        self.opponents = np.empty((n, terminals))  # accumulate's work space

    def with_payoffs(self, outcomes: np.ndarray, greedy_floor: float) -> FullTraversal:
        """The same traversal of a game of the same tree with other payoffs ``(T, n)`` (the
        terminals in depth-first order, as ``CompiledTree.outcomes``) and its greedy weight
        floor (:mod:`.batch`)."""
        other = copy.copy(self)
        layout = self.tree._replace(payoffs=np.ascontiguousarray(outcomes, dtype=np.float64))
        bound = largest_payoff(layout.payoffs)
        schedule = self.schedule._replace(greedy_floor=float(greedy_floor), payoff_bound=bound)
        CompiledRun.__init__(other, layout, schedule)
        return other

    def run(self, state: CFRState, iterations: int) -> None:
        """Run ``iterations`` iterations on ``state``, in place."""
        layout, schedule = self.packed
        sums, follow = state.trigger_sums, state.follow_sums
        empty = self.no_prediction
        if sums is None or follow is None:
            correlation = (*self.entries, self.untracked, self.opponents, empty, empty)
        else:
            correlation = (*self.entries, self.reached, self.opponents, sums, follow)
        arrays = self.state_arrays(state)
        threads = solver_threads() if self.split.level >= 0 else 1
        if threads == 1:
            _run(layout, arrays, schedule, state.iteration, iterations, self.work, self.split, correlation)
        else:
            self._run_threaded(layout, arrays, schedule, state.iteration, iterations, correlation, threads)
        self.finish(state, iterations)

    def _run_threaded(
        self,
        layout: tuple[Any, ...],
        arrays: tuple[np.ndarray, ...],
        schedule: tuple[Any, ...],
        t0: int,
        iterations: int,
        correlation: tuple[np.ndarray, ...],
        threads: int,
    ) -> None:
        """:func:`_run`'s iterations with each traversal's groups shared among ``threads``
        threads (the kernels release the GIL): the same calls in the same order, so the same
        iterates."""
        tree, columns, split, work = self.tree, layout[:7], self.split, self.work
        frames, cfv, _, cfv_groups, seeds, values = work[:6]
        reached = correlation[6]
        while len(self.frames) < threads:
            self.frames.append(tuple(np.empty_like(a) for a in frames))
        pool = _pool(threads)
        strategy, weight_sum = arrays[0], arrays[5]
        alternating, n = self.schedule.alternating, tree.payoffs.shape[1]
        d_avg = c_avg = 1.0
        for step in range(iterations):
            t = t0 + step + 1
            for traversal in range(n if alternating else 1):
                player = _pass_player(alternating, traversal, correlation)
                lo, hi = _slot_range(tree.player_slots, player >= 0, max(player, 0))
                _top_down(columns, strategy, player, frames, reached, split, seeds, values)
                walks = [
                    pool.submit(
                        _groups,
                        columns,
                        strategy,
                        w,
                        threads,
                        player,
                        self.frames[w],
                        reached,
                        split,
                        cfv_groups,
                        seeds,
                        values,
                        lo,
                        hi,
                    )
                    for w in range(threads)
                ]
                for walk in walks:
                    walk.result()
                _top_up(
                    columns,
                    strategy,
                    player,
                    frames,
                    cfv,
                    reached,
                    split,
                    cfv_groups,
                    seeds,
                    values,
                    lo,
                    hi,
                )
                d_avg, c_avg = _update(layout, arrays, schedule, t, traversal, player, work, correlation)
            weight_sum[0] = d_avg * weight_sum[0] + c_avg


_pools: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """The process's pool of ``threads`` threads for the groups' walks (made once; imported
    here: a command that walks no big tree does not pay for ``concurrent.futures``)."""
    from concurrent.futures import ThreadPoolExecutor

    if threads not in _pools:
        _pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="rmviz-cfr")
    return _pools[threads]


def _work(layout: DepthFirst, split: Partition, greedy: bool) -> tuple[Any, ...]:
    """The work arrays of a run: the walk's frames (one per level: reach, edge probability,
    slot, actor, others' reach, values), per slot the counterfactual values and reach and own
    reach, the groups' values (:class:`~.layout.Partition`), and the update's arrays."""
    n, levels = layout.payoffs.shape[1], layout.levels
    slots, infosets = layout.slot_infoset.size, layout.infoset_player.size
    frames = (
        np.ones((levels, n + 1)),
        np.ones(levels),
        np.full(levels, -1, dtype=np.int64),
        np.zeros(levels, dtype=np.int64),
        np.ones(levels),
        np.zeros((levels, n)),
    )
    roots, groups = split.roots.size, split.group_roots.size - 1
    scratch = slots if greedy else 0
    return (
        frames,
        np.zeros((slots, 2)),  # cfv and counterfactual reach (the tie rule's scale)
        np.zeros(slots),  # own reach
        np.zeros((groups if split.level >= 0 else 0, slots, 2)),  # the groups' cfv and reach
        np.zeros((roots, n + 2)),  # each subtree's seed: its parent's reach and actor
        np.zeros((roots, n)),  # each subtree's values
        np.empty(infosets),  # infoset values
        np.empty(infosets),  # infoset tie scales
        np.empty(slots),  # instantaneous regrets
        np.empty(slots),  # the guide regret matching reads
        np.empty(scratch),  # greedy: the average regrets
        *greedy_scan.greedy_scratch(scratch),
    )


def _pass_player(alternating: bool, traversal: int, correlation: tuple[Any, ...]) -> int:
    """Whose values a traversal computes: the traverser's, or every player's (-1) in a
    simultaneous one and in the first of an alternating iteration whose correlation sums are
    tracked (they read every slot's counterfactual value)."""
    tracked = correlation[9].shape[0] > 0
    return -1 if not alternating or (tracked and traversal == 0) else traversal


def _slot_range(player_slots: np.ndarray, alternating: bool, traversal: int) -> tuple[int, int]:
    """The slots of an alternating traversal's traverser, or all: those it updates, and, with
    its pass player (:func:`_pass_player`), those whose counterfactual values it computes."""
    if alternating:
        return player_slots[traversal, 0], player_slots[traversal, 1]
    return 0, player_slots[-1, 1]


_regret_discounts = jit(weighting.regret_discounts_of)
_averaging_step = jit(weighting.averaging_step_of)
_greedy_bounds = jit(weighting.greedy_bounds)
_greedy_lambda = jit(greedy_scan.greedy_lambda_scan)
_accumulate = accumulate
_pass_player_compiled = jit(_pass_player)
_slot_range_compiled = jit(_slot_range)


@jit
def _run(layout, state, schedule, t0, iterations, work, split, correlation):  # pragma: no cover - compiled
    """Iterations ``t0 + 1 .. t0 + iterations`` on ``state``: each traversal (one
    :func:`_walk`, or a partitioned tree's :func:`_top_down`, :func:`_groups` and
    :func:`_top_up`), then the update of the traverser's slots (:func:`_update`)."""
    tree, alternating = DepthFirst(*layout), Schedule(*schedule).alternating
    columns = (tree.depth, tree.edge, tree.actor, tree.chance, tree.payoffs, tree.skip, tree.terminals_before)
    frames, cfv, cfv_groups, seeds, values = work[0], work[1], work[3], work[4], work[5]
    strategy, weight_sum = state[0], state[5]
    reached = correlation[6]
    n = tree.payoffs.shape[1]
    d_avg, c_avg = 1.0, 1.0
    for step in range(iterations):
        t = t0 + step + 1
        for traversal in range(n if alternating else 1):
            player = _pass_player_compiled(alternating, traversal, correlation)
            lo, hi = _slot_range_compiled(tree.player_slots, player >= 0, max(player, 0))
            if split[0] < 0:
                cfv[lo:hi] = 0.0
                _walk(
                    columns,
                    strategy,
                    np.int64(0),
                    tree.depth.shape[0],
                    np.int64(0),
                    np.int64(0),
                    player,
                    frames,
                    cfv,
                    reached,
                    split,
                    seeds,
                    values,
                    np.int64(0),
                )
            else:
                _top_down(columns, strategy, player, frames, reached, split, seeds, values)
                _groups(
                    columns,
                    strategy,
                    np.int64(0),
                    np.int64(1),
                    player,
                    frames,
                    reached,
                    split,
                    cfv_groups,
                    seeds,
                    values,
                    lo,
                    hi,
                )
                _top_up(
                    columns,
                    strategy,
                    player,
                    frames,
                    cfv,
                    reached,
                    split,
                    cfv_groups,
                    seeds,
                    values,
                    lo,
                    hi,
                )
            d_avg, c_avg = _update(layout, state, schedule, t, traversal, player, work, correlation)
        weight_sum[0] = d_avg * weight_sum[0] + c_avg
    return 0  # an int, not None: see "GIL" in docs/architecture.md


@jit
def _top_down(
    columns, strategy, player, frames, reached, split, seeds, values
):  # pragma: no cover - compiled
    """The walk of a partitioned tree's top down to its subtrees: each subtree's seed (its
    parent's reach and actor), no values."""
    no_cfv = np.zeros((0, 2))
    _walk(
        columns,
        strategy,
        np.int64(0),
        columns[0].shape[0],
        np.int64(0),
        np.int64(0),
        player,
        frames,
        no_cfv,
        reached,
        split,
        seeds,
        values,
        np.int64(1),
    )
    return 0


@jit
def _groups(
    columns, strategy, first, stride, player, frames, reached, split, cfv_groups, seeds, values, lo, hi
):  # pragma: no cover - compiled
    """Groups ``first, first + stride, ...`` of a partition (a thread's share: pruning leaves
    neighbouring groups alike, so shares interleave): each subtree walked from its seed, its
    values kept, its counterfactual values added to its group's (slots ``lo:hi`` zeroed
    first)."""
    level, roots, ends, first_terminal, group_roots = split[0], split[1], split[2], split[3], split[5]
    reach, acting, value = frames[0], frames[3], frames[5]
    n = value.shape[1]
    for g in range(first, cfv_groups.shape[0], stride):
        cfv = cfv_groups[g]
        cfv[lo:hi] = 0.0
        for j in range(group_roots[g], group_roots[g + 1]):
            if seeds[j, n + 1] < 0:  # pruned by the top's walk (_walk)
                continue
            for q in range(n + 1):
                reach[level - 1, q] = seeds[j, q]
            acting[level - 1] = int(seeds[j, n + 1])
            _walk(
                columns,
                strategy,
                roots[j],
                ends[j],
                first_terminal[j],
                level,
                player,
                frames,
                cfv,
                reached,
                split,
                seeds,
                values,
                np.int64(0),
            )
            for i in range(n):
                values[j, i] = value[level, i]
    return 0


@jit
def _top_up(
    columns, strategy, player, frames, cfv, reached, split, cfv_groups, seeds, values, lo, hi
):  # pragma: no cover - compiled
    """The walk of a partitioned tree's top back up, with the subtrees' values; then the
    groups' counterfactual values added in group order."""
    cfv[lo:hi] = 0.0
    _walk(
        columns,
        strategy,
        np.int64(0),
        columns[0].shape[0],
        np.int64(0),
        np.int64(0),
        player,
        frames,
        cfv,
        reached,
        split,
        seeds,
        values,
        np.int64(2),
    )
    for g in range(cfv_groups.shape[0]):
        for s in range(lo, hi):
            cfv[s, 0] += cfv_groups[g, s, 0]
            cfv[s, 1] += cfv_groups[g, s, 1]
    return 0


@jit
def _walk(
    columns, strategy, lo, hi, t, base, player, frames, cfv, reached, split, seeds, values, cut
):  # pragma: no cover - compiled
    """Depth-first over the layout's positions ``lo:hi``, a subtree whose root is at level
    ``base`` (the frame above it seeded), or the whole tree (0, N, base 0); ``t`` is its
    first terminal. Entering a history pushes its frame: reach ``pi_q(h) = pi_q(parent)
    sigma(edge)`` for the edge's owner q, ``pi_q(parent)`` for the others (Zinkevich et al.
    2007), and its values set to 0; leaving it adds ``sigma(edge) v(h)`` to its parent's values
    and ``pi_{-i}(parent) v_i(h)`` to ``cfv[slot, 0]`` of the edge's slot, i its owner, and
    ``pi_{-i}(parent)`` to ``cfv[slot, 1]``, its counterfactual reach (a terminal's
    values are its payoffs, added at once). Children are added in their order, the slots'
    values in depth-first order. ``player``: whose values and slots (-1: all). ``cut`` 1
    or 2 walks a partitioned tree's top (:class:`~.layout.Partition`): at its level a subtree
    is skipped after keeping its seed (1), or its values are added (2). A terminal's reach
    goes to ``reached`` when the correlation sums are tracked. Below a move of probability 0
    of player q, every other player's counterfactual reach is 0, so their sums there add 0
    (partial pruning; the same iterates): a pass of player i != q skips the subtree, a
    simultaneous pass walks it as q's pass (untracked: tracking reads every terminal's
    reach), and chance's move of probability 0 is skipped by both. The walk's root values
    stay in its frame (level ``base``).
    Callers pass integers as ``np.int64``: numba compiles a copy of the walk for each
    distinct literal argument (four copies doubled the kernels' first compile)."""
    depth, edge, actor, chance, payoffs, skip, terminals_before = columns
    reach, probability, slot, acting, others, value = frames
    level, ends, skipped = split[0] if cut > 0 else -1, split[2], split[4]
    n = value.shape[1]
    first, last = (0, n) if player < 0 else (player, player + 1)
    pruning = player >= 0
    track = reached.shape[1] > 0
    # a simultaneous pass walks the subtree below another's move of probability 0 as that
    # player's pass (the others' reach is 0 there): from level ``region`` until it is left
    narrowing = player < 0 and not track and level < 0
    region = -1
    top = base - 1
    j = 0
    k = lo
    while k < hi:
        d = depth[k]
        while top >= d:
            if top == region:  # back to every player's values
                player, first, last, pruning, region = -1, 0, n, False, -1
            _leave(
                top, probability[top], slot[top], value, top, player, first, last, value, acting, others, cfv
            )
            top -= 1
        e = edge[k]
        if d == level:  # a subtree the groups walk
            p = strategy[e] if e >= 0 else chance[-2 - e]
            pruned = pruning and p == 0.0 and acting[d - 1] != player
            if cut == 1:
                for q in range(n + 1):
                    seeds[j, q] = reach[d - 1, q]
                seeds[j, n + 1] = -1 if pruned else acting[d - 1]
            elif not pruned:
                _leave(d, p, e, values, j, player, first, last, value, acting, others, cfv)
            t += skipped[j]
            k = ends[j]
            j += 1
            continue
        a = actor[k]
        p = 1.0
        if d == 0:
            for q in range(n + 1):
                reach[0, q] = 1.0
        else:
            mover = acting[d - 1]
            p = strategy[e] if e >= 0 else chance[-2 - e]
            if p == 0.0 and d > base and (pruning or narrowing):  # below: 0 x its values
                if (pruning and mover != player) or (narrowing and mover == n):  # nobody's reach
                    if level < 0:
                        k = skip[k]
                        t = terminals_before[k]
                        continue
                    k += 1
                    t += 1 if a < 0 else 0
                    while k < hi and depth[k] > d:
                        if depth[k] == level:  # a subtree the groups skip too
                            if cut == 1:
                                seeds[j, n + 1] = -1
                            t += skipped[j]
                            k = ends[j]
                            j += 1
                        else:
                            t += 1 if actor[k] < 0 else 0
                            k += 1
                    continue
                if narrowing and a >= 0 and region < 0:  # only the mover's values below
                    for i in range(n):
                        value[d, i] = 0.0
                    player, first, last, pruning, region = mover, mover, mover + 1, True, d
            if a >= 0 or track:
                for q in range(n + 1):
                    reach[d, q] = reach[d - 1, q] * p if q == mover else reach[d - 1, q]
        if a < 0:  # a terminal
            if track:
                for q in range(n + 1):
                    reached[q, t] = reach[d, q]
            if d == base:
                for i in range(first, last):
                    value[d, i] = payoffs[t, i]
                top = d
            else:
                _leave(d, p, e, payoffs, t, player, first, last, value, acting, others, cfv)
            t += 1
        else:
            probability[d], slot[d], acting[d] = p, e, a
            for i in range(first, last):
                value[d, i] = 0.0
            if a < n and (player < 0 or a == player):
                product = 1.0
                for q in range(n + 1):
                    if q != a:
                        product *= reach[d, q]
                others[d] = product
            top = d
        k += 1
    while top > base:
        if top == region:
            player, first, last, pruning, region = -1, 0, n, False, -1
        _leave(top, probability[top], slot[top], value, top, player, first, last, value, acting, others, cfv)
        top -= 1
    return 0


@jit_inline
def _leave(
    d, p, e, source, row, player, first, last, value, acting, others, cfv
):  # pragma: no cover - compiled
    """A child at level ``d`` with edge probability ``p``, slot ``e`` and values
    ``source[row]`` into its parent's frame (:func:`_walk`; rows, not views: a view costs
    numba a reference count per history)."""
    for i in range(first, last):
        value[d - 1, i] += source[row, i] * p
    mover = acting[d - 1]
    if e >= 0 and cfv.shape[0] > 0 and (player < 0 or mover == player):
        cfv[e, 0] += others[d - 1] * source[row, mover]
        cfv[e, 1] += others[d - 1]
    # no return value: inlined (jit_inline), a helper that returns 0 made _walk 4x slower


@jit
def _update(layout, state, schedule, t, traversal, player, work, correlation):  # pragma: no cover - compiled
    """Iteration ``t``'s update of the traverser's slots (all in a simultaneous iteration)
    after a pass of ``player`` (-1: all) left ``cfv`` and the counterfactual reach: own reach,
    instantaneous regrets with exact ties (:func:`~.compiled_tree.tie_scale`), greedy CFR's
    weight, the correlation sums, the discounted regrets, the sums, regret matching. Returns
    the average's ``(d_avg, c_avg)`` (the weight sum's step)."""
    layout, state, schedule = DepthFirst(*layout), StateArrays(*state), Schedule(*schedule)
    slot_infoset, infoset_player = layout.slot_infoset, layout.infoset_player
    infoset_size, infoset_first_slot = layout.infoset_size, layout.infoset_first_slot
    strategy, regret = state.strategy, state.regret
    strategy_sum, true_regret, prediction = state.strategy_sum, state.true_regret, state.prediction
    weight_sum, last_lambda = state.weight_sum, state.last_lambda
    cfv, own, infoset_value, infoset_scale = work[1], work[2], work[6], work[7]
    instant, guide, history, scan, order = work[8], work[9], work[10], work[11], work[12]
    entry_start, range_start, range_lo, range_hi, terminals, first_node = correlation[:6]
    reached, opponents, trigger_sums, follow_sums = correlation[6:]
    lo, hi = _slot_range_compiled(layout.player_slots, schedule.alternating, traversal)
    # own reach pi_i(I) = pi_i(parent sequence) sigma(its move), parents first (Koller, Megiddo
    # & von Stengel 1994): of the pass's player, whose subtrees the walk may have pruned
    for info in layout.own_order:
        if player < 0 or infoset_player[info] == player:
            above = layout.parent_sequence[info]
            reach = 1.0 if above < 0 else own[above] * strategy[above]
            first = infoset_first_slot[info]
            for s in range(first, first + infoset_size[info]):
                own[s] = reach
    d_pos, d_neg = _regret_discounts(schedule.weighting, t, schedule.alpha, schedule.beta)
    d_avg, c_avg = _averaging_step(schedule.averaging, t, schedule.gamma)
    c_new = 1.0  # coefficient of the new regrets (greedy: (1 - lam) W)
    # predictive CFR: the next iteration's discounts on R (Xu et al. 2024), 1 for CFR+'s
    g_pos, g_neg = _regret_discounts(schedule.weighting, t + 1, schedule.alpha, schedule.beta)
    for s in range(lo, hi):
        infoset_value[slot_infoset[s]] = 0.0
        infoset_scale[slot_infoset[s]] = 0.0
    bound = schedule.payoff_bound
    for s in range(lo, hi):
        info = slot_infoset[s]
        infoset_value[info] += strategy[s] * cfv[s, 0]
        infoset_scale[info] = max(infoset_scale[info], abs(cfv[s, 0]), bound * cfv[s, 1])
    for s in range(lo, hi):
        info = slot_infoset[s]
        instant[s] = cfv[s, 0] - infoset_value[info]
        if abs(instant[s]) <= TIE_TOLERANCE * infoset_scale[info]:  # exact ties: 0
            instant[s] = 0.0
    greedy = schedule.weighting == weighting.GREEDY  # simultaneous updates (CFRConfig.validated)
    if greedy and t > 1:  # as weighting.greedy_step: history scaled by lam, new (1-lam) W
        weight = max(weight_sum[0], 1e-300)
        for s in range(lo, hi):
            history[s] = true_regret[s] / weight
        lam_max, lam_tie = _greedy_bounds(t, schedule.greedy_floor)
        lam = _greedy_lambda(history, instant, lam_max, lam_tie, scan, order)
        last_lambda[0] = lam
        d_pos = d_neg = d_avg = lam
        c_new = c_avg = (1.0 - lam) * weight_sum[0]
    elif greedy:
        last_lambda[0] = 0.0
    if follow_sums.shape[0] > 0 and traversal == 0:  # the profile at the iteration's start
        k = terminals.shape[0]
        for info in range(infoset_player.shape[0]):
            reached[infoset_player[info], k + info] = own[infoset_first_slot[info]]
        for s in range(cfv.shape[0]):  # the values, contiguous (the guide is written below)
            guide[s] = cfv[s, 0]
        _accumulate(
            entry_start,
            range_start,
            range_lo,
            range_hi,
            terminals,
            slot_infoset,
            infoset_player,
            first_node,
            reached,
            strategy,
            guide,
            d_avg,
            c_avg,
            trigger_sums,
            follow_sums,
            opponents,
        )
    for s in range(lo, hi):
        kept = d_pos * regret[s] if regret[s] > 0 else d_neg * regret[s]
        added = c_new * instant[s]
        updated = kept + added
        if abs(updated) <= TIE_TOLERANCE * (abs(kept) + abs(added)):  # cancelled: 0
            updated = 0.0
        regret[s] = max(updated, 0.0) if schedule.plus else updated
        guide[s] = regret[s]
        if schedule.predictive:  # the prediction m = c r, the guide d' R + m (cancelled: 0)
            prediction[s] = added
            kept = g_pos * regret[s] if regret[s] > 0 else g_neg * regret[s]
            guess = kept + added
            if abs(guess) <= TIE_TOLERANCE * (abs(kept) + abs(added)):
                guess = 0.0
            guide[s] = guess
        strategy_sum[s] = d_avg * strategy_sum[s] + c_avg * (own[s] * strategy[s])
        true_regret[s] = d_avg * true_regret[s] + c_avg * instant[s]
    # regret matching at the updated information sets, on the guide
    s = lo
    while s < hi:
        size = infoset_size[slot_infoset[s]]
        _regret_matching(s, size, guide, strategy)
        s += size
    return d_avg, c_avg


@jit
def _regret_matching(first, size, regret, strategy):  # pragma: no cover - compiled
    """``sigma(I, a) = [R(I, a)]_+ / sum_b [R(I, b)]_+`` over the slots ``first:first + size``
    of one information set, uniform when none is positive (Hart & Mas-Colell 2000; CFR's
    and Monte-Carlo CFR's kernels alike)."""
    total = 0.0
    for s in range(first, first + size):
        total += regret[s] if regret[s] > 0 else 0.0
    for s in range(first, first + size):
        positive = regret[s] if regret[s] > 0 else 0.0
        strategy[s] = positive / total if total > 0 else 1.0 / size
