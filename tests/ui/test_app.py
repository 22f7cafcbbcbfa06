"""The app's window registry: the one table from game family to window class; it opens the
right window for any game and owns the windows it opened."""

from __future__ import annotations

import pytest

from rmviz.games import catalog_game
from rmviz.solvers.registry import FAMILIES, family_named
from rmviz.ui.app import WINDOWS
from rmviz.ui.matrix.window import MatrixWindow
from rmviz.ui.tree.window import TreeWindow

GAMES = {"matrix": ("rps-crash", MatrixWindow), "tree": ("kuhn", TreeWindow)}


def test_every_family_has_a_window():
    assert set(WINDOWS) == {family.name for family in FAMILIES} == set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_registry_opens_the_family_window_and_owns_it(registry, qtbot, name):
    game_id, window_class = GAMES[name]
    game = catalog_game(game_id)
    assert registry.window_class(game) is window_class
    window = registry.open_game(game)
    assert type(window) is window_class and window.family is family_named(name)
    assert window.opener is registry and window.isVisible()
    assert registry.windows == [window] and window.document.game is game
    assert window.close()
    qtbot.waitUntil(lambda: registry.windows == [], timeout=60_000)  # deleted on close, forgotten


def test_windows_open_each_other_through_the_registry(registry):
    tree = registry.open_game(catalog_game("kuhn"))
    matrix = tree.show_reduced_form()
    assert type(matrix) is MatrixWindow and matrix.read_only and matrix.opener is registry
    assert registry.windows == [tree, matrix]
    registry.shutdown()  # the app's end: every thread stops
    assert tree.thread is None and matrix.thread is None


def test_a_read_only_tree_refuses_edits(registry):
    tree = registry.open_game(catalog_game("kuhn"), read_only=True)
    before = tree.document.game
    assert not tree.editor.edit(lambda: tree.document.set_payoffs(("0", "1", "p", "p"), [5, -5]))
    assert "read-only" in tree.editor.problem.text() and tree.document.game is before
