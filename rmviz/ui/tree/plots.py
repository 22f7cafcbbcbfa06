"""The tree window's live plots (pyqtgraph), drawn from the run's trace: the family's
distances to equilibrium on log-log axes (:func:`rmviz.present.panels.gap_panel`) and the
chosen information set's average strategy over iterations
(:func:`rmviz.present.panels.infoset_panel`: one curve per move, its trace columns
``Column("average", player, infoset, action)``; trees with more moves than the solver traces
show the distances alone), each a :class:`~rmviz.ui.common.panel_plot.PanelPlot`, as the
exported figures draw them; a zero-sum tree's LP equilibrium as dashed levels on the latter
(:meth:`TreePlots.set_reference`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import numpy as np
import pyqtgraph as pg

from rmviz.present.panels import (
    gap_panel,
    infoset_panel,
    last_values,
    moves_chosen_from,
    shown_actions,
)
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.registry import TREE
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.ui.common.panel_plot import PanelPlot
from rmviz.ui.common.plot_layout import PlotLayout

EXPLOITABILITY = Column("exploitability")


class TreePlots(PlotLayout):
    """The gap plot and the chosen information set's plot; :meth:`set_infoset`, then at each
    redraw :meth:`choose` with the trace's newest point of :meth:`chosen_from` and
    :meth:`update_from` with the trace's :meth:`columns`."""

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)
        self.scale = 1.0  # fonts and lines (presentation mode, the text size)
        self.last = False  # the last iterate's curves (a run that tracks it: set_last)
        self.gaps: PanelPlot | None = None
        self.strategy: PanelPlot | None = None
        self.strategy_curves: dict[Column, pg.PlotDataItem] = {}  # traced moves only
        self._infoset: tuple[CompiledTree, int, Collection[Column], Sequence[str]] | None = None
        self._shown: tuple[int, ...] = ()  # the moves drawn (shown_actions)
        self._chosen: list[Column] = []  # what they are chosen from (moves_chosen_from), traced
        self.reference: np.ndarray | None = None  # the LP equilibrium per slot (dashed levels)
        self._build_gaps()

    def _build_gaps(self) -> None:
        """The gap plot, its lines named in its title: the window has no room for a legend
        under plots this short at 1280x720, and one over them covers the curves."""
        if self.gaps is not None:
            self.removeItem(self.gaps.plot)
        self.gaps = PanelPlot(self.ci, gap_panel(TREE, False, self.last), 0, 0, self.scale, key="names")
        self.gap_plot = self.gaps.plot
        self.gap_curve = next(c for line, c in self.gaps.curves.items() if line.column == EXPLOITABILITY)

    def set_last(self, last: bool) -> None:
        """Whether the gap plot draws the last iterate's curves (the run's solver tracks it)."""
        if last != self.last:
            self.last = last
            self._build_gaps()

    @property
    def strategy_plot(self) -> pg.PlotItem | None:
        return None if self.strategy is None else self.strategy.plot

    def set_infoset(
        self, tree: CompiledTree, infoset: int, traced: Collection[Column], players: Sequence[str]
    ) -> None:
        """Curves for the moves of ``infoset`` (its player named from ``players``); those in
        ``traced`` (the solver's columns) are drawn."""
        self._infoset = (tree, infoset, traced, players)
        # asked at every redraw: made once (a set of 1,000 moves took 7 ms a redraw)
        self._chosen = [column for column in moves_chosen_from(tree, infoset) if column in traced]
        if self.strategy is not None:
            self.removeItem(self.strategy.plot)
        panel = infoset_panel(tree, infoset, players, self.reference)
        self.strategy = PanelPlot(self.ci, panel, 0, 1, self.scale)
        self._shown = shown_actions(int(tree.infoset_size[infoset]))
        self._curves_traced()

    def _curves_traced(self) -> None:
        assert self.strategy is not None and self._infoset is not None
        traced = self._infoset[2]
        self.strategy_curves = {
            line.column: curve for line, curve in self.strategy.curves.items() if line.column in traced
        }

    def chosen_from(self) -> list[Column]:
        """The columns :meth:`choose` reads: a set of more than
        :data:`~rmviz.present.panels.MAX_ACTIONS` moves' traced columns, else none."""
        return self._chosen

    def choose(self, newest: Mapping[Column, np.ndarray]) -> None:
        """Of a set of more than :data:`~rmviz.present.panels.MAX_ACTIONS` moves, draw those
        most played at the trace's newest point (``newest``: :meth:`chosen_from`'s columns,
        the newest value last, as the figures read them): the plot retargeted when that
        changes. Call before :meth:`columns`, which names the moves drawn."""
        if self._infoset is None or self.strategy is None or not self._chosen:
            return  # every move drawn: no choice
        tree, infoset, _, players = self._infoset
        average = last_values(newest, self._chosen)
        shown = shown_actions(int(tree.infoset_size[infoset]), average)
        if shown != self._shown:
            self._shown = shown
            self.strategy.retarget(infoset_panel(tree, infoset, players, self.reference, average))
            self._curves_traced()

    def set_reference(self, strategy: np.ndarray | None) -> None:
        """The exact equilibrium drawn as dashed levels on the information set's plot (per
        slot of the tree shown; None: none); rebuilds that plot, so redraw afterwards."""
        self.reference = strategy
        if self._infoset is not None:
            self.set_infoset(*self._infoset)

    def clear_curves(self) -> None:
        """No curve (a fresh run: the previous game's or settings' curves go). Not ``clear``:
        ``pg.GraphicsLayoutWidget`` binds that name to its layout's, which removes the plots."""
        for plot in (self.gaps, self.strategy):
            if plot is not None:
                plot.clear()

    def set_scale(self, scale: float) -> None:
        """Fonts and line widths times ``scale`` (redraw afterwards)."""
        self.scale = scale
        self._build_gaps()
        if self._infoset is not None:
            self.set_infoset(*self._infoset)

    def columns(self) -> tuple[Column, ...]:
        """The trace columns drawn (a Leduc trace has one per move, 2,191: only these are
        copied at each redraw; a wide set's moves are chosen from the newest point alone,
        :meth:`choose`)."""
        assert self.gaps is not None
        return tuple(dict.fromkeys((*self.gaps.panel.columns(), *self.strategy_curves)))

    def update_from(self, iterations: np.ndarray, columns: Mapping[Column, np.ndarray]) -> None:
        """Redraw the curves from the trace, thinned evenly over log T."""
        if not iterations.size:
            return
        tables = {None: TraceData(iterations, columns)}
        assert self.gaps is not None
        self.gaps.update(tables)
        if self.strategy is not None:
            traced = [line for line in self.strategy.panel.lines if line.column in self.strategy_curves]
            self.strategy.update(tables, lines=traced)
