"""Sweeps (:mod:`rmviz.sweep`, ``rmviz sweep``): the config, the same table serially, on loky
and on a 2-worker Dask cluster, resuming an interrupted sweep, shards, files (issue 14)."""

from __future__ import annotations

import json

import pytest

from rmviz.cli import main
from rmviz.errors import RmvizError
from rmviz.sweep import config_from, load_config, read_results, run_sweep
from rmviz.sweep import run as sweep_run
from rmviz.sweep.config import expand
from tests.shortest import check_csv

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

GRID = {
    "name": "tiny",
    "games": ["random:zero-sum:4x4:seed={0..2}"],
    "algorithms": ["rm", "greedy-rm"],
    "seeds": 2,
    "iterations": [10, 100],
    "metrics": ["exploitability", "cce_gap"],
    "options": {"play": "sampled"},
}
ROWS = 3 * 2 * 2 * 2 * 2  # games x algorithms x seeds x checkpoints x metrics


def same_table(left, right):
    """Row for row, every column but the seconds each run took."""
    pd.testing.assert_frame_equal(left.drop(columns="seconds"), right.drop(columns="seconds"))


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    return run_sweep(GRID, tmp_path_factory.mktemp("serial"), jobs=1, figures=False).table


def test_serial_table_is_tidy_and_in_grid_order(serial):
    tidy = ["game", "algorithm", "seed", "iteration", "metric", "value", "seconds"]
    assert list(serial.columns)[:7] == tidy
    assert list(serial.columns)[7:] == ["rmviz", "host", "python"]  # who computed each row
    assert len(serial) == ROWS
    first = serial.iloc[:4]
    assert first.game.unique().tolist() == ["random:zero-sum:4x4:seed=0"]
    assert first.iteration.tolist() == [10, 10, 100, 100]
    assert first.metric.tolist() == ["exploitability", "cce_gap"] * 2
    assert (serial.value >= 0).all()


