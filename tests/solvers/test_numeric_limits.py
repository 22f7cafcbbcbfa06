"""Numbers stay finite: the scale-free pieces, 10^8-iteration runs, extreme parameters.

Running 10^8 iterations takes minutes per algorithm, so :func:`_fast_forward` puts a solver
that has run a few iterations where 10^8 would leave it: the iteration counter at 10^8 and
every weighted sum grown by the factor 10^8 iterations give it (uniform weights: sums grow
like t; the discount-form schemes keep them below that; greedy weights keep the weight sum
at 1, so only the counter moves). A few hundred more iterations must keep every number
finite and the averages distributions. ``tests/benchmarks/long_run.py`` runs 10^8 for real.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker
from rmviz.solvers.registry import make_solver
from rmviz.solvers.regret_matching import internal_regret_matching
from rmviz.solvers.scale import payoff_scale, zero_sum
from rmviz.solvers.weighting import DISCOUNTED, averaging_step_of, greedy_lambda, regret_discounts_of
from tests.solvers.test_payoff_scale import MATRIX_CASES, TREE_CASES

LATE = 10**8

MATRIX_SUMS = (
    "regret",
    "prediction",
    "strategy_sum",
    "external_regret",
    "internal_regret",
    "payoff_sum",
    "weight_sum",
    "joint",
)
TREE_SUMS = ("regret", "strategy_sum", "true_regret", "weight_sum")


def _fast_forward(solver, sums: tuple[str, ...], greedy: bool) -> None:
    state = solver.state
    if not greedy:
        factor = LATE / state.iteration
        for name in sums:
            value = getattr(state, name)
            if isinstance(value, list):
                setattr(state, name, [v * factor for v in value])
            elif value is not None:
                setattr(state, name, value * factor)
    state.iteration = LATE


def _assert_finite_distributions(solver) -> None:
    snapshot = solver.snapshot(metrics=True)
    for name, value in snapshot.metrics.as_dict().items():
        for each in value.values() if isinstance(value, dict) else [value]:  # player_gaps: by notion
            assert each is None or np.all(np.isfinite(each)), name
    averages = snapshot.average_strategy
    if isinstance(averages, tuple):
        pieces = list(averages) + list(snapshot.current_strategy)
        sums = [p.sum() for p in pieces]
    else:
        tree = solver.tree
        pieces = [averages, snapshot.current_strategy]
        sums = [np.bincount(tree.slot_infoset, p) for p in pieces]
    assert all(np.all(np.isfinite(p)) and np.all(p >= 0) for p in pieces)
    np.testing.assert_allclose(np.concatenate([np.ravel(s) for s in sums]), 1.0, rtol=1e-9)
    values = snapshot.trace_values()
    metric = np.array([column.is_metric for column in solver.columns])
    assert np.all(np.isfinite(values[~metric]))
    assert not np.any(np.isinf(values[metric]))  # NaN only where a metric is not tracked


def _late_run(game, algorithm, sums, **options) -> None:
    solver = make_solver(game, algorithm, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solver.step(20)
        _fast_forward(solver, sums, solver.config.weighting == "greedy")
        solver.step(300)
    assert solver.iteration == LATE + 300
    _assert_finite_distributions(solver)


@pytest.mark.parametrize(("algorithm", "play", "updates"), MATRIX_CASES)
def test_matrix_presets_stay_finite_after_1e8_iterations(algorithm, play, updates):
    game = catalog_game("rps-crash")
    at_limit = game.payoffs * (1e150 / np.abs(game.payoffs).max())  # the largest payoff games accept
    _late_run(game.with_payoffs(at_limit), algorithm, MATRIX_SUMS, play=play, updates=updates)


@pytest.mark.parametrize(("algorithm", "updates"), TREE_CASES)
def test_tree_presets_stay_finite_after_1e8_iterations(algorithm, updates):
    _late_run(kuhn_poker(), algorithm, TREE_SUMS, updates=updates)


@pytest.mark.parametrize(
    "parameters", [{"alpha": 60.0}, {"beta": 60.0}, {"alpha": -60.0, "beta": -60.0}, {"gamma": 60.0}]
)
def test_discounting_with_extreme_exponents_stays_finite_late(parameters):
    """DCFR's ``s^a / (s^a + 1)`` was inf/inf = NaN once ``s^a`` overflowed (s > 1e5 for a = 60)."""
    _late_run(catalog_game("rps-crash"), "discounted-rm", MATRIX_SUMS, **parameters)
    _late_run(kuhn_poker(), "dcfr", TREE_SUMS, **parameters)


