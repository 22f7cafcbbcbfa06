"""What the matrix window and the tree window share: one solver run in a worker thread, a
*Compare algorithms* tab, menus built from actions, and messages for the person."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox, QPushButton, QTabWidget

from rmviz.errors import RmvizError
from rmviz.formats import write_game_file
from rmviz.runner.worker import SolverThread
from rmviz.ui.compare import CompareView


class RunWindow(QMainWindow):
    """A window with a ``document``, ``thread`` (the single run), ``tabs`` holding
    ``compare``, and a ``run_button``; subclasses build those and call the helpers below."""

    document: Any  # a GameDocument or a TreeDocument
    thread: SolverThread | None
    tabs: QTabWidget
    compare: CompareView
    run_button: QPushButton

    def _action(self, menu: QMenu, text: str, slot: object, shortcut: object = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _tab_changed(self) -> None:
        """One tab runs at a time, so the other does not take its CPU."""
        if self.tabs.currentWidget() is self.compare:
            self.compare.activate()
            if self.thread is not None:
                self.thread.loop.pause()
        else:
            self.compare.pause()
        self._update_buttons()

    def _update_buttons(self) -> None:
        running = self.thread is not None and self.thread.loop.running
        self.run_button.setText("Pause" if running else "Run")

    def _stop_thread(self) -> None:
        if self.thread is not None:
            self.thread.shutdown()
            self.thread = None

    def _report_run_error(self) -> None:
        """Show (once) an error the worker met, such as a game too large for memory."""
        loop = self.thread.loop if self.thread is not None else None
        if loop is not None and loop.error:
            message, loop.error = loop.error, None
            self.show_error(message)

    def attempt(self, action: Callable[[], object]) -> bool:
        """Run ``action``; an error a person can cause (a refused edit, a bad number, a file
        that cannot be written) is shown as a message and nothing else happens."""
        try:
            action()
        except (RmvizError, ValueError) as error:
            self.show_error(str(error))
            return False
        return True

    def save_file(self, path: str | Path) -> bool:
        """Write the document's game to ``path`` (the format follows the extension)."""
        if not self.attempt(lambda: write_game_file(self.document.game, path)):
            return False
        self.document.mark_saved(Path(path))
        return True

    def show_error(self, message: str) -> None:
        """Tell the person what went wrong (a dialog; tests replace this method)."""
        QMessageBox.warning(self, "rmviz", message)

    def confirm_discard(self) -> bool:
        """Ask before losing unsaved edits (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            "rmviz",
            f"{self.document.game.title!r} has unsaved changes. Close anyway?",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard
