"""Games to and from files: rmviz JSON, Gambit .nfg and .efg, chosen by extension.

:func:`load_game` also resolves the other ways a person names a game on the command line:
a catalog id (``rps-crash``, ``kuhn``) or a random spec (``random:zero-sum:100x100:seed=3``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rmviz.atomic import atomic_write_text
from rmviz.errors import FormatError, GameError, RmvizError
from rmviz.formats.efg import read_efg, write_efg
from rmviz.formats.nfg import read_nfg, write_nfg
from rmviz.formats.rmviz_json import read_json, write_json
from rmviz.games.catalog import CATALOG, catalog_game
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.generators import parse_random_spec
from rmviz.games.normal_form import NormalFormGame
from rmviz.games.reduced import reduced_strategic_form
from rmviz.games.trees import normal_form_tree

Game = NormalFormGame | ExtensiveFormGame
READERS = {".json": read_json, ".nfg": read_nfg, ".efg": read_efg}
WRITERS: dict[str, Callable[[Any], str]] = {".json": write_json, ".nfg": write_nfg, ".efg": write_efg}


def read_game_file(path: str | Path) -> Game:
    """Read a game file; the format follows the extension (.json, .nfg, .efg)."""
    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise FormatError(
            f"{path}: unknown file type {path.suffix or '(none)'!r}; rmviz reads {', '.join(READERS)}"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise FormatError(f"{path}: is a folder, not a game file") from None
    except PermissionError:
        raise FormatError(f"{path}: permission denied") from None
    except UnicodeDecodeError as error:
        raise FormatError(f"{path}: not a text file ({error.reason} at byte {error.start})") from None
    return reader(text, str(path))


def write_game_file(game: Game, path: str | Path) -> None:
    """Write ``game`` to ``path`` in the format its extension names.

    Matrix games go to .json, .nfg, or .efg (as a tree of simultaneous moves); trees to .efg or .json.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    writer = WRITERS.get(suffix)
    if writer is None:
        raise FormatError(
            f"{path}: cannot write {path.suffix or 'files without an extension'!r}; "
            f"choose one of {', '.join(WRITERS)}"
        )
    if isinstance(game, ExtensiveFormGame) and suffix == ".nfg":
        raise FormatError(f"{path}: game trees are written as Gambit .efg or rmviz .json files")
    if isinstance(game, NormalFormGame) and suffix == ".efg":
        game = normal_form_tree(game)
    atomic_write_text(path, writer(game))


def load_game(spec: str) -> Game:
    """The game a person names: a catalog id, a ``random:`` spec, a file path, or
    ``reduced:TREE`` (the reduced strategic form of a tree given by id or file)."""
    if spec.startswith("random:"):
        return parse_random_spec(spec)
    if spec.startswith("reduced:"):
        inner = spec.removeprefix("reduced:")
        tree = None if inner.startswith("reduced:") else load_game(inner)  # (recursion is one level)
        if not isinstance(tree, ExtensiveFormGame):
            raise RmvizError(f"{spec!r}: the reduced strategic form is of a game tree, not a matrix game")
        try:
            return reduced_strategic_form(tree)
        except GameError as error:
            raise GameError(f"{inner}: {error}") from None
    if spec in CATALOG:
        return catalog_game(spec)
    path = Path(spec)
    if path.suffix or path.exists():
        return read_game_file(path)
    raise RmvizError(
        f"{spec!r} is not a catalog game, a random: or reduced: spec, or a file; "
        f"catalog games: {', '.join(CATALOG)}"
    )


__all__ = [
    "Game",
    "load_game",
    "read_efg",
    "read_game_file",
    "read_json",
    "read_nfg",
    "write_efg",
    "write_game_file",
    "write_json",
    "write_nfg",
]
