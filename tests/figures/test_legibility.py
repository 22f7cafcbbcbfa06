"""Exported figures are legible at every size they accept: no text overprints another or
leaves the page, no legend covers a curve, every player is drawn with its own actions,
named ticks are thinned to fit, and sizes too small are refused in one line."""

from __future__ import annotations

import pytest

from rmviz.errors import RmvizError
from rmviz.figures import make_figure, record, save_figure
from rmviz.figures.registry import default_size, minimum_size
from rmviz.games import catalog_game
from rmviz.loading import load_with_progress
from tests.figures.checks import drawn, legends_over_data, overprinted

CURVES = ["gaps", "strategies", "regrets"]


@pytest.fixture(scope="module")
def three_players():
    return record(catalog_game("three-player-pennies"), "rm", iterations=300)


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("which", [default_size, minimum_size])
def test_no_text_overprints_and_no_legend_covers_a_curve(matrix_run, name, which):
    fig = make_figure(name, matrix_run, "paper", which(name, "paper"))
    assert overprinted(fig) == []
    assert legends_over_data(fig) == []


def test_the_regrets_of_every_player_with_its_own_actions(three_players):
    """One panel, as live: colour the action, dash the player; the legend keys each player's
    dash and each action's colour once."""
    fig = make_figure("regrets", three_players, "paper")
    (ax,) = fig.axes
    assert ax.get_title() == "average regret per action"
    legend = ax.get_legend()
    names = [t.get_text() for t in legend.get_texts()]
    assert names == ["Player 1", "Player 2", "Player 3", "Heads", "Tails"]
    curves = [line for line in ax.get_lines() if len(line.get_xdata()) > 2]  # not zero's line
    assert len(curves) == 6
    dashes = [line.get_linestyle() for line in legend.get_lines()]
    assert dashes[:3] == [curves[0].get_linestyle(), curves[2].get_linestyle(), curves[4].get_linestyle()]
    assert len(set(dashes[:3])) == 3 and dashes[3:] == ["-", "-"]
    assert [line.get_color() for line in legend.get_lines()[3:]] == [c.get_color() for c in curves[:2]]
    assert overprinted(fig) == [] and legends_over_data(fig) == []


def test_many_actions_fit_the_default_size():
    """A 12x9 game's dashboard in the slides style at its default size: the regret legend
    named every player's every action (19 entries) and left the panel no room."""
    run = record(load_with_progress("random:general-sum:12x9:seed=3"), "rm", iterations=100)
    fig = make_figure("dashboard", run, "slides")
    regrets = next(ax for ax in fig.axes if ax.get_title().startswith("average regret"))
    assert regrets.get_title() == "average regret per action (10 most played of 12)"
    names = [t.get_text() for t in regrets.get_legend().get_texts()]
    assert names[:2] == ["Player 1", "Player 2"] and len(names) == 12
    assert overprinted(fig) == []


@pytest.mark.slow  # ~60 s; .ci/run runs it
@pytest.mark.parametrize(
    "game",
    [
        "random:general-sum:10x10x10",
        "random:general-sum:3x3x3x3",
        "random:zero-sum:20x20",
        "random:general-sum:2x30",
        "random:general-sum:11x2",
    ],
)
def test_every_figure_of_many_actions_or_players_draws_at_its_default_size(game):
    from rmviz.figures.registry import figures_of
    from rmviz.figures.style import STYLES

    run = record(load_with_progress(game), "rm", iterations=100)
    for name in figures_of("matrix"):
        if name != "tikz":
            for style in STYLES:
                drawn(make_figure(name, run, style))  # raises when collapsed


@pytest.mark.parametrize("size", [(6.4, 5.0), (4.0, 3.2)])
def test_joint_tick_labels_are_thinned_to_fit(size):
    run = record(load_with_progress("random:general-sum:30x30:seed=3"), "rm", iterations=100)
    fig = make_figure("joint", run, "paper", size)
    drawn(fig)
    (ax,) = fig.axes  # the heatmap; its colour bar is an inset of it
    shown = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert 2 < len(shown) < 30 and shown[0] in ("2", "5", "10")  # every k-th action
    columns = [t for t in ax.get_xticklabels() if t.get_text()]
    assert 2 < len(columns) < 30 and {t.get_rotation() for t in columns} == {0.0}  # short: upright
    assert overprinted(fig) == []


def test_long_column_names_of_the_joint_slant_and_short_ones_stand():
    """One-character names slanted 45 degrees from 5 columns on; long ones still slant."""
    from rmviz.games.normal_form import NormalFormGame

    payoffs = load_with_progress("random:general-sum:6x6:seed=3").payoffs
    for names, slant in (("ABCDEF", 0.0), (tuple(f"action {a + 1}" for a in range(6)), 45.0)):
        game = NormalFormGame(payoffs, action_names=(tuple(names), tuple(names)))
        fig = make_figure("joint", record(game, "rm", iterations=20), "paper")
        drawn(fig)
        columns = [t for t in fig.axes[0].get_xticklabels() if t.get_text()]
        assert columns and {t.get_rotation() for t in columns} == {slant}
        assert overprinted(fig) == []


def test_end_labels_of_converging_curves_are_spread(tree_run):
    fig = make_figure("strategies", tree_run, "paper")
    assert overprinted(fig) == []


def test_too_small_is_refused_in_one_line(matrix_run, tmp_path):
    with pytest.raises(
        RmvizError, match=r"^800x500 pixels is too small for the dashboard figure in the slides"
    ) as error:
        save_figure("dashboard", matrix_run, tmp_path / "d.png", "slides", (8.0, 5.0), 100)
    assert "\n" not in str(error.value)
    with pytest.raises(RmvizError, match="too small"):
        make_figure("gaps", matrix_run, "paper", (0.3, 0.3))


@pytest.fixture(scope="module")
def runs():
    games = {"battle-of-partners": "rm", "rps-crash": "rm", "three-player-pennies": "rm", "kuhn": "cfr"}
    return {game: record(catalog_game(game), algorithm, iterations=200) for game, algorithm in games.items()}


def test_a_2x2_simplex_draws_at_its_minimum_size_in_every_style(runs):
    """The case the slow test below found: one square panel collapsed at the old minimum."""
    from rmviz.figures.style import STYLES

    for style in STYLES:
        run = runs["battle-of-partners"]
        drawn(make_figure("simplex", run, style, minimum_size("simplex", style, run.game)))


@pytest.mark.slow  # ~25 s a game; the default run stays under 5 minutes, .ci/run runs it
@pytest.mark.parametrize("game", ["battle-of-partners", "rps-crash", "three-player-pennies", "kuhn"])
def test_every_figure_draws_at_its_minimum_size_in_every_style(runs, game):
    """The export dialog offers nothing smaller; the simplex of a 2x2 game (one square panel)
    collapsed at the minimum the export had allowed."""
    from rmviz.figures.registry import figures_of
    from rmviz.figures.style import STYLES

    run = runs[game]
    for name in figures_of("tree" if game == "kuhn" else "matrix"):
        if name == "tikz":
            continue
        for style in STYLES:
            drawn(make_figure(name, run, style, minimum_size(name, style, run.game)))  # raises when collapsed
