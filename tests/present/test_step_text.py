"""The matrix step mode's text (rmviz.present.step_text) on the lecture's Battle of the
Partners: the table and the formulas of iteration 1 from uniform, and a swap-regret table."""

from __future__ import annotations

from rmviz.games.catalog import catalog_game
from rmviz.present.step_text import TABLE_COLUMNS, format_step, formulas, swap_rows, table_rows
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.explain import step_explained
from rmviz.solvers.matrix.solver import RegretMinimizer


def test_the_first_iteration_of_regret_matching_as_a_table():
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("rm", device="cpu"))
    step = step_explained(solver)
    assert format_step(step).splitlines()[:5] == [
        "iteration 1: t = 1, every iteration weight 1",
        "  Cat: payoff u = 19/4",
        "     action  pi^t  U(a)  r^t(a)  R^t-1(a)  R^t(a)  pi^t+1  average",
        "     Cinema   1/2     6     5/4         0     5/4       1      1/2",
        "    Dancing   1/2   7/2    -5/4         0    -5/4       0      1/2",
    ]
    rows = table_rows(step.players[1])
    assert [len(row) for row in rows] == [len(TABLE_COLUMNS)] * 2
    assert formulas(step, 0) == [
        "U(a) = u(a, pi_-i^t) against the others' strategies = (6, 7/2)",
        "u^t = sum_a pi^t(a) U(a) = 1/2*6 + 1/2*7/2 = 19/4",
        "r^t(a) = U(a) - u^t = (5/4, -5/4)",
        "R^t = R^t-1 + r^t: (0, 0) -> (5/4, -5/4)",
        "pi^t+1(a) = [R^t(a)]_+ / 5/4 = (1, 0)",
        "average = S^t / sum S^t, S^t = S^t-1 + pi^t: (1/2, 1/2)",
    ]


def test_internal_regret_shows_the_swap_matrix():
    """r(b, a) = pi(b) (U(a) - U(b)): Cinema -> Dancing 1/2 (7/2 - 6) = -5/4."""
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("internal-rm", device="cpu"))
    step = step_explained(solver)
    player = step.players[0]
    assert swap_rows(player) == [("Cinema -> ", "0", "-5/4"), ("Dancing -> ", "5/4", "0")]
    assert "    swap regrets R^t(b, a): Cinema ->  0 -5/4; Dancing ->  5/4 0" in format_step(step)
