"""Games to and from files: rmviz JSON, Gambit .nfg and .efg, chosen by extension.

:func:`load_game` also resolves the other ways a person names a game on the command line:
a catalog id (``rps-crash``, ``kuhn``), a random spec (``random:zero-sum:100x100:seed=3``) or
an OpenSpiel game (``openspiel:leduc_poker``; a one-shot game such as ``openspiel:matrix_rps``
is a matrix game: :mod:`rmviz.formats.openspiel`). Gambit's
readers and writers (:mod:`.efg`, :mod:`.nfg`: ~45 ms of regular expressions to import) are
imported when first used: ``rmviz solve rps`` reads no file.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rmviz.atomic import atomic_write_text
from rmviz.errors import FormatError, GameError, ReadError, RmvizError
from rmviz.formats.files import MAX_FILE_BYTES, read_text_file
from rmviz.formats.openspiel import PREFIX as OPENSPIEL_PREFIX
from rmviz.formats.openspiel import one_shot_spec, openspiel_game
from rmviz.formats.rmviz_json import read_json, write_json
from rmviz.games.catalog import CATALOG, MATRIX_KIND, TREE_KIND, catalog_game
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.generators import parse_random_spec, read_random_spec
from rmviz.games.normal_form import NormalFormGame
from rmviz.games.reduced import reduced_strategic_form
from rmviz.games.trees import normal_form_tree

if TYPE_CHECKING:
    from rmviz.formats.efg import read_efg, read_efg_file, write_efg
    from rmviz.formats.efg_records import Progress
    from rmviz.formats.nfg import read_nfg, write_nfg

Game = NormalFormGame | ExtensiveFormGame
# the names :func:`__getattr__` imports on first use, and their modules
LATER = {
    "read_efg": "rmviz.formats.efg",
    "read_efg_file": "rmviz.formats.efg",
    "write_efg": "rmviz.formats.efg",
    "Progress": "rmviz.formats.efg_records",
    "read_nfg": "rmviz.formats.nfg",
    "write_nfg": "rmviz.formats.nfg",
}
READERS = {".json": "read_json", ".nfg": "read_nfg", ".efg": "read_efg"}  # names in this module
WRITERS = {".json": "write_json", ".nfg": "write_nfg", ".efg": "write_efg"}


def __getattr__(name: str) -> Any:
    """The names of :data:`LATER`, imported on first use."""
    if name in LATER:
        return getattr(importlib.import_module(LATER[name]), name)
    raise AttributeError(f"module 'rmviz.formats' has no attribute {name!r}")


def _function(name: str) -> Callable[..., Any]:
    return globals()[name] if name in globals() else __getattr__(name)


def read_game_file(path: str | Path, progress: Progress | None = None) -> Game:
    """Read a game file; the format follows the extension (.json, .nfg, .efg).

    Every refusal is a :class:`~rmviz.errors.ReadError` naming the file (and the line).
    A .efg file is streamed (:func:`~rmviz.formats.efg.read_efg_file`: any size, memory
    bounded by the tree it holds); the others are read whole, up to :data:`MAX_FILE_BYTES`.
    ``progress(histories)`` is called while a big .efg file is read (and may stop it).
    """
    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise ReadError(
            str(path), f"unknown file type {path.suffix or '(none)'!r}; rmviz reads {', '.join(READERS)}"
        )
    if reader == "read_efg":
        return _function("read_efg_file")(path, progress)
    return _function(reader)(read_text_file(path), str(path))


def write_game_file(game: Game, path: str | Path) -> None:
    """Write ``game`` to ``path`` in the format its extension names.

    Matrix games go to .json, .nfg, or .efg (as a tree of simultaneous moves); trees to .efg or .json.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    name = WRITERS.get(suffix)
    if name is None:
        raise FormatError(
            f"{path}: cannot write {path.suffix or 'files without an extension'!r}; "
            f"choose one of {', '.join(WRITERS)}"
        )
    if isinstance(game, ExtensiveFormGame) and suffix == ".nfg":
        raise FormatError(f"{path}: game trees are written as Gambit .efg or rmviz .json files")
    if isinstance(game, NormalFormGame) and suffix == ".efg":
        game = normal_form_tree(game)
    atomic_write_text(path, _function(name)(game))


