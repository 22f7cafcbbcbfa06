"""The last iterate's distances (``last_*``): recomputed here, independently, on the current
profile, in exact arithmetic over the explicit product distribution."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from rmviz.games import catalog_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.metrics import cce_gap, ce_gap, incentive_summary, last_iterate, product_summary
from rmviz.solvers.registry import make_solver

LAST = ("last_exploitability", "last_nash_conv", "last_cce_gap", "last_ce_gap")


def exact_last(payoffs: np.ndarray, strategies) -> dict[str, Fraction]:
    """NashConv, exploitability, CCE and CE gaps of the product of ``strategies``, from the
    definitions, profile by profile over the explicit joint distribution, in fractions."""
    n = payoffs.shape[0]
    shape = payoffs.shape[1:]
    pi = [[Fraction(float(p)) for p in s] for s in strategies]
    joint = {a: math.prod(pi[j][a[j]] for j in range(n)) for a in itertools.product(*map(range, shape))}
    nash, cce, ce = Fraction(0), Fraction(0), Fraction(0)
    for i in range(n):
        m = [[Fraction(0)] * shape[i] for _ in range(shape[i])]  # m[b][a']
        for a, p in joint.items():
            for deviation in range(shape[i]):
                moved = (*a[:i], deviation, *a[i + 1 :])
                gain = Fraction(float(payoffs[i][moved])) - Fraction(float(payoffs[i][a]))
                m[a[i]][deviation] += p * gain
        columns = [sum(m[b][d] for b in range(shape[i])) for d in range(shape[i])]
        nash += max(columns)  # max_a' u_i(a', pi_-i) - u_i(pi) for a product distribution
        cce = max(cce, *columns)
        ce = max(ce, *(x for row in m for x in row))
    return {
        "last_nash_conv": nash,
        "last_exploitability": nash / n,
        "last_cce_gap": cce,
        "last_ce_gap": ce,
    }


def three_by_three() -> NormalFormGame:
    """A general-sum 3x3 game with ties: against (1/4, 1/4, 1/2) the row player's first two
    actions are both best (utility 3/2); against (1/2, 1/4, 1/4) the column player's first
    two tie (utility 1) below the third (2)."""
    row = [[2, 0, 2], [0, 2, 2], [1, 1, 0]]
    column = [[0, 1, 1], [3, 1, 1], [1, 1, 5]]
    payoffs = np.array([row, column], dtype=np.float64)
    return NormalFormGame(payoffs, ("Row", "Column"), (("a", "b", "c"),) * 2)


def test_rps_default_start_in_exact_fractions():
    # rps starts at (1/2, 1/4, 1/4) against (1/4, 1/2, 1/4) (the catalog's start): U_1 = (-1/4,
    # 0, 1/4), u_1 = -1/16; U_2 = (0, 1/4, -1/4), u_2 = 1/16, so NashConv = 5/16 + 3/16
    solver = make_solver(catalog_game("rps"), "rm+")
    metrics = solver.snapshot().metrics.as_dict()
    assert metrics["last_nash_conv"] == 0.5
    assert metrics["last_exploitability"] == 0.25
    assert metrics["last_cce_gap"] == 5 / 16
    assert metrics["last_ce_gap"] == 0.25  # Row told Rock: 1/2 x (1/4 - (-1/4))
    expected = exact_last(solver.game.payoffs, [np.array(s) for s in solver.snapshot().current_strategy])
    assert {k: metrics[k] for k in LAST} == {k: float(v) for k, v in expected.items()}
    assert metrics["exploitability"] == 0.0  # the average is uniform before the first iteration


def test_three_by_three_with_ties_in_exact_fractions():
    game = three_by_three()
    start = {0: (0.5, 0.25, 0.25), 1: (0.25, 0.25, 0.5)}
    solver = make_solver(game, "rm", start=start)
    metrics = solver.snapshot().metrics.as_dict()
    expected = exact_last(game.payoffs, [np.array(start[0]), np.array(start[1])])
    # by hand: U_row = (3/2, 3/2, 1/2), u_row = 5/4; U_col = (1, 1, 2), u_col = 3/2
    assert expected["last_nash_conv"] == Fraction(1, 4) + Fraction(1, 2)
    assert expected["last_cce_gap"] == Fraction(1, 2)
    # Row told c: 1/4 x (3/2 - 1/2); Column told a or b: 1/4 x (2 - 1)
    assert expected["last_ce_gap"] == Fraction(1, 4)
    for key in LAST:
        assert metrics[key] == float(expected[key]), key


@pytest.mark.parametrize(
    ("game_id", "algorithm", "options"),
    [
        ("rps", "rm+", {}),
        ("rps-crash", "predictive-rm+", {"updates": "alternating"}),
        ("chicken", "internal-rm", {}),
        ("three-player-pennies", "rm", {}),
        ("rps", "rm", {"play": "sampled", "seed": 3}),
    ],
)
def test_after_a_run_the_columns_are_the_current_profiles(game_id, algorithm, options):
    solver = make_solver(catalog_game(game_id), algorithm, **options)
    solver.step(37)
    snapshot = solver.snapshot()
    expected = exact_last(solver.game.payoffs, snapshot.current_strategy)
    values = dict(zip(solver.columns, snapshot.trace_values(), strict=True))
    for key in LAST:
        assert values[Column(key)] == pytest.approx(float(expected[key]), rel=1e-12, abs=1e-14), key
    # the average's columns are still the average's
    assert values[Column("exploitability")] == snapshot.metrics.exploitability


def test_product_summary_is_the_incentive_matrix_of_the_product():
    rng = np.random.default_rng(7)
    payoffs = rng.normal(size=(2, 4, 5))
    x, y = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(5))
    joint = np.outer(x, y)
    last = last_iterate(payoffs, [x, y])
    assert last.cce_gap == pytest.approx(cce_gap(payoffs, joint), abs=1e-12)
    assert last.ce_gap == pytest.approx(ce_gap(payoffs, joint), abs=1e-12)
    from rmviz.solvers.matrix.metrics import expected_utilities, incentive_matrix

    for i, strategy in enumerate((x, y)):
        utilities = expected_utilities(payoffs[i], [x, y], i)
        columns, rows = product_summary(utilities, strategy, utilities @ strategy)
        want_columns, want_rows = incentive_summary(incentive_matrix(payoffs, joint, i))
        np.testing.assert_allclose(columns, want_columns, atol=1e-12)
        np.testing.assert_allclose(rows, want_rows, atol=1e-12)


def test_off_leaves_the_columns_nan_and_the_json_keys_none():
    solver = make_solver(catalog_game("rps"), "rm+", last_iterate=False)
    solver.step(5)
    snapshot = solver.snapshot()
    values = dict(zip(solver.columns, snapshot.trace_values(), strict=True))
    assert all(math.isnan(values[Column(key)]) for key in LAST)
    assert all(snapshot.metrics.as_dict()[key] is None for key in LAST)


def test_payoff_scale_is_multiplied_back():
    game = catalog_game("rps")
    big = game.with_payoffs(game.payoffs * 1000.0)
    start = {0: (0.5, 0.25, 0.25)}  # the scaled game is no catalog game: no default start
    small, large = make_solver(game, "rm", start=start), make_solver(big, "rm", start=start)
    small.step(9)
    large.step(9)
    a, b = small.snapshot().metrics.as_dict(), large.snapshot().metrics.as_dict()
    for key in LAST:
        assert a[key] > 0
        assert b[key] == pytest.approx(1000.0 * a[key], rel=1e-12)
