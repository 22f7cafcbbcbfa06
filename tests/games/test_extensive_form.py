from __future__ import annotations

import pytest

from rmviz.errors import GameError
from rmviz.games import catalog_game
from rmviz.games.extensive_form import ExtensiveFormGame, chance, decision, terminal
from rmviz.games.trees import kuhn_poker, leduc_poker, normal_form_tree, teaching_tree

PLAYERS = ("Ann", "Bob")


def game(root):
    return ExtensiveFormGame(root, PLAYERS)


def test_builtin_trees_have_the_published_sizes():
    kuhn = kuhn_poker()
    assert sum(1 for _ in kuhn.nodes()) == 58
    assert [len(s) for s in kuhn.infosets] == [6, 6]
    leduc = leduc_poker()
    assert sum(1 for _ in leduc.nodes()) == 9457  # as OpenSpiel's leduc_poker
    assert [len(s) for s in leduc.infosets] == [468, 468]


def test_teaching_tree_has_infosets_spanning_two_histories():
    tree = teaching_tree()
    assert tree.infosets == (("1",), ("2X", "2Y"))
    spans = {}
    for path, node in tree.nodes():
        if node.kind == "decision" and node.player == 1:
            spans.setdefault(node.infoset, []).append(path)
    assert spans == {"2X": [("X", "L"), ("X", "R")], "2Y": [("Y", "L"), ("Y", "R")]}


def test_normal_form_game_as_a_tree():
    tree = normal_form_tree(catalog_game("rps-crash"))
    assert tree.infosets == (("Row",), ("Column",))
    assert sum(1 for _, n in tree.nodes() if n.kind == "terminal") == 9


def test_chance_probabilities_must_sum_to_one():
    root = chance([("a", 0.5, terminal(1, -1)), ("b", 0.4, terminal(0, 0))])
    with pytest.raises(GameError, match=r"at the root sum to 0\.9; they must sum to 1"):
        game(root)


def test_an_infoset_must_offer_the_same_moves_everywhere():
    root = chance(
        [
            ("x", 0.5, decision(0, "I", [("L", terminal(1, -1)), ("R", terminal(0, 0))])),
            ("y", 0.5, decision(0, "I", [("L", terminal(1, -1)), ("M", terminal(0, 0))])),
        ]
    )
    with pytest.raises(
        GameError, match=r"information set 'I' of 'Ann' offers moves \['L', 'R'\] at history x but"
    ):
        game(root)


def test_forgetting_own_moves_breaks_perfect_recall():
    second = decision(0, "later", [("u", terminal(1, -1)), ("d", terminal(0, 0))])
    other = decision(0, "later", [("u", terminal(2, -2)), ("d", terminal(0, 0))])
    root = decision(0, "first", [("L", second), ("R", other)])
    with pytest.raises(GameError, match="'Ann' forgets what they knew: information set 'later'"):
        game(root)


def test_shared_nodes_and_loops_are_refused():
    leaf = terminal(1, -1)
    with pytest.raises(GameError, match="reached along two paths"):
        game(decision(0, "I", [("L", leaf), ("R", leaf)]))
    loop = decision(0, "I", [("L", terminal(0, 0))])
    loop.children = (loop,)
    with pytest.raises(GameError, match="reached along two paths"):
        game(loop)


@pytest.mark.parametrize(
    ("root", "message"),
    [
        (None, "the game tree is empty"),
        (terminal(1), "has 1 payoffs; 2 players need 2"),
        (terminal(1, float("nan")), "payoffs must be finite"),
        (decision(2, "I", [("a", terminal(0, 0))]), "belongs to player 2"),
        (decision(0, "", [("a", terminal(0, 0))]), "has no information set"),
        (decision(0, "I", []), "offers no moves"),
        (decision(0, "I", [("a", terminal(0, 0)), ("a", terminal(0, 0))]), "the same move twice"),
        (chance([("a", -0.5, terminal(0, 0)), ("b", 1.5, terminal(0, 0))]), "negative"),
    ],
)
def test_malformed_trees(root, message):
    with pytest.raises(GameError, match=message):
        game(root)


def test_a_negated_zero_payoff_of_a_leaf_is_stored_as_zero():
    import math

    from rmviz.formats import write_efg, write_json

    tree = game(decision(0, "a", [("L", terminal(-0.0, 0.0)), ("R", terminal(1.0, -1.0))]))
    payoffs = [u for _, node in tree.root.walk() for u in node.payoffs]
    assert all(math.copysign(1.0, u) == 1.0 for u in payoffs if u == 0)
    assert "-0" not in write_json(tree) and "-0" not in write_efg(tree)


def test_a_tree_is_zero_sum_by_the_matrix_games_rule():
    """Payoffs summing to zero at every terminal, to 1e-9 of the largest (any unit): the one
    rule of NormalFormGame.is_zero_sum and the solvers (rmviz.games.normal_form.sums_to_zero)."""

    def one_move(payoffs):
        return game(decision(0, "I", [("a", terminal(3e6, -3e6)), ("b", terminal(*payoffs))]))

    assert kuhn_poker().is_zero_sum() and leduc_poker().is_zero_sum()
    assert one_move((1.0, -1.0 + 1e-4)).is_zero_sum()  # 1e-4 is below 1e-9 x 3e6
    assert not one_move((1.0, -1.0 + 1e-2)).is_zero_sum()
    assert not one_move((1.0, 1.0)).is_zero_sum()
