"""Large generated game trees, built with array operations (no Python object per history).

:func:`binary_tree` is the complete binary tree of ``levels`` decision levels: the player at
level ``d`` is ``d % 2`` and sees only their own earlier moves, so each player's information
sets at level ``d`` are the ``2**(d // 2)`` sequences of their own moves (imperfect
information with perfect recall, as in a repeated game of matching pennies whose outcomes
are revealed only at the end). Payoffs are zero-sum, uniform in [-1, 1). It has
``2**(levels + 1) - 1`` histories: 23 levels give 16.8 million, the benchmarks' tree of
10^7 histories and more.
"""

from __future__ import annotations

import numpy as np

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.flat_tree import FlatTreeBuilder

MOVES = ("a", "b")
MAX_LEVELS = 29  # 2**30 - 1 histories: within the flat tree's int32 columns


def _prefix_order(levels: int) -> tuple[np.ndarray, np.ndarray]:
    """Depth and index (the moves above as bits, the first move the highest) of every history
    of a complete binary tree with ``levels`` levels below the root, in prefix order.

    A subtree of height ``h`` is its root, then its first child's subtree, then its second's;
    a history at relative depth ``k`` of the second child's subtree has index
    ``2**(k - 1) + its index there``."""
    depth = np.zeros(1, dtype=np.int64)
    index = np.zeros(1, dtype=np.int64)
    for _ in range(levels):
        child_depth = depth + 1
        depth = np.concatenate(([0], child_depth, child_depth))
        index = np.concatenate(([0], index, index + (np.int64(1) << (child_depth - 1))))
    return depth, index


def binary_tree(levels: int, seed: int = 0) -> ExtensiveFormGame:
    """The complete binary tree of the module's docstring, with ``levels`` decision levels."""
    if not 1 <= levels <= MAX_LEVELS:
        raise ValueError(f"levels must be from 1 to {MAX_LEVELS}, not {levels}")
    depth, index = _prefix_order(levels)
    terminal = depth == levels
    player = depth % 2
    # the player's own earlier moves: the bits of ``index`` at levels p, p + 2, ... below depth
    own = np.zeros_like(index)
    for level in range(levels):
        bit = (index >> np.maximum(depth - 1 - level, 0)) & 1
        mine = (level % 2 == player) & (level < depth)
        own = np.where(mine, (own << 1) | bit, own)
    # information sets numbered in the order first met (prefix order), as the readers do
    key = np.where(terminal, -1, (depth << 32) | own)
    keys, first = np.unique(key[~terminal], return_index=True)
    order = np.argsort(first, kind="stable")
    builder = FlatTreeBuilder(2)
    number = np.empty(keys.shape[0], dtype=np.int64)
    labels = []
    for k in order:
        level, seen = int(keys[k] >> 32), int(keys[k] & 0xFFFFFFFF)
        number[k] = builder.infoset(level % 2, (level, seen), MOVES)
        labels.append(f"P{level % 2 + 1} level {level}: {_moves(level, seen)}")
    infoset = np.zeros(depth.shape[0], dtype=np.int64)
    infoset[~terminal] = number[np.searchsorted(keys, key[~terminal])]
    rng = np.random.default_rng(seed)
    u = rng.uniform(-1.0, 1.0, int(terminal.sum()))
    builder.append_block(terminal.astype(np.uint8), infoset, np.stack([u, -u], axis=1))
    return ExtensiveFormGame.from_flat(
        builder.finish(labels), ("Player 1", "Player 2"), f"binary tree, {levels} levels"
    )


def _moves(level: int, own: int) -> str:
    count = level // 2
    return "".join(MOVES[(own >> (count - 1 - i)) & 1] for i in range(count)) or "(start)"
