"""The CE checker's text (rmviz.present.correlated_text): each constraint's row and verdict,
and what the text says of the arithmetic."""

from __future__ import annotations

import numpy as np

from rmviz.games import catalog_game, random_game
from rmviz.present.correlated_text import constraint_rows, format_check, verdict
from rmviz.solvers.matrix import correlated
from rmviz.solvers.matrix.correlated import check_joint, parse_joint


def test_each_constraint_row_says_whether_it_binds_holds_or_is_violated():
    game = catalog_game("battle-of-partners")
    check = check_joint(game, parse_joint("1, 0, 0, 0"))  # both at the cinema
    assert constraint_rows(check, "CE") == [
        ("Cat", "Cinema", "Dancing", "1*(0 - 10)", "-10", "10", "holds"),
        ("Cat", "Dancing", "Cinema", "0", "0", "0", "binds"),
        ("Dee", "Cinema", "Dancing", "1*(2 - 7)", "-5", "5", "holds"),
        ("Dee", "Dancing", "Cinema", "0", "0", "0", "binds"),
    ]
    violated = check_joint(game, parse_joint("0, 1, 0, 0"))  # Cat at the cinema, Dee dancing
    assert [verdict(c) for c in violated.ce_constraints] == ["VIOLATED", "binds", "binds", "VIOLATED"]
    assert "not a correlated equilibrium" in format_check(violated)


def test_large_games_say_they_are_checked_in_floats():
    """Moved from tests/solvers/matrix/test_correlated.py's check of the same game."""
    game = random_game("general-sum", (30, 30, 30), seed=1)  # 27,000 profiles x 90 actions
    assert not correlated.exact_size(game)
    joint = np.random.default_rng(2).random(game.num_actions)
    assert "floating point" in format_check(check_joint(game, joint))
