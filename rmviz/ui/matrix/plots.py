"""Live convergence plots of a matrix-game run (pyqtgraph): the panels of
:func:`rmviz.present.panels.matrix_panels` (average and current strategies per player,
distances to equilibrium on log-log axes with the 1/sqrt(T) reference, average regrets,
social welfare), each drawn by a :class:`~rmviz.ui.common.panel_plot.PanelPlot` from the
run's trace, as the exported figures draw them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSizePolicy

from rmviz.games.normal_form import NormalFormGame
from rmviz.present.definitions import PANELS
from rmviz.present.panels import (
    MAX_PLAYERS,
    chosen_from,
    last_averages,
    matrix_panels,
    shown_actions,
)
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.registry import MATRIX
from rmviz.ui.common.panel_plot import PanelPlot
from rmviz.ui.common.plot_layout import PlotLayout

MAX_STRATEGY_PLOTS = MAX_PLAYERS


class ConvergencePlots(PlotLayout):
    """The plots of one run; call :meth:`set_game`, then at each redraw :meth:`choose` with
    the trace's newest point of :meth:`chosen_from` and :meth:`update_from` with the trace's
    :meth:`columns` (a mapping from :class:`Column` to values).

    ``panels`` chooses which plots are shown (all of :data:`PANELS` in the app; one when a
    figure is exported); ``scale`` multiplies line widths and fonts (presentation mode).
    """

    def __init__(self, parent: object = None, panels: tuple[str, ...] = PANELS, scale: float = 1.0) -> None:
        super().__init__(parent)
        self.panels = panels
        self.scale = scale
        self.game: NormalFormGame | None = None
        self.rows: list[list[PanelPlot]] = []  # the strategy row, then the others'
        self.curves: dict[Column, pg.PlotDataItem] = {}
        self.reference: pg.PlotDataItem | None = None
        self.welfare_plot: pg.PlotItem | None = None
        self.plot_items: list[tuple[pg.PlotItem, bool]] = []
        self.shown: list[tuple[int, ...]] = []  # each player's actions drawn (shown_actions)
        self._row = 1  # the plot row the next staggered update draws: 0 strategies, 1 the rest

    def set_scale(self, scale: float) -> None:
        """Line widths and fonts times ``scale``; rebuilds the plots (redraw afterwards)."""
        self.scale = scale
        if self.game is not None:
            self.set_game(self.game)

    def set_game(self, game: NormalFormGame) -> None:
        """Rebuild the plots for ``game``'s players and actions."""
        self.clear()
        self.game = game
        zero_sum = game.n_players == 2 and game.is_zero_sum()
        panels = matrix_panels(MATRIX, game, [p for p in PANELS if p in self.panels], zero_sum)
        groups = [panels.get("strategies", []), [p for name in PANELS[1:] for p in panels.get(name, [])]]
        groups = [group for group in groups if group]
        self.rows = []
        for r, group in enumerate(groups):
            layout = self.addLayout(row=r, col=0)  # a layout per row: its columns need not line up
            legend = None
            if any(panel.key == "below" for panel in group):
                # below the plots, not on them: the curves cross every corner of a log-log plot
                legend = pg.LegendItem(colCount=3, verSpacing=-6, labelTextSize=f"{8 * self.scale:.0f}pt")
                layout.addItem(legend, row=1, col=0, colspan=len(group))
                legend.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)  # packed left
                layout.layout.setAlignment(legend, Qt.AlignmentFlag.AlignLeft)
            last = r == len(groups) - 1  # the x axis is named under the last row only
            self.rows.append(
                [
                    PanelPlot(layout, panel, 0, c, self.scale, legend if panel.key == "below" else None, last)
                    for c, panel in enumerate(group)
                ]
            )
        plots = [plot for row in self.rows for plot in row]
        self.curves = {line.column: curve for plot in plots for line, curve in plot.curves.items()}
        self.plot_items = [(plot.plot, plot.panel.y.scale == "log") for plot in plots]
        self.reference = next((plot.reference for plot in plots if plot.reference is not None), None)
        self.welfare_plot = next((plot.plot for plot in plots if plot.panel.name == "welfare"), None)
        self.shown = [shown_actions(len(names)) for names in game.action_names]

    def chosen_from(self) -> list[Column]:
        """The columns :meth:`choose` reads (:func:`~rmviz.present.panels.chosen_from`)."""
        if self.game is None or not {"strategies", "regrets"} & set(self.panels):
            return []
        return chosen_from(self.game.num_actions)

    def choose(self, table: TraceData) -> None:
        """Of a player with more actions than a plot draws, draw those most played at the
        trace's last point (``table``: the newest point of :meth:`chosen_from`'s columns will
        do; :func:`~rmviz.present.panels.shown_actions`, as the figures do): the strategy and
        regret plots retargeted when the choice changes. Call before :meth:`columns`, which
        names the actions drawn."""
        if not self.chosen_from():  # every player's actions drawn: no choice
            return
        assert self.game is not None
        averages = last_averages(table.columns, [len(names) for names in self.game.action_names])
        shown = [
            shown_actions(len(names), a) for names, a in zip(self.game.action_names, averages, strict=True)
        ]
        if shown == self.shown:
            return
        self.shown = shown
        names = [name for name in ("strategies", "regrets") if name in self.panels]
        panels = matrix_panels(MATRIX, self.game, names, False, table=table)
        for plot in (plot for row in self.rows for plot in row):
            if plot.panel.name in panels:
                plot.retarget(panels[plot.panel.name].pop(0))
        self.curves = {
            line.column: curve for row in self.rows for plot in row for line, curve in plot.curves.items()
        }

    def restart(self, game: NormalFormGame) -> None:
        """A fresh run on ``game``, whose players, actions and zero-sum flag are those drawn:
        the curves are emptied and the axes fitted afresh, nothing is rebuilt."""
        self.game = game
        for row in self.rows:
            for plot in row:
                plot.clear()

    def columns(self) -> tuple[Column, ...]:
        """The trace columns these plots draw (which actions: :meth:`choose`, from the newest
        point alone: a 200x200 game's 400 columns copied whole cost ~4 ms a redraw)."""
        return tuple(dict.fromkeys(c for row in self.rows for plot in row for c in plot.panel.columns()))

    def update_from(
        self, iterations: np.ndarray, columns: Mapping[Column, np.ndarray], stagger: bool = False
    ) -> bool:
        """Redraw the curves from the trace at once (:meth:`drawing`'s parts in a row); True
        when this call drew one row only."""
        row = self.next_row(stagger, iterations)
        for _ in self.drawing(iterations, columns, row, thin=stagger):
            pass
        return row is not None

    def next_row(self, stagger: bool, iterations: np.ndarray) -> int | None:
        """The row of plots a staggered redraw draws next (the live window: each redraw draws
        one row in turn, the strategies' and the others', so one repaint never holds the
        event loop for the whole dashboard: docs/performance.md, GUI responsiveness), or
        None: every row (``stagger`` False, no points, or a single row)."""
        if not (stagger and iterations.size and len(self.rows) == 2):
            return None
        if not any(p.panel.name == "strategies" for p in self.rows[0]):
            return None
        self._row = 1 - self._row
        return self._row

    def drawing(
        self, iterations: np.ndarray, columns: Mapping[Column, np.ndarray], row: int | None, thin: bool
    ) -> Iterator[None]:
        """Redraw the curves of ``row`` (None: every row) from the trace, one plot per part:
        a generator that yields after each plot, so that the live window lets the event loop
        repaint each before it draws the next (:class:`~rmviz.ui.common.run_control.RunControl`).
        ``thin``: the points thinned evenly over log T (the live window)."""
        if iterations.size == 0:
            for plots in self.rows:
                for plot in plots:
                    plot.clear()
            return
        tables = {None: TraceData(iterations, columns)}
        scale = max(1.0, float(np.abs(self.game.payoffs).max())) if self.game is not None else 1.0
        for plots in self.rows if row is None else self.rows[row : row + 1]:
            for plot in plots:
                plot.update(tables, scale, thin=thin)
                yield
