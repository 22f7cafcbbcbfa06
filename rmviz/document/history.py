"""Undo/redo for a document being edited (no Qt), shared by matrix games and game trees.

Every edit is a command that knows how to do and undo itself on the document
(``apply(document, forward)``); :class:`EditHistory` keeps the two stacks, a modified flag
relative to the last save, the file path, and notifies subscribers after each change.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol


class Command(Protocol):
    @property
    def description(self) -> str: ...

    def apply(self, document: Any, forward: bool) -> None: ...


class EditHistory:
    """Undo and redo stacks, the modified flag, the file path and the subscribers."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._undo: list[Command] = []
        self._redo: list[Command] = []
        self._saved_at = 0  # undo depth at the last save
        self._subscribers: list[Callable[[Any], None]] = []

    # -- observation -----------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Any], None]) -> None:
        """Call ``callback(document)`` after every change."""
        self._subscribers.append(callback)

    def _changed(self) -> None:
        for callback in self._subscribers:
            callback(self)

    @property
    def modified(self) -> bool:
        return len(self._undo) != self._saved_at

    def mark_saved(self, path: Path | None = None) -> None:
        if path is not None:
            self.path = path
        self._saved_at = len(self._undo)
        self._changed()

    def mark_opened(self, path: Path | None) -> None:
        """The game shown was just opened (a file, a catalog or random game, a session): it is
        not modified until it is edited, and its file is ``path`` (None: none yet, so *Save*
        asks where). The edit that showed it stays undoable; undoing it counts as a change."""
        self.path = path
        self.mark_saved()

    # -- undo / redo -----------------------------------------------------------------------
    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo_text(self) -> str:
        return self._undo[-1].description if self._undo else ""

    def redo_text(self) -> str:
        return self._redo[-1].description if self._redo else ""

    def undo(self) -> None:
        if self._undo:
            command = self._undo.pop()
            command.apply(self, forward=False)
            self._redo.append(command)
            self._changed()

    def redo(self) -> None:
        if self._redo:
            command = self._redo.pop()
            command.apply(self, forward=True)
            self._undo.append(command)
            self._changed()

    def retract(self) -> None:
        """Undo the last edit and forget it (an edit the window could not show): unlike
        :meth:`undo`, nothing is left to redo."""
        if self._undo:
            self._undo.pop().apply(self, forward=False)
            self._changed()

    def _push(self, command: Command) -> None:
        """Do ``command`` as a new undo step (the redo stack is dropped)."""
        if self._saved_at > len(self._undo):  # the saved state can no longer be reached
            self._saved_at = -1
        command.apply(self, forward=True)
        self._undo.append(command)
        self._redo.clear()
        self._changed()
