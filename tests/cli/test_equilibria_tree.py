"""``rmviz equilibria TREE``: a two-player zero-sum tree's value and equilibrium by the
sequence-form LP, as text and JSON, checked by rmviz's exact best responses."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest

from rmviz.cli import main
from rmviz.games.catalog import catalog_game
from rmviz.solvers.tree.compiled_tree import TreePasses, compile_tree


def run(capsys, *argv):
    code = main(["equilibria", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_kuhn_pokers_value_and_equilibrium_as_text(capsys):
    code, out, err = run(capsys, "kuhn")
    assert code == 0, err
    assert out.startswith("Kuhn poker  (kuhn, 2 players, 58 histories, 12 information sets)\n")
    assert (
        "value Player 1 -1/18, Player 2 1/18  (sequence-form LP, exact: an equilibrium in fractions;" in out
    )
    # the queen never bets first (Kuhn 1950); facing a bet, player 2 calls a queen 1/3 of the time
    assert "  Player 1 at Q: p 1\n" in out
    assert "  Player 2 at Qb: p 2/3, b 1/3\n" in out
    assert len(re.findall(r"^  Player [12] at ", out, flags=re.M)) == 12


@pytest.mark.parametrize(("spec", "value"), [("kuhn", -1 / 18), ("teaching-tree", 0.25)])
def test_the_json_equilibrium_is_one_by_exact_best_responses(capsys, spec, value):
    code, out, err = run(capsys, spec, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["game"] == spec and report["players"] == ["Player 1", "Player 2"]
    assert report["zero_sum"]["values"] == pytest.approx([value, -value], abs=1e-9)
    assert [Fraction(v) for v in report["zero_sum"]["values_exact"]] == [
        Fraction(value).limit_denominator(100),
        -Fraction(value).limit_denominator(100),
    ]
    tree = compile_tree(catalog_game(spec))
    table = report["zero_sum"]["equilibrium"]  # as `rmviz solve --json`'s average_strategy
    assert list(table) == list(tree.infoset_label)
    strategy = np.concatenate([list(moves.values()) for moves in table.values()])
    for moves in table.values():
        assert sum(moves.values()) == pytest.approx(1.0, abs=1e-12)
    nash_conv, values = TreePasses(tree).nash_conv(strategy)
    assert nash_conv <= 1e-9 and values[0] == pytest.approx(value, abs=1e-9)
    assert main(["solve", spec, "-n", "10", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)["average_strategy"]
    assert {label: list(moves) for label, moves in solved.items()} == {
        label: list(moves) for label, moves in table.items()
    }


def test_trees_above_the_size_limits_are_refused_in_one_line(capsys, monkeypatch):
    monkeypatch.setattr("rmviz.solvers.tree.sequence_lp.MAX_LP_TERMINALS", 29)
    code, out, _ = run(capsys, "kuhn")  # the correlation LPs still fit
    assert code == 0 and "Zero-sum" not in out and "Best EFCE" in out
    monkeypatch.setattr("rmviz.solvers.tree.correlated_lp.MAX_PROFILES", 1000)
    code, out, err = run(capsys, "kuhn")
    assert code == 2 and out == ""
    assert err == (
        "rmviz: the sequence-form LP handles trees of up to 29 terminal histories; Kuhn poker has 30; "
        "the EFCE LP handles trees of up to 1,000 reduced profiles; Kuhn poker has 27 x 64\n"
    )


def test_the_signalling_games_best_efce_beats_every_nash_equilibrium(capsys):
    code, out, err = run(capsys, "signaling")
    assert code == 0, err
    assert "Zero-sum" not in out  # general-sum: no value, the correlation LPs only
    assert (
        "Best EFCE (max welfare, LP over reduced profiles): welfare 10, payoffs Sender 4, Receiver 6" in out
    )
    assert "Best EFCCE (max welfare, LP over reduced profiles): welfare 10" in out
    code, out, err = run(capsys, "signaling", "--json")
    report = json.loads(out)
    assert report["zero_sum"] is None and report["correlated_skipped"] is None
    best = report["best_efce"]
    assert best["welfare"] == pytest.approx(10.0) and best["payoffs"] == pytest.approx([4.0, 6.0])
    assert best["strategies"][0] == ["G:X B:X", "G:X B:Y", "G:Y B:X", "G:Y B:Y"]
    joint = np.array(best["joint"]).reshape(4, 4)
    assert joint.sum() == pytest.approx(1.0) and (joint >= 0).all()


def test_leduc_says_why_it_has_no_correlation_lp(capsys):
    code, out, _ = run(capsys, "leduc")
    assert code == 0
    assert "value Player 1 -0.0856064" in out
    assert out.rstrip().endswith("too many for the strategic form")
    assert "Best EFCE and EFCCE not computed: 'Player 1' has more than 20,000 reduced strategies" in out
