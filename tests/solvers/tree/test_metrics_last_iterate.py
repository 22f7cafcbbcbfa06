"""The tree solvers' last iterate: off by default (a second best-response pass), and when on
the NashConv and exploitability of the current behavioural profile, recomputed here in exact
arithmetic on matrix games solved as trees (one information set per player)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rmviz.games import catalog_game
from rmviz.solvers.columns import Column
from rmviz.solvers.registry import make_solver
from tests.solvers.matrix.test_metrics_last_iterate import exact_last, three_by_three


def _profile(solver, strategy: np.ndarray) -> list[np.ndarray]:
    """Each player's strategy at its one information set."""
    tree = solver.tree
    out = [None] * tree.n_players
    for infoset, player in enumerate(tree.infoset_player.tolist()):
        first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
        out[player] = strategy[first : first + size]
    return out


def test_off_by_default_nan_columns_and_none_in_json():
    solver = make_solver(catalog_game("kuhn"), "cfr+")
    assert solver.last_iterate is False
    solver.step(3)
    snapshot = solver.snapshot()
    values = dict(zip(solver.columns, snapshot.trace_values(), strict=True))
    assert math.isnan(values[Column("last_exploitability")])
    assert math.isnan(values[Column("last_nash_conv")])
    assert snapshot.metrics.as_dict()["last_exploitability"] is None


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "dcfr", "mccfr-external"])
@pytest.mark.parametrize("game", ["rps-crash", "three-by-three"])
def test_on_it_is_the_current_profiles_nash_conv(algorithm, game):
    matrix = three_by_three() if game == "three-by-three" else catalog_game(game)
    solver = make_solver(matrix, algorithm, last_iterate=True)
    solver.step(23)
    snapshot = solver.snapshot()
    expected = exact_last(matrix.payoffs, _profile(solver, snapshot.current_strategy))
    values = dict(zip(solver.columns, snapshot.trace_values(), strict=True))
    for key in ("last_nash_conv", "last_exploitability"):
        assert values[Column(key)] == pytest.approx(float(expected[key]), rel=1e-12, abs=1e-14)
        assert snapshot.metrics.as_dict()[key] == values[Column(key)]
    # the average's own columns are unchanged by the option
    plain = make_solver(matrix, algorithm)
    plain.step(23)
    assert plain.snapshot().metrics.nash_conv == snapshot.metrics.nash_conv


def test_kuhn_current_equals_average_before_any_iteration():
    solver = make_solver(catalog_game("kuhn"), "cfr", last_iterate=True)
    metrics = solver.snapshot().metrics
    assert metrics.last_nash_conv == metrics.nash_conv > 0  # both profiles uniform
    solver.step(50)
    metrics = solver.snapshot().metrics
    assert metrics.last_nash_conv > metrics.nash_conv  # CFR's current profile lags its average
