"""Editing game trees with validation and undo (no Qt)."""

from __future__ import annotations

import pytest

from rmviz.document import TreeDocument
from rmviz.errors import GameError
from rmviz.games.extensive_form import ExtensiveFormGame, decision, terminal
from rmviz.games.trees import kuhn_poker, teaching_tree


def test_add_and_remove_a_move_across_the_information_set():
    document = TreeDocument(teaching_tree())
    document.add_move(("X", "L"), "E")  # player 2's information set 2X spans [X,L] and [X,R]
    assert document.node(("X", "L")).moves == ("A", "B", "E")
    assert document.node(("X", "R")).moves == ("A", "B", "E")
    assert document.node(("X", "R", "E")).payoffs == (0.0, 0.0)
    document.remove_move(("X", "R"), "A")
    assert document.node(("X", "L")).moves == ("B", "E")
    document.undo()
    document.undo()
    assert document.node(("X", "L")).moves == ("A", "B")
    assert not document.modified
    document.redo()
    assert document.node(("X", "L")).moves == ("A", "B", "E") and document.modified


def test_chance_probabilities_are_validated():
    document = TreeDocument(teaching_tree())
    with pytest.raises(GameError, match=r"sum to 0\.9"):
        document.set_probabilities((), [0.5, 0.4])
    document.set_probabilities((), [0.25, 0.75])
    assert document.node(()).probabilities == (0.25, 0.75)
    document.remove_move((), "X")  # the rest is rescaled to sum to 1
    assert document.node(()).probabilities == (1.0,)


def test_an_edit_that_breaks_perfect_recall_is_refused_and_changes_nothing():
    document = TreeDocument(kuhn_poker())
    before = document.game
    # player 1 holding the J after pass-bet put into its first information set "J": the
    # two decisions come after different own moves (none, and "p"), which perfect recall forbids
    with pytest.raises(GameError, match="forgets what they knew"):
        document.set_infoset(("J", "Q", "p", "b"), "J")
    assert document.game is before and not document.can_undo()


def test_set_payoffs_rename_and_structure():
    document = TreeDocument(teaching_tree())
    document.set_payoffs(("X", "L", "A"), [3, -3])
    assert document.node(("X", "L", "A")).payoffs == (3.0, -3.0)
    document.rename_move(("X", "L"), "A", "Up")
    assert document.node(("X", "R")).moves == ("Up", "B")
    with pytest.raises(GameError, match="not terminal"):
        document.set_payoffs(("X",), [1, 1])
    document.make_terminal(("Y",))
    assert document.node(("Y",)).kind == "terminal"
    document.make_decision(("Y",), 1, "new", ("p", "q"))
    assert document.node(("Y",)).moves == ("p", "q")
    with pytest.raises(GameError, match="no move 'Z'"):
        document.node(("Z",))


def test_rename_an_information_set_everywhere_and_label_a_node():
    document = TreeDocument(teaching_tree())
    document.rename_infoset(1, "2X", "after X")
    assert document.node(("X", "L")).infoset == document.node(("X", "R")).infoset == "after X"
    with pytest.raises(GameError, match="already has an information set '2Y'"):
        document.rename_infoset(1, "after X", "2Y")
    with pytest.raises(GameError, match="no information set 'nope'"):
        document.rename_infoset(1, "nope", "x")
    document.set_label(("Y",), "Nature said Y")
    assert document.node(("Y",)).label == "Nature said Y"
    document.undo()
    document.undo()
    assert document.node(("X", "L")).infoset == "2X"


def deep_chain(depth: int) -> ExtensiveFormGame:
    """Player 1 decides ``depth`` times in a row ("go" on, or "stop"), built without recursion."""
    node = terminal(0.0, 0.0)
    for k in reversed(range(depth)):
        node = decision(0, f"i{k}", [("go", node), ("stop", terminal(float(k), -float(k)))])
    return ExtensiveFormGame(node, ("A", "B"))


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_edits_deep_in_a_long_chain_need_no_recursion():
    """A 3,000-move chain (Python's recursion limit is 1,000): edits at the bottom and of an
    information set, and their undo, work."""
    document = TreeDocument(deep_chain(3000))
    bottom = ("go",) * 2999
    document.set_payoffs((*bottom, "stop"), [7.0, -7.0])
    assert document.node((*bottom, "stop")).payoffs == (7.0, -7.0)
    document.add_move(bottom, "wait")
    assert document.node(bottom).moves == ("go", "stop", "wait")
    document.undo()
    document.undo()
    assert document.node((*bottom, "stop")).payoffs == (2999.0, -2999.0)


def test_new_decision_nodes_get_fresh_information_sets_and_moves():
    """Two new decision nodes of one player never share an information set by accident
    (they did: both were 'new1'), and their moves and new chance outcomes are fresh names."""
    document = TreeDocument(teaching_tree())
    document.make_decision(("X", "L", "A"), 0)
    document.make_decision(("X", "L", "B"), 0)
    first, second = document.node(("X", "L", "A")), document.node(("X", "L", "B"))
    assert (first.infoset, second.infoset) == ("J1", "J2")
    assert (first.moves, second.moves) == (("a", "b"), ("c", "d"))
    assert document.game.infosets[0] == ("1", "J1", "J2")
    document.make_decision(("Y", "L", "C"), 1)  # numbered across players: J3
    assert document.node(("Y", "L", "C")).infoset == "J3"
    document.make_chance(("Y", "R", "D"))
    assert document.node(("Y", "R", "D")).moves == ("g", "h")
    document.add_move(("Y", "R", "D"))
    assert document.node(("Y", "R", "D")).moves == ("g", "h", "i")
    document.undo()
    assert document.node(("Y", "R", "D")).moves == ("g", "h")
    assert document.fresh_moves(3, taken=("j",)) == ("i", "k", "l")


def test_joining_an_information_set_is_explicit_and_checks_the_moves():
    document = TreeDocument(teaching_tree())
    document.make_decision(("X", "L", "A"), 0)  # J1 with moves a, b after player 1's L
    document.join_decision(("Y", "L", "C"), 0, "J1")  # also after L: perfect recall holds
    assert document.node(("Y", "L", "C")).infoset == "J1"
    assert document.node(("Y", "L", "C")).moves == ("a", "b")
    before = document.game
    with pytest.raises(GameError, match=r"'J1' of 'Player 1' has 2 moves \(a, b\); history Y > L > D has 3"):
        document.make_decision(("Y", "L", "D"), 0, "J1", ("x", "y", "z"))
    with pytest.raises(GameError, match="has no information set 'J9' to join"):
        document.join_decision(("Y", "L", "D"), 0, "J9")
    with pytest.raises(GameError, match="forgets what they knew"):  # after R, not L
        document.join_decision(("X", "R", "A"), 0, "J1")
    with pytest.raises(GameError, match="no player 3"):
        document.make_decision(("Y", "L", "D"), 2)
    assert document.game is before
    # moving a node into a set of another size says so (2X has three moves now, 2Y two)
    document.add_move(("X", "L"), "E")
    with pytest.raises(GameError, match=r"'2Y' of 'Player 2' has 2 moves \(C, D\); history X > L has 3"):
        document.set_infoset(("X", "L"), "2Y")
