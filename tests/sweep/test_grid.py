"""A sweep's grid: seeds count as samples only where they can change a run, and every config
error (each game x algorithm cell, options, metrics) is refused before any task runs, with
one line, exit 2 on the CLI and nothing written to --out."""

from __future__ import annotations

import pytest

from rmviz.cli import main
from rmviz.errors import ConfigError, RmvizError
from rmviz.sweep import SweepConfig, config_from, run_sweep
from rmviz.sweep import run as sweep_run
from rmviz.sweep.figures import summary, sweep_figure

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

EXPECTED = {
    "name": "expected play",
    "games": ["random:zero-sum:3x3:seed={0..3}"],
    "algorithms": ["rm", "greedy-rm"],
    "seeds": 2,
    "iterations": [5, 10],
    "metrics": ["exploitability"],
}


def test_expected_play_runs_once_per_game_and_n_counts_distinct_runs(tmp_path):
    lines = []
    report = run_sweep(EXPECTED, tmp_path, jobs=1, figures=False, log=lines.append)
    assert report.config.deterministic == ("rm", "greedy-rm")
    table = report.table
    assert set(table.seed) == {0} and len(table) == 4 * 2 * 1 * 2  # games x algorithms x 1 seed x checkpoints
    assert (summary(table)["n"] == 4).all()  # 4 games, not 4 games x 2 identical seeds
    assert any("rm, greedy-rm: deterministic" in line and "one run per game" in line for line in lines)
    assert read_config(tmp_path)["deterministic"] == ["rm", "greedy-rm"]
    legend = [
        t.get_text()
        for t in sweep_figure(table, "exploitability", deterministic=("rm",)).axes[0].get_legend().get_texts()
    ]
    assert legend == ["rm (n=4, deterministic)", "greedy-rm (n=4)"]


def read_config(out):
    import json

    return json.loads((out / "sweep.json").read_text())


def test_sampled_play_and_monte_carlo_cfr_keep_every_seed(tmp_path):
    sampled = config_from({**EXPECTED, "options": {"play": "sampled"}})
    assert sampled.deterministic == () and sampled.tasks()[0].seeds_of("rm") == (0, 1)
    trees = {"games": ["kuhn"], "algorithms": ["cfr", "mccfr-outcome"], "seeds": 3, "iterations": [4]}
    report = run_sweep(trees, tmp_path, jobs=1, figures=False)
    assert report.config.deterministic == ("cfr",)
    runs = report.table.groupby("algorithm").seed.unique().map(list).to_dict()
    assert runs == {"cfr": [0], "mccfr-outcome": [0, 1, 2]}
    # a matrix game solved by CFR is deterministic too, whatever its family
    assert config_from({**trees, "games": ["rps", "kuhn"]}).deterministic == ("cfr",)


BAD = [
    (
        {"games": ["kuhn"], "algorithms": ["cfr"], "metrics": ["ce_gap"]},
        r"game trees have no 'ce_gap' \(cfr on kuhn\)",
    ),
    ({"games": ["rps"], "algorithms": ["rm", "cfr"], "metrics": ["ce_gap"]}, r"'ce_gap' \(cfr on rps\)"),
    (
        {"games": ["rps", "kuhn"], "algorithms": ["rm"]},
        r"rm on kuhn: 'rm' solves matrix games; for game trees use cfr",
    ),
    ({"options": {"play": "weird"}}, r"rm on random:zero-sum:3x3:seed=0: unknown play 'weird'"),
    (
        {"games": ["kuhn"], "algorithms": ["cfr"], "options": {"play": "sampled"}},
        "play does not apply to game trees",
    ),
    (
        {"games": ["kuhn"], "algorithms": ["mccfr-outcome"], "options": {"exploration": 2.0}},
        "exploration must be",
    ),
    ({"games": ["rps", "nosuch"]}, r"games: 'nosuch' is not a catalog game"),
    ({"games": ["missing.efg"], "algorithms": ["cfr"]}, r"games: missing\.efg: no such file"),
    ({"games": ["random:weird:3x3"]}, "unknown random game kind 'weird'"),
    (
        {"games": ["random:zero-sum:3x3:seed={0..2}", "random:zero-sum:3x3:seed=01"]},
        r"'random:zero-sum:3x3:seed=1' and 'random:zero-sum:3x3:seed=01' name the same game twice",
    ),
    ({"games": ["random:zero-sum:3x3", "random:zero-sum:3x3:seed=0"]}, "name the same game twice"),
]


@pytest.mark.parametrize(("change", "reason"), BAD, ids=lambda v: str(v)[:60])
def test_every_config_error_is_refused_before_any_task_runs(change, reason, tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(sweep_run, "run_task", lambda task: calls.append(task) or pytest.fail("a task ran"))
    with pytest.raises(ConfigError, match=reason) as error:
        run_sweep({**EXPECTED, **change}, tmp_path / "out", jobs=1)
    assert "\n" not in str(error.value)
    assert calls == [] and not (tmp_path / "out").exists()


def test_the_cli_refuses_a_bad_grid_with_one_line_exit_2_and_no_output(tmp_path, capsys):
    config = tmp_path / "sweep.toml"
    out = tmp_path / "results"
    for body, reason in [
        ('games = ["kuhn"]\nalgorithms = ["cfr"]\nmetrics = ["ce_gap"]', "game trees have no 'ce_gap'"),
        ('games = ["rps", "kuhn"]\nalgorithms = ["rm"]', "rm on kuhn: 'rm' solves matrix games"),
        ('games = ["rps"]\nalgorithms = ["rm"]\n[options]\nplay = "weird"', "unknown play 'weird'"),
    ]:
        text = body.replace("\n[options]", "\nseeds = 2\niterations = [5]\n[options]")
        if "[options]" not in text:
            text += "\nseeds = 2\niterations = [5]"
        config.write_text(text + "\n")
        assert main(["sweep", str(config), "--out", str(out), "--jobs", "1"]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1 and "sweep.toml" in captured.err and reason in captured.err
        assert not out.exists()


def test_a_sweep_config_made_by_hand_is_checked_too(tmp_path):
    by_hand = SweepConfig(games=("kuhn",), algorithms=("rm",), seeds=(0,), iterations=(5,))
    with pytest.raises(RmvizError, match="rm on kuhn"):
        run_sweep(by_hand, tmp_path / "out", jobs=1)
    assert not (tmp_path / "out").exists()
    fine = SweepConfig(games=("rps",), algorithms=("rm",), seeds=(0, 1), iterations=(5,))
    assert config_from(fine).deterministic == ("rm",)  # found even when not given
