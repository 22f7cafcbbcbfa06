"""The compiler of CompiledTree as it was before flat arrays (one Python walk over the
nodes): the reference the flat compiler (rmviz.solvers.tree.flat_compile) must match
array for array."""

from __future__ import annotations

from collections import deque
from itertools import pairwise

import numpy as np

from rmviz.games.extensive_form import CHANCE, DECISION, ExtensiveFormGame, Node
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.flat_compile import NODE_INDEX, NODE_KIND


def reference_compile_tree(game: ExtensiveFormGame) -> CompiledTree:
    """Number the nodes breadth first and build the flat arrays."""
    n = game.n_players
    # information sets: player-major, in the game's (depth-first) order
    infosets = [(p, label) for p in range(n) for label in game.infosets[p]]
    infoset_index: dict[tuple[int | None, str | None], int] = {key: i for i, key in enumerate(infosets)}
    sizes = np.array([len(game.infoset_moves[key]) for key in infosets], dtype=np.int64)
    first_slot = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    slot_infoset = np.repeat(np.arange(len(infosets)), sizes)
    slot_move = tuple(m for key in infosets for m in game.infoset_moves[key])
    # the slots of the players before p, then p's (empty where p never moves)
    before = [int(sum(sizes[i] for i, (q, _) in enumerate(infosets) if q < p)) for p in range(n + 1)]
    player_slots = [(before[p], before[p + 1]) for p in range(n)]

    assert game.root is not None
    nodes: list[Node] = [game.root]
    parent, depth, owner, slot, probability, moves = [-1], [0], [-1], [-1], [1.0], [""]
    child_start, child_count = [], []
    own_depth: dict[int, int] = {}
    own_so_far = [[0] * n]  # per node: number of own decisions of each player above it
    queue = deque([0])
    while queue:
        index = queue.popleft()
        node = nodes[index]
        child_start.append(len(nodes))
        child_count.append(len(node.children))
        counts = own_so_far[index]
        if node.kind == DECISION:
            assert node.player is not None and node.infoset is not None
            info = infoset_index[(node.player, node.infoset)]
            own_depth.setdefault(info, counts[node.player])
            after = list(counts)
            after[node.player] += 1
        for k, (move, child) in enumerate(zip(node.moves, node.children, strict=True)):
            nodes.append(child)
            parent.append(index)
            depth.append(depth[index] + 1)
            moves.append(move)
            if node.kind == CHANCE:
                owner.append(n)
                slot.append(-1)
                probability.append(node.probabilities[k])
                own_so_far.append(counts)
            else:
                assert node.player is not None
                owner.append(node.player)
                slot.append(int(first_slot[info]) + k)
                probability.append(1.0)
                own_so_far.append(after)
            queue.append(len(nodes) - 1)
    count = len(nodes)
    kind = np.array([{"chance": 0, "decision": 1, "terminal": 2}[x.kind] for x in nodes], dtype=NODE_KIND)
    player = np.array([x.player if x.kind == DECISION else -1 for x in nodes], dtype=NODE_INDEX)
    node_infoset = np.array(
        [infoset_index[(x.player, x.infoset)] if x.kind == DECISION else -1 for x in nodes],
        dtype=NODE_INDEX,
    )
    payoffs = np.zeros((n, count))
    for i, x in enumerate(nodes):
        if x.kind == "terminal":
            payoffs[:, i] = x.payoffs
    # breadth-first numbering: depths never decrease, so each depth is one run of ids
    bounds = np.searchsorted(np.array(depth), np.arange(depth[-1] + 2)).tolist()
    ranges = list(pairwise(bounds))
    first_node = np.zeros(len(infosets), dtype=np.int64)
    for i in range(count - 1, -1, -1):
        if node_infoset[i] >= 0:
            first_node[node_infoset[i]] = i
    preorder = _preorder(np.array(child_start), np.array(child_count))
    # outcomes: the terminals' payoffs in depth-first order; outcome_terminal: each row's
    # terminal, numbered among the terminals in node order
    terminals_first = preorder[kind[preorder] == 2]
    rank = np.empty(count, dtype=NODE_INDEX)  # each terminal's number in node order
    rank[kind == 2] = np.arange(terminals_first.size, dtype=NODE_INDEX)
    chance_edges = np.flatnonzero(np.array(owner) == n).astype(NODE_INDEX)
    reference = CompiledTree(
        n_players=n,
        parent=np.array(parent, dtype=NODE_INDEX),
        depth_ranges=tuple(ranges),
        kind=kind,
        player=player,
        node_infoset=node_infoset,
        edge_owner=np.array(owner, dtype=NODE_INDEX),
        edge_slot=np.array(slot, dtype=NODE_INDEX),
        chance_edges=chance_edges,
        chance_edge_probability=np.array(probability)[chance_edges],
        child_start=np.array(child_start, dtype=NODE_INDEX),
        child_count=np.array(child_count, dtype=NODE_INDEX),
        outcomes=payoffs[:, terminals_first].T + 0.0,
        outcome_terminal=rank[terminals_first],
        infoset_player=np.array([p for p, _ in infosets], dtype=np.int64),
        infoset_label=tuple(label for _, label in infosets),
        infoset_first_slot=first_slot,
        infoset_size=sizes,
        infoset_first_node=first_node,
        infoset_own_depth=np.array([own_depth[i] for i in range(len(infosets))], dtype=np.int64),
        slot_infoset=slot_infoset,
        slot_move=slot_move,
        player_slots=tuple(player_slots),
        preorder=preorder,
        flat=game.flat,
    )
    object.__setattr__(reference, "move_label", tuple(moves))  # the walk's own, not move_labels'
    return reference


def _preorder(child_start: np.ndarray, child_count: np.ndarray) -> np.ndarray:
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(range(child_start[node] + child_count[node] - 1, child_start[node] - 1, -1))
    return np.array(order, dtype=NODE_INDEX)
