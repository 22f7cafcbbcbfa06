"""Games to and from files: rmviz JSON, Gambit .nfg and .efg, chosen by extension.

:func:`load_game` also resolves the other ways a person names a game on the command line:
a catalog id (``rps-crash``, ``kuhn``), a random spec (``random:zero-sum:100x100:seed=3``) or
an OpenSpiel game (``openspiel:leduc_poker``, :mod:`rmviz.formats.openspiel`).
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rmviz.atomic import atomic_write_text
from rmviz.errors import FormatError, GameError, ReadError, RmvizError
from rmviz.formats.efg import read_efg, write_efg
from rmviz.formats.efg_records import Progress
from rmviz.formats.nfg import read_nfg, write_nfg
from rmviz.formats.openspiel import PREFIX as OPENSPIEL_PREFIX
from rmviz.formats.openspiel import openspiel_game
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


MAX_FILE_BYTES = 512 * 1024**2
"""The largest game file rmviz reads (a 2,000 x 2,000 .nfg is about 30 MB). Larger files, and
things that are not regular files (``/dev/zero``, a pipe), are refused before reading."""


def read_game_file(path: str | Path, progress: Progress | None = None) -> Game:
    """Read a game file; the format follows the extension (.json, .nfg, .efg).

    Every refusal is a :class:`~rmviz.errors.ReadError` naming the file (and the line).
    ``progress(histories)`` is called while a big .efg file is read (and may stop it:
    :func:`~rmviz.formats.efg.read_efg`).
    """
    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise ReadError(
            str(path), f"unknown file type {path.suffix or '(none)'!r}; rmviz reads {', '.join(READERS)}"
        )
    if reader is read_efg:
        return read_efg(read_text_file(path), str(path), progress)
    return reader(read_text_file(path), str(path))


def read_text_file(path: str | Path, what: str = "game file") -> str:
    """The text of ``path`` (UTF-8, a byte-order mark allowed), read with the care every
    reader of rmviz takes: a regular file of at most :data:`MAX_FILE_BYTES`, checked before
    it is read; a :class:`~rmviz.errors.ReadError` naming the file otherwise. ``what`` names
    the kind of file in messages (``"session file"``)."""
    path = Path(path)
    try:
        status = path.stat()
        if stat.S_ISDIR(status.st_mode):
            raise ReadError(str(path), f"is a folder, not a {what}")
        if not stat.S_ISREG(status.st_mode):
            raise ReadError(str(path), "is not a regular file (a device, a pipe or a socket)")
        if status.st_size > MAX_FILE_BYTES:
            size, limit = status.st_size // 1024**2, MAX_FILE_BYTES // 1024**2
            raise ReadError(str(path), f"is {size} MB; rmviz reads {what}s up to {limit} MB")
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ReadError(str(path), "no such file") from None
    except OSError as error:  # permission, a name too long, a symbolic link loop, a path under a file
        raise ReadError(str(path), f"cannot read ({error.strerror or error})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ReadError(str(path), f"grew past {MAX_FILE_BYTES // 1024**2} MB while being read")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ReadError(str(path), f"not a text file ({error.reason} at byte {error.start})") from None


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
            raise RmvizError(f"{spec!r}: the reduced strategic form is of a game tree, not a matrix game")
        try:
            return reduced_strategic_form(tree)
        except GameError as error:
            raise GameError(f"{inner}: {error}") from None
    if spec in CATALOG:
        return catalog_game(spec)
    path = Path(spec)
    if path.suffix or _exists(path):
        return read_game_file(path, progress)
    raise RmvizError(
        f"{spec!r} is not a catalog game, a random:, openspiel: or reduced: spec, or a file; "
        f"catalog games: {', '.join(CATALOG)}"
    )


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name too long for the file system: let read_game_file say so
        return True


__all__ = [
    "Game",
    "Progress",
    "load_game",
    "read_efg",
    "read_game_file",
    "read_json",
    "read_nfg",
    "read_text_file",
    "write_efg",
    "write_game_file",
    "write_json",
    "write_nfg",
]
