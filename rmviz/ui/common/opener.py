"""How a window asks for a window on another game: the matrix window opening a tree file,
the tree window showing its reduced strategic form.

A window never imports another family's window. It is given an :class:`Opener` (the app's
window registry, :class:`rmviz.ui.app.WindowRegistry`), which knows which window class
shows which game family and owns the windows it opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtWidgets import QMainWindow


class Opener(Protocol):
    """Opens a window on any game, and knows the windows open (*File > Save as Deck*)."""

    @property
    def windows(self) -> Sequence[QMainWindow]:
        """The open windows, in the order they were opened."""
        ...

    def open_game(self, game: Any, path: Path | None = None, read_only: bool = False) -> QMainWindow:
        """Show ``game`` (read from ``path``, if any) in a new window of its family's kind;
        ``read_only`` windows refuse edits (a tree's reduced strategic form)."""
        ...
