"""The matrix window: edit a matrix game on the left, watch regret matching converge on the right.

A :class:`~rmviz.ui.common.run_window.RunWindow` of the matrix-game family: the
:class:`~rmviz.ui.matrix.editor.MatrixEditor`, the solver panel and the run controls on the
left; on the right the *Run* tab (:class:`~rmviz.ui.matrix.dashboard.Dashboard`: simplex,
joint distribution, convergence plots), the *Step* tab, the *Equilibria* tab (the CE checker
and the game's exact references, :mod:`~rmviz.ui.matrix.equilibria`) and compare mode. The
star on the simplex is the catalog's equilibrium, or the LP's for any two-player zero-sum
game, recomputed after every edit (:func:`~rmviz.solvers.exact.reference`). The run starts
when the window opens; any edit of the game, or a change in the solver panel, stops it and
starts a fresh one on the new game, running if the run was running (Reset: iteration 0,
paused). Files: open
(a game tree opens in a tree window, through the opener), save, recent files, an autosave of
unsaved edits offered back after a crash, figures and run data exported; presentation mode
for lectures (the plots alone, see :mod:`~rmviz.ui.common.presentation`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import numpy as np
from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from rmviz.document import GameDocument
from rmviz.errors import ConfigError, RmvizError
from rmviz.formats import load_game
from rmviz.games.catalog import CATALOG, catalog_game
from rmviz.games.generators import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.present.dynamics import dynamic_of
from rmviz.runner.loop import RunLoop
from rmviz.runner.session import View
from rmviz.solvers.exact import Reference, reference
from rmviz.solvers.matrix.config import MatrixConfig
from rmviz.solvers.matrix.family import FAMILY
from rmviz.solvers.matrix.solver import MatrixSnapshot
from rmviz.solvers.protocol import Solver
from rmviz.solvers.registry import family_named
from rmviz.ui.common.deck_files import save_deck_dialog
from rmviz.ui.common.opener import Opener
from rmviz.ui.common.run_window import RunWindow, StartOptions
from rmviz.ui.common.session_files import SESSION_FILTER
from rmviz.ui.matrix.dashboard import Dashboard
from rmviz.ui.matrix.editor import MatrixEditor
from rmviz.ui.matrix.equilibria import EquilibriaPanel
from rmviz.ui.matrix.start_edit import StartEdit
from rmviz.ui.matrix.step_panel import StepPanel

MAX_RECENT = 8
FILE_FILTER = ";;".join(
    (
        "Games and sessions (*.json *.nfg *.efg)",
        "rmviz JSON (*.json)",
        "Gambit normal form (*.nfg)",
        "Gambit extensive form (*.efg)",
        SESSION_FILTER,
    )
)


class MatrixWindow(RunWindow):
    """A window on one matrix game. ``autorun`` starts solving as soon as the window opens;
    ``settings`` (recent files) and ``autosave_folder`` default to the user's locations;
    ``read_only`` shows the game without letting it be edited."""

    FILE_FILTER = FILE_FILTER

    redraw_ms = 33  # ~30 Hz

    def __init__(
        self,
        game: NormalFormGame | None = None,
        path: Path | None = None,
        *,
        opener: Opener | None = None,
        read_only: bool = False,
        autorun: bool = True,
        settings: QSettings | None = None,
        autosave_folder: Path | None = None,
    ) -> None:
        super().__init__(FAMILY, opener, read_only, autosave_folder)
        self.setWindowTitle("rmviz")
        self.settings = settings or QSettings("rmviz", "rmviz")
        self._adopt(GameDocument(game or catalog_game("rps-crash"), path))
        self._shown_game = self.document.game
        self._shown_zero_sum = self.document.zero_sum
        self._rows_of = -1  # the snapshot version whose other row of plots is due next tick

        self.editor = MatrixEditor(self.document)
        self.editor.error.connect(lambda message: self.show_error(message))
        self.model = self.editor.model
        self.editor.set_read_only(read_only)
        self.document.subscribe(self._document_changed)  # after the editor's model
        self.start_edit = StartEdit(self.document.game)
        self.panel.add_option(
            "start", "Start", self.start_edit, self.start_edit.start, self.start_edit.show_start
        )
        self.start_edit.editingFinished.connect(self.panel.refresh)

        left = self.left = QWidget()
        left_layout = QVBoxLayout(left)
        self.game_label = QLabel()
        self.game_label.setWordWrap(True)
        left_layout.addWidget(self.game_label)
        left_layout.addWidget(self.editor, stretch=1)
        left_layout.addWidget(self.panel)
        left_layout.addWidget(self.controls)

        self.dashboard = Dashboard()
        self.dashboard.face_changed.connect(self._face_changed)
        self.dashboard.simplex.start_dragged.connect(self._start_dragged)
        self.simplex, self.joint, self.plots = (
            self.dashboard.simplex,
            self.dashboard.joint,
            self.dashboard.plots,
        )
        self._add_tabs(self.dashboard, "Run")
        self.step_panel = StepPanel(self)
        self.tabs.addTab(self.step_panel, "Step")
        self.tab_names["step"] = self.step_panel
        self.equilibria = EquilibriaPanel(self._run_joint)
        self.equilibria.error.connect(lambda message: self.show_error(message))
        self.tabs.addTab(self.equilibria, "Equilibria")
        self.tab_names["equilibria"] = self.equilibria
        self._reference_of: NormalFormGame | None = None  # the game whose reference is shown
        self._reference: Reference | None = None
        self.tabs.currentChanged.connect(self._face_changed)  # the Step tab fills in at once
        self.tabs.currentChanged.connect(
            lambda: self.equilibria.set_active(self.tabs.currentWidget() is self.equilibria)
        )
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.tabs)
        splitter.setSizes([400, 880])
        self.setCentralWidget(splitter)

        self.iteration_label = QLabel()
        self.iteration_label.setMinimumWidth(220)
        self.rate_label = QLabel()
        self.status_line.add(self.iteration_label)
        self.statusBar().addPermanentWidget(self.rate_label)
        self._menus()
        self.files.used.connect(self._remember)  # Open Recent
        self.run.timer.start(self.redraw_ms)
        self._game_changed(restart=True)
        if autorun:  # later runs run on only if the one they replace was running
            self.run.toggle()
        self.presentation.fit_to_screen(QSize(1360, 860))

    # -- menus -----------------------------------------------------------------------------
    def _menus(self) -> None:
        keys = QKeySequence.StandardKey
        file_menu = self.menuBar().addMenu("&File")
        self._action(file_menu, "&Open...", self.files.open_dialog, keys.Open)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(file_menu, "&Save", self.save, keys.Save)
        self._action(file_menu, "Save &As...", self.files.save_dialog, keys.SaveAs)
        file_menu.addSeparator()
        self._action(file_menu, "Open Sess&ion...", self.sessions.open_dialog)
        self._action(file_menu, "Save Sessio&n...", self.sessions.save_dialog)
        self._action(file_menu, "Save as &Deck...", lambda: save_deck_dialog(self))
        file_menu.addSeparator()
        self._action(file_menu, "Export &Figure...", self.export.figure_dialog, QKeySequence("Ctrl+E"))
        self._action(file_menu, "Export Run &Data...", self.export.data_dialog, QKeySequence("Ctrl+Shift+E"))
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, keys.Quit)
        edit = self.menuBar().addMenu("&Edit")
        self.undo_action = self._action(edit, "&Undo", self.document.undo, keys.Undo)
        self.redo_action = self._action(edit, "&Redo", self.document.redo, QKeySequence("Ctrl+Shift+Z"))
        edit.addSeparator()
        self._action(edit, "Add &Player", lambda: self.editor.attempt(self.document.add_player))
        self._action(edit, "Remove Player...", self.editor.ask_remove_player)
        self._action(edit, "Rename Player...", self.editor.ask_rename_player)
        games = self.menuBar().addMenu("&Game")
        for game_id, entry in CATALOG.items():
            if family_named(entry.kind) is self.family:
                self._action(games, entry.build().title, lambda _=False, g=game_id: self.load_catalog(g))
        others = games.addMenu("Game trees (CFR, in a tree window)")
        for game_id, entry in CATALOG.items():
            if family_named(entry.kind) is not self.family:
                self._action(
                    others,
                    f"{game_id}: {entry.description}",
                    lambda _=False, g=game_id: self.open_elsewhere(load_game(g)),
                )
        self._action(others, "&OpenSpiel game...", self.files.openspiel_dialog)
        random_menu = games.addMenu("Random (seed from the solver panel)")
        for kind in ("zero-sum", "general-sum", "cooperative"):
            for shape in ((3, 3), (5, 5), (3, 3, 3)):
                label = f"{kind} {'x'.join(map(str, shape))}"
                self._action(random_menu, label, lambda _=False, k=kind, s=shape: self.load_random(k, s))
        run = self.menuBar().addMenu("&Run")
        self._action(run, "Run / Pause", self.run.toggle, QKeySequence(Qt.Key.Key_Space))
        self._action(run, "Step 1", self.step_one, QKeySequence("Ctrl+1"))
        self._action(run, "Step N", lambda: self.run.step(self.step_count.value()), QKeySequence("Ctrl+N"))
        self._action(run, "Reset", self.run.reset, QKeySequence("Ctrl+R"))
        self.presentation.add_menu(self.menuBar().addMenu("&View"))

    # -- the run ---------------------------------------------------------------------------
    def new_solver(self, game: NormalFormGame) -> Solver:
        """The panel's configuration on ``game``; a start typed for another shape of game is
        left out (it is cleared when ``game`` is shown)."""
        config = self.panel.config()
        if game.num_actions != self.start_edit.game.num_actions:
            config = dataclasses.replace(config, start=None)
        return self.family.solver(game, config)

    def prepare_session(self, game: NormalFormGame) -> Callable[[], None]:
        """A session's start is read against the session's ``game``; undone, the start typed
        before comes back."""
        shown, text = self.start_edit.game, self.start_edit.text()
        self.start_edit.set_game(game)

        def undo() -> None:
            self.start_edit.set_game(shown)
            self.start_edit.setText(text)

        return undo

    def step_one(self) -> None:
        """*Step 1* (Ctrl+1): on the *Step* tab, with the draws chosen there."""
        if self.tabs.currentWidget() is self.step_panel:
            self.step_panel.step_chosen()
        else:
            self.run.step(1)

    def run_started(self, solver: Solver) -> None:
        self._rows_of = -1  # the new run's versions count from the start
        self.simplex.set_start(solver.start)  # type: ignore[attr-defined]
        config = cast(MatrixConfig, solver.config)
        self.simplex.set_dynamic(dynamic_of(config), config.predictive)
        self.dashboard.field.refresh()
        self.step_panel.run_started(solver)

    def _start_dragged(self, strategies: dict[int, np.ndarray]) -> None:
        """A ring dropped on the simplex: that start, written in the *Start* row."""
        self.start_edit.set_players(strategies)
        self.panel.refresh()

    def draw(self, loop: RunLoop, snapshot: MatrixSnapshot, force: bool) -> Iterator[None]:
        """The dashboard from the newest snapshot (the joint) and the trace, one plot or view
        per part (:meth:`Dashboard.drawing`). Each tick draws one row of plots: when the run
        stops, the next tick draws the other row from the same snapshot, so nothing is left
        a publication behind."""
        if self.run.choices.due(loop.running, force):
            self.dashboard.choose(loop.trace_data(self.dashboard.chosen_from(), newest=True))
        trace = loop.trace_data(self.dashboard.columns(), at=snapshot)  # one moment, the status's
        row = self.dashboard.plots.next_row(not force, trace.iterations)
        if row is not None and self._rows_of != self.run.seen_version:
            self._rows_of, self.run.seen_version = self.run.seen_version, -1  # the other row next tick
        yield from self.dashboard.drawing(
            trace.iterations, trace.columns, snapshot.joint, row, thin=not force
        )
        if self.tabs.currentWidget() is self.step_panel:
            self.step_panel.update_from(loop.solver, snapshot.iteration, loop.running)
        # last: the status names the iteration every view now draws
        self.iteration_label.setText(f"iteration {snapshot.iteration:,}")
        self.rate_label.setText(f"{loop.iterations_per_second:,.0f} it/s" if loop.running else "paused")

    def show_compare_status(self) -> None:
        self.iteration_label.setText(self.compare.summary())
        self.rate_label.setText("comparing" if self.compare.running else "paused")

    def _face_changed(self) -> None:
        self.run.seen_version = -1  # redraw on the next tick
        self.run.choices.expire()

    def figure_extras(self) -> dict[str, Any]:
        """The simplex faces chosen for players with more than three actions, and the field of
        the run's dynamic as the view shows it."""
        on = self.simplex.field_on
        return {
            "faces": dict(self.simplex.faces),
            "dynamics": on,
            "dynamics_step": self.simplex.field_step if on else None,
        }

    def start(self, options: StartOptions) -> None:
        """The command line's options; ``--field``: the simplex's *Dynamics* on."""
        super().start(options)
        if options.field:
            self.dashboard.field.set_state(True, options.field_step)

    # -- sessions ----------------------------------------------------------------------------
    def view_state(self) -> View:
        """The tab, presentation mode, text size, the simplex faces chosen and the joint
        checked in the *Equilibria* tab."""
        entries = self.equilibria.joint_model.entries if self.equilibria.check is not None else []
        return dataclasses.replace(
            super().view_state(),
            faces=dict(self.simplex.faces),
            dynamics=self.simplex.field_on,
            dynamics_step=self.simplex.field_step,
            joint=", ".join(entries) or None,
            script=tuple(tuple(profile) for profile in self.step_panel.script),
        )

    def apply_view(self, view: View) -> list[str]:
        notes = super().apply_view(view)
        self.dashboard.set_faces(view.faces)
        self.dashboard.field.set_state(view.dynamics, view.dynamics_step)
        if view.joint is not None and not self.equilibria.check_text(view.joint):
            notes.append("the joint saved in its Equilibria tab does not fit the game")
        try:
            self.step_panel.set_script(view.script)  # the run is back: its chosen draws too
        except ConfigError as error:
            notes.append(str(error))
        return notes

    # -- the game --------------------------------------------------------------------------
    def _document_changed(self, _document: GameDocument) -> None:
        """Edits restart the run; saving only updates the title."""
        restart = self.document.game is not self._shown_game or self.document.zero_sum != self._shown_zero_sum
        self._shown_game, self._shown_zero_sum = self.document.game, self.document.zero_sum
        self._game_changed(restart=restart)

    def _game_changed(self, restart: bool = True) -> None:
        game = self.document.game
        self.game_label.setText(
            f"<b>{game.title}</b> - {game.n_players} players, {game.shape_label}"
            + (" - modified" if self.document.modified else "")
            + (" - read-only" if self.read_only else "")
        )
        self.undo_action.setEnabled(self.document.can_undo())
        self.redo_action.setEnabled(self.document.can_redo())
        self.setWindowTitle(f"rmviz - {game.title}{' *' if self.document.modified else ''}")
        if restart:
            self.start_edit.set_game(game)
            self.panel.refresh(quiet=True)  # a start of the old shape is cleared
            self.dashboard.set_game(game)
        # the reference first: the fresh run's first iterations record every one of them,
        # Python holding the GIL, and would slow the LP and the star's Qt calls 5-10 fold
        self._show_reference()
        if restart:
            self.run.restart()

    def _show_reference(self) -> None:
        """The star and the Equilibria tab for the game shown: the catalog's equilibrium or
        the zero-sum LP's (:func:`~rmviz.solvers.exact.reference`, computed once per game;
        the star is set again after any rebuild of the plots)."""
        game = self.document.game
        if game is not self._reference_of:
            self._reference_of, self._reference = game, None
            try:
                self._reference = reference(game)
            except RmvizError as error:  # the LP failed: no star, and say why
                self.show_error(str(error))
        shown = self._reference
        self.simplex.set_equilibrium(shown.equilibrium if shown is not None else None)
        if shown is not None:
            self.equilibria.set_game(game, shown)

    def _run_joint(self) -> np.ndarray | str:
        """The running solver's empirical joint distribution, or why there is none."""
        if self.run.thread is None:
            return "there is no run: press Reset or Run"
        snapshot = self.run.thread.loop.latest()[1]
        if snapshot.iteration == 0:
            return "the run has not played yet: press Step or Run first"
        if snapshot.joint is None:
            return "this run does not track its joint distribution (a large game in expected play)"
        return snapshot.joint

    def set_game(self, game: NormalFormGame, description: str) -> None:
        """Show ``game`` (undoable); the run restarts on it."""
        self.document.replace_game(game, description, zero_sum=game.n_players == 2 and game.is_zero_sum())

    def load_catalog(self, game_id: str) -> None:
        self.show_game(catalog_game(game_id), f"Open {game_id}")

    def load_random(self, kind: str, shape: tuple[int, ...]) -> None:
        self.show_game(random_game(kind, shape, seed=self.panel.seed.value()), f"Random {kind}")

    # -- files -----------------------------------------------------------------------------
    def save(self) -> None:
        if self.document.path is not None and self.document.path.suffix.lower() in (".json", ".nfg"):
            self.files.save(self.document.path)
        else:
            self.files.save_dialog()

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        return [value] if isinstance(value, str) else list(value or [])

    def _remember(self, path: Path) -> None:
        recent = [str(path.resolve())] + [p for p in self.recent_files() if p != str(path.resolve())]
        self.settings.setValue("recent", recent[:MAX_RECENT])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            action = self.recent_menu.addAction(path, lambda p=path: self.files.open(p))
            action.setEnabled(Path(path).exists())
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    # -- presentation ----------------------------------------------------------------------
    def show_presentation(self, on: bool) -> None:
        """The plots alone: the editor, the solver panel and the run controls hide (Space,
        Ctrl+1 and Ctrl+R still work)."""
        self.left.setVisible(not on)

    def set_plot_scale(self, scale: float) -> None:
        self.dashboard.set_scale(scale)
        super().set_plot_scale(scale)

    def shutdown(self) -> None:
        self.equilibria.stop()
        super().shutdown()
