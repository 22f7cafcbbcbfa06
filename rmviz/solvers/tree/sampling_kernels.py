"""Compiled Monte-Carlo CFR (numba): an iteration touches only the sampled part of the tree.

Monte-Carlo CFR (Lanctot, Waugh, Zinkevich & Bowling 2009, "Monte Carlo Sampling for Regret
Minimization in Extensive Games") replaces the counterfactual values by unbiased estimates
from a sample: chance sampling and external sampling (:func:`_run_subtree`), outcome
sampling (:func:`_run_outcome`). Regrets then follow the full-width update
``r(I, a) = cfv(I, a) - sum_b sigma(I, b) cfv(I, b)``, ``R += r``, regret matching at the
updated information sets. Nothing recurses: the work per traversal is the number of nodes
sampled. The uniform draw at node h in traversal k of iteration t is
``splitmix64(key(seed, t, k) + (h + 1) * golden) / 2^64`` (Steele, Lea & Flood 2014), so a
run depends on its seed only, and the NumPy reference (:mod:`rmviz.solvers.tree.sampling`)
gets the same iterates bit for bit. The estimators: docs/algorithms.md, "Monte-Carlo CFR".
"""

from __future__ import annotations

import numpy as np

from rmviz.solvers.jit import AVAILABLE, jit
from rmviz.solvers.regret_matching import TIE_TOLERANCE
from rmviz.solvers.scale import largest_payoff
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreeArrays
from rmviz.solvers.tree.config import SAMPLINGS as CONFIG_SAMPLINGS
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.kernels import CompiledRun, Schedule, StateArrays, _regret_matching
from rmviz.solvers.tree.state import CFRState

GOLDEN = 0x9E3779B97F4A7C15  # 2^64 / golden ratio, splitmix64's increment
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
MASK = (1 << 64) - 1
SAMPLINGS = ("chance", "external", "outcome")
EXTERNAL = CONFIG_SAMPLINGS.index("external")  # as Schedule.sampling holds it


def runs(config: CFRConfig) -> bool:
    """Whether a :class:`Sampler` runs this configuration (Monte-Carlo CFR, numba present)."""
    return AVAILABLE and config.sampling in SAMPLINGS


def seed_key(seed: int) -> int:
    """The run's seed as an unsigned 64-bit integer (negative seeds wrap)."""
    return int(seed) & MASK


class Sampler(CompiledRun[TreeArrays]):
    """Monte-Carlo CFR of one configuration on one tree: a call costs numba's dispatch of the
    bundles of :class:`~rmviz.solvers.tree.kernels.CompiledRun`, the work arrays and three
    integers, and the iterations.

    The work arrays are allocated once, here: sized to the whole tree, they cost more to
    allocate and zero than a sample costs to walk (external sampling on Liar's dice: 351 us
    a ``step(1)`` against 21 us an iteration inside ``step(2000)``). The kernels leave the
    zeroed ones (``cfv``, ``visits``) zero at the end of every traversal."""

    def __init__(self, tree: CompiledTree, config: CFRConfig) -> None:
        super().__init__(TreeArrays.of(tree), Schedule.of(config, largest_payoff(tree.payoffs)))
        outcome = config.sampling == "outcome"
        self.kernel = _run_outcome if outcome else _run_subtree
        self.work = _outcome_work(self.tree) if outcome else _subtree_work(self.tree)

    def run(self, state: CFRState, seed: int, iterations: int) -> None:
        """Run ``iterations`` iterations on ``state``, in place, with the draws of ``seed``."""
        tree, schedule = self.packed
        key = np.uint64(seed_key(seed))
        self.kernel(tree, self.state_arrays(state), schedule, self.work, key, state.iteration, iterations)
        self.finish(state, iterations)


def _subtree_work(tree: TreeArrays) -> tuple[np.ndarray, ...]:
    """:func:`_run_subtree`'s work arrays: per node the sampled subtree's order, the sampled
    child, the move's probability, the reaches and the values; per slot the counterfactual
    values and reach; per information set the owner's reach, the visits and the list reached; the
    widest node's weights."""
    n, nodes = tree.payoffs.shape
    infosets = tree.infoset_player.shape[0]
    return (
        np.empty(nodes, dtype=np.int64),
        np.empty(nodes, dtype=np.int64),
        np.empty(nodes),
        np.empty((n + 1, nodes)),
        np.empty((n, nodes)),
        np.zeros((tree.slot_infoset.shape[0], 2)),
        np.empty(infosets),
        np.zeros(infosets),
        np.empty(infosets, dtype=np.int64),
        np.empty(max(tree.width, 1)),
    )


