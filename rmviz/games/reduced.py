"""The reduced strategic (normal) form of a game tree.

A pure strategy chooses a move at every information set of its player; a *reduced* one
chooses only at the information sets its own earlier choices do not rule out (the others are
left open, "*"), so strategies that always play the same way are one (Kuhn 1953; see e.g.
von Stengel 1996, "Efficient computation of behavior strategies"). With perfect recall each
information set has one own parent sequence (the player's last own move before it), so the
reduced strategies are enumerated by walking the information sets in depth-first order and
branching only at the active ones.

The payoff of a profile is the expectation over terminals z of chance's probability of z
times the player's payoff, counted when every player's strategy agrees with z's moves:
``U_k(s) = sum_z P_c(z) u_k(z) prod_i [s_i agrees with z]``. Kuhn poker gives 27 x 64
strategies and, by linear programming, the value -1/18.
"""

from __future__ import annotations

import math

import numpy as np

from rmviz.errors import GameError
from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame
from rmviz.games.normal_form import NormalFormGame

MAX_PROFILES = 4_000_000  # entries per player of the payoff tensor
MAX_STRATEGIES = 20_000  # reduced strategies per player


def reduced_strategic_form(game: ExtensiveFormGame) -> NormalFormGame:
    """The reduced normal form of ``game`` (a :class:`GameError` when it is too large)."""
    n = game.n_players
    parent: dict[tuple[int, str], tuple[str, str] | None] = {}
    terminals: list[tuple[float, tuple[float, ...], list[dict[str, str]]]] = []
    # walk: own last (infoset, move) per player, chance probability, each player's choices
    stack = [(game.root, 1.0, tuple([None] * n), tuple({} for _ in range(n)))]
    while stack:
        node, probability, last, choices = stack.pop()
        assert node is not None
        if node.kind == TERMINAL:
            terminals.append((probability, node.payoffs, [dict(c) for c in choices]))
            continue
        for k, (move, child) in enumerate(zip(node.moves, node.children, strict=True)):
            if node.kind == CHANCE:
                stack.append((child, probability * node.probabilities[k], last, choices))
            elif node.kind == DECISION:
                i, label = node.player, node.infoset
                assert i is not None and label is not None
                parent.setdefault((i, label), last[i])
                mine = dict(choices[i])
                mine[label] = move
                stack.append(
                    (
                        child,
                        probability,
                        tuple((label, move) if j == i else last[j] for j in range(n)),
                        tuple(mine if j == i else choices[j] for j in range(n)),
                    )
                )
    strategies = [_reduced_strategies(game, i, parent) for i in range(n)]
    sizes = [len(s) for s in strategies]
    if math.prod(sizes) > MAX_PROFILES:
        raise GameError(
            f"the reduced strategic form of {game.title!r} has {' x '.join(map(str, sizes))} strategies "
            f"({math.prod(sizes):,} profiles); rmviz builds it up to {MAX_PROFILES:,} profiles"
        )
    # agree[i][s, z] = 1 when player i's strategy s makes every move i makes on the way to z
    agree = [
        np.array(
            [
                [all(s.get(label) == move for label, move in z[2][i].items()) for z in terminals]
                for s in strategies[i]
            ],
            dtype=np.float64,
        )
        for i in range(n)
    ]
    weights = np.array([[p * u[k] for p, u, _ in terminals] for k in range(n)])  # (n, Z)
    letters = "abcdefgh"[:n]
    spec = ",".join(f"{c}z" for c in letters) + ",kz->k" + letters
    payoffs = np.einsum(spec, *agree, weights)
    names = [tuple(_name(s) for s in strategies[i]) for i in range(n)]
    return NormalFormGame(
        payoffs,
        game.player_names,
        tuple(names),
        f"{game.title} (reduced strategic form)",
        f"The reduced normal form of the game tree {game.title!r}: {' x '.join(map(str, sizes))} strategies.",
    )


def _reduced_strategies(
    game: ExtensiveFormGame, player: int, parent: dict[tuple[int, str], tuple[str, str] | None]
) -> list[dict[str, str]]:
    """Every reduced pure strategy of ``player``: {infoset label: move} at its active sets.

    Information sets come in depth-first order, so a set's parent sequence is decided before
    it; a set is active when it has no parent sequence or the strategy plays it. The count
    is capped at :data:`MAX_STRATEGIES` (a :class:`GameError` beyond).
    """
    labels = game.infosets[player]
    result: list[dict[str, str]] = []

    def extend(k: int, strategy: dict[str, str]) -> None:
        if len(result) > MAX_STRATEGIES:
            raise GameError(
                f"{game.player_names[player]!r} has more than {MAX_STRATEGIES:,} reduced strategies in "
                f"{game.title!r}: too many for the strategic form"
            )
        if k == len(labels):
            result.append(dict(strategy))
            return
        label = labels[k]
        required = parent[player, label]
        if required is not None and strategy.get(required[0]) != required[1]:
            extend(k + 1, strategy)  # ruled out by an own earlier move: left open
            return
        for move in game.infoset_moves[player, label]:
            strategy[label] = move
            extend(k + 1, strategy)
            del strategy[label]

    extend(0, {})
    return result


def _name(strategy: dict[str, str]) -> str:
    return " ".join(f"{label}:{move}" for label, move in strategy.items()) or "(no move)"
