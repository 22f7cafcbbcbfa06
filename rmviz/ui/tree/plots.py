"""The tree window's live plots, drawn from the run's trace: exploitability of the average
strategy on log-log axes, and the chosen information set's average strategy over iterations
(one curve per move: its trace columns ``Column("average", player, infoset, action)``; trees
with more moves than the solver traces show the exploitability alone)."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping

import numpy as np
import pyqtgraph as pg

from rmviz.present.definitions import GAP_CURVES, PANEL_TEXT, action_colour
from rmviz.solvers.columns import Column
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.ui.common.plot_layout import PlotLayout, live_points, log_decades, set_points
from rmviz.ui.common.style import curve_pen, log_axes, pen, probability_axis, style_plot

EXPLOITABILITY = Column("exploitability")
GAP_TITLE = "exploitability of the average (log-log)"  # short: it fits half of 1024 px at large text


class TreePlots(PlotLayout):
    """``gap_curve`` (exploitability) and ``strategy_curves`` (the chosen information set's
    moves); :meth:`set_infoset`, then :meth:`update_from` with the trace's :meth:`columns`."""

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)
        self.scale = 1.0  # fonts and lines (presentation mode, the text size)
        self.strategy_title = ""
        self.gap_plot = self.addPlot(row=0, col=0, axisItems=log_axes())
        style_plot(self.gap_plot, GAP_TITLE)
        self.gap_plot.setLogMode(x=True, y=True)
        self.gap_plot.setLabel("bottom", PANEL_TEXT["infoset"].x)
        self.gap_curve = self.gap_plot.plot(pen=curve_pen(GAP_CURVES["tree"]["exploitability"]))
        self._gap_decades: tuple[int, int] | None = None  # the gap plot's y range, in decades
        self.strategy_plot = self.addPlot(row=0, col=1, axisItems=log_axes())
        self.strategy_plot.setLogMode(x=True, y=False)
        probability_axis(self.strategy_plot)
        self.strategy_plot.setLabel("bottom", PANEL_TEXT["infoset"].x)
        self.strategy_legend = self.strategy_plot.addLegend(offset=(-5, 5))
        self.strategy_curves: dict[Column, pg.PlotDataItem] = {}  # traced moves only
        for plot in (self.gap_plot, self.strategy_plot):  # half the width each, whatever
            plot.setPreferredWidth(1)  # their titles' lengths (large text, 1024x768)

    def set_infoset(self, tree: CompiledTree, infoset: int, traced: Collection[Column]) -> None:
        """Curves for the moves of ``infoset``; those in ``traced`` (the solver's columns)
        are drawn."""
        self.strategy_plot.clear()
        self.strategy_legend.clear()
        first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
        self.strategy_title = PANEL_TEXT["infoset"].title.format(infoset=tree.infoset_label[infoset])
        style_plot(self.strategy_plot, self.strategy_title, self.scale)
        self.strategy_legend.setLabelTextSize(f"{8 * self.scale:.0f}pt")
        player = int(tree.infoset_player[infoset])
        self.strategy_curves = {}
        for k in range(size):
            curve = self.strategy_plot.plot(
                pen=pen(action_colour(k), 2 * self.scale), name=tree.slot_move[first + k]
            )
            column = Column("average", player=player, infoset=infoset, action=k)
            if column in traced:
                self.strategy_curves[column] = curve

    def clear_curves(self) -> None:
        """No curve (a fresh run: the previous game's or settings' curves go). Not ``clear``:
        ``pg.GraphicsLayoutWidget`` binds that name to its layout's, which removes the plots."""
        self.gap_curve.setData([], [])
        self._gap_decades = None  # the fresh run's gaps choose the range
        for curve in self.strategy_curves.values():
            curve.setData([], [])

    def set_scale(self, scale: float) -> None:
        """Fonts and line widths times ``scale`` (the curves keep their data)."""
        self.scale = scale
        style_plot(self.gap_plot, GAP_TITLE, scale)
        self.gap_curve.setPen(curve_pen(GAP_CURVES["tree"]["exploitability"], scale))
        style_plot(self.strategy_plot, self.strategy_title, scale)
        self.strategy_legend.setLabelTextSize(f"{8 * scale:.0f}pt")
        for k, item in enumerate(self.strategy_plot.listDataItems()):
            item.setPen(pen(action_colour(k), 2 * scale))

    def columns(self) -> tuple[Column, ...]:
        """The trace columns drawn (a Leduc trace has one per move, 2,191: only these are
        copied at each redraw)."""
        return (EXPLOITABILITY, *self.strategy_curves)

    def update_from(self, iterations: np.ndarray, columns: Mapping[Column, np.ndarray]) -> None:
        """Redraw the curves from the trace, thinned evenly over log T (:func:`live_points`)."""
        if not iterations.size:
            return
        drawn = live_points(iterations)
        x = iterations[drawn].astype(np.float64)
        gap = columns[EXPLOITABILITY][drawn]
        keep = np.isfinite(gap) & (gap > 0)
        set_points(self.gap_curve, x[keep], gap[keep])
        decades = log_decades(gap)  # 0.125 -> 0.375 -> 0.204 showed no number
        if decades is not None and decades != self._gap_decades:
            self._gap_decades = decades
            self.gap_plot.setYRange(*decades, padding=0.02)
        decades = max(1, math.ceil(math.log10(max(float(x[-1]), 10.0)) - 1e-9))
        for plot in (self.gap_plot, self.strategy_plot):  # whole decades of iterations
            plot.setXRange(0, decades, padding=0.02)
        for column, curve in self.strategy_curves.items():
            if column in columns:
                set_points(curve, x, columns[column][drawn])
