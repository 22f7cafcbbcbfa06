"""The solver's streaming metrics equal the definitions in rmviz.solvers.metrics."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.metrics import cce_gap, ce_gap, incentive_matrix, joint_incentives, nash_conv
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.weighting import DISCOUNTED, averaging_step_of


@pytest.mark.parametrize("play", ["expected", "sampled"])
@pytest.mark.parametrize("algorithm", ["rm", "linear-rm", "rm+", "discounted-rm", "greedy-rm", "internal-rm"])
def test_gaps_of_the_tracked_joint_distribution_match_the_definitions(algorithm, play):
    game = random_game("general-sum", (3, 4), seed=11)
    solver = RegretMinimizer(game, preset(algorithm, play=play, seed=2))
    solver.step(400)
    snap = solver.snapshot()
    assert snap.joint.sum() == pytest.approx(1.0)
    assert snap.metrics.cce_gap == pytest.approx(cce_gap(game.payoffs, snap.joint), abs=1e-12)
    assert snap.metrics.ce_gap == pytest.approx(ce_gap(game.payoffs, snap.joint), abs=1e-12)
    welfare = float((game.payoffs * snap.joint[None]).sum())
    assert snap.metrics.welfare == pytest.approx(welfare, abs=1e-12)
    expected_nash_conv, values = nash_conv(game.payoffs, snap.average_strategy)
    assert snap.metrics.nash_conv == pytest.approx(expected_nash_conv, abs=1e-12)
    assert snap.metrics.value == pytest.approx(tuple(values), abs=1e-12)
    assert snap.metrics.exploitability == pytest.approx(snap.metrics.nash_conv / 2)


def test_cce_ce_definitions_on_the_lecture_distribution():
    """CFR lecture: psi = (C,C) 2/9, (C,D) 4/9, (D,C) 1/9, (D,D) 2/9 is a CE of the game."""
    game = catalog_game("battle-of-partners")
    psi = np.array([[2, 4], [1, 2]]) / 9
    assert ce_gap(game.payoffs, psi) == pytest.approx(0.0, abs=1e-12)
    assert cce_gap(game.payoffs, psi) == pytest.approx(0.0, abs=1e-12)
    coin = np.array([[0.5, 0], [0, 0.5]])  # the public coin: a CE, not a product
    assert ce_gap(game.payoffs, coin) == pytest.approx(0.0, abs=1e-12)
    miscoordination = np.array([[0, 1.0], [0, 0]])
    assert ce_gap(game.payoffs, miscoordination) == pytest.approx(5.0)  # Cat: Cinema->Dancing gains 5


@pytest.mark.parametrize(("scheme", "exponent"), [("uniform", 0), ("linear", 1), ("quadratic", 2)])
def test_average_strategy_weights_follow_the_schedule(scheme, exponent):
    """The discount form reproduces average = sum_t t^k pi_t / sum_t t^k."""
    game = catalog_game("shapley")
    solver = RegretMinimizer(game, preset("rm", averaging=scheme))
    played = []
    for _ in range(60):
        played.append(solver.snapshot(metrics=False).current_strategy[0])
        solver.step(1)
    weights = np.arange(1, 61, dtype=float) ** exponent
    expected = (weights[:, None] * np.array(played)).sum(axis=0) / weights.sum()
    np.testing.assert_allclose(solver.snapshot().average_strategy[0], expected, rtol=1e-12)


def test_discounted_averaging_uses_gamma():
    assert averaging_step_of(DISCOUNTED, 5, 2.0) == pytest.approx(((4 / 5) ** 2, 1.0))
    assert averaging_step_of(DISCOUNTED, 1, 2.0) == (1.0, 1.0)


def test_snapshots_are_immutable_copies():
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    solver.step(10)
    snap = solver.snapshot()
    before = snap.average_strategy[0].copy()
    with pytest.raises(ValueError):
        snap.average_strategy[0][0] = 1.0
    solver.step(10)
    np.testing.assert_array_equal(snap.average_strategy[0], before)
    assert snap.iteration == 10


def test_runs_are_reproducible_from_the_seed():
    game = random_game("general-sum", (4, 4, 4), seed=0)

    def run(seed):
        solver = RegretMinimizer(game, preset("greedy-rm", play="sampled", seed=seed))
        solver.step(200)
        return solver.snapshot()

    a, b, c = run(5), run(5), run(6)
    for x, y in zip(a.average_strategy, b.average_strategy, strict=True):
        np.testing.assert_array_equal(x, y)
    assert any(not np.array_equal(x, y) for x, y in zip(a.average_strategy, c.average_strategy, strict=True))


def test_reset_starts_over():
    solver = RegretMinimizer(catalog_game("rps"), preset("rm", play="sampled", seed=3))
    solver.step(50)
    first = solver.snapshot()
    solver.reset()
    assert solver.iteration == 0
    solver.step(50)
    np.testing.assert_array_equal(solver.snapshot().average_strategy[0], first.average_strategy[0])


def test_large_expected_play_games_skip_the_ce_accumulator():
    game = random_game("zero-sum", (100, 100), seed=0)
    solver = RegretMinimizer(game, preset("rm"))
    solver.step(5)
    assert solver.metrics().ce_gap is None
    forced = RegretMinimizer(game, preset("rm", track_ce=True))
    forced.step(5)
    assert forced.metrics().ce_gap is not None


@pytest.mark.parametrize("shape", [(2, 2), (3, 5), (7, 4), (10, 10)])
def test_joint_incentives_are_the_definitions_row_by_row(shape):
    """metrics.joint_incentives (one recommendation at a time) equals incentive_matrix (the
    definition's cube) on random joint distributions of general-sum games."""
    game = random_game("general-sum", shape, seed=sum(shape))
    joint = np.random.default_rng(3).random(shape)
    joint /= joint.sum()
    for player, incentives in enumerate(joint_incentives(game.payoffs, joint)):
        np.testing.assert_allclose(
            incentives, incentive_matrix(game.payoffs, joint, player), rtol=0, atol=1e-14
        )


def test_an_action_tied_with_the_recommendation_gains_exactly_nothing():
    """Gains are formed before they are weighted: duplicate actions' incentives are 0.0."""
    payoffs = np.random.default_rng(5).normal(size=(2, 4, 3)) * 1e3
    payoffs[0, 2] = payoffs[0, 0]  # row player's actions 0 and 2 tie against every column
    payoffs[1, :, 1] = payoffs[1, :, 2]  # column player's actions 1 and 2 likewise
    joint = np.random.default_rng(6).random((4, 3)) / 7
    first, second = joint_incentives(payoffs, joint)
    assert first[0, 2] == 0.0 and first[2, 0] == 0.0
    assert second[1, 2] == 0.0 and second[2, 1] == 0.0
    assert np.all(np.diag(first) == 0.0) and np.all(np.diag(second) == 0.0)


@pytest.mark.parametrize("options", [{}, {"track_joint": False}, {"updates": "alternating"}])
def test_two_player_expected_play_reads_its_ce_gap_off_the_joint(options):
    """No |A_i| x |A_i| accumulator per player and iteration: the CE gap is the joint's
    (issue 34: 64x64 ran ~3x slower tracked than untracked); the joint is kept for it even
    when not asked for, and sampled play keeps its accumulators (one row per iteration)."""
    game = random_game("general-sum", (6, 5), seed=8)
    solver = RegretMinimizer(game, preset("rm", seed=1, **options))
    solver.step(200)
    assert solver.state.internal_regret is None and solver.state.joint is not None
    snapshot = solver.snapshot()
    assert snapshot.metrics.ce_gap == pytest.approx(ce_gap(game.payoffs, snapshot.joint), abs=1e-13)
    assert snapshot.metrics.ce_gap > 1e-6
    sampled = RegretMinimizer(game, preset("rm", play="sampled", seed=1))
    assert sampled.state.internal_regret is not None
