"""The depth-first layout that the full-traversal kernel streams (:mod:`.kernels`).

A tree of N histories becomes five columns in depth-first (prefix) order, the order a
recursive CFR visits (Zinkevich et al. 2007), and two tables:

* ``depth`` (int32): a history's parent is the last history before it one level up, so a
  traversal keeps one frame per level (reach, edge probability, values) and never an array
  per history;
* ``edge`` (int32): the slot of the move into the history, ``-2 - j`` for chance's ``j``-th
  move (``chance[j]`` its probability), ``-1`` at the root;
* ``actor`` (int8, int32 from 127 players): who acts there (a player, ``n`` for chance),
  ``-1`` at a terminal;
* ``skip`` and ``terminals_before`` (int32): where a history's subtree ends and how many
  terminals come before, read only where a pass skips a subtree (below a move of
  probability 0);
* ``chance`` (float64): chance's moves' probabilities, in the same order;
* ``payoffs`` (float64, ``(K, n)``): the terminals' payoffs in the same order.

That is 17 bytes per history plus 8 per chance move and ``8 n`` per terminal; a pass reads
the first three front to back, so big trees run at the speed of small ones (docs/performance.md,
"CFR near the memory limit"). The slots' arrays (strategy, regrets) are the state's, read at
random but small beside the tree when information sets hold many histories.

:class:`Partition` cuts the order into the subtrees below one level, in groups of
contiguous subtrees for the kernel's threads (:func:`partition`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rmviz.solvers.jit import jit
from rmviz.solvers.tree.compiled_tree import CompiledTree

PARALLEL_MIN_HISTORIES = 1 << 16  # a tree from this size runs in groups (partition)
GROUPS = 16  # the groups of a partitioned tree: at most this many threads share its work
MAX_GROUP_SLOTS = 0.5  # each group adds S counterfactual values: at most this x N in all


class DepthFirst(NamedTuple):
    """The columns and tables of the module docstring, and the slots' arrays the update
    reads, as the kernel takes them (``levels``: the deepest history's depth + 1)."""

    depth: np.ndarray
    edge: np.ndarray
    actor: np.ndarray
    chance: np.ndarray
    payoffs: np.ndarray
    skip: np.ndarray  # (N,) int32: the position after the history's subtree
    terminals_before: np.ndarray  # (N + 1,) int32: the terminals before each position
    slot_infoset: np.ndarray
    infoset_player: np.ndarray
    infoset_size: np.ndarray
    infoset_first_slot: np.ndarray
    player_slots: np.ndarray  # (n, 2)
    parent_sequence: np.ndarray  # (I,) the player's last slot before the set, -1 if none
    own_order: np.ndarray  # (I,) information sets, those with fewer own moves above first
    levels: int


def depth_first(tree: CompiledTree) -> DepthFirst:
    """The layout of ``tree``: its terminals in depth-first order are the rows of
    ``tree.outcomes``, which the layout shares."""
    order = tree.preorder
    n = tree.n_players
    by_id = np.empty(tree.n_nodes, dtype=np.int32)
    for d, (start, end) in enumerate(tree.depth_ranges):
        by_id[start:end] = d
    depth = by_id[order]
    slot = tree.edge_slot[order]
    chance_moves = tree.edge_owner[order] == n
    edge = np.where(slot >= 0, slot, -1).astype(np.int32)
    edge[chance_moves] = -2 - np.arange(int(chance_moves.sum()), dtype=np.int32)
    kind = tree.kind[order]
    small = np.int8 if n < np.iinfo(np.int8).max else np.int32  # 128 players or more: int32
    actor = np.where(kind == 2, -1, np.where(kind == 0, n, tree.player[order])).astype(small)
    on_chance = np.searchsorted(tree.chance_edges, order[chance_moves])
    return DepthFirst(
        depth=depth,
        edge=edge,
        actor=actor,
        chance=tree.chance_edge_probability[on_chance],
        payoffs=np.ascontiguousarray(tree.outcomes),
        skip=_subtree_ends(depth),
        terminals_before=np.concatenate(([0], np.cumsum(kind == 2))).astype(np.int32),
        slot_infoset=tree.slot_infoset,
        infoset_player=tree.infoset_player,
        infoset_size=tree.infoset_size,
        infoset_first_slot=tree.infoset_first_slot,
        player_slots=np.array(tree.player_slots, dtype=np.int64).reshape(-1, 2),
        parent_sequence=_parent_sequences(depth, edge, actor, tree.slot_infoset, tree.n_infosets, n),
        own_order=np.argsort(tree.infoset_own_depth, kind="stable").astype(np.int64),
        levels=len(tree.depth_ranges),
    )


@jit
def _subtree_ends(depth):  # pragma: no cover - compiled
    """The position after each history's subtree: the next with a depth at most its own,
    from the right with a stack of strictly shallower histories (at most one per level)."""
    count = depth.shape[0]
    end = np.empty(count, dtype=np.int32)
    stack = np.empty(depth.max() + 2, dtype=np.int64)
    size = 0
    for k in range(count - 1, -1, -1):
        while size > 0 and depth[stack[size - 1]] > depth[k]:
            size -= 1
        end[k] = stack[size - 1] if size > 0 else count
        if size > 0 and depth[stack[size - 1]] == depth[k]:
            size -= 1
        stack[size] = k
        size += 1
    return end


@jit
def _parent_sequences(depth, edge, actor, slot_infoset, infosets, n):  # pragma: no cover - compiled
    """Each information set's parent sequence (Koller, Megiddo & von Stengel 1994): the slot
    of its player's last move before it, -1 if none (perfect recall: the same at each of its
    histories), by one walk of the layout keeping each player's last slot per level."""
    levels = depth.max() + 1
    last = np.full((levels, n), -1, dtype=np.int64)
    acting = np.zeros(levels, dtype=np.int64)
    parent = np.full(infosets, -1, dtype=np.int64)
    for k in range(depth.shape[0]):
        d = depth[k]
        if d > 0:
            mover = acting[d - 1]
            for i in range(n):
                last[d, i] = last[d - 1, i]
            e = edge[k]
            if e >= 0:
                parent[slot_infoset[e]] = last[d - 1, mover]
                last[d, mover] = e
        acting[d] = actor[k]
    return parent


def profile_sums(
    layout: DepthFirst, strategy: np.ndarray, position: np.ndarray, sequence: np.ndarray, n_slots: int
) -> tuple[np.ndarray, np.ndarray]:
    """What a profile's NashConv needs, by one walk of the layout: each player's expected
    payoff ``v_i`` (``(n,)``) and the sequence sums ``q_p(s) = sum_{z after s}
    pi_{-p}(z) u_p(z)`` of each player p's last sequence before each terminal z (``(n,
    n_slots + 1)``: column 0 the empty sequence, column ``s + 1`` slot s; ``sequence``: the
    compiled tree's ``terminal_sequence``, ``position[t]`` the layout's t-th terminal's
    column there), without the NumPy passes' ``(n+1, N)`` reach and ``(n, N)`` values or a
    per-terminal array (a snapshot's metrics on a big tree). Each term is its float (reach
    multiplied down the path, the others' reach in row order), added in the layout's
    terminal order; the values sum each history's children in order from 0, as the CFR
    kernel's walk does: both equal to rounding to the passes' (:meth:`.TreePasses.sequence_sums`)."""
    n = layout.payoffs.shape[1]
    values = np.zeros(n)
    sums = np.zeros((n, n_slots + 1))
    columns = (layout.depth, layout.edge, layout.actor, layout.chance, layout.payoffs)
    _profile_walk(columns, strategy, position, sequence, layout.levels, sums, values)
    return values, sums


@jit
def _profile_walk(columns, strategy, position, sequence, levels, sums, values):  # pragma: no cover - compiled
    """:func:`profile_sums`' walk: a frame per level (reach, edge probability, values);
    leaving a history adds ``sigma(edge) v(h)`` to its parent's values."""
    depth, edge, actor, chance, payoffs = columns
    n = payoffs.shape[1]
    reach = np.empty((levels, n + 1))
    value = np.empty((levels, n))
    probability = np.empty(levels)
    acting = np.empty(levels, dtype=np.int64)
    top = -1
    t = 0
    for k in range(depth.shape[0]):
        d = depth[k]
        while top >= d:
            for i in range(n):
                value[top - 1, i] += value[top, i] * probability[top]
            top -= 1
        a = actor[k]
        if d == 0:
            for q in range(n + 1):
                reach[0, q] = 1.0
        else:
            e = edge[k]
            p = strategy[e] if e >= 0 else chance[-2 - e]
            mover = acting[d - 1]
            for q in range(n + 1):
                reach[d, q] = reach[d - 1, q] * p if q == mover else reach[d - 1, q]
            probability[d] = p
        if a < 0:  # a terminal: its payoffs are its values
            z = position[t]
            for i in range(n):
                product = 1.0
                for q in range(n + 1):
                    if q != i:
                        product *= reach[d, q]
                sums[i, sequence[i, z] + 1] += product * payoffs[t, i]
                value[d, i] = payoffs[t, i]
            t += 1
        else:
            acting[d] = a
            for i in range(n):
                value[d, i] = 0.0
        top = d
    while top > 0:
        for i in range(n):
            value[top - 1, i] += value[top, i] * probability[top]
        top -= 1
    for i in range(n):
        values[i] = value[0, i]
    return 0


def layout_bytes(layout: DepthFirst) -> int:
    """The bytes of the layout's per-history columns and tables (not the slots')."""
    columns = (layout.depth, layout.edge, layout.actor, layout.chance, layout.payoffs, layout.skip)
    return sum(a.nbytes for a in (*columns, layout.terminals_before))


class Partition(NamedTuple):
    """The subtrees rooted at level ``level``, in groups: group ``g`` runs the subtrees
    ``group_roots[g]:group_roots[g + 1]``, subtree ``j`` the layout's positions
    ``roots[j]:ends[j]`` and its terminals from ``first_terminal[j]`` (``skipped[j]`` of
    them). A traversal walks the histories above the level down (the subtrees' reach), runs
    the groups, each on any thread with counterfactual values of its own, and walks the top
    back up with the subtrees' values (:func:`.kernels._run`); the groups' values are
    added in group order, so the iterates do not depend on the number of threads."""

    level: int
    roots: np.ndarray  # (R,) layout positions
    ends: np.ndarray  # (R,)
    first_terminal: np.ndarray  # (R,)
    skipped: np.ndarray  # (R,)
    group_roots: np.ndarray  # (G + 1,) indices in roots


NO_PARTITION = Partition(-1, *(np.zeros(1, dtype=np.int64) for _ in range(5)))


def partition(layout: DepthFirst, slots: int) -> Partition:
    """The groups of a tree of :data:`PARALLEL_MIN_HISTORIES` histories or more, cut at the
    first level with at least 4 x :data:`GROUPS` subtrees and balanced by size; or
    :data:`NO_PARTITION` (level -1: one pass), for a small tree, one whose subtrees are too
    few or too unequal, or one whose groups' counterfactual values would cost more than
    :data:`MAX_GROUP_SLOTS` x N. Fixed by the tree alone: the same groups on any number of
    threads."""
    nodes = layout.depth.shape[0]
    if nodes < PARALLEL_MIN_HISTORIES or GROUPS * slots > MAX_GROUP_SLOTS * nodes:
        return NO_PARTITION
    counts = np.bincount(layout.depth, minlength=layout.levels)
    wide = np.flatnonzero(counts >= 4 * GROUPS)
    if wide.size == 0:
        return NO_PARTITION
    level = int(wide[0])
    roots = np.flatnonzero(layout.depth == level)
    ends = layout.skip[roots].astype(np.int64)
    terminal_before = layout.terminals_before.astype(np.int64)
    # group g: the subtrees whose start passes g / GROUPS of the subtrees' histories
    sizes = ends - roots
    passed = np.cumsum(sizes) - sizes
    group_roots = np.searchsorted(passed, sizes.sum() * np.arange(GROUPS + 1) / GROUPS, side="left")
    group_roots[-1] = roots.size
    group_roots = np.unique(group_roots)
    largest = np.max(np.add.reduceat(sizes, group_roots[:-1]))
    if group_roots.size < 3 or largest > 2 * sizes.sum() / GROUPS:  # too unequal to share
        return NO_PARTITION
    return Partition(
        level,
        roots.astype(np.int64),
        ends,
        terminal_before[roots],
        terminal_before[ends] - terminal_before[roots],
        group_roots.astype(np.int64),
    )
