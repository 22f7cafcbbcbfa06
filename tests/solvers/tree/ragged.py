"""Generated trees of perfect recall with ragged depths (tests of the full-traversal paths)."""

from __future__ import annotations

import numpy as np

from rmviz.games.extensive_form import ExtensiveFormGame, Node

# integer-payoff trees whose iterates parted between the compiled walk and the NumPy passes
# before the tie rule's scale became U rho(I) (exact ties of rounding noise) and before a
# player who never moves kept the simultaneous update's slots (seed, players, algorithm,
# updates): 17 of 3000 such trees (non-greedy), 0 after
PARTED = [
    (8, 2, "cfr", "simultaneous"),
    (154, 2, "cfr", "alternating"),
    (210, 2, "cfr", "alternating"),
    (473, 3, "dcfr", "simultaneous"),
    (534, 3, "cfr+", "alternating"),
    (621, 2, "pcfr+", "alternating"),
    (1093, 3, "cfr", "simultaneous"),
    (1348, 2, "dcfr", "simultaneous"),
    (9517, 3, "cfr", "alternating"),
]


def ragged_tree(seed: int, players: int, integer_payoffs: bool = False) -> ExtensiveFormGame:
    """A random tree of perfect recall: terminals at every depth, chance anywhere (some of its
    moves of probability 0), each
    player's information set its own earlier (information set, move) pairs, so that histories
    of one information set lie at different depths when chance or the others moved between.
    Payoffs are uniform in [-3, 3) (integers from -3 to 3 with ``integer_payoffs``)."""
    rng = np.random.default_rng(seed)

    def grow(depth: int, own: tuple[tuple[object, ...], ...]) -> Node:
        roll = rng.random()
        if depth >= 6 or (depth > 1 and roll < 0.25):
            draw = (lambda: float(rng.integers(-3, 4))) if integer_payoffs else (lambda: rng.uniform(-3, 3))
            return Node("terminal", payoffs=tuple(draw() for _ in range(players)))
        if 0 < depth and roll < 0.4:  # the root decides: a tree without decisions is refused
            count = int(rng.integers(2, 4))
            weights = rng.integers(0, 4, count)  # chance's moves of probability 0 too
            weights[0] += weights.sum() == 0
            children = tuple(grow(depth + 1, own) for _ in range(count))
            return Node(
                "chance",
                moves=tuple(f"c{k}" for k in range(count)),
                children=children,
                probabilities=tuple(float(w / weights.sum()) for w in weights),
            )
        player = int(rng.integers(players))
        key = (player, own[player])
        moves = 2 + hash(key) % 2
        children = []
        for a in range(moves):
            seen = list(own)
            seen[player] = (*own[player], (len(own[player]), a))
            children.append(grow(depth + 1, tuple(seen)))
        return Node(
            "decision",
            moves=tuple(f"m{a}" for a in range(moves)),
            children=tuple(children),
            player=player,
            infoset=repr(key),
        )

    root = grow(0, ((),) * players)
    names = tuple(f"P{i + 1}" for i in range(players))
    return ExtensiveFormGame(root, names, f"ragged tree {seed}")
