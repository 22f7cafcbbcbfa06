"""*File > Save as Deck...*: the open windows as a lecture deck (docs/deck-format.md).

Every open window of the app (the window's :class:`~.opener.Opener` lists them; a window
without one saves itself alone) becomes a slide, in the order they were opened, titled by its
game: its session (:meth:`~.session_files.SessionFiles.session`) is written beside the deck
and the deck names it (:func:`rmviz.runner.deck_writer.write_deck`, atomic writes). ``rmviz
deck FILE`` then shows the windows again, one slide each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from rmviz.runner.deck_writer import deck_path, write_deck
from rmviz.runner.session import Session

DECK_FILTER = "rmviz decks (*.toml)"


def deck_windows(window: Any) -> list[Any]:
    """The windows a deck saved from ``window`` shows: the app's open ones, ``window``
    among them."""
    opened = [] if window.opener is None else list(window.opener.windows)
    return opened if window in opened else [window, *opened]


def deck_slides(windows: list[Any]) -> list[tuple[str, str, Session]]:
    """``(title, notes, session)`` per window: its game's title, no notes yet."""
    return [(w.document.game.title or "untitled", "", w.sessions.session()) for w in windows]


def save_deck(window: Any, path: str | Path) -> Path | None:
    """Write the deck of :func:`deck_windows` to ``path`` (``.toml`` added if missing); a
    file that cannot be written is said in a message (None then)."""
    written: list[Path] = []
    slides = deck_slides(deck_windows(window))
    if not window.attempt(lambda: written.append(write_deck(path, slides))):
        return None
    window.statusBar().showMessage(f"{len(slides)} slides saved as the deck {written[0].name}", 5000)
    return written[0]


def save_deck_dialog(window: Any) -> None:
    start = deck_path(window.document.game.title.replace("/", "-") or "lecture")
    path, _ = QFileDialog.getSaveFileName(window, "Save as deck", str(start), DECK_FILTER)
    if path:
        save_deck(window, path)
