"""The exported simplex figure draws the field of the run's dynamic under the paths when asked
(rmviz export --field, Result.plot(field=True)), and the algorithm's steps beside the flow."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rmviz.api import solve
from rmviz.cli import main
from rmviz.figures import make_figure, record
from rmviz.games import catalog_game
from rmviz.present.dynamics import step_count
from rmviz.present.simplex import STEPS_COLOUR, STEPS_COLOUR_NAME


def _field_lines(fig) -> list:
    return [c for ax in fig.axes for c in ax.collections if c.get_gid() == "rmviz-field"]


@pytest.fixture(scope="module")
def hedge_rps():
    return record(catalog_game("rps"), "hedge", iterations=50, step_size=0.5)


def test_the_simplex_figure_draws_arrows_only_when_asked(hedge_rps):
    assert not _field_lines(make_figure("simplex", hedge_rps))
    fig = make_figure("simplex", dataclasses.replace(hedge_rps, dynamics=True))
    lines = _field_lines(fig)
    arrows = sum(len(c.get_segments()) for c in lines)
    assert arrows >= 2 * 3 * 50  # two triangles of at least 50 arrows, three strokes each
    assert all(c.get_zorder() < 1 for c in lines)  # under the paths
    assert "replicator dynamics" in fig._suptitle.get_text()


def test_the_steps_beside_the_flow_start_at_the_newest_current_strategy(hedge_rps):
    run = dataclasses.replace(hedge_rps, dynamics=True, dynamics_step=1.0)
    fig = make_figure("simplex", run)
    ax = fig.axes[0]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    dotted = [line for line in ax.lines if line.get_marker() == "o" and line.get_color() == STEPS_COLOUR]
    assert len(dashed) == 1 and len(dotted) == 1
    assert len(dotted[0].get_xdata()) == step_count(1.0) + 1
    np.testing.assert_allclose(dashed[0].get_xydata()[0], dotted[0].get_xydata()[0])
    # named by colour: the current strategies' trail has dots too, grey ones
    assert f"{STEPS_COLOUR_NAME} dots: steps of size 1" in fig._suptitle.get_text()


def test_the_square_of_matching_pennies_with_regret_matching():
    run = record(catalog_game("matching-pennies"), "rm", iterations=100)
    fig = make_figure("simplex", dataclasses.replace(run, dynamics=True, dynamics_step=0.1))
    assert _field_lines(fig) and "Brown-von Neumann-Nash" in fig._suptitle.get_text()


def test_the_api_keyword():
    result = solve("rps", "fictitious-play", iterations=30)
    fig = result.plot("simplex", field=True, field_step=0.2)
    assert _field_lines(fig) and "best-response dynamics" in fig._suptitle.get_text()
    with pytest.raises(Exception, match="positive"):
        result.plot("simplex", field_step=-1.0)


def test_rmviz_export_field_writes_the_arrows_into_the_svg(tmp_path):
    out = tmp_path / "simplex.svg"
    args = ["export", "rps", "-a", "hedge", "--figure", "simplex", "--iterations", "40", "--out", str(out)]
    assert main([*args, "--field", "--field-step", "0.5"]) == 0
    svg = out.read_text()
    assert svg.count('id="rmviz-field') >= 4  # opacity levels of both triangles
    assert main(args) == 0
    assert "rmviz-field" not in out.read_text()


def test_steps_too_large_to_draw_and_fields_not_drawn_are_not_promised():
    """A step above the horizon's half made the flow run for the step's own time (1e9: a line
    into a vertex): refused on every surface. A game with no three-action player draws no
    arrows, and its figure promises none."""
    from rmviz.errors import ConfigError
    from rmviz.present.dynamics import MAX_DRAWN_STEP

    result = solve("rps", "hedge", iterations=20)
    assert _field_lines(result.plot("simplex", field=True, field_step=MAX_DRAWN_STEP))
    with pytest.raises(ConfigError, match="up to 10, not 1e\\+09"):
        result.plot("simplex", field=True, field_step=1e9)
    with pytest.raises(SystemExit):
        main(["export", "rps", "--figure", "simplex", "--field-step", "11", "--out", "x.svg"])
    pennies = solve("three-player-pennies", "hedge", iterations=20).plot("simplex", field=True, field_step=1)
    assert not _field_lines(pennies) and pennies._suptitle is None
