"""The joint distribution and CE accumulators of two-player expected play come from one
pending sum (:mod:`rmviz.solvers.matrix.joint_tracking`); they equal the per-iteration
updates of the generic array code (the old accumulation) to 1e-12 of the weight sum."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix import joint_tracking
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

pytest.importorskip("numba")

# (algorithm, options): every weighting and averaging, the rules, predictive RM+; a DCFR
# averaging of gamma 60 drives the lazy scale below FOLD_BELOW within a few iterations
CONFIGS = [
    ("rm", {}),
    ("rm+", {}),
    ("linear-rm", {}),
    ("discounted-rm", {}),
    ("discounted-rm", {"gamma": 60.0}),
    ("rm", {"averaging": "quadratic"}),
    ("predictive-rm+", {}),
    ("greedy-rm", {}),
    ("hedge", {}),
    ("fictitious-play", {}),
]
# up to 1,024 entries the kernel's iterates are the array code's bit for bit (the summation
# rule), so the comparison is of the accumulations alone; chunks cross BLOCK boundaries
GAMES = [("zero-sum", (2, 3), 1), ("general-sum", (7, 5), 2), ("general-sum", (31, 33), 3)]
CHUNKS = (1, 3, joint_tracking.BLOCK + 6, 2 * joint_tracking.BLOCK + 1)


def _pair(game: NormalFormGame, algorithm: str, **options: object) -> tuple[RegretMinimizer, RegretMinimizer]:
    compiled = RegretMinimizer(game, preset(algorithm, **options))
    array = RegretMinimizer(game, preset(algorithm, **options))
    array._kernel = None
    assert compiled._kernel is not None and compiled.track_ce and compiled.track_joint
    return compiled, array


def _assert_same_accumulation(compiled: RegretMinimizer, array: RegretMinimizer) -> None:
    weight = float(array.state.weight_sum)
    assert float(compiled.state.weight_sum) == weight
    for new, old in zip(compiled.state.internal_regret, array.state.internal_regret, strict=True):
        np.testing.assert_allclose(new / weight, old / weight, rtol=0, atol=1e-12)
        assert not np.diag(new).any()  # the diagonal stays exactly zero
    np.testing.assert_allclose(compiled.state.joint / weight, array.state.joint / weight, rtol=0, atol=1e-12)
    new_metrics, old_metrics = compiled.snapshot().metrics, array.snapshot().metrics
    assert new_metrics.ce_gap == pytest.approx(old_metrics.ce_gap, abs=1e-12)
    assert new_metrics.cce_gap == pytest.approx(old_metrics.cce_gap, abs=1e-12)


@pytest.mark.parametrize("play", ["expected", "sampled"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize(("algorithm", "options"), CONFIGS)
@pytest.mark.parametrize(("kind", "shape", "seed"), GAMES)
def test_new_accumulation_equals_the_old_one(kind, shape, seed, algorithm, options, updates, play):
    if algorithm == "greedy-rm" and updates == "alternating":
        pytest.skip("greedy weights need simultaneous updates")
    game = random_game(kind, shape, seed=seed)
    compiled, array = _pair(game, algorithm, updates=updates, play=play, seed=seed, **options)
    for chunk in CHUNKS:
        compiled.step(chunk)
        array.step(chunk)
        for new, old in zip(compiled.state.current, array.state.current, strict=True):
            np.testing.assert_array_equal(new, old)  # the same iterates: only the sums differ
        _assert_same_accumulation(compiled, array)


@pytest.mark.parametrize("fixed", [0, 1])
def test_a_fixed_player_is_recorded_too(fixed):
    game = random_game("general-sum", (6, 4), seed=5)
    start = np.full(game.num_actions[fixed], 1.0 / game.num_actions[fixed])
    start[0] += 0.1
    start[-1] -= 0.1
    compiled, array = _pair(game, "rm+", fixed_strategies={fixed: start.tolist()})
    for chunk in CHUNKS:
        compiled.step(chunk)
        array.step(chunk)
    _assert_same_accumulation(compiled, array)


@pytest.mark.parametrize("kind", ["zero-sum", "general-sum"])
def test_single_pass_games_track_the_old_accumulation(kind):
    """Above 1,024 entries the products are reassociated: the iterates agree to rounding, and
    so do the sums (a zero-sum game's column product reads P_0 with sign -1)."""
    game = random_game(kind, (40, 37), seed=9)
    compiled, array = _pair(game, "rm")
    for chunk in CHUNKS:
        compiled.step(chunk)
        array.step(chunk)
    _assert_same_accumulation(compiled, array)


def test_the_lazy_scale_folds_before_it_underflows():
    """A DCFR averaging of gamma 60 multiplies history by (1/2)^60 at t = 2: the pending sum
    is folded in whenever the scale would pass FOLD_BELOW, and nothing is lost or infinite."""
    game = random_game("general-sum", (4, 5), seed=1)
    compiled, array = _pair(game, "rm", averaging="quadratic")
    compiled_discounted, array_discounted = _pair(game, "discounted-rm", gamma=60.0)
    for solver in (compiled, array, compiled_discounted, array_discounted):
        solver.step(3 * joint_tracking.BLOCK)
    _assert_same_accumulation(compiled_discounted, array_discounted)
    assert np.isfinite(compiled_discounted.state.joint).all()
    _assert_same_accumulation(compiled, array)
