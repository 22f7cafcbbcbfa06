"""What ran is what is recorded, and what cannot run as asked is refused.

A researcher's trial found ``rmviz solve --json`` and the run data file of one command
numbering players differently ("fixed": {"2": ...} against "fixed_strategies": {"1": ...}),
``--json`` without alpha, beta, gamma or inertia, and a catalog game's start (RPS starts
away from its uniform equilibrium) recorded as null though it ran. Both now write one record
(:mod:`rmviz.solvers.config_record`): every field, defaults as resolved, players from 0, and
the record re-runs the run. ``--alpha`` for RM was taken and ignored, and a mistyped keyword
of the API was blamed on the family."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import rmviz
from rmviz.cli import main
from rmviz.errors import ConfigError
from rmviz.solvers.registry import MATRIX, family_of_algorithm


def solve(capsys, tmp_path, *argv):
    trace = tmp_path / "run.json"
    code = main(["solve", *argv, "-n", "30", "--trace", str(trace), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out), json.loads(trace.read_text())


@pytest.mark.parametrize(
    "argv",
    [
        ("rps", "--fix", "2=0.8,0.1,0.1"),
        ("rps-crash", "-a", "discounted-rm", "--alpha", "3", "--gamma", "1"),
        ("rps", "-a", "internal-rm", "--play", "sampled", "--inertia", "0.7", "--seed", "4"),
        ("rps-crash", "-a", "greedy-rm", "--start", "1=0.2,0.3,0.5"),
        ("kuhn", "-a", "dcfr", "--alpha", "2"),
        ("kuhn", "-a", "efr", "--deviations", "blind-cf"),
    ],
)
def test_json_and_run_data_record_one_config_that_re_runs_the_run(capsys, tmp_path, argv):
    report, data = solve(capsys, tmp_path, *argv)
    record = report["config"]
    assert record == data["config"]  # one record, one numbering
    for name in ("alpha", "beta", "gamma", "greedy_floor", "seed", "updates", "algorithm"):
        assert name in record
    family = family_of_algorithm(record["algorithm"])
    options = {name: value for name, value in record.items() if name in family.accepted}
    again = rmviz.solve(argv[0], record["algorithm"], 30, **options)  # the record re-runs it
    if family is MATRIX:
        assert np.array_equal(again.solver.snapshot().joint, np.array(report["joint"]))
    assert again.solver.config_record() == record


def test_a_catalog_games_start_is_recorded_and_said(capsys, tmp_path):
    report, _ = solve(capsys, tmp_path, "rps", "--fix", "2=0.8,0.1,0.1")
    assert report["config"]["start"] == {"0": [0.5, 0.25, 0.25]}  # player 2 starts fixed
    assert report["config"]["fixed_strategies"] == {"1": [0.8, 0.1, 0.1]}
    assert main(["solve", "rps", "-n", "10"]) == 0
    assert "pi^1: the catalog's start for rps: 1/2, 1/4, 1/4; 1/4, 1/2, 1/4" in capsys.readouterr().out
    assert main(["solve", "rps", "-n", "10", "--start", "1=1/3,1/3,1/3"]) == 0
    assert "pi^1" not in capsys.readouterr().out  # chosen, not defaulted: nothing to explain


def test_a_parameter_the_algorithm_does_not_use_is_refused(capsys):
    for argv, said in [
        (
            ("rps-crash", "-a", "rm", "--alpha", "3"),
            "alpha does not apply to rm: it uses no numerical parameter",
        ),
        (("rps-crash", "-a", "rm", "--inertia", "0.1"), "inertia does not apply to rm"),
        (("rps-crash", "-a", "discounted-rm", "--inertia", "0.1"), "it uses alpha, beta, gamma"),
        (("kuhn", "-a", "cfr+", "--floor", "0.5"), "weight floor does not apply to cfr+"),
        (("kuhn", "-a", "mccfr-external", "--exploration", "0.3"), "exploration does not apply"),
    ]:
        assert main(["solve", *argv, "-n", "10"]) == 2
        assert said in capsys.readouterr().err
    rmviz.solve("rps-crash", "discounted-rm", 10, alpha=3.0)  # the algorithm that uses it
    rmviz.solve("rps-crash", "rm", 10, alpha=1.5)  # the preset's own value: a record re-run


def test_a_mistyped_option_is_named_with_the_nearest_one():
    for typo, meant in [("fixed_strategy", "fixed_strategies"), ("sead", "seed"), ("update", "updates")]:
        with pytest.raises(ConfigError, match=f"unknown option '{typo}'; did you mean '{meant}'"):
            rmviz.solve("rps", "hedge", 10, **{typo: 1})


def test_what_a_run_tracks_is_set_through_the_api_and_every_switch_is_known():
    """The tracking switches are the solvers' own (the CE gap above 64 actions, the joint,
    a tree's correlation gaps): the option check refused them as not applying to their own
    family. Each family takes its config's track_* fields, refuses the other's, and a
    mistyped one is named with the nearest."""
    from rmviz.solvers.family import KNOWN_OPTIONS
    from rmviz.solvers.registry import FAMILIES

    big = rmviz.solve("random:zero-sum:70x70:seed=1", "rm", 20, track_ce=True)
    assert big.solver.track_ce and big.newest_metrics["ce_gap"] is not None
    assert not rmviz.solve("random:zero-sum:70x70:seed=1", "rm", 20).solver.track_ce  # off above 64
    assert rmviz.solve("kuhn", "cfr", 10, track_correlation=True).solver.config.track_correlation
    with pytest.raises(ConfigError, match="track ce does not apply to game trees"):
        rmviz.solve("kuhn", "cfr", 10, track_ce=True)
    with pytest.raises(ConfigError, match="did you mean 'track_joint'"):
        rmviz.solve("rps", "rm", 10, track_jiont=False)
    for family in FAMILIES:
        assert family.switches and set(family.accepted) <= set(KNOWN_OPTIONS), family.name


def test_a_game_that_shares_a_catalog_games_payoffs_under_its_own_title_starts_uniform():
    """The researcher's RPS, built with the catalog's names under its own title, started from
    the catalog's lean; the catalog's game as built (its title too: the shipped file) does."""
    payoffs = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    names, actions = ["Row", "Column"], [["Rock", "Paper", "Scissors"]] * 2
    own = rmviz.solve(rmviz.game(payoffs, names=names, actions=actions, title="my RPS"), "rm", 100)
    assert own.solver.config_record()["start"] == {"0": [1 / 3] * 3, "1": [1 / 3] * 3}
    assert own.newest_metrics["exploitability"] == 0.0  # uniform is RPS's equilibrium
    for game in ("rps", Path(rmviz.__file__).parent / "examples" / "games" / "rps.nfg"):
        shipped = rmviz.solve(game, "rm", 100)
        assert shipped.solver.config_record()["start"] == {"0": [0.5, 0.25, 0.25], "1": [0.25, 0.5, 0.25]}
