"""The run-window template: what the matrix window and the tree window share.

A :class:`RunWindow` shows one game of one :class:`~rmviz.solvers.family.Family` and runs
one solver on it, beside *Compare algorithms* (:class:`~.compare.CompareView`; one tab runs
at a time). It holds the :class:`~.solver_panel.SolverPanel` and the
:class:`~.run_controls.RunControls` (a change in the panel restarts the run) and one small
object per job: ``run`` (:class:`~.run_control.RunControl`: run, pause, step, reset, the
paced redraw) and ``status_line`` (:class:`~.run_control.StatusLine`), ``files``
(:class:`~.game_files.GameFiles`), ``sessions`` (:class:`~.session_files.SessionFiles`),
``recovery`` (:class:`~.recovery.Recovery`: autosave and restore), ``presentation``
(:class:`~.presentation.Presentation`: the window's size, presentation mode and text size)
and ``export`` (:class:`~.run_export.RunExport`: figures and run data). The window itself
shows games (:meth:`RunWindow.show_game`), opens other families' in windows of their own
through the :class:`~.opener.Opener`, shows errors a person can cause as messages, asks
before unsaved edits are lost and shuts the threads down. A subclass builds its views, calls
:meth:`~RunWindow._add_tabs` and starts ``run.timer``; it fills in ``draw`` and
``show_compare_status`` and, where it has more to do, the other hooks. A fresh run (an edit,
a new game, new settings) keeps running if the run it replaces was running; *Reset* leaves
it at iteration 0, paused.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QSize
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox, QTabWidget, QWidget

from rmviz.errors import RmvizError
from rmviz.runner.loop import RunLoop
from rmviz.runner.session import View
from rmviz.runner.trace import SavedRun
from rmviz.solvers.family import Family
from rmviz.solvers.protocol import Snapshot, Solver
from rmviz.solvers.registry import family_of
from rmviz.ui.common.collector import collect_on_gui_thread
from rmviz.ui.common.compare import CompareView
from rmviz.ui.common.game_files import GameFiles
from rmviz.ui.common.messages import describe
from rmviz.ui.common.opener import Opener
from rmviz.ui.common.presentation import Presentation
from rmviz.ui.common.recovery import Recovery
from rmviz.ui.common.run_control import RunControl, StatusLine
from rmviz.ui.common.run_controls import RunControls
from rmviz.ui.common.run_export import RunExport
from rmviz.ui.common.session_files import SessionFiles
from rmviz.ui.common.solver_panel import SolverPanel
from rmviz.ui.common.style import configure_pyqtgraph


@dataclass(frozen=True)
class StartOptions:
    """What ``rmviz GAME`` asks of the first window; a window ignores what its family has no
    use for (recorded steps, running and the information set are the tree window's)."""

    compare: bool = False
    presentation: bool = False
    restore: bool = False
    steps: int = 0
    run: bool = False
    infoset: str | None = None
    size: tuple[int, int] | None = None  # the window's size; presentation mode keeps it
    field: bool = False  # the matrix window's simplex draws the field of the run's dynamic
    field_step: float | None = None  # and the algorithm's steps of this size beside the flow


class RunWindow(QMainWindow):
    """A window on one game of ``family`` (see the module docstring).

    Attributes: ``document`` (the game being edited, set by the subclass), ``panel``,
    ``controls`` (with ``run_button`` and ``step_count``), ``tabs`` holding the run tab and
    ``compare`` (``tab_names``: the tabs by the name a session file gives them), and the
    parts ``run``, ``status_line``, ``files``, ``sessions``, ``recovery``, ``presentation``
    and ``export``. ``RECORDS_STEPS``: *Step 1* records the iteration it runs (the tree
    window), so a session saved just after one records it again, from ``recorded_from``
    (the run as it was just before that step).
    """

    redraw_ms = 33  # the shortest redraw interval

    document: Any  # a GameDocument or a TreeDocument
    FILE_KIND = "game"  # what the Open and Save dialogs call this window's files
    FILE_FILTER = ""  # the dialogs' Qt name filter
    RECORDS_STEPS = False
    recorded_from: SavedRun | None = None
    # where every window's errors go instead of a dialog while nobody is there to close one
    # (--screenshot, --export): set for the process by rmviz.ui.app before any window exists
    headless_errors: ClassVar[Callable[[str], None] | None] = None

    def __init__(
        self,
        family: Family,
        opener: Opener | None = None,
        read_only: bool = False,
        autosave_folder: Path | None = None,
    ) -> None:
        super().__init__()
        configure_pyqtgraph()
        collect_on_gui_thread()  # never in the solver thread: Qt garbage deadlocks there
        self.family, self.opener, self.read_only = family, opener, read_only
        self.panel = SolverPanel(family)
        self.controls = RunControls()
        self.run_button, self.step_count = self.controls.run_button, self.controls.step_count
        self.compare = CompareView(family)
        self.last_iterate: bool | None = None  # the solvers' own default (set_last_iterate)
        self.compare.error.connect(lambda message: self.show_error(message))
        self.tabs = QTabWidget()
        self.tab_names: dict[str, QWidget] = {}
        self.run = RunControl(self)
        self.status_line = StatusLine(self.statusBar())
        self.files = GameFiles(self)
        self.sessions = SessionFiles(self)
        self.recovery = Recovery(self, autosave_folder)
        self.presentation = Presentation(self)
        self.export = RunExport(self)
        self.panel.changed.connect(self.run.restart)
        self.panel.speed_changed.connect(self.run.apply_speed)
        self.controls.run.connect(self.run.toggle)
        self.controls.step_one.connect(self.step_one)
        self.controls.step_n.connect(self.run.step)
        self.controls.reset.connect(self.run.reset)

    def _adopt(self, document: Any) -> None:
        """Show ``document`` (the subclass's, built once); its autosave goes when it is saved
        or its edits are undone."""
        self.document = document
        self.recovery.watch(document)

    def _add_tabs(self, run_tab: QWidget, title: str) -> None:
        """The window's run view, then *Compare algorithms*."""
        self.run_tab = run_tab
        self.tabs.addTab(run_tab, title)
        self.tabs.addTab(self.compare, "Compare algorithms")
        self.tab_names.update(run=run_tab, compare=self.compare)
        self.tabs.currentChanged.connect(self.run.tab_changed)

    def _action(self, menu: QMenu, text: str, slot: object, shortcut: object = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def start(self, options: StartOptions) -> None:
        """Apply the command line's ``options`` (the window is shown)."""
        if options.size is not None:
            self.presentation.keep_size(QSize(*options.size))
        if options.presentation:
            self.presentation.set(True)  # on, whatever a reopened session had
        if options.compare:
            self.tabs.setCurrentWidget(self.compare)
            self.compare.toggle_run()
        if options.restore:
            self.recovery.offer_restore()

    # -- hooks: what the families fill in -----------------------------------------------------
    def new_solver(self, game: Any) -> Solver:
        """A solver of the panel's configuration on ``game``, which the window can show
        (tracking the last iterate as :attr:`last_iterate` says; None: the solver's default)."""
        solver = self.family.solver(game, self.panel.config())
        if self.last_iterate is not None:
            solver.last_iterate = self.last_iterate
        return solver

    def set_last_iterate(self, on: bool) -> None:
        """Track the last iterate's distances (a fresh run, and the compare tab's) or not."""
        self.keep_last_iterate(on)
        self.run.restart()  # the compare tab's solvers are built anew too

    def keep_last_iterate(self, on: bool | None) -> None:
        """Whether solvers made from now on track the last iterate (None: their default), as
        a session says before its solver is made; windows show it (the tree's menu)."""
        self.last_iterate = self.compare.last_iterate = on

    def run_started(self, solver: Solver) -> None:
        """A fresh run's thread is started (paused): show its game. Only immutable parts of
        ``solver`` may be read here (``columns``, a compiled tree); its state is read from
        snapshots."""

    def before_stepping(self) -> None:
        """The single run is about to step or run on."""

    def step_one(self) -> None:
        """The *Step 1* button."""
        self.run.step(1)

    def draw(self, loop: RunLoop, snapshot: Snapshot, force: bool) -> Iterator[None]:
        """Draw the run tab from ``snapshot`` and ``loop``'s trace: a generator of the
        redraw's parts, a view or a plot each (the run control lets the event loop repaint
        each before the next is drawn)."""
        raise NotImplementedError

    def show_compare_status(self) -> None:
        """The status bar while compare mode is shown."""
        raise NotImplementedError

    def figure_extras(self) -> dict[str, Any]:
        """What this window adds to its figures' :class:`~rmviz.figures.run.RunData` (the
        matrix window: simplex faces)."""
        return {}

    def view_state(self) -> View:
        """What the window shows besides the run, for a session (windows add theirs)."""
        current = self.tabs.currentWidget()
        tab = next((key for key, widget in self.tab_names.items() if widget is current), None)
        return View(
            tab=tab,
            presentation=self.presentation.on,
            text_steps=self.presentation.text_steps,
            compared=tuple(self.compare.checked()),
            last_iterate=self.last_iterate,
        )

    def apply_view(self, view: View) -> list[str]:
        """Show a session's ``view`` (windows add theirs); a tab this window lacks is ignored.
        Returns what could not be shown as saved (the status bar says it)."""
        self.compare.set_checked(
            list(self.family.compare_default if view.compared is None else view.compared)
        )
        widget = self.tab_names.get(view.tab or "run")
        if widget is not None:
            self.tabs.setCurrentWidget(widget)
        if view.text_steps != self.presentation.text_steps:  # rebuilding the plots takes a while
            self.presentation.set_text_steps(view.text_steps)
        self.presentation.set(view.presentation)
        return []

    def prepare_session(self, game: Any) -> Callable[[], None]:
        """A session's ``game`` is about to be reopened here: get ready to read its settings
        (windows fill in); returns what undoes that when the session cannot be shown."""
        return lambda: None

    def show_presentation(self, on: bool) -> None:
        """Hide (``on``) or show again what presentation mode leaves out (windows fill in)."""

    def set_plot_scale(self, scale: float) -> None:
        """Rebuild the plots with fonts and lines times ``scale`` (windows add theirs)."""
        self.compare.set_scale(scale)

    # -- games ---------------------------------------------------------------------------------
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
        try:
            return self.opener.open_game(game, path, read_only)
        except Exception as error:  # shown: this window and its game stay as they were
            self.show_error(describe(error, path))
            return None

    def attempt(self, action: Callable[[], object]) -> bool:
        """Run ``action``; an error a person can cause (a refused edit, a bad number, a file
        that cannot be written) is shown as a message and nothing else happens."""
        try:
            action()
        except (RmvizError, ValueError) as error:
            self.show_error(str(error))
            return False
        return True

    def set_game(self, game: Any, description: str) -> None:
        """Show ``game`` of this window's family, as one undoable edit (windows fill in)."""
        raise NotImplementedError

    def show_game(
        self,
        game: Any,
        description: str,
        path: Path | None = None,
        *,
        opened: bool = True,
        solver: Solver | None = None,
    ) -> bool:
        """Show ``game`` of this window's family as one undoable edit (:meth:`set_game`); when
        anything on the way fails (a game the solver or the views refuse, an unexpected
        exception) say why and stay on the game shown before, with no trace of the attempt
        in the undo history. ``path`` names the file in the message. An ``opened`` game (a
        file, a catalog or random game, a session) is not modified until it is edited and
        ``path`` becomes the document's file; restored unsaved edits are (``opened=False``).
        ``solver``: the run's solver, already built on ``game`` (a session's); otherwise
        one is built from the panel, whose settings carried for another game are dropped."""
        try:
            if solver is None:
                self.panel.forget_carried()
            self.run.prepared = solver or self.new_solver(game)  # refuses before the document changes
            self.set_game(game, description)
        except Exception as error:  # shown; the window goes back to the game it had
            self.run.prepared = None
            if self.document.game is game:
                self.document.retract()
            self.show_error(describe(error, path))
            return False
        if opened:
            self.document.mark_opened(path)
        return True

    def show_error(self, message: str) -> None:
        """Tell the person what went wrong: a dialog, or :attr:`headless_errors` when nobody
        is there to close one (tests replace this method)."""
        if RunWindow.headless_errors is not None:
            RunWindow.headless_errors(message)
        else:
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

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """A dropped game or session file opens as through *Open...*."""
        self.files.drop(event)

    def closeEvent(self, event: object) -> None:
        if self.document.modified and not self.read_only and not self.confirm_discard():
            event.ignore()  # type: ignore[attr-defined]
            return
        self.recovery.autosave.close()  # closed on purpose: nothing to restore
        self.shutdown()
        event.accept()  # type: ignore[attr-defined]

    def shutdown(self) -> None:
        """Stop the timers and the solver threads (idempotent). The autosave file stays
        unless the window was closed: the app is ending some other way."""
        self.run.shutdown()
        self.recovery.stop()
        self.compare.stop()


def save_picture(window: RunWindow, path: str | os.PathLike[str]) -> bool:
    """The window's picture at ``path`` (``--screenshot``, a deck's slides), every row of
    its plots redrawn from one snapshot just before (a live tick redraws one row: a picture
    showed the strategies and the distances at two iterations; no event is processed
    between, where a tick could redraw a row from a newer one); False when the file cannot
    be written."""
    window.run.redraw(force=True)
    return bool(window.grab().save(str(path)))
