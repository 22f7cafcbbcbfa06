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
* "Preparing the solvers (first start only)..." in the status bar while kernels compile:
  the first start's background compile of every kernel a person can reach (:mod:`~.warmup`,
  started by the app), or a kernel compiling in this process; never for a step that is slow
  for another reason. The window stays usable meanwhile;
* errors a person can cause shown as messages (:meth:`attempt`), saving, asking before
  unsaved edits are lost, closing and shutting the threads down;
* *Export figure* (:meth:`export_figure`): any figure of the registry for this family
  (:mod:`rmviz.figures`), drawn by matplotlib from the run as it stands; a figure that
  cannot be written says why in a dialog; *Export run data* (:meth:`export_data`): the
  trace with its game, configuration and seed, as .csv or .json (:func:`write_run_data`);
* the window's own autosave file (:mod:`~.autosave`, written off the GUI thread) and the
  offer to restore those of windows that died;
* session files (:class:`~.session_files.SessionFiles`): *Save Session...* writes the game,
  the panel's settings, the iteration reached and the view; opening one (*Open Session...*,
  *Open...*, a dropped file, ``rmviz FILE``) shows them and re-runs the solver to that
  iteration in the worker thread (the window stays usable, the status bar counts), paused
  there;
* the window's size and text: it opens at a size that fits the screen (:meth:`fit_to_screen`),
  *presentation mode* (F5; Esc leaves it and full screen) and the text size (Ctrl+= / Ctrl+- /
  Ctrl+0), which scale the widgets' font and the plots (:meth:`apply_scale`);
* a game of another family, or one to show read-only, opens in a window of its own through
  the :class:`~.opener.Opener` the app gave the window.

A window subclass builds its views, calls :meth:`_add_tabs` and starts the timer; it fills in
:meth:`draw` (the run tab from a snapshot), :meth:`show_compare_status` and, where it has
more to do, the hooks :meth:`run_started`, :meth:`before_stepping`, :meth:`step_one`,
:meth:`start`, :meth:`shutdown`, :meth:`set_plot_scale` and :meth:`show_presentation`.

A fresh run (an edit, a new game, new settings) keeps running if the run it replaces was
running and stays paused otherwise; *Reset* (Ctrl+R) always leaves it at iteration 0, paused.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, QSize, QTimer
from PySide6.QtGui import QAction, QFont, QGuiApplication, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStyleFactory,
    QTabWidget,
    QWidget,
)

from rmviz.errors import RmvizError
from rmviz.figures.registry import save_figure
from rmviz.figures.run import RunData, TraceData
from rmviz.formats import load_game, read_game_file, write_game_file
from rmviz.formats.openspiel import INSTALL_HINT, Cancelled, fitting_games, openspiel_game
from rmviz.formats.openspiel import PREFIX as OPENSPIEL_PREFIX
from rmviz.runner.loop import RunLoop
from rmviz.runner.record import write_run_data
from rmviz.runner.session import is_session_file
from rmviz.runner.worker import SolverThread
from rmviz.solvers.family import Family
from rmviz.solvers.protocol import Snapshot, Solver
from rmviz.solvers.registry import family_of
from rmviz.ui.common.autosave import AUTOSAVE_MS, Autosave, Orphan, default_folder, orphans
from rmviz.ui.common.background import run_with_progress
from rmviz.ui.common.collector import collect_on_gui_thread
from rmviz.ui.common.compare import CompareView
from rmviz.ui.common.export_dialog import ask_figure
from rmviz.ui.common.messages import PREPARING, REPLAYING, describe
from rmviz.ui.common.opener import Opener
from rmviz.ui.common.run_controls import RunControls
from rmviz.ui.common.session_files import SessionFiles
from rmviz.ui.common.solver_panel import SolverPanel
from rmviz.ui.common.style import configure_pyqtgraph
from rmviz.ui.common.warmup import preparing as compiling_kernels

