"""Correlation gaps of a tree run's device: the CCE, EFCCE and EFCE gaps, from accumulators.

The device is ``mu = sum_t w_t sigma^t / sum_t w_t``, the profiles played with the average's
weights. Trigger ``(I, a)`` of player i gets ``c_t = w_t x_i^t(I) sigma_i^t(a|I)``, with
``x_i^t(I)`` i's own reach. Kept per (trigger, terminal z below I):
``A(I,a,z) = sum_t c_t pi_{-i}^t(z)``; per trigger ``F(I,a) = sum_t c_t cfv^t(I,a)``. Gain
``D(I,a) = max_pi sum_z A(I,a,z) [pi reaches z] u_i(z) - F(I,a)`` (best continuation below
I), ``D(I)`` the same of ``sum_a``. Extended game (von Stengel & Forges 2008; Gordon,
Greenwald & Marks 2008; Farina, Bianchi & Sandholm 2020): ``G(I,a) = max(D(I,a), sum_{K
after (I,a), c} G(K,c))``, ``H(I) = max(D(I), sum_{a, K after (I,a)} H(K))``; efce_i sums
G, efcce_i H and cce_i D (clamped at 0, OpenSpiel's ``cce_dist``) over i's first sets, over
``sum_t w_t``. Entries: O(depth x width x terminals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from rmviz.errors import ConfigError
from rmviz.solvers.jit import jit
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses

NOTIONS = ("cce", "efcce", "efce")
MAX_ENTRY_RATIO = 16.0  # tracked by default while entries <= this x nodes (docs/performance.md)
MAX_DEFAULT_ENTRIES = 1 << 25  # and at most this many (256 MB of sums)
MAX_ENTRIES = 1 << 28  # asked for: at most this many (2 GB of sums), else a one-line error


class Triggers(NamedTuple):
    """Every (trigger slot, terminal below it) pair, grouped by slot: ``start[s]:start[s + 1]``
    are slot ``s``'s entries, the terminals below each history of its information set in turn
    (``range_lo[r]:range_hi[r]`` of ``terminals``, depth-first, for ``r`` from
    ``range_start[I]`` to ``range_start[I + 1]``), so the kernels add contiguous runs. The
    kernels read the first five fields; the gaps the rest."""

    start: np.ndarray  # (S + 1,)
    range_start: np.ndarray  # (I + 1,)
    range_lo: np.ndarray  # (histories of decision nodes,)
    range_hi: np.ndarray
    terminals: np.ndarray  # (K,) the tree's terminal nodes, depth-first
    slot: np.ndarray  # (E,) the trigger (I, a)
    terminal: np.ndarray  # (E,) the terminal z below I (node id)
    sequence: np.ndarray  # (E,) the trigger player's last slot before z
    payoff: np.ndarray  # (E,) the trigger player's payoff at z

    def kernel_arrays(self) -> tuple[np.ndarray, ...]:
        """What :func:`accumulate` reads: ``start`` to ``terminals``."""
        return (self.start, self.range_start, self.range_lo, self.range_hi, self.terminals)


def _runs(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The integers of the ranges ``lo[r]:hi[r]``, one range after the other."""
    length = hi - lo
    return np.arange(length.sum()) - np.repeat(np.cumsum(length) - length - lo, length)


