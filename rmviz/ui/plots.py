"""Live convergence plots (pyqtgraph) drawn from the run's trace.

* average strategy (solid) and current strategy (dashed) per action, one plot per player;
* distances to equilibrium on log-log axes: exploitability (NashConv / n), CCE gap, CE gap
  and the regret bound 2 max R / T, with an O(1/sqrt(T)) reference line;
* average regret per action of the first two players;
* social welfare of the empirical joint distribution.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from rmviz.games.normal_form import NormalFormGame
from rmviz.ui.style import METRIC_COLOURS, action_pen

GAP_LABELS = {
    "exploitability": "exploitability (NashConv/n)",
    "cce_gap": "CCE gap",
    "ce_gap": "CE gap",
    "eps_bound": "regret bound 2 max R/T",
}
MAX_STRATEGY_PLOTS = 3


class ConvergencePlots(pg.GraphicsLayoutWidget):
    """The plots of one run; call :meth:`set_game` then :meth:`update_from` with trace columns."""

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)
        self.game: NormalFormGame | None = None
        self.curves: dict[str, pg.PlotDataItem] = {}

    def set_game(self, game: NormalFormGame) -> None:
        """Rebuild the plots for ``game``'s players and actions."""
        self.clear()
        self.curves = {}
        self.game = game
        shown = min(game.n_players, MAX_STRATEGY_PLOTS)
        for i in range(shown):
            plot = self.addPlot(
                row=0, col=i, title=f"{game.player_names[i]}: average (solid), current (faint)"
            )
            plot.setLogMode(x=True, y=False)
            plot.setYRange(0, 1)
            plot.setLabel("bottom", "iteration")
            plot.showGrid(x=True, y=True, alpha=0.2)
            legend = plot.addLegend(offset=(-5, 5))
            for a, action in enumerate(game.action_names[i][:10]):
                self.curves[f"avg[{i}][{a}]"] = plot.plot(pen=action_pen(a), name=action)
                self.curves[f"cur[{i}][{a}]"] = plot.plot(pen=action_pen(a, 1.0, alpha=70))
            legend.setLabelTextSize("8pt")
        gaps = self.addPlot(row=1, col=0, title="distance to equilibrium (log-log)")
        gaps.setLogMode(x=True, y=True)
        gaps.setLabel("bottom", "iteration")
        gaps.showGrid(x=True, y=True, alpha=0.2)
        gaps.addLegend(offset=(10, -10))  # bottom left: falling curves leave it empty
        for name, label in GAP_LABELS.items():
            self.curves[name] = gaps.plot(pen=pg.mkPen(METRIC_COLOURS[name], width=2), name=label)
        self.curves["reference"] = gaps.plot(
            pen=pg.mkPen("#999999", width=1, style=pg.QtCore.Qt.PenStyle.DotLine), name="O(1/sqrt(T))"
        )
        regrets = self.addPlot(row=1, col=1, title="average regret per action")
        regrets.setLogMode(x=True, y=False)
        regrets.setLabel("bottom", "iteration")
        regrets.showGrid(x=True, y=True, alpha=0.2)
        for i in range(min(game.n_players, 2)):
            for a in range(min(game.num_actions[i], 10)):
                self.curves[f"reg[{i}][{a}]"] = regrets.plot(pen=action_pen(a, 1.5, dashed=i == 1))
        welfare = self.addPlot(row=1, col=2, title="social welfare")
        welfare.setLogMode(x=True, y=False)
        welfare.setLabel("bottom", "iteration")
        welfare.showGrid(x=True, y=True, alpha=0.2)
        self.curves["welfare"] = welfare.plot(pen=pg.mkPen("#8c564b", width=2))

    def column_names(self) -> tuple[str, ...]:
        """The trace columns these plots read."""
        return tuple(name for name in self.curves if name != "reference")

    def update_from(self, iterations: np.ndarray, columns: dict[str, np.ndarray]) -> None:
        """Redraw every curve from the trace (called at most once a frame)."""
        if iterations.size == 0:
            for curve in self.curves.values():
                curve.setData([], [])
            return
        x = iterations.astype(np.float64)
        for name, curve in self.curves.items():
            if name == "reference" or name not in columns:
                continue
            y = columns[name]
            if name in GAP_LABELS:  # log axes: only positive, finite values
                keep = np.isfinite(y) & (y > 0)
                curve.setData(x[keep], y[keep])
            else:
                curve.setData(x, y)
        gap = columns.get("exploitability")
        if gap is not None and gap.size and np.isfinite(gap[0]) and gap[0] > 0:
            curve = self.curves["reference"]
            curve.setData(x, gap[0] / np.sqrt(x))  # anchored at the first point
