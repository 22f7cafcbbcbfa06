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
``U_k(s) = sum_z P_c(z) u_k(z) prod_i [s_i agrees with z]``. A reduced strategy chooses at a
set only when it plays the set's parent sequence, so it agrees with all of player i's moves
on the way to z exactly when it makes i's last one. Kuhn poker gives 27 x 64 strategies and,
by linear programming, the value -1/18.

Nothing here recurses: the number of strategies (and of moves their names list) is counted
set by set before any strategy is listed, and the listing uses an explicit stack, so a tree
with thousands of information sets, or thousands of moves deep, gets its one-line
:class:`GameError` (or its form) rather than a RecursionError.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort

import numpy as np

from rmviz.errors import GameError
from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame, Node
from rmviz.games.normal_form import MAX_PLAYERS, MIN_PLAYERS, NormalFormGame

MAX_PROFILES = 4_000_000  # entries per player of the payoff tensor
MAX_STRATEGIES = 20_000  # reduced strategies per player
MAX_LISTED_MOVES = 2_000_000  # moves chosen by all of one player's reduced strategies together
MAX_AGREEMENT = 50_000_000  # entries of the (strategy x terminal) agreement tables
_SATURATED = 10**15  # counts stop growing here (above every bound)

OwnMove = tuple[str, str]  # a player's (information set, move)


def reduced_strategic_form(game: ExtensiveFormGame) -> NormalFormGame:
    """The reduced normal form of ``game`` (a :class:`GameError` when it is too large)."""
    return _reduced(game)[0]


def reduced_form_with_strategies(
    game: ExtensiveFormGame,
) -> tuple[NormalFormGame, list[list[dict[str, str]]]]:
    """The reduced normal form and each player's reduced pure strategies behind its rows and
    columns: ``{information set label: move}`` at the sets each one reaches."""
    return _reduced(game)