def test_weights_shrinking_with_t_do_not_overflow():
    """gamma < 0: history was multiplied by ((t-1)/t)^gamma > 1 every iteration, and the sums
    grew like t^|gamma| (past the largest double within 3,000 iterations for gamma = -100)."""
    for solver in (
        make_solver(catalog_game("rps-crash"), "discounted-rm", gamma=-100.0),
        make_solver(kuhn_poker(), "dcfr", gamma=-100.0),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            solver.step(3000)
        assert float(solver.state.weight_sum) <= 3000
        _assert_finite_distributions(solver)


def test_discount_factors_are_fractions_for_any_exponent():
    for t in (2, 10**5, 10**8, 10**12):
        for exponent in (-400.0, -1.5, 0.0, 1.5, 400.0):
            assert all(0.0 <= d <= 1.0 for d in regret_discounts_of(DISCOUNTED, t, exponent, exponent))
            assert all(0.0 <= f <= 1.0 for f in averaging_step_of(DISCOUNTED, t, exponent))
    assert regret_discounts_of(DISCOUNTED, 5, 1.5, 0.0) == pytest.approx((4**1.5 / (4**1.5 + 1), 0.5))
    # weights t^-2: the same ratio between history and the new iterate as ((t-1)/t)^-2
    d, c = averaging_step_of(DISCOUNTED, 5, -2.0)
    assert (d, c) == pytest.approx((1.0, (4 / 5) ** 2))


@pytest.mark.parametrize("factor", [1e-300, 1e-160, 1e160, 1e300])
def test_greedy_line_search_is_scale_free(factor):
    """The squares of the line search underflowed below ~1e-154 (weight 0: the average never
    moved) and overflowed above ~1e154 (NaN)."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        x, r = rng.normal(size=6), rng.normal(size=6)
        expected = greedy_lambda(x, r, 0.95, 0.9, np)
        assert greedy_lambda(x * factor, r * factor, 0.95, 0.9, np) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("factor", [1e-300, 1e-150, 1e14, 1e20, 1e150, 1e300])
def test_internal_regret_matching_is_scale_free(factor):
    """Its least-squares system mixes the rates with a row of ones: rates of 1e14 made the
    SVD fail to converge (LinAlgError), 1e20 gave NaN, 1e-300 the uniform strategy."""
    rng = np.random.default_rng(5)
    for _ in range(10):
        regrets = rng.normal(size=(4, 4))
        expected = internal_regret_matching(regrets, np)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            np.testing.assert_allclose(
                internal_regret_matching(regrets * factor, np), expected, rtol=1e-9, atol=1e-12
            )


def test_payoff_scale_is_a_power_of_two_outside_the_band():
    assert payoff_scale(np.array([3.0, -5.0])) == 1.0
    assert payoff_scale(np.zeros(3)) == 1.0
    for top in (1e-300, 1e-30, 1e30, 1e150):
        scale = payoff_scale(np.array([top, -top / 3]))
        mantissa, _ = np.frexp(scale)
        assert mantissa == 0.5 and 0.5 <= top / scale < 1.0


def test_zero_sum_is_relative_to_the_payoffs():
    """np.allclose's absolute 1e-8 called every game with payoffs below 1e-8 zero-sum, which
    switched greedy weights' floor on."""
    general = catalog_game("battle-of-partners").payoffs
    for factor in (1e-150, 1.0, 1e150):
        assert not zero_sum(general * factor)
        assert zero_sum(catalog_game("rps-crash").payoffs * factor)
