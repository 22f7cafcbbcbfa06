"""The simplex's corner names lie where ``CORNER_NAME_SIDES`` says, live and on paper: the
bottom corners' beside them, level with the bottom edge, the top corner's above it; and the
window's face is as large as its panel allows with them (their room reckoned in pixels: a
room in data units took a third of a short panel's height)."""

from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from pyqtgraph import Point, TextItem

from rmviz.figures import make_figure, record
from rmviz.games import catalog_game
from rmviz.present.simplex import CORNER_NAME_SIDES, face_corners, simplex_panels
from rmviz.ui.matrix.simplex import NAME_CLEAR, SimplexView


def beside(name: tuple[float, float, float, float], corner: tuple[float, float], side, clear, up) -> bool:
    """Whether the box ``(left, top, right, bottom)`` lies on ``side`` of ``corner`` at least
    ``clear`` away (``up``: +1 where y grows upwards, -1 on screen), centred on the other axis."""
    left, low, right, high = name
    (x, y), (dx, dy) = corner, side
    low, high = sorted((low, high))
    across = {-1: right <= x - clear, 1: left >= x + clear, 0: abs((left + right) / 2 - x) < 1.5}[dx]
    above, below = (low >= y + clear, high <= y - clear) if up > 0 else (high <= y - clear, low >= y + clear)
    level = {1: above, -1: below, 0: abs((low + high) / 2 - y) < 1.5}[dy]
    return across and level


@pytest.mark.parametrize(
    ("game", "size"),
    [("rps-crash", (860, 190)), ("rps-crash", (300, 420)), ("three-player-pennies", (900, 120))],
)
def test_the_windows_corner_names_lie_beside_and_the_face_fills_its_panel(qtbot, game, size):
    view = SimplexView()
    qtbot.addWidget(view)
    played = catalog_game(game)
    view.set_game(played)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    view.grab()  # a paint: a TextItem sizes itself to the view's scale as it is painted
    plots = list(view.ci.items)
    assert len(plots) == len(simplex_panels(played.num_actions)[1])
    for player, plot in enumerate(plots):
        box = plot.vb
        qtbot.waitUntil(lambda box=box: box.width() > 0)
        names = {item.textItem.toPlainText(): item for item in box.addedItems if isinstance(item, TextItem)}
        corners = face_corners(len(names))
        area = box.sceneBoundingRect()
        reach = [area.right(), area.bottom(), area.left(), area.top()]  # what the names and face span
        for corner, action, side in zip(
            corners, played.action_names[player], CORNER_NAME_SIDES, strict=False
        ):
            rect = names[action].sceneBoundingRect()
            at = box.mapViewToScene(Point(*corner))
            edges = (rect.left(), rect.top(), rect.right(), rect.bottom())
            assert beside(edges, (at.x(), at.y()), side, NAME_CLEAR - 0.5, up=-1), (action, edges, at)
            assert area.adjusted(-1, -1, 1, 1).contains(rect), (action, rect, area)  # not clipped
            reach = [
                min(reach[0], rect.left()),
                min(reach[1], rect.top()),
                max(reach[2], rect.right()),
                max(reach[3], rect.bottom()),
            ]
        # the face takes the whole width or the whole height the names leave it
        assert reach[2] - reach[0] >= area.width() - 2 or reach[3] - reach[1] >= area.height() - 2


@pytest.mark.parametrize("game", ["rps-crash", "three-player-pennies"])
def test_the_figures_corner_names_lie_where_the_windows_do(game):
    run = record(catalog_game(game), "rm", iterations=20)
    fig = make_figure("simplex", run, "paper")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    for player, ax in enumerate(fig.axes):
        names = {text.get_text(): text for text in ax.texts}
        corners = face_corners(len(names))
        for corner, action, side in zip(
            corners, run.game.action_names[player], CORNER_NAME_SIDES, strict=False
        ):
            extent = names[action].get_window_extent(renderer)
            x, y = ax.transData.transform(corner)
            assert beside((extent.x0, extent.y0, extent.x1, extent.y1), (x, y), side, 1.0, up=1), action
