"""The main window: edit a matrix game on the left, watch regret matching converge on the right.

The solver runs in a :class:`~rmviz.runner.worker.SolverThread`; a ~30 Hz timer reads the
newest snapshot and the trace and redraws, so the event queue never floods. Any edit of the
game, or a change in the solver panel, stops the run and starts a fresh one on the new game.
The right side has two tabs: the run (simplex, joint distribution, convergence plots) and
compare mode (several algorithms overlaid).
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths, Qt, QTimer
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QFont, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyleFactory,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rmviz.document import GameDocument
from rmviz.errors import RmvizError
from rmviz.formats import load_game, read_game_file, write_game_file
from rmviz.games.catalog import CATALOG, catalog_game, known_equilibrium
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.generators import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.runner.record import write_run_data
from rmviz.runner.worker import SolverThread
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.ui.compare import CompareView
from rmviz.ui.export import export_widget
from rmviz.ui.figures import DEFAULT_SIZES, FIGURES, RunData, render_figure
from rmviz.ui.joint import JointView
from rmviz.ui.matrix_editor import MatrixEditor
from rmviz.ui.plots import ConvergencePlots
from rmviz.ui.run_window import RunWindow
from rmviz.ui.simplex import SimplexView
from rmviz.ui.solver_panel import SolverPanel
from rmviz.ui.style import configure_pyqtgraph
from rmviz.ui.tree_window import TreeWindow

REDRAW_MS = 33
AUTOSAVE_MS = 20_000
MAX_RECENT = 8
PRESENTATION_SCALE = 2.0
FILE_FILTER = ";;".join(
    (
        "Games (*.json *.nfg *.efg)",
        "rmviz JSON (*.json)",
        "Gambit normal form (*.nfg)",
        "Gambit extensive form (*.efg)",
    )
)


def default_autosave_path() -> Path:
    return (
        Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
        / "autosave.json"
    )


class MainWindow(RunWindow):
    """rmviz's window. ``autorun`` starts solving as soon as a game is shown; ``settings``
    (recent files) and ``autosave_path`` default to the user's locations."""

    def __init__(
        self,
        game: NormalFormGame | None = None,
        autorun: bool = True,
        settings: QSettings | None = None,
        autosave_path: Path | None = None,
        read_only: bool = False,
    ) -> None:
        super().__init__()
        configure_pyqtgraph()
        self.setWindowTitle("rmviz")
        self.setAcceptDrops(True)
        self.autorun = autorun
        self.settings = settings or QSettings("rmviz", "rmviz")
        self.autosave_path = autosave_path or default_autosave_path()
        self.document = GameDocument(game or catalog_game("rps-crash"))
        self._shown_game = self.document.game
        self._shown_zero_sum = self.document.zero_sum
        self.thread: SolverThread | None = None
        self._seen_version = -1
        self._equilibrium = known_equilibrium(self.document.game)
        self.presentation = False
        self.tree_windows: list[TreeWindow] = []

        self.editor = MatrixEditor(self.document)
        self.editor.error.connect(lambda message: self.show_error(message))
        self.model = self.editor.model
        self.editor.set_read_only(read_only)
        self.read_only = read_only
        self.document.subscribe(self._document_changed)  # after the editor's model
        self.panel = SolverPanel()
        self.panel.changed.connect(self.restart)
        self.panel.speed_changed.connect(self._apply_speed)

        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.toggle_run)
        step_one = QPushButton("Step 1")
        step_one.clicked.connect(lambda: self.step(1))
        self.step_count = QSpinBox()
        self.step_count.setRange(1, 10_000_000)
        self.step_count.setValue(100)
        step_n = QPushButton("Step N")
        step_n.clicked.connect(lambda: self.step(self.step_count.value()))
        reset = QPushButton("Reset")
        reset.clicked.connect(self.restart)
        controls = QHBoxLayout()
        for widget in (self.run_button, step_one, step_n, self.step_count, reset):
            controls.addWidget(widget)

        left = self.left = QWidget()
        left_layout = QVBoxLayout(left)
        self.game_label = QLabel()
        self.game_label.setWordWrap(True)
        left_layout.addWidget(self.game_label)
        left_layout.addWidget(self.editor, stretch=1)
        left_layout.addWidget(self.panel)
        left_layout.addLayout(controls)

        self.simplex = SimplexView()
        self.joint = JointView()
        self.faces = QWidget()
        self.faces.setLayout(QHBoxLayout())
        self.faces.layout().setContentsMargins(0, 0, 0, 0)
        top = QSplitter()
        simplex_box = QWidget()
        simplex_layout = QVBoxLayout(simplex_box)
        simplex_layout.setContentsMargins(0, 0, 0, 0)
        simplex_layout.addWidget(self.faces)
        simplex_layout.addWidget(self.simplex, stretch=1)
        top.addWidget(simplex_box)
        top.addWidget(self.joint)
        top.setSizes([640, 300])
        self.plots = ConvergencePlots()
        self.dashboard = QSplitter(Qt.Orientation.Vertical)
        self.dashboard.addWidget(top)
        self.dashboard.addWidget(self.plots)
        self.dashboard.setSizes([320, 480])
        self.compare = CompareView()
        self.compare.error.connect(lambda message: self.show_error(message))
        self.tabs = QTabWidget()
        self.tabs.addTab(self.dashboard, "Run")
        self.tabs.addTab(self.compare, "Compare algorithms")
        self.tabs.currentChanged.connect(self._tab_changed)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.tabs)
        splitter.setSizes([400, 880])
        self.setCentralWidget(splitter)

        self.iteration_label = QLabel()
        self.iteration_label.setMinimumWidth(220)
        self.rate_label = QLabel()
        self.statusBar().addWidget(self.iteration_label)
        self.statusBar().addPermanentWidget(self.rate_label)
        self._menus()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.timer.start(REDRAW_MS)
        self._tick_started = 0.0
        self._redraw_ms = 0.0  # smoothed time of a redraw and its repaint
        self.autosave_timer = QTimer(self)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start(AUTOSAVE_MS)
        self._game_changed(restart=True)
        self.resize(1360, 860)

    # -- menus -----------------------------------------------------------------------------
    def _menus(self) -> None:
        keys = QKeySequence.StandardKey
        file_menu = self.menuBar().addMenu("&File")
        self._action(file_menu, "&Open...", self.open_dialog, keys.Open)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(file_menu, "&Save", self.save, keys.Save)
        self._action(file_menu, "Save &As...", self.save_dialog, keys.SaveAs)
        file_menu.addSeparator()
        self._action(file_menu, "Export &Figure...", self.export_figure_dialog, QKeySequence("Ctrl+E"))
        self._action(file_menu, "Export Run &Data...", self.export_data_dialog, QKeySequence("Ctrl+Shift+E"))
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
            if not entry.is_tree:
                self._action(games, entry.build().title, lambda _=False, g=game_id: self.load_catalog(g))
        trees = games.addMenu("Game trees (CFR, in a tree window)")
        for tree_id, entry in CATALOG.items():
            if entry.is_tree:
                self._action(
                    trees,
                    f"{tree_id}: {entry.description}",
                    lambda _=False, t=tree_id: self.open_tree(load_game(t)),
                )
        random_menu = games.addMenu("Random (seed from the solver panel)")
        for kind in ("zero-sum", "general-sum", "cooperative"):
            for shape in ((3, 3), (5, 5), (3, 3, 3)):
                label = f"{kind} {'x'.join(map(str, shape))}"
                self._action(random_menu, label, lambda _=False, k=kind, s=shape: self.load_random(k, s))
        run = self.menuBar().addMenu("&Run")
        self._action(run, "Run / Pause", self.toggle_run, QKeySequence(Qt.Key.Key_Space))
        self._action(run, "Step 1", lambda: self.step(1), QKeySequence("Ctrl+1"))
        self._action(run, "Step N", lambda: self.step(self.step_count.value()), QKeySequence("Ctrl+N"))
        self._action(run, "Reset", self.restart, QKeySequence("Ctrl+R"))
        view = self.menuBar().addMenu("&View")
        self.presentation_action = self._action(
            view, "&Presentation Mode", self.toggle_presentation, QKeySequence("F5")
        )
        self.presentation_action.setCheckable(True)

    # -- the run ---------------------------------------------------------------------------
    def restart(self) -> None:
        """Stop any run and start a fresh solver on the current game and settings."""
        self._stop_thread()
        try:
            solver = RegretMinimizer(self.document.game, self.panel.config())
        except RmvizError as error:
            self.show_error(str(error))
            return
        self.thread = SolverThread(solver, points_per_decade=self.panel.points_per_decade())
        self.thread.loop.set_speed(self.panel.speed_limit())
        self.thread.start()
        self._seen_version = -1
        if self.autorun and self.tabs.currentWidget() is self.dashboard:
            self.thread.loop.run()
        self._update_buttons()
        self.compare.set_game(self.document.game, self.panel.config())

    def toggle_run(self) -> None:
        if self.tabs.currentWidget() is self.compare:
            self.compare.toggle_run()
            return
        if self.thread is None:
            return
        loop = self.thread.loop
        loop.pause() if loop.running else loop.run()
        self._update_buttons()

    def step(self, iterations: int) -> None:
        if self.thread is not None:
            self.thread.loop.step(iterations)
            self._update_buttons()

    def _apply_speed(self) -> None:
        if self.thread is not None:
            self.thread.loop.set_speed(self.panel.speed_limit())

    def _tick(self) -> None:
        """The redraw timer's slot. Redrawing and the repaint it causes take the GUI thread
        for a while (C, smoothed over recent ticks); the timer then waits at least 1.5 C, so
        the event loop stays free most of the time however slow painting is here."""
        self._tick_started = time.perf_counter()
        for loop in self._loops():
            loop.gui_drawing(True)
        self.redraw()
        # a 1 ms timer fires after the posted (low-priority) repaint the redraw queued;
        # a 0 ms one would be a posted call and run before it
        QTimer.singleShot(1, self._pace)

    def _pace(self) -> None:
        for loop in self._loops():
            loop.gui_drawing(False)
        cost_ms = (time.perf_counter() - self._tick_started) * 1000
        self._redraw_ms = 0.7 * self._redraw_ms + 0.3 * cost_ms
        self.timer.setInterval(max(REDRAW_MS, min(500, round(1.5 * self._redraw_ms))))

    def _loops(self) -> list:
        """The run loops drawn now (the single run's, or compare mode's)."""
        if self.tabs.currentWidget() is self.compare:
            return [thread.loop for thread in self.compare.threads.values()]
        return [self.thread.loop] if self.thread is not None else []

    def redraw(self) -> None:
        """Draw the newest snapshot and the trace."""
        if self.tabs.currentWidget() is self.compare:
            self.compare.redraw()
            self.iteration_label.setText(self.compare.summary())
            self.rate_label.setText("comparing" if self.compare.running else "paused")
            return
        if self.thread is None:
            return
        self._report_run_error()
        loop = self.thread.loop
        version, snapshot = loop.latest()
        self._update_buttons()
        if version == self._seen_version:
            return
        self._seen_version = version
        names = tuple(dict.fromkeys(self.plots.column_names() + self.simplex.column_names()))
        iterations, columns = loop.trace_columns(names)
        self.plots.update_from(iterations, columns, stagger=True)
        self.simplex.update_from(columns)
        self.joint.update_from(snapshot.joint)
        self.iteration_label.setText(f"iteration {snapshot.iteration:,}")
        self.rate_label.setText(f"{loop.iterations_per_second:,.0f} it/s" if loop.running else "paused")

    def run_data(self) -> RunData:
        """The run as it stands: the whole trace and the newest joint distribution."""
        assert self.thread is not None
        loop = self.thread.loop
        iterations, columns = loop.trace_columns(loop.trace.names)
        return RunData(
            self.document.game,
            self._equilibrium,
            iterations,
            columns,
            loop.latest()[1].joint,
            dict(self.simplex.faces),
        )

    # -- the game --------------------------------------------------------------------------
    def _document_changed(self, _document: GameDocument) -> None:
        """Edits restart the run; saving only updates the title."""
        restart = self.document.game is not self._shown_game or self.document.zero_sum != self._shown_zero_sum
        self._shown_game, self._shown_zero_sum = self.document.game, self.document.zero_sum
        self._game_changed(restart=restart)
        if not self.document.modified:
            self.autosave_path.unlink(missing_ok=True)

    def _game_changed(self, restart: bool = True) -> None:
        game = self.document.game
        self._equilibrium = known_equilibrium(self.document.game)
        self.game_label.setText(
            f"<b>{game.title}</b> - {game.n_players} players, {game.shape_label}"
            + (" - modified" if self.document.modified else "")
            + (" - read-only" if self.read_only else "")
        )
        self.undo_action.setEnabled(self.document.can_undo())
        self.redo_action.setEnabled(self.document.can_redo())
        self.setWindowTitle(f"rmviz - {game.title}{' *' if self.document.modified else ''}")
        if restart:
            self.plots.set_game(game)
            self.simplex.set_game(game, self._equilibrium)
            self.joint.set_game(game)
            self._face_selectors()
            self.restart()

    def _face_selectors(self) -> None:
        """For players with more than 3 actions, choose the face of the simplex drawn."""
        layout = self.faces.layout()
        while layout.count():
            layout.takeAt(0).widget().deleteLater()
        game = self.document.game
        for player in range(min(game.n_players, 3)):
            actions = game.action_names[player]
            if len(actions) <= 3:
                continue
            combo = QComboBox()
            faces = list(itertools.combinations(range(min(len(actions), 10)), 3))
            for face in faces:
                combo.addItem(f"{game.player_names[player]}: {', '.join(actions[a] for a in face)}", face)
            combo.currentIndexChanged.connect(lambda k, p=player, f=faces: k >= 0 and self._set_face(p, f[k]))
            layout.addWidget(combo)
        self.faces.setVisible(layout.count() > 0)

    def _set_face(self, player: int, face: tuple[int, int, int]) -> None:
        self.simplex.set_face(player, tuple(face))
        self._seen_version = -1  # redraw on the next tick

    def set_game(self, game: NormalFormGame, description: str, path: Path | None = None) -> None:
        """Show ``game`` (undoable); the run restarts on it."""
        if path is not None:
            self.document.path = path
        self.document.replace_game(game, description, zero_sum=game.n_players == 2 and game.is_zero_sum())

    def load_catalog(self, game_id: str) -> None:
        self.set_game(catalog_game(game_id), f"Open {game_id}")

    def load_random(self, kind: str, shape: tuple[int, ...]) -> None:
        self.set_game(random_game(kind, shape, seed=self.panel.seed.value()), f"Random {kind}")

    # -- files -----------------------------------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        """Open a game file; a bad file shows a message and keeps the current game."""
        try:
            game = read_game_file(path)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        if not isinstance(game, NormalFormGame):
            self.open_tree(game, Path(path))
            self._remember(Path(path))
            return True
        self.set_game(game, f"Open {Path(path).name}", Path(path))
        self.document.mark_saved(Path(path))
        self._remember(Path(path))
        return True

    def open_tree(self, game: ExtensiveFormGame, path: Path | None = None) -> TreeWindow:
        """Show a game tree in a tree window of its own (CFR, step by step)."""
        window = TreeWindow(game, path)
        self.tree_windows.append(window)
        window.destroyed.connect(
            lambda _=None, w=window: w in self.tree_windows and self.tree_windows.remove(w)
        )
        window.show()
        return window

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open game", "", FILE_FILTER)
        if path:
            self.open_file(path)

    def save(self) -> None:
        if self.document.path is not None and self.document.path.suffix.lower() in (".json", ".nfg"):
            self.save_file(self.document.path)
        else:
            self.save_dialog()

    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save game", str(self.document.path or ""), FILE_FILTER)
        if path:
            self.save_file(path)

    def save_file(self, path: str | Path) -> bool:
        saved = super().save_file(path)
        if saved:
            self._remember(Path(path))
        return saved

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        return [value] if isinstance(value, str) else list(value or [])

    def _remember(self, path: Path) -> None:
        recent = [str(path.resolve())] + [p for p in self.recent_files() if p != str(path.resolve())]
        self.settings.setValue("recent", recent[:MAX_RECENT])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            action = self.recent_menu.addAction(path, lambda p=path: self.open_file(p))
            action.setEnabled(Path(path).exists())
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    def autosave(self) -> None:
        """Write unsaved edits where :meth:`offer_restore` finds them after a crash."""
        if not self.document.modified:
            return
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            write_game_file(self.document.game, self.autosave_path)
        except (OSError, RmvizError) as error:
            self.statusBar().showMessage(f"autosave failed: {error}", 5000)

    def offer_restore(self) -> bool:
        """After a crash (an autosave is left), offer to bring the unsaved game back."""
        if not self.autosave_path.exists():
            return False
        try:
            game = read_game_file(self.autosave_path)
        except RmvizError:
            self.autosave_path.unlink(missing_ok=True)
            return False
        if not isinstance(game, NormalFormGame) or not self.confirm_restore(game.title):
            self.autosave_path.unlink(missing_ok=True)
            return False
        self.set_game(game, "Restore autosave")
        return True

    # -- export ------------------------------------------------------------------------------
    def export_figure(
        self, path: str | Path, figure: str = "dashboard", size: tuple[int, int] | None = None, dpi: int = 96
    ) -> bool:
        """Write one figure of this run (see :data:`~rmviz.ui.figures.FIGURES`, or
        ``"compare"``) as PNG, SVG or PDF; False (and a message) when it cannot."""
        try:
            if figure == "compare":
                self.compare.activate()
                export_widget(self.compare.plots, path, dpi=dpi)
                return True
            scale = PRESENTATION_SCALE if self.presentation else 1.0
            render_figure(figure, self.run_data(), path, size, dpi, scale)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        return True

    def export_data(self, path: str | Path) -> bool:
        """Write the run's trace with its game, configuration and seed (.csv or .json)."""
        if self.thread is None:
            return False
        data = self.run_data()
        try:
            write_run_data(path, data.game, self.thread.loop.solver.config, data.iterations, data.columns)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        return True

    def export_figure_dialog(self) -> None:
        dialog = QDialog(self)
        dialog.setWindowTitle("Export figure")
        form = QFormLayout(dialog)
        figure = QComboBox()
        figure.addItems([*FIGURES[::-1], "compare"])
        width, height, dpi = QSpinBox(), QSpinBox(), QSpinBox()
        for box, value in ((width, 1600), (height, 1000), (dpi, 96)):
            box.setRange(10 if box is dpi else 100, 2400 if box is dpi else 8000)
            box.setValue(value)
        figure.currentTextChanged.connect(
            lambda name: [
                b.setValue(v)
                for b, v in zip((width, height), DEFAULT_SIZES.get(name, (900, 600)), strict=True)
            ]
        )
        form.addRow("Figure", figure)
        form.addRow("Width (px)", width)
        form.addRow("Height (px)", height)
        form.addRow("DPI (PNG)", dpi)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        form.addRow(buttons)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        path, _ = QFileDialog.getSaveFileName(
            self, "Export figure", f"{figure.currentText()}.png", "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"
        )
        if path:
            self.export_figure(path, figure.currentText(), (width.value(), height.value()), dpi.value())

    def export_data_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export run data", "run.csv", "CSV (*.csv);;JSON (*.json)"
        )
        if path:
            self.export_data(path)

    # -- presentation ----------------------------------------------------------------------
    def toggle_presentation(self) -> None:
        """Large fonts, thick lines, light plots, full screen, the plots alone (the editor
        hides; Space, Ctrl+1 and F5 still work); again to go back."""
        self.presentation = not self.presentation
        self.presentation_action.setChecked(self.presentation)
        app = QApplication.instance()
        if self.presentation:
            self._normal_font, self._normal_palette = QFont(app.font()), QPalette(app.palette())
            font = QFont(app.font())
            font.setPointSizeF(font.pointSizeF() * 1.5)
            app.setFont(font)
            app.setPalette(QStyleFactory.create("Fusion").standardPalette())  # light, whatever the desktop
            self.showFullScreen()
        else:
            app.setFont(self._normal_font)
            app.setPalette(self._normal_palette)
            self.showNormal()
        self.left.setVisible(not self.presentation)
        scale = PRESENTATION_SCALE if self.presentation else 1.0
        for view in (self.plots, self.simplex, self.joint, self.compare):
            view.set_scale(scale)
        self._seen_version = -1  # redraw into the rebuilt plots

    # -- people ----------------------------------------------------------------------------
    def confirm_restore(self, title: str) -> bool:
        """Ask whether to restore the autosaved game (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            "rmviz",
            f"rmviz closed with unsaved changes to {title!r}. Restore them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls:
            self.open_file(urls[0].toLocalFile())

    def closeEvent(self, event: object) -> None:
        if self.document.modified and not self.read_only and not self.confirm_discard():
            event.ignore()  # type: ignore[attr-defined]
            return
        self.autosave_path.unlink(missing_ok=True)  # closed on purpose: nothing to restore
        self.shutdown()
        event.accept()  # type: ignore[attr-defined]

    def shutdown(self) -> None:
        """Stop the timers and the solver threads (idempotent)."""
        self.timer.stop()
        self.autosave_timer.stop()
        self.compare.stop()
        self._stop_thread()
        for window in self.tree_windows:
            window.shutdown()
