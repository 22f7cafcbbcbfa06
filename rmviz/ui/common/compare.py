"""Compare mode: several algorithms of one game family on the same game at once, their
curves overlaid.

Each checked preset gets its own solver and worker thread (the numba kernels release the
GIL, so they run side by side); the plots put every algorithm's gaps on shared log-log axes,
one colour per algorithm, against iterations (not time), so the comparison is per iteration
whatever each one costs. What is compared comes from the
:class:`~rmviz.solvers.family.Family`: its presets (``compare_default`` checked at first),
the metrics it plots (``compared``: exploitability, CCE gap and CE gap for matrix games,
exploitability for trees) and how each solver is built from the panel's configuration
(``compare_solver``: the choices it carries, such as play mode, schedule and seed; a preset
that needs its own update schedule keeps it).
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from rmviz.errors import RmvizError
from rmviz.present.panels import LAST_KEY, Tables, compare_panels, compared_last, untracked_lines, values
from rmviz.runner.trace import SavedRun, TraceData
from rmviz.runner.worker import SolverThread
from rmviz.solvers.checkpoint import NotCapturable
from rmviz.solvers.columns import Column
from rmviz.solvers.family import Family
from rmviz.ui.common.panel_plot import PanelPlot
from rmviz.ui.common.plot_layout import PlotLayout


class CompareView(QWidget):
    """Algorithms to check on the left, overlaid gap plots on the right."""

    error = Signal(str)

    def __init__(self, family: Family, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.family = family
        self.metrics = {Column(metric): title for metric, title in family.compared.items()}
        # and the last iterate's, where the family publishes it (NaN where a run does not track it)
        self.metrics |= {Column(f"last_{m}"): family.compared[m] for m in compared_last(family)}
        self.game: Any = None
        self.base: Any = None
        self.threads: dict[str, SolverThread] = {}
        self.saved: dict[str, SavedRun] = {}  # a session's runs, put back when next built
        self.last_iterate: bool | None = None  # whether the solvers track it (None: their default)
        self.running = False
        self.stale = True  # solvers not built for the current game and settings yet
        self.algorithms = QListWidget()
        for name in family.presets:
            item = QListWidgetItem(name)
            item.setToolTip(family.describe(family.preset(name)))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            checked = name in family.compare_default
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
            self.algorithms.addItem(item)
        self.algorithms.itemChanged.connect(lambda _item: self.restart())
        # as wide as its longest name at the window's text size ("greedy-internal-rm" was cut
        # at a fixed 190 pixels in presentation mode, under a horizontal scroll bar)
        self.algorithms.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        self.algorithms.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.algorithms.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Expanding)
        self.run_button = QPushButton("Run all")
        self.run_button.clicked.connect(self.toggle_run)
        reset = QPushButton("Reset")
        reset.clicked.connect(self.restart)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.problems: list[str] = []  # what stopped a solver, and what a run does not track
        side = QVBoxLayout()
        side.addWidget(QLabel("Algorithms"))
        side.addWidget(self.algorithms, stretch=1)
        side.addWidget(self.run_button)
        side.addWidget(reset)
        side.addWidget(self.status)
        self.plots = PlotLayout()
        layout = QHBoxLayout(self)
        layout.addLayout(side)
        layout.addWidget(self.plots, stretch=1)
        self.panels: list[PanelPlot] = []
        self.key: list[str] = []
        self.curves: dict[tuple[Column, str], pg.PlotDataItem] = {}  # (metric, algorithm)
        self.scale = 1.0

    def checked(self) -> list[str]:
        return [
            self.algorithms.item(k).text()
            for k in range(self.algorithms.count())
            if self.algorithms.item(k).checkState() == Qt.CheckState.Checked
        ]

    def set_checked(self, names: list[str]) -> None:
        """Check ``names`` alone; their solvers start now if the view is the window's tab
        shown, else when it is next (:meth:`activate`)."""
        self.algorithms.blockSignals(True)
        for k in range(self.algorithms.count()):
            item = self.algorithms.item(k)
            item.setCheckState(Qt.CheckState.Checked if item.text() in names else Qt.CheckState.Unchecked)
        self.algorithms.blockSignals(False)
        if self.isVisibleTo(self.window()):
            self.restart()
        else:
            self.stop()
            self.stale = True

    def saved_runs(self) -> dict[str, SavedRun]:
        """The runs built for the game shown, by algorithm, for a session (one whose state
        cannot be saved, a CuPy generator's, is left out: it starts afresh)."""
        runs = {}
        for name, thread in {} if self.stale else self.threads.items():
            try:
                runs[name] = thread.loop.saved_run()
            except NotCapturable:
                continue
        return runs

    def set_game(self, game: Any, base: Any) -> None:
        """Compare on ``game`` with what the family carries from the panel's configuration
        ``base``; the solvers are built when the view is next shown (:meth:`activate`)."""
        self.stop()
        self.game, self.base = game, base
        self.saved = {}
        self.running = False
        self.stale = True
        self.run_button.setText("Run all")

    def activate(self) -> None:
        """Build the solvers if the game or settings changed since the last time."""
        if self.stale:
            self.restart()

    def set_scale(self, scale: float) -> None:
        self.scale = scale
        self._build_plots()

    def restart(self) -> None:
        """Fresh solvers for the checked algorithms (running again if they were)."""
        self.stop()
        if self.game is None:
            return
        self.stale = False
        problems = []
        for name in self.checked():
            try:
                solver = self.family.compare_solver(self.game, name, self.base)
                if self.last_iterate is not None:
                    solver.last_iterate = self.last_iterate
                thread = SolverThread(solver)
            except RmvizError as error:
                problems.append(f"{name}: {error}")
                continue
            saved = self.saved.pop(name, None)
            if saved is not None:
                try:
                    thread.loop.restore(saved)
                except (RmvizError, ValueError) as error:
                    problems.append(f"{name}: {error}; it starts afresh")
            thread.start()
            if self.running:
                thread.loop.run()
            self.threads[name] = thread
        self.problems = problems
        self.status.setText("\n".join(problems))
        self._build_plots()
        self.run_button.setText("Pause all" if self.running else "Run all")

    def toggle_run(self) -> None:
        self.activate()
        self.running = not self.running
        for thread in self.threads.values():
            thread.loop.run() if self.running else thread.loop.pause()
        self.run_button.setText("Pause all" if self.running else "Run all")

    def pause(self) -> None:
        if self.running:
            self.toggle_run()

    def stop(self) -> None:
        for thread in self.threads.values():
            thread.shutdown()
        self.threads = {}

    def _build_plots(self) -> None:
        """One plot per compared metric (:func:`rmviz.present.panels.compare_panels`), a line
        per algorithm in its colour, as the exported compare figure draws them."""
        self.plots.clear()
        names = list(self.threads)
        tracked = any(thread.loop.solver.last_iterate for thread in self.threads.values())
        last = compared_last(self.family, tracked)
        self.panels = [
            PanelPlot(self.plots.ci, panel, 0, col, self.scale)
            for col, panel in enumerate(compare_panels(self.family.compared, names, last))
        ]
        self.curves = {}
        for plot in self.panels:
            for line, curve in plot.curves.items():
                self.curves[line.column, line.label] = curve
        self._key(last)

    def _key(self, last: tuple[str, ...]) -> None:
        """The list is the plots' key: each running algorithm's item shows its lines' colour
        (a legend in the narrow plots covered the curves and lost its labels' ends at
        1280x720); the faint last-iterate lines are named under it."""
        colours = {line.source: line.colour for line in self.panels[0].panel.lines} if self.panels else {}
        side = round(12 * self.scale)
        self.algorithms.blockSignals(True)  # an icon is no change of what is checked
        for k in range(self.algorithms.count()):
            item = self.algorithms.item(k)
            swatch = QPixmap(side, side)  # transparent where not running: the names align
            swatch.fill(QColor(colours.get(item.text(), Qt.GlobalColor.transparent)))
            item.setIcon(QIcon(swatch))
        self.algorithms.blockSignals(False)
        self.key = [LAST_KEY.label] if last else []
        self.status.setText("\n".join(self.problems + self.key))

    def traces(self) -> dict[str, TraceData]:
        """Each compared algorithm's trace so far, for the exported compare figure."""
        traces = {}
        for name, thread in self.threads.items():
            traces[name] = self._trace(thread)
        return traces

    def summary(self) -> str:
        """Each algorithm's iteration, for the status bar ("iteration cfr 277, cfr+ 239")."""
        reached = ", ".join(f"{name} {t.loop.latest()[1].iteration:,}" for name, t in self.threads.items())
        return f"iteration {reached}" if reached else ""

    def redraw(self) -> None:
        """Redraw every algorithm's curves from its trace (the window's timer calls this), on
        log axes shared by the plots."""
        for name, thread in self.threads.items():
            message = thread.loop.take_error()
            if message:
                self.error.emit(f"{name}: {message}")
        tables: Tables = {name: self._trace(thread) for name, thread in self.threads.items()}
        panels = [plot.panel for plot in self.panels]
        shared = values(panels, tables)
        for plot in self.panels:
            plot.update(tables, shared=shared)
        text = "\n".join(self.problems + untracked_lines(panels, tables) + self.key)
        if text != self.status.text():
            self.status.setText(text)

    def _trace(self, thread: SolverThread) -> TraceData:
        return thread.loop.trace_data(tuple(self.metrics))