def _terminal_ranges(tree: CompiledTree) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The terminals in depth-first order, and each node's range of them (its subtree's)."""
    terminals = tree.preorder[tree.kind[tree.preorder] == 2].astype(np.int64)
    position = np.zeros(tree.n_nodes, dtype=np.int64)
    position[terminals] = np.arange(terminals.size)
    terminal = tree.kind == 2
    lo = np.where(terminal, position, terminals.size)
    hi = np.where(terminal, position + 1, 0)
    for start, end in reversed(tree.depth_ranges[1:]):
        parent = tree.parent[start:end]
        np.minimum.at(lo, parent, lo[start:end])
        np.maximum.at(hi, parent, hi[start:end])
    return terminals, lo, np.maximum(hi, lo)


def entry_count(tree: CompiledTree) -> int:
    """How many entries :func:`triggers` makes: sum over decision nodes of their moves times
    the terminals below them."""
    _, lo, hi = _terminal_ranges(tree)
    decision = tree.kind == 1
    return int(((hi - lo) * tree.child_count)[decision].sum())


def tracked_by_default(tree: CompiledTree) -> bool:
    """Whether a run tracks the gaps unless told: while the entries cost at most
    :data:`MAX_ENTRY_RATIO` times the nodes (measured in docs/performance.md) and their sums
    fit in :data:`MAX_DEFAULT_ENTRIES`."""
    count = entry_count(tree)
    return count <= MAX_ENTRY_RATIO * tree.n_nodes and count <= MAX_DEFAULT_ENTRIES


def triggers(tree: CompiledTree, passes: TreePasses) -> Triggers:
    """The entries of ``tree`` (array operations: linear in the entries); a
    :class:`ConfigError` when there would be more than :data:`MAX_ENTRIES`."""
    count = entry_count(tree)
    if count > MAX_ENTRIES:
        raise ConfigError(
            f"the correlation gaps of this tree need {count:,} sums (at most {MAX_ENTRIES:,}): "
            "track them on a smaller tree"
        )
    terminals, lo, hi = _terminal_ranges(tree)
    decision = np.flatnonzero(tree.kind == 1)
    nodes = decision[np.argsort(tree.node_infoset[decision], kind="stable")]
    per_infoset = np.bincount(tree.node_infoset[nodes], minlength=tree.n_infosets)
    range_start = np.concatenate([[0], np.cumsum(per_infoset)]).astype(np.int64)
    range_lo, range_hi = lo[nodes], hi[nodes]
    below = np.bincount(tree.node_infoset[nodes], hi[nodes] - lo[nodes], minlength=tree.n_infosets)
    below = below.astype(np.int64)
    # each information set's terminal positions, then each slot's: its set's, repeated
    listed = _runs(range_lo, range_hi)
    listed_start = np.concatenate([[0], np.cumsum(below)])
    info = tree.slot_infoset
    position = listed[_runs(listed_start[info], listed_start[info] + below[info])]
    start = np.concatenate([[0], np.cumsum(below[info])]).astype(np.int64)
    slot = np.repeat(np.arange(tree.n_slots), below[info])
    terminal = terminals[position]
    player = tree.infoset_player[info[slot]]
    sequence = passes.terminal_sequence[player, np.searchsorted(passes.terminals, terminal)]
    return Triggers(
        start,
        range_start,
        range_lo,
        range_hi,
        terminals,
        slot,
        terminal,
        sequence.astype(np.int64),
        tree.payoffs[player, terminal].astype(np.float64),
    )


@jit
def accumulate(
    start,
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
    d,
    c,
    sums,
    follow,
    others,
):  # pragma: no cover - compiled
    """One iteration's terms in discount form (``X <- d X + c x``, the average's ``d_avg``,
    ``c_avg``): ``A += c_t pi_{-i}(z)`` per entry, ``F += c_t cfv(I, a)`` per slot, from the
    iteration's ``reach`` ``(n+1, N)``, played ``strategy`` and ``cfv``; ``others`` ``(n, K)``
    is work space (allocated once per run: a fresh one per call costs more than the sums).
    The kernels and the NumPy passes both call this one function."""
    n = reach.shape[0] - 1
    for k in range(terminals.shape[0]):
        z = terminals[k]
        for i in range(n):
            product = 1.0
            for q in range(n + 1):
                if q != i:
                    product *= reach[q, z]
            others[i, k] = product
    for s in range(follow.shape[0]):
        info = slot_infoset[s]
        i = infoset_player[info]
        weight = c * (reach[i, infoset_first_node[info]] * strategy[s])
        follow[s] = d * follow[s] + weight * cfv[s]
        row = others[i]
        e = start[s]
        for r in range(range_start[info], range_start[info + 1]):
            lo, hi = range_lo[r], range_hi[r]
            out, add = sums[e : e + hi - lo], row[lo:hi]  # views: contiguous loops
            if d == 1.0:  # d X + c x with d = 1, as X + c x
                for k in range(hi - lo):
                    out[k] += weight * add[k]
            else:
                for k in range(hi - lo):
                    out[k] = d * out[k] + weight * add[k]
            e += hi - lo
    return 0


@dataclass(frozen=True)
class CorrelationGaps:
    """Per player: ``cce``, ``efcce`` and ``efce`` gaps of the device (module docstring)."""

    cce: tuple[float, ...]
    efcce: tuple[float, ...]
    efce: tuple[float, ...]


class GapEvaluator:
    """The gaps of one tree's accumulators: the own-subtree lists built once."""

    def __init__(self, tree: CompiledTree, passes: TreePasses, entries: Triggers) -> None:
        self.tree, self.entries = tree, entries
        parent = passes.infoset_parent_sequence
        depth = tree.infoset_own_depth
        # below[I]: the player's information sets under I, deepest first, I itself last
        lists: list[list[int]] = [[] for _ in range(tree.n_infosets)]
        for j in np.argsort(-depth, kind="stable").tolist():
            k = j
            while True:
                lists[k].append(j)
                if parent[k] < 0:
                    break
                k = int(tree.slot_infoset[parent[k]])
        self.below_start = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
        self.below = np.array([j for x in lists for j in x], dtype=np.int64)
        self.deepest_first = np.argsort(-depth, kind="stable").astype(np.int64)
        self.parent = parent.astype(np.int64)

    def gaps(self, sums: np.ndarray, follow: np.ndarray, weight: float, scale: float) -> CorrelationGaps:
        """The gaps of the device whose accumulators are ``sums``, ``follow`` (weights summing
        to ``weight``), in payoff units (``scale`` the run's payoff scale)."""
        tree, e = self.tree, self.entries
        roots = _gap_sums(
            tree.n_players,
            e.start,
            e.sequence,
            e.payoff,
            sums,
            follow,
            self.below_start,
            self.below,
            self.deepest_first,
            tree.infoset_first_slot,
            tree.infoset_size,
            tree.infoset_player,
            self.parent,
        )
        per = scale / weight
        cce = tuple(max(float(x), 0.0) * per for x in roots[0])
        return CorrelationGaps(cce, *(tuple(float(x) * per for x in row) for row in roots[1:]))


