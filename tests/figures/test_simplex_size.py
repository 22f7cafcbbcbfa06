"""The simplex figure's size fits its panels (``FigureKind.fit``): a 2x2 game's one square
and a row of two-action segments left most of a figure sized for two triangles blank."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from rmviz.figures import make_figure, record
from rmviz.figures.registry import default_size, minimum_size
from rmviz.figures.style import STYLES
from rmviz.games import catalog_game

# the widest blank band of columns and the tallest of rows allowed, inches: the two triangles'
# gap is 1.9 in the slides style; the fitted square and segments leave at most 0.7
WIDEST_BLANK, TALLEST_BLANK = 2.0, 1.0


def longest_run(blank: np.ndarray) -> int:
    """The longest run of True in ``blank``."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], blank.astype(np.int8), [0]])))
    return int((edges[1::2] - edges[::2]).max(initial=0))


@pytest.mark.parametrize("game", ["matching-pennies", "three-player-pennies", "rps-crash"])
@pytest.mark.parametrize("style", list(STYLES))
def test_the_simplex_figure_leaves_no_wide_blank_band(game, style):
    run = record(catalog_game(game), "rm", iterations=50)
    fig = make_figure("simplex", run, style)
    assert tuple(fig.get_size_inches()) == pytest.approx(default_size("simplex", style, game=run.game))
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    ink = (np.asarray(canvas.buffer_rgba())[:, :, :3] < 200).any(axis=2)
    assert longest_run(~ink.any(axis=0)) / fig.dpi <= WIDEST_BLANK
    assert longest_run(~ink.any(axis=1)) / fig.dpi <= TALLEST_BLANK


def test_the_fitted_sizes_are_the_ones_refused_below():
    """The smallest size follows the fitted one: a 2x2 game's square may be exported narrower
    than two triangles' figure, and not narrower than its own minimum."""
    from rmviz.errors import ConfigError
    from rmviz.figures.registry import check_size

    game = catalog_game("matching-pennies")
    low = minimum_size("simplex", "paper", game)
    assert low[0] < minimum_size("simplex", "paper")[0] / 2
    check_size("simplex", "paper", low, game=game)
    with pytest.raises(ConfigError, match="too small for the simplex figure"):
        check_size("simplex", "paper", (low[0] * 0.9, low[1]), game=game)
