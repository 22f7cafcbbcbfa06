"""The CE checker and the best CE/CCE by LP (rmviz.solvers.matrix.correlated).

Every constraint of the CFR lecture's two examples is recomputed here by hand in Fractions;
the LP optima are checked against an exact vertex enumeration written from the definitions
(no code shared with the module), against a dense LP built by explicit loops, and against
known values (Aumann's Chicken: the best CE has welfare 10.5).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import catalog_game, random_game
from rmviz.games.catalog import bimatrix
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix import correlated
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.correlated import (
    LP_MAX_PROFILES,
    best_correlated,
    check_joint,
    constraint_matrix,
    parse_joint,
)
from rmviz.solvers.matrix.metrics import cce_gap, ce_gap
from rmviz.solvers.matrix.solver import RegretMinimizer


def ce_values(check):
    """{(player, recommended, deviation): value} of the CE constraints."""
    return {(c.player, c.recommended, c.deviation): c.value for c in check.ce_constraints}


def cce_values(check):
    return {(c.player, c.deviation): c.value for c in check.cce_constraints}


# -- the lecture's examples, every number by hand ----------------------------------------------
def test_battle_of_the_partners_mixed_equilibrium_is_a_ce_constraint_by_constraint():
    """Lecture, "Correlated Equilibrium: Example (2)": psi = 2/9, 4/9, 1/9, 2/9."""
    game = catalog_game("battle-of-partners")  # Cat rows, Dee columns; Cinema, Dancing
    check = check_joint(game, parse_joint("2/9, 4/9, 1/9, 2/9"))
    assert check.exact and check.total == 1
    cinema, dancing = 0, 1
    # Cat, advised Cinema, plays Dancing: 2/9 (0 - 10) + 4/9 (7 - 2) = -20/9 + 20/9
    # Cat, advised Dancing, plays Cinema: 1/9 (10 - 0) + 2/9 (2 - 7) = 10/9 - 10/9
    # Dee, advised Cinema (column), plays Dancing: 2/9 (2 - 7) + 1/9 (10 - 0)
    # Dee, advised Dancing, plays Cinema: 4/9 (7 - 2) + 2/9 (0 - 10)
    assert ce_values(check) == {
        (0, cinema, dancing): F(2, 9) * (0 - 10) + F(4, 9) * (7 - 2),
        (0, dancing, cinema): F(1, 9) * (10 - 0) + F(2, 9) * (2 - 7),
        (1, cinema, dancing): F(2, 9) * (2 - 7) + F(1, 9) * (10 - 0),
        (1, dancing, cinema): F(4, 9) * (7 - 2) + F(2, 9) * (0 - 10),
    }
    assert all(value == 0 and isinstance(value, F) for value in ce_values(check).values())
    # CCE: the sum over all four profiles; deviating to one's own advice adds 0 terms
    assert cce_values(check) == {
        (0, cinema): F(1, 9) * (10 - 0) + F(2, 9) * (2 - 7),
        (0, dancing): F(2, 9) * (0 - 10) + F(4, 9) * (7 - 2),
        (1, cinema): F(4, 9) * (7 - 2) + F(2, 9) * (0 - 10),
        (1, dancing): F(2, 9) * (2 - 7) + F(1, 9) * (10 - 0),
    }
    assert check.ce_gap == 0 and check.cce_gap == 0 and check.is_ce and check.is_cce
    # "U_Cat(psi) = U_Dee(psi) = 4 2/3"
    assert check.payoffs == (F(14, 3), F(14, 3)) and check.welfare == F(28, 3)
    first = check.ce_constraints[0]
    assert check.expansion(first) == "2/9*(0 - 10) + 4/9*(7 - 2)"  # as the slide writes it
    assert first.slack == 0 and first.holds


def test_battle_of_the_partners_coin_toss():
    """Lecture, "Example (3)": the public coin (C,C) 1/2, (D,D) 1/2: -5 and -5/2 for Cat."""
    check = check_joint(catalog_game("battle-of-partners"), parse_joint("1/2 0 0 1/2"))
    values = ce_values(check)
    assert values[(0, 0, 1)] == F(1, 2) * (0 - 10) == -5
    assert values[(0, 1, 0)] == F(1, 2) * (2 - 7) == F(-5, 2)
    assert values[(1, 0, 1)] == F(1, 2) * (2 - 7) and values[(1, 1, 0)] == F(1, 2) * (0 - 10)
    assert check.welfare == 17 and check.payoffs == (F(17, 2), F(17, 2))  # "8 1/2" each
    assert check.is_ce and check.ce_gap == 0


def test_traffic_lights():
    """Lecture: {(Stop, Go) -> 1/2, (Go, Stop) -> 1/2} is a CE; the catalog orders Stop, Go."""
    game = catalog_game("traffic-lights")
    check = check_joint(game, parse_joint("0, 1/2, 1/2, 0"))
    stop, go = 0, 1
    # Car 1 advised Stop (so Car 2 goes): going instead crashes, 1/2 (-100 - 0)
    # Car 1 advised Go (Car 2 stops): stopping instead, 1/2 (0 - 1)
    assert ce_values(check) == {
        (0, stop, go): F(1, 2) * (-100 - 0),
        (0, go, stop): F(1, 2) * (0 - 1),
        (1, stop, go): F(1, 2) * (-100 - 0),
        (1, go, stop): F(1, 2) * (0 - 1),
    }
    assert cce_values(check) == {
        (0, stop): F(1, 2) * (0 - 0) + F(1, 2) * (0 - 1),
        (0, go): F(1, 2) * (-100 - 0) + F(1, 2) * (1 - 1),
        (1, stop): F(1, 2) * (0 - 1) + F(1, 2) * (0 - 0),
        (1, go): F(1, 2) * (1 - 1) + F(1, 2) * (-100 - 0),
    }
    assert [c.slack for c in check.ce_constraints] == [50, F(1, 2), 50, F(1, 2)]
    assert check.ce_gap == 0 and check.welfare == 1
    # both cars always go: the crash, and each would rather stop
    crash = check_joint(game, parse_joint("0 0 0 1"))
    assert ce_values(crash)[(0, go, stop)] == 1 * (0 - (-100)) == crash.ce_gap == crash.cce_gap
    assert not crash.is_ce and not crash.is_cce


def test_an_exact_tie_reads_exactly_zero_where_floats_leave_1e_17():
    game = NormalFormGame(np.array([[[0.7, 0.1], [0.2, 1.1]], [[0.3, 0.1], [0.1, 1.1]]]))
    check = check_joint(game, [5, 2, 1, 2])  # weights: p = 1/2, 1/5, 1/10, 1/5
    assert check.total == 10 and list(check.joint.ravel()) == [F(1, 2), F(1, 5), F(1, 10), F(1, 5)]
    values = ce_values(check)
    assert (
        values[(0, 0, 1)] == F(1, 2) * (F(2, 10) - F(7, 10)) + F(1, 5) * (F(11, 10) - F(1, 10)) == F(-1, 20)
    )
    assert (
        values[(0, 1, 0)] == F(1, 10) * (F(7, 10) - F(2, 10)) + F(1, 5) * (F(1, 10) - F(11, 10)) == F(-3, 20)
    )
    assert values[(1, 0, 1)] == F(1, 2) * (F(1, 10) - F(3, 10)) + F(1, 10) * (F(11, 10) - F(1, 10)) == 0
    assert (
        values[(1, 1, 0)] == F(1, 5) * (F(3, 10) - F(1, 10)) + F(1, 5) * (F(1, 10) - F(11, 10)) == F(-4, 25)
    )
    assert check.ce_gap == 0 and check.is_ce
    floats = check_joint(game, [5, 2, 1, 2], exact=False)
    assert 0 < floats.ce_gap < 1e-16  # rounding: why the checker computes in fractions
    assert ce_gap(game.payoffs, floats.joint) == floats.ce_gap


# -- the same gaps as the run metrics ------------------------------------------------------------
@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 2)])
def test_gaps_equal_the_metric_definitions(shape, exact):
    game = random_game("general-sum", shape, seed=5)
    joint = np.random.default_rng(1).random(shape)
    check = check_joint(game, joint, exact=exact)
    p = joint / joint.sum()
    assert float(check.ce_gap) == pytest.approx(ce_gap(game.payoffs, p), abs=1e-12)
    assert float(check.cce_gap) == pytest.approx(cce_gap(game.payoffs, p), abs=1e-12)
    welfare = float((game.payoffs * p[None]).sum())
    assert float(check.welfare) == pytest.approx(welfare, abs=1e-12)
    assert len(check.ce_constraints) == sum(k * (k - 1) for k in shape)
    assert len(check.cce_constraints) == sum(shape)


@pytest.mark.parametrize("algorithm", ["rm", "internal-rm"])
def test_the_checkers_gap_of_a_runs_joint_is_the_runs_metric(algorithm):
    game = catalog_game("battle-of-partners")
    solver = RegretMinimizer(game, preset(algorithm, play="sampled", seed=3))
    solver.step(500)
    snapshot = solver.snapshot()
    check = check_joint(game, snapshot.joint)
    assert check.exact
    assert float(check.ce_gap) == pytest.approx(snapshot.metrics.ce_gap, abs=1e-12)
    assert float(check.cce_gap) == pytest.approx(snapshot.metrics.cce_gap, abs=1e-12)
    assert float(check.welfare) == pytest.approx(snapshot.metrics.welfare, abs=1e-12)


def test_large_games_are_checked_in_floats_and_huge_ones_refused():
    game = random_game("general-sum", (30, 30, 30), seed=1)  # 27,000 profiles x 90 actions
    assert not correlated.exact_size(game)
    joint = np.random.default_rng(2).random(game.num_actions)
    check = check_joint(game, joint)
    assert not check.exact
    assert check.ce_gap == pytest.approx(ce_gap(game.payoffs, joint / joint.sum()), abs=1e-12)
    big = NormalFormGame(np.zeros((2, 400, 400)))
    with pytest.raises(ConfigError, match="up to 100,000 action profiles; this 400x400 game has 160,000"):
        check_joint(big, [1] * 160_000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1/2, 1/2", "has 4 entries, one per action profile in table order; got 2"),
        ("1/2, x, 0, 1/2", r"entry 2 \('x'\) is not a number"),
        ("1/2, 1/0, 0, 1/2", "entry 2"),
        ("1/2, -1/4, 0, 1/2", r"entry 2 \(Cinema, Dancing\) is -1/4: probabilities cannot be negative"),
        ("0 0 0 0", "all zeros"),
        ("1e999999 0 0 1", "too long a number"),
        ("   ", "type one probability per action profile"),
    ],
)
def test_bad_joints_are_refused_with_one_line(text, message):
    game = catalog_game("battle-of-partners")
    with pytest.raises(ConfigError, match=message) as raised:
        check_joint(game, parse_joint(text))
    assert "\n" not in str(raised.value)


def test_non_finite_entries_are_refused():
    game = catalog_game("battle-of-partners")
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ConfigError, match="finite"):
            check_joint(game, [bad, 0, 0, 1])


# -- the LP: an independent exact formulation --------------------------------------------------
def definition_rows(payoffs, kind):
    """The constraint rows straight from the definitions, in Fractions, by explicit loops."""
    shape = payoffs.shape[1:]
    profiles = list(itertools.product(*(range(k) for k in shape)))
    u = {(i, s): F(payoffs[(i, *s)]) for i in range(len(shape)) for s in profiles}
    rows = []
    for i, k in enumerate(shape):
        advice = range(k) if kind == "CE" else [None]
        for b in advice:
            for a in range(k):
                if a == b:
                    continue
                row = []
                for s in profiles:
                    deviated = (*s[:i], a, *s[i + 1 :])
                    row.append(u[(i, deviated)] - u[(i, s)] if b is None or s[i] == b else F(0))
                rows.append(row)
    welfare = [sum(u[(i, s)] for i in range(len(shape))) for s in profiles]
    return rows, welfare


def solve_exactly(matrix, vector):
    """Gauss-Jordan elimination in Fractions; None when singular."""
    n = len(matrix)
    m = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0:
                factor = m[r][col] / m[col][col]
                m[r] = [x - factor * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[r][n] / m[r][r] for r in range(n)]


def best_welfare_by_vertices(payoffs, kind):
    """The largest welfare over the vertices of the polytope {A p <= 0, p >= 0, sum p = 1}:
    every choice of k - 1 inequalities made tight with the equality, solved exactly."""
    rows, welfare = definition_rows(payoffs, kind)
    k = len(welfare)
    inequalities = rows + [[F(-1) if j == c else F(0) for j in range(k)] for c in range(k)]
    best = None
    for tight in itertools.combinations(range(len(inequalities)), k - 1):
        p = solve_exactly([inequalities[t] for t in tight] + [[F(1)] * k], [F(0)] * (k - 1) + [F(1)])
        if p is None or any(sum(a * x for a, x in zip(row, p, strict=True)) > 0 for row in inequalities):
            continue
        value = sum(w * x for w, x in zip(welfare, p, strict=True))
        best = value if best is None else max(best, value)
    return best


@pytest.mark.parametrize("kind", ["CE", "CCE"])
@pytest.mark.parametrize(("shape", "seed"), [((2, 2), 1), ((2, 2), 2), ((2, 2), 3), ((2, 3), 4), ((3, 2), 5)])
def test_the_lp_optimum_is_the_best_vertex(shape, seed, kind):
    payoffs = np.random.default_rng(seed).integers(-5, 6, size=(2, *shape)).astype(float)
    game = NormalFormGame(payoffs)
    optimum = best_correlated(game, kind)
    best = best_welfare_by_vertices(payoffs, kind)
    assert optimum.lp_welfare == pytest.approx(float(best), abs=1e-9)
    assert optimum.exact and optimum.welfare == best  # read back as fractions, verified exactly
    rows, _ = definition_rows(payoffs, kind)
    p = list(optimum.joint.ravel())
    assert all(sum(a * x for a, x in zip(row, p, strict=True)) <= 0 for row in rows)
    assert sum(p) == 1 and min(p) >= 0


def test_chicken_best_ce_from_the_literature():
    """Aumann's Chicken, (6,6) (2,7) (7,2) (0,0): the welfare-maximising CE puts 1/2 on
    (Chicken, Chicken) and 1/4 on each of the others' dares, 5.25 each, welfare 10.5
    (Aumann 1974; e.g. Wikipedia, "Correlated equilibrium"); the best CCE is no worse."""
    game = bimatrix([[6, 2], [7, 0]], [[6, 7], [2, 0]], ("A", "B"), (("C", "D"), ("C", "D")), "Chicken")
    optimum = best_correlated(game, "CE")
    assert optimum.exact and optimum.welfare == F(21, 2)
    assert list(optimum.joint.ravel()) == [F(1, 2), F(1, 4), F(1, 4), 0]
    cce = best_correlated(game, "CCE")
    assert cce.welfare == best_welfare_by_vertices(game.payoffs, "CCE") >= F(21, 2)


@pytest.mark.parametrize(
    ("game_id", "welfare"),
    [("battle-of-partners", 17), ("traffic-lights", 1), ("chicken", 0), ("prisoners-dilemma", 2), ("rps", 0)],
)
def test_catalog_best_ce(game_id, welfare):
    """Coordinating on (Cinema, Cinema) gives 10 + 7; a light gives 0 + 1; the catalog's
    Chicken crashes at -20 and pays 0 elsewhere; the PD's only CE is (Defect, Defect)."""
    for kind in ("CE", "CCE"):
        optimum = best_correlated(catalog_game(game_id), kind)
        assert optimum.exact and optimum.welfare == welfare
        assert optimum.check.is_ce if kind == "CE" else optimum.check.is_cce


