"""``rmviz step`` reproduces the teaching material's numbers: the CFR lecture's regret-matching
table on Battle of the Partners and the regret-matching notebook's exercises; ``--start``."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from rmviz.cli import main
from rmviz.games.catalog import CATALOG


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def steps(capsys, *argv):
    code, out, err = run(capsys, "step", *argv, "--json")
    assert code == 0, err
    return json.loads(out)["iterations"]


# The lecture (Strass, "Counterfactual Regret Minimisation", Lecture 8, regret matching example):
# T, s^T, r_Cat^T(the other action), R_Cat^T(Cinema), R_Cat^T(Dancing), pi_Cat^{T+1}
LECTURE_TABLE = [
    (1, ("Cinema", "Dancing"), 5, 0, 5, (0, 1)),
    (2, ("Dancing", "Cinema"), 10, 10, 5, (2 / 3, 1 / 3)),
    (3, ("Cinema", "Dancing"), 5, 10, 10, (1 / 2, 1 / 2)),
    (4, ("Cinema", "Cinema"), -10, 10, 0, (1, 0)),
    (5, ("Cinema", "Dancing"), 5, 10, 5, (2 / 3, 1 / 3)),
    (6, ("Cinema", "Cinema"), -10, 10, -5, (1, 0)),
]


def test_the_lectures_regret_matching_table(capsys):
    profiles = ";".join(",".join(profile) for _, profile, *_ in LECTURE_TABLE)
    iterations = steps(capsys, "battle-of-partners", "-a", "rm", "-n", "6", "--actions", profiles)
    assert len(iterations) == 6
    for (t, profile, other, cinema, dancing, next_strategy), step in zip(
        LECTURE_TABLE, iterations, strict=True
    ):
        cat, dee = step["players"]
        assert step["iteration"] == t
        assert (cat["actions"][cat["action"]], dee["actions"][dee["action"]]) == profile
        assert cat["regret"][1 - cat["action"]] == other
        assert cat["cumulative_after"] == [cinema, dancing]
        np.testing.assert_allclose(cat["next_strategy"], next_strategy, atol=1e-15)
    code, out, _ = run(capsys, "step", "battle-of-partners", "-n", "6", "--actions", profiles)
    assert code == 0
    # row 4 in text: Cat's pi^4, U, r^4, R^3, R^4, pi^5 of Cinema
    assert re.search(r"Cinema\s+1/2\s+10\s+0\s+10\s+10\s+1\s", out)


def test_the_notebooks_regrets_of_rock_against_paper(capsys):
    first, second = steps(capsys, "rps", "-n", "2", "--actions", "Rock,Paper;Paper,Paper")
    me = first["players"][0]
    assert me["regret"] == [0, 1, 2]  # "our total regrets ... (0,1,2)"
    np.testing.assert_allclose(me["next_strategy"], [0, 1 / 3, 2 / 3])
    me = second["players"][0]
    assert me["regret"] == [-1, 0, 1]  # get_regrets(1, 1)
    assert me["cumulative_after"] == [-1, 1, 3]
    np.testing.assert_allclose(me["next_strategy"], [0, 1 / 4, 3 / 4])


def test_draw_leaves_a_player_to_chance(capsys):
    """``draw`` scripts one player only; the other draws what it would have drawn unscripted."""
    free = steps(capsys, "rps", "--play", "sampled", "--seed", "5", "-n", "2")
    half = steps(capsys, "rps", "--seed", "5", "-n", "2", "--actions", "draw,Scissors;Rock,draw")
    assert [p["action"] for p in half[0]["players"]] == [free[0]["players"][0]["action"], 2]
    assert half[1]["players"][0]["action"] == 0


def test_the_notebooks_learning_against_a_fixed_opponent(capsys):
    # train_p1(strategy_p2=[0.4, 0.3, 0.3]): "learn to play Paper a lot"
    iterations = steps(capsys, "rps", "--fix", "2=0.4,0.3,0.3", "-n", "50")
    me = iterations[0]["players"][0]
    np.testing.assert_allclose(me["utilities"], [0, 0.1, -0.1], atol=1e-15)
    np.testing.assert_allclose(me["next_strategy"], [0, 1, 0])
    assert iterations[-1]["players"][0]["average"][1] > 0.95
    # "What happens if you set the opponent strategy to [1/3,1/3,1/3]?" no regret, no learning
    iterations = steps(capsys, "rps", "--fix", "2=1/3,1/3,1/3", "--start", "1=1/2,1/4,1/4", "-n", "5")
    for step in iterations:
        me = step["players"][0]
        assert me["regret"] == [0, 0, 0]
        np.testing.assert_allclose(me["next_strategy"], [1 / 3, 1 / 3, 1 / 3])


@pytest.mark.parametrize("play", ["expected", "sampled"])
def test_the_notebooks_self_play_finds_the_equilibrium(capsys, play):
    iterations = steps(capsys, "rps", "-n", "1000", "--play", play)
    for player in iterations[-1]["players"]:
        np.testing.assert_allclose(player["average"], [1 / 3] * 3, atol=0.03)


def test_uniform_rps_does_not_move_but_the_catalog_start_does(capsys):
    uniform = steps(capsys, "rps", "-n", "3", "--start", "1=1/3,1/3,1/3", "--start", "2=1/3,1/3,1/3")
    assert all(p["cumulative_after"] == [0, 0, 0] for step in uniform for p in step["players"])
    default = steps(capsys, "rps", "-n", "1")
    assert default[0]["players"][0]["strategy"] == list(CATALOG["rps"].start[0])
    assert default[0]["players"][0]["next_strategy"] != default[0]["players"][0]["strategy"]


def test_every_algorithm_steps_in_text(capsys):
    for algorithm in (
        "rm",
        "rm+",
        "linear-rm",
        "discounted-rm",
        "predictive-rm+",
        "greedy-rm",
        "internal-rm",
    ):
        code, out, err = run(capsys, "step", "rps-crash", "-a", algorithm, "-n", "2")
        assert code == 0, err
        assert "iteration 2" in out and "pi^t+1" in out
    code, out, _ = run(
        capsys, "step", "battle-of-partners", "-a", "internal-rm", "--play", "sampled", "-n", "2"
    )
    assert "swap regrets" in out and "drew" in out


def test_start_on_solve(capsys):
    code, out, err = run(capsys, "solve", "rps", "-n", "10", "--start", "1=1,0,0", "--json")
    assert code == 0, err
    assert json.loads(out)["config"]["start"]["0"] == [1.0, 0.0, 0.0]  # the API's numbers


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("solve", "rps", "--start", "1=0.5,0.5"), "needs 3 probabilities"),
        (("solve", "rps", "--start", "1=0.5,0.6,0"), "sums to 1.1"),
        (("solve", "rps", "--start", "1=-1,1,1"), "non-negative"),
        (("solve", "rps", "--start", "3=1,0,0"), "players are numbered 1 to 2"),
        (("solve", "rps", "--start", "1=x"), "write PLAYER=P1,P2"),
        (("solve", "kuhn", "--start", "1=1,0"), "does not apply"),
        (("step", "kuhn", "--actions", "p,b"), "game trees sample with --seed"),
        (("step", "rps", "--actions", "Rock"), "one per player"),
        (("step", "rps", "--actions", "Rock,Lizard"), "no action 'Lizard'"),
        (("step", "rps", "--actions", "Rock,Paper", "--play", "expected"), "sampled play"),
        (("step", "rps", "-n", "2", "--actions", "Rock,Paper;Rock,Paper"), "iteration 2: Row cannot play"),
        (("step", "rps", "--actions", "Rock,Paper;Rock"), "--actions, iteration 2: 'Rock' names 1 actions"),
        (("step", "kuhn", "--latex"), "--latex writes matrix-game step tables"),
    ],
)
def test_mistakes_are_one_line(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_step_explains_cfr_on_a_game_tree(capsys):
    """The tree window's explanation as text, and its numbers as JSON: on the teaching tree
    at T = 1, player 2 reaches [X, L] with 0.5 (player 1 already moved to L), 0.25 with the
    start strategy, as the lecture's pseudo-code computes."""
    code, out, err = run(capsys, "step", "teaching-tree", "-a", "cfr", "-n", "2", "--infoset", "2X")
    assert code == 0, err
    assert out.count("Information set J = “2X” of Player 2 (i = 2)") == 2
    assert (
        "P(h | π_{-i}) = 0.5 at h = [X; L], where the strategies of the iteration's start π^T give 0.25"
        in out
    )
    assert "R^T(J, m) = R^{T-1}(J, m) + r^T(J, m)" in out
    iterations = steps(capsys, "teaching-tree", "-a", "dcfr", "-n", "3", "--infoset", "1", "--infoset", "2Y")
    assert [len(t["infosets"]) for t in iterations] == [2, 2, 2]
    third = iterations[2]["infosets"][0]
    assert third["label"] == "1" and third["algorithm"] == "dcfr"
    assert third["d_pos"] == pytest.approx(2**1.5 / (2**1.5 + 1)) and third["d_avg"] == pytest.approx(4 / 9)
    assert sum(h["reach"] for h in third["histories"]) == pytest.approx(third["reach"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("teaching-tree", "--infoset", "3Z"),
            "--infoset '3Z': no such information set among the tree's 3 (1, 2X, 2Y)",
        ),
        (("teaching-tree", "-a", "rm"), "'rm' is a matrix-game algorithm"),
        (("rps", "--infoset", "1"), "--infoset chooses information sets of game trees"),
    ],
)
def test_step_on_trees_refuses_what_does_not_apply(capsys, argv, message):
    code, _, err = run(capsys, "step", *argv)
    assert code != 0 and message in err