def load_game(spec: str, progress: Progress | None = None) -> Game:
    """The game a person names: a catalog id, a ``random:`` spec, a file path,
    ``openspiel:GAME(params)`` (needs OpenSpiel), or ``reduced:TREE`` (the reduced strategic
    form of a tree given by id, file or OpenSpiel spec). ``progress(histories)`` is called
    while a big tree is walked or read (an OpenSpiel game, a .efg file); when it returns
    False the loading stops with :class:`~rmviz.errors.Cancelled`."""
    if spec.startswith("random:"):
        return parse_random_spec(spec)
    if spec.startswith(OPENSPIEL_PREFIX):
        return openspiel_game(spec, progress=progress)
    if spec.startswith("reduced:"):
        inner = spec.removeprefix("reduced:")
        tree = None if inner.startswith("reduced:") else load_game(inner, progress)  # (one level)
        if not isinstance(tree, ExtensiveFormGame):
            raise RmvizError(_NOT_A_TREE.format(spec=spec))
        try:
            return reduced_strategic_form(tree)
        except GameError as error:
            raise GameError(f"{inner}: {error}") from None
    if spec in CATALOG:
        return catalog_game(spec)
    path = Path(spec)
    if path.suffix or _exists(path):
        return read_game_file(path, progress)
    raise _unknown(spec)


def game_kind(spec: str) -> str:
    """``"matrix"`` or ``"tree"``: the kind of game :func:`load_game` returns for ``spec``,
    without building it where the spec tells (catalog ids, ``random:`` and ``reduced:`` specs,
    OpenSpiel games, which are looked up but not built, .nfg and .efg files, which must
    exist); a .json file is read. Refuses, with the same one line, what :func:`load_game`
    would refuse before it builds anything (an unknown name, a bad ``random:`` spec or
    OpenSpiel game, a missing file), so a sweep checks its whole grid before it runs."""
    if spec.startswith("random:"):
        read_random_spec(spec)
        return MATRIX_KIND
    if spec.startswith(OPENSPIEL_PREFIX):
        return MATRIX_KIND if one_shot_spec(spec) else TREE_KIND
    if spec.startswith("reduced:"):
        inner = spec.removeprefix("reduced:")
        if inner.startswith("reduced:") or game_kind(inner) != TREE_KIND:
            raise RmvizError(_NOT_A_TREE.format(spec=spec))
        return MATRIX_KIND
    if spec in CATALOG:
        return CATALOG[spec].kind
    path = Path(spec)
    if path.suffix or _exists(path):
        suffix = path.suffix.lower()
        if suffix in (".nfg", ".efg"):
            if not path.is_file():
                raise ReadError(str(path), "no such file")
            return MATRIX_KIND if suffix == ".nfg" else TREE_KIND
        return TREE_KIND if isinstance(read_game_file(path), ExtensiveFormGame) else MATRIX_KIND
    raise _unknown(spec)


_NOT_A_TREE = "{spec!r}: the reduced strategic form is of a game tree, not a matrix game"


def _unknown(spec: str) -> RmvizError:
    return RmvizError(
        f"{spec!r} is not a catalog game, a random:, openspiel: or reduced: spec, or a file; "
        f"catalog games: {', '.join(CATALOG)}"
    )


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name too long for the file system: let read_game_file say so
        return True


__all__ = [
    "MAX_FILE_BYTES",
    "Game",
    "Progress",
    "game_kind",
    "load_game",
    "read_efg",
    "read_efg_file",
    "read_game_file",
    "read_json",
    "read_nfg",
    "read_text_file",
    "write_efg",
    "write_game_file",
    "write_json",
    "write_nfg",
]
