"""Which actions a panel draws of a player with more than it can show
(rmviz.present.panels.shown_actions): the most played at the run's last point, most played
first, ranked by whole hundredths of the most played one's probability with ties to the lower
index; the strategy panels, the regret panel and its key, the simplex's face and a tree's wide
information set, on paper and live (tests/ui/matrix/test_plots.py,
tests/ui/matrix/test_window_features.py, tests/ui/tree/test_wide_nodes.py), draw the same ones."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from rmviz.figures import make_figure, record
from rmviz.loading import load_with_progress
from rmviz.present.definitions import ACTION_COLOURS
from rmviz.present.panels import (
    MAX_ACTIONS,
    action_key,
    last_averages,
    matrix_panels,
    regret_panel,
    shown_actions,
    strategy_panel,
)
from rmviz.solvers.columns import Column


def test_up_to_ten_actions_all_are_shown_and_without_a_run_the_first_ten():
    assert shown_actions(4, np.array([0.0, 0.0, 0.0, 1.0])) == (0, 1, 2, 3)
    assert shown_actions(15) == tuple(range(MAX_ACTIONS))


@pytest.mark.parametrize(
    ("played", "shown"),
    [
        # played alike: the first ten
        (dict.fromkeys(range(12), 1 / 12), tuple(range(10))),
        # the most played first; 8.31 % is 99.5 hundredths of 8.35 %, one step with 8.30 %:
        # action 10 loses the tie to the lower indices
        ({**dict.fromkeys(range(10), 0.0830), 10: 0.0831, 11: 0.0835}, (11, *range(9))),
        # the trial's game: four actions played, the rest under a step, kept in index order
        ({5: 0.348, 6: 0.253, 11: 0.302, 12: 0.096, 14: 0.0009}, (5, 11, 6, 12, 0, 1, 2, 3, 4, 7)),
        # many played alike, each under 1 %: those, not the first ten (unplayed)
        ({a: 1 / 143 for a in range(6, 1000, 7)}, tuple(range(6, 76, 7))),
    ],
)
def test_the_most_played_actions_are_shown_by_whole_steps_ties_to_the_lower_index(played, shown):
    average = np.zeros(max(15, max(played) + 1))
    for action, p in played.items():
        average[action] = p
    assert shown_actions(average.size, average) == shown


def test_the_ranking_is_its_definition_in_exact_fractions():
    """floor(100 p / max p) computed exactly, then the lower index first among ties, over many
    generated strategies (coarse values, so that ties occur)."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(11, 40))
        weights = rng.integers(0, 50, size=n) * (rng.random(n) < 0.6)
        weights[0] += weights.sum() == 0
        average = weights / weights.sum()
        top = max(Fraction(float(p)) for p in average)
        steps = [math.floor(100 * Fraction(float(p)) / top) for p in average]
        expected = sorted(range(n), key=lambda a: (-steps[a], a))[:MAX_ACTIONS]
        assert shown_actions(n, average) == tuple(expected)


def test_each_action_shown_keeps_its_colour_while_the_actions_shown_stay():
    actions = [str(a) for a in range(15)]
    average = np.zeros(15)
    average[[14, 3]] = 0.6, 0.4
    panel = strategy_panel(0, "P", actions, average)
    solid = [line for line in panel.lines if line.column.quantity == "average"]
    assert [line.label for line in solid] == ["14", "3", "0", "1", "2", "4", "5", "6", "7", "8"]
    colours = {line.label: line.colour for line in solid}
    order = sorted(solid, key=lambda line: line.column.action)
    assert [colours[line.label] for line in order] == list(ACTION_COLOURS)
    average[[14, 3]] = 0.4, 0.6  # another order, the same actions: the same colours
    again = {line.label: line.colour for line in strategy_panel(0, "P", actions, average).lines}
    assert again == colours


