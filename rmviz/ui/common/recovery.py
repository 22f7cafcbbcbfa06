"""Autosave and restore in a window: a :class:`Recovery` hands the window's unsaved edits to
its :class:`~.autosave.Autosave` every :data:`~.autosave.AUTOSAVE_MS` (written off the GUI
thread), drops the file once they are saved or undone, and offers back the edits of windows
that died with them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from rmviz.ui.common.autosave import AUTOSAVE_MS, Autosave, Orphan, default_folder, orphans
from rmviz.ui.common.messages import describe


class Recovery:
    """The autosave of a :class:`~.run_window.RunWindow` (``window``, typed loosely: its
    module imports this one) in ``folder`` (by default the user's), and the offer to restore
    orphaned ones. ``autosave``: the window's :class:`~.autosave.Autosave`."""

    def __init__(self, window: Any, folder: Path | None = None) -> None:
        self.window = window
        self.autosave = Autosave(folder or default_folder())
        self.timer = QTimer(window)
        self.timer.timeout.connect(self.save_now)
        self.timer.start(AUTOSAVE_MS)

    def watch(self, document: Any) -> None:
        """``document``'s autosave goes when it is saved or its edits are undone."""
        document.subscribe(lambda _document: document.modified or self.autosave.discard())

    def save_now(self) -> None:
        """The autosave timer's slot: hand unsaved edits to the autosave worker (written off
        the GUI thread), or drop the file when there are none; a failed write is told in
        the status bar."""
        document = self.window.document
        if document.modified:
            self.autosave.save(document.game)
        else:
            self.autosave.discard()
        error = self.autosave.take_error()
        if error:
            self.window.statusBar().showMessage(f"autosave failed: {error}", 5000)

    def offer_restore(self) -> int:
        """Offer back the unsaved edits of every window that died with them (autosave files
        whose window is alive, in any process, are not offered): the first game of this
        window's family replaces the game shown (undoably), the others open in windows of
        their own. Returns how many were restored."""
        return sum(self._offer(orphan) for orphan in orphans(self.autosave.folder))

    def _offer(self, orphan: Orphan) -> bool:
        """Ask about one orphaned autosave; restored edits are autosaved again by the window
        that shows them before the orphan is deleted. Declined or damaged: deleted."""
        window = self.window
        try:
            game = orphan.read()
        except Exception as error:  # a damaged autosave cannot be offered: said, and deleted
            window.statusBar().showMessage(f"autosave dropped: {describe(error, orphan.path)}", 5000)
            orphan.drop()
            return False
        if not self.confirm(game.title):
            orphan.drop()
            return False
        here = window.shows(game) and not window.document.modified
        shown = window if here else window.open_elsewhere(game)
        if shown is None or not shown.show_game(game, "Restore autosave", opened=False):
            orphan.release()  # left for a later session
            return False
        shown.recovery.autosave.save(game)  # the opener's windows are RunWindows
        shown.recovery.autosave.then(orphan.drop)
        return True

    def confirm(self, title: str) -> bool:
        """Ask whether to restore an autosaved game (tests replace this method)."""
        answer = QMessageBox.question(
            self.window,
            "rmviz",
            f"rmviz closed with unsaved changes to {title!r}. Restore them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def stop(self) -> None:
        """Stop autosaving (the file stays: closing the window on purpose closes
        :attr:`autosave` too)."""
        self.timer.stop()