@jit
def _best_continuation(
    lo, hi, info, start, sequence, payoff, sums, below_start, below, first_slot, size, parent, q
):  # pragma: no cover - compiled
    """``max_pi sum_z A(z) [pi reaches z] u(z)`` below ``info`` for the entries of slots
    ``lo..hi-1``: the sequence-form best response restricted to ``info``'s subtree."""
    for k in range(below_start[info], below_start[info + 1]):
        j = below[k]
        for s in range(first_slot[j], first_slot[j] + size[j]):
            q[s] = 0.0
    for e in range(start[lo], start[hi]):
        q[sequence[e]] += sums[e] * payoff[e]
    for k in range(below_start[info], below_start[info + 1] - 1):
        j = below[k]
        best = -np.inf
        for s in range(first_slot[j], first_slot[j] + size[j]):
            best = max(best, q[s])
        q[parent[j]] += best
    best = -np.inf
    for s in range(first_slot[info], first_slot[info] + size[info]):
        best = max(best, q[s])
    return best


@jit
def _gap_sums(
    n,
    start,
    sequence,
    payoff,
    sums,
    follow,
    below_start,
    below,
    deepest_first,
    first_slot,
    size,
    player,
    parent,
):  # pragma: no cover - compiled
    """``(3, n)``: per player the sums over its first information sets of ``D(I)`` (cce),
    ``H(I)`` (efcce) and ``sum_a G(I, a)`` (efce), deepest information sets first."""
    slots = follow.shape[0]
    q = np.zeros(slots)
    child_h = np.zeros(slots)
    child_g = np.zeros(slots)
    roots = np.zeros((3, n))
    for info in deepest_first:
        lo, hi = first_slot[info], first_slot[info] + size[info]
        followed = 0.0
        gain_g = 0.0
        below_h = 0.0
        for s in range(lo, hi):
            d = _best_continuation(
                s, s + 1, info, start, sequence, payoff, sums, below_start, below, first_slot, size, parent, q
            )
            gain_g += max(d - follow[s], child_g[s])
            followed += follow[s]
            below_h += child_h[s]
        d = _best_continuation(
            lo, hi, info, start, sequence, payoff, sums, below_start, below, first_slot, size, parent, q
        )
        gain_h = max(d - followed, below_h)
        if parent[info] >= 0:
            child_h[parent[info]] += gain_h
            child_g[parent[info]] += gain_g
        else:
            p = player[info]
            roots[0, p] += d - followed
            roots[1, p] += gain_h
            roots[2, p] += gain_g
    return roots
