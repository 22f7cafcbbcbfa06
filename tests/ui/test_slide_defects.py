"""Small defects a lecturer sees on a slide, one class each: "-0" shown, a freshly opened
game marked modified, a pasted block losing what did not fit."""

from __future__ import annotations

import re

import numpy as np
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication

from rmviz.formats import write_game_file
from rmviz.games.trees import kuhn_poker
from rmviz.ui.common.style import DecadeAxis
from tests.ui.matrix.conftest import make_window
from tests.ui.tree.conftest import make_tree_window

NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(?:\.0*)?(?![\d.]*[1-9])")  # -0, -0.0, -0.00 (not -0.5)


def all_cells(window, role=Qt.ItemDataRole.DisplayRole):
    model = window.model
    return [
        model.data(model.index(r, c), role)
        for r in range(model.rowCount())
        for c in range(model.columnCount())
    ]


# -- "-0" --------------------------------------------------------------------------------------------
def test_the_pattern_finds_negative_zeros_only():
    assert (
        NEGATIVE_ZERO.search("0, -0, 0") and NEGATIVE_ZERO.search("-0.00") and NEGATIVE_ZERO.search("x -0.0")
    )
    assert not NEGATIVE_ZERO.search("-0.5, 10, -10, 0, 1e-05, -0.001")


def test_adding_a_player_to_a_zero_sum_game_shows_no_negative_zero(qtbot, tmp_path):
    """Rock-paper-scissors' ties are 0 for the row player and -0.0 once negated for the
    column player: shown as "0, -0, 0" after a player is added (zero-sum editing off)."""
    window = make_window(qtbot, tmp_path, game="rps")
    window.editor.attempt(window.document.add_player)
    assert window.document.game.n_players == 3
    texts = all_cells(window) + all_cells(window, Qt.ItemDataRole.ToolTipRole)
    assert "0, 0, 0" in texts and not [t for t in texts if NEGATIVE_ZERO.search(t)], texts
    window.editor.table.selectAll()
    window.editor.copy_selection()  # what is copied to a slide or a spreadsheet too
    assert not NEGATIVE_ZERO.search(QGuiApplication.clipboard().text())
    path = tmp_path / "three.json"
    assert window.files.save(path)
    assert not NEGATIVE_ZERO.search(path.read_text())
    window.shutdown()


def test_plot_axes_never_label_a_tick_minus_zero(qtbot):
    axis = DecadeAxis("left")
    # pyqtgraph's first tick is ceil(min / spacing) * spacing: -0.0 just below zero
    labels = axis.tickStrings([-0.0, -1e-17, 0.5, -0.5], 1.0, 0.5)
    assert labels == ["0", "0", "0.5", "-0.5"]
    axis.setLogMode(True)
    axis.labelled = {0, 1}
    assert axis.tickStrings([0.0, 1.0, 0.5], 1.0, None) == ["1", "10", ""]  # log mode as before


# -- a freshly opened game is not "modified" -----------------------------------------------------------
def test_opened_games_are_not_modified_until_edited(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    asked = []
    window.confirm_discard = lambda: asked.append(True) or True
    path = tmp_path / "saved.json"
    assert window.files.save(path)
    for open_game in (
        lambda: window.load_catalog("rps"),
        lambda: window.load_random("zero-sum", (3, 3)),
        lambda: window.files.open(path),
        lambda: window.files.open_spec("matching-pennies"),
    ):
        open_game()
        assert not window.errors
        assert not window.document.modified, window.document.game.title
        assert not window.windowTitle().endswith("*") and "modified" not in window.game_label.text()
        window.recovery.save_now()  # nothing to autosave, so nothing to offer back after a crash
        assert not window.recovery.autosave.path.exists()
    assert window.document.path is None  # a catalog game is not the file opened before
    window.load_catalog("rps")
    window.document.undo()  # back to the game before: that is a change
    assert window.document.modified
    window.document.redo()
    window.close()
    assert asked == []  # closing asked nothing
    window.shutdown()


def test_opened_trees_are_not_modified_until_edited(qtbot, tmp_path):
    window = make_tree_window(qtbot, kuhn_poker())
    path = tmp_path / "kuhn.efg"
    write_game_file(kuhn_poker(), path)
    assert window.files.open(path) and not window.document.modified
    assert window.files.open_spec("teaching-tree")
    assert not window.document.modified and window.document.path is None
    window.recovery.save_now()
    assert not window.recovery.autosave.path.exists() and not window.windowTitle().endswith("*")
    window.shutdown()


# -- pasting past the edge grows the matrix ------------------------------------------------------------
def paste_at(window, row, column, text):
    selection = window.editor.table.selectionModel()
    selection.select(window.model.index(row, column), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    QGuiApplication.clipboard().setText(text)
    window.editor.paste_clipboard()


def test_a_block_larger_than_the_room_left_grows_the_matrix_in_one_undo_step(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)  # Battle of the Partners, 2 x 2
    before = window.document.game
    paste_at(window, 1, 1, "1, 2\t3, 4\t5, 6\n7, 8\t9, 10\t11, 12\n")
    game = window.document.game
    assert not window.errors and game.num_actions == (3, 4)
    assert game.action_names == (
        ("Cinema", "Dancing", "Action 3"),
        ("Cinema", "Dancing", "Action 3", "Action 4"),
    )
    np.testing.assert_array_equal(game.payoffs[:, 1, 1:], [[1, 3, 5], [2, 4, 6]])
    np.testing.assert_array_equal(game.payoffs[:, 2, 1:], [[7, 9, 11], [8, 10, 12]])
    np.testing.assert_array_equal(game.payoffs[:, 2, 0], [0, 0])  # new cells not pasted: zero
    np.testing.assert_array_equal(game.payoffs[:, 0, :2], before.payoffs[:, 0, :])
    assert window.document.undo_text() == "Paste payoffs (adds 1 row and 2 columns)"
    assert window.model.rowCount() == 3 and window.model.columnCount() == 4
    window.document.undo()
    assert window.document.game == before and not window.document.can_undo()
    window.shutdown()


def test_a_zero_sum_paste_grows_with_the_negated_payoffs(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps")
    paste_at(window, 2, 2, "5\t-6\t\t\n\n")  # trailing blanks add nothing
    game = window.document.game
    assert game.num_actions == (3, 4) and game.is_zero_sum()
    assert game.payoffs[:, 2, 2].tolist() == [5, -5] and game.payoffs[:, 2, 3].tolist() == [-6, 6]
    window.shutdown()


def test_a_three_player_paste_grows_the_shown_slice(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.editor.attempt(window.document.add_player)
    window.document.add_action(2)
    window.model.set_slice(2, 1)
    paste_at(window, 1, 1, "1, 2, 3\t4, 5, 6\n")
    game = window.document.game
    assert game.num_actions == (2, 3, 2)
    assert game.payoffs[:, 1, 2, 1].tolist() == [4, 5, 6] and game.payoffs[:, 1, 2, 0].tolist() == [0, 0, 0]
    window.shutdown()


def test_a_bad_cell_refuses_the_whole_paste_and_grows_nothing(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    before = window.document.game
    paste_at(window, 1, 1, "1, 2\t3, 4\nx, 1\n")
    assert window.document.game is before and not window.document.can_undo()
    assert window.errors == ["new row / Dancing: 'x' is not a number"]
    window.shutdown()
