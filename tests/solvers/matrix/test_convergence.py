"""Solvers against exact equilibria: closed forms, LP values, and the greedy-weights claim."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.solvers.exact import zero_sum_equilibrium
from rmviz.solvers.matrix.config import PRESETS, preset
from rmviz.solvers.matrix.solver import RegretMinimizer


@pytest.mark.parametrize("algorithm", ["rm", "rm+", "linear-rm", "discounted-rm", "predictive-rm+"])
def test_rps_crash_converges_to_25_50_25(algorithm):
    solver = RegretMinimizer(catalog_game("rps-crash"), preset(algorithm))
    solver.step(1_000_000)
    snap = solver.snapshot()
    for strategy in snap.average_strategy:
        np.testing.assert_allclose(strategy, [0.25, 0.5, 0.25], atol=1e-3)
    assert snap.metrics.exploitability < 1e-3


def test_greedy_rm_on_rps_crash_with_expected_play():
    """Greedy weights help most with sampling; with mixed play they match vanilla RM's
    O(1/sqrt(T)) (Zhang, Lerer & Brown 2022, Fig. 2), so fewer iterations, wider tolerance."""
    greedy = RegretMinimizer(catalog_game("rps-crash"), preset("greedy-rm"))
    vanilla = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    greedy.step(10_000)
    vanilla.step(10_000)
    snap = greedy.snapshot()
    for strategy in snap.average_strategy:
        np.testing.assert_allclose(strategy, [0.25, 0.5, 0.25], atol=1e-2)
    assert snap.metrics.exploitability < 2 * vanilla.metrics().exploitability


@pytest.mark.parametrize("seed", range(4))
def test_random_zero_sum_games_match_the_lp_value(seed):
    game = random_game("zero-sum", (12, 17), seed=seed)
    value, _, _ = zero_sum_equilibrium(game.payoffs[0])
    solver = RegretMinimizer(game, preset("predictive-rm+", updates="alternating"))
    solver.step(20_000)
    metrics = solver.metrics()
    assert metrics.nash_conv < 1e-4
    assert metrics.value[0] == pytest.approx(value, abs=1e-4)
    # with NashConv = eps, the average profile's value is within eps of the game's value
    assert abs(metrics.value[0] - value) <= metrics.nash_conv + 1e-12


def test_lp_reference_solves_rps_crash():
    value, row, column = zero_sum_equilibrium(catalog_game("rps-crash").payoffs[0])
    assert value == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(row, [0.25, 0.5, 0.25], atol=1e-9)
    np.testing.assert_allclose(column, [0.25, 0.5, 0.25], atol=1e-9)


@pytest.mark.slow  # 30 s: run by .ci/run's second step (pytest -m slow)
@pytest.mark.parametrize("game_id", ["traffic-lights", "battle-of-partners"])
@pytest.mark.parametrize("play", ["expected", "sampled"])
@pytest.mark.parametrize("algorithm", ["internal-rm", "greedy-internal-rm"])
def test_internal_rm_reaches_a_correlated_equilibrium(game_id, play, algorithm):
    game = catalog_game(game_id)
    solver = RegretMinimizer(game, preset(algorithm, play=play, seed=1))
    solver.step(10_000)
    assert solver.metrics().ce_gap < 0.01 * game.payoff_range


def test_greedy_weights_beat_vanilla_rm_on_cce_gap_of_random_3_player_games():
    """Zhang, Lerer & Brown 2022, Fig. 4 setting: sampled play, general-sum, equal iterations."""
    ratios = []
    for seed in range(8):
        game = random_game("general-sum", (5, 5, 5), seed=100 + seed)
        gaps = {}
        for algorithm in ("rm", "greedy-rm"):
            solver = RegretMinimizer(game, preset(algorithm, play="sampled", seed=seed))
            solver.step(2000)
            gaps[algorithm] = solver.metrics().cce_gap
        ratios.append(gaps["rm"] / max(gaps["greedy-rm"], 1e-12))
    assert sum(r > 1 for r in ratios) >= 6
    assert np.median(ratios) > 10


def test_greedy_floor_defaults_follow_the_paper():
    zero_sum = RegretMinimizer(catalog_game("rps"), preset("greedy-rm"))
    general = RegretMinimizer(catalog_game("chicken"), preset("greedy-rm"))
    internal = RegretMinimizer(catalog_game("rps"), preset("greedy-internal-rm"))
    assert (zero_sum.greedy_floor, general.greedy_floor, internal.greedy_floor) == (0.5, 0.0, 0.0)


@pytest.mark.parametrize("seed", range(20))
def test_greedy_step_never_loses_to_another_feasible_weight(seed):
    """The chosen weight's potential is minimal over the weights the floor allows."""
    from rmviz.solvers.weighting import greedy_step

    rng = np.random.default_rng(seed)
    size, t, floor = int(rng.integers(2, 30)), int(rng.integers(2, 500)), [0.0, 0.5][seed % 2]
    average, new = rng.normal(size=size), rng.normal(size=size)
    weight_sum = float(rng.uniform(0.5, 3))
    step, _ = greedy_step(average, new, weight_sum, t, floor, np)

    def potential(regret_sum, weight):
        return float((np.maximum(regret_sum / weight, 0) ** 2).sum())

    chosen = potential(step.d_pos * average * weight_sum + step.c * new, step.d_avg * weight_sum + step.c_avg)
    floor_weight = floor * weight_sum / (t - 1)
    for w in np.concatenate([[floor_weight, weight_sum / (t - 1)], floor_weight + np.logspace(-4, 4, 400)]):
        assert chosen <= potential(average * weight_sum + w * new, weight_sum + w) + 1e-12


@pytest.mark.parametrize("algorithm", list(PRESETS))
@pytest.mark.parametrize("play", ["expected", "sampled"])
def test_every_preset_runs_on_three_players_and_reports_finite_metrics(algorithm, play):
    game = catalog_game("three-player-pennies")
    solver = RegretMinimizer(game, preset(algorithm, play=play))
    solver.step(300)
    metrics = solver.metrics()
    for value in (metrics.nash_conv, metrics.cce_gap, metrics.eps_bound, metrics.potential):
        assert np.isfinite(value) and value >= 0
    snap = solver.snapshot()
    for strategy in snap.average_strategy + snap.current_strategy:
        assert strategy.sum() == pytest.approx(1.0)
        assert (strategy >= 0).all()


def test_alternating_updates_converge():
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm+", updates="alternating"))
    solver.step(5000)
    assert solver.metrics().nash_conv < 1e-3


@pytest.mark.slow  # 25 s
def test_greedy_internal_rm_beats_internal_rm_on_many_player_games():
    """Greedy weights lower the CE gap (Zhang, Lerer & Brown 2022, Fig. 4) once the inertia
    acts on regrets of weight sum t (``weighting.inertia_at``): median over 4 random 7-player
    10-action games at 10^4 sampled iterations. With the inertia on greedy's average regrets,
    greedy internal RM was no better than internal RM (docs/algorithms.md)."""
    medians = {}
    for algorithm in ("internal-rm", "greedy-internal-rm"):
        gaps = []
        for g in range(4):
            game = random_game("general-sum", (10,) * 7, seed=1000 + g)
            solver = RegretMinimizer(game, preset(algorithm, play="sampled", seed=g))
            solver.step(10_000)
            gaps.append(solver.metrics().ce_gap)
        medians[algorithm] = float(np.median(gaps))
    assert medians["greedy-internal-rm"] < medians["internal-rm"] / 10
