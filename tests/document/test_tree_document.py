"""Editing game trees with validation and undo (no Qt)."""

from __future__ import annotations

import pytest

from rmviz.document import TreeDocument
from rmviz.errors import GameError
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
    # player 1 holding card 0 after pass-bet put into its first information set "0": the
    # two decisions come after different own moves (none, and "p"), which perfect recall forbids
    with pytest.raises(GameError, match="forgets what they knew"):
        document.set_infoset(("0", "1", "p", "b"), "0")
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
