"""The empirical joint distribution of play as a heatmap (two-player games).

Cell (a, b) is the weight of the iterations in which the row player played ``a`` and the
column player ``b`` (the product of the two mixed strategies in expected play), normalised:
the distribution ``z`` that the CCE and CE gaps measure (Hart & Mas-Colell 2000). A product
distribution (rank one) is a Nash equilibrium candidate; mass spread along anti-diagonals
that no product explains is correlation, which is what a correlated equilibrium can use.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

from rmviz.games.normal_form import NormalFormGame
from rmviz.numbers import format_number
from rmviz.present.definitions import shown_names
from rmviz.present.ticks import CATEGORY_STRIDES, every_kth
from rmviz.ui.common.plot_layout import PlotLayout
from rmviz.ui.common.style import style_plot

MAX_LABELLED = 8  # cells show their probability up to 8 x 8


def stride(names: Sequence[str], length: float, metrics: QFontMetricsF, across: bool) -> int:
    """The smallest k of :data:`~rmviz.present.ticks.CATEGORY_STRIDES` for which every k-th
    of ``names``, one per cell along ``length`` pixels, is labelled without overprinting:
    labels side by side need their width (``across``: the bottom axis), stacked ones their
    height, and a gap."""
    if not names or length <= 0:
        return 1
    gap = metrics.height() * 0.4
    need = max(metrics.horizontalAdvance(n) for n in names) if across else metrics.height()
    cell = length / len(names)
    return next((k for k in CATEGORY_STRIDES if k * cell >= need + gap), CATEGORY_STRIDES[-1])


def thinned(names: Sequence[str], k: int) -> list[tuple[float, str]]:
    """Ticks at the cells' centres, every ``k``-th one labelled
    (:func:`~rmviz.present.ticks.every_kth`, as the exported heatmap's)."""
    labelled = set(every_kth(len(names), k))
    return [(i + 0.5, name if i in labelled else "") for i, name in enumerate(names)]


class JointView(PlotLayout):
    """A heatmap of ``snapshot.joint``; :meth:`update_from` redraws."""

    def __init__(self, parent: object = None, scale: float = 1.0) -> None:
        super().__init__(parent)
        self.scale = scale
        self.game: NormalFormGame | None = None
        self.image: pg.ImageItem | None = None
        self.labels: list[list[pg.TextItem]] = []
        self.plot: pg.PlotItem | None = None
        self._strides: dict[str, tuple[int, int]] = {}  # axis -> (every k-th labelled, of n)

    def set_scale(self, scale: float) -> None:
        self.scale = scale
        if self.game is not None:
            self.set_game(self.game)

    def set_game(self, game: NormalFormGame) -> None:
        self.clear()
        self.game, self.image, self.labels = game, None, []
        self.plot = self.addPlot()
        self._strides = {}  # new axes: each gets its labels
        if game.n_players != 2:
            style_plot(self.plot, "joint distribution: shown for two-player games", self.scale)
            self.plot.hideAxis("left")
            self.plot.hideAxis("bottom")
            return
        rows, columns = game.num_actions
        style_plot(self.plot, "joint distribution of play", self.scale)
        self.plot.invertY(True)
        self.plot.setAspectLocked(False)
        self.plot.setMouseEnabled(False, False)
        self.image = pg.ImageItem(np.zeros((columns, rows)))
        self.image.setColorMap(pg.colormap.get("viridis"))
        self.image.setLevels((0.0, 1.0))
        self.plot.addItem(self.image)
        left, bottom = self.plot.getAxis("left"), self.plot.getAxis("bottom")
        self.plot.vb.sigResized.connect(self.fit_ticks)
        self.fit_ticks()
        left.setLabel(game.player_names[0])
        bottom.setLabel(game.player_names[1])
        self.plot.setRange(xRange=(0, columns), yRange=(0, rows), padding=0)
        if rows <= MAX_LABELLED and columns <= MAX_LABELLED:
            font = QFont()
            font.setPointSizeF(9 * self.scale)
            for r in range(rows):
                line = []
                for c in range(columns):
                    text = pg.TextItem("", anchor=(0.5, 0.5), color="w")
                    text.setFont(font)
                    text.setPos(c + 0.5, r + 0.5)
                    self.plot.addItem(text)
                    line.append(text)
                self.labels.append(line)

    def fit_ticks(self, *_: object) -> None:
        """Label every k-th action on each axis, k as small as keeps labels apart at the
        heatmap's size now (called again whenever it is resized)."""
        if self.plot is None or self.game is None or self.game.n_players != 2:
            return
        box = self.plot.vb.boundingRect()
        for name, names, length, across in (
            ("left", shown_names(self.game.action_names[0]), box.height(), False),
            ("bottom", shown_names(self.game.action_names[1]), box.width(), True),
        ):
            axis = self.plot.getAxis(name)
            font = axis.style.get("tickFont") or QFont()
            k = stride(names, length, QFontMetricsF(font), across)
            if self._strides.get(name) != (k, len(names)):
                self._strides[name] = (k, len(names))
                axis.setTicks([[(p, text) for p, text in thinned(names, k) if text]])

    def restart(self, game: NormalFormGame) -> None:
        """A fresh run on ``game``, whose players and actions are those drawn: the heatmap is
        emptied, nothing is rebuilt."""
        self.game = game
        if self.image is not None:
            self.image.setImage(np.zeros(game.num_actions[::-1]), levels=(0.0, 1.0), autoLevels=False)
        for line in self.labels:
            for text in line:
                text.setText("")

    def update_from(self, joint: np.ndarray | None) -> None:
        """Draw the joint distribution (``None``: not tracked for this run)."""
        if self.image is None or self.plot is None:
            return
        tracked = joint is not None
        for side in ("left", "bottom"):  # an empty plot's action ticks read as a heatmap's
            self.plot.showAxis(side, tracked)
        if joint is None:  # an empty heatmap under the title read as "nothing played"
            self.image.clear()
            self.plot.setTitle("joint distribution: not tracked")
            self.setToolTip(
                "The joint distribution of play is tracked in expected play up to 64 x 64 "
                "(rmviz solve --json up to 100 x 100) and in sampled play."
            )
            return
        self.setToolTip("")
        total = joint.sum()
        z = joint / total if total > 0 else joint
        self.image.setImage(z.T, levels=(0.0, max(float(z.max()), 1e-12)), autoLevels=False)
        peak = float(z.max())
        for r, line in enumerate(self.labels):
            for c, text in enumerate(line):
                text.setText(format_number(z[r, c], ".2f"))
                text.setColor("#111111" if z[r, c] > 0.6 * peak else "#ffffff")
