"""The notebook API (:mod:`rmviz.api`): ``rmviz.load``, ``rmviz.solve``, the result's tidy
trace, strategies, figures and reprs."""

from __future__ import annotations

import numpy as np
import pytest

import rmviz
from rmviz.errors import GameError, RmvizError
from rmviz.numbers import format_number
from rmviz.runner.record import read_run_game, record_run
from rmviz.solvers.registry import make_solver

pd = pytest.importorskip("pandas")


def test_the_package_exports_the_api_lazily():
    assert {"load", "solve", "Result"} <= set(dir(rmviz))
    assert rmviz.solve is rmviz.api.solve
    with pytest.raises(AttributeError):
        _ = rmviz.no_such_name


def test_the_trace_is_tidy_and_equals_the_runner_trace():
    result = rmviz.solve("rps-crash", "rm+", iterations=300, progress=False)
    trace = result.trace
    assert list(trace.columns) == ["iteration", "metric", "player", "action", "value"]
    reference = record_run(make_solver(rmviz.load("rps-crash"), "rm+"), 300)
    iterations = reference.iterations()
    gaps = trace[trace.metric == "exploitability"]
    np.testing.assert_array_equal(gaps.iteration, iterations)
    np.testing.assert_allclose(gaps.value, reference.data().columns[result.solver.columns[0]])
    rock = trace[(trace.metric == "average") & (trace.player == "Row") & (trace.action == "Rock")]
    assert len(rock) == len(iterations) and rock.value.between(0, 1).all()
    assert trace.value.notna().all()


def test_step_continues_the_run_and_the_trace():
    result = rmviz.solve("rps", "rm", iterations=50, progress=False)
    assert result.step(50) is result and result.iteration == 100
    assert result.trace.iteration.max() == 100
    again = rmviz.solve("rps", "rm", iterations=100, progress=False)
    assert result.newest_metrics == again.newest_metrics


def test_trees_options_and_strategies():
    result = rmviz.solve("kuhn", "cfr", iterations=20, updates="simultaneous", progress=False)
    assert result.family == "tree" and result.solver.config.updates == "simultaneous"
    assert "infoset" in result.trace.columns
    strategy = result.strategy()
    assert list(strategy.columns) == ["player", "infoset", "action", "probability"]
    sums = strategy.groupby(["player", "infoset"]).probability.sum()
    np.testing.assert_allclose(sums, 1.0)
    assert result.report()["iterations"] == 20


def test_plot_returns_a_figure_of_the_registry():
    from matplotlib.figure import Figure

    result = rmviz.solve("rps-crash", "rm", iterations=100, progress=False)
    assert isinstance(result.plot("gaps"), Figure)
    assert isinstance(result.plot("simplex", style="paper"), Figure)
    with pytest.raises(RmvizError, match="not drawn for matrix games"):
        result.plot("tree")


def test_reprs():
    game = rmviz.load("rps")
    html = game._repr_html_()
    assert "<table>" in html and "Rock" in html and "-1, 1" in html and "-0" not in html
    assert "game tree" in rmviz.load("kuhn")._repr_html_()
    result = rmviz.solve(game, "rm", iterations=10, progress=False)
    assert repr(result).startswith("<rmviz Result: rm on 'Rock-Paper-Scissors', T = 10")
    assert "exploitability" in result._repr_html_()
    kuhn = rmviz.solve("kuhn", "cfr", iterations=10, progress=False)  # per-player gaps by notion
    gaps = kuhn.newest_metrics["player_gaps"]
    assert f"efce: {format_number(gaps['efce'][0], '.6g')}, " in kuhn._repr_html_()


def test_progress_bar_and_bad_input(capsys):
    rmviz.solve("rps", "rm", iterations=10, progress=True)
    assert "10/10" in capsys.readouterr().err
    with pytest.raises(RmvizError, match="whole number"):
        rmviz.solve("rps", iterations=-1)
    with pytest.raises(RmvizError, match="not a catalog game"):
        rmviz.load("no-such-game")


def test_save_writes_run_data(tmp_path):
    result = rmviz.solve("rps", "rm", iterations=10, progress=False)
    path = result.save(tmp_path / "run.csv")
    assert path.read_text().startswith('# format: "rmviz-run-data"\n# version: 1\n# rmviz:')
    assert read_run_game(path) == result.game  # the game itself is in the file


def test_the_last_iterate_is_in_the_result_and_its_trace():
    matrix = rmviz.solve("rps", "rm+", 100, progress=False)
    newest = matrix.newest_metrics
    assert newest["last_exploitability"] > 0  # on by default for matrix games
    last = matrix.trace.query("metric == 'last_ce_gap'")
    assert len(last) > 10 and last.value.iloc[-1] == newest["last_ce_gap"]
    tree = rmviz.solve("kuhn", "cfr+", 30, progress=False)
    assert tree.newest_metrics["last_exploitability"] is None  # off for trees unless asked
    assert tree.metrics["last_exploitability"].isna().all()  # its column is there, empty
    tree = rmviz.solve("kuhn", "cfr+", 30, progress=False, last_iterate=True)
    values = tree.trace.query("metric == 'last_exploitability'").value
    newest = tree.newest_metrics
    assert values.iloc[-1] == newest["last_exploitability"] > newest["exploitability"]


def test_input_that_would_be_ignored_or_mangled_is_refused_in_one_line(tmp_path):
    """A researcher's trial: ``step(-5)`` did nothing, complex payoffs lost their imaginary
    parts under a NumPy warning, and ``rmviz export --width`` sized nothing but trees."""
    result = rmviz.solve("rps", "rm", 10)
    for bad in (-5, 2.5, True):
        with pytest.raises(RmvizError, match="iterations must be a whole number, at least 0"):
            result.step(bad)
    assert result.iteration == 10
    with pytest.raises(GameError, match="complex numbers; payoffs are real"):
        rmviz.game(np.array([[1j, 0], [0, 1]]))
    from rmviz.cli import main

    out = tmp_path / "never.png"
    assert main(["export", "rps-crash", "--width", "5cm", "--out", str(out)]) == 2 and not out.exists()
