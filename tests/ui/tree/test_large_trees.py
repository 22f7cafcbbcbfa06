"""The tree view on deep and large trees: no recursion, a bounded drawing, a note."""

from __future__ import annotations

import sys

import pytest

from rmviz.games.extensive_form import ExtensiveFormGame, decision, terminal
from rmviz.solvers.tree.compiled_tree import compile_tree
from rmviz.ui.tree import view as tree_view
from rmviz.ui.tree.view import TreeView


def chain(depth: int) -> ExtensiveFormGame:
    """A line of ``depth`` decisions, each with a move that stops and one that goes on."""
    node = terminal(0.0, 0.0)
    for d in range(depth):
        node = decision(d % 2, f"I{d}", [("stop", terminal(1.0, -1.0)), ("go", node)])
    return ExtensiveFormGame(node, ("A", "B"), title=f"chain {depth}")


def complete(branching: int, depth: int) -> ExtensiveFormGame:
    """Perfect information, ``branching`` moves at every decision, ``depth`` levels."""
    leaves = [terminal(1.0, -1.0) for _ in range(branching**depth)]
    level = leaves
    for d in reversed(range(depth)):
        level = [
            decision(d % 2, f"d{d}n{k}", [(f"m{m}", level[k * branching + m]) for m in range(branching)])
            for k in range(len(level) // branching)
        ]
    return ExtensiveFormGame(level[0], ("A", "B"), title="complete")


@pytest.fixture
def view(qtbot):
    shown = TreeView()
    qtbot.addWidget(shown)
    shown.show()
    return shown


def test_a_chain_deeper_than_the_recursion_limit_draws(view):
    depth = 1500  # the chain; the walks in the view are loops
    assert depth > sys.getrecursionlimit()
    game = chain(depth)
    tree = compile_tree(game)
    view.set_game(game, tree)
    assert 0 < len(view.node_items) < 20  # folded below depth 3
    deepest = tree.n_nodes - 1
    assert len(view.path(deepest)) == depth
    node = int(tree.depth_ranges[40][0])
    view.select(node)  # opens its ancestors; below them, the drawing stops at the limit
    assert node in view.node_items and len(view.node_items) <= tree_view.MAX_DRAWN


def test_a_large_tree_draws_at_most_max_drawn_nodes_with_a_note(view, monkeypatch):
    monkeypatch.setattr(tree_view, "MAX_DRAWN", 100)
    monkeypatch.setattr(tree_view, "COLLAPSE_DEPTH", 50)  # only the limit folds
    game = complete(4, 5)
    tree = compile_tree(game)
    view.set_game(game, tree)
    assert 1 + 4 + 16 <= len(view.node_items) <= 100  # breadth first: the top levels
    texts = [item.text() for item in view.scene().items() if hasattr(item, "text")]
    assert f"of {tree.n_nodes:,} nodes" in view.note.text() and not view.note.isHidden()
    folded = next(iter(view.folded))
    assert f"+{int(view.sizes[folded]) - 1}" in texts
    view.toggle(folded)  # expanded by hand: past the limit
    assert folded not in view.folded and int(tree.child_start[folded]) in view.node_items
    view.toggle(folded)
    assert folded in view.folded and folded in view.collapsed


def test_a_click_on_a_drawn_node_rings_it_in_place(view):
    """Selecting a drawn node (or the animation's highlight moving) sets the two rings anew
    and keeps every other item: each click on a node of a 1,000-move fan drew its 8,000
    items again (0.2-0.4 s). A node below a folded one is opened and the tree drawn again."""
    game = chain(1500)
    tree = compile_tree(game)
    view.set_game(game, tree)
    drawn = sorted(view.node_items)
    items = set(view.scene().items())
    view.select(drawn[1])
    view.highlight(drawn[2])
    view.select(drawn[3])
    assert set(view.scene().items()) == items  # nothing drawn again
    spread = view.spread
    for h in drawn:
        expected = tree_view.ring_pen(h, drawn[3], drawn[2], spread)
        assert view.node_items[h].pen() == expected
    assert expected != tree_view.ring_pen(drawn[3], drawn[3], None, spread)  # pens that differ
    view.highlight(None)
    assert view.node_items[drawn[2]].pen() == tree_view.ring_pen(drawn[2], drawn[3], None, spread)
    deeper = int(tree.depth_ranges[40][0])
    view.select(deeper)  # below the fold: opened and drawn again
    assert deeper in view.node_items and not set(view.scene().items()) & items
    assert view.node_items[deeper].pen() == tree_view.ring_pen(deeper, deeper, None, spread)
