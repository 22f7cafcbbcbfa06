"""The game-tree window: draw and edit a tree, step CFR one iteration at a time, run it.

* Centre: the :class:`~rmviz.ui.tree_view.TreeView` with reach (edge width), node values and
  strategy bars. Right-click a node to edit it; every edit goes through the Qt-free
  :class:`~rmviz.document.TreeDocument` (undo with Ctrl+Z) and a refused one (chance
  probabilities that do not sum to 1, an information set that breaks perfect recall) shows
  the game model's message and changes nothing.
* Left: the information sets, filtered by player and searched by label. Right: the chosen
  one's regrets and strategies before and after the last recorded iteration, and the CFR
  lecture's formulas with its numbers (:mod:`~rmviz.ui.infoset_panel`).
* *Step 1* runs one recorded iteration (:meth:`CFRSolver.step_recorded`) and shows it;
  *Animate* then walks the traversal node by node in the order a recursive CFR visits them;
  *Run* continues at full speed in the worker thread with live plots (exploitability on
  log-log axes, the chosen information set's average strategy over iterations).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rmviz.document import TreeDocument
from rmviz.errors import RmvizError
from rmviz.formats import read_game_file
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.reduced import reduced_strategic_form
from rmviz.runner.worker import SolverThread
from rmviz.solvers.tree.config import PRESETS as CFR_PRESETS
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver, IterationRecord
from rmviz.ui.compare import CompareView
from rmviz.ui.export import export_scene
from rmviz.ui.infoset_panel import InfosetDetail, InfosetList, StrategyTable
from rmviz.ui.run_window import RunWindow
from rmviz.ui.solver_panel import SolverPanel
from rmviz.ui.style import ACTION_COLOURS, METRIC_COLOURS, configure_pyqtgraph, style_plot
from rmviz.ui.tree_view import TreeView, format_probability

TREE_FILTER = "Game trees (*.efg *.json);;Gambit extensive form (*.efg);;rmviz JSON (*.json)"
REDRAW_MS = 100  # the tree is redrawn whole: 10 times a second is plenty while running
ANIMATION_SPEEDS = {"slow": 600, "normal": 250, "fast": 60}


class TreeWindow(RunWindow):
    """A window on one game tree."""

    def __init__(self, game: ExtensiveFormGame, path: Path | None = None) -> None:
        super().__init__()
        configure_pyqtgraph()
        self.document = TreeDocument(game, path)
        self.document.subscribe(lambda _d: self._game_changed())
        self.thread: SolverThread | None = None
        self.record: IterationRecord | None = None
        self.infoset = 0
        self._seen_version = -1
        self._bars_drawn = 0.0
        self._animation: list[int] = []
        self.matrix_windows: list[QMainWindow] = []

        self.view = TreeView()
        self.view.node_selected.connect(self._node_selected)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._node_menu)
        self.infosets = InfosetList()
        self.infosets.chosen.connect(self.choose_infoset)
        self.detail = InfosetDetail()
        self.average_table = StrategyTable()
        self.side_tabs = QTabWidget()
        self.side_tabs.addTab(self.detail, "Information set")
        self.side_tabs.addTab(self.average_table, "Average strategy")
        self.side_tabs.currentChanged.connect(lambda _k: self.redraw(force=True))

        self.panel = SolverPanel(presets=CFR_PRESETS, make=cfr_preset, rows=("updates", "seed", "speed"))
        self.panel.changed.connect(self.restart)
        self.panel.speed_changed.connect(
            lambda: self.thread is not None and self.thread.loop.set_speed(self.panel.speed_limit())
        )
        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.toggle_run)
        step_one = QPushButton("Step 1")
        step_one.setToolTip("one recorded iteration, shown on the tree and in the panel")
        step_one.clicked.connect(self.step_recorded)
        self.step_count = QSpinBox()
        self.step_count.setRange(1, 10_000_000)
        self.step_count.setValue(100)
        step_n = QPushButton("Step N")
        step_n.clicked.connect(lambda: self.step(self.step_count.value()))
        reset = QPushButton("Reset")
        reset.clicked.connect(self.restart)
        self.animate_button = QPushButton("Animate")
        self.animate_button.setToolTip("walk the last recorded traversal node by node")
        self.animate_button.clicked.connect(self.animate)
        self.animation_speed = QComboBox()
        self.animation_speed.addItems(list(ANIMATION_SPEEDS))
        self.animation_speed.setCurrentText("normal")
        self.traversal = QComboBox()
        self.traversal.setToolTip("which traversal of the iteration the tree shows (alternating updates)")
        self.traversal.currentIndexChanged.connect(self._show_record)
        controls = QHBoxLayout()
        for widget in (
            self.run_button,
            step_one,
            step_n,
            self.step_count,
            reset,
            self.animate_button,
            self.animation_speed,
            self.traversal,
        ):
            controls.addWidget(widget)
        controls.addStretch()

        self.plots = pg.GraphicsLayoutWidget()
        self.gap_plot = self.plots.addPlot(row=0, col=0)
        style_plot(self.gap_plot, "exploitability of the average strategy (log-log)")
        self.gap_plot.setLogMode(x=True, y=True)
        self.gap_plot.setLabel("bottom", "iteration")
        self.gap_curve = self.gap_plot.plot(pen=pg.mkPen(METRIC_COLOURS["exploitability"], width=2))
        self.strategy_plot = self.plots.addPlot(row=0, col=1)
        self.strategy_plot.setLogMode(x=True, y=False)
        self.strategy_plot.setYRange(0, 1)
        self.strategy_plot.setLabel("bottom", "iteration")
        self.strategy_legend = self.strategy_plot.addLegend(offset=(-5, 5))
        self.strategy_curves: list[pg.PlotDataItem] = []

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.panel)
        left_layout.addWidget(self.infosets, stretch=1)
        self.compare = CompareView(
            presets=CFR_PRESETS,
            build=lambda game, name, base: CFRSolver(game, cfr_preset(name, seed=base.seed)),
            metrics={"exploitability": "exploitability (NashConv/n)"},
            checked=("cfr", "cfr+", "dcfr", "mccfr-external"),
        )
        self.compare.error.connect(lambda message: self.show_error(message))
        self.tabs = QTabWidget()
        self.tabs.addTab(self.view, "Tree")
        self.tabs.addTab(self.compare, "Compare algorithms")
        self.tabs.currentChanged.connect(self._tab_changed)
        centre = QSplitter()
        centre.addWidget(left)
        centre.addWidget(self.tabs)
        centre.addWidget(self.side_tabs)
        centre.setSizes([280, 720, 480])
        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(centre)
        body.addWidget(self.plots)
        body.setSizes([620, 220])
        main = QWidget()
        layout = QVBoxLayout(main)
        layout.addLayout(controls)
        self.problem = QLabel()  # a refused edit, shown in place until the next edit succeeds
        self.problem.setStyleSheet("color: #b71c1c; background: #ffebee; padding: 4px")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.problem)
        layout.addWidget(body, stretch=1)
        self.setCentralWidget(main)
        self.status = QLabel()
        self.statusBar().addWidget(self.status, stretch=1)
        self._menus()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.redraw)
        self.timer.start(REDRAW_MS)
        self.animation_timer = QTimer(self)
        self.animation_timer.timeout.connect(self._animation_tick)
        self._game_changed()
        self.resize(1480, 900)

    # -- menus -----------------------------------------------------------------------------
    def _menus(self) -> None:
        keys = QKeySequence.StandardKey
        file_menu = self.menuBar().addMenu("&File")
        self._action(file_menu, "&Open...", self.open_dialog, keys.Open)
        self._action(file_menu, "Save &As...", self.save_dialog, keys.SaveAs)
        self._action(file_menu, "Export &Tree Figure...", self.export_dialog, QKeySequence("Ctrl+E"))
        file_menu.addSeparator()
        self._action(file_menu, "&Close", self.close, keys.Close)
        edit = self.menuBar().addMenu("&Edit")
        self.undo_action = self._action(edit, "&Undo", self.document.undo, keys.Undo)
        self.redo_action = self._action(edit, "&Redo", self.document.redo, QKeySequence("Ctrl+Shift+Z"))
        run = self.menuBar().addMenu("&Run")
        self._action(run, "Run / Pause", self.toggle_run, QKeySequence(Qt.Key.Key_Space))
        self._action(run, "Step 1 (recorded)", self.step_recorded, QKeySequence("Ctrl+1"))
        self._action(run, "Animate traversal", self.animate, QKeySequence("Ctrl+A"))
        self._action(run, "Reset", self.restart, QKeySequence("Ctrl+R"))
        game_menu = self.menuBar().addMenu("&Game")
        self._action(game_menu, "Reduced &strategic form (matrix window)", self.show_reduced_form)
        view = self.menuBar().addMenu("&View")
        self._action(view, "&Fit tree", self.view.fit, QKeySequence("Ctrl+0"))

    # -- the game ----------------------------------------------------------------------------
    def _game_changed(self) -> None:
        game = self.document.game
        self.setWindowTitle(f"rmviz - {game.title}{' *' if self.document.modified else ''}")
        self.undo_action.setEnabled(self.document.can_undo())
        self.redo_action.setEnabled(self.document.can_redo())
        self.restart()

    def restart(self) -> None:
        """A fresh solver on the current tree and settings (paused)."""
        self._stop_thread()
        self.animation_timer.stop()
        try:
            solver = CFRSolver(self.document.game, self.panel.config())
        except RmvizError as error:
            self.show_error(str(error))
            return
        self.solver = solver
        self.thread = SolverThread(solver)
        self.thread.loop.set_speed(self.panel.speed_limit())
        self.thread.start()
        self.record = None
        self._seen_version = -1
        tree = solver.tree
        self.view.set_game(self.document.game, tree)
        self.infosets.set_game(self.document.game, tree)
        self.infoset = min(self.infoset, tree.n_infosets - 1)
        self.traversal.blockSignals(True)
        self.traversal.clear()
        self.traversal.setVisible(False)
        self.traversal.blockSignals(False)
        self.infosets.choose(self.infoset)
        self._strategy_curves()
        self.compare.set_game(self.document.game, self.panel.config())
        if self.tabs.currentWidget() is self.compare:
            self.compare.activate()
        self._update_buttons()
        self.redraw(force=True)

    # -- stepping and running ----------------------------------------------------------------
    def step_recorded(self) -> IterationRecord | None:
        """One iteration, recorded, shown on the tree and in the information-set panel."""
        if self.thread is None:
            return None
        self.thread.loop.pause()
        self.record = self.thread.loop.exclusive(lambda solver: solver.step_recorded())
        self.traversal.blockSignals(True)
        self.traversal.clear()
        for trace in self.record.traversals:
            who = "all players" if trace.player is None else self.document.game.player_names[trace.player]
            self.traversal.addItem(f"traversal: {who}")
        self.traversal.setVisible(self.traversal.count() > 1)
        self.traversal.setCurrentIndex(self._traversal_of(self.infoset))
        self.traversal.blockSignals(False)
        self._show_record()
        self._update_buttons()
        return self.record

    def _show_record(self) -> None:
        if self.record is None:
            return
        average = self.solver.average_strategy()
        self.view.strategies = (self.record.strategy_after, average)
        self.view.show_record(self.record, max(0, self.traversal.currentIndex()))
        self._show_infoset()
        self.redraw(force=True)

    def step(self, iterations: int) -> None:
        if self.thread is not None:
            self.record = None
            self.view.show_record(None)  # the numbers of the recorded iteration go stale
            self.thread.loop.step(iterations)

    def toggle_run(self) -> None:
        if self.tabs.currentWidget() is self.compare:
            self.compare.toggle_run()
            return
        if self.thread is None:
            return
        loop = self.thread.loop
        if loop.running:
            loop.pause()
        else:
            self.record = None
            self.view.show_record(None)  # the numbers of the recorded iteration go stale
            loop.run()
        self._update_buttons()

    def redraw(self, force: bool = False) -> None:
        """Strategy bars, plots and the status from the newest snapshot (the timer's slot)."""
        if self.tabs.currentWidget() is self.compare:
            self.compare.redraw()
            self.status.setText(self.compare.summary())
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
        now = time.perf_counter()
        # a big expanded tree takes long to repaint: its bars update less often (0.1 s per
        # 500 nodes drawn), so the window stays usable while CFR runs
        due = self._bars_drawn + REDRAW_MS / 1000 * max(1, len(self.view.node_items) / 500)
        if self.record is None and (force or now >= due):
            self.view.show_strategies(snapshot.current_strategy, snapshot.average_strategy)
            self._show_infoset()
            self._bars_drawn = now
        if self.side_tabs.currentWidget() is self.average_table:
            self.average_table.set_strategy(self.document.game, self.solver.tree, snapshot.average_strategy)
        # only the columns drawn: a Leduc trace has one per move (2,191), copied 10 times a second
        first = int(self.solver.tree.infoset_first_slot[self.infoset])
        moves = [f"avg[{first + k}]" for k in range(len(self.strategy_curves))]
        names = ("exploitability", *(name for name in moves if name in loop.trace.names))
        iterations, columns = loop.trace_columns(names)
        x = iterations.astype(np.float64)
        if x.size:
            gap = columns["exploitability"]
            keep = np.isfinite(gap) & (gap > 0)
            self.gap_curve.setData(x[keep], gap[keep])
            decades = max(1, math.ceil(math.log10(max(float(x[-1]), 10.0)) - 1e-9))
            for plot in (self.gap_plot, self.strategy_plot):  # whole decades of iterations
                plot.setXRange(0, decades, padding=0.02)
            for name, curve in zip(moves, self.strategy_curves, strict=True):
                if name in columns:
                    curve.setData(x, columns[name])
        metrics = snapshot.metrics
        self.status.setText(
            f"iteration {snapshot.iteration:,}   exploitability {metrics.exploitability:.4g}   "
            f"value of {self.document.game.player_names[0]} {metrics.value[0]:.4g}"
            + (f"   {loop.iterations_per_second:,.0f} it/s" if loop.running else "")
        )

    # -- information sets ----------------------------------------------------------------------
    def choose_infoset(self, infoset: int) -> None:
        """Show information set ``infoset`` in the panel; with alternating updates the tree
        shows the traversal of its player, the one its numbers come from."""
        self.infoset = infoset
        self._strategy_curves()
        if self.record is not None and self._traversal_of(infoset) != self.traversal.currentIndex():
            self.traversal.setCurrentIndex(self._traversal_of(infoset))  # redraws through _show_record
        self._show_infoset()
        self._seen_version = -1

    def _traversal_of(self, infoset: int) -> int:
        """The traversal of the last record in which ``infoset``'s player updated."""
        assert self.record is not None
        player = int(self.solver.tree.infoset_player[infoset])
        return next(k for k, t in enumerate(self.record.traversals) if t.player in (None, player))

    def _strategy_curves(self) -> None:
        tree = self.solver.tree
        self.strategy_plot.clear()
        self.strategy_legend.clear()
        first, size = int(tree.infoset_first_slot[self.infoset]), int(tree.infoset_size[self.infoset])
        style_plot(self.strategy_plot, f"average strategy at {tree.infoset_label[self.infoset]}")
        self.strategy_curves = [
            self.strategy_plot.plot(
                pen=pg.mkPen(ACTION_COLOURS[k % len(ACTION_COLOURS)], width=2), name=tree.slot_move[first + k]
            )
            for k in range(size)
        ]

    def _show_infoset(self) -> None:
        solver = self.solver
        state = {"strategy": solver.strategy, "regret": solver.regret, "average": solver.average_strategy()}
        self.detail.display(self.document.game, solver.tree, self.infoset, state, self.record)

    def _node_selected(self, h: int) -> None:
        infoset = int(self.solver.tree.node_infoset[h])
        if infoset >= 0:
            self.infosets.choose(infoset)

    # -- the traversal animation ----------------------------------------------------------------
    def animate(self) -> None:
        """Highlight the recorded traversal's nodes one by one (Step 1 first if none)."""
        if self.record is None and self.step_recorded() is None:
            return
        self._animation = [int(h) for h in self.record.order]
        self.animation_timer.start(ANIMATION_SPEEDS[self.animation_speed.currentText()])

    def _animation_tick(self) -> None:
        if not self._animation or self.record is None:
            self.animation_timer.stop()
            self.view.highlight(None)
            return
        h = self._animation.pop(0)
        self.view.highlight(h)
        tree = self.solver.tree
        trace = self.record.traversals[max(0, self.traversal.currentIndex())]
        reach = trace.reach[:, h]
        parts = [f"visiting {' > '.join(self.view.path(h)) or 'the root'}"]
        parts.append(
            "reach "
            + ", ".join(
                f"{name} {format_probability(float(r))}"
                for name, r in zip((*self.document.game.player_names, "chance"), reach, strict=True)
            )
        )
        parts.append("values " + ", ".join(f"{v:.3g}" for v in trace.values[:, h]))
        if tree.node_infoset[h] >= 0:
            self.infosets.choose(int(tree.node_infoset[h]))
        self.status.setText("   ".join(parts))

    # -- editing ---------------------------------------------------------------------------------
    def ask_text(self, title: str, label: str, text: str = "") -> str | None:
        """Ask for a line of text (tests replace this method)."""
        value, ok = QInputDialog.getText(self, title, label, text=text)
        return value if ok else None

    def edit(self, change: Callable[[], object]) -> bool:
        """Apply a tree edit. A refused one (the game model's message: probabilities that do
        not sum to 1, a broken perfect recall, ...) is shown above the tree and changes
        nothing; the message stays until an edit succeeds."""
        try:
            change()
        except (RmvizError, ValueError) as error:
            self.problem.setText(f"Edit refused: {error}")
            self.problem.show()
            return False
        self.problem.hide()
        return True

    def _node_menu(self, point: object) -> None:
        item = self.view.itemAt(point)  # type: ignore[arg-type]
        if item is None or item.data(0) is None:
            return
        h = int(item.data(0))
        history = self.view.path(h)
        tree, doc = self.solver.tree, self.document
        menu = QMenu(self)
        kind = int(tree.kind[h])
        if kind in (0, 1):
            menu.addAction(
                "Add move...", lambda: self._ask(lambda m: doc.add_move(history, m), "Add move", "Move:")
            )
            moves = doc.node(history).moves
            remove = menu.addMenu("Remove move")
            rename = menu.addMenu("Rename move")
            for move in moves:
                remove.addAction(move, lambda m=move: self.edit(lambda: doc.remove_move(history, m)))
                rename.addAction(
                    move,
                    lambda m=move: self._ask(
                        lambda new: doc.rename_move(history, m, new), "Rename move", f"{m} ->", m
                    ),
                )
        if kind == 0:
            current = ", ".join(f"{p:g}" for p in doc.node(history).probabilities)
            menu.addAction(
                "Set probabilities...",
                lambda: self._ask(
                    lambda text: doc.set_probabilities(history, _numbers(text)),
                    "Chance",
                    "Probabilities:",
                    current,
                ),
            )
        if kind == 1:
            player, label = int(tree.player[h]), tree.infoset_label[int(tree.node_infoset[h])]
            menu.addAction(
                "Rename information set...",
                lambda: self._ask(
                    lambda new: doc.rename_infoset(player, label, new),
                    "Information set",
                    f"{label} ->",
                    label,
                ),
            )
            menu.addAction(
                "Information set...",
                lambda: self._ask(
                    lambda label: doc.set_infoset(history, label),
                    "Information set",
                    "Label (an existing one joins it):",
                    tree.infoset_label[int(tree.node_infoset[h])],
                ),
            )
        if kind == 2:
            current = ", ".join(f"{u:g}" for u in doc.node(history).payoffs)
            menu.addAction(
                "Set payoffs...",
                lambda: self._ask(
                    lambda text: doc.set_payoffs(history, _numbers(text)), "Payoffs", "Payoffs:", current
                ),
            )
            for player, name in enumerate(self.document.game.player_names):
                menu.addAction(
                    f"Make decision node of {name}",
                    lambda p=player: self.edit(lambda: doc.make_decision(history, p, f"new{p + 1}")),
                )
            menu.addAction("Make chance node", lambda: self.edit(lambda: doc.make_chance(history)))
        elif history:
            menu.addAction(
                "Make terminal (drop the subtree)", lambda: self.edit(lambda: doc.make_terminal(history))
            )
        menu.addAction(
            "Node label...",
            lambda: self._ask(
                lambda text: doc.set_label(history, text), "Node label", "Label:", doc.node(history).label
            ),
        )
        menu.addSeparator()
        menu.addAction("Collapse / expand", lambda: self.view.toggle(h))
        menu.exec(self.view.mapToGlobal(point))  # type: ignore[arg-type]

    def _ask(self, apply: object, title: str, label: str, text: str = "") -> None:
        answer = self.ask_text(title, label, text)
        if answer is not None:
            self.edit(lambda: apply(answer))  # type: ignore[operator]

    def show_reduced_form(self) -> object | None:
        """The tree's reduced strategic form in a read-only matrix window, solving with the
        normal-form algorithms (RM there against CFR here)."""
        from rmviz.ui.main_window import MainWindow  # the matrix window opens tree windows too

        try:
            game = reduced_strategic_form(self.document.game)
        except RmvizError as error:
            self.show_error(str(error))
            return None
        window = MainWindow(game, read_only=True)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.matrix_windows.append(window)
        window.show()
        return window

    # -- files and export --------------------------------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        try:
            game = read_game_file(path)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        if not isinstance(game, ExtensiveFormGame):
            self.show_error(f"{path}: a matrix game; open it in the main window")
            return False
        self.document.replace_game(game, f"Open {Path(path).name}")
        self.document.mark_saved(Path(path))
        return True

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open game tree", "", TREE_FILTER)
        if path:
            self.open_file(path)

    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Save game tree", str(self.document.path or ""), TREE_FILTER
        )
        if path:
            self.save_file(path)

    def export_tree(self, path: str | Path, dpi: int = 96) -> bool:
        """The whole tree with the numbers shown now, as PNG, SVG or PDF."""
        return self.attempt(lambda: export_scene(self.view.scene(), path, dpi, self.document.game.title))

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export tree", "tree.svg", "SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"
        )
        if path:
            self.export_tree(path, 192 if path.lower().endswith(".png") else 96)

    # -- people -------------------------------------------------------------------------------------
    def closeEvent(self, event: object) -> None:
        if self.document.modified and not self.confirm_discard():
            event.ignore()  # type: ignore[attr-defined]
            return
        self.shutdown()
        event.accept()  # type: ignore[attr-defined]

    def shutdown(self) -> None:
        self.timer.stop()
        self.animation_timer.stop()
        self.compare.stop()
        self._stop_thread()
        for window in self.matrix_windows:
            window.shutdown()


def _numbers(text: str) -> list[float]:
    """``"1/2, 0.25, 1/4"`` -> floats; a :class:`ValueError` names the bad entry."""
    values = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        try:
            if "/" in part:
                top, bottom = part.split("/")
                values.append(float(top) / float(bottom))
            else:
                values.append(float(part))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{part!r} is not a number") from None
    return values
