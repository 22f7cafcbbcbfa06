"""Headless runs on the trace grid, and run data files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rmviz.errors import RmvizError
from rmviz.games import catalog_game
from rmviz.runner.record import record_run, write_run_data
from rmviz.runner.trace import Trace
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer


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
        write_run_data(tmp_path / "run.txt", solver, np.arange(1, 3), {})


def test_json_run_data_writes_nan_as_null(tmp_path):
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("rm", seed=3))
    write_run_data(
        tmp_path / "run.json", solver, np.array([1, 2]), {Column("ce_gap"): np.array([np.nan, 0.5])}
    )
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["trace"]["ce_gap"] == [None, 0.5] and data["seed"] == 3


def test_every_column_of_a_run_is_written_with_its_name(tmp_path):
    """The trace schema: the file's columns are the solver's, named, with the same values."""
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("rm"))
    trace = record_run(solver, 100, every=10)
    write_run_data(tmp_path / "run.csv", solver, trace.iterations(), trace.table())
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
    write_run_data(tmp_path / "run.json", solver, trace.iterations(), trace.table())
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["trace"]["iteration"] == [5, 10, 15, 20]
    assert data["config"]["algorithm"] == "cfr"
    name = solver.column_name(solver.columns[-1])
    assert name.startswith("average[Player 2][") and name in data["trace"]
    assert data["trace"]["exploitability"][-1] == pytest.approx(solver.snapshot().metrics.exploitability)
