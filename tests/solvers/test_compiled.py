"""The compiled two-player kernel produces the iterates of the generic array code."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.solvers import RegretMinimizer, preset
from rmviz.solvers.compiled import eligible

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
    assert eligible(fast)
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


def test_greedy_internal_sampled_and_three_players_use_the_generic_code():
    assert not eligible(RegretMinimizer(catalog_game("rps"), preset("greedy-rm")))
    assert not eligible(RegretMinimizer(catalog_game("rps"), preset("internal-rm")))
    assert not eligible(RegretMinimizer(catalog_game("rps"), preset("rm", play="sampled")))
    assert not eligible(RegretMinimizer(catalog_game("three-player-pennies"), preset("rm")))
