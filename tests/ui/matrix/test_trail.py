"""The current strategies' trail looks the same in the window's simplex and in the exported
figure: one grey, opacity and width (rmviz.present.simplex.TRAIL_*), the width relative to
the average path's in each, and a dot at each strategy (legible where the line runs along
the frame: regret matching's current strategies are often pure for one player)."""

from __future__ import annotations

import matplotlib.colors as mcolors
import pytest

from rmviz.figures import make_figure, record
from rmviz.figures.style import STYLES
from rmviz.games import catalog_game
from rmviz.present.simplex import (
    CURRENT_TRAIL,
    TRAIL_COLOUR,
    TRAIL_DOT,
    TRAIL_DOT_OPACITY,
    TRAIL_OPACITY,
    TRAIL_WIDTH,
)


@pytest.mark.parametrize("game", ["rps-crash", "matching-pennies"])  # triangles; the 2x2 square
def test_the_trail_is_drawn_alike_live_and_on_paper(window, qtbot, game):
    window.load_catalog(game)
    window.run.step(100)
    qtbot.waitUntil(lambda: not window.run.thread.loop.busy and window.run.drawn(), timeout=60_000)
    for _kind, _player, current, average in window.simplex.paths:
        pen, path = current.opts["pen"], average.pieces[-1].opts["pen"]
        assert pen.color().name() == TRAIL_COLOUR.lower()
        assert pen.color().alphaF() == pytest.approx(TRAIL_OPACITY, abs=1 / 255)
        assert pen.widthF() == pytest.approx(TRAIL_WIDTH * path.widthF())
        assert len(current.getOriginalDataset()[0]) == min(CURRENT_TRAIL, 100 + 1)
        x, y = current.dots.getData()
        assert (x.tolist(), y.tolist()) == (current.xData.tolist(), current.yData.tolist())
        dot = current.dots.opts
        assert dot["size"] == pytest.approx(TRAIL_DOT * path.widthF())
        assert dot["brush"].color().name() == TRAIL_COLOUR.lower()
        assert dot["brush"].color().alphaF() == pytest.approx(TRAIL_DOT_OPACITY, abs=1 / 255)
    fig = make_figure("simplex", record(catalog_game(game), "rm", 100), "paper")
    trails = [line for ax in fig.axes for line in ax.lines if line.get_alpha() == TRAIL_OPACITY]
    assert len(trails) == len(window.simplex.paths)
    for line in trails:
        assert mcolors.to_hex(line.get_color()) == TRAIL_COLOUR.lower()
        assert line.get_linewidth() == pytest.approx(TRAIL_WIDTH * STYLES["paper"].line_width)
        assert line.get_zorder() > 2  # over the frame
        assert len(line.get_xdata()) == CURRENT_TRAIL
    dots = [line for ax in fig.axes for line in ax.lines if line.get_zorder() == 2.6]
    assert len(dots) == len(trails)
    for line, trail in zip(dots, trails, strict=True):
        assert mcolors.to_hex(line.get_color()) == TRAIL_COLOUR.lower()
        assert line.get_alpha() == TRAIL_DOT_OPACITY
        assert line.get_markersize() == pytest.approx(TRAIL_DOT * STYLES["paper"].line_width)
        assert line.get_linestyle() == "None"
        assert list(line.get_xdata()) == list(trail.get_xdata())


def test_the_square_shows_probabilities_only(window, qtbot):
    """The 2x2 square's aspect is locked, so a wide panel showed its x axis from -1.5 to 2.5
    with grid lines there: its ticks are the strategy panels' (``PROBABILITY_TICKS``), in
    the window (at any width) and in the figure, and the window draws no grid beside it."""
    from rmviz.present.panels import PROBABILITY_TICKS

    window.resize(1280, 720)
    window.show()
    window.load_catalog("matching-pennies")
    qtbot.waitExposed(window)
    import pyqtgraph as pg
    from PySide6.QtGui import QImage, QPainter

    (plot,) = [item for item in window.simplex.ci.items if isinstance(item, pg.PlotItem)]
    low, high = plot.getViewBox().viewRange()[0]
    assert high - low > 1.5  # the panel is wider than the square: the case in point
    canvas = QImage(8, 8, QImage.Format.Format_ARGB32)
    for side in ("bottom", "left"):
        axis = plot.getAxis(side)
        painter = QPainter(canvas)
        try:
            _, ticks, texts = axis.generateDrawSpecs(painter)
        finally:
            painter.end()
        assert [text for _, _, text in texts] == ["0", "0.5", "1"], side
        assert len(ticks) == len(PROBABILITY_TICKS)
        assert axis.grid is False
    fig = make_figure("simplex", record(catalog_game("matching-pennies"), "rm", 100), "paper")
    (ax,) = fig.axes
    assert list(ax.get_xticks()) == list(ax.get_yticks()) == list(PROBABILITY_TICKS)


def test_each_simplex_is_titled_in_its_players_colour_live_and_on_paper(window, qtbot):
    """In presentation mode the title "Row" sat on the top corner's "Scissors" in the same
    grey and read as one label: the window titles each simplex in its player's colour, as
    the figure always did."""
    import pyqtgraph as pg

    from rmviz.present.definitions import player_colour

    window.load_catalog("rps-crash")
    plots = [item for item in window.simplex.ci.items if isinstance(item, pg.PlotItem)]
    assert [p.titleLabel.opts["color"] for p in plots] == [player_colour(0), player_colour(1)]
    fig = make_figure("simplex", record(catalog_game("rps-crash"), "rm", 100), "paper")
    titled = [ax for ax in fig.axes if ax.get_title()]
    assert [mcolors.to_hex(ax.title.get_color()) for ax in titled] == [
        player_colour(0).lower(),
        player_colour(1).lower(),
    ]
