"""``Result.metrics`` (wide) and ``Result.strategies`` (long) hold the trace's numbers, for a
matrix game and a game tree (issue 32)."""

from __future__ import annotations

import numpy as np
import pytest

import rmviz

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module", params=["rps-crash", "kuhn"])
def result(request):
    return rmviz.solve(request.param, None, iterations=300, progress=False, every=7)


def test_metrics_are_wide_and_equal_the_trace(result):
    metrics, trace = result.metrics, result.trace
    np.testing.assert_array_equal(metrics.iteration, np.unique(trace.iteration))
    names = [column.quantity for column in result.solver.columns if column.is_metric]
    assert list(metrics.columns) == ["iteration", *names]
    assert "last_exploitability" in names
    for name in names:
        rows = trace[trace.metric == name]
        kept = metrics[metrics[name].notna()]
        np.testing.assert_array_equal(kept.iteration, rows.iteration)
        np.testing.assert_array_equal(kept[name], rows.value)
    newest = result.newest_metrics
    assert metrics.exploitability.iloc[-1] == newest["exploitability"]
    assert metrics.iteration.iloc[-1] == result.iteration == 300


def test_strategies_are_long_and_equal_the_trace(result):
    strategies, trace = result.strategies, result.trace
    keys = ["player", "infoset", "action"]
    assert list(strategies.columns) == ["iteration", *keys, "average", "current"]
    for quantity in ("average", "current"):
        rows = trace[trace.metric == quantity]
        kept = strategies[strategies[quantity].notna()]
        assert len(kept) == len(rows)
        if "infoset" not in trace.columns:
            rows = rows.assign(infoset=None)
        left = kept[["iteration", *keys, quantity]].astype({k: object for k in keys})
        right = rows[["iteration", *keys, "value"]].astype({k: object for k in keys})
        merged = left.merge(right, on=["iteration", *keys], how="outer", validate="one_to_one")
        np.testing.assert_array_equal(merged[quantity], merged["value"])
    newest = strategies[strategies.iteration == result.iteration]
    np.testing.assert_array_equal(newest.average, result.strategy().probability)
    # one row per move and recorded iteration; the names keep the game's order
    assert len(strategies) == strategies.iteration.nunique() * len(result.strategy())
    assert list(strategies.action.cat.categories)[:2] == list(result.strategy().action.unique()[:2])


def test_a_matrix_game_has_no_information_sets_and_both_strategies():
    strategies = rmviz.solve("rps", "rm", iterations=20, progress=False).strategies
    assert strategies.infoset.isna().all()
    assert strategies.current.notna().all() and strategies.average.notna().all()
    table = strategies.pivot_table(index="iteration", columns=["player", "action"], values="average")
    np.testing.assert_allclose(table.T.groupby(level="player").sum(), 1.0)


def test_a_tree_records_the_average_strategy_only():
    strategies = rmviz.solve("kuhn", "cfr", iterations=20, progress=False).strategies
    assert strategies.infoset.notna().all() and strategies.current.isna().all()
    sums = strategies.groupby(["iteration", "player", "infoset"], observed=True).average.sum()
    np.testing.assert_allclose(sums, 1.0)