def _reduced(game: ExtensiveFormGame) -> tuple[NormalFormGame, list[list[dict[str, str]]]]:
    n = game.n_players
    parent: dict[tuple[int, str], OwnMove | None] = {}
    terminals: list[tuple[float, tuple[float, ...], tuple[OwnMove | None, ...]]] = []
    # walk: own last (infoset, move) per player and chance probability
    assert game.root is not None
    no_choice: tuple[OwnMove | None, ...] = (None,) * n
    stack: list[tuple[Node, float, tuple[OwnMove | None, ...]]] = [(game.root, 1.0, no_choice)]
    while stack:
        node, probability, last = stack.pop()
        if node.kind == TERMINAL:
            terminals.append((probability, node.payoffs, last))
            continue
        for k, (move, child) in enumerate(zip(node.moves, node.children, strict=True)):
            if node.kind == CHANCE:
                stack.append((child, probability * node.probabilities[k], last))
            elif node.kind == DECISION:
                i, label = node.player, node.infoset
                assert i is not None and label is not None
                parent.setdefault((i, label), last[i])
                stack.append(
                    (child, probability, tuple((label, move) if j == i else last[j] for j in range(n)))
                )
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise GameError(
            f"{game.title!r} has {n} player{'s' * (n != 1)}; its reduced strategic form would be a matrix "
            f"game, which rmviz handles for {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    sizes = []
    for i in range(n):
        count, listed = _count(game, i, parent)
        if count > MAX_STRATEGIES:
            raise GameError(
                f"{game.player_names[i]!r} has more than {MAX_STRATEGIES:,} reduced strategies in "
                f"{game.title!r}: too many for the strategic form"
            )
        if listed > MAX_LISTED_MOVES:
            raise GameError(
                f"{game.player_names[i]!r} has {count:,} reduced strategies in {game.title!r} choosing "
                f"{listed:,} moves in all: too many for the strategic form (rmviz lists up to "
                f"{MAX_LISTED_MOVES:,})"
            )
        sizes.append(count)
    if math.prod(sizes) > MAX_PROFILES:
        raise GameError(
            f"the reduced strategic form of {game.title!r} has {' x '.join(map(str, sizes))} strategies "
            f"({math.prod(sizes):,} profiles); rmviz builds it up to {MAX_PROFILES:,} profiles"
        )
    if sum(sizes) * len(terminals) > MAX_AGREEMENT:
        raise GameError(
            f"the reduced strategic form of {game.title!r} compares {sum(sizes):,} strategies with "
            f"{len(terminals):,} terminal histories ({sum(sizes) * len(terminals):,} pairs); "
            f"rmviz builds it up to {MAX_AGREEMENT:,} pairs"
        )
    strategies = [_reduced_strategies(game, i, parent) for i in range(n)]
    # agree[i][s, z] = 1 when player i's strategy s makes every move i makes on the way to z
    agree = [_agreement(strategies[i], [z[2][i] for z in terminals]) for i in range(n)]
    weights = np.array([[p * u[k] for p, u, _ in terminals] for k in range(n)])  # (n, Z)
    letters = "abcdefgh"[:n]
    spec = ",".join(f"{c}z" for c in letters) + ",kz->k" + letters
    payoffs = np.einsum(spec, *agree, weights)
    names = [tuple(_name(s) for s in strategies[i]) for i in range(n)]
    form = NormalFormGame(
        payoffs,
        game.player_names,
        tuple(names),
        f"{game.title} (reduced strategic form)",
        f"The reduced normal form of the game tree {game.title!r}: {' x '.join(map(str, sizes))} strategies.",
    )
    return form, strategies


def _children(
    game: ExtensiveFormGame, player: int, parent: dict[tuple[int, str], OwnMove | None]
) -> tuple[list[int], dict[OwnMove, list[int]]]:
    """Player's information sets (by index in ``game.infosets[player]``) without an own parent
    sequence, and those below each sequence. A set's index exceeds its parent set's: sets are
    numbered in the order a depth-first walk first meets them."""
    roots: list[int] = []
    below: dict[OwnMove, list[int]] = {}
    for k, label in enumerate(game.infosets[player]):
        required = parent[player, label]
        if required is None:
            roots.append(k)
        else:
            below.setdefault(required, []).append(k)
    return roots, below


def _count(
    game: ExtensiveFormGame, player: int, parent: dict[tuple[int, str], OwnMove | None]
) -> tuple[int, int]:
    """How many reduced strategies ``player`` has, and how many moves they choose in all.

    From the last information set to the first: the strategies below a set are, per move, the
    products of those below the move's child sets. Counts saturate at a bound far above
    :data:`MAX_STRATEGIES` and :data:`MAX_LISTED_MOVES` (exact below it).
    """
    labels = game.infosets[player]
    roots, below = _children(game, player, parent)

    def product(sets: list[int]) -> tuple[int, int]:
        count, listed = 1, 0  # strategies, moves chosen by all of them
        for k in sets:
            c, m = sizes[k]
            count, listed = min(count * c, _SATURATED), min(listed * c + m * count, _SATURATED)
        return count, listed

    sizes: list[tuple[int, int]] = [(0, 0)] * len(labels)
    for k in reversed(range(len(labels))):
        count = listed = 0
        for move in game.infoset_moves[player, labels[k]]:
            c, m = product(below.get((labels[k], move), []))
            count, listed = min(count + c, _SATURATED), min(listed + m + c, _SATURATED)
        sizes[k] = (count, listed)
    return product(roots)


def _reduced_strategies(
    game: ExtensiveFormGame, player: int, parent: dict[tuple[int, str], OwnMove | None]
) -> list[dict[str, str]]:
    """Every reduced pure strategy of ``player``: {infoset label: move} at its active sets.

    A depth-first search with an explicit stack: it always decides the first active set not yet
    decided (in the order of ``game.infosets``), so strategies come in the order of the
    lexicographic product over the sets. Call it after :func:`_count` has bounded the number.
    """
    labels = game.infosets[player]
    roots, below = _children(game, player, parent)
    pending = sorted(-k for k in roots)  # active undecided sets, negated: the next one is last
    chosen: list[tuple[str, str]] = []
    frames: list[list[int]] = []  # per decided set: its index, the position of its next move
    result: list[dict[str, str]] = []
    opening = True
    while True:
        if opening:
            if pending:
                frames.append([-pending.pop(), 0])
            else:
                result.append(dict(chosen))
        if not frames:
            return result
        frame = frames[-1]
        k, position = frame
        label = labels[k]
        moves = game.infoset_moves[player, label]
        if position > 0:  # undo the move tried last
            chosen.pop()
            for child in below.get((label, moves[position - 1]), []):
                del pending[bisect_left(pending, -child)]
        if position == len(moves):
            frames.pop()
            pending.append(-k)  # the first of the undecided sets again
            opening = False
            continue
        frame[1] = position + 1
        chosen.append((label, moves[position]))
        for child in below.get((label, moves[position]), []):
            insort(pending, -child)
        opening = True


def _agreement(strategies: list[dict[str, str]], lasts: list[OwnMove | None]) -> np.ndarray:
    """``agree[s, z]``: 1.0 when strategy s makes the player's last move ``lasts[z]`` on the way
    to terminal z (or the player has no move there), else 0.0."""
    column: dict[OwnMove, int] = {}
    for last in lasts:
        if last is not None:
            column.setdefault(last, len(column) + 1)
    rows = [s for s, strategy in enumerate(strategies) for pair in strategy.items() if pair in column]
    cols = [column[pair] for strategy in strategies for pair in strategy.items() if pair in column]
    plays = np.zeros((len(strategies), len(column) + 1))  # column 0: the empty sequence
    plays[:, 0] = 1.0
    plays[np.array(rows, dtype=np.intp), np.array(cols, dtype=np.intp)] = 1.0
    return plays[:, np.array([0 if last is None else column[last] for last in lasts], dtype=np.intp)]


def _name(strategy: dict[str, str]) -> str:
    return " ".join(f"{label}:{move}" for label, move in strategy.items()) or "(no move)"
