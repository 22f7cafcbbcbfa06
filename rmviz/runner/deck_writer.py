"""Writing lecture decks: *File > Save as Deck...* (docs/deck-format.md).

Each slide's session is written beside the deck file (``lecture-01.rmviz-session.json``,
``lecture-02...``), then the deck, a TOML file of session slides, every write atomic
(:mod:`rmviz.atomic`). Strings are TOML basic strings with every character TOML forbids
there escaped (TOML 1.0, "String": quote, backslash, control characters and DEL), so any
title or note reads back as written (:func:`rmviz.runner.deck.read_deck`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rmviz.atomic import atomic_write_text
from rmviz.runner.session import SUFFIX, Session, write_session

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quoted, escaped)."""
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def deck_path(path: str | Path) -> Path:
    """``path`` with ``.toml`` added when it lacks it."""
    path = Path(path)
    return path if path.suffix.lower() == ".toml" else path.with_name(path.name + ".toml")


def session_files(deck: Path, count: int) -> list[Path]:
    """Where the sessions of a deck of ``count`` slides are written: beside it, numbered."""
    stem = deck.name[: -len(deck.suffix)] if deck.suffix else deck.name
    width = max(2, len(str(count)))
    return [deck.with_name(f"{stem}-{n:0{width}d}{SUFFIX}") for n in range(1, count + 1)]


def deck_text(slides: Sequence[tuple[str, str, str]], title: str = "") -> str:
    """A deck of session slides: ``(title, notes, session file name)`` each."""
    lines = ["# an rmviz lecture deck (docs/deck-format.md): rmviz deck FILE", ""]
    if title:
        lines += [f"title = {toml_string(title)}", ""]
    for name, notes, session in slides:
        lines += ["[[slide]]", f"title = {toml_string(name)}"]
        if notes:
            lines.append(f"notes = {toml_string(notes)}")
        lines += [f"session = {toml_string(session)}", ""]
    return "\n".join(lines)


def write_deck(path: str | Path, slides: Sequence[tuple[str, str, Session]], title: str = "") -> Path:
    """Write ``slides`` (``(title, notes, session)`` each) as a deck at ``path`` (``.toml``
    added if missing), its sessions beside it; returns the deck's path."""
    target = deck_path(path)
    files = session_files(target, len(slides))
    for (_, _, session), file in zip(slides, files, strict=True):
        write_session(session, file)
    entries = [(name, notes, file.name) for (name, notes, _), file in zip(slides, files, strict=True)]
    atomic_write_text(target, deck_text(entries, title))
    return target
