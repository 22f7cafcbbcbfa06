"""The reduced strategic form of game trees, against known values."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import GameError
from rmviz.formats import load_game
from rmviz.games import catalog_game
from rmviz.games.extensive_form import ExtensiveFormGame, chance, decision, terminal
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


def guesses(n_sets: int) -> ExtensiveFormGame:
    """Chance deals one of ``n_sets`` cards; Ann sees it and guesses its parity: 2^n strategies."""
    root = chance(
        [
            (
                f"c{k}",
                1 / n_sets,
                decision(0, f"c{k}", [("odd", terminal(k % 2, 0)), ("even", terminal(1 - k % 2, 0))]),
            )
            for k in range(n_sets)
        ]
    )
    return ExtensiveFormGame(root, ("Ann", "Bob"), "guesses")


def test_more_than_a_thousand_information_sets_is_the_one_line_error():
    """Issue 10, defect 5: this died with a RecursionError traceback."""
    with pytest.raises(GameError, match=r"^'Ann' has more than 20,000 reduced strategies in 'guesses'"):
        reduced_strategic_form(guesses(1500))
    with pytest.raises(GameError, match="more than 20,000 reduced strategies"):
        reduced_strategic_form(guesses(15))  # 32,768 strategies
    game = reduced_strategic_form(guesses(14))  # 16,384 strategies, right below the bound
    assert game.num_actions == (16_384, 1)
    assert game.payoffs[0].max() == pytest.approx(1.0, abs=1e-12)  # guessing every parity right


def test_the_size_is_known_before_any_strategy_is_listed(monkeypatch):
    import rmviz.games.reduced as reduced

    def enumerate_nothing(*args, **kwargs):
        raise AssertionError("enumerated strategies of a game that is too large")

    monkeypatch.setattr(reduced, "_reduced_strategies", enumerate_nothing)
    with pytest.raises(GameError, match="more than 20,000 reduced strategies"):
        reduced_strategic_form(guesses(20_000))


def test_strategies_come_in_the_order_of_their_information_sets():
    """The enumeration order, the names and the payoffs are those of the recursive original."""
    game = reduced_strategic_form(kuhn_poker())
    assert game.action_names[0][:4] == (
        "J:p Jpb:p Q:p Qpb:p K:p Kpb:p",
        "J:p Jpb:p Q:p Qpb:p K:p Kpb:b",
        "J:p Jpb:p Q:p Qpb:p K:b",
        "J:p Jpb:p Q:p Qpb:b K:p Kpb:p",
    )
    assert game.action_names[0][-1] == "J:b Q:b K:b"
    assert len(set(game.action_names[1])) == 64


@pytest.mark.parametrize("players", [1, 9])
def test_matrix_games_have_two_to_eight_players(players):
    node = terminal(*range(players))
    for p in reversed(range(players)):
        node = decision(p, f"i{p}", [("a", node), ("b", terminal(*([p] * players)))])
    game = ExtensiveFormGame(node, tuple(f"P{p}" for p in range(players)), "line")
    with pytest.raises(GameError, match=rf"^'line' has {players} players?; .* for 2 to 8 players$"):
        reduced_strategic_form(game)