@pytest.mark.slow
def test_loky_equals_serial(serial, tmp_path):
    pytest.importorskip("joblib")
    same_table(run_sweep(GRID, tmp_path, jobs=2, figures=False).table, serial)


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_a_two_worker_dask_cluster_equals_serial(serial, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        report = run_sweep(GRID, tmp_path, dask=cluster.scheduler_address, figures=False)
    same_table(report.table, serial)


def interrupt_after(monkeypatch, tasks: int) -> list:
    """Make the sweep's ``run_task`` run ``tasks`` tasks, then raise KeyboardInterrupt (^C
    during the next); returns the indexes of the tasks run."""
    calls: list = []
    run_task = sweep_run.run_task

    def interrupted(task):
        if len(calls) == tasks:
            raise KeyboardInterrupt
        calls.append(task.index)
        return run_task(task)

    monkeypatch.setattr(sweep_run, "run_task", interrupted)
    return calls


def test_an_interrupted_sweep_resumes(serial, tmp_path, monkeypatch):
    run_task = sweep_run.run_task
    calls = interrupt_after(monkeypatch, 1)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(GRID, tmp_path, jobs=1)
    assert sorted(p.name for p in (tmp_path / "tasks").iterdir()) == ["task-00000.parquet"]
    assert not (tmp_path / "results.parquet").exists()
    calls.clear()
    monkeypatch.setattr(sweep_run, "run_task", lambda task: calls.append(task.index) or run_task(task))
    report = run_sweep(GRID, tmp_path, jobs=1, csv=True)
    assert calls == [1, 2] and report.ran == 2 and report.skipped == 1
    same_table(report.table, serial)
    assert check_csv((tmp_path / "results.csv").read_text()) >= ROWS  # each float shortest
    again = run_sweep(GRID, tmp_path, jobs=1, figures=False)
    assert again.ran == 0 and again.skipped == 3


def test_shards_split_the_grid_and_the_last_writes_the_table(serial, tmp_path):
    first = run_sweep(GRID, tmp_path, jobs=1, shard="1/2")
    assert (first.ran, first.pending, first.files) == (2, 1, ())
    second = run_sweep(GRID, tmp_path, jobs=1, shard="2/2", figures=False)
    assert second.complete and second.ran == 1
    same_table(read_results(tmp_path), serial)


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_results_embed_config_and_version_and_the_cli_writes_them(tmp_path, capsys):
    config = tmp_path / "sweep.toml"
    config.write_text(
        'name = "tiny"\ngames = ["random:zero-sum:3x3:seed={1..2}"]\nalgorithms = ["rm+"]\n'
        "seeds = [5]\niterations = [10, 20]\n"
    )
    out = tmp_path / "results"
    assert main(["sweep", str(config), "--out", str(out), "--jobs", "1", "--csv"]) == 0
    assert capsys.readouterr().out.startswith("2 tasks run")
    table = read_results(out)
    assert table.attrs["rmviz"] and table.attrs["config"]["games"] == [
        "random:zero-sum:3x3:seed=1",
        "random:zero-sum:3x3:seed=2",
    ]
    csv = (out / "results.csv").read_text().splitlines()
    assert csv[0].startswith("# rmviz:") and json.loads(csv[1].removeprefix("# sweep: "))["seeds"] == [5]
    assert (out / "figures" / "exploitability.png").stat().st_size > 0
    config.write_text(config.read_text().replace("[5]", "[6]"))
    assert main(["sweep", str(config), "--out", str(out)]) == 2
    assert "another sweep config" in capsys.readouterr().err


def test_config_expansion_and_one_line_refusals(tmp_path):
    assert expand("random:zero-sum:2x2:seed={3..5}") == [f"random:zero-sum:2x2:seed={k}" for k in (3, 4, 5)]
    assert len(expand("openspiel:liars_dice(numdice={1..2},dice_sides={3..4})")) == 4
    assert config_from({**GRID, "seeds": [7, 3]}).seeds == (7, 3)
    bad = [
        ({**GRID, "colour": 1}, "unknown key 'colour'"),
        ({**GRID, "seeds": 0}, "seeds = 0"),
        ({**GRID, "iterations": [0]}, "iterations must be"),
        ({**GRID, "algorithms": ["rm", "rm"]}, "lists 'rm' twice"),
        ({**GRID, "options": {"colour": 1}}, "unknown option 'colour'"),
        ({**GRID, "metrics": ["speed"]}, "unknown metric 'speed'"),
        ({**GRID, "games": ["random:zero-sum:2x2:seed={5..1}"]}, "must count up"),
    ]
    for data, reason in bad:
        with pytest.raises(RmvizError, match=reason) as error:
            config_from(data)
        assert "\n" not in str(error.value)
    path = tmp_path / "broken.toml"
    path.write_text("games = [")
    with pytest.raises(RmvizError, match=r"broken\.toml: not TOML"):
        load_config(path)


def test_a_strategy_that_does_not_fit_a_game_is_refused_before_any_task(tmp_path):
    # config errors are refused before any task runs (test_grid.py); so is what only the game
    # shows (a starting strategy of the wrong length: the game is built), naming the cell
    start = {"options": {"start": {0: [1.0]}}}
    with pytest.raises(RmvizError, match=r"on random:zero-sum:4x4:seed=0: the starting strategy"):
        run_sweep({**GRID, **start}, tmp_path / "out", jobs=1)
    assert not (tmp_path / "out").exists()


def test_gaps_are_drawn_log_log_and_welfare_on_a_linear_axis():
    import pandas as pd

    from rmviz.sweep.figures import sweep_figure

    rows = [
        {"game": g, "algorithm": a, "seed": 0, "iteration": t, "metric": m, "value": v, "seconds": 0.0}
        for g in ("g1", "g2")
        for a in ("rm", "greedy-rm")
        for t in (10, 100)
        for m, v in (("cce_gap", 1.0 / t), ("welfare", -0.5 + t / 100))  # welfare may be negative
    ]
    table = pd.DataFrame(rows)
    assert sweep_figure(table, "cce_gap").axes[0].get_yscale() == "log"
    welfare = sweep_figure(table, "welfare").axes[0]
    assert welfare.get_yscale() == "linear"
    assert welfare.get_ylim()[0] < 0  # negative means drawn, not clipped as on log axes
    assert welfare.get_xscale() == "log"


def test_per_player_options_from_toml_have_string_keys(tmp_path):
    """TOML writes ``[options.start]`` keys as strings ("0"): read as player numbers (they
    reached the solver as strings and failed there with a TypeError)."""
    config = tmp_path / "sweep.toml"
    config.write_text(
        'games = ["rps"]\nalgorithms = ["rm"]\nseeds = 1\niterations = [10]\n'
        '[options.start]\n"0" = [0.2, 0.3, 0.5]\n"1" = [1, 0, 0]\n'
    )
    report = run_sweep(config, tmp_path / "out", jobs=1)
    assert report.ran == 1 and len(report.table) > 0
    config.write_text(
        'games = ["rps"]\nalgorithms = ["rm"]\nseeds = 1\niterations = [10]\n'
        "[options.start]\nrow = [0.2, 0.3, 0.5]\n"
    )
    with pytest.raises(RmvizError, match=r"start: players are numbered 0, 1, \.\.\.; got 'row'"):
        run_sweep(config, tmp_path / "out2", jobs=1)


def test_the_csv_writes_each_float_shortest_and_no_negative_zero(tmp_path):
    """Issue 29: sweep CSVs held "0.29999999999999999" (``%.17g``); now ``repr``'s "0.3", read
    back to the same float, and ``-0.0`` as 0."""
    values = [0.3, 0.1 + 0.2, 1 / 3, -0.0, 1e-17, 2.5e22, float("nan")]
    frame = pd.DataFrame(
        {
            "game": ["g"] * len(values),
            "algorithm": ["rm"] * len(values),
            "seed": [0] * len(values),
            "iteration": list(range(1, len(values) + 1)),
            "metric": ["welfare"] * len(values),
            "value": values,
            "seconds": [0.1] * len(values),
        }
    )
    path = sweep_run._write_csv(tmp_path / "results.csv", frame, config_from(GRID))
    text = path.read_text()
    assert check_csv(text) == 2 * len(values) - 1  # the NaN is an empty field
    assert "0.29999999999999999" not in text and ",0.3," in text and "-0" not in text
    back = pd.read_csv(path, comment="#")
    assert back.value.tolist()[:6] == [0.3, 0.1 + 0.2, 1 / 3, 0.0, 1e-17, 2.5e22]


def failing(task):
    raise RmvizError(f"{task.game}: found bad only when run")


def test_a_sweep_failing_before_its_first_task_leaves_no_folder(tmp_path, monkeypatch):
    """A failed sweep left an empty results folder (issue 33): the folders and the config
    file it made go again; a folder that was there (empty) stays, and so does what a
    resumed sweep had finished."""
    monkeypatch.setattr(sweep_run, "run_task", failing)
    new = tmp_path / "new" / "results"
    with pytest.raises(RmvizError, match="found bad only when run"):
        run_sweep(GRID, new, jobs=1)
    assert not new.exists() and not (tmp_path / "new").exists()  # parents made for it go too
    kept = tmp_path / "kept"
    kept.mkdir()
    with pytest.raises(RmvizError):
        run_sweep(GRID, kept, jobs=1)
    assert kept.is_dir() and list(kept.iterdir()) == []


def test_the_last_iterate_is_a_metric_of_matrix_sweeps_and_of_tree_sweeps_on_request(tmp_path):
    from rmviz.sweep.figures import is_distance

    grid = {"name": "last", "algorithms": ["cfr+"], "seeds": 1, "iterations": [5, 20]}
    trees = run_sweep({**grid, "games": ["kuhn"]}, tmp_path / "off", jobs=1, figures=False).table
    assert not trees.metric.str.startswith("last_").any()  # off by default: no rows of NaN
    tracked = {**grid, "games": ["kuhn"], "options": {"last_iterate": True}}
    trees = run_sweep(tracked, tmp_path / "on", jobs=1, figures=False).table
    last = trees[trees.metric == "last_exploitability"]
    assert len(last) == 2 and (last.value > 0).all()
    matrix = {**grid, "algorithms": ["rm+"], "games": ["rps"]}
    table = run_sweep(matrix, tmp_path / "matrix", jobs=1, figures=False).table
    assert {"last_exploitability", "last_cce_gap", "last_ce_gap"} <= set(table.metric)
    assert is_distance("last_exploitability") and is_distance("last_ce_gap")
    with pytest.raises(RmvizError, match="last_iterate"):
        config_from({**tracked, "options": {"last_iterate": "yes"}})


def test_a_sweep_figure_names_its_metrics_unit():
    """Every other figure's y axis says payoff units; the sweep's said "exploitability"."""
    import pandas as pd

    from rmviz.sweep.figures import sweep_figure

    rows = [
        ("rps", "rm", 0, t, metric, 1.0 / t) for t in (10, 100) for metric in ("exploitability", "potential")
    ]
    table = pd.DataFrame(rows, columns=["game", "algorithm", "seed", "iteration", "metric", "value"])
    assert sweep_figure(table, "exploitability").axes[0].get_ylabel() == "exploitability (payoff units)"
    assert sweep_figure(table, "potential").axes[0].get_ylabel() == "potential (payoff units²)"


def test_checkpoints_lie_inside_the_axis_and_one_checkpoint_gets_bars():
    """A sweep of one checkpoint drew its means on the x axis's left edge, the two algorithms'
    on one another, and no interval (a band of one point is empty). Its means now stand side
    by side in the middle of a decade with their 95% intervals as bars; with several
    checkpoints the first and last markers lie inside the axis."""
    import math

    import pandas as pd
    from matplotlib.container import ErrorbarContainer

    from rmviz.sweep.figures import summary, sweep_figure

    columns = ["game", "algorithm", "seed", "iteration", "metric", "value"]
    for iterations in ((1000,), (10, 100, 1000)):
        rows = [
            ("g", algorithm, seed, t, "exploitability", (1 + seed) / t * (2 if algorithm == "rm" else 1))
            for algorithm in ("rm", "rm+")
            for seed in range(3)
            for t in iterations
        ]
        table = pd.DataFrame(rows, columns=columns)
        ax = sweep_figure(table, "exploitability").axes[0]
        low, high = ax.get_xlim()
        xs = sorted(x for line in ax.get_lines() if line.get_marker() == "o" for x in line.get_xdata())
        assert low < xs[0] and xs[-1] < high
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        if len(iterations) == 1:
            assert math.log10(low) + math.log10(high) == pytest.approx(2 * math.log10(1000))  # centred
            assert len(xs) == 2 and xs[0] < 1000 < xs[1]  # side by side
            stats = summary(table).set_index("algorithm")
            for bar, algorithm in zip(bars, ("rm", "rm+"), strict=True):
                (segments,) = [c for c in bar.lines[2]]
                (y0, y1) = sorted(segments.get_segments()[0][:, 1])
                assert (y0, y1) == pytest.approx((stats.loc[algorithm, "low"], stats.loc[algorithm, "high"]))
        else:
            assert bars == []
