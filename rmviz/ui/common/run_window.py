"""The run-window template: what the matrix window and the tree window share.

A :class:`RunWindow` shows one game of one :class:`~rmviz.solvers.family.Family` and runs
one solver on it in a :class:`~rmviz.runner.worker.SolverThread`. The template builds and
drives what is the same in both windows:

* the :class:`~.solver_panel.SolverPanel` and the :class:`~.run_controls.RunControls`
  (Run / Pause, Step 1, Step N, Reset); a change in the panel restarts the run;
* two tabs, the window's own run view and *Compare algorithms* (:class:`~.compare.CompareView`);
  one tab runs at a time;
* the redraw timer: each tick reads the newest snapshot, never a live solver array (the
  compiled kernels mutate those without the GIL), and the interval stretches to 1.5 times
  what a redraw and its repaint took, so the event loop stays free however slow painting is;
* "Preparing the solvers (first start only)..." in the status bar while a run's first step
  takes long (numba compiling the kernels; the window stays usable meanwhile);
* errors a person can cause shown as messages (:meth:`attempt`), saving, asking before
  unsaved edits are lost, closing and shutting the threads down;
* a game of another family, or one to show read-only, opens in a window of its own through
  the :class:`~.opener.Opener` the app gave the window.

A window subclass builds its views, calls :meth:`_add_tabs` and starts the timer; it fills in
:meth:`draw` (the run tab from a snapshot), :meth:`show_compare_status` and, where it has
more to do, the hooks :meth:`run_started`, :meth:`before_stepping`, :meth:`step_one`,
:meth:`closing`, :meth:`start` and :meth:`shutdown`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox, QTabWidget, QWidget

from rmviz.errors import RmvizError
from rmviz.formats import read_game_file, write_game_file
from rmviz.runner.loop import RunLoop
from rmviz.runner.worker import SolverThread
from rmviz.solvers.family import Family
from rmviz.solvers.protocol import Snapshot, Solver
from rmviz.solvers.registry import family_of
from rmviz.ui.common.compare import CompareView
from rmviz.ui.common.opener import Opener
from rmviz.ui.common.run_controls import RunControls
from rmviz.ui.common.solver_panel import SolverPanel
from rmviz.ui.common.style import configure_pyqtgraph

PREPARING = "Preparing the solvers (first start only)…"
PREPARING_AFTER_SECONDS = 3.0  # a first step this long compiles (loading cached kernels: 1-2.5 s loaded)


@dataclass(frozen=True)
class StartOptions:
    """What ``rmviz GAME`` asks of the first window; a window ignores what its family has no
    use for (presentation mode and the restore offer are the matrix window's, recorded steps
    and the information set the tree window's)."""

    compare: bool = False
    presentation: bool = False
    restore: bool = False
    steps: int = 0
    run: bool = False
    infoset: str | None = None


class RunWindow(QMainWindow):
    """A window on one game of ``family`` (see the module docstring).

    Attributes: ``document`` (the game being edited, set by the subclass), ``thread`` (the
    single run, ``None`` between runs), ``panel``, ``controls`` (with ``run_button`` and
    ``step_count``), ``tabs`` holding the run tab and ``compare``, and ``timer``.
    """

    redraw_ms = 33  # the shortest redraw interval

    document: Any  # a GameDocument or a TreeDocument
    FILE_KIND = "game"  # what the Open and Save dialogs call this window's files
    FILE_FILTER = ""  # the dialogs' Qt name filter

    def __init__(self, family: Family, opener: Opener | None = None, read_only: bool = False) -> None:
        super().__init__()
        configure_pyqtgraph()
        self.family, self.opener, self.read_only = family, opener, read_only
        self.thread: SolverThread | None = None
        self._seen_version = -1
        self.panel = SolverPanel(family)
        self.panel.changed.connect(self.restart)
        self.panel.speed_changed.connect(self._apply_speed)
        self.controls = RunControls()
        self.run_button, self.step_count = self.controls.run_button, self.controls.step_count
        self.controls.run.connect(self.toggle_run)
        self.controls.step_one.connect(self.step_one)
        self.controls.step_n.connect(self.step)
        self.controls.reset.connect(self.restart)
        self.compare = CompareView(family)
        self.compare.error.connect(lambda message: self.show_error(message))
        self.tabs = QTabWidget()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self._tick_started = 0.0
        self._redraw_ms = 0.0  # smoothed time of a redraw and its repaint

    def _add_tabs(self, run_tab: QWidget, title: str) -> None:
        """The window's run view, then *Compare algorithms*."""
        self.run_tab = run_tab
        self.tabs.addTab(run_tab, title)
        self.tabs.addTab(self.compare, "Compare algorithms")
        self.tabs.currentChanged.connect(self._tab_changed)

    def _action(self, menu: QMenu, text: str, slot: object, shortcut: object = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def start(self, options: StartOptions) -> None:
        """Apply the command line's ``options`` (the window is shown)."""
        if options.compare:
            self.tabs.setCurrentWidget(self.compare)
            self.compare.toggle_run()

    # -- the run -----------------------------------------------------------------------------
    def restart(self) -> None:
        """Stop any run and start a fresh solver on the current game and settings."""
        self._stop_thread()
        try:
            solver = self.family.solver(self.document.game, self.panel.config())
        except RmvizError as error:
            self.show_error(str(error))
            return
        self.thread = SolverThread(solver, points_per_decade=self.panel.points_per_decade())
        self.thread.loop.set_speed(self.panel.speed_limit())
        self.thread.start()
        self._seen_version = -1
        self.compare.set_game(self.document.game, self.panel.config())
        if self.tabs.currentWidget() is self.compare:
            self.compare.activate()
        self.run_started(solver)
        self._update_buttons()

    def run_started(self, solver: Solver) -> None:
        """A fresh run's thread is started (paused): show its game. Only immutable parts of
        ``solver`` may be read here (``columns``, a compiled tree); its state is read from
        snapshots."""

    def before_stepping(self) -> None:
        """The single run is about to step or run on."""

    def toggle_run(self) -> None:
        """Run or pause the visible tab's solvers (Space)."""
        if self.tabs.currentWidget() is self.compare:
            self.compare.toggle_run()
            return
        if self.thread is None:
            return
        loop = self.thread.loop
        if loop.running:
            loop.pause()
        else:
            self.before_stepping()
            loop.run()
        self._update_buttons()

    def step(self, iterations: int) -> None:
        """Run exactly ``iterations`` more iterations, then pause."""
        if self.thread is not None:
            self.before_stepping()
            self.thread.loop.step(iterations)
            self._update_buttons()

    def step_one(self) -> None:
        """The *Step 1* button."""
        self.step(1)

    def _apply_speed(self) -> None:
        if self.thread is not None:
            self.thread.loop.set_speed(self.panel.speed_limit())

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
        self.controls.show_running(self.thread is not None and self.thread.loop.running)

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

    # -- drawing -------------------------------------------------------------------------------
    def _tick(self) -> None:
        """The redraw timer's slot. Redrawing and the repaint it causes take the GUI thread
        for a while (C, smoothed over recent ticks); the timer then waits at least 1.5 C."""
        self._tick_started = time.perf_counter()
        for loop in self._loops():
            loop.gui_drawing(True)
        self._show_preparing(any(loop.warming_up(PREPARING_AFTER_SECONDS) for loop in self._loops()))
        self.redraw()
        # a 1 ms timer fires after the posted (low-priority) repaint the redraw queued;
        # a 0 ms one would be a posted call and run before it
        QTimer.singleShot(1, self._pace)

    def _pace(self) -> None:
        for loop in self._loops():
            loop.gui_drawing(False)
        cost_ms = (time.perf_counter() - self._tick_started) * 1000
        self._redraw_ms = 0.7 * self._redraw_ms + 0.3 * cost_ms
        self.timer.setInterval(max(self.redraw_ms, min(500, round(1.5 * self._redraw_ms))))

    def preparing(self) -> bool:
        """Whether a run of the visible tab waits for its solver's first step (compiling)."""
        return any(loop.warming_up() for loop in self._loops())

    def _show_preparing(self, preparing: bool) -> None:
        bar = self.statusBar()
        if preparing and bar.currentMessage() != PREPARING:
            bar.showMessage(PREPARING)
        elif not preparing and bar.currentMessage() == PREPARING:
            bar.clearMessage()

    def _loops(self) -> list[RunLoop]:
        """The run loops drawn now (the single run's, or compare mode's)."""
        if self.tabs.currentWidget() is self.compare:
            return [thread.loop for thread in self.compare.threads.values()]
        return [self.thread.loop] if self.thread is not None else []

    def redraw(self, force: bool = False) -> None:
        """Draw the visible tab from the newest snapshot, if there is a new one (or
        ``force``)."""
        if self.tabs.currentWidget() is self.compare:
            self.compare.redraw()
            self.show_compare_status()
            return
        if self.thread is None:
            return
        self._report_run_error()
        loop = self.thread.loop
        version, snapshot = loop.latest()
        self._update_buttons()
        if version == self._seen_version and not force:
            return
        self._seen_version = version
        self.draw(loop, snapshot, force)

    def draw(self, loop: RunLoop, snapshot: Snapshot, force: bool) -> None:
        """Draw the run tab from ``snapshot`` and ``loop``'s trace."""
        raise NotImplementedError

    def show_compare_status(self) -> None:
        """The status bar while compare mode is shown."""
        raise NotImplementedError

    # -- games and files -----------------------------------------------------------------------
    def shows(self, game: Any) -> bool:
        """Whether ``game`` is of this window's family."""
        return family_of(game) is self.family

    def open_elsewhere(
        self, game: Any, path: Path | None = None, read_only: bool = False
    ) -> QMainWindow | None:
        """Show ``game`` in a window of its own (another family's game, or one to show
        read-only) through the opener; without one, say so."""
        if self.opener is None:
            where = path if path is not None else game.title
            self.show_error(f"{where}: a {family_of(game).name} game; this window shows {self.family.title}")
            return None
        return self.opener.open_game(game, path, read_only)

    def attempt(self, action: Callable[[], object]) -> bool:
        """Run ``action``; an error a person can cause (a refused edit, a bad number, a file
        that cannot be written) is shown as a message and nothing else happens."""
        try:
            action()
        except (RmvizError, ValueError) as error:
            self.show_error(str(error))
            return False
        return True

    def set_game(self, game: Any, description: str, path: Path | None = None) -> None:
        """Show ``game`` of this window's family, as one undoable edit (windows fill in)."""
        raise NotImplementedError

    def open_file(self, path: str | Path) -> bool:
        """Open a game file: a game of this window's family replaces the current one
        (undoable), another family's opens in its own window through the opener; a bad file
        shows a message and keeps the current game."""
        try:
            game = read_game_file(path)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        path = Path(path)
        if not self.shows(game):
            return self.open_elsewhere(game, path) is not None
        self.set_game(game, f"Open {path.name}", path)
        self.document.mark_saved(path)
        return True

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, f"Open {self.FILE_KIND}", "", self.FILE_FILTER)
        if path:
            self.open_file(path)

    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, f"Save {self.FILE_KIND}", str(self.document.path or ""), self.FILE_FILTER
        )
        if path:
            self.save_file(path)

    def save_file(self, path: str | Path) -> bool:
        """Write the document's game to ``path`` (the format follows the extension)."""
        if not self.attempt(lambda: write_game_file(self.document.game, path)):
            return False
        self.document.mark_saved(Path(path))
        return True

    # -- people --------------------------------------------------------------------------------
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

    def closeEvent(self, event: object) -> None:
        if self.document.modified and not self.read_only and not self.confirm_discard():
            event.ignore()  # type: ignore[attr-defined]
            return
        self.closing()
        self.shutdown()
        event.accept()  # type: ignore[attr-defined]

    def closing(self) -> None:
        """The person closes the window on purpose (unsaved edits confirmed)."""

    def shutdown(self) -> None:
        """Stop the timers and the solver threads (idempotent)."""
        self.timer.stop()
        self.compare.stop()
        self._stop_thread()
