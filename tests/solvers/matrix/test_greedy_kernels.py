"""Greedy weights in the compiled matrix kernels (the line search's loop form,
``greedy_scan.greedy_lambda_scan``) give the generic code's weights and iterates: the same
weight at every iteration and the same strategies, regrets and sums after hundreds."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

pytest.importorskip("numba")

# name: (game, options, iterations)
CASES = {
    "rps-crash, zero-sum floor 0.5": (lambda: catalog_game("rps-crash"), {}, 600),
    "general-sum 5x7, floor 0": (lambda: random_game("general-sum", (5, 7), seed=3), {}, 600),
    # 80 regrets: above the scan's sort-everything size; products through BLAS
    "zero-sum 40x40": (lambda: random_game("zero-sum", (40, 40), seed=4), {}, 300),
    "explicit floor 0.25": (lambda: catalog_game("chicken"), {"greedy_floor": 0.25}, 400),
    "one learner (the other fixed)": (
        lambda: catalog_game("rps"),
        {"fixed_strategies": {0: [0.5, 0.25, 0.25]}},
        400,
    ),
    # every regret zero at every iteration: g flat, the uniform weight (t - 1) / t
    "constant payoffs": (lambda: catalog_game("rps").with_payoffs(np.zeros((2, 3, 3))), {}, 100),
    # magnitudes at the ends of the range, scaled by powers of two so that the game is the
    # same to the bit (a factor like 1e-300 rounds every payoff differently, and RPS with
    # Crash under greedy weights amplifies the kernel's and NumPy's last-bit differences in
    # the products to 2e-7 in 300 iterations, with either line search)
    "payoffs x 2^-990": (
        lambda: catalog_game("rps-crash").with_payoffs(np.ldexp(catalog_game("rps-crash").payoffs, -990)),
        {},
        300,
    ),
    "payoffs x 2^490": (
        lambda: catalog_game("rps-crash").with_payoffs(np.ldexp(catalog_game("rps-crash").payoffs, 490)),
        {},
        300,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_greedy_rm_kernel_gives_the_generic_weights_and_iterates(name):
    build, options, iterations = CASES[name]
    game = build()
    fast = RegretMinimizer(game, preset("greedy-rm", **options))
    slow = RegretMinimizer(game, preset("greedy-rm", **options))
    slow._kernel = None
    assert fast.releases_gil  # the kernel; the other runs the generic array code
    lambdas = []
    for _ in range(20):  # one at a time: every weight compared
        fast.step(1)
        slow.step(1)
        lambdas.append((float(fast.state.last_lambda), float(slow.state.last_lambda)))
    for chunk in (7, iterations - 27):  # resuming between calls changes nothing
        fast.step(chunk)
        slow.step(chunk)
    lambdas.append((float(fast.state.last_lambda), float(slow.state.last_lambda)))
    ours, theirs = np.array(lambdas).T
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    if name == "constant payoffs":
        np.testing.assert_array_equal(ours[1:20], [(t - 1) / t for t in range(2, 21)])
    a, b = fast.snapshot(), slow.snapshot()
    for attribute in ("current_strategy", "average_strategy", "cumulative_regret", "average_regret"):
        for x, y in zip(getattr(a, attribute), getattr(b, attribute), strict=True):
            scale = max(float(np.abs(y).max()), 1e-300)  # regrets in the payoffs' units
            np.testing.assert_allclose(x / scale, y / scale, rtol=0, atol=1e-9, err_msg=attribute)
    assert a.iteration == b.iteration == iterations
