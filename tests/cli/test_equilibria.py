"""``rmviz equilibria``: the CE checker and the LP references without a window."""

from __future__ import annotations

import json
import re

import pytest

from rmviz.cli import main


def run(capsys, *argv):
    code = main(["equilibria", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_lectures_battle_of_the_partners_check(capsys):
    code, out, err = run(capsys, "battle-of-partners", "--joint", "2/9,4/9,1/9,2/9")
    assert code == 0, err
    assert "exact rational arithmetic" in out
    # Cat advised Cinema, deviating to Dancing: the lecture's sum, value 0, slack 0
    assert re.search(r"Cat\s+Cinema\s+Dancing\s+2/9\*\(0 - 10\) \+ 4/9\*\(7 - 2\)\s+0\s+0\s+binds", out)
    assert "CE gap  0: a correlated equilibrium" in out
    assert "CCE gap 0: a coarse correlated equilibrium" in out
    assert "expected payoffs: Cat 14/3, Dee 14/3; welfare 28/3" in out
    assert "Best CE (max welfare, LP): welfare 17  (exact" in out
    assert "Best CCE (max welfare, LP): welfare 17  (exact" in out


def test_traffic_lights_and_a_violated_joint(capsys):
    code, out, _ = run(capsys, "traffic-lights", "--joint", "0 1/2 1/2 0", "--no-lp")
    assert code == 0
    assert re.search(r"Car 1\s+Stop\s+Go\s+1/2\*\(-100 - 0\)\s+-50\s+50\s+holds", out)
    assert "Best CE" not in out
    code, out, _ = run(capsys, "traffic-lights", "--joint", "1 1 1 1", "--no-lp")  # weights
    assert "the entries summed to 4; each was divided by it" in out
    # Car 1 advised Go: 1/4 (0 - 1) + 1/4 (0 - (-100)) = 99/4 > 0
    assert re.search(
        r"Car 1\s+Go\s+Stop\s+1/4\*\(0 - 1\) \+ 1/4\*\(0 - -100\)\s+99/4\s+-99/4\s+VIOLATED", out
    )
    assert "CE gap  99/4: not a correlated equilibrium" in out


def test_zero_sum_value_and_json(capsys):
    code, out, _ = run(capsys, "rps-crash")
    assert code == 0
    assert "Zero-sum game: value Row 0, Column 0  (LP, exact: a saddle point in fractions)" in out
    assert "Row plays Rock 1/4, Paper 1/2, Scissors 1/4" in out
    code, out, _ = run(capsys, "battle-of-partners", "--joint", "2/9,4/9,1/9,2/9", "--json")
    report = json.loads(out)
    assert report["profiles"] == [
        "(Cinema, Cinema)",
        "(Cinema, Dancing)",
        "(Dancing, Cinema)",
        "(Dancing, Dancing)",
    ]
    check = report["check"]
    assert check["exact"] and check["is_ce"] and check["ce_gap"] == {"value": 0.0, "exact": "0"}
    assert check["welfare"] == {"value": pytest.approx(28 / 3), "exact": "28/3"}
    first = check["ce_constraints"][0]
    assert first["player"] == "Cat" and first["recommended"] == "Cinema" and first["deviation"] == "Dancing"
    assert first["expansion"] == "2/9*(0 - 10) + 4/9*(7 - 2)" and first["exact"] == "0"
    assert report["best_ce"]["welfare_exact"] == "17" and report["best_ce"]["joint_exact"] == [
        "1",
        "0",
        "0",
        "0",
    ]
    assert report["zero_sum"] is None and report["lp_skipped"] is None
    code, out, _ = run(capsys, "rps", "--json")
    assert json.loads(out)["zero_sum"]["values_exact"] == ["0", "0"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rps", "--joint", "1,2"], "has 9 entries, one per action profile in table order; got 2"),
        (["battle-of-partners", "--joint", "1/2,oops,0,1/2"], "entry 2 ('oops') is not a number"),
        (["battle-of-partners", "--joint", "0,0,0,0"], "all zeros"),
        (["kuhn", "--joint", "1"], "--joint lists a matrix game's action profiles; a game tree has none"),
        (["kuhn", "--no-lp"], "nothing to do: a game tree's references are linear programmes"),
        (["openspiel:kuhn_poker(players=3)"], "is not a two-player zero-sum game tree (3 players)"),
        (["rps", "--no-lp"], "nothing to do"),
        (["random:general-sum:70x70"], "up to 4,096 action profiles; this 70x70 game has 4,900"),
        (["no-such-game"], "no-such-game"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("rmviz: ") and message in err and err.count("\n") == 1


def test_a_joint_is_checked_even_where_the_lp_is_too_large(capsys):
    code, out, _ = run(capsys, "random:general-sum:70x70", "--joint", " ".join(["1"] * 4900))
    assert code == 0
    assert "Joint distribution p (floating point" in out  # 4,900 profiles x 140 actions: floats
    assert "CE gap  0: a correlated equilibrium" not in out
    assert "Best CE and CCE not computed: the best-CE linear programme handles games of up to 4,096" in out
