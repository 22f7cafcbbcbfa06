"""The compiled two-player kernel produces the iterates of the generic array code."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import catalog_game, random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix import kernels
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.products import column_product, exactly_zero_sum, fused_products, row_product
from rmviz.solvers.matrix.solver import RegretMinimizer

pytest.importorskip("numba")

# name: (game, tolerance). The kernel's single-pass products (sums reassociated) and NumPy's
# BLAS round the last bits differently; current strategies R+/sum R+ amplify that when sum R+
# is small, and some runs amplify it: alternating linear RM on the 40x40 game grows a 1e-16
# difference about tenfold every 50 iterations (1e-15 at 8, 3e-10 at 208, 2e-8 at 308),
# so the single-pass games are compared over 158 iterations, and predictive RM+ on the
# general-sum game faster still (1e-11 at 58, 1e-5 at 158), so that game over 58; along
# longer runs :func:`_assert_tracks` restarts the kernel from the generic code's state. 37
# rows: the products' four-row blocks and their remainder.
GAMES = {
    "rps-crash": (lambda: catalog_game("rps-crash"), 1e-11, (1, 7, 300)),
    "general-sum 5x7": (lambda: random_game("general-sum", (5, 7), seed=3), 1e-11, (1, 7, 300)),
    "zero-sum 40x40 (single pass over P0)": (
        lambda: random_game("zero-sum", (40, 40), seed=4),
        1e-8,
        (1, 7, 150),
    ),
    "general-sum 37x45 (single pass over each matrix)": (
        lambda: random_game("general-sum", (37, 45), seed=6),
        1e-8,
        (1, 7, 50),
    ),
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


def _assert_tracks(fast, slow, iterations, atol, every=50, ahead=10):
    """Along ``iterations`` of the generic code, every ``every`` iterations: restart the
    kernel from the generic code's state, run both ``ahead`` iterations, compare. The kernel
    then computes the generic code's map at every stage of a long run, without the
    amplification of last-bit differences that a chaotic run gives over hundreds of steps."""
    for _ in range(iterations // every):
        slow.step(every - ahead)
        fast.state = copy.deepcopy(slow.state)
        fast.step(ahead)
        slow.step(ahead)
        _assert_same(fast, slow, atol=atol)


@pytest.mark.parametrize("algorithm", ["rm", "rm+", "linear-rm", "discounted-rm", "predictive-rm+"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_single_pass_kernel_tracks_long_general_sum_runs(algorithm, updates):
    game = random_game("general-sum", (37, 45), seed=6)
    fast, slow = _pair(game, algorithm=algorithm, updates=updates)
    _assert_tracks(fast, slow, 400, atol=1e-10)


@pytest.mark.parametrize("algorithm", ["rm", "rm+", "linear-rm", "discounted-rm", "predictive-rm+"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("game_name", list(GAMES))
def test_kernel_matches_generic_code(algorithm, updates, game_name):
    build, tolerance, chunks = GAMES[game_name]
    fast, slow = _pair(build(), algorithm=algorithm, updates=updates)
    for chunk in chunks:  # resuming between calls must not change anything
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


def test_expected_play_runs_compiled_for_internal_regret_and_three_players():
    assert RegretMinimizer(catalog_game("rps"), preset("internal-rm")).releases_gil
    # three or more players in expected play: the sampled kernel's contraction (tested below)
    assert RegretMinimizer(catalog_game("three-player-pennies"), preset("rm")).releases_gil


INTERNAL_EXPECTED = [
    (algorithm, updates, options)
    for algorithm in ("internal-rm", "greedy-internal-rm")
    for updates in ("simultaneous", "alternating")
    for options in ({}, {"plus": True}, {"predictive": True, "plus": True}, {"weighting": "linear"})
    if not ("greedy" in algorithm and (updates == "alternating" or "weighting" in options))
]
INTERNAL_GAMES = {
    "rps-crash": lambda: catalog_game("rps-crash"),
    "battle-of-partners": lambda: catalog_game("battle-of-partners"),
    "general-sum 5x7": lambda: random_game("general-sum", (5, 7), seed=3),
    "general-sum 3x4x2": lambda: random_game("general-sum", (3, 4, 2), seed=11),
}


@pytest.mark.parametrize(("algorithm", "updates", "options"), INTERNAL_EXPECTED)
@pytest.mark.parametrize("game_name", list(INTERNAL_GAMES))
def test_expected_internal_rm_kernel_matches_the_least_squares_code(game_name, algorithm, updates, options):
    """The kernel's stationary distributions (closed classes + GTH, stationary.py) give the
    generic code's iterates (least squares, accurate to its condition number: alternating
    linear internal RM on RPS with Crash drifts from 1e-15 at 8 iterations to 4e-11 at 158
    and 2.5e-9 at 308; greedy predictive RM+ there grows tenfold an iteration from 2e-13 at
    14 to 3e-9 at 21; Battle of the Partners' unstable mixed equilibrium tenfold every three
    iterations, as with external RM), CE gaps and metrics included; then restarted from the
    generic code's state along 400 iterations."""
    chaotic = "greedy" in algorithm or game_name == "battle-of-partners"
    fast, slow = _pair(INTERNAL_GAMES[game_name](), algorithm=algorithm, updates=updates, **options)
    for chunk in (1, 7) if chaotic else (1, 7, 150):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-10)
    _assert_tracks(fast, slow, 400, atol=1e-10, ahead=5 if chaotic else 10)


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


