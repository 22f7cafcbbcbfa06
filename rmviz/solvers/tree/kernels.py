"""Compiled CFR iterations (numba) over a :class:`~rmviz.solvers.tree.compiled_tree.CompiledTree`.

The same update as :meth:`rmviz.solvers.tree.solver.CFRSolver._iterate` for the full-traversal
variants (CFR, CFR+, linear CFR, DCFR; simultaneous or alternating; greedy CFR), written as
loops over node ids: nodes are numbered breadth first, so a parent always precedes its
children and one forward loop computes reach probabilities, one reverse loop the values.
Sums run in the same order as the NumPy passes. Greedy CFR (Zhang, Lerer & Brown, AAAI 2022,
appendix) takes its one weight per iteration from :func:`.greedy_scan.greedy_lambda_scan`, the
loop form of the line search of :func:`.weighting.greedy_step`. Monte-Carlo CFR runs in
:mod:`.sampling_kernels`.
``tests/solvers/tree/test_cfr.py`` checks both paths against each other and against OpenSpiel.
"""

from __future__ import annotations

import copy

import numpy as np

from rmviz.solvers import greedy_scan, weighting
from rmviz.solvers.jit import AVAILABLE, jit
from rmviz.solvers.regret_matching import TIE_TOLERANCE
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.state import CFRState


def runs(config: CFRConfig) -> bool:
    """Whether a :class:`FullTraversal` runs this configuration (full traversals)."""
    return AVAILABLE and config.sampling == "none"


PAYOFFS_ARGUMENT = 6  # tree.payoffs in FullTraversal.tree_arguments


class FullTraversal:
    """Full-traversal CFR of one configuration on one tree: the kernel's arguments are
    gathered once and the schemes passed as integers (:data:`.weighting.SCHEMES`), so a call
    costs numba's dispatch and the iterations (``step(1)`` on Kuhn: 30 us before, when each
    call rebuilt the arguments and numba typed two strings through its slow path)."""

    def __init__(self, tree: CompiledTree, config: CFRConfig, greedy_floor: float = 0.0) -> None:
        """``greedy_floor`` is the greedy weight floor (:func:`.weighting.greedy_bounds`)."""
        self.weight_sum, self.last_lambda = np.zeros(1), np.zeros(1)
        self.tree_arguments: tuple[np.ndarray, ...] = (
            tree.parent,
            tree.edge_owner,
            tree.edge_slot,
            tree.chance_probability,
            tree.child_start,
            tree.child_count,
            tree.payoffs,
            tree.player,
            tree.slot_infoset,
            tree.infoset_player,
            tree.infoset_first_node,
            tree.infoset_size,
            tree.infoset_first_slot,
            np.array([s for s, _ in tree.player_slots], dtype=np.int64),
            np.array([e for _, e in tree.player_slots], dtype=np.int64),
        )
        self.options = (
            config.plus,
            config.updates == "alternating",
            weighting.SCHEMES.index(config.weighting),
            weighting.SCHEMES.index(config.averaging or config.weighting),
            config.alpha,
            config.beta,
            config.gamma,
            greedy_floor,
        )

    def with_payoffs(self, payoffs: np.ndarray, greedy_floor: float) -> FullTraversal:
        """The same traversal of a game of the same tree with other payoffs ``(n, N)`` (the
        tree's node order) and its greedy weight floor (:mod:`.batch`)."""
        other = copy.copy(self)
        other.weight_sum, other.last_lambda = np.zeros(1), np.zeros(1)
        arguments = list(self.tree_arguments)
        arguments[PAYOFFS_ARGUMENT] = payoffs
        other.tree_arguments = tuple(arguments)
        other.options = (*self.options[:-1], greedy_floor)
        return other

    def run(self, state: CFRState, iterations: int) -> None:
        """Run ``iterations`` iterations on ``state``, in place."""
        self.weight_sum[0], self.last_lambda[0] = state.weight_sum, state.last_lambda
        _run(
            *self.tree_arguments,
            state.strategy,
            state.regret,
            state.strategy_sum,
            state.true_regret,
            self.weight_sum,
            self.last_lambda,
            *self.options,
            state.iteration,
            iterations,
        )
        state.weight_sum = float(self.weight_sum[0])
        state.last_lambda = float(self.last_lambda[0])
        state.iteration += iterations


