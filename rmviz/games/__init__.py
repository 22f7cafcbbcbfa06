"""What a game is: matrix games, game trees, the catalog of both, random games.

NumPy only: no Qt, no solver, no files.
"""

from __future__ import annotations

from rmviz.games.catalog import CATALOG, CatalogEntry, catalog_entry, catalog_game, known_equilibrium
from rmviz.games.generators import parse_random_spec, random_game
from rmviz.games.normal_form import NormalFormGame

__all__ = [
    "CATALOG",
    "CatalogEntry",
    "NormalFormGame",
    "catalog_entry",
    "catalog_game",
    "known_equilibrium",
    "parse_random_spec",
    "random_game",
]