def test_constraint_matrix_equals_the_definition():
    game = random_game("general-sum", (2, 3, 2), seed=8)
    for kind in ("CE", "CCE"):
        rows, _ = definition_rows(game.payoffs, kind)
        expected = np.array([[float(x) for x in row] for row in rows])
        np.testing.assert_allclose(constraint_matrix(game.payoffs, kind).toarray(), expected, atol=1e-15)


def test_three_player_lp_against_a_dense_formulation():
    from scipy.optimize import linprog

    game = random_game("general-sum", (3, 3, 3), seed=4)
    for kind in ("CE", "CCE"):
        rows, welfare = definition_rows(game.payoffs, kind)
        dense = linprog(
            -np.array([float(w) for w in welfare]),
            A_ub=np.array([[float(x) for x in row] for row in rows]),
            b_ub=np.zeros(len(rows)),
            A_eq=np.ones((1, len(welfare))),
            b_eq=[1],
            bounds=(0, None),
            method="highs-ipm",
        )
        optimum = best_correlated(game, kind)
        assert optimum.lp_welfare == pytest.approx(-dense.fun, abs=1e-7)
        check = check_joint(game, optimum.joint, exact=False)
        assert float(check.ce_gap if kind == "CE" else check.cce_gap) <= 1e-7


def test_payoff_units_do_not_matter_and_size_is_bounded():
    game = catalog_game("battle-of-partners")
    scaled = game.with_payoffs(game.payoffs * 1e12)
    assert best_correlated(scaled, "CE").lp_welfare == pytest.approx(17e12, rel=1e-12)
    side = math.isqrt(LP_MAX_PROFILES) + 1
    with pytest.raises(ConfigError, match=f"up to {LP_MAX_PROFILES:,} action profiles"):
        best_correlated(NormalFormGame(np.zeros((2, side, side))), "CE")
