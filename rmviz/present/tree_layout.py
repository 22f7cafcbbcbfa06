"""Where each node of a game tree goes, for every drawing of it (the window's tree view, the
exported tree figure and the TikZ picture): leaves side by side in depth-first order, each
parent centred over its children, one row per depth. Nodes are the compiled tree's
breadth-first ids (:class:`~rmviz.solvers.tree.compiled_tree.CompiledTree`); a collapsed
node is drawn as a leaf standing for its subtree.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np

from rmviz.numbers import format_number

if TYPE_CHECKING:
    from rmviz.solvers.tree.compiled_tree import CompiledTree


def format_probability(p: float) -> str:
    """``0.5`` -> ``1/2``, ``0.3333`` -> ``1/3``, otherwise three significant digits."""
    for denominator in range(2, 13):
        numerator = round(p * denominator)
        if 0 < numerator < denominator and abs(p - numerator / denominator) < 1e-9:
            return f"{numerator}/{denominator}"
    return format_number(p, ".3g")


def children(tree: CompiledTree, h: int) -> range:
    start = int(tree.child_start[h])
    return range(start, start + int(tree.child_count[h]))


def visible_nodes(tree: CompiledTree, collapsed: Collection[int] = ()) -> list[int]:
    """Nodes drawn, depth first (children of collapsed nodes are hidden)."""
    order, stack = [], [0]
    while stack:
        h = stack.pop()
        order.append(h)
        if h not in collapsed:
            stack.extend(reversed(children(tree, h)))
    return order


def subtree_sizes(tree: CompiledTree) -> np.ndarray:
    """The number of nodes in each node's subtree (itself included), one pass per depth from
    the deepest up (node ids are breadth first, so each depth is a range)."""
    sizes = np.ones(tree.n_nodes, dtype=np.int64)
    for start, stop in reversed(tree.depth_ranges[1:]):
        np.add.at(sizes, tree.parent[start:stop], sizes[start:stop])
    return sizes


def folded_nodes(
    tree: CompiledTree, collapsed: Collection[int], opened: Collection[int], max_drawn: int
) -> set[int]:
    """The inner nodes drawn folded: the ``collapsed`` ones, and those whose children would
    take the drawing past ``max_drawn`` nodes when nodes are expanded breadth first (the
    ``opened`` ones are expanded whatever the count)."""
    shown, folded = 1, set()
    queue = [0]
    for h in queue:  # breadth first: the list grows as it is walked
        count = int(tree.child_count[h])
        if count == 0:
            continue
        if h in collapsed or (shown + count > max_drawn and h not in opened):
            folded.add(h)
            continue
        shown += count
        queue.extend(children(tree, h))
    return folded


def node_depths(tree: CompiledTree) -> np.ndarray:
    depth = np.zeros(tree.n_nodes, dtype=int)
    for d, (start, stop) in enumerate(tree.depth_ranges):
        depth[start:stop] = d
    return depth


def collapse_below(tree: CompiledTree, max_leaves: int) -> set[int]:
    """The inner nodes to collapse so at most ``max_leaves`` leaves are drawn: the deepest
    whole rows that fit (nothing when the tree fits, the root's children at worst)."""
    leaves_at = np.zeros(len(tree.depth_ranges) + 1, dtype=int)  # leaves drawn when cut at depth d
    for d, (start, stop) in enumerate(tree.depth_ranges):
        shallower = sum(int((tree.child_count[a:b] == 0).sum()) for a, b in tree.depth_ranges[:d])
        leaves_at[d] = shallower + (stop - start)
    for d in range(len(tree.depth_ranges) - 1, 0, -1):
        if leaves_at[d] <= max_leaves or d == 1:
            if d == len(tree.depth_ranges) - 1:
                return set()
            start, stop = tree.depth_ranges[d]
            return {h for h in range(start, stop) if tree.child_count[h] > 0}
    return set()


def tree_layout(
    tree: CompiledTree, nodes: list[int], collapsed: Collection[int] = ()
) -> dict[int, tuple[float, int]]:
    """``node -> (column, depth)`` for the ``nodes`` drawn (:func:`visible_nodes`): leaves
    (and collapsed nodes) at columns 0, 1, 2... in depth-first order, parents centred."""
    depth = node_depths(tree)
    x: dict[int, float] = {}
    leaf = 0
    for h in nodes:
        if h in collapsed or tree.child_count[h] == 0:
            x[h] = float(leaf)
            leaf += 1
    for h in reversed(nodes):  # children before parents
        if h not in x:
            first = children(tree, h)
            x[h] = (x[first[0]] + x[first[-1]]) / 2
    return {h: (x[h], int(depth[h])) for h in nodes}


def infoset_links(
    tree: CompiledTree, nodes: list[int], place: dict[int, tuple[float, int]]
) -> list[tuple[int, int]]:
    """Pairs of drawn nodes to join with a dashed line: consecutive members (by row, then
    column) of each information set with more than one node drawn."""
    members: dict[int, list[int]] = {}
    for h in nodes:
        if tree.node_infoset[h] >= 0:
            members.setdefault(int(tree.node_infoset[h]), []).append(h)
    links: list[tuple[int, int]] = []
    for hs in members.values():
        ordered = sorted(hs, key=lambda h: (place[h][1], place[h][0]))
        links.extend(itertools.pairwise(ordered))
    return links


def neighbour_links(
    tree: CompiledTree, nodes: list[int], place: dict[int, tuple[float, int]], links: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The ``links`` whose nodes are neighbours: no inner node of the first's row drawn
    between them. Every drawing joins these; another link crosses the tree (Leduc's and
    Liar's Dice's second player's sets made a band of arcs across its level), so the figures
    draw it only where it passes clear of every label and the window only for the chosen
    information set, the labels beside the nodes naming each node's set either way."""
    columns: dict[int, list[float]] = {}
    for h in nodes:
        if tree.kind[h] != 2:
            x, row = place[h]
            columns.setdefault(row, []).append(x)
    for xs in columns.values():
        xs.sort()
    near = []
    for a, b in links:
        (xa, row), (xb, _) = place[a], place[b]
        xs = columns.get(row, [])
        if bisect_left(xs, max(xa, xb)) <= bisect_right(xs, min(xa, xb)):  # none strictly between
            near.append((a, b))
    return near


OPENING_REACH = 10.0  # columns from the root a 1280x720 tree view shows, at a legible size, beside it


def opening_infoset(
    tree: CompiledTree, place: dict[int, tuple[float, int]], reach: float = OPENING_REACH
) -> int:
    """The information set a tree opens on: the first, if one of its drawn nodes lies within
    ``reach`` columns of the root (both then show together), else the set of the shallowest
    drawn decision node nearest the root (Leduc's first set, ``Js:``, lies 30 columns away)."""
    root = place[0][0]
    decisions = [h for h in place if tree.node_infoset[h] >= 0]
    if not decisions or any(abs(place[h][0] - root) <= reach for h in decisions if tree.node_infoset[h] == 0):
        return 0
    nearest = min(decisions, key=lambda h: (place[h][1], abs(place[h][0] - root), h))
    return int(tree.node_infoset[nearest])
