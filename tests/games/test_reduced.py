"""The reduced strategic form of game trees, against known values."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import GameError
from rmviz.formats import load_game
from rmviz.games import catalog_game
from rmviz.games.reduced import reduced_strategic_form
from rmviz.games.trees import kuhn_poker, leduc_poker, normal_form_tree, teaching_tree
from rmviz.solvers.exact import zero_sum_equilibrium


def test_kuhn_has_27_by_64_reduced_strategies_and_value_minus_one_eighteenth():
    game = reduced_strategic_form(kuhn_poker())
    assert game.num_actions == (27, 64)
    assert len(set(game.action_names[0])) == 27  # every strategy named differently
    value, _, _ = zero_sum_equilibrium(game.payoffs[0])
    assert value == pytest.approx(-1 / 18, abs=1e-9)
    np.testing.assert_allclose(game.payoffs[0], -game.payoffs[1])


def test_the_teaching_tree_by_hand():
    game = reduced_strategic_form(teaching_tree())
    assert game.action_names == (("1:L", "1:R"), ("2X:A 2Y:C", "2X:A 2Y:D", "2X:B 2Y:C", "2X:B 2Y:D"))
    # (L, A C): nature X then 1, nature Y then 2, each with probability 1/2
    np.testing.assert_allclose(game.payoffs[0], [[1.5, 0.5, 0.5, -0.5], [-0.5, 0.0, 0.5, 1.0]])


def test_a_matrix_game_as_a_tree_comes_back():
    original = catalog_game("battle-of-partners")
    back = reduced_strategic_form(normal_form_tree(original))
    np.testing.assert_allclose(back.payoffs, original.payoffs)


def test_too_large_is_a_clear_error_and_the_spec_loads():
    with pytest.raises(GameError, match="more than 20,000 reduced strategies"):
        reduced_strategic_form(leduc_poker())
    assert load_game("reduced:kuhn").num_actions == (27, 64)
