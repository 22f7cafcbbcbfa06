"""Figures fit what they draw: the simplex figure's size fits its panels (``FigureKind.fit``:
a 2x2 game's one square and a row of two-action segments left most of a figure sized for two
triangles blank), and titles and captions wrap to the page (``style.wrap_to``)."""

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


@pytest.mark.parametrize("field", [False, True])
@pytest.mark.parametrize("style", list(STYLES))
def test_a_2x2_games_square_keeps_its_size_down_to_the_smallest_figure(style, field):
    """The square's key (what the paths are) and the field's note go over the figure, wrapped
    to its width: as the square's title, wrapped to the square's width, each line it took
    shrank the square, which took more (at the smallest size: seven lines over a square of a
    quarter of the figure, the axis title broken mid-word)."""
    import dataclasses

    run = record(catalog_game("battle-of-partners"), "rm", iterations=50)
    run = dataclasses.replace(run, dynamics=field)
    for size in (minimum_size("simplex", style, run.game), None):
        fig = make_figure("simplex", run, style, size)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        (ax,) = fig.axes
        box = ax.get_window_extent(canvas.get_renderer())
        width, height = fig.get_size_inches() * fig.dpi
        least = 0.35 if field else 0.5  # the field's note takes two or three lines more
        assert min(box.width / width, box.height / height) > least, (size, box)
        assert not ax.get_title() and "(fading in)" in fig.get_suptitle()


def test_lines_break_at_the_captions_separators_and_each_hand_broken_line_on_its_own():
    from rmviz.figures.style import wrapped
    from rmviz.present.definitions import CAPTION_SEPARATOR as DOT

    caption = DOT.join(["Battle of the Partners", "rm", "T = 1,000", "expected play"])
    assert wrapped(caption, 40) == [f"Battle of the Partners{DOT}rm", f"T = 1,000{DOT}expected play"]
    assert wrapped(caption, 200) == [caption]
    assert not any(
        line.strip().endswith("·") or line.strip().startswith("·") for line in wrapped(caption, 12)
    )
    assert wrapped("one two three four\nfive", 9) == ["one two", "three", "four", "five"]