def _outcome_work(tree: TreeArrays) -> tuple[np.ndarray, ...]:
    """:func:`_run_outcome`'s work arrays: the widest node's weights, per depth the path, the
    sampled child, its probability and the three reaches; per slot the counterfactual values
    and reach."""
    depth = tree.depth
    return (
        np.empty(max(tree.width, 1)),
        np.empty(depth, dtype=np.int64),
        np.empty(depth, dtype=np.int64),
        *(np.empty(depth) for _ in range(4)),
        np.zeros((tree.slot_infoset.shape[0], 2)),
    )


# -- random numbers ----------------------------------------------------------------------------
@jit
def mix(z):  # pragma: no cover - compiled
    """splitmix64's output function of a uint64 (Steele, Lea & Flood 2014)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return z ^ (z >> np.uint64(31))


@jit
def traversal_key(seed, t, traversal):  # pragma: no cover - compiled
    """The key of traversal ``traversal`` (a player, or n for a simultaneous one) of
    iteration ``t``: splitmix64 applied to the seed, then t, then the traversal."""
    key = mix(seed + np.uint64(GOLDEN))
    key = mix(key + np.uint64(t))
    return mix(key + np.uint64(traversal))


@jit
def uniform(key, node):  # pragma: no cover - compiled
    """The draw in [0, 1) at ``node`` of the traversal with ``key`` (53 random bits).

    Counter-based, so a run depends on its seed only: not on how its iterations are split
    into calls, nor on other solvers running in the same thread (numba's own generator is
    one global state per thread, so two solvers stepping in turn would change each other's
    samples). The NumPy reference (:mod:`rmviz.solvers.tree.sampling`) draws the very same
    numbers for the same nodes."""
    z = mix(key + np.uint64(node + 1) * np.uint64(GOLDEN))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def pick(weights, count, u):  # pragma: no cover - compiled
    """Inverse-CDF sampling from ``weights[:count]`` (not normalised): the first k with
    ``u * total < weights[0] + ... + weights[k]``, sums left to right; the last positive
    weight if rounding leaves none."""
    total = 0.0
    for k in range(count):
        total += weights[k]
    target = u * total
    running = 0.0
    last = 0
    for k in range(count):
        running += weights[k]
        if weights[k] > 0:
            last = k
            if target < running:
                return k
    return last


# -- chance and external sampling ----------------------------------------------------------
@jit
def _run_subtree(tree, state, schedule, work, seed, t0, iterations):  # pragma: no cover - compiled
    """Chance or external sampling: per traversal, the sampled subtree breadth first (a
    queue of node ids), values back up it, then the updates at the information sets it
    reached. Node ids ascend, so every sum runs in the order of the NumPy reference and the
    iterates are the reference's bit for bit. Per traversal of player i (alternating
    updates; chance sampling may also run simultaneous ones):

    * chance sampling: one outcome at every chance node, every decision explored; the
      sampled outcome counts 1 in ``pi_-i(h)`` (its probability cancels against the sampling
      probability). Player i's average strategy adds ``pi_i(I) sigma(I)`` once at every
      information set the sample reaches (chance-sampled CFR, Lanctot 2013, Algorithm 1).
    * external sampling: chance and the other players sample one move at every node they
      reach; all of player i's moves are explored, so ``cfv(I, a) = v_i(h a)`` at the
      (single, by perfect recall) history h of I the sample reaches. The other players'
      average strategies add ``sigma(I)`` at every history of I the sample visits ("simple"
      averaging, as OpenSpiel's ``ExternalSamplingMCCFRSolver``).

    Uniform weights (Monte-Carlo CFR's only weighting here): ``d = c = 1``. The
    bundles are :class:`~rmviz.solvers.tree.kernels.CompiledRun`'s, named again here."""
    tree, state, schedule = TreeArrays(*tree), StateArrays(*state), Schedule(*schedule)
    parent, owner, slot = tree.parent, tree.edge_owner, tree.edge_slot
    chance_probability, child_start, child_count = tree.chance_probability, tree.child_start, tree.child_count
    payoffs, node_player, node_infoset = tree.payoffs, tree.player, tree.node_infoset
    infoset_player = tree.infoset_player
    infoset_size, infoset_first_slot = tree.infoset_size, tree.infoset_first_slot
    strategy, regret = state.strategy, state.regret
    strategy_sum, true_regret, weight_sum = state.strategy_sum, state.true_regret, state.weight_sum
    plus, alternating, external = schedule.plus, schedule.alternating, schedule.sampling == EXTERNAL
    bound = schedule.payoff_bound
    n = payoffs.shape[0]
    # per node, written at a node's visit before they are read (no full-tree initialisation:
    # a call costs what its samples cost); cfv and visits are zero between traversals.
    # order: the sampled subtree, breadth first; chosen: the sampled child at sampled nodes,
    # else -1; visits: histories of each information set the sample reached, reached: those
    # information sets, in order (Sampler's work arrays, _subtree_work)
    order, chosen, probability, reach, values, cfv, own_reach, visits, reached, weights = work
    reach[:, 0] = 1.0
    for step in range(iterations):
        t = t0 + step + 1
        for traversal in range(n if alternating else 1):
            player = traversal if alternating else -1
            key = traversal_key(seed, t, traversal if alternating else n)
            # the sampled subtree, parents before children (ids ascend: breadth-first numbering)
            order[0] = 0
            count, head, n_reached = 1, 0, 0
            while head < count:
                h = order[head]
                head += 1
                k = child_count[h]
                if k == 0:
                    continue
                first = child_start[h]
                acting = node_player[h]
                if acting >= 0:
                    info = node_infoset[h]
                    if visits[info] == 0:
                        reached[n_reached] = info
                        n_reached += 1
                        own_reach[info] = reach[acting, h]
                    visits[info] += 1
                sampled = acting < 0 or (external and acting != player)
                for j in range(k):
                    c = first + j
                    probability[c] = chance_probability[c] if slot[c] < 0 else strategy[slot[c]]
                if sampled:
                    for j in range(k):
                        weights[j] = probability[first + j]
                    c = first + pick(weights, k, uniform(key, h))
                    chosen[h] = c
                    probability[c] = 1.0
                    for q in range(n + 1):
                        reach[q, c] = reach[q, h]
                    order[count] = c
                    count += 1
                else:
                    chosen[h] = -1
                    for c in range(first, first + k):
                        for q in range(n + 1):
                            reach[q, c] = reach[q, h] * probability[c] if owner[c] == q else reach[q, h]
                        order[count] = c
                        count += 1
            # values, children before parents
            for index in range(count - 1, -1, -1):
                h = order[index]
                if child_count[h] == 0:
                    for i in range(n):
                        values[i, h] = payoffs[i, h]
                elif chosen[h] >= 0:
                    for i in range(n):
                        values[i, h] = values[i, chosen[h]]
                else:
                    first, k = child_start[h], child_count[h]
                    for i in range(n):
                        if k > 8:
                            values[i, h] = _children_sum(values, i, probability, first, k)
                            continue
                        # np.add.reduceat's order, inlined for the usual few children: the
                        # first term plus the sequential sum of the others (see _children_sum)
                        rest = 0.0
                        for c in range(first + 1, first + k):
                            rest += values[i, c] * probability[c]
                        head = values[i, first] * probability[first]
                        values[i, h] = head + rest if k > 1 else head
            # counterfactual values of the updated players' moves, edges in id order
            for index in range(1, count):
                c = order[index]
                s = slot[c]
                if s < 0:
                    continue
                acting = owner[c]
                if alternating and acting != player:
                    continue
                h = parent[c]
                others = 1.0
                for q in range(n + 1):
                    if q != acting:
                        others *= reach[q, h]
                cfv[s, 0] += others * values[acting, c]
                cfv[s, 1] += others
            # updates at the information sets reached
            for r in range(n_reached):
                info = reached[r]
                first = infoset_first_slot[info]
                size = infoset_size[info]
                mover = infoset_player[info]
                if alternating and mover != player:
                    if external:  # the other players' averages, once per visited history
                        for s in range(first, first + size):
                            strategy_sum[s] = strategy_sum[s] + visits[info] * strategy[s]
                elif not alternating or mover == player:
                    _regret_update(first, size, cfv, bound, strategy, regret, true_regret, plus)
                    if not external:
                        for s in range(first, first + size):
                            strategy_sum[s] = strategy_sum[s] + own_reach[info] * strategy[s]
                    _regret_matching(first, size, regret, strategy)
                for s in range(first, first + size):
                    cfv[s, 0] = cfv[s, 1] = 0.0
                visits[info] = 0
        weight_sum[0] = weight_sum[0] + 1.0
    return 0  # an int, not None: see "GIL" in docs/architecture.md


@jit
def _children_sum(values, row, probability, first, count):  # pragma: no cover - compiled
    """``sum_c p(c) v(c)`` over ``count`` children in the order of NumPy's
    ``np.add.reduceat`` (the reference's backward pass): the first term plus NumPy's
    pairwise sum of the others, so both give the same bits."""
    total = values[row, first] * probability[first]
    if count > 1:
        total += _pairwise(values, row, probability, first + 1, count - 1)
    return total


@jit
def _block(values, row, probability, start, n):  # pragma: no cover - compiled
    """NumPy's pairwise sum of at most 128 terms: sequential below 8, else 8 accumulators."""
    if n < 8:
        total = 0.0
        for c in range(start, start + n):
            total += values[row, c] * probability[c]
        return total
    r = np.empty(8)
    for j in range(8):
        r[j] = values[row, start + j] * probability[start + j]
    i = 8
    while i < n - n % 8:
        for j in range(8):
            r[j] += values[row, start + i + j] * probability[start + i + j]
        i += 8
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        total += values[row, start + i] * probability[start + i]
        i += 1
    return total


@jit
def _pairwise(values, row, probability, start, n):  # pragma: no cover - compiled
    """NumPy's pairwise sum: halves (the first a multiple of 8) down to blocks of 128, with an
    explicit stack of (start, length, stage) frames and one of partial sums (depth log2 n)."""
    if n <= 128:
        return _block(values, row, probability, start, n)
    frames = np.empty((64, 3), dtype=np.int64)
    sums = np.empty(64)
    frames[0, 0], frames[0, 1], frames[0, 2] = start, n, 0
    top, results = 1, 0
    while top > 0:
        s, m, stage = frames[top - 1, 0], frames[top - 1, 1], frames[top - 1, 2]
        half = m // 2
        half -= half % 8
        if m <= 128:
            top -= 1
            sums[results] = _block(values, row, probability, s, m)
            results += 1
        elif stage == 0:
            frames[top - 1, 2] = 1
            frames[top, 0], frames[top, 1], frames[top, 2] = s, half, 0
            top += 1
        elif stage == 1:
            frames[top - 1, 2] = 2
            frames[top, 0], frames[top, 1], frames[top, 2] = s + half, m - half, 0
            top += 1
        else:
            top -= 1
            results -= 1
            sums[results - 1] = sums[results - 1] + sums[results]
    return sums[0]


@jit
def _regret_update(first, size, cfv, bound, strategy, regret, true_regret, plus):  # pragma: no cover
    """``r(I, a) = cfv(I, a) - sum_b sigma(I, b) cfv(I, b)`` (``cfv[s, 0]``; exact 0 within
    ``TIE_TOLERANCE max_b max(|cfv(I, b)|, U rho(I))``, ``rho`` in ``cfv[s, 1]`` and ``U`` =
    ``bound``: :func:`~.compiled_tree.tie_scale`), ``R += r`` (exact 0 where they cancel;
    floored at 0 for RM+), and the metrics' regret sum; sums in slot order, as the NumPy
    passes."""
    value = 0.0
    scale = 0.0
    for s in range(first, first + size):
        value += strategy[s] * cfv[s, 0]
        scale = max(scale, abs(cfv[s, 0]), bound * cfv[s, 1])
    for s in range(first, first + size):
        instant = cfv[s, 0] - value
        if abs(instant) <= TIE_TOLERANCE * scale:
            instant = 0.0
        kept = regret[s]
        updated = kept + instant
        if abs(updated) <= TIE_TOLERANCE * (abs(kept) + abs(instant)):
            updated = 0.0
        regret[s] = max(updated, 0.0) if plus else updated
        true_regret[s] = true_regret[s] + instant


# -- outcome sampling --------------------------------------------------------------------------
@jit
def _run_outcome(tree, state, schedule, work, seed, t0, iterations):  # pragma: no cover - compiled
    """Outcome sampling, one traversal per player (alternating): down one sampled path
    with the reaches ``pi_i``, ``pi_-i`` (chance included) and ``q``, then back up it with
    the value estimate ``u~``, updating player i's information sets on the path.

    One terminal history z per traversal, drawn with
    ``q(a) = eps / |A(I)| + (1 - eps) sigma(I, a)`` at player i's nodes (eps = 0.6 as
    OpenSpiel), ``sigma`` at the others', chance's probabilities at chance nodes. Without a
    baseline (Schmid et al. 2019, eq. 9, with b = 0) the value estimate below h on the path
    is ``u~(h) = u_i(z) pi^sigma(h, z) / q(h, z)`` (decisions only: chance cancels), and at
    player i's history h of I with sampled move a*:
    ``cfv~(I, a) = 1[a = a*] u~(h a*) / q(a*) * pi_-i(h) / q(h)``; the average strategy adds
    ``pi_i(h) sigma(I) / q(h)`` (stochastically weighted averaging, as OpenSpiel's
    ``OutcomeSamplingSolver``)."""
    tree, state, schedule = TreeArrays(*tree), StateArrays(*state), Schedule(*schedule)
    slot, chance_probability, child_start = tree.edge_slot, tree.chance_probability, tree.child_start
    child_count, payoffs, node_player = tree.child_count, tree.payoffs, tree.player
    node_infoset = tree.node_infoset
    infoset_size, infoset_first_slot = tree.infoset_size, tree.infoset_first_slot
    strategy, regret = state.strategy, state.regret
    strategy_sum, true_regret, weight_sum = state.strategy_sum, state.true_regret, state.weight_sum
    plus, exploration, bound = schedule.plus, schedule.exploration, schedule.payoff_bound
    n = payoffs.shape[0]
    # taken: the sampled child after path[d]; sampled_probability: q of that move; cfv is
    # zero between traversals (Sampler's work arrays, _outcome_work)
    weights, path, taken, sampled_probability, my_reach, other_reach, sample_reach, cfv = work
    for step in range(iterations):
        t = t0 + step + 1
        for player in range(n):
            key = traversal_key(seed, t, player)
            h, d = 0, 0
            mine, others, q = 1.0, 1.0, 1.0
            while child_count[h] > 0:
                first = child_start[h]
                k = child_count[h]
                acting = node_player[h]
                for j in range(k):
                    c = first + j
                    if acting < 0:
                        weights[j] = chance_probability[c]
                    elif acting == player:
                        weights[j] = exploration * (1.0 / k) + (1.0 - exploration) * strategy[slot[c]]
                    else:
                        weights[j] = strategy[slot[c]]
                j = pick(weights, k, uniform(key, h))
                path[d], taken[d], sampled_probability[d] = h, first + j, weights[j]
                my_reach[d], other_reach[d], sample_reach[d] = mine, others, q
                p = chance_probability[first + j] if acting < 0 else strategy[slot[first + j]]
                if acting == player:
                    mine *= p
                else:
                    others *= p
                q *= weights[j]
                h = first + j
                d += 1
            value = payoffs[player, h]
            for e in range(d - 1, -1, -1):
                h = path[e]
                acting = node_player[h]
                if acting < 0:
                    continue  # chance: its probability cancels against the sampling's
                c = taken[e]
                estimate = value / sampled_probability[e]  # u~(h a*) / q(a*)
                value = strategy[slot[c]] * estimate
                if acting != player:
                    continue
                info = node_infoset[h]
                first = infoset_first_slot[info]
                size = infoset_size[info]
                cfv[slot[c], 0] = estimate * (other_reach[e] / sample_reach[e])
                for s in range(first, first + size):
                    cfv[s, 1] = other_reach[e] / sample_reach[e]
                    strategy_sum[s] = strategy_sum[s] + my_reach[e] * strategy[s] / sample_reach[e]
                _regret_update(first, size, cfv, bound, strategy, regret, true_regret, plus)
                _regret_matching(first, size, regret, strategy)
                for s in range(first, first + size):
                    cfv[s, 0] = cfv[s, 1] = 0.0
        weight_sum[0] = weight_sum[0] + 1.0
    return 0  # an int, not None: see "GIL" in docs/architecture.md
