"""The main window: edit a matrix game on the left, watch regret matching converge on the right.

The solver runs in a :class:`~rmviz.runner.worker.SolverThread`; a ~30 Hz timer reads the
newest snapshot and the trace and redraws, so the event queue never floods. Any edit of the
game, or a change in the solver panel, stops the run and starts a fresh one on the new game.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rmviz.document import GameDocument
from rmviz.errors import RmvizError
from rmviz.formats import read_game_file, write_game_file
from rmviz.games.catalog import CATALOG, catalog_game
from rmviz.games.generators import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.runner.worker import SolverThread
from rmviz.solvers.regret_minimizer import RegretMinimizer
from rmviz.ui.matrix_model import PayoffTableModel
from rmviz.ui.plots import ConvergencePlots
from rmviz.ui.simplex import SimplexView
from rmviz.ui.solver_panel import SolverPanel
from rmviz.ui.style import configure_pyqtgraph

REDRAW_MS = 33
FILE_FILTER = "Games (*.json *.nfg);;rmviz JSON (*.json);;Gambit normal form (*.nfg)"


class MainWindow(QMainWindow):
    """rmviz's window. ``autorun`` starts solving as soon as a game is shown."""

    def __init__(self, game: NormalFormGame | None = None, autorun: bool = True) -> None:
        super().__init__()
        configure_pyqtgraph()
        self.setWindowTitle("rmviz")
        self.setAcceptDrops(True)
        self.autorun = autorun
        self.document = GameDocument(game or catalog_game("rps-crash"))
        self._shown_game = self.document.game
        self.document.subscribe(self._document_changed)
        self.thread: SolverThread | None = None
        self._seen_version = -1
        self._equilibrium = self._known_equilibrium()

        self.model = PayoffTableModel(self.document, self)
        self.model.edit_rejected.connect(self.show_error)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.horizontalHeader().setDefaultSectionSize(80)
        self.zero_sum = QCheckBox("Zero-sum (one number fills both)")
        self.zero_sum.toggled.connect(self._toggle_zero_sum)
        self.slices = QWidget()
        self.slices.setLayout(QHBoxLayout())
        self.panel = SolverPanel()
        self.panel.changed.connect(self.restart)

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

        left = QWidget()
        left_layout = QVBoxLayout(left)
        self.game_label = QLabel()
        self.game_label.setWordWrap(True)
        left_layout.addWidget(self.game_label)
        left_layout.addWidget(self.table, stretch=1)
        left_layout.addWidget(self.zero_sum)
        left_layout.addWidget(self.slices)
        left_layout.addWidget(self.panel)
        left_layout.addLayout(controls)

        self.simplex = SimplexView()
        self.plots = ConvergencePlots()
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.simplex)
        right.addWidget(self.plots)
        right.setSizes([320, 480])
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([380, 900])
        self.setCentralWidget(splitter)

        self.iteration_label = QLabel()
        self.iteration_label.setMinimumWidth(220)
        self.rate_label = QLabel()
        self.statusBar().addWidget(self.iteration_label)
        self.statusBar().addPermanentWidget(self.rate_label)
        self._menus()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.redraw)
        self.timer.start(REDRAW_MS)
        self._game_changed(restart=True)
        self.resize(1280, 800)

    # -- menus -----------------------------------------------------------------------------
    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self._action(file_menu, "&Open...", self.open_dialog, QKeySequence.StandardKey.Open)
        self._action(file_menu, "Save &As...", self.save_dialog, QKeySequence.StandardKey.SaveAs)
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        edit = self.menuBar().addMenu("&Edit")
        self.undo_action = self._action(edit, "&Undo", self.document.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._action(edit, "&Redo", self.document.redo, QKeySequence("Ctrl+Shift+Z"))
        games = self.menuBar().addMenu("&Game")
        for game_id, entry in CATALOG.items():
            self._action(games, entry.build().title, lambda _=False, g=game_id: self.load_catalog(g))
        random_menu = games.addMenu("Random (seed from the solver panel)")
        for kind in ("zero-sum", "general-sum", "cooperative"):
            self._action(random_menu, f"{kind} 3x3", lambda _=False, k=kind: self.load_random(k, (3, 3)))
        run = self.menuBar().addMenu("&Run")
        self._action(run, "Run / Pause", self.toggle_run, QKeySequence(Qt.Key.Key_Space))
        self._action(run, "Step 1", lambda: self.step(1), QKeySequence("Ctrl+1"))
        self._action(run, "Reset", self.restart, QKeySequence("Ctrl+R"))

    def _action(self, menu: object, text: str, slot: object, shortcut: object = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)  # type: ignore[attr-defined]
        return action

    # -- the run ---------------------------------------------------------------------------
    def restart(self) -> None:
        """Stop any run and start a fresh solver on the current game and settings."""
        self._stop_thread()
        try:
            solver = RegretMinimizer(self.document.game, self.panel.config())
        except RmvizError as error:
            self.show_error(str(error))
            return
        self.thread = SolverThread(solver)
        self.thread.start()
        self._seen_version = -1
        if self.autorun:
            self.thread.loop.run()
        self._update_buttons()

    def toggle_run(self) -> None:
        if self.thread is None:
            return
        loop = self.thread.loop
        loop.pause() if loop.running else loop.run()
        self._update_buttons()

    def step(self, iterations: int) -> None:
        if self.thread is not None:
            self.thread.loop.step(iterations)
            self._update_buttons()

    def _update_buttons(self) -> None:
        running = self.thread is not None and self.thread.loop.running
        self.run_button.setText("Pause" if running else "Run")

    def _stop_thread(self) -> None:
        if self.thread is not None:
            self.thread.shutdown()
            self.thread = None

    def redraw(self) -> None:
        """Draw the newest snapshot and the trace (the timer's slot)."""
        if self.thread is None:
            return
        loop = self.thread.loop
        if loop.error:
            message, loop.error = loop.error, None
            self.show_error(message)
        version, snapshot = loop.latest()
        self._update_buttons()
        if version == self._seen_version:
            return
        self._seen_version = version
        names = tuple(dict.fromkeys(self.plots.column_names() + self.simplex.column_names()))
        iterations, columns = loop.trace_columns(names)
        self.plots.update_from(iterations, columns)
        self.simplex.update_from(columns)
        self.iteration_label.setText(f"iteration {snapshot.iteration:,}")
        self.rate_label.setText(f"{loop.iterations_per_second:,.0f} it/s" if loop.running else "paused")

    # -- the game --------------------------------------------------------------------------
    def _known_equilibrium(self) -> tuple[tuple[float, ...], ...] | None:
        for entry in CATALOG.values():
            if entry.build() == self.document.game:
                return entry.equilibrium
        return None

    def _document_changed(self, _document: GameDocument) -> None:
        """Edits restart the run; saving only updates the title."""
        restart = (
            self.document.game is not self._shown_game or self.document.zero_sum != self.zero_sum.isChecked()
        )
        self._shown_game = self.document.game
        self._game_changed(restart=restart)

    def _game_changed(self, restart: bool = True) -> None:
        game = self.document.game
        self._equilibrium = self._known_equilibrium()
        self.game_label.setText(
            f"<b>{game.title}</b> - {game.n_players} players, {game.shape_label}"
            + (" - modified" if self.document.modified else "")
        )
        self.zero_sum.blockSignals(True)
        self.zero_sum.setChecked(self.document.zero_sum)
        self.zero_sum.setEnabled(game.n_players == 2)
        self.zero_sum.blockSignals(False)
        self.undo_action.setEnabled(self.document.can_undo())
        self.redo_action.setEnabled(self.document.can_redo())
        self.setWindowTitle(f"rmviz - {game.title}{' *' if self.document.modified else ''}")
        if restart:
            self.model.refresh()  # before the selectors read its slice (subscriber order)
            self._slice_selectors()
            self.plots.set_game(game)
            self.simplex.set_game(game, self._equilibrium)
            self.restart()

    def _slice_selectors(self) -> None:
        layout = self.slices.layout()
        while layout.count():
            layout.takeAt(0).widget().deleteLater()
        game = self.document.game
        for player in range(2, game.n_players):
            combo = QComboBox()
            combo.addItems([f"{game.player_names[player]}: {a}" for a in game.action_names[player]])
            combo.setCurrentIndex(self.model.slice_profile[player])
            combo.currentIndexChanged.connect(lambda a, p=player: self.model.set_slice(p, a))
            layout.addWidget(combo)
        self.slices.setVisible(game.n_players > 2)

    def _toggle_zero_sum(self, on: bool) -> None:
        try:
            self.document.set_zero_sum(on)
        except RmvizError as error:
            self.show_error(str(error))

    def set_game(self, game: NormalFormGame, description: str, path: Path | None = None) -> None:
        """Show ``game`` (undoable); the run restarts on it."""
        if path is not None:
            self.document.path = path
        self.document.replace_game(game, description, zero_sum=game.n_players == 2 and game.is_zero_sum())

    def load_catalog(self, game_id: str) -> None:
        self.set_game(catalog_game(game_id), f"Open {game_id}")

    def load_random(self, kind: str, shape: tuple[int, ...]) -> None:
        self.set_game(random_game(kind, shape, seed=self.panel.seed.value()), f"Random {kind}")

    def open_file(self, path: str | Path) -> bool:
        """Open a game file; a bad file shows a message and keeps the current game."""
        try:
            game = read_game_file(path)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        if not isinstance(game, NormalFormGame):
            self.show_error(f"{path}: game trees open in the tree view, which this window does not have yet")
            return False
        self.set_game(game, f"Open {Path(path).name}", Path(path))
        return True

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open game", "", FILE_FILTER)
        if path:
            self.open_file(path)

    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save game", str(self.document.path or ""), FILE_FILTER)
        if path:
            self.save_file(path)

    def save_file(self, path: str | Path) -> bool:
        try:
            write_game_file(self.document.game, path)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        self.document.mark_saved(Path(path))
        return True

    # -- people ----------------------------------------------------------------------------
    def show_error(self, message: str) -> None:
        """Tell the person what went wrong (a dialog; tests replace this method)."""
        QMessageBox.warning(self, "rmviz", message)

    def confirm_discard(self) -> bool:
        """Ask before losing unsaved edits (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            "rmviz",
            "The game has unsaved changes. Close anyway?",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls:
            self.open_file(urls[0].toLocalFile())

    def closeEvent(self, event: object) -> None:
        if self.document.modified and not self.confirm_discard():
            event.ignore()  # type: ignore[attr-defined]
            return
        self.shutdown()
        event.accept()  # type: ignore[attr-defined]

    def shutdown(self) -> None:
        """Stop the redraw timer and the solver thread (idempotent)."""
        self.timer.stop()
        self._stop_thread()
