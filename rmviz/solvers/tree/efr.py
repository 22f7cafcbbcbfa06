"""Extensive-form regret minimisation (EFR): CFR generalised to richer deviation sets.

EFR (Morrill, D'Orazio, Lanctot, Wright, Bowling & Greenwald 2021, ICML, "Efficient
deviation types and learning for hindsight rationality in extensive-form games") keeps, at
every information set I of player i, a regret per deviation ``(rho, phi)``: a time selection
``rho(I)`` (the player's own reach of a prefix of their sequence to I, ``pi_i`` of its first k
moves; k = 0 is 1) and a transformation ``phi`` of sigma(I) (external: "play b"; internal:
"play b when recommended a"). Its regret adds ``rho_t(I) (phi(sigma_t(I)) - sigma_t(I)) . cfv_t(I)``
each iteration; the next sigma(I) is the fixed point ``sum_d y_d phi_d(x) = (sum_d y_d) x``
with ``y_d = [R_d]_+ rho_{t+1}(I)`` (the ancestors' new strategies), uniform when every y is
0: for internal sets the stationary distribution of the chain with rates y (the shared
:func:`~rmviz.solvers.stationary.stationary_distribution`, compiled and exact), for external-only sets y per
target normalised. Deviation sets (:data:`~rmviz.solvers.family.DEVIATIONS`):
blind/informed action (k = own depth), blind/informed counterfactual (k = 0; blind-cf is
CFR) and causal, OpenSpiel's efr.py "csps". Simultaneous updates, uniform averaging.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from rmviz.errors import ConfigError
from rmviz.solvers.jit import jit
from rmviz.solvers.stationary import chain_bits, stationary_distribution
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses
from rmviz.solvers.tree.solver import CFRSolver, IterationRecord
from rmviz.solvers.tree.state import CFRState

# OpenSpiel's efr.py name of each deviation set (EFRSolver(game, name))
OPENSPIEL_NAMES = {
    "blind-action": "blind action",
    "informed-action": "informed action",
    "blind-cf": "blind cf",
    "informed-cf": "informed cf",
    "causal": "csps",
}


@dataclass(frozen=True)
class Deviations:
    """One deviation set laid out on a tree: a list of *groups*, each a time selection
    ``level`` (the number of own moves of the prefix whose reach weighs it) of one
    information set with a multiplicity ``weight`` and a kind (external or internal).

    ``group_infoset``, ``group_level``, ``group_weight``, ``group_internal`` per group;
    the regrets of the groups are laid out one after the other, ``|A(I)|`` entries for an
    external group (per target) and ``|A(I)|^2`` for an internal one (source-major,
    the diagonal unused); ``entry_group``, ``entry_source``, ``entry_target`` (slots) per
    entry. ``ancestors`` ``(I, D)``: the slots of each information set's own earlier moves,
    root first, padded with ``S`` (a slot whose probability is 1).
    """

    name: str
    group_infoset: np.ndarray
    group_level: np.ndarray
    group_weight: np.ndarray
    group_internal: np.ndarray
    entry_group: np.ndarray
    entry_source: np.ndarray
    entry_target: np.ndarray
    ancestors: np.ndarray

    @property
    def internal(self) -> bool:
        """Whether any group is internal (the fixed point is a stationary distribution)."""
        return bool(self.group_internal.any())


def layout(tree: CompiledTree, passes: TreePasses, name: str) -> Deviations:
    """The deviation set ``name`` on ``tree``, as OpenSpiel's efr.py builds it: action sets
    weigh by the whole own reach, counterfactual sets by 1, and ``causal`` (its ``csps``) has
    external deviations at every prefix k < own depth, counted once per move of the k-th own
    information set (its duplicates), plus blind action, informed cf and blind cf."""
    depth = tree.infoset_own_depth.astype(np.int64)
    groups: list[tuple[int, int, int, bool]] = []
    for infoset in range(tree.n_infosets):
        d = int(depth[infoset])
        if name == "blind-action":
            groups.append((infoset, d, 1, False))
        elif name == "informed-action":
            groups.append((infoset, d, 1, True))
        elif name == "blind-cf":
            groups.append((infoset, 0, 1, False))
        elif name == "informed-cf":
            groups.append((infoset, 0, 1, True))
        elif name == "causal":
            chain = _own_chain(tree, passes, infoset)
            for k in range(d):
                groups.append((infoset, k, int(tree.infoset_size[tree.slot_infoset[chain[k]]]), False))
            groups += [(infoset, d, 1, False), (infoset, 0, 1, True), (infoset, 0, 1, False)]
        else:
            raise ConfigError(f"unknown deviations {name!r}")
    entry_group, source, target = [], [], []
    for g, (infoset, _, _, internal) in enumerate(groups):
        first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
        pairs = (
            [(a, b) for a in range(size) for b in range(size)] if internal else [(b, b) for b in range(size)]
        )
        for a, b in pairs:
            entry_group.append(g)
            source.append(first + a)
            target.append(first + b)
    width = max(int(depth.max(initial=0)), 1)
    ancestors = np.full((tree.n_infosets, width), tree.n_slots, dtype=np.int64)
    for infoset in range(tree.n_infosets):
        chain = _own_chain(tree, passes, infoset)
        ancestors[infoset, : len(chain)] = chain
    columns = np.array(groups, dtype=np.int64).reshape(-1, 4)
    return Deviations(
        name=name,
        group_infoset=columns[:, 0],
        group_level=columns[:, 1],
        group_weight=columns[:, 2].astype(np.float64),
        group_internal=columns[:, 3].astype(bool),
        entry_group=np.array(entry_group, dtype=np.int64),
        entry_source=np.array(source, dtype=np.int64),
        entry_target=np.array(target, dtype=np.int64),
        ancestors=ancestors,
    )


def _own_chain(tree: CompiledTree, passes: TreePasses, infoset: int) -> list[int]:
    """The slots of ``infoset``'s player's earlier moves on the way to it, root first."""
    chain = []
    slot = int(passes.infoset_parent_sequence[infoset])
    while slot >= 0:
        chain.append(slot)
        slot = int(passes.infoset_parent_sequence[tree.slot_infoset[slot]])
    return chain[::-1]


def prefix_reach(deviations: Deviations, strategy: np.ndarray) -> np.ndarray:
    """``(I, D + 1)``: column k is the product of ``strategy`` over each information set's
    first k own earlier moves (1 for k = 0 and past its own depth's padding)."""
    padded = np.append(strategy, 1.0)[deviations.ancestors]
    return np.concatenate([np.ones((padded.shape[0], 1)), np.cumprod(padded, axis=1)], axis=1)


@dataclass
class EFRState(CFRState):
    """A CFR state plus each deviation's cumulative regret (:class:`Deviations` entries)."""

    deviation_regret: np.ndarray | None = None


class EFRSolver(CFRSolver):
    """EFR (see the module docstring) on an :class:`ExtensiveFormGame`, the ``Solver``
    protocol of :class:`CFRSolver`: the same metrics, correlation gaps, snapshots and
    checkpoints; ``regret`` per slot holds the counterfactual regrets (blind-cf's)."""

    deviations: Deviations | None = None  # laid out once CFRSolver has compiled the tree

    def __post_init__(self) -> None:
        super().__post_init__()
        # EFR runs in NumPy (its fixed points are per information set), never on the GPU
        self.traversal = None
        self.device = None
        self.releases_gil = False
        assert self.config.deviations is not None
        self.deviations = dev = layout(self.tree, self.passes, self.config.deviations)
        # information sets by own depth: an update reads its ancestors' new strategies
        depth = self.tree.infoset_own_depth
        self.by_depth = [np.flatnonzero(depth == d) for d in range(int(depth.max(initial=0)) + 1)]
        self.depth_slots = [
            np.flatnonzero(np.isin(self.tree.slot_infoset, infosets)) for infosets in self.by_depth
        ]
        # each information set's entries are contiguous (laid out information set by set)
        owner = dev.group_infoset[dev.entry_group]
        infosets = np.arange(self.tree.n_infosets)
        self.entry_lo = np.searchsorted(owner, infosets, "left").astype(np.int64)
        self.entry_hi = np.searchsorted(owner, infosets, "right").astype(np.int64)
        self.entry_external = ~dev.group_internal[dev.entry_group]
        widest = int(self.tree.infoset_size.max(initial=1))
        self.workspace = (
            np.empty(widest * widest),
            np.empty(widest),
            np.empty((widest, widest)),
            np.empty((4, widest), dtype=np.int64),
        )
        self.reset(self.config.seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        state = self.state
        if self.deviations is None:  # CFRSolver.__post_init__'s reset, before the layout
            return
        self.state = EFRState(
            iteration=0,
            strategy=state.strategy,
            regret=state.regret,
            strategy_sum=state.strategy_sum,
            true_regret=state.true_regret,
            trigger_sums=state.trigger_sums,
            follow_sums=state.follow_sums,
            deviation_regret=np.zeros(self.deviations.entry_group.size),
        )

    def step(self, iterations: int = 1) -> None:
        """Run ``iterations`` EFR iterations."""
        start = time.perf_counter()
        for _ in range(iterations):
            self._iterate_efr()
        self.elapsed += time.perf_counter() - start

    def step_recorded(self) -> IterationRecord:
        raise ConfigError("the step-by-step record shows CFR iterations; EFR runs with step()")

    def _iterate_efr(self) -> None:
        state, passes, tree, dev = self.state, self.passes, self.tree, self.deviations
        assert isinstance(state, EFRState) and state.deviation_regret is not None and dev is not None
        t = self.iteration + 1
        step = self.schedule.step(t)
        sigma = state.strategy
        probabilities = passes.edge_probabilities(sigma)
        reach = passes.reach(probabilities)
        others = passes.others_reach(reach)
        cfv = passes.counterfactual_values(others, passes.values(probabilities))
        regret = passes.instantaneous_regret(sigma, cfv, passes.counterfactual_reach(others))
        self._accumulate(reach, sigma, cfv, step)
        own = reach[tree.infoset_player, tree.infoset_first_node][tree.slot_infoset]
        state.strategy_sum += own * sigma
        state.true_regret += regret
        state.regret += regret
        # each deviation's regret: rho_t(I) * sigma(source) * (r(target) - r(source)) for an
        # internal one, rho_t(I) * r(target) for an external one (source = target)
        rho = prefix_reach(dev, sigma)[dev.group_infoset, dev.group_level][dev.entry_group]
        internal = dev.group_internal[dev.entry_group]
        gain = np.where(
            internal,
            sigma[dev.entry_source] * (regret[dev.entry_target] - regret[dev.entry_source]),
            regret[dev.entry_target],
        )
        state.deviation_regret += rho * gain
        state.strategy = self._next_strategy(state.deviation_regret, sigma.copy())
        state.weight_sum = float(step.d_avg * state.weight_sum + step.c_avg)
        state.iteration = t

    def _next_strategy(self, cumulative: np.ndarray, strategy: np.ndarray) -> np.ndarray:
        """The fixed points, information sets in order of own depth (their time selections
        read the ancestors' new strategies, as OpenSpiel's ``_update_current_policy``)."""
        dev, tree = self.deviations, self.tree
        assert dev is not None
        positive = np.maximum(cumulative, 0.0)
        for infosets, slots in zip(self.by_depth, self.depth_slots, strict=True):
            rho = prefix_reach(dev, strategy)[dev.group_infoset, dev.group_level] * dev.group_weight
            y = positive * rho[dev.entry_group]
            if not dev.internal:  # regret matching on y per target, every information set at once
                by_target = np.bincount(dev.entry_target, y, minlength=tree.n_slots)
                total = self.passes.infoset_sums(by_target)
                uniform = 1.0 / tree.infoset_size[tree.slot_infoset]
                matched = np.where(total > 0, by_target / np.where(total > 0, total, 1.0), uniform)
                strategy[slots] = matched[slots]
                continue
            _fixed_points(
                infosets,
                tree.infoset_first_slot,
                tree.infoset_size,
                self.entry_lo,
                self.entry_hi,
                dev.entry_source,
                dev.entry_target,
                self.entry_external,
                y,
                strategy,
                *self.workspace,
            )
        return strategy


@jit
def _fixed_points(
    infosets,
    first_slot,
    sizes,
    lo_entry,
    hi_entry,
    source,
    target,
    external,
    y,
    strategy,
    rates,
    spread,
    work,
    labels,
):  # pragma: no cover - compiled
    """sigma(I) for each of ``infosets`` from the weights ``y`` of its deviations (the module
    docstring), written into ``strategy``: the stationary distribution of the chain whose rate
    from a to b is the weight of "play b when recommended a" (internal) plus that of "play b"
    (external, from every a), by the compiled exact elimination
    (:func:`~rmviz.solvers.stationary.stationary_distribution`); uniform where no weight is
    positive. Rates summed in entry order, external ones last (as ``np.add.at`` then
    ``np.bincount`` sum them). ``rates``, ``spread``, ``work``, ``labels``: workspaces for the
    widest set."""
    for j in range(infosets.shape[0]):
        info = infosets[j]
        first, k = first_slot[info], sizes[info]
        lo, hi = lo_entry[info], hi_entry[info]
        positive = False
        for e in range(lo, hi):
            positive = positive or y[e] > 0.0
        if not positive:
            for a in range(k):
                strategy[first + a] = 1.0 / k
            continue
        chain = rates[: k * k].reshape((k, k))
        for b in range(k):
            spread[b] = 0.0
            for a in range(k):
                chain[b, a] = 0.0
        for e in range(lo, hi):
            if not external[e]:
                chain[source[e] - first, target[e] - first] += y[e]
        for e in range(lo, hi):
            if external[e]:
                spread[target[e] - first] += y[e]
        for b in range(k):
            for a in range(k):
                chain[b, a] = 0.0 if a == b else chain[b, a] + spread[a]
        out = strategy[first : first + k]
        stationary_distribution(chain, out, work, labels, chain_bits(k))