_regret_discounts = jit(weighting.regret_discounts_of)
_averaging_step = jit(weighting.averaging_step_of)
_greedy_bounds = jit(weighting.greedy_bounds)
_greedy_lambda = jit(greedy_scan.greedy_lambda_scan)
_greedy_scratch = jit(greedy_scan.greedy_scratch)


@jit
def _run(
    parent,
    owner,
    slot,
    chance_probability,
    child_start,
    child_count,
    payoffs,
    node_player,
    slot_infoset,
    infoset_player,
    infoset_first_node,
    infoset_size,
    infoset_first_slot,
    player_start,
    player_end,
    strategy,
    regret,
    strategy_sum,
    true_regret,
    weight_sum,
    last_lambda,
    plus,
    alternating,
    weighting_scheme,
    averaging_scheme,
    alpha,
    beta,
    gamma,
    floor,
    t0,
    iterations,
):  # pragma: no cover - compiled
    n, nodes = payoffs.shape
    slots = slot_infoset.shape[0]
    infosets = infoset_player.shape[0]
    probability = np.empty(nodes)
    reach = np.ones((n + 1, nodes))
    values = np.empty((n, nodes))
    cfv = np.empty(slots)
    infoset_value = np.empty(infosets)
    infoset_scale = np.empty(infosets)
    instant = np.empty(slots)
    greedy = weighting_scheme == weighting.GREEDY  # simultaneous updates (CFRConfig.validated)
    history = np.empty(slots if greedy else 0)
    work, order = _greedy_scratch(slots if greedy else 0)
    for step in range(iterations):
        t = t0 + step + 1
        d_pos, d_neg = _regret_discounts(weighting_scheme, t, alpha, beta)
        d_avg, c_avg = _averaging_step(averaging_scheme, t, gamma)
        c_new = 1.0  # coefficient of the new regrets (greedy: (1 - lam) W)
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
            lo, hi = (player_start[player], player_end[player]) if alternating else (0, slots)
            for s in range(lo, hi):
                info = slot_infoset[s]
                instant[s] = cfv[s] - infoset_value[info]
                if abs(instant[s]) <= TIE_TOLERANCE * infoset_scale[info]:  # exact ties: 0
                    instant[s] = 0.0
            if greedy and t > 1:  # as weighting.greedy_step: history scaled by lam, new (1-lam) W
                weight = max(weight_sum[0], 1e-300)
                for s in range(slots):
                    history[s] = true_regret[s] / weight
                lam_max, lam_tie = _greedy_bounds(t, floor)
                lam = _greedy_lambda(history, instant, lam_max, lam_tie, work, order)
                last_lambda[0] = lam
                d_pos = d_neg = d_avg = lam
                c_new = c_avg = (1.0 - lam) * weight_sum[0]
            elif greedy:
                last_lambda[0] = 0.0
            for s in range(lo, hi):
                info = slot_infoset[s]
                kept = d_pos * regret[s] if regret[s] > 0 else d_neg * regret[s]
                added = c_new * instant[s]
                updated = kept + added
                if abs(updated) <= TIE_TOLERANCE * (abs(kept) + abs(added)):  # cancelled: 0
                    updated = 0.0
                regret[s] = max(updated, 0.0) if plus else updated
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
                    total += regret[s] if regret[s] > 0 else 0.0
                for s in range(first, first + size):
                    positive = regret[s] if regret[s] > 0 else 0.0
                    strategy[s] = positive / total if total > 0 else 1.0 / size
        weight_sum[0] = d_avg * weight_sum[0] + c_avg
    return 0  # an int, not None: see "GIL" in docs/architecture.md
