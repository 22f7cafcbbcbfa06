"""Live convergence plots (pyqtgraph) drawn from the run's trace, by trace column
(:class:`~rmviz.solvers.columns.Column`):

* average strategy (solid) and current strategy (faint) per action, one plot per player,
  titled with the actions' names in their colours;
* distances to equilibrium on log-log axes: exploitability (NashConv / n), CCE gap, CE gap
  and the regret bound 2 max R / T, with an O(1/sqrt(T)) reference line;
* average regret per action of the first two players;
* social welfare of the empirical joint distribution.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSizePolicy

from rmviz.figures.matrix import NOISE, welfare_limit
from rmviz.games.normal_form import NormalFormGame
from rmviz.present.definitions import PANEL_TEXT, PANELS, REFERENCE, WELFARE_COLOUR, action_colour, gap_curves
from rmviz.solvers.columns import Column
from rmviz.ui.common.plot_layout import PlotLayout, live_points, log_decades, set_points
from rmviz.ui.common.style import action_pen, curve_pen, log_axes, pen, probability_axis, style_plot

GAPS = {Column(metric) for metric in gap_curves("matrix", False)}  # log axes: positive values only
WELFARE = Column("welfare")
STRATEGIES = ("average", "current")
MAX_STRATEGY_PLOTS = 3
MAX_ACTIONS = 10  # actions drawn per strategy plot
MAX_NAMED = 6  # actions named in a strategy plot's title
PLAYER_DASHES = ("solid", "dashed", "dotted")  # the regret plot's line style of each player
DASH_GLYPHS = {"solid": "—", "dashed": "- -", "dotted": "···"}


def strategies_title(player: str, actions: tuple[str, ...]) -> str:
    """A strategy plot's title: the player, then each action's name in its curves' colour
    (the first :data:`MAX_NAMED`, then how many more)."""
    names = " ".join(
        f'<span style="color:{action_colour(a)}">&#9644;&nbsp;{html.escape(name)}</span>'
        for a, name in enumerate(actions[:MAX_NAMED])
    )
    more = f" +{len(actions) - MAX_NAMED} more" if len(actions) > MAX_NAMED else ""
    return f"{html.escape(player)}: {names}{more}"


def regrets_title(players: tuple[str, ...], scale: float = 1.0) -> str:
    """The regret plot's title with its players' line styles in smaller type (the actions'
    colours are those of the strategy plots' titles)."""
    styles = ", ".join(
        f"{html.escape(name)}&nbsp;{DASH_GLYPHS[PLAYER_DASHES[i]]}" for i, name in enumerate(players)
    )
    return f'average regret <span style="font-size:{7 * scale:.0f}pt">{styles}</span>'


class ConvergencePlots(PlotLayout):
    """The plots of one run; call :meth:`set_game` then :meth:`update_from` with the trace's
    :meth:`columns` (a mapping from :class:`Column` to values).

    ``panels`` chooses which plots are shown (all of :data:`PANELS` in the app; one when a
    figure is exported); ``scale`` multiplies line widths and fonts (presentation mode).
    """

    def __init__(self, parent: object = None, panels: tuple[str, ...] = PANELS, scale: float = 1.0) -> None:
        super().__init__(parent)
        self.panels = panels
        self.scale = scale
        self.game: NormalFormGame | None = None
        self.curves: dict[Column, pg.PlotDataItem] = {}
        self.reference: pg.PlotDataItem | None = None  # 1/sqrt(T), anchored at the first gap
        self.welfare_plot: pg.PlotItem | None = None
        self.rows: list[pg.GraphicsLayout] = []  # a layout per row of plots
        self._row = 1  # the plot row the next staggered update draws: 0 strategies, 1 the rest
        self._welfare_limit = 0.0

    def set_scale(self, scale: float) -> None:
        """Line widths and fonts times ``scale``; rebuilds the plots (redraw afterwards)."""
        self.scale = scale
        if self.game is not None:
            self.set_game(self.game)

    def _plot(self, row: int, col: int, title: str, log_y: bool = False) -> pg.PlotItem:
        """A plot in row ``row`` (each row a layout of its own, so the rows' columns need not
        line up); the x axis is named under the last row only, as all share it."""
        plot = self.rows[row].addPlot(row=0, col=col, axisItems=log_axes())
        style_plot(plot, title, self.scale)
        plot.setLogMode(x=True, y=log_y)
        if row == len(self.rows) - 1:
            plot.setLabel("bottom", PANEL_TEXT["strategies"].x)
        # x spans whole decades, moved by update_from only when the run enters a new one
        # (and y on log axes likewise): axes whose range moves every frame are re-laid out
        # every frame, the largest cost of a live repaint
        plot.disableAutoRange(axis="x")
        if log_y:
            plot.disableAutoRange(axis="y")
        plot.setPreferredWidth(1)  # a row's plots share its width, whatever their titles' lengths
        self.plot_items.append((plot, log_y))
        self._decades[id(plot)] = None
        return plot

    def set_game(self, game: NormalFormGame) -> None:
        """Rebuild the plots for ``game``'s players and actions."""
        self.clear()
        self.curves = {}
        self.reference = None
        self.welfare_plot = None
        self._welfare_limit = 0.0
        self.plot_items: list[tuple[pg.PlotItem, bool]] = []
        self._decades: dict[int, tuple[int, ...] | None] = {}
        self.game = game
        k = self.scale
        others = any(panel in self.panels for panel in ("gaps", "regrets", "welfare"))
        self.rows = [self.addLayout(row=r, col=0) for r in range(("strategies" in self.panels) + others)]
        row = 0
        if "strategies" in self.panels:
            for i in range(min(game.n_players, MAX_STRATEGY_PLOTS)):
                # the actions' colours in the title, not a legend over the curves: the plots
                # are short in a window of 1280x720 and a legend there hides what it names
                plot = self._plot(0, i, strategies_title(game.player_names[i], game.action_names[i]))
                plot.setToolTip(PANEL_TEXT["strategies"].title.format(player=game.player_names[i]))
                probability_axis(plot)
                for a in range(min(game.num_actions[i], MAX_ACTIONS)):
                    average, current = (Column(q, player=i, action=a) for q in STRATEGIES)
                    self.curves[average] = plot.plot(pen=action_pen(a, 2 * k))
                    # faint and jumpy: drawn without antialiasing, which halves its cost
                    self.curves[current] = plot.plot(pen=action_pen(a, k, alpha=45), antialias=False)
            row = 1
        col = 0
        if "gaps" in self.panels:
            gaps = self._plot(row, col, PANEL_TEXT["gaps"].title, log_y=True)  # log-log: decades show it
            # below the plot, not on it: the curves cross every corner of a log-log plot
            legend = pg.LegendItem(colCount=3, verSpacing=-6, labelTextSize=f"{8 * k:.0f}pt")
            self.rows[row].addItem(legend, row=1, col=0, colspan=3)  # the row's width, not one plot's
            legend.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)  # packed left
            self.rows[row].layout.setAlignment(legend, Qt.AlignmentFlag.AlignLeft)
            zero_sum = game.n_players == 2 and game.is_zero_sum()
            for name, curve in gap_curves("matrix", zero_sum).items():
                # the dashed CCE gap over a wider exploitability: both show where they are equal
                item = self.curves[Column(name)] = gaps.plot(pen=curve_pen(curve, k))
                legend.addItem(item, curve.label)
            self.reference = gaps.plot(pen=curve_pen(REFERENCE, k))
            legend.addItem(self.reference, REFERENCE.label)
            col += 1
        if "regrets" in self.panels:
            players = range(min(game.n_players, MAX_STRATEGY_PLOTS))
            regrets = self._plot(row, col, regrets_title(game.player_names[: len(players)], k))
            for i in players:
                for a in range(min(game.num_actions[i], MAX_ACTIONS)):
                    styled = pen(action_colour(a), 1.5 * k, PLAYER_DASHES[i])
                    self.curves[Column("regret", player=i, action=a)] = regrets.plot(pen=styled)
            col += 1
        if "welfare" in self.panels:
            self.welfare_plot = self._plot(row, col, PANEL_TEXT["welfare"].title)
            self.curves[Column("welfare")] = self.welfare_plot.plot(pen=pen(WELFARE_COLOUR, 2 * k))

    def restart(self, game: NormalFormGame) -> None:
        """A fresh run on ``game``, whose players, actions and zero-sum flag are those drawn:
        the curves are emptied and the axes fitted afresh, nothing is rebuilt."""
        self.game = game
        self._welfare_limit = 0.0
        self._decades = dict.fromkeys(self._decades)
        self.update_from(np.empty(0), {})

    def columns(self) -> tuple[Column, ...]:
        """The trace columns these plots read."""
        return tuple(self.curves)

    def update_from(
        self, iterations: np.ndarray, columns: Mapping[Column, np.ndarray], stagger: bool = False
    ) -> bool:
        """Redraw the curves from the trace. With ``stagger`` (the live window), each call
        redraws one row of plots in turn, so one repaint never holds the event loop for the
        whole dashboard (docs/performance.md, GUI responsiveness); True when this call drew
        one row only."""
        if iterations.size == 0:
            for curve in (*self.curves.values(), *([self.reference] if self.reference else [])):
                curve.setData([], [])
            return False
        drawn = live_points(iterations) if stagger else slice(None)
        x = iterations[drawn].astype(np.float64)
        strategies = {column for column in self.curves if column.quantity in STRATEGIES}
        staggered = stagger and bool(strategies) and len(self.curves) > len(strategies)
        if staggered:
            self._row = 1 - self._row
        for column, curve in self.curves.items():
            if column not in columns:
                continue
            if staggered and (column in strategies) != (self._row == 0):
                continue
            y = columns[column][drawn]
            if column in GAPS:  # log axes: only positive, finite values
                keep = np.isfinite(y) & (y > 0)
                set_points(curve, x[keep], y[keep])
            elif column == WELFARE:
                self._draw_welfare(curve, x, y)
            else:
                set_points(curve, x, y)
        gap = columns.get(Column("exploitability"))
        gap = None if gap is None else gap[drawn]
        self._fit_decades(x, columns)
        if staggered and self._row == 0:
            return True
        if self.reference is not None and gap is not None and gap.size and np.isfinite(gap[0]) and gap[0] > 0:
            self.reference.setData(x, gap[0] / np.sqrt(x))  # anchored at the first point
        return staggered

    def _draw_welfare(self, curve: pg.PlotDataItem, x: np.ndarray, y: np.ndarray) -> None:
        """Welfare on an axis symmetric about zero that ignores rounding noise (as exported)."""
        assert self.game is not None and self.welfare_plot is not None
        scale = max(1.0, float(np.abs(self.game.payoffs).max()))
        set_points(curve, x, np.where(np.abs(y) <= NOISE * scale, 0.0, y))
        limit = welfare_limit(y, scale)
        if self._welfare_limit != limit:
            self._welfare_limit = limit
            self.welfare_plot.setYRange(-limit, limit, padding=0)

    def _fit_decades(self, x: np.ndarray, columns: Mapping[Column, np.ndarray]) -> None:
        """Set x (and log-y) ranges to whole decades around the data, when they change."""
        x_decades = (0, max(1, math.ceil(math.log10(max(float(x[-1]), 1.0)) - 1e-9)))
        gaps = [columns[column] for column in GAPS if column in columns]
        y_decades = log_decades(np.concatenate(gaps) if gaps else np.empty(0)) or (-3, 0)
        for plot, log_y in self.plot_items:
            decades = (*x_decades, *y_decades) if log_y else x_decades
            if self._decades[id(plot)] == decades:
                continue
            self._decades[id(plot)] = decades
            plot.setXRange(*x_decades, padding=0.02)
            if log_y:
                plot.setYRange(*y_decades, padding=0.02)
