"""The zero-sum LP read back exactly, and the reference equilibrium the window stars
(rmviz.solvers.exact); fractions of floats (rmviz.solvers.rational)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import catalog_game, random_game
from rmviz.games.catalog import CATALOG
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.exact import (
    ZERO_SUM_MAX_PROFILES,
    reference,
    reference_equilibrium,
    zero_sum_equilibrium,
    zero_sum_solution,
)
from rmviz.solvers.rational import format_number, parse_number, rational


def edited_rps_crash() -> NormalFormGame:
    """RPS with Crash with Rock against Paper changed from -1 to -3 (zero-sum kept)."""
    game = catalog_game("rps-crash")
    payoffs = game.payoffs.copy()
    payoffs[:, 0, 1] = (-3, 3)
    return game.with_payoffs(payoffs)


def saddle(matrix, x, y):
    """(what x guarantees, what y concedes), in Fractions."""
    a = [[F(v) for v in row] for row in matrix]
    guaranteed = min(sum(x[i] * a[i][j] for i in range(len(x))) for j in range(len(y)))
    conceded = max(sum(a[i][j] * y[j] for j in range(len(y))) for i in range(len(x)))
    return guaranteed, conceded


def test_the_edited_game_is_solved_exactly():
    """By hand: Row (1/6, 1/2, 1/3), Column (1/4, 1/3, 5/12), value -1/6 (every pure reply
    to either strategy pays exactly -1/6)."""
    game = edited_rps_crash()
    solution = zero_sum_solution(game)
    assert solution.exact and solution.value == F(-1, 6) and solution.values == (F(-1, 6), F(1, 6))
    x, y = solution.exact_strategies
    assert list(x) == [F(1, 6), F(1, 2), F(1, 3)] and list(y) == [F(1, 4), F(1, 3), F(5, 12)]
    assert saddle(game.payoffs[0], x, y) == (F(-1, 6), F(-1, 6))
    value, _, _ = zero_sum_equilibrium(game.payoffs[0])
    assert value == pytest.approx(-1 / 6, abs=1e-9)


@pytest.mark.parametrize("game_id", ["rps", "rps-crash", "matching-pennies"])
def test_catalog_zero_sum_games(game_id):
    game = catalog_game(game_id)
    solution = zero_sum_solution(game)
    assert solution.exact and solution.value == 0
    expected = CATALOG[game_id].equilibrium
    for exact, known in zip(solution.exact_strategies, expected, strict=True):
        assert [float(p) for p in exact] == pytest.approx(known, abs=1e-15)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_zero_sum_games_agree_with_the_lp(seed):
    game = random_game("zero-sum", (6, 5), seed=seed)
    solution = zero_sum_solution(game)
    value, _, _ = zero_sum_equilibrium(game.payoffs[0])
    assert float(solution.value) == pytest.approx(value, abs=1e-9)
    x, y = solution.strategies
    assert (x @ game.payoffs[0]).min() == pytest.approx(value, abs=1e-7)
    assert (game.payoffs[0] @ y).max() == pytest.approx(value, abs=1e-7)
    if solution.exact:  # verified: a saddle point in fractions
        assert saddle(game.payoffs[0], *solution.exact_strategies) == (solution.value, solution.value)


def test_constant_sum_games_give_each_player_their_value():
    matrix = np.array([[3.0, 1.0], [0.0, 2.0]])  # value 3/2: x = (1/2, 1/2), y = (1/4, 3/4)
    game = NormalFormGame(np.array([matrix, 5 - matrix]))
    solution = zero_sum_solution(game)
    assert solution.exact and solution.values == (F(3, 2), F(7, 2))
    assert [list(s) for s in solution.exact_strategies] == [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]


def test_general_sum_games_are_refused():
    with pytest.raises(ConfigError, match="not a two-player zero-sum"):
        zero_sum_solution(catalog_game("battle-of-partners"))


def test_the_reference_star():
    rps = catalog_game("rps-crash")
    shown = reference(rps)
    assert shown.source == "catalog" and shown.equilibrium == CATALOG["rps-crash"].equilibrium
    assert shown.zero_sum is not None and shown.zero_sum.value == 0
    edited = edited_rps_crash()
    shown = reference(edited)
    assert shown.source == "LP" and shown.equilibrium == zero_sum_solution(edited).equilibrium
    assert shown.equilibrium == ((1 / 6, 1 / 2, 1 / 3), (1 / 4, 1 / 3, 5 / 12))
    assert reference_equilibrium(edited) == shown.equilibrium
    bop = catalog_game("battle-of-partners")
    edited_bop = bop.with_payoffs(bop.payoffs + 1)
    assert reference(bop).source == "catalog" and reference(edited_bop).equilibrium is None
    big = random_game("zero-sum", (101, 100), seed=1)
    assert big.payoffs[0].size > ZERO_SUM_MAX_PROFILES
    shown = reference(big)
    assert shown.equilibrium is None and "not computed automatically above 10,000" in shown.note


@pytest.mark.parametrize(
    ("x", "fraction"),
    [
        (1 / 3, F(1, 3)),
        (0.1, F(1, 10)),
        (2 / 9, F(2, 9)),
        (-20 / 9, F(-20, 9)),
        (1e-7, F(1, 10**7)),
        (3.0, F(3)),
    ],
)
def test_floats_are_read_as_the_fractions_they_stand_for(x, fraction):
    assert rational(x) == fraction and float(rational(x)) == x


def test_numbers_typed_and_shown():
    assert parse_number(" 2/9 ", "entry 1") == F(2, 9) and parse_number("1e-3", "entry 1") == F(1, 1000)
    assert [format_number(v) for v in (F(-20, 9), F(17), F(0), 0.0, F(1, 3 * 10**6), 0.125)] == [
        "-20/9",
        "17",
        "0",
        "0",
        "3.33333e-07",
        "0.125",
    ]


@pytest.mark.parametrize("scale", [2.0**70, 1e20, 1e150, 1e-150, 3e-9])
def test_the_lp_solves_games_at_any_payoff_scale(scale):
    """HiGHS refused payoffs from about 1e20 ("Model error"): the LP sees them scaled by a
    power of two, so every scale gives the unit game's strategies and its value, scaled."""
    unit = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.5]])
    expected = zero_sum_solution(NormalFormGame(np.stack([unit, -unit])))
    solution = zero_sum_solution(NormalFormGame(np.stack([unit * scale, -unit * scale])))
    assert solution.value == pytest.approx(float(expected.value) * scale, rel=1e-12)
    for mine, theirs in zip(solution.equilibrium, expected.equilibrium, strict=True):
        np.testing.assert_allclose(mine, theirs, atol=1e-9)