def test_the_panels_of_a_big_game_draw_the_actions_its_run_plays():
    """random:zero-sum:15x15: each player's average plays four actions, among them actions 12
    and 13 of player 1 (1-based); the panels drew actions 1 to 10 only."""
    run = record(load_with_progress("random:zero-sum:15x15"), "rm", iterations=1000)
    names = run.game.action_names
    averages = last_averages(run.trace.columns, [15, 15])
    played = [{names[i][a] for a in np.flatnonzero(averages[i] >= 0.02)} for i in range(2)]
    assert {len(p) for p in played} == {4} and not all(p <= set(names[0][:10]) for p in played)
    panels = matrix_panels(run.family, run.game, ["strategies", "regrets"], True, table=run.trace)
    for i, panel in enumerate(panels["strategies"]):
        assert panel.title.endswith("(10 most played of 15)")
        drawn = {line.label for line in panel.lines}
        assert len(drawn) == MAX_ACTIONS and played[i] <= drawn
        for line in panel.lines:  # each line reads its own action's column
            assert names[i][line.column.action] == line.label and line.column.player == i
    (regrets,) = panels["regrets"]
    by_player = [
        {line.label.split(": ")[1] for line in regrets.lines if line.column.player == i} for i in range(2)
    ]
    assert by_player == [{line.label for line in p.lines} for p in panels["strategies"]]
    # each colour of the key names the action drawn in it, for each player
    strategies = {
        (i, line.colour): line.label for i, p in enumerate(panels["strategies"]) for line in p.lines
    }
    for label, colour in action_key(regrets):
        assert set(label.split(" / ")) == {strategies[(0, colour)], strategies[(1, colour)]}
    fig = make_figure("strategies", run, "paper")
    for ax, names_drawn in zip(fig.axes, played, strict=True):
        legend = {t.get_text() for t in ax.get_legend().get_texts()}
        assert names_drawn <= legend and ax.get_title().endswith("(10 most played of 15)")


def test_a_panel_without_a_run_says_it_shows_the_first_actions():
    actions = [str(a) for a in range(12)]
    assert strategy_panel(0, "P", actions).title.endswith("(first 10 of 12 actions)")
    assert regret_panel(["P", "Q"], [actions, actions[:3]]).title.endswith("(first 10 of 12 actions)")
    assert last_averages({Column("average", 0, action=a): np.zeros(0) for a in range(12)}, [12]) == [None]


def test_a_big_games_simplex_figure_draws_the_three_most_played():
    """Without a face chosen (the command line), each player's simplex is the face of the
    three actions its average plays most, as the window's follows the run."""
    run = record(load_with_progress("random:zero-sum:15x15"), "rm", iterations=1000)
    fig = make_figure("simplex", run, "paper")
    for i, ax in enumerate(fig.axes):
        p = last_averages(run.trace.columns, [15, 15])[i]
        assert p is not None
        face = sorted(np.argsort(-p, kind="stable")[:3].tolist())
        names = ", ".join(run.game.action_names[i][a] for a in face)
        assert ax.get_title().endswith(f"(face {names} of 15)")


def test_the_notebook_view_draws_the_actions_played_too():
    """rmviz.watch's frames asked the trace for the panels' columns only, actions 1 to 10:
    its 15x15 frame drew those whatever the run played. It asks for every action's now."""
    from rmviz.notebook.frames import Frames

    run = record(load_with_progress("random:zero-sum:15x15"), "rm", iterations=1000)
    frames = Frames(run)
    assert {Column("average", player=i, action=a) for i in range(2) for a in range(15)} <= set(frames.columns)
    trace = type(run.trace)(run.trace.iterations, {c: run.trace.columns[c] for c in frames.columns})
    frames.draw(trace, run.snapshot)
    titles = [ax.get_title() for ax in frames._axes]
    assert titles[0].endswith("(10 most played of 15)") and titles[1].endswith("(10 most played of 15)")
    played = [a for a in range(15) if last_averages(run.trace.columns, [15, 15])[0][a] >= 0.02]
    names = {t.get_text() for t in frames._axes[0].get_legend().get_texts()}
    assert {run.game.action_names[0][a] for a in played} <= names
