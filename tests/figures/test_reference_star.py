"""Exported figures star the equilibrium the window stars: the catalog's, or the zero-sum
LP's for an edited zero-sum game (rmviz.solvers.exact.reference)."""

from __future__ import annotations

from rmviz.figures.run import record
from rmviz.games import catalog_game
from rmviz.games.catalog import CATALOG
from rmviz.solvers.exact import zero_sum_solution


def test_the_exported_star_is_the_windows():
    game = catalog_game("rps-crash")
    assert record(game, "rm", iterations=10).equilibrium == CATALOG["rps-crash"].equilibrium
    payoffs = game.payoffs.copy()
    payoffs[:, 0, 1] = (-3, 3)
    edited = game.with_payoffs(payoffs)
    star = record(edited, "rm", iterations=10).equilibrium
    assert star == zero_sum_solution(edited).equilibrium == ((1 / 6, 1 / 2, 1 / 3), (1 / 4, 1 / 3, 5 / 12))
    bop = catalog_game("battle-of-partners")
    assert record(bop.with_payoffs(bop.payoffs + 1), "rm", iterations=10).equilibrium is None
