"""One answer per setting: the compiled kernels and the generic array code give the same
iterates, bit for bit, on generated games of up to ``ORDERED_MAX_ENTRIES`` payoff entries per
player, in every preset, play mode, update schedule and greedy weight floor.

Both paths sum every product in index order with each term rounded on its own (the summation
rule, :data:`rmviz.solvers.matrix.metrics.ORDERED_MAX_ENTRIES`), sort the greedy line
search's breakpoints stably, and compute internal RM's stationary distribution with the same
function, so every comparison of floats that picks a branch (ties snapped to zero, regrets
clipped at zero, the greedy search's tolerance and floor) sees the same operands. Before the
rule, NumPy's BLAS dot products (fused multiply-adds on this processor) and the kernels'
loops parted in the last bit at iteration 4 of greedy RM on Chicken with floor 0.25, and the
greedy weights parted at iteration 39 (0.99318 against 0.99346).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rmviz.games import catalog_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.config import PRESETS, preset
from rmviz.solvers.matrix.metrics import ORDERED_MAX_ENTRIES
from rmviz.solvers.matrix.solver import RegretMinimizer

pytest.importorskip("numba")

STATE = ("current", "regret", "prediction", "strategy_sum", "external_regret", "internal_regret", "joint")
STATE_SCALARS = ("payoff_sum", "weight_sum", "last_lambda")


def assert_same_state(fast: RegretMinimizer, slow: RegretMinimizer, t: int) -> None:
    for name in STATE + STATE_SCALARS:
        a, b = getattr(fast.state, name, None), getattr(slow.state, name, None)
        if a is None or b is None:
            assert a is None and b is None, name
            continue
        pairs = zip(a, b, strict=True) if isinstance(a, list | tuple) else [(a, b)]
        for x, y in pairs:
            if x is None or y is None:
                assert x is None and y is None, name
                continue
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y), err_msg=f"{name} at iteration {t}")


def run_both(game: NormalFormGame, name: str, iterations: int, **options) -> None:
    fast = RegretMinimizer(game, preset(name, **options))
    slow = RegretMinimizer(game, preset(name, **options))
    slow._kernel = None
    assert fast._kernel is not None  # the compiled kernel; the other runs the array code
    for t in range(1, iterations + 1):
        fast.step(1)
        slow.step(1)
        assert_same_state(fast, slow, t)


@st.composite
def games(draw) -> NormalFormGame:
    """Games of 2 or 3 players with up to ORDERED_MAX_ENTRIES entries: small integers (ties
    everywhere: regrets that cancel, equal breakpoints) or uniform floats."""
    players = draw(st.sampled_from([2, 2, 2, 3]))
    limit = 32 if players == 2 else 10
    shape = tuple(draw(st.integers(1 if i else 2, limit)) for i in range(players))
    if np.prod(shape) > ORDERED_MAX_ENTRIES:
        shape = (shape[0], *(1 for _ in shape[1:]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        payoffs = rng.integers(-3, 4, size=(players, *shape)).astype(float)
    else:
        payoffs = rng.uniform(-1.0, 1.0, size=(players, *shape))
    if players == 2 and draw(st.booleans()):
        payoffs[1] = -payoffs[0]
    return NormalFormGame(payoffs)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=games(),
    name=st.sampled_from(list(PRESETS)),
    play=st.sampled_from(["expected", "sampled"]),
    updates=st.sampled_from(["simultaneous", "alternating"]),
    floor=st.sampled_from([None, 0.0, 0.1, 0.25, 1.0]),
    iterations=st.integers(1, 40),
)
def test_kernel_and_array_code_give_the_same_iterates(game, name, play, updates, floor, iterations):
    options: dict = {"play": play, "updates": updates}
    if preset(name).weighting == "greedy":
        options["updates"] = "simultaneous"  # greedy weights: one weight for all players
        if floor is not None:
            options["greedy_floor"] = floor
    run_both(game, name, iterations, **options)


@pytest.mark.parametrize("floor", [0.25, 0.5])
def test_greedy_rm_on_chicken_is_one_answer(floor):
    """The case that parted the paths: 400 iterations, every weight and iterate equal."""
    run_both(catalog_game("chicken"), "greedy-rm", 400, greedy_floor=floor)


CYCLIC = np.array([[-3.0, 2.0, 1.0], [1.0, -3.0, 2.0], [2.0, 1.0, -3.0]])  # every row sums to 0


TIED = ["rm", "rm+", "predictive-rm+", "internal-rm", "greedy-rm", "fictitious-play"]


@pytest.mark.parametrize("name", TIED)
@pytest.mark.parametrize("players", [2, 3])
def test_a_tie_of_rounding_noise_stays_a_tie(name, players):
    """Against uniform play every action earns exactly 0 here (-3/3 + 2/3 + 1/3, checked in
    fractions), so no regret arises and uniform play stays. In floats each U(a) is rounding
    noise (-5.6e-17); scaled by that noise, the tie rule kept regrets of 5.6e-17 and regret
    matching played a pure strategy from iteration 2. With each player's largest |u| in the
    scale (kernels.tie_bounds), kernel and array code both keep uniform play, regrets 0."""
    from fractions import Fraction

    assert all(sum(Fraction(int(p)) * Fraction(1, 3) for p in row) == 0 for row in CYCLIC)
    if players == 2:
        payoffs = np.stack([CYCLIC, -CYCLIC.T])
    else:  # each player's payoff depends on their own action and the next player's, cyclically
        zero = np.zeros((3, 3, 3))
        payoffs = np.stack(
            [zero + CYCLIC[:, :, None], zero + CYCLIC.T[None, :, :], zero + CYCLIC.T[:, None, :]]
        )
    run_both(NormalFormGame(payoffs), name, 6)
    solver = RegretMinimizer(NormalFormGame(payoffs), preset(name))
    solver.step(6)
    for strategy in solver.state.current:
        assert np.all(strategy == 1.0 / 3.0)
    for regret in solver.state.external_regret:
        assert np.all(regret == 0.0)
