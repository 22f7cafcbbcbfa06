"""The compiled two-player kernel produces the iterates of the generic array code."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

pytest.importorskip("numba")

# name: (game, tolerance). The kernel's BLAS (reached through SciPy) and NumPy's round the
# last bits differently; current strategies R+/sum R+ amplify that when sum R+ is small.
GAMES = {
    "rps-crash": (lambda: catalog_game("rps-crash"), 1e-11),
    "general-sum 5x7": (lambda: random_game("general-sum", (5, 7), seed=3), 1e-11),
    "zero-sum 40x40 (BLAS path)": (lambda: random_game("zero-sum", (40, 40), seed=4), 1e-8),
}


def _pair(game, algorithm, **config):
    fast = RegretMinimizer(game, preset(algorithm, **config))
    slow = RegretMinimizer(game, preset(algorithm, **config))
    slow._kernel = None
    assert fast.releases_gil
    return fast, slow


def _assert_same(fast, slow, atol):
    a, b = fast.snapshot(), slow.snapshot()
    for name in ("current_strategy", "average_strategy", "cumulative_regret", "average_regret"):
        for x, y in zip(getattr(a, name), getattr(b, name), strict=True):
            np.testing.assert_allclose(x, y, rtol=0, atol=atol, err_msg=name)
    if a.joint is not None:
        np.testing.assert_allclose(a.joint, b.joint, rtol=0, atol=atol)
    for key, value in a.metrics.as_dict().items():
        np.testing.assert_allclose(value, b.metrics.as_dict()[key], rtol=0, atol=atol, err_msg=key)
    assert a.iteration == b.iteration


@pytest.mark.parametrize("algorithm", ["rm", "rm+", "linear-rm", "discounted-rm", "predictive-rm+"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("game_name", list(GAMES))
def test_kernel_matches_generic_code(algorithm, updates, game_name):
    build, tolerance = GAMES[game_name]
    fast, slow = _pair(build(), algorithm=algorithm, updates=updates)
    for chunk in (1, 7, 300):  # resuming between calls must not change anything
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=tolerance)


def test_greedy_kernel_matches_generic_code():
    fast, slow = _pair(catalog_game("rps-crash"), algorithm="greedy-rm")
    for chunk in (1, 300):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-12)


SAMPLED = [
    (algorithm, updates)
    for algorithm in (
        "rm",
        "rm+",
        "discounted-rm",
        "predictive-rm+",
        "greedy-rm",
        "internal-rm",
        "greedy-internal-rm",
    )
    for updates in ("simultaneous", "alternating")
    if not ("greedy" in algorithm and updates == "alternating")  # greedy needs simultaneous updates
]


@pytest.mark.parametrize(("algorithm", "updates"), SAMPLED)
def test_sampled_kernel_replays_the_generic_random_stream(algorithm, updates):
    """Same seed, same draws, same iterates: the kernel consumes NumPy's stream in advance."""
    game = random_game("general-sum", (3, 4, 5), seed=1)
    fast, slow = _pair(game, algorithm=algorithm, updates=updates, play="sampled", seed=4)
    for chunk in (1, 5, 300):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-12)


def test_sampled_kernel_with_a_fixed_player():
    game = catalog_game("rps")
    fast, slow = _pair(game, algorithm="internal-rm", play="sampled", fixed_strategies={0: [0.5, 0.25, 0.25]})
    fast.step(400)
    slow.step(400)
    _assert_same(fast, slow, atol=1e-12)


def test_kernel_with_a_fixed_player():
    fast, slow = _pair(catalog_game("rps"), algorithm="rm", fixed_strategies={1: [0.4, 0.3, 0.3]})
    fast.step(500)
    slow.step(500)
    _assert_same(fast, slow, atol=1e-12)


def test_kernel_on_an_unstable_equilibrium_agrees_until_rounding_is_amplified():
    """Simultaneous RM hovers on Battle of the Partners' *unstable* mixed equilibrium, where
    a last-bit difference (BLAS's fused multiply-add against the kernel's loop) grows about
    tenfold every three iterations: the two paths agree for 20 iterations, not for 500."""
    fast, slow = _pair(catalog_game("battle-of-partners"), algorithm="rm")
    fast.step(20)
    slow.step(20)
    _assert_same(fast, slow, atol=1e-9)


def test_expected_internal_regret_uses_the_generic_code():
    assert not RegretMinimizer(catalog_game("rps"), preset("internal-rm")).releases_gil
    # three or more players in expected play: the sampled kernel's contraction (tested below)
    assert RegretMinimizer(catalog_game("three-player-pennies"), preset("rm")).releases_gil


EXPECTED_N_PLAYER = [
    (algorithm, updates)
    for algorithm in ("rm", "rm+", "linear-rm", "discounted-rm", "predictive-rm+", "greedy-rm")
    for updates in ("simultaneous", "alternating")
    if not ("greedy" in algorithm and updates == "alternating")
]


@pytest.mark.parametrize(("algorithm", "updates"), EXPECTED_N_PLAYER)
def test_expected_play_with_three_players_matches_the_generic_code(algorithm, updates):
    """The sampled kernel's expected-play branch (axis-by-axis contraction) gives the
    iterates of the generic tensordot code, CE accumulators and metrics included."""
    game = random_game("general-sum", (3, 4, 2), seed=11)
    fast, slow = _pair(game, algorithm=algorithm, updates=updates)
    assert fast.releases_gil
    for chunk in (1, 7, 200):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-10)


def test_expected_play_kernel_with_a_fixed_player_and_four_players():
    game = random_game("general-sum", (2, 3, 2, 2), seed=5)
    fast, slow = _pair(game, algorithm="rm", fixed_strategies={1: [0.2, 0.3, 0.5]})
    for chunk in (1, 50):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-10)
    np.testing.assert_allclose(fast.state.current[1], [0.2, 0.3, 0.5])


def test_large_n_player_expected_games_stay_on_blas():
    big = random_game("general-sum", (100, 100, 100), seed=0)  # 1e6 profiles: BLAS is faster
    assert not RegretMinimizer(big, preset("rm")).releases_gil
    internal = RegretMinimizer(random_game("general-sum", (3, 3, 3), seed=0), preset("internal-rm"))
    assert not internal.releases_gil  # expected internal RM: the generic code


@pytest.mark.parametrize("shape", [(6, 5, 7), (3, 2, 4, 3, 2)])
def test_expected_contraction_on_uneven_shapes(shape):
    fast, slow = _pair(random_game("general-sum", shape, seed=2), algorithm="rm+", updates="alternating")
    for chunk in (1, 100):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-10)
