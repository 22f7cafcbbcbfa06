"""Large game trees built programmatically (bottom up, no recursion), for the scale tests
and ``tests/benchmarks/big_trees.py``.

* :func:`chain`: a centipede-like chain ``depth`` decisions long; players alternate, each
  may ``stop`` (a terminal) or ``go`` on. Perfect information: ``2 depth + 1`` nodes.
* :func:`hidden_chain`: the same chain under a chance move nobody observes: every
  information set holds two nodes, one per chance outcome (imperfect information, perfect
  recall), ``4 depth + 3`` nodes.
* :func:`scaled`: a tree with its payoffs multiplied by a factor.
* :func:`long_labels`: a root decision over ``count`` information sets of player 2 labelled
  like OpenSpiel's information-state strings (:func:`long_label`: ~110 characters).
* :func:`binary_tree`: a complete binary tree of ``levels`` decision levels, players
  alternating, each player seeing only their own earlier moves (or, ``perfect``, every
  move: one information set per decision node): ``2^(levels+1) - 1`` nodes (``levels=15``:
  65,535).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from rmviz.games.extensive_form import ExtensiveFormGame, Node, chance, decision, terminal

PLAYERS = ("Player 1", "Player 2")


def _stop_payoff(level: int) -> float:
    return float((level * 7) % 5 - 2)


def _chain_node(depth: int, prefix: str) -> Node:
    node = terminal(0.5, -0.5)
    for level in range(depth - 1, -1, -1):
        u = _stop_payoff(level)
        node = decision(level % 2, f"{prefix}{level}", [("stop", terminal(u, -u)), ("go", node)])
    return node


def chain(depth: int) -> ExtensiveFormGame:
    """A perfect-information chain of ``depth`` decisions (zero-sum)."""
    return ExtensiveFormGame(_chain_node(depth, "n"), PLAYERS, f"chain {depth}")


def hidden_chain(depth: int) -> ExtensiveFormGame:
    """A chain of ``depth`` decisions below an unobserved fair coin; payoffs differ by coin."""

    def branch(sign: float) -> Node:
        node = terminal(sign, -sign)
        for level in range(depth - 1, -1, -1):
            u = sign * _stop_payoff(level)
            node = decision(level % 2, f"d{level}", [("stop", terminal(u, -u)), ("go", node)])
        return node

    return ExtensiveFormGame(
        chance([("heads", 0.5, branch(1.0)), ("tails", 0.5, branch(-1.0))]), PLAYERS, f"hidden chain {depth}"
    )


def binary_tree(levels: int, perfect: bool = False, seed: int = 0) -> ExtensiveFormGame:
    """A complete binary tree; the player at level ``d`` is ``d % 2`` and sees only their own
    earlier moves (an information set per own history), or with ``perfect`` every move (an
    information set per node). Zero-sum random payoffs."""
    rng = np.random.default_rng(seed)
    payoffs = rng.uniform(-1.0, 1.0, 2**levels)
    leaves: list[Node] = [terminal(float(u), -float(u)) for u in payoffs]
    for level in range(levels - 1, -1, -1):
        player = level % 2
        parents = []
        for index in range(2**level):
            # the moves of `player` on the path to this node: the bits at its own levels
            seen = "".join(
                "ab"[(index >> (level - 1 - d)) & 1] for d in range(level) if perfect or d % 2 == player
            )
            parents.append(
                decision(player, f"{player}:{seen}", [("a", leaves[2 * index]), ("b", leaves[2 * index + 1])])
            )
        leaves = parents
    return ExtensiveFormGame(leaves[0], PLAYERS, f"binary tree {levels}")


def scaled(game: ExtensiveFormGame, factor: float) -> ExtensiveFormGame:
    """``game`` with every payoff multiplied by ``factor`` (rebuilt bottom up, no recursion)."""
    rebuilt: dict[int, Node] = {}
    for _, node in reversed(list(game.nodes())):  # children before their parents
        rebuilt[id(node)] = dataclasses.replace(
            node,
            children=tuple(rebuilt[id(child)] for child in node.children),
            payoffs=tuple(u * factor for u in node.payoffs),
        )
    assert game.root is not None
    return ExtensiveFormGame(rebuilt[id(game.root)], game.player_names, game.title)


def long_label(k: int) -> str:
    """An information set's label as long as OpenSpiel's information-state strings."""
    return f"Current player: 1 | hand: {k} | sequence: {'x ' * 40}| points: 0 0"


def long_labels(count: int) -> ExtensiveFormGame:
    """Player 1 chooses among ``count`` moves; after move k, player 2 decides at the
    information set :func:`long_label` (k) between ``a`` (payoffs k, -k) and ``b``."""
    replies = [
        (chr(ord("p") + k), decision(1, long_label(k), [("a", terminal(k, -k)), ("b", terminal(-k, k))]))
        for k in range(count)
    ]
    return ExtensiveFormGame(decision(0, "root", replies), ("A", "B"), "long labels")
