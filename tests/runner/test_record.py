"""Headless runs on the trace grid, and run data files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rmviz.errors import RmvizError
from rmviz.games import catalog_game
from rmviz.runner.record import readable_column, record_run, write_run_data
from rmviz.runner.trace import Trace
from rmviz.solvers.config import preset
from rmviz.solvers.regret_minimizer import RegretMinimizer


def test_record_run_keeps_the_grid_points_and_the_end():
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    trace = record_run(solver, 12_345, points_per_decade=50)
    iterations = trace.iterations()
    assert iterations[-1] == 12_345 and solver.iteration == 12_345
    grid = Trace(50)  # the same points the app's live trace keeps
    for t in range(1, 12_346):
        grid.add(t, {"x": 0.0})
    np.testing.assert_array_equal(iterations, grid.iterations())
    # the recorded values are the solver's at those iterations
    again = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    again.step(int(iterations[40]))
    assert trace.column("exploitability")[40] == pytest.approx(
        again.snapshot(metrics=True).metrics.exploitability
    )


def test_readable_columns_and_a_bad_suffix(tmp_path):
    game = catalog_game("battle-of-partners")
    assert readable_column("cur[1][0]", game) == "current[Dee][Cinema]"
    assert readable_column("ce_gap", game) == "ce_gap"
    with pytest.raises(RmvizError, match=r"written as \.csv or \.json"):
        write_run_data(tmp_path / "run.txt", game, preset("rm"), np.arange(1, 3), {})


def test_json_run_data_writes_nan_as_null(tmp_path):
    game = catalog_game("battle-of-partners")
    write_run_data(
        tmp_path / "run.json",
        game,
        preset("rm", seed=3),
        np.array([1, 2]),
        {"ce_gap": np.array([np.nan, 0.5])},
    )
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["trace"]["ce_gap"] == [None, 0.5] and data["seed"] == 3
