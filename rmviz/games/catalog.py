"""The built-in games people teach with, by id: matrix games and game trees in one table.

Each entry has a one-line description, a ``build()`` returning the game, its ``kind``
(``"matrix"`` for a :class:`NormalFormGame`, ``"tree"`` for an :class:`ExtensiveFormGame`)
and, for a matrix game with one known in closed form, an equilibrium the app can mark and
the tests can check against. The tree builders live in :mod:`rmviz.games.trees`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from rmviz.errors import GameError
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.normal_form import NormalFormGame
from rmviz.games.trees import kuhn_poker, leduc_poker, signaling_game, teaching_tree

CatalogKind = Literal["matrix", "tree"]
# The kinds, named once for the layers below the solvers (each is a family's name:
# rmviz.solvers.registry.family_named turns it into the Family above them).
MATRIX_KIND: CatalogKind = "matrix"
TREE_KIND: CatalogKind = "tree"


@dataclass(frozen=True)
class CatalogEntry:
    """A catalog game: ``id``, a one-line ``description``, and how to ``build()`` it.

    ``equilibrium`` is a known Nash equilibrium (one mixed strategy per player) when the
    matrix game has a well-known one, else ``None``. ``kind`` says what ``build()`` returns:
    ``"matrix"`` a :class:`NormalFormGame`, ``"tree"`` an :class:`ExtensiveFormGame`, so a
    caller can tell them apart without building (Leduc takes a while).

    ``start`` is the default starting profile of a matrix game whose uniform profile is
    already its equilibrium (RPS, Matching Pennies, Shapley's game, three-player Matching
    Pennies): regret matching started there never moves (every instantaneous regret is 0),
    so these start away from it and visibly cycle; ``None`` starts uniform. A run's own
    start (``rmviz solve --start``) replaces it.
    """

    id: str
    description: str
    build: Callable[[], NormalFormGame | ExtensiveFormGame]
    equilibrium: tuple[tuple[float, ...], ...] | None = None
    kind: CatalogKind = "matrix"
    start: tuple[tuple[float, ...], ...] | None = None

    def __post_init__(self) -> None:
        if self.kind not in (MATRIX_KIND, TREE_KIND):
            raise GameError(f"catalog entry {self.id!r}: kind must be 'matrix' or 'tree', not {self.kind!r}")
        if self.kind == TREE_KIND and self.equilibrium is not None:
            raise GameError(f"catalog entry {self.id!r}: equilibria are given for matrix games only")
        if self.kind == TREE_KIND and self.start is not None:
            raise GameError(f"catalog entry {self.id!r}: starting strategies are given for matrix games only")

    @property
    def is_tree(self) -> bool:
        """Whether ``build()`` returns a game tree (:class:`ExtensiveFormGame`)."""
        return self.kind == TREE_KIND


def bimatrix(
    row: list[list[float]],
    column: list[list[float]],
    players: tuple[str, str],
    actions: tuple[tuple[str, ...], tuple[str, ...]],
    title: str,
    description: str = "",
) -> NormalFormGame:
    """A two-player game from the row player's and the column player's payoff matrices."""
    return NormalFormGame(np.array([row, column], dtype=np.float64), players, actions, title, description)


def zero_sum(
    row: list[list[float]],
    players: tuple[str, str],
    actions: tuple[tuple[str, ...], tuple[str, ...]],
    title: str,
    description: str = "",
) -> NormalFormGame:
    """A two-player zero-sum game from the row player's gains (the column player's losses)."""
    a = np.array(row, dtype=np.float64)
    return NormalFormGame(np.array([a, -a]), players, actions, title, description)


RPS = ("Rock", "Paper", "Scissors")


def _rps() -> NormalFormGame:
    return zero_sum(
        [[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
        ("Row", "Column"),
        (RPS, RPS),
        "Rock-Paper-Scissors",
    )


def _rps_crash() -> NormalFormGame:
    return zero_sum(
        [[0, -1, 2], [1, 0, -1], [-2, 1, 0]],
        ("Row", "Column"),
        (RPS, RPS),
        "Rock-Paper-Scissors with Crash",
        "Scissors crash against rock and the loss is doubled; equilibrium 25%/50%/25%.",
    )


def _matching_pennies() -> NormalFormGame:
    sides = ("Heads", "Tails")
    return zero_sum([[1, -1], [-1, 1]], ("Matcher", "Mismatcher"), (sides, sides), "Matching Pennies")


def _traffic_lights() -> NormalFormGame:
    moves = ("Stop", "Go")
    return bimatrix(
        [[0, 0], [1, -100]],
        [[0, 1], [0, -100]],
        ("Car 1", "Car 2"),
        (moves, moves),
        "Traffic Lights",
        "Two cars at a crossing: both going crashes (-100). A traffic light is a CE.",
    )


def _battle_of_partners() -> NormalFormGame:
    plans = ("Cinema", "Dancing")
    return bimatrix(
        [[10, 2], [0, 7]],
        [[7, 2], [0, 10]],
        ("Cat", "Dee"),
        (plans, plans),
        "Battle of the Partners",
        "Cat prefers the cinema, Dee dancing, both prefer going together.",
    )


def _prisoners_dilemma() -> NormalFormGame:
    moves = ("Cooperate", "Defect")
    return bimatrix(
        [[3, 0], [5, 1]],
        [[3, 5], [0, 1]],
        ("Prisoner 1", "Prisoner 2"),
        (moves, moves),
        "Prisoner's Dilemma",
        "Defecting dominates; the unique equilibrium (Defect, Defect) is worse for both.",
    )


def _stag_hunt() -> NormalFormGame:
    moves = ("Stag", "Hare")
    return bimatrix(
        [[4, 0], [3, 3]],
        [[4, 3], [0, 3]],
        ("Hunter 1", "Hunter 2"),
        (moves, moves),
        "Stag Hunt",
        "Hunt the stag together (4, 4) or the hare alone (3); two pure equilibria.",
    )


def _chicken() -> NormalFormGame:
    moves = ("Swerve", "Straight")
    return bimatrix(
        [[0, -1], [1, -10]],
        [[0, 1], [-1, -10]],
        ("Driver 1", "Driver 2"),
        (moves, moves),
        "Chicken",
        "Whoever swerves loses face; if neither does, both crash (-10).",
    )


def _shapley() -> NormalFormGame:
    moves = ("A", "B", "C")
    return bimatrix(
        [[0, 1, 0], [0, 0, 1], [1, 0, 0]],
        [[0, 0, 1], [1, 0, 0], [0, 1, 0]],
        ("Row", "Column"),
        (moves, moves),
        "Shapley's game",
        "Shapley (1964): fictitious play cycles forever; the unique NE is uniform.",
    )


def _three_player_pennies() -> NormalFormGame:
    sides = ("Heads", "Tails")
    match = np.array([[1.0, -1.0], [-1.0, 1.0]])
    u = np.zeros((3, 2, 2, 2))
    for a, b, c in np.ndindex(2, 2, 2):
        u[0, a, b, c] = match[a, b]  # player 1 wants to match player 2
        u[1, a, b, c] = match[b, c]  # player 2 wants to match player 3
        u[2, a, b, c] = -match[c, a]  # player 3 wants to mismatch player 1
    return NormalFormGame(
        u,
        ("Player 1", "Player 2", "Player 3"),
        (sides, sides, sides),
        "Three-player Matching Pennies",
        "Jordan (1993): a cyclic three-player game whose unique NE is uniform.",
    )


# The default start of the 3x3 games whose equilibrium is uniform (RPS, Shapley's game):
# player 1 leans to its first action, player 2 to its second (exact binary fractions, so a
# student's hand computation and the app's agree to the last digit).
LEANING_START = ((0.5, 0.25, 0.25), (0.25, 0.5, 0.25))

CATALOG: dict[str, CatalogEntry] = {
    entry.id: entry
    for entry in (
        CatalogEntry(
            "rps",
            "Rock-Paper-Scissors: unique NE 1/3 each, value 0",
            _rps,
            ((1 / 3, 1 / 3, 1 / 3), (1 / 3, 1 / 3, 1 / 3)),
            start=LEANING_START,
        ),
        CatalogEntry(
            "rps-crash",
            "RPS with Crash (scissors lose double to rock): NE 25/50/25",
            _rps_crash,
            ((0.25, 0.5, 0.25), (0.25, 0.5, 0.25)),
        ),
        CatalogEntry(
            "matching-pennies",
            "Matching Pennies: NE 50/50, value 0",
            _matching_pennies,
            ((0.5, 0.5), (0.5, 0.5)),
            start=((0.75, 0.25), (0.25, 0.75)),
        ),
        CatalogEntry(
            "traffic-lights",
            "Traffic Lights (Stop/Go, crash -100): the light (a CE) is fair and never crashes",
            _traffic_lights,
            ((100 / 101, 1 / 101), (100 / 101, 1 / 101)),
        ),
        CatalogEntry(
            "battle-of-partners",
            "Battle of the Partners (Cinema/Dancing): mixed NE (2/3,1/3) (1/3,2/3)",
            _battle_of_partners,
            ((2 / 3, 1 / 3), (1 / 3, 2 / 3)),
        ),
        CatalogEntry(
            "prisoners-dilemma",
            "Prisoner's Dilemma: unique NE (Defect, Defect)",
            _prisoners_dilemma,
            ((0.0, 1.0), (0.0, 1.0)),
        ),
        CatalogEntry(
            "stag-hunt",
            "Stag Hunt: two pure NE and a mixed one",
            _stag_hunt,
            ((0.75, 0.25), (0.75, 0.25)),
        ),
        CatalogEntry(
            "chicken",
            "Chicken: two pure NE and a mixed one (9/10 swerve)",
            _chicken,
            ((0.9, 0.1), (0.9, 0.1)),
        ),
        CatalogEntry(
            "shapley",
            "Shapley's game: cycling dynamics, unique NE uniform",
            _shapley,
            ((1 / 3, 1 / 3, 1 / 3), (1 / 3, 1 / 3, 1 / 3)),
            start=LEANING_START,
        ),
        CatalogEntry(
            "three-player-pennies",
            "Jordan's three-player Matching Pennies: NE uniform",
            _three_player_pennies,
            ((0.5, 0.5), (0.5, 0.5), (0.5, 0.5)),
            start=((0.75, 0.25), (0.5, 0.5), (0.25, 0.75)),
        ),
        CatalogEntry("kuhn", "Kuhn poker: 3 cards, value -1/18 for player 1", kuhn_poker, kind="tree"),
        CatalogEntry("leduc", "Leduc hold'em: 6 cards, 2 rounds, 9,457 histories", leduc_poker, kind="tree"),
        CatalogEntry(
            "teaching-tree",
            "the CFR lecture's example shape: chance, infosets over two histories",
            teaching_tree,
            kind="tree",
        ),
        CatalogEntry(
            "signaling",
            "von Stengel & Forges' signalling game: NE and the best CE pay (0, 6), an EFCE (3.5, 6.5)",
            signaling_game,
            kind="tree",
        ),
    )
}
"""Every catalog game by id: the matrix games first, then the game trees."""


def catalog_entry(game_id: str) -> CatalogEntry:
    """The catalog entry ``game_id``; a :class:`GameError` naming the known ids otherwise."""
    try:
        return CATALOG[game_id]
    except KeyError:
        raise GameError(f"no catalog game {game_id!r}; known games: {', '.join(CATALOG)}") from None


def catalog_game(game_id: str) -> NormalFormGame | ExtensiveFormGame:
    """The catalog game ``game_id``, a matrix game or a tree (see ``CATALOG[game_id].kind``);
    a :class:`GameError` naming the known ids otherwise."""
    return catalog_entry(game_id).build()


def known_equilibrium(game: NormalFormGame | ExtensiveFormGame) -> tuple[tuple[float, ...], ...] | None:
    """The catalog's known equilibrium when ``game`` is a catalog matrix game as built, else None."""
    if not isinstance(game, NormalFormGame):
        return None
    for entry in CATALOG.values():
        if entry.equilibrium is not None and entry.build() == game:
            return entry.equilibrium
    return None


def started_entry(game: NormalFormGame | ExtensiveFormGame) -> CatalogEntry | None:
    """The catalog entry with a default start (:attr:`CatalogEntry.start`) that ``game`` is,
    as built: its payoffs, names and title (a saved session, a shipped file); None for any
    other game. The title counts: a researcher's own RPS, built with the same names under its
    own title, started from the catalog's lean and recorded uniform."""
    for entry in CATALOG.values():
        if entry.start is not None:
            built = entry.build()
            if built == game and built.title == game.title:
                return entry
    return None


def default_start(game: NormalFormGame | ExtensiveFormGame) -> tuple[tuple[float, ...], ...] | None:
    """The catalog's default starting profile when ``game`` is a catalog matrix game as built
    (:func:`started_entry`), else None (uniform)."""
    entry = started_entry(game)
    return None if entry is None else entry.start