def test_expected_games_above_the_profile_limit_run_the_generic_code(monkeypatch):
    game = random_game("general-sum", (6, 6, 6), seed=0)
    assert RegretMinimizer(game, preset("rm")).releases_gil
    monkeypatch.setattr(kernels, "PROFILE_LOOP_MAX_ENTRIES", 6**3 - 1)
    assert not RegretMinimizer(game, preset("rm")).releases_gil
    internal = RegretMinimizer(random_game("general-sum", (3, 3, 3), seed=0), preset("internal-rm"))
    assert internal.releases_gil  # expected internal RM: the profile kernel (test above)


@pytest.mark.parametrize("shape", [(6, 5, 7), (3, 2, 4, 3, 2)])
def test_expected_contraction_on_uneven_shapes(shape):
    fast, slow = _pair(random_game("general-sum", shape, seed=2), algorithm="rm+", updates="alternating")
    for chunk in (1, 100):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-10)


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("kind", ["zero-sum", "general-sum"])
def test_single_pass_products_read_each_matrix_once(kind, updates):
    """A zero-sum game's kernel reads P0 only (the column product negated); general-sum reads
    P0 and P1; alternating keeps x' P1 for the next start and still matches the generic code
    with one player fixed."""
    game = random_game(kind, (42, 33), seed=2)
    fast, slow = _pair(game, algorithm="rm+", updates=updates)
    assert fast._kernel.fused
    assert (fast._kernel.matrix1 is fast._kernel.matrix0) == (kind == "zero-sum")
    for chunk in (1, 2, 150):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-8)
    for fixed in ({0: [1.0 / 42] * 42}, {1: [1.0 / 33] * 33}):
        fast, slow = _pair(game, algorithm="rm", updates=updates, fixed_strategies=fixed)
        for chunk in (1, 60):
            fast.step(chunk)
            slow.step(chunk)
        _assert_same(fast, slow, atol=1e-8)


def test_a_nearly_zero_sum_game_reads_both_matrices():
    """``P1 = -P0`` within the zero-sum tolerance but not exactly: the kernel reads P1 itself."""
    game = random_game("zero-sum", (40, 40), seed=4)
    payoffs = game.payoffs.copy()
    payoffs[1, 3, 5] += 1e-12
    nearly = NormalFormGame(payoffs)
    assert nearly.is_zero_sum and not exactly_zero_sum(nearly.payoffs)
    fast, slow = _pair(nearly, algorithm="rm")
    assert fast._kernel.matrix1 is not fast._kernel.matrix0
    fast.step(200)
    slow.step(200)
    _assert_same(fast, slow, atol=1e-8)


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("size", [(3, 3), (37, 45)])
def test_float32_matrix_follows_the_generic_code_on_the_rounded_game(size, updates):
    """dtype="float32": the kernel reads a float32 copy and sums in single precision; its
    iterates follow the float64 generic code run on the game rounded to float32, to the
    rounding of single-precision sums (~1e-7 of the payoffs, amplified a little by RM)."""
    game = random_game("general-sum", size, seed=8)
    rounded = NormalFormGame(game.payoffs.astype(np.float32).astype(np.float64))
    fast = RegretMinimizer(rounded, preset("rm+", updates=updates, dtype="float32"))
    slow = RegretMinimizer(rounded, preset("rm+", updates=updates))
    slow._kernel = None
    assert fast._kernel.matrix0.dtype == np.float32
    for chunk in (1, 7):
        fast.step(chunk)
        slow.step(chunk)
    _assert_same(fast, slow, atol=1e-5)
    _assert_tracks(fast, slow, 300, atol=1e-5)


def test_float32_is_checked():
    with pytest.raises(ConfigError, match="dtype"):
        preset("rm", dtype="float16")


def test_single_pass_products_against_numpy():
    rng = np.random.default_rng(0)
    for rows, columns in ((1, 1), (4, 9), (7, 5), (130, 67)):
        payoff = rng.standard_normal((rows, columns))
        x, y = rng.random(rows), rng.random(columns)
        row_out, column_out = np.empty(rows), np.empty(columns)
        other = rng.standard_normal((rows, columns))
        fused_products(payoff, other, x, y, row_out, column_out, True)
        np.testing.assert_allclose(row_out, payoff @ y, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(column_out, -(x @ payoff), rtol=1e-12, atol=1e-12)
        fused_products(payoff, other, x, y, row_out, column_out, False)
        np.testing.assert_allclose(row_out, payoff @ y, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(column_out, x @ other, rtol=1e-12, atol=1e-12)
        row_product(payoff, y, row_out)
        column_product(payoff, x, column_out, 1.0)
        np.testing.assert_allclose(row_out, payoff @ y, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(column_out, x @ payoff, rtol=1e-12, atol=1e-12)
