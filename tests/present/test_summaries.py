"""``rmviz solve``'s text summaries (rmviz.present.summaries), from reports written here."""

from __future__ import annotations

from rmviz.games import catalog_game
from rmviz.present.summaries import SUMMARIES, matrix_summary, tree_summary
from rmviz.solvers.registry import FAMILIES, MATRIX, TREE


def test_each_family_has_its_summary():
    assert SUMMARIES == {MATRIX: matrix_summary, TREE: tree_summary}
    assert set(SUMMARIES) == set(FAMILIES)


def test_the_matrix_summary_rounds_noise_to_zero_and_says_what_is_not_tracked():
    game = catalog_game("matching-pennies")
    report = {
        "title": "Matching Pennies",
        "game": "matching-pennies",
        "algorithm": "rm",
        "iterations": 10,
        "seconds": 0.5,
        "iterations_per_second": 20.0,
        "device": "cpu",
        "value": [-0.0, 0.0],
        "average_strategy": [[0.5, 0.5], [0.25, 0.75]],
        "current_strategy": [[1.0, 0.0], [0.0, 1.0]],
        "exploitability": 1e-19,
        "nash_conv": 0.25,
        "cce_gap": None,
        "ce_gap": None,
        "eps_bound": -1e-17,
        "welfare": 0.0,
    }
    lines = matrix_summary(report, game).splitlines()
    assert lines[1] == "rm: 10 iterations in 0.500 s (20 it/s) on cpu"
    assert lines[3].endswith("(payoff of the average profile 0)")
    assert "average   0.2500  current   0.0000  ########" in lines[7]
    assert "  exploitability (NashConv/n)  0" in lines
    assert "  CE gap                       not tracked (large game, expected play)" in lines
    assert "  regret bound 2 max R / T     0" in lines


def test_the_tree_summary_shows_24_information_sets():
    table = {f"{j}": {"p": 0.25, "b": 0.75} for j in range(30)}
    report = {
        "title": "A tree",
        "game": "tree.efg",
        "algorithm": "cfr",
        "iterations": 3,
        "seconds": 1.0,
        "iterations_per_second": 3.0,
        "players": ["A", "B"],
        "average_strategy": table,
        "value": [0.5, -0.5],
        "exploitability": 0.125,
        "nash_conv": 0.25,
        "eps_bound": 1.0,
    }
    text = tree_summary(report, None)
    assert "  information set  average strategy\n  0   p 0.2500  b 0.7500\n  1   p 0.2500" in text
    assert "  23  p 0.2500" in text and "  24  p" not in text
    assert "  ... 6 more information sets (use --json)\n" in text
    assert "  value of the average profile   A 0.5, B -0.5\n" in text
    assert text.endswith("  regret bound sum_I R+/T        1\n")


def test_a_player_of_many_actions_lists_the_most_played_as_the_window_does():
    """Blotto's 66 strategies were listed in index order, the first 12 mostly at 0.0000,
    the ones played left out; the summary lists the most played (panels.shown_actions, the
    window's and the figures' rule), most played first."""
    import json

    import numpy as np

    import rmviz
    from rmviz.present.panels import MAX_ACTIONS, most_played

    rng = np.random.default_rng(3)
    payoffs = rng.normal(size=(30, 30))
    game = rmviz.game(payoffs, actions=[[f"a{k}" for k in range(30)]] * 2, title="thirty")
    result = rmviz.solve(game, "rm+", 500)
    report = json.loads(json.dumps(result.report()))
    report |= {"title": "thirty", "seconds": 0.1, "iterations_per_second": 5000.0}  # the CLI's own
    lines = matrix_summary(report, game).splitlines()
    listed = [line.split()[0] for line in lines if line.startswith("  a")]
    expected = [
        f"a{k}" for p in range(2) for k in most_played(np.array(report["average_strategy"][p]), MAX_ACTIONS)
    ]
    assert listed == expected and len(listed) == 2 * MAX_ACTIONS
    assert lines.count("  ... the 20 actions played less (use --json)") == 2
