"""The game-tree window: draw and edit a tree, step CFR one iteration at a time, run it.

A :class:`~rmviz.ui.common.run_window.RunWindow` of the game-tree family, composed of:

* centre, the *Tree* tab: the :class:`~rmviz.ui.tree.editor.TreeEditor` (the
  :class:`~rmviz.ui.tree.view.TreeView` with reach as edge width, node values and strategy
  bars; right-click a node to edit it, Ctrl+Z undoes), beside *Compare algorithms*;
* left: the solver panel and the information sets, filtered by player and searched by
  label; right: the chosen one's regrets and strategies before and after the last recorded
  iteration with the CFR lecture's formulas filled in, or every information set's average
  strategy (:mod:`~rmviz.ui.tree.infoset_panel`);
* below: the :class:`~rmviz.ui.tree.plots.TreePlots` (exploitability, the chosen information
  set's average strategy over iterations, with a zero-sum tree's LP equilibrium dashed:
  :mod:`~rmviz.ui.tree.reference`, whose value the status line shows).

*Step 1* runs one recorded iteration (``CFRSolver.step_recorded``, on the GUI thread while
the worker is not stepping) and shows it; *Animate* then walks the traversal node by node in
the order a recursive CFR visits them; *Run* continues at full speed in the worker thread.
Everything shown of the solver's state comes from the newest snapshot or the iteration
record, never from the solver's arrays, which the compiled kernel mutates without the GIL.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rmviz.document import TreeDocument
from rmviz.errors import RmvizError
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.reduced import reduced_strategic_form
from rmviz.numbers import format_number
from rmviz.present.tree_labels import no_such_infoset
from rmviz.present.tree_layout import format_probability, opening_infoset
from rmviz.runner.loop import RunLoop
from rmviz.runner.session import View
from rmviz.runner.trace import SavedRun
from rmviz.solvers.columns import Column
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.family import FAMILY
from rmviz.solvers.tree.sequence_lp import TreeZeroSumSolution
from rmviz.solvers.tree.solver import CFRSolver, IterationRecord, TreeSnapshot
from rmviz.ui.common.deck_files import save_deck_dialog
from rmviz.ui.common.opener import Opener
from rmviz.ui.common.run_window import RunWindow, StartOptions
from rmviz.ui.common.session_files import SESSION_FILTER
from rmviz.ui.tree.editor import TreeEditor
from rmviz.ui.tree.infoset_panel import InfosetDetail, InfosetList, StrategyTable
from rmviz.ui.tree.plots import TreePlots
from rmviz.ui.tree.reference import TreeReference
from rmviz.ui.tree.view_state import show_tree, tree_shown

TREE_FILTER = ";;".join(
    (
        "Game trees and sessions (*.efg *.json)",
        "Gambit extensive form (*.efg)",
        "rmviz JSON (*.json)",
        SESSION_FILTER,
    )
)
SIDE_TABS = ("infoset", "average")  # the side panel's tabs, by the names sessions give them
ANIMATION_SPEEDS = {"slow": 600, "normal": 250, "fast": 60}
# presentation mode: the tree and the panel above, the plots below, in this proportion (the
# plots' axes keep their 0, 0.5, 1 and decade labels at 1024x768 and 1280x720)
PRESENTATION_BODY = [64, 36]
# the information-set list, the tree and the side tabs, in proportion up to their sum; a wider
# window gives the rest to the tree (Kuhn's tree had 916 px at 1920x1080, the side tabs 614)
CENTRE = (280, 720, 480)
LEVEL_MOVE = 1e-3  # a dashed level redrawn when the nearest equilibrium moves it this much


def centre_sizes(width: int) -> list[int]:
    """The centre's split at ``width`` pixels: :data:`CENTRE`, which Qt scales to a narrower
    width (within the panels' minimum sizes); beyond its sum, the tree takes the rest."""
    extra = max(0, width - sum(CENTRE))
    return [CENTRE[0], CENTRE[1] + extra, CENTRE[2]]


class CompareRoom:
    """The *Compare algorithms* tab takes the information-set panel's (``side``) and the bottom
    plots' room, which show the window's own run (its three plots were ~120 pixels wide at
    1280x720, their x axes down to one label), and gives it back on the *Tree* tab: the
    ``centre`` splitter's (left, tabs, side) sizes, the side's share the tabs' while hidden."""

    def __init__(self, centre: QSplitter, side: QWidget, plots: QWidget) -> None:
        self.centre, self.side, self.plots = centre, side, plots
        self.tree_sizes = list(CENTRE)  # the centre's sizes on the Tree tab

    def show_tree(self, shown: bool) -> None:
        """The side panel and the plots shown (the Tree tab) or hidden (comparing)."""
        if shown != self.side.isHidden():
            return
        if not shown:  # the room goes to the tabs, not to the solver panel beside them
            self.tree_sizes = self.centre.sizes()
        self.side.setVisible(shown)
        self.plots.setVisible(shown)
        self.set_sizes(self.tree_sizes)

    def set_sizes(self, sizes: list[int]) -> None:
        """The centre at the Tree tab's ``sizes``, folded while the side is hidden."""
        self.tree_sizes = sizes
        self.centre.setSizes([sizes[0], sizes[1] + sizes[2], 0] if self.side.isHidden() else sizes)


class TreeWindow(RunWindow):
    """A window on one game tree (``read_only``: the tree cannot be edited; unsaved edits are
    autosaved in ``autosave_folder``, by default the user's)."""

    FILE_KIND = "game tree"
    FILE_FILTER = TREE_FILTER
    RECORDS_STEPS = True

    redraw_ms = 100  # the tree is redrawn whole: 10 times a second is plenty while running

    def __init__(
        self,
        game: ExtensiveFormGame,
        path: Path | None = None,
        *,
        opener: Opener | None = None,
        read_only: bool = False,
        autosave_folder: Path | None = None,
    ) -> None:
        super().__init__(FAMILY, opener, read_only, autosave_folder)
        self._adopt(TreeDocument(game, path))
        self._shown_game: ExtensiveFormGame | None = None  # the game of the run shown
        self.document.subscribe(lambda _d: self._game_changed())
        self.tree: CompiledTree | None = None  # the run's compiled tree (immutable)
        self.config: CFRConfig | None = None  # the run's configuration (immutable)
        self._traced: frozenset[Column] = frozenset()  # the run's trace columns
        self.record: IterationRecord | None = None
        self.infoset = 0
        self._bars_drawn = 0.0
        self._animation: list[int] = []

        self.editor = TreeEditor(self.document)
        self.editor.set_read_only(read_only)
        self.view = self.editor.view
        self.view.node_selected.connect(self._node_selected)
        self.infosets = InfosetList()
        self.infosets.chosen.connect(self.choose_infoset)
        self.detail = InfosetDetail()
        self.average_table = StrategyTable()
        self.side_tabs = QTabWidget()
        self.side_tabs.addTab(self.detail, "Information set")
        self.side_tabs.addTab(self.average_table, "Average strategy")
        self.side_tabs.currentChanged.connect(lambda _k: self.run.redraw(force=True))

        self.controls.step_one_button.setToolTip("one recorded iteration, shown on the tree and in the panel")
        self.animate_button = QPushButton("Animate")
        self.animate_button.setToolTip("walk the last recorded traversal node by node")
        self.animate_button.clicked.connect(self.animate)
        self.animation_speed = QComboBox()
        self.animation_speed.addItems(list(ANIMATION_SPEEDS))
        self.animation_speed.setCurrentText("normal")
        self.traversal = QComboBox()
        self.traversal.setToolTip("which traversal of the iteration the tree shows (alternating updates)")
        self.traversal.currentIndexChanged.connect(self._show_record)
        self.controls.add(self.animate_button, self.animation_speed, self.traversal)
        self.controls.row.addStretch()
        self.plots = TreePlots()
        self.reference = TreeReference(self, self._reference_ready)
        paused = lambda: self.run.thread is not None and not self.run.thread.loop.running  # noqa: E731
        self.run.waits.append(lambda: paused() and self.reference.pending())  # its own average's levels

        left = self.left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.panel)
        left_layout.addWidget(self.infosets, stretch=1)
        self._add_tabs(self.editor, "Tree")
        centre = self.centre = QSplitter()
        centre.addWidget(left)
        centre.addWidget(self.tabs)
        centre.addWidget(self.side_tabs)
        centre.setSizes(list(CENTRE))
        self.room = CompareRoom(centre, self.side_tabs, self.plots)  # before the filter reads it
        centre.installEventFilter(self)
        centre.splitterMoved.connect(lambda *_: setattr(self, "_split_chosen", True))
        self._split_chosen = False  # the person moved the centre's handles: theirs kept
        body = self.body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(centre)
        body.addWidget(self.plots)
        body.setSizes([620, 220])
        body.installEventFilter(self)
        main = QWidget()
        layout = QVBoxLayout(main)
        layout.addWidget(self.controls)
        layout.addWidget(body, stretch=1)
        self.setCentralWidget(main)
        self.tabs.currentChanged.connect(lambda _k: self.room.show_tree(not self.run.comparing()))
        self.status = QLabel()
        self.status_line.add(self.status, stretch=1)
        self._menus()
        self.run.timer.start(self.redraw_ms)
        self.animation_timer = QTimer(self)
        self.animation_timer.timeout.connect(self._animation_tick)
        self._game_changed()
        self.presentation.fit_to_screen(QSize(1480, 900))

    def start(self, options: StartOptions) -> None:
        """Choose ``options.infoset`` (an unknown label is an error naming the ones there
        are), step and record ``options.steps`` iterations, run."""
        if options.infoset is not None and self.tree is not None:
            labels = list(self.tree.infoset_label)
            if options.infoset not in labels:
                raise RmvizError(no_such_infoset(options.infoset, labels))
            self.infosets.choose(labels.index(options.infoset))
        if options.steps and self.run.thread is not None:
            # the iterations before the last are stepped and traced without drawing each on
            # the tree (a rebuild of the view per step: Leduc took 35 s for 100); the last is
            # recorded and shown, as Step 1 does
            self.run.thread.loop.pause()
            for _ in range(options.steps - 1):
                self.run.thread.loop.exclusive(lambda solver: solver.step(1))
            self.step_recorded()
        if options.run:
            self.run.toggle()
        super().start(options)

    # -- menus -----------------------------------------------------------------------------
    def _menus(self) -> None:
        keys = QKeySequence.StandardKey
        file_menu = self.menuBar().addMenu("&File")
        self._action(file_menu, "&Open...", self.files.open_dialog, keys.Open)
        self._action(file_menu, "Save &As...", self.files.save_dialog, keys.SaveAs)
        file_menu.addSeparator()
        self._action(file_menu, "Open Sess&ion...", self.sessions.open_dialog)
        self._action(file_menu, "Save Sessio&n...", self.sessions.save_dialog)
        self._action(file_menu, "Save as &Deck...", lambda: save_deck_dialog(self))
        file_menu.addSeparator()
        self._action(file_menu, "Export &Figure...", self.export.figure_dialog, QKeySequence("Ctrl+E"))
        self._action(file_menu, "Export Run &Data...", self.export.data_dialog, QKeySequence("Ctrl+Shift+E"))
        file_menu.addSeparator()
        self._action(file_menu, "&Close", self.close, keys.Close)
        edit = self.menuBar().addMenu("&Edit")
        self.undo_action = self._action(edit, "&Undo", self.document.undo, keys.Undo)
        self.redo_action = self._action(edit, "&Redo", self.document.redo, QKeySequence("Ctrl+Shift+Z"))
        run = self.menuBar().addMenu("&Run")
        self._action(run, "Run / Pause", self.run.toggle, QKeySequence(Qt.Key.Key_Space))
        self._action(run, "Step 1 (recorded)", self.step_recorded, QKeySequence("Ctrl+1"))
        self._action(run, "Animate traversal", self.animate, QKeySequence("Ctrl+A"))
        self._action(run, "Reset", self.run.reset, QKeySequence("Ctrl+R"))
        game_menu = self.menuBar().addMenu("&Game")
        self._action(game_menu, "Reduced &strategic form (matrix window)", self.show_reduced_form)
        self._action(game_menu, "&OpenSpiel game...", self.files.openspiel_dialog)
        view = self.menuBar().addMenu("&View")
        # F in the tree; Ctrl+0 is the normal text size
        self._action(view, "&Whole tree / legible size (F)", self.view.toggle_whole)
        self.last_action = self._action(view, "&Last iterate's exploitability too", self._toggle_last)
        self.last_action.setCheckable(True)
        self.last_action.setToolTip(
            "Measure the current strategy's exploitability beside the average's (a second "
            "best-response pass at every trace point: it nearly doubles the metrics' cost)"
        )
        self.presentation.add_menu(view)

    def keep_last_iterate(self, on: bool | None) -> None:
        super().keep_last_iterate(on)
        shown = bool(on)  # a tree's default is off
        self.plots.set_last(shown)
        blocked = self.last_action.blockSignals(True)
        self.last_action.setChecked(shown)
        self.last_action.blockSignals(blocked)

    def _toggle_last(self, on: bool) -> None:
        """Draw the last iterate's curves: a fresh run whose solver tracks it."""
        self.plots.set_last(on)
        self.set_last_iterate(on)

    # -- the game ----------------------------------------------------------------------------
    def _game_changed(self) -> None:
        """Edits restart the run; saving only updates the title (as in the matrix window: a
        save restarted the tree's run, and quitting after --screenshot re-ran Liar's Dice)."""
        game = self.document.game
        self.setWindowTitle(f"rmviz - {game.title}{' *' if self.document.modified else ''}")
        self.undo_action.setEnabled(self.document.can_undo())
        self.redo_action.setEnabled(self.document.can_redo())
        if game is not self._shown_game:
            self._shown_game = game
            self.run.restart()

    def run_started(self, solver: CFRSolver) -> None:
        """Show the fresh run's tree (paused, nothing recorded); nothing of the run it
        replaces stays: its curves, the panel's numbers and the average-strategy table go."""
        self.animation_timer.stop()
        self.record = None
        self.config = solver.config
        opening = self.tree is None
        tree = self.tree = solver.tree
        self._traced = frozenset(solver.columns)
        self.view.set_game(self.document.game, tree)
        self.infosets.set_game(self.document.game, tree)
        self.infoset = min(self.infoset, tree.n_infosets - 1)
        if opening:  # a set the root shows beside (sessions and --infoset choose after this)
            self.infoset = opening_infoset(tree, self.view.place)
        self.traversal.blockSignals(True)
        self.traversal.clear()
        self.traversal.setVisible(False)
        self.traversal.blockSignals(False)
        self.plots.clear_curves()
        self.detail.clear()
        self.average_table.clear()
        self.infosets.choose(self.infoset)
        if self.reference.game is not self.document.game:
            self.plots.reference = None  # another game's: its own follows (_reference_ready)
        self.reference.start(self.document.game, tree)
        self.plots.set_infoset(tree, self.infoset, self._traced, self.document.game.player_names)
        self.run.redraw(force=True)

    def _reference_ready(self, solution: TreeZeroSumSolution | None) -> None:
        """The LP's equilibrium on the information set's plot, its value in the status line;
        the plot is rebuilt only when a level moves by :data:`LEVEL_MOVE` or more."""
        drawn = self.plots.reference
        strategy = None if solution is None else solution.strategy
        if strategy is not None and drawn is not None and drawn.shape == strategy.shape:
            if np.max(np.abs(strategy - drawn), initial=0.0) < LEVEL_MOVE:
                return
        self.plots.set_reference(strategy)
        self.run.seen_version = -1  # the rebuilt plot's curves, at the next tick
        self.run.redraw(force=True)

    # -- stepping and running ----------------------------------------------------------------
    def step_one(self) -> None:
        self.step_recorded()

    def step_recorded(self) -> IterationRecord | None:
        """One iteration, recorded, shown on the tree and in the information-set panel."""
        if self.run.thread is None:
            return None
        self.sessions.cancel_catch_up()
        self.run.thread.loop.pause()
        loop = self.run.thread.loop

        def recorded(solver: CFRSolver) -> tuple[SavedRun, IterationRecord]:
            before = SavedRun(solver.checkpoint(), *loop.trace.kept())  # a session's run
            return before, solver.step_recorded()

        try:
            self.recorded_from, self.record = loop.exclusive(recorded)
        except RmvizError as error:  # a solver with no CFR record to show (EFR)
            self.show_error(str(error))
            return None
        self.traversal.blockSignals(True)
        self.traversal.clear()
        for trace in self.record.traversals:
            who = "all players" if trace.player is None else self.document.game.player_names[trace.player]
            self.traversal.addItem(f"traversal: {who}")
        self.traversal.setVisible(self.traversal.count() > 1)
        self.traversal.setCurrentIndex(self._traversal_of(self.infoset))
        self.traversal.blockSignals(False)
        self._show_record()
        self.run.update_buttons()
        return self.record

    def _snapshot(self) -> TreeSnapshot | None:
        """The newest snapshot (after a recorded step: the state that step left)."""
        return self.run.thread.loop.latest()[1] if self.run.thread is not None else None

    def _show_record(self) -> None:
        snapshot = self._snapshot()
        if self.record is None or snapshot is None:
            return
        self.view.strategies = (self.record.strategy_after, snapshot.average_strategy)
        self.view.show_record(self.record, max(0, self.traversal.currentIndex()))
        self._show_infoset(snapshot)
        self.run.redraw(force=True)

    def before_stepping(self) -> None:
        """The numbers of the recorded iteration go stale."""
        self.record = None
        self.view.show_record(None)

    def draw(self, loop: RunLoop, snapshot: TreeSnapshot, force: bool) -> Iterator[None]:
        """Strategy bars, the information-set panel, plots and the status; the bars and the
        plots in parts of their own (:meth:`RunWindow.draw`)."""
        assert self.tree is not None
        now = time.perf_counter()
        # a big expanded tree takes long to repaint: its bars update less often (0.1 s per
        # 500 nodes drawn), so the window stays usable while CFR runs
        due = self._bars_drawn + self.redraw_ms / 1000 * max(1, len(self.view.node_items) / 500)
        if self.record is None and (force or now >= due):
            self.view.show_strategies(snapshot.current_strategy, snapshot.average_strategy)
            self._show_infoset(snapshot)
            self._bars_drawn = now
            yield
        elif self.record is None:
            self.run.seen_version = -1  # not due yet: this snapshot's bars on a later tick
        if self.side_tabs.currentWidget() is self.average_table:
            self.average_table.set_strategy(self.document.game, self.tree, snapshot.average_strategy)
        if self.run.choices.due(loop.running, force):
            self.plots.choose(loop.trace_data(self.plots.chosen_from(), newest=True).columns)
        trace = loop.trace_data(self.plots.columns(), at=snapshot)  # one moment, the status's
        self.plots.update_from(trace.iterations, trace.columns)
        self.reference.follow(self.document.game, self.tree, snapshot.average_strategy)
        if self.animation_timer.isActive():
            return  # the status line tells where the animation is
        metrics = snapshot.metrics
        assert metrics is not None
        self.status.setText(
            f"iteration {snapshot.iteration:,}   "
            f"exploitability {format_number(metrics.exploitability, '.4g')}   "
            f"value of {self.document.game.player_names[0]} {format_number(metrics.value[0], '.4g')}"
            + self.reference.value_text(self.document.game)
            + (f"   {loop.iterations_per_second:,.0f} it/s" if loop.running else "   paused")
        )

    def show_compare_status(self) -> None:
        self.status.setText(self.compare.summary())

    # -- information sets ----------------------------------------------------------------------
    def choose_infoset(self, infoset: int) -> None:
        """Show information set ``infoset`` in the panel; with alternating updates the tree
        shows the traversal of its player, the one its numbers come from."""
        assert self.tree is not None
        self.infoset = infoset
        self.view.show_infoset(infoset)  # a tree larger than the view scrolls to it
        self.plots.set_infoset(self.tree, infoset, self._traced, self.document.game.player_names)
        if self.record is not None and self._traversal_of(infoset) != self.traversal.currentIndex():
            self.traversal.setCurrentIndex(self._traversal_of(infoset))  # redraws through _show_record
        self._show_infoset(self._snapshot())
        self.run.seen_version = -1
        self.run.choices.expire()  # the set's moves drawn chosen at the next redraw

    def _traversal_of(self, infoset: int) -> int:
        """The traversal of the last record in which ``infoset``'s player updated."""
        assert self.record is not None and self.tree is not None
        player = int(self.tree.infoset_player[infoset])
        return next(k for k, t in enumerate(self.record.traversals) if t.player in (None, player))

    def _show_infoset(self, snapshot: TreeSnapshot | None) -> None:
        if snapshot is not None and self.tree is not None and self.config is not None:
            self.detail.display(
                self.document.game, self.tree, self.config, self.infoset, snapshot, self.record
            )

    def _node_selected(self, h: int) -> None:
        assert self.tree is not None
        infoset = int(self.tree.node_infoset[h])
        if infoset >= 0:
            self.infosets.choose(infoset)

    # -- the traversal animation ----------------------------------------------------------------
    def animate(self) -> None:
        """Highlight the recorded traversal's nodes one by one (Step 1 first if none)."""
        if self.record is None and self.step_recorded() is None:
            return
        assert self.record is not None
        self._animation = [int(h) for h in self.record.order]
        self.animation_timer.start(ANIMATION_SPEEDS[self.animation_speed.currentText()])

    def _animation_tick(self) -> None:
        if not self._animation or self.record is None or self.tree is None:
            self.animation_timer.stop()
            self.view.highlight(None)
            return
        h = self._animation.pop(0)
        self.view.highlight(h)
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
        parts.append("values " + ", ".join(format_number(v, ".3g") for v in trace.values[:, h]))
        if self.tree.node_infoset[h] >= 0:
            self.infosets.choose(int(self.tree.node_infoset[h]))
        self.status.setText("   ".join(parts))

    # -- sessions --------------------------------------------------------------------------------
    def view_state(self) -> View:
        """The tab, presentation mode, text size, the information set shown, the side panel's
        tab, whether the last iteration was recorded (*Step 1*) and the tree's view."""
        infoset = None
        if self.tree is not None and 0 <= self.infoset < self.tree.n_infosets:
            infoset = str(self.tree.infoset_label[self.infoset])
        side = SIDE_TABS[self.side_tabs.currentIndex()] if self.side_tabs.currentIndex() >= 0 else None
        return dataclasses.replace(
            super().view_state(),
            infoset=infoset,
            side_tab=side,
            recorded=self.record is not None,
            tree_view=tree_shown(self.view) if self.tree is not None else None,
        )

    def apply_view(self, view: View) -> list[str]:
        """The tab, presentation and text size, then the information set (by its label; one
        this tree lacks is said, and the first shown), the side panel's tab and the tree's
        view (:mod:`.view_state`)."""
        notes = super().apply_view(view)
        if view.infoset is not None and self.tree is not None:
            labels = list(self.tree.infoset_label)
            if view.infoset in labels:
                self.infosets.choose(labels.index(view.infoset))
            else:
                shown = labels[self.infoset]
                notes.append(f"the tree has no information set {view.infoset!r}: showing {shown!r}")
        if view.side_tab in SIDE_TABS:
            self.side_tabs.setCurrentIndex(SIDE_TABS.index(view.side_tab))
        if view.tree_view is not None and self.tree is not None:
            show_tree(self.view, view.tree_view)
        return notes

    # -- presentation ----------------------------------------------------------------------------
    def show_presentation(self, on: bool) -> None:
        """The solver panel and the information-set list hide (click a node to choose an
        information set); the run controls, the tree, the explanation (given more room) and
        the plots stay."""
        if on:
            self._normal_sizes = self.centre.sizes(), self.body.sizes()
            self.centre.setSizes([0, 560, 720])
            self._present_body()
        self.left.setVisible(not on)
        if not on:
            self.centre.setSizes(self._normal_sizes[0])
            self.body.setSizes(self._normal_sizes[1])

    def _present_body(self) -> None:
        """Presentation mode's split between the tree and the plots (:data:`PRESENTATION_BODY`),
        again whenever the window's size changes (going full screen, ``--size``)."""
        total = sum(self.body.sizes())
        top = round(total * PRESENTATION_BODY[0] / sum(PRESENTATION_BODY))
        self.body.setSizes([top, total - top])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.body and event.type() == QEvent.Type.Resize and self.presentation.on:
            self._present_body()
        if (
            watched is self.centre
            and event.type() == QEvent.Type.Resize
            and not (self.presentation.on or self._split_chosen)
        ):
            handles = (self.centre.count() - 1) * self.centre.handleWidth()
            self.room.set_sizes(centre_sizes(event.size().width() - handles))
        return super().eventFilter(watched, event)

    def set_plot_scale(self, scale: float) -> None:
        """The plots at ``scale``, the tree's labels at the widgets' text size."""
        self.plots.set_scale(scale)
        self.view.set_text_scale(self.presentation.text_scale())
        super().set_plot_scale(scale)

    # -- other windows -------------------------------------------------------------------------
    def show_reduced_form(self) -> QMainWindow | None:
        """The tree's reduced strategic form in a read-only matrix window, solving with the
        normal-form algorithms (RM there against CFR here)."""
        try:
            game = reduced_strategic_form(self.document.game)
        except RmvizError as error:
            self.show_error(str(error))
            return None
        return self.open_elsewhere(game, read_only=True)

    # -- files --------------------------------------------------------------------------
    def set_game(self, game: ExtensiveFormGame, description: str, path: Path | None = None) -> None:
        """Show ``game`` (undoable); the run restarts on it. ``path`` is recorded by the
        caller's ``mark_saved``."""
        self.document.replace_game(game, description)

    def shutdown(self) -> None:
        """Stop the timers and the solver threads (idempotent)."""
        self.animation_timer.stop()
        self.reference.shutdown()
        super().shutdown()
