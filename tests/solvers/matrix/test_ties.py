"""Exact ties give exact zero regrets in every matrix-game code path (issue 10, defect 3).

Against the uniform column mix, three rows worth 7 each tie; in floating point
``7 - 3 x (7/3)`` is 8.9e-16, and that rounding used to become a cumulative regret that
later decided a pure strategy.
"""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer


def tied_game(players: int = 2) -> NormalFormGame:
    shape = (3,) * players
    payoffs = np.zeros((players, *shape))
    payoffs[0] = 7.0  # player 1 is indifferent between its three actions, whatever others do
    for i in range(1, players):
        payoffs[i] = np.random.default_rng(i).integers(-3, 4, size=shape)
    return NormalFormGame(payoffs, title="ties")


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "generic"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("algorithm", ["rm", "rm+", "predictive-rm+", "linear-rm", "discounted-rm"])
@pytest.mark.parametrize("players", [2, 3])
def test_tied_actions_have_exactly_zero_regret(players, algorithm, updates, compiled):
    solver = RegretMinimizer(tied_game(players), preset(algorithm, updates=updates))
    if not compiled:
        solver._kernel = None
    assert solver.releases_gil == compiled or not compiled
    solver.step(25)
    snapshot = solver.snapshot()
    assert np.all(snapshot.cumulative_regret[0] == 0.0)
    assert np.all(snapshot.average_regret[0] == 0.0)
    np.testing.assert_array_equal(snapshot.current_strategy[0], np.full(3, 1 / 3))
