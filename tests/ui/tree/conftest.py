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


def shown_after(qtbot, window, iterations):
    """``window`` shown at 1280x720 after ``iterations`` stepped; its run's loop."""
    window.resize(1280, 720)
    window.show()
    window.run.step(iterations)
    loop = window.run.thread.loop
    qtbot.waitUntil(lambda: loop.latest()[1].iteration == iterations, timeout=60_000)
    return loop


def rows_asked(monkeypatch, model_class) -> set[int]:
    """The rows the views of ``model_class`` (a table model) ask cells of, from now on: patched
    before the model is made, as Qt binds its ``data`` then."""
    asked: set[int] = set()
    data = model_class.data

    def counted(model, index, role=0):
        asked.add(index.row())
        return data(model, index, role)

    monkeypatch.setattr(model_class, "data", counted)
    return asked


def clipped_cells(table) -> list[str]:
    """The cells in view of ``table`` (a ``ModelTable``) narrower than their text and margins."""
    model = table.table_model
    rows = range(table.rowAt(0), table.rowAt(table.viewport().height() - 1) + 1)
    return [
        table.text(row, column)
        for row in rows
        for column in range(model.columnCount())
        if table.sizeHintForIndex(model.index(row, column)).width() > table.columnWidth(column)
    ]
