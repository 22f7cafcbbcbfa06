"""Headless runs on the trace grid, and run data files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rmviz.errors import RmvizError
from rmviz.games import catalog_game
from rmviz.runner.record import record_run, write_run_data
from rmviz.runner.trace import Trace, TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from tests.shortest import check_csv, check_json


def test_record_run_keeps_the_grid_points_and_the_end():
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    trace = record_run(solver, 12_345, points_per_decade=50)
    iterations = trace.iterations()
    assert iterations[-1] == 12_345 and solver.iteration == 12_345
    grid = Trace((Column("x"),), 50)  # the same points the app's live trace keeps
    for t in range(1, 12_346):
        grid.add(t, np.zeros(1))
    np.testing.assert_array_equal(iterations, grid.iterations())
    # the recorded values are the solver's at those iterations
    again = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    again.step(int(iterations[40]))
    assert trace.column(Column("exploitability"))[40] == pytest.approx(
        again.snapshot(metrics=True).metrics.exploitability
    )


def test_readable_columns_and_a_bad_suffix(tmp_path):
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("rm"))
    assert solver.column_name(Column("current", player=1, action=0)) == "current[Dee][Cinema]"
    assert solver.column_name(Column("ce_gap")) == "ce_gap"
    with pytest.raises(RmvizError, match=r"written as \.csv or \.json"):
        write_run_data(tmp_path / "run.txt", solver, TraceData(np.arange(1, 3), {}))


def test_json_run_data_writes_nan_as_null(tmp_path):
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("rm", seed=3))
    trace = TraceData(np.array([1, 2]), {Column("ce_gap"): np.array([np.nan, 0.5])})
    write_run_data(tmp_path / "run.json", solver, trace)
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["trace"]["ce_gap"] == [None, 0.5] and data["seed"] == 3


def test_every_column_of_a_run_is_written_with_its_name(tmp_path):
    """The trace schema: the file's columns are the solver's, named, with the same values."""
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("rm"))
    trace = record_run(solver, 100, every=10)
    write_run_data(tmp_path / "run.csv", solver, trace.data())
    lines = [line for line in (tmp_path / "run.csv").read_text().splitlines() if not line.startswith("#")]
    header = lines[0].split(",")
    assert header == ["iteration", *(solver.column_name(c) for c in solver.columns)]
    assert "average[Dee][Cinema]" in header and "regret[Cat][Dancing]" in header
    last = [float(v) for v in lines[-1].split(",")]
    assert last[0] == 100
    snapshot = solver.snapshot()
    np.testing.assert_allclose(last[1:], snapshot.trace_values())


def test_tree_runs_write_the_same_schema(tmp_path):
    from rmviz.solvers.registry import make_solver

    solver = make_solver(catalog_game("kuhn"), "cfr")
    trace = record_run(solver, 20, every=5)
    write_run_data(tmp_path / "run.json", solver, trace.data())
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["trace"]["iteration"] == [5, 10, 15, 20]
    assert data["config"]["algorithm"] == "cfr"
    name = solver.column_name(solver.columns[-1])
    assert name.startswith("average[Player 2][") and name in data["trace"]
    assert data["trace"]["exploitability"][-1] == pytest.approx(solver.snapshot().metrics.exploitability)


# -- run data files are self-contained: the game itself is in them -------------------------------
def _deep_tree(depth: int):
    from rmviz.games.extensive_form import ExtensiveFormGame, decision, terminal

    node = terminal(1, -1)
    for d in reversed(range(depth)):
        node = decision(d % 2, f"d{d}", [("stop", terminal(d, -d)), ("go", node)])
    return ExtensiveFormGame(node, ("A", "B"), "deep")


@pytest.mark.parametrize("suffix", [".json", ".csv"])
@pytest.mark.parametrize("spec", ["rps", "random:general-sum:3x2x2:seed=4", "kuhn", "deep"])
def test_the_game_read_back_from_run_data_is_the_game_run(spec, suffix, tmp_path):
    from rmviz.formats import load_game, write_json
    from rmviz.runner.record import read_run_game
    from rmviz.solvers.registry import make_solver

    game = _deep_tree(400) if spec == "deep" else load_game(spec)  # 400 moves: past json's recursion
    solver = make_solver(game)
    trace = record_run(solver, 30, every=10)
    path = tmp_path / f"run{suffix}"
    write_run_data(path, solver, trace.data())
    back = read_run_game(path)
    assert write_json(back) == write_json(game)  # payoffs, names, title: all of it
    if spec == "rps":
        assert back == game


def test_run_data_never_writes_a_negative_zero(tmp_path):
    """A metric or regret that is -0.0 (0 times a negative number) is written 0.0, and the
    game's payoffs (rock-paper-scissors' ties are -0.0 once negated) too."""
    solver = RegretMinimizer(catalog_game("rps"), preset("rm"))
    columns = {Column("exploitability"): np.array([-0.0, 0.5]), Column("ce_gap"): np.array([1.0, -0.0])}
    for suffix in (".json", ".csv"):
        path = tmp_path / f"run{suffix}"
        write_run_data(path, solver, TraceData(np.array([1, 2]), columns))
        text = path.read_text()
        assert "-0.0" not in text and "-0," not in text and "-0]" not in text, suffix
        assert "0.0" in text


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("run.json", "[1]", "not an rmviz run data file (not a JSON object)"),
        ("run.json", '{"format": "rmviz-game"}', "not an rmviz run data file"),
        ("run.json", '{"format": "rmviz-run-data", "version": 9}', "run data version '9' is not supported"),
        ("run.json", '{"format": "rmviz-run-data", "version": 1}', 'the run data holds no "game"'),
        (
            "run.json",
            '{"format": "rmviz-run-data", "version": 1, "game": {"format": 3}}',
            'its "game": not an rmviz game',
        ),
        ("run.csv", "# format: rmviz\niteration\n", "line 1: format: not valid JSON"),
        ("run.csv", "# format\n", "line 1: a header line must be '# key: value'"),
        ("run.csv", "iteration,x\n1,2\n", "not an rmviz run data file"),
        ("run.txt", "", "run data files are .csv or .json"),
    ],
)
def test_a_bad_run_data_file_is_refused_in_one_line(name, text, message, tmp_path):
    from rmviz.errors import ReadError
    from rmviz.runner.record import read_run_game

    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ReadError) as caught:
        read_run_game(path)
    assert str(caught.value).startswith(str(path)) and message in str(caught.value), str(caught.value)


def test_run_data_writes_each_float_in_its_shortest_round_trip_form(tmp_path):
    """Issue 29: "0.3", never "0.29999999999999999"; every value read back is the value run."""
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm+"))
    trace = record_run(solver, 300, every=7).data()
    trace.columns[next(iter(trace.columns))][0] = 0.1 + 0.2  # 0.30000000000000004, as it is
    for suffix in (".json", ".csv"):
        path = tmp_path / f"run{suffix}"
        write_run_data(path, solver, trace)
        text = path.read_text()
        if suffix == ".json":
            data = check_json(text)
            column = data["trace"][solver.column_name(next(iter(trace.columns)))]
            assert column[0] == 0.1 + 0.2 and "0.30000000000000004" in text
        else:
            assert check_csv(text) > 100
            assert ",0.30000000000000004," in text or ",0.30000000000000004\n" in text
