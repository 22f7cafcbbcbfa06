"""Compile a game's flat arrays (:mod:`rmviz.games.flat_tree`, prefix order) into a
:class:`~rmviz.solvers.tree.compiled_tree.CompiledTree` (breadth-first order) with array
operations only: no Python step per node.

Breadth-first numbering (what a queue gives: by depth, then by the parent's number, then by
move) orders each depth's histories as prefix order does (by their move paths), so the
breadth-first order is a stable sort of the prefix ids by depth. Then, with ``bfs[pre]``
the breadth-first number of a prefix id:

* ``parent``, ``kind``, ``player``... are the prefix columns permuted;
* children of a node are contiguous, so ``child_start = 1 + (exclusive cumulative sum of
  child_count)``;
* ``preorder`` (the order a recursive CFR visits) is ``bfs`` itself;
* an information set's ``infoset_first_node`` is the smallest number among its histories and
  its ``infoset_own_depth`` follows from the last own move before it (perfect recall makes it
  the same at all its histories): one more than that move's information set's, 0 if none.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np

from rmviz.games.flat_tree import CHANCE_KIND, DECISION_KIND, TERMINAL_KIND, FlatTree

# The compiled tree's per-history columns of ids, counts and players are int32, as the flat
# game's (``MAX_HISTORIES`` < 2^31), and ``kind`` is int8: half and an eighth of int64 on a
# big tree. Its per-slot and per-information-set tables stay int64.
NODE_INDEX = np.int32
NODE_KIND = np.int8


def compile_flat(flat: FlatTree) -> dict[str, Any]:
    """The fields of the :class:`CompiledTree` of ``flat`` (a validated game's arrays)."""
    n, count = flat.n_players, flat.n_nodes
    widths = np.array([len(m) for m in flat.movesets] + [0], dtype=NODE_INDEX)  # [-1]: terminals
    # information sets, player-major, in the order first met within each player
    order_infosets = np.argsort(flat.infoset_player, kind="stable")
    compiled_of = np.empty_like(order_infosets)
    compiled_of[order_infosets] = np.arange(order_infosets.size)
    sizes = widths[flat.infoset_moveset[order_infosets]].astype(np.int64)
    first_slot = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    slot_infoset = np.repeat(np.arange(sizes.size), sizes)
    slot_move = tuple(m for i in flat.infoset_moveset[order_infosets].tolist() for m in flat.movesets[i])
    infoset_player = flat.infoset_player[order_infosets]
    # each player's slots, in player order: a player who never moves has the empty range where
    # the next one starts, so the last range ends at the last slot (a simultaneous update's)
    player_slots, end = [], 0
    for p in range(n):
        ids = np.flatnonzero(infoset_player == p)
        if ids.size:
            end = int(first_slot[ids[-1]] + sizes[ids[-1]])
            player_slots.append((int(first_slot[ids[0]]), end))
        else:
            player_slots.append((end, end))

    # breadth-first numbering
    pre_of = np.argsort(flat.depth, kind="stable")  # prefix id of each breadth-first number
    bfs = np.empty(count, dtype=NODE_INDEX)
    bfs[pre_of] = np.arange(count, dtype=NODE_INDEX)
    parent_pre = flat.parent[pre_of]
    has_parent = parent_pre >= 0
    parent = np.where(has_parent, bfs[np.maximum(parent_pre, 0)], -1)
    del parent_pre
    kind = flat.kind[pre_of].astype(NODE_KIND, copy=False)
    decision = kind == DECISION_KIND
    node_infoset = np.where(decision, compiled_of[np.where(decision, flat.ref[pre_of], 0)], -1)
    player = np.where(decision, infoset_player[np.maximum(node_infoset, 0)], -1)
    moveset = flat.moveset[pre_of]
    child_count = widths[moveset]
    child_count[kind == TERMINAL_KIND] = 0
    child_start = np.empty(count, dtype=NODE_INDEX)  # 1 + the children counted before
    child_start[0] = 1
    np.cumsum(child_count[:-1], out=child_start[1:])
    child_start[1:] += 1

    # edges into each node, from the parent's columns
    move = flat.move_index[pre_of].astype(NODE_INDEX, copy=False)
    safe_parent = np.maximum(parent, 0)
    parent_kind = np.where(has_parent, kind[safe_parent], -1)
    edge_owner = np.where(parent_kind == CHANCE_KIND, n, np.where(has_parent, player[safe_parent], -1))
    edge_slot = np.where(
        parent_kind == DECISION_KIND, first_slot[np.maximum(node_infoset[safe_parent], 0)] + move, -1
    )
    from_chance = np.flatnonzero(parent_kind == CHANCE_KIND).astype(NODE_INDEX)
    chance_edge_probability = np.zeros(from_chance.size)
    del safe_parent, parent_kind, has_parent
    if from_chance.size:
        tables = flat.chance_probabilities
        offsets = np.concatenate([[0], np.cumsum([len(t) for t in tables])[:-1]]).astype(np.int64)
        values = np.fromiter((p for t in tables for p in t), dtype=np.float64)
        chance_of_parent = flat.ref[pre_of[parent[from_chance]]]
        chance_edge_probability = values[offsets[chance_of_parent] + move[from_chance]]

    del move, moveset

    # the flat game lists one payoff row per terminal, in prefix order: each row's terminal
    # among the terminals in breadth-first order
    row = flat.ref[pre_of[kind == TERMINAL_KIND]]
    outcome_terminal = np.empty(row.size, dtype=NODE_INDEX)
    outcome_terminal[row] = np.arange(row.size, dtype=NODE_INDEX)
    del row

    depth = flat.depth[pre_of]
    bounds = np.searchsorted(depth, np.arange(int(depth[-1]) + 2)).tolist()
    first_node = np.zeros(sizes.size, dtype=np.int64)
    decisions = np.flatnonzero(decision)
    if decisions.size:
        ids, first_index = np.unique(node_infoset[decisions], return_index=True)
        first_node[ids] = decisions[first_index]
    return {
        "n_players": n,
        "parent": parent.astype(NODE_INDEX, copy=False),
        "depth_ranges": tuple(pairwise(bounds)),
        "kind": kind,
        "player": player.astype(NODE_INDEX, copy=False),
        "node_infoset": node_infoset.astype(NODE_INDEX, copy=False),
        "edge_owner": edge_owner.astype(NODE_INDEX, copy=False),
        "edge_slot": edge_slot.astype(NODE_INDEX, copy=False),
        "chance_edges": from_chance,
        "chance_edge_probability": chance_edge_probability,
        "child_start": child_start.astype(NODE_INDEX, copy=False),
        "child_count": child_count.astype(NODE_INDEX, copy=False),
        "outcomes": flat.payoffs,
        "outcome_terminal": outcome_terminal,
        "flat": flat,
        "infoset_player": infoset_player.astype(np.int64, copy=False),
        "infoset_label": tuple(flat.infoset_label[i] for i in order_infosets.tolist()),
        "infoset_first_slot": first_slot,
        "infoset_size": sizes,
        "infoset_first_node": first_node,
        "infoset_own_depth": _own_depths(flat, order_infosets, compiled_of),
        "slot_infoset": slot_infoset,
        "slot_move": slot_move,
        "player_slots": tuple(player_slots),
        "preorder": bfs.astype(NODE_INDEX, copy=False),
    }


def _own_depths(flat: FlatTree, order: np.ndarray, compiled_of: np.ndarray) -> np.ndarray:
    """Each information set's number of own decisions above it (compiled order): one more than
    the information set of its player's last own move before it, 0 if none. Information sets
    are numbered in the order first met, so that one's depth is known first."""
    size = flat.n_infosets
    decisions = np.flatnonzero(flat.kind == DECISION_KIND)
    first = np.full(size, -1, dtype=np.int64)
    first[flat.ref[decisions][::-1]] = decisions[::-1]
    before = flat.own_before[first].tolist()
    # the information set owning each builder slot
    widths = np.array([len(flat.movesets[m]) for m in flat.infoset_moveset.tolist()], dtype=np.int64)
    slot_owner = np.repeat(np.arange(size), widths).tolist()
    depth = [0] * size
    for i in range(size):
        if before[i] >= 0:
            depth[i] = depth[slot_owner[before[i]]] + 1
    out = np.empty(size, dtype=np.int64)
    out[compiled_of] = np.array(depth, dtype=np.int64)
    return out


def move_labels(flat: FlatTree, preorder: np.ndarray) -> tuple[str, ...]:
    """The move into each node of the compiled tree (``""`` at the root), in its breadth-first
    numbering (``preorder[k]``: the number of prefix id ``k``): the parent's moveset at the
    move's index, gathered from one flat table (an object array: no Python int per node)."""
    count = flat.n_nodes
    widths = np.array([len(m) for m in flat.movesets], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    table = np.array([m for moves in flat.movesets for m in moves] or [""], dtype=object)
    by_prefix = np.empty(count, dtype=object)
    by_prefix[0] = ""
    if count > 1:
        by_prefix[1:] = table[offsets[flat.moveset[flat.parent[1:]]] + flat.move_index[1:]]
    labels = np.empty(count, dtype=object)
    labels[preorder] = by_prefix
    return tuple(labels.tolist())
