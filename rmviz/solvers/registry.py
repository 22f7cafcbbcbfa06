"""The game families, and the one place that decides which family a game or an algorithm
belongs to.

:func:`make_solver` builds a solver for any game and algorithm name; a matrix game given a
tree algorithm (``rmviz solve rps -a cfr``) is solved as the equivalent game tree.
``MATRIX`` and ``TREE`` are the two families. Families compare by identity, so a layer above
keeps a table with a row per family keyed by them (the CLI's summaries, the figure builders),
never by a family's name; a :class:`FamilyTable` is such a table that a caller holding only a
name can read too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from rmviz.errors import ConfigError
from rmviz.games.trees import normal_form_tree
from rmviz.solvers.family import PARAMETER_LABELS, Family
from rmviz.solvers.matrix.family import FAMILY as MATRIX
from rmviz.solvers.protocol import Solver
from rmviz.solvers.tree.family import FAMILY as TREE

FAMILIES: tuple[Family, ...] = (MATRIX, TREE)

Row = TypeVar("Row")


def family_of(game: Any) -> Family:
    """The family whose solvers take ``game``."""
    for family in FAMILIES:
        if isinstance(game, family.game_type):
            return family
    raise ConfigError(f"rmviz cannot solve a {type(game).__name__}")


def family_named(name: str) -> Family:
    """The family called ``name`` (``"matrix"``, ``"tree"``: also the catalog's kinds)."""
    for family in FAMILIES:
        if family.name == name:
            return family
    raise ConfigError(f"no game family {name!r}; there are {', '.join(f.name for f in FAMILIES)}")


def as_family(family: Family | str) -> Family:
    """``family``, or the family it names (a caller that holds only a name: a session file's
    ``"family"``, a window's export dialog)."""
    return family_named(family) if isinstance(family, str) else family


class FamilyTable(Mapping[Family, Row]):
    """A layer's table with a row per family, keyed by the :class:`Family` objects, that a
    family's name finds a row of too (the gap curves, which the windows read by name)."""

    def __init__(self, rows: Mapping[Family, Row]) -> None:
        self._rows = dict(rows)

    def __getitem__(self, family: Family | str) -> Row:
        return self._rows[as_family(family)]

    def __contains__(self, family: object) -> bool:
        if isinstance(family, str):
            return any(family == known.name for known in self._rows)
        return family in self._rows

    def __iter__(self) -> Iterator[Family]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __repr__(self) -> str:
        return f"FamilyTable({ {family.name: row for family, row in self._rows.items()}!r})"


def family_of_algorithm(algorithm: str) -> Family:
    """The family that has the preset ``algorithm``."""
    for family in FAMILIES:
        if algorithm in family.presets:
            return family
    names = ", ".join(name for family in FAMILIES for name in family.presets)
    raise ConfigError(f"unknown algorithm {algorithm!r}; choose one of {names}")


def used_options(algorithm: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` less the numerical parameters ``algorithm`` does not use: a sweep's shared
    options, each algorithm given those it uses (its grid refuses one that none uses)."""
    used = family_of_algorithm(algorithm).preset(algorithm).parameters()
    return {name: value for name, value in options.items() if name not in PARAMETER_LABELS or name in used}


def solving_family(own: Family, algorithm: str) -> Family:
    """The family whose solver runs ``algorithm`` on a game of family ``own``: the
    algorithm's own (a matrix game given a tree algorithm is solved as its game tree); a game
    tree given a matrix-game algorithm is refused with the algorithms that apply."""
    family = family_of_algorithm(algorithm)
    if family is not own and not (family is TREE and own is MATRIX):
        raise ConfigError(
            f"{algorithm!r} solves {family.title}; for {own.title} use {', '.join(own.presets)}"
        )
    return family


def compared_options(game: Any, algorithm: str | None, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as ``algorithm`` takes them beside other algorithms (compare mode, the
    compare figure, :func:`rmviz.compare`): a numerical parameter its preset does not use is
    left out, so one step size runs Hedge beside fictitious play and RM. A single run keeps
    refusing it (:meth:`Family.config`)."""
    own = family_of(game)
    family = own if algorithm is None else solving_family(own, algorithm)
    used = family.preset(algorithm or family.default_algorithm).parameters()
    return {name: value for name, value in options.items() if name not in family.parameters or name in used}


def make_solver(
    game: Any,
    algorithm: str | None = None,
    report: bool = False,
    last_iterate: bool | None = None,
    **options: Any,
) -> Solver:
    """A solver of ``algorithm`` (default: the game family's first preset) on ``game`` with a
    person's ``options`` (config fields; ``None`` means the preset's value).

    A matrix game given a game-tree algorithm is solved as its game tree (one information
    set per player, :func:`rmviz.games.trees.normal_form_tree`); a game tree given a
    matrix-game algorithm is refused with the algorithms that apply. ``report=True`` adds
    the family's ``report_options`` (what ``rmviz solve --json`` reports besides).
    ``last_iterate``: whether the metrics include the current profile's distances (None:
    the solver's default, on for matrix games and off for trees).
    """
    own = family_of(game)
    family = own if algorithm is None else solving_family(own, algorithm)
    if family is not own:
        game = normal_form_tree(game)
    if report:
        options = {**family.report_options, **options}
    solver = family.solver(game, family.config(algorithm, **options))
    if last_iterate is not None:
        solver.last_iterate = last_iterate
    return solver
