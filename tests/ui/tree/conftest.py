"""A tree window for tests: messages collected, no modal dialogs."""

from __future__ import annotations

import pytest

from rmviz.games.trees import kuhn_poker
from rmviz.ui.tree.window import TreeWindow


def make_tree_window(qtbot, game, opener=None):
    window = TreeWindow(game, opener=opener)
    window.errors = []
    window.show_error = window.errors.append
    window.confirm_discard = lambda: True
    qtbot.addWidget(window)
    return window


@pytest.fixture
def kuhn(qtbot):
    window = make_tree_window(qtbot, kuhn_poker())
    yield window
    window.shutdown()


def cell(window, row, column):
    return float(window.detail.table.text(row, column))
