"""The example files shipped inside the package, found with :mod:`importlib.resources` (so in
a wheel, an editable install and the PyInstaller bundle alike); ``rmviz examples`` lists them
and copies them out, ``rmviz sweep --example NAME`` runs a sweep config.

* ``games/``: the lecture's games as files, written by ``rmviz convert`` from the catalog;
  each file's stem is its catalog id, whose description it shows (``tests/test_resources.py``
  checks each file is its catalog game).
* ``sweeps/``: sweep configs (TOML, ``docs/research.md``), described by their ``name``.
* ``notebooks/``: Jupyter notebooks, stored without outputs, described by their first
  heading (``tests/docs/test_notebooks.py`` runs them from top to bottom).
* ``decks/``: lecture decks (TOML, ``docs/deck-format.md``; ``rmviz deck FILE``), described
  by their ``title``.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from rmviz.errors import ConfigError, RmvizError

GAMES, SWEEPS, NOTEBOOKS, DECKS = "games", "sweeps", "notebooks", "decks"
KINDS = (GAMES, SWEEPS, NOTEBOOKS, DECKS)
SUFFIXES = {GAMES: (".nfg", ".efg", ".json"), SWEEPS: (".toml",), NOTEBOOKS: (".ipynb",), DECKS: (".toml",)}


@dataclass(frozen=True)
class Example:
    """One shipped file: its kind (a folder of :data:`KINDS`), its file name, a line saying
    what it is, and the file itself (a path in every install rmviz has: wheels are unpacked)."""

    kind: str
    filename: str
    description: str
    file: Traversable

    @property
    def name(self) -> str:
        """The name ``rmviz sweep --example`` takes: the file name less its suffix."""
        return self.filename.rsplit(".", 1)[0]

    @property
    def listed_as(self) -> str:
        """How ``rmviz examples`` names it: a sweep by :attr:`name`, other files by file name."""
        return self.name if self.kind == SWEEPS else self.filename


def folder(kind: str) -> Traversable:
    """The shipped folder of ``kind`` (one of :data:`KINDS`)."""
    return resources.files(__name__).joinpath(kind)


def examples(kind: str | None = None) -> list[Example]:
    """Every shipped example of ``kind`` (default all), by kind then file name."""
    found = []
    for each in KINDS if kind is None else (kind,):
        for file in sorted(folder(each).iterdir(), key=lambda f: f.name):
            if file.is_file() and file.name.endswith(SUFFIXES[each]):
                found.append(Example(each, file.name, _describe(each, file), file))
    return found


def _describe(kind: str, file: Traversable) -> str:
    """One line about ``file``, read from what it already says (no second copy to keep true)."""
    if kind == GAMES:
        from rmviz.games.catalog import CATALOG

        entry = CATALOG.get(file.name.rsplit(".", 1)[0])
        return entry.description if entry is not None else ""
    text = file.read_text(encoding="utf-8")
    if kind == SWEEPS:
        return str(tomllib.loads(text).get("name", ""))
    if kind == DECKS:
        return str(tomllib.loads(text).get("title", ""))
    cells = json.loads(text).get("cells", [])
    first = "".join(cells[0].get("source", [])) if cells else ""
    return first.strip().splitlines()[0].lstrip("# ").strip() if first.strip() else ""


def sweep_example(name: str) -> Example:
    """The sweep config called ``name`` (``zero-sum-10x10`` or ``zero-sum-10x10.toml``)."""
    sweeps = examples(SWEEPS)
    for example in sweeps:
        if name in (example.name, example.filename):
            return example
    raise ConfigError(
        f"--example {name!r}: no such sweep config; there are {', '.join(e.name for e in sweeps)} "
        "(rmviz examples)"
    )


@contextmanager
def example_path(example: Example) -> Iterator[Path]:
    """``example``'s file as a path on disk for as long as the ``with`` block runs."""
    with resources.as_file(example.file) as path:
        yield path


def copy_examples(destination: Path) -> list[Path]:
    """Copy every example into ``destination``/KIND/ (made if missing) and return the files
    written. Nothing is written when any of them exists already (the person's edits stay)."""
    if destination.exists() and not destination.is_dir():
        raise ConfigError(f"--copy {destination}: a file is in the way; name a folder")
    shipped = examples()
    targets = [destination / example.kind / example.filename for example in shipped]
    present = [target for target in targets if target.exists()]
    if present:
        raise ConfigError(
            f"--copy {destination}: {present[0]} exists ({len(present)} of the {len(targets)} files "
            "do); copy into another folder, or move them away first"
        )
    try:
        for example, target in zip(shipped, targets, strict=True):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(example.file.read_bytes())
    except OSError as error:
        where = error.filename or destination
        raise RmvizError(f"--copy {destination}: cannot write {where}: {error.strerror}") from None
    return targets