BIG_FILE_BYTES = 2 * 1024**2  # a .efg file this large (~50,000 histories) is read behind a progress dialog
MINIMUM_SIZE = QSize(800, 560)  # a window opens at least this large, where the screen has room
PRESENTATION_TEXT = 1.5  # presentation mode: the widgets' font times this
PRESENTATION_PLOTS = 1.4  # and the plots' fonts and lines times this
TEXT_STEP = 1.15  # Ctrl+= / Ctrl+- multiply or divide the text size by this
TEXT_STEPS = (-3, 6)  # the smallest and largest number of steps


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


class RunWindow(SessionFiles, QMainWindow):
    """A window on one game of ``family`` (see the module docstring).

    Attributes: ``document`` (the game being edited, set by the subclass), ``thread`` (the
    single run, ``None`` between runs), ``panel``, ``controls`` (with ``run_button`` and
    ``step_count``), ``tabs`` holding the run tab and ``compare``, and ``timer``.
    """

    redraw_ms = 33  # the shortest redraw interval

    document: Any  # a GameDocument or a TreeDocument
    FILE_KIND = "game"  # what the Open and Save dialogs call this window's files
    FILE_FILTER = ""  # the dialogs' Qt name filter
    leave_action: QAction | None = None  # Esc, built with the View menu (:meth:`_view_menu`)

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
        self.autosave = Autosave(autosave_folder or default_folder())
        self.autosave_timer = QTimer(self)
        self.autosave_timer.timeout.connect(self.autosave_now)
        self.autosave_timer.start(AUTOSAVE_MS)
        self.thread: SolverThread | None = None
        self._prepared: Solver | None = None  # built by show_game for restart to run
        self._seen_version = -1
        self._catch_up = None
        self.setAcceptDrops(True)  # a dropped game or session file opens (SessionFiles.dropEvent)
        self.panel = SolverPanel(family)
        self.panel.changed.connect(self.restart)
        self.panel.speed_changed.connect(self._apply_speed)
        self.controls = RunControls()
        self.run_button, self.step_count = self.controls.run_button, self.controls.step_count
        self.controls.run.connect(self.toggle_run)
        self.controls.step_one.connect(self.step_one)
        self.controls.step_n.connect(self.step)
        self.controls.reset.connect(self.reset)
        self.compare = CompareView(family)
        self.compare.error.connect(lambda message: self.show_error(message))
        self.tabs = QTabWidget()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self._tick_started = 0.0
        self._redraw_ms = 0.0  # smoothed time of a redraw and its repaint
        self.presentation = False
        self.text_steps = 0  # Ctrl+= and Ctrl+- steps from the normal text size
        self.fixed_size: QSize | None = None  # --size: presentation mode stays at this size
        self._base_font = QFont(self.font())
        self._base_palette = QPalette(self.palette())
        self._status_widgets: list[QWidget] = []
        self.statusBar().messageChanged.connect(self._message_changed)

    def add_status(self, widget: QWidget, stretch: int = 0) -> None:
        """``widget`` on the left of the status bar, hidden while a message shows there."""
        self.statusBar().addWidget(widget, stretch)
        self._status_widgets.append(widget)

    def _message_changed(self, message: str) -> None:
        """QStatusBar hides its widgets for a message only if they are visible then: one shown
        while the window went from full screen to ``--size`` stayed, and the two overprinted
        (a reopened presentation-mode session's screenshot)."""
        for widget in self._status_widgets:
            widget.setVisible(not message)

    def _adopt(self, document: Any) -> None:
        """Show ``document`` (the subclass's, built once); its autosave goes when it is saved
        or its edits are undone."""
        self.document = document
        document.subscribe(lambda _document: document.modified or self.autosave.discard())

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
        if options.size is not None:
            self.fixed_size = QSize(*options.size)
            if self.isFullScreen():  # a reopened session in presentation mode went full screen
                self.showNormal()
            self.resize(self.fixed_size)
        if options.presentation:
            self.set_presentation(True)  # on, whatever a reopened session had
        if options.compare:
            self.tabs.setCurrentWidget(self.compare)
            self.compare.toggle_run()
        if options.restore:
            self.offer_restore()

    # -- the run -----------------------------------------------------------------------------
    def new_solver(self, game: Any) -> Solver:
        """A solver of the panel's configuration on ``game``, which the window can show."""
        return self.family.solver(game, self.panel.config())

    def restart(self, run: bool | None = None) -> None:
        """Stop any run and start a fresh solver on the current game and settings (the one
        :meth:`show_game` built, if it is for this game); it runs if ``run`` is True, or,
        when ``run`` is None, if the run it replaces was running."""
        if run is None:
            run = self.thread is not None and self.thread.loop.running
        self._catch_up = None
        self._stop_thread()
        prepared, self._prepared = self._prepared, None
        try:
            if prepared is not None and prepared.game is self.document.game:
                solver = prepared
            else:
                solver = self.new_solver(self.document.game)
        except RmvizError as error:
            self.show_error(str(error))
            return
        self.thread = SolverThread(solver, points_per_decade=self.panel.points_per_decade())
        loop = self.thread.loop
        loop.set_speed(self.panel.speed_limit())
        # the repaint this change queued comes first; then the fresh run records its points
        loop.gui_drawing(True)
        QTimer.singleShot(1, lambda: loop.gui_drawing(False))
        self.thread.start()
        self._seen_version = -1
        self.compare.set_game(self.document.game, self.panel.config())
        if self.tabs.currentWidget() is self.compare:
            self.compare.activate()
        self.run_started(solver)
        if run and self.tabs.currentWidget() is not self.compare:
            self.before_stepping()
            self.thread.loop.run()
        self._update_buttons()

    def reset(self) -> None:
        """A fresh run at iteration 0, paused (*Reset*, Ctrl+R)."""
        self.restart(run=False)

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
        self.cancel_catch_up()
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
            self.cancel_catch_up()
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
        """Show (once) the error that stopped the worker's run (a game too large for memory,
        an exception from deep inside the solver): the run is paused, the button says *Run*
        again before the message shows, and the game, its edits and the trace are kept."""
        message = self.thread.loop.take_error() if self.thread is not None else None
        if message:
            self._update_buttons()
            self.show_error(message)

    # -- drawing -------------------------------------------------------------------------------
    def _tick(self) -> None:
        """The redraw timer's slot. Redrawing and the repaint it causes take the GUI thread
        for a while (C, smoothed over recent ticks); the timer then waits at least 1.5 C."""
        self._tick_started = time.perf_counter()
        for loop in self._loops():
            loop.gui_drawing(True)
        self._show_preparing(compiling_kernels())
        self._follow_catch_up()
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
        """Whether a run of the visible tab waits for its solver's first step (compiling its
        kernels, on a first start; or a large game's first iteration)."""
        return any(loop.warming_up() for loop in self._loops())

    def _show_preparing(self, preparing: bool) -> None:
        """Say so while kernels compile, in place of a reopened session's re-run count (which
        waits for them); another message shown meanwhile (the session restored, a failed
        autosave) stays its time, and the first start's minute or two resumes after it."""
        bar = self.statusBar()
        message = bar.currentMessage()
        if preparing and (not message or message.startswith(REPLAYING)):
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
        loop = self.thread.loop
        version, snapshot = loop.latest()
        self._update_buttons()
        if version != self._seen_version or force:
            self._seen_version = version
            self.draw(loop, snapshot, force)
        self._report_run_error()  # last: its dialog runs a nested event loop

    def draw(self, loop: RunLoop, snapshot: Snapshot, force: bool) -> None:
        """Draw the run tab from ``snapshot`` and ``loop``'s trace."""
        raise NotImplementedError

    def show_compare_status(self) -> None:
        """The status bar while compare mode is shown."""
        raise NotImplementedError

    # -- figures -------------------------------------------------------------------------------
    def run_data(self) -> RunData:
        """The run as it stands: the whole trace and the newest snapshot."""
        assert self.thread is not None
        loop = self.thread.loop
        iterations, columns = loop.trace_columns(loop.solver.columns)  # the schema: fixed
        return RunData.of(
            loop.solver, TraceData(iterations, columns), loop.latest()[1], **self.figure_extras()
        )

    def figure_extras(self) -> dict[str, Any]:
        """What this window adds to its :class:`RunData` (the matrix window: simplex faces)."""
        return {}

    def export_figure(
        self,
        path: str | Path,
        figure: str = "gaps",
        size: tuple[int, int] | None = None,
        dpi: int = 150,
        style: str = "slides",
    ) -> bool:
        """Write ``figure`` of this run (``compare``: the algorithms of the *Compare* tab) at
        ``size`` pixels and ``dpi``; False, and a dialog saying why, when it cannot."""
        try:
            run = self.run_data()
            if figure == "compare":
                self.compare.activate()
                run = dataclasses.replace(run, compared=self.compare.traces())
            inches = None if size is None else (size[0] / dpi, size[1] / dpi)
            save_figure(figure, run, path, style, inches, dpi)
        except Exception as error:  # whatever went wrong, the session goes on and says why
            self.show_error(f"The {figure} figure was not written to {Path(path).name}: {error}")
            return False
        return True

    def export_figure_dialog(self) -> None:
        request = ask_figure(self, self.family.name)
        if request is not None:
            self.export_figure(request.path, request.figure, request.size, request.dpi, request.style)

    def export_data(self, path: str | Path) -> bool:
        """Write the run's trace with its game, configuration and seed (.csv or .json)."""
        if self.thread is None:
            return False
        trace = self.run_data().trace
        try:
            write_run_data(path, self.thread.loop.solver, trace.iterations, trace.columns)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        return True

    def export_data_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export run data", "run.csv", "CSV (*.csv);;JSON (*.json)"
        )
        if path:
            self.export_data(path)

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
            self._prepared = solver or self.new_solver(game)  # refuses before the document changes
            self.set_game(game, description)
        except Exception as error:  # shown; the window goes back to the game it had
            self._prepared = None
            if self.document.game is game:
                self.document.retract()
            self.show_error(describe(error, path))
            return False
        if opened:
            self.document.mark_opened(path)
        return True

    def open_file(self, path: str | Path) -> bool:
        """Open a game file: a game of this window's family replaces the current one
        (undoable), another family's opens in its own window through the opener. A file
        that cannot be read, or a game that cannot be shown, shows a message and keeps the
        current game, whatever the exception. A session file opens as a session
        (:meth:`open_session`)."""
        path = Path(path)
        if is_session_file(path):
            return self.open_session(path)
        try:
            game = self._read_with_progress(path)
        except Cancelled:
            return False
        except Exception as error:  # a reader's own bug must not take the window down either
            self.show_error(describe(error, path))
            return False
        if not self.shows(game):
            return self.open_elsewhere(game, path) is not None
        return self.show_game(game, f"Open {path.name}", path)

    def _read_with_progress(self, path: Path) -> Any:
        """Read a game file; a big .efg file (seconds: about 4 microseconds per history) is
        read on a worker thread behind :func:`run_with_progress`'s dialog, which counts the
        histories read and can stop the reading."""
        try:
            big = path.suffix.lower() == ".efg" and path.stat().st_size > BIG_FILE_BYTES
        except OSError:  # read_game_file says what is wrong with the path
            big = False
        if not big:
            return read_game_file(path)
        return run_with_progress(
            self, f"Reading {path.name}", "histories", lambda progress: read_game_file(path, progress)
        )

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, f"Open {self.FILE_KIND}", "", self.FILE_FILTER)
        if path:
            self.open_file(path)

    def open_spec(self, spec: str) -> bool:
        """Open the game a spec names (``openspiel:leduc_poker``, ``random:...``, a catalog id)
        as :meth:`open_file` opens a file: here or in a window of its family; a game that
        cannot be built shows a message and keeps the current one."""
        try:
            if spec.startswith(OPENSPIEL_PREFIX):  # a walk of up to a million histories
                game = run_with_progress(
                    self,
                    f"Building {spec.removeprefix(OPENSPIEL_PREFIX)} from OpenSpiel",
                    "histories",
                    lambda progress: openspiel_game(spec, progress=progress),
                )
            else:
                game = load_game(spec)
        except Cancelled:
            return False
        except Exception as error:  # as in open_file: a message, never a dead window
            self.show_error(str(error) if isinstance(error, RmvizError) else f"{spec}: {error!r}")
            return False
        if not self.shows(game):
            return self.open_elsewhere(game) is not None
        return self.show_game(game, f"Open {spec}")

    def openspiel_dialog(self) -> None:
        """Choose one of OpenSpiel's games (type to search; parameters may follow the name:
        ``liars_dice(numdice=1,dice_sides=4)``) and open it."""
        names = fitting_games()
        if not names:
            self.show_error(f"OpenSpiel games need OpenSpiel; {INSTALL_HINT}")
            return
        start = names.index("kuhn_poker") if "kuhn_poker" in names else 0
        text, ok = QInputDialog.getItem(
            self,
            "OpenSpiel game",
            "Game (parameters in brackets, e.g. leduc_poker(players=2)):",
            names,
            start,
            True,
        )
        if ok and text.strip():
            self.open_spec(f"{OPENSPIEL_PREFIX}{text.strip()}")

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

    # -- autosave ------------------------------------------------------------------------------
    def autosave_now(self) -> None:
        """The autosave timer's slot: hand unsaved edits to the autosave worker (written off
        the GUI thread), or drop the file when there are none; a failed write is told in
        the status bar."""
        if self.document.modified:
            self.autosave.save(self.document.game)
        else:
            self.autosave.discard()
        error = self.autosave.take_error()
        if error:
            self.statusBar().showMessage(f"autosave failed: {error}", 5000)

    def offer_restore(self) -> int:
        """Offer back the unsaved edits of every window that died with them (autosave files
        whose window is alive, in any process, are not offered): the first game of this
        window's family replaces the game shown (undoably), the others open in windows of
        their own. Returns how many were restored."""
        return sum(self._offer(orphan) for orphan in orphans(self.autosave.folder))

    def _offer(self, orphan: Orphan) -> bool:
        """Ask about one orphaned autosave; restored edits are autosaved again by the window
        that shows them before the orphan is deleted. Declined or damaged: deleted."""
        try:
            game = orphan.read()
        except Exception as error:  # a damaged autosave cannot be offered: said, and deleted
            self.statusBar().showMessage(f"autosave dropped: {describe(error, orphan.path)}", 5000)
            orphan.drop()
            return False
        if not self.confirm_restore(game.title):
            orphan.drop()
            return False
        here = self.shows(game) and not self.document.modified
        window = self if here else self.open_elsewhere(game)
        if not isinstance(window, RunWindow) or not window.show_game(game, "Restore autosave", opened=False):
            orphan.release()  # left for a later session
            return False
        window.autosave.save(game)
        window.autosave.then(orphan.drop)
        return True

    # -- size, presentation mode and text size -------------------------------------------------
    def fit_to_screen(self, preferred: QSize, available: QRect | None = None) -> None:
        """Resize to ``preferred``, or less where the screen's available area (``available``;
        by default the window's screen's) is smaller: 95% of it at most, but not below
        :data:`MINIMUM_SIZE` where the screen has room for that; centred on it."""
        if available is None:
            screen = self.screen() or QGuiApplication.primaryScreen()
            available = screen.availableGeometry()
        room = available.size()
        size = preferred.boundedTo(room * 0.95).expandedTo(MINIMUM_SIZE.boundedTo(room))
        self.resize(size)
        frame = QRect(available.topLeft(), self.size())
        frame.moveCenter(available.center())
        self.move(frame.topLeft())

    def _view_menu(self, view: QMenu) -> None:
        """Presentation mode and the text size, in the window's *View* menu."""
        self.presentation_action = self._action(
            view, "&Presentation Mode", self.toggle_presentation, QKeySequence("F5")
        )
        self.presentation_action.setCheckable(True)
        self.leave_action = self._action(
            view, "&Leave Presentation / Full Screen", self.leave_presentation, QKeySequence("Esc")
        )
        self.leave_action.setEnabled(False)  # only then: Esc stays the editors' otherwise
        view.addSeparator()
        bigger = self._action(view, "&Bigger Text", lambda: self.set_text_steps(self.text_steps + 1))
        bigger.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self._action(view, "S&maller Text", lambda: self.set_text_steps(self.text_steps - 1), "Ctrl+-")
        self._action(view, "&Normal Text Size", lambda: self.set_text_steps(0), "Ctrl+0")

    def toggle_presentation(self) -> None:
        """Presentation mode on or off (F5)."""
        self.set_presentation(not self.presentation)

    def leave_presentation(self) -> None:
        """Esc: out of presentation mode and out of full screen."""
        self.set_presentation(False)
        if self.isFullScreen():
            self.showNormal()

    def set_presentation(self, on: bool) -> None:
        """Presentation mode: larger text and plots on the light theme, what the window hides
        for it hidden (:meth:`show_presentation`), full screen (at the ``--size`` size
        instead, when one was given)."""
        if on == self.presentation:
            return
        self.presentation = on
        self.presentation_action.setChecked(on)
        light = QStyleFactory.create("Fusion").standardPalette()  # whatever the desktop's theme
        self.setPalette(light if on else self._base_palette)
        self.show_presentation(on)
        self.apply_scale()
        if self.fixed_size is not None:
            self.resize(self.fixed_size)
        elif on:
            self.showFullScreen()
        elif self.isFullScreen():
            self.showNormal()
        self._update_leave()

    def set_text_steps(self, steps: int) -> None:
        """The text size: ``steps`` times Ctrl+= (negative: Ctrl+-) from the normal size."""
        self.text_steps = max(TEXT_STEPS[0], min(TEXT_STEPS[1], steps))
        self.apply_scale()

    def text_scale(self) -> float:
        """What the widgets' font is multiplied by (presentation mode and the text size)."""
        return TEXT_STEP**self.text_steps * (PRESENTATION_TEXT if self.presentation else 1.0)

    def plot_scale(self) -> float:
        """What the plots' fonts and lines are multiplied by."""
        return TEXT_STEP**self.text_steps * (PRESENTATION_PLOTS if self.presentation else 1.0)

    def apply_scale(self) -> None:
        """Set the window's font (its tables, labels and explanations follow it) and rebuild
        the plots at :meth:`plot_scale`, drawn again at once (paused runs included)."""
        font = QFont(self._base_font)
        font.setPointSizeF(self._base_font.pointSizeF() * self.text_scale())
        self.setFont(font)
        self.set_plot_scale(self.plot_scale())
        self.redraw(force=True)

    def set_plot_scale(self, scale: float) -> None:
        """Rebuild the plots with fonts and lines times ``scale`` (windows add theirs)."""
        self.compare.set_scale(scale)

    def show_presentation(self, on: bool) -> None:
        """Hide (``on``) or show again what presentation mode leaves out (windows fill in)."""

    def _update_leave(self) -> None:
        assert self.leave_action is not None
        self.leave_action.setEnabled(self.presentation or self.isFullScreen())

    def changeEvent(self, event: object) -> None:
        super().changeEvent(event)  # type: ignore[arg-type]
        if self.leave_action is not None:  # the menus are built: full screen or not changed
            self._update_leave()

    # -- people --------------------------------------------------------------------------------
    def confirm_restore(self, title: str) -> bool:
        """Ask whether to restore an autosaved game (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            "rmviz",
            f"rmviz closed with unsaved changes to {title!r}. Restore them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

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
        self.autosave.close()  # closed on purpose: nothing to restore
        self.shutdown()
        event.accept()  # type: ignore[attr-defined]

    def shutdown(self) -> None:
        """Stop the timers and the solver threads (idempotent). The autosave file stays
        unless the window was closed: the app is ending some other way."""
        self.timer.stop()
        self.autosave_timer.stop()
        self.compare.stop()
        self._stop_thread()
