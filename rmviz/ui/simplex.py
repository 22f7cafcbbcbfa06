"""Strategy trajectories on the simplex, one panel per player (2x2 games: the unit square).

* 3 actions: the triangle, vertices labelled with the actions, the current-strategy path
  (thin) and the average-strategy path (thick, fading from light to dark), the known
  equilibrium as a star;
* 2x2 games: one square with p = P(row plays action 1) across and q = P(column plays
  action 1) up;
* 2 actions (other games): a segment; more than 3 actions: the face of the first three,
  renormalised (the panel title says so).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from rmviz.games.normal_form import NormalFormGame
from rmviz.ui.style import player_colour

CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, math.sqrt(3) / 2]])
CURRENT_TRAIL = 60  # recent points of the current strategy (it jumps; a long trail is noise)


def to_triangle(p: np.ndarray) -> np.ndarray:
    """Barycentric (n, 3) -> planar (n, 2) on the equilateral triangle."""
    total = p.sum(axis=1, keepdims=True)
    return (p / np.where(total > 0, total, 1.0)) @ CORNERS


class SimplexView(pg.GraphicsLayoutWidget):
    """Trajectories of the current and average strategies; :meth:`update_from` redraws."""

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)
        self.game: NormalFormGame | None = None
        self.paths: list[tuple[str, int, pg.PlotDataItem, pg.PlotDataItem]] = []
        self.square = False

    def set_game(
        self, game: NormalFormGame, equilibrium: tuple[tuple[float, ...], ...] | None = None
    ) -> None:
        self.clear()
        self.paths = []
        self.game = game
        self.square = game.n_players == 2 and game.num_actions == (2, 2)
        if self.square:
            self._square(game, equilibrium)
            return
        for i in range(min(game.n_players, 3)):
            self._panel(game, i, equilibrium)

    def _square(self, game: NormalFormGame, equilibrium: tuple[tuple[float, ...], ...] | None) -> None:
        plot = self.addPlot(
            title=f"P({game.player_names[0]}: {game.action_names[0][0]}) across, "
            f"P({game.player_names[1]}: {game.action_names[1][0]}) up"
        )
        plot.setAspectLocked(True)
        plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.05)
        plot.plot([0, 1, 1, 0, 0], [0, 0, 1, 1, 0], pen=pg.mkPen("#888888"))
        current = plot.plot(pen=pg.mkPen((120, 120, 120, 90), width=1))
        average = plot.plot(pen=pg.mkPen(player_colour(0), width=2.5))
        self.paths.append(("square", 0, current, average))
        if equilibrium is not None:
            plot.plot(
                [equilibrium[0][0]],
                [equilibrium[1][0]],
                pen=None,
                symbol="star",
                symbolSize=16,
                symbolBrush="#ffbf00",
            )

    def _panel(
        self, game: NormalFormGame, player: int, equilibrium: tuple[tuple[float, ...], ...] | None
    ) -> None:
        actions = game.action_names[player]
        title = game.player_names[player] + (" (first 3 actions)" if len(actions) > 3 else "")
        plot = self.addPlot(title=title)
        plot.setAspectLocked(True)
        plot.hideAxis("left")
        plot.hideAxis("bottom")
        if len(actions) == 2:
            plot.plot([0, 1], [0, 0], pen=pg.mkPen("#888888", width=2))
            for x, label in ((0, actions[1]), (1, actions[0])):
                text = pg.TextItem(label, anchor=(0.5, -0.3), color="#333333")
                plot.addItem(text)
                text.setPos(x, 0)
            kind = "segment"
        else:
            outline = np.vstack([CORNERS, CORNERS[:1]])
            plot.plot(outline[:, 0], outline[:, 1], pen=pg.mkPen("#888888", width=1.5))
            for corner, label, anchor in zip(CORNERS, actions[:3], ((1, 0), (0, 0), (0.5, 1)), strict=True):
                text = pg.TextItem(label, anchor=anchor, color="#333333")
                plot.addItem(text)
                text.setPos(*corner)
            kind = "triangle"
        current = plot.plot(pen=pg.mkPen((120, 120, 120, 90), width=1))
        average = plot.plot(pen=pg.mkPen(player_colour(player), width=2.5))
        self.paths.append((kind, player, current, average))
        if equilibrium is not None:
            point = self._project(kind, np.array([equilibrium[player]]))
            plot.plot(point[:, 0], point[:, 1], pen=None, symbol="star", symbolSize=16, symbolBrush="#ffbf00")

    @staticmethod
    def _project(kind: str, p: np.ndarray) -> np.ndarray:
        if kind == "segment":
            return np.column_stack([p[:, 0], np.zeros(len(p))])
        return to_triangle(p[:, :3])

    def update_from(self, columns: dict[str, np.ndarray]) -> None:
        if self.game is None:
            return
        for kind, player, current, average in self.paths:
            if kind == "square":
                for curve, prefix, keep in ((current, "cur", CURRENT_TRAIL), (average, "avg", None)):
                    x, y = columns.get(f"{prefix}[0][0]"), columns.get(f"{prefix}[1][0]")
                    if x is not None and y is not None:
                        curve.setData(x[-keep:] if keep else x, y[-keep:] if keep else y)
                continue
            k = min(self.game.num_actions[player], 3)
            for curve, prefix, keep in ((current, "cur", CURRENT_TRAIL), (average, "avg", None)):
                parts = [columns.get(f"{prefix}[{player}][{a}]") for a in range(k)]
                if any(part is None for part in parts):
                    continue
                points = self._project(kind, np.column_stack(parts))
                if keep:
                    points = points[-keep:]
                curve.setData(points[:, 0], points[:, 1])

    def column_names(self) -> tuple[str, ...]:
        if self.game is None:
            return ()
        names = []
        for i in range(min(self.game.n_players, 3)):
            for a in range(min(self.game.num_actions[i], 3)):
                names += [f"avg[{i}][{a}]", f"cur[{i}][{a}]"]
        return tuple(names)
