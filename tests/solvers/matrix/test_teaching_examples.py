"""The worked examples of the seeds (shared/seeds), reproduced exactly."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import NormalFormGame, catalog_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.metrics import pure_regrets
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.regret_matching import regret_matching

ROCK, PAPER, SCISSORS = 0, 1, 2


def test_notebook_regrets_rock_against_paper():
    rps = catalog_game("rps").payoffs
    np.testing.assert_array_equal(pure_regrets(rps, 0, (ROCK, PAPER)), [0, 1, 2])
    np.testing.assert_array_equal(pure_regrets(rps, 0, (PAPER, PAPER)), [-1, 0, 1])
    np.testing.assert_array_equal(pure_regrets(rps, 0, (PAPER, ROCK)), [-1, 0, -2])
    np.testing.assert_array_equal(pure_regrets(rps, 0, (SCISSORS, ROCK)), [1, 2, 0])


def test_notebook_two_rounds():
    rps = catalog_game("rps").payoffs
    total = pure_regrets(rps, 0, (ROCK, PAPER))
    np.testing.assert_array_equal(regret_matching(total, np), [0, 1 / 3, 2 / 3])
    total = total + pure_regrets(rps, 0, (PAPER, PAPER))
    np.testing.assert_array_equal(total, [-1, 1, 3])
    np.testing.assert_array_equal(regret_matching(total, np), [0, 1 / 4, 3 / 4])


@pytest.mark.parametrize(
    ("regret_sum", "strategy"),
    [
        ([1, 1, 1], [1 / 3, 1 / 3, 1 / 3]),
        ([0, 1, 2], [0, 1 / 3, 2 / 3]),
        ([4, 10, 3], [4 / 17, 10 / 17, 3 / 17]),
        ([0, 1, 0], [0, 1, 0]),
        ([-1, 1, 3], [0, 1 / 4, 3 / 4]),
        ([5, -2, 2], [5 / 7, 0, 2 / 7]),
        ([2, 2, -8], [1 / 2, 1 / 2, 0]),
        ([0, 0, 0], [1 / 3, 1 / 3, 1 / 3]),
        ([-2, -3, -1], [1 / 3, 1 / 3, 1 / 3]),
        ([-2, -3, 0], [1 / 3, 1 / 3, 1 / 3]),
    ],
)
def test_notebook_get_strategy_cases(regret_sum, strategy):
    np.testing.assert_array_equal(regret_matching(np.array(regret_sum, dtype=float), np), strategy)


def test_lecture_battle_of_the_partners_table():
    """CFR lecture, "Regret Matching: Example": Cat's regrets and strategy, rows T = 1..6."""
    game = catalog_game("battle-of-partners").payoffs
    cinema, dancing = 0, 1
    played = [
        (cinema, dancing),
        (dancing, cinema),
        (cinema, dancing),
        (cinema, cinema),
        (cinema, dancing),
        (cinema, cinema),
    ]
    table = [  # r_Cat(other action), R(Cinema), R(Dancing), pi(Cinema), pi(Dancing)
        (5, 0, 5, 0, 1),
        (10, 10, 5, 2 / 3, 1 / 3),
        (5, 10, 10, 1 / 2, 1 / 2),
        (-10, 10, 0, 1, 0),
        (5, 10, 5, 2 / 3, 1 / 3),
        (-10, 10, -5, 1, 0),
    ]
    cumulative = np.zeros(2)
    for profile, (other, r_cinema, r_dancing, p_cinema, p_dancing) in zip(played, table, strict=True):
        regrets = pure_regrets(game, 0, profile)
        assert regrets[1 - profile[0]] == other
        cumulative += regrets
        np.testing.assert_array_equal(cumulative, [r_cinema, r_dancing])
        np.testing.assert_allclose(regret_matching(cumulative, np), [p_cinema, p_dancing], rtol=0, atol=1e-15)


def test_snippet_regret_bound_on_rps_crash():
    """The snippet's eps = 2 max R / T bounds NashConv and falls like 1/sqrt(T).

    The snippet's comment "eps < 0.03" at its default 500 iterations does not hold for its
    own loop (0.107: its strategy lags one iteration behind its regrets); standard regret
    matching gives 0.068 at 500 iterations and passes 0.03 before 5000 (docs/algorithms.md).
    """
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    solver.step(500)
    early = solver.metrics()
    assert early.eps_bound == pytest.approx(0.06765, abs=1e-4)
    solver.step(4500)
    late = solver.metrics()
    assert late.eps_bound < 0.03
    for metrics in (early, late):
        assert metrics.nash_conv <= metrics.eps_bound + 1e-12  # the bound holds in 2p zero-sum


@pytest.mark.parametrize("play", ["expected", "sampled"])
def test_notebook_fixed_opponent_is_exploited(play):
    """Against (0.4, 0.3, 0.3) the learner finds the best response: Paper."""
    solver = RegretMinimizer(
        catalog_game("rps"), preset("rm", play=play, fixed_strategies={1: [0.4, 0.3, 0.3]})
    )
    solver.step(2000)
    average = solver.snapshot().average_strategy
    assert average[0][PAPER] > (0.9 if play == "expected" else 0.8)
    np.testing.assert_array_equal(average[1], [0.4, 0.3, 0.3])


def test_fixed_strategy_must_be_a_distribution():
    from rmviz.errors import ConfigError

    game = catalog_game("rps")
    with pytest.raises(ConfigError, match=r"sums to 0\.9; probabilities must sum to 1"):
        RegretMinimizer(game, preset("rm", fixed_strategies={1: [0.4, 0.3, 0.2]}))
    with pytest.raises(ConfigError, match="needs 3 probabilities"):
        RegretMinimizer(game, preset("rm", fixed_strategies={1: [0.5, 0.5]}))
    with pytest.raises(ConfigError, match="leave at least one player learning"):
        RegretMinimizer(game, preset("rm", fixed_strategies={0: [1, 0, 0], 1: [1, 0, 0]}))
    assert isinstance(game, NormalFormGame)
