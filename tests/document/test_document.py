from __future__ import annotations

import numpy as np
import pytest

from rmviz.document import GameDocument, format_cell, parse_cell
from rmviz.errors import GameError
from rmviz.games import catalog_game


def test_parse_cells():
    assert parse_cell("10, 7", 2, zero_sum=False) == (10.0, 7.0)
    assert parse_cell("10 7", 2, zero_sum=False) == (10.0, 7.0)
    assert parse_cell("-2", 2, zero_sum=True) == (-2.0, 2.0)
    assert parse_cell("1/3; -1/3", 2, zero_sum=True) == pytest.approx((1 / 3, -1 / 3))
    assert parse_cell("1,2,3", 3, zero_sum=False) == (1.0, 2.0, 3.0)
    assert format_cell((10.0, 7.0), zero_sum=False) == "10, 7"
    assert format_cell((2.0, -2.0), zero_sum=True) == "2"


@pytest.mark.parametrize(
    ("text", "zero_sum", "message"),
    [
        ("", False, "cannot be empty"),
        ("1", False, "write 2 payoffs"),
        ("a, 2", False, "'a' is not a number"),
        ("nan, 1", False, "finite"),
        ("1/0, 2", False, "is not a number"),
        ("1, 2", True, "do not sum to zero"),
    ],
)
def test_bad_cells_are_refused_with_a_message(text, zero_sum, message):
    with pytest.raises(GameError, match=message):
        parse_cell(text, 2, zero_sum)


def test_edit_undo_redo_and_modified_flag():
    document = GameDocument(catalog_game("battle-of-partners"))
    seen = []
    document.subscribe(lambda d: seen.append(d.game.payoffs[:, 0, 0].tolist()))
    assert not document.modified
    document.set_payoffs([(0, 0)], [(11, 8)])
    assert document.game.payoffs[:, 0, 0].tolist() == [11, 8]
    assert document.modified and document.undo_text() == "Edit payoffs"
    document.undo()
    assert document.game.payoffs[:, 0, 0].tolist() == [10, 7]
    assert not document.modified and document.can_redo()
    document.redo()
    assert document.game.payoffs[:, 0, 0].tolist() == [11, 8]
    assert seen == [[11, 8], [10, 7], [11, 8]]
    document.mark_saved()
    assert not document.modified


def test_a_new_edit_clears_redo_and_the_saved_state_is_tracked():
    document = GameDocument(catalog_game("rps"))
    document.set_payoffs([(0, 1)], [(5, -5)])
    document.mark_saved()
    document.undo()
    assert document.modified
    document.set_payoffs([(0, 2)], [(3, -3)])
    assert not document.can_redo()
    assert document.modified  # the saved state is unreachable now


def test_structural_edits_undo_in_one_step():
    document = GameDocument(catalog_game("rps"))
    document.add_action(1, "Well")
    assert document.game.num_actions == (3, 4)
    assert document.game.action_names[1][-1] == "Well"
    assert np.all(document.game.payoffs[:, :, 3] == 0)
    document.remove_action(0, 0)
    assert document.game.num_actions == (2, 4)
    document.rename_player(0, "Ann")
    document.rename_action(1, 0, "Stone")
    assert document.game.player_names[0] == "Ann" and document.game.action_names[1][0] == "Stone"
    for _ in range(4):
        document.undo()
    assert document.game == catalog_game("rps")


def test_invalid_edits_leave_the_game_unchanged():
    document = GameDocument(catalog_game("matching-pennies"))
    before = document.game
    with pytest.raises(GameError, match="finite"):
        document.set_payoffs([(0, 0)], [(float("nan"), 1)])
    with pytest.raises(GameError, match="outside"):
        document.set_payoffs([(2, 0)], [(1, 1)])
    with pytest.raises(GameError, match="cannot be empty"):
        document.rename_player(0, "  ")
    with pytest.raises(GameError, match="must differ"):
        document.rename_action(0, 0, "Tails")
    document.remove_action(0, 0)
    with pytest.raises(GameError, match="at least one action"):
        document.remove_action(0, 0)
    document.undo()
    assert document.game == before and not document.can_undo()


def test_zero_sum_toggle():
    document = GameDocument(catalog_game("battle-of-partners"))
    assert not document.zero_sum
    document.set_zero_sum(True)
    assert document.zero_sum and document.game.is_zero_sum()
    document.undo()
    assert not document.zero_sum and document.game == catalog_game("battle-of-partners")
    assert GameDocument(catalog_game("rps")).zero_sum


# -- opened games are not modified; a block larger than the table grows it --------------------
def test_an_opened_game_is_not_modified_until_it_is_edited(tmp_path):
    document = GameDocument(catalog_game("rps"), tmp_path / "old.json")
    document.replace_game(catalog_game("battle-of-partners"), "Open battle-of-partners")
    document.mark_opened(None)
    assert not document.modified and document.path is None  # Save asks where: not old.json
    assert document.undo_text() == "Open battle-of-partners"
    document.set_payoffs([(0, 0)], [(1, 1)])
    assert document.modified
    document.undo()
    assert not document.modified
    document.undo()  # back to the game before the open: a change from the opened one
    assert document.modified and document.game == catalog_game("rps")


def test_growing_and_setting_is_one_undo_step():
    document = GameDocument(catalog_game("battle-of-partners"))
    before = document.game
    cells = [(1, 2), (2, 2), (3, 0)]
    document.grow_and_set({0: 2, 1: 1}, cells, [(1, 2), (3, 4), (5, 6)], "Paste payoffs")
    game = document.game
    assert game.num_actions == (4, 3)
    assert game.action_names == (
        ("Cinema", "Dancing", "Action 3", "Action 4"),
        ("Cinema", "Dancing", "Action 3"),
    )
    expected = np.zeros((2, 4, 3))
    expected[:, :2, :2] = before.payoffs
    for (row, column), values in zip(cells, [(1, 2), (3, 4), (5, 6)], strict=True):
        expected[:, row, column] = values
    np.testing.assert_array_equal(game.payoffs, expected)
    document.undo()
    assert document.game == before and not document.can_undo()


def test_growing_refuses_bad_values_and_huge_blocks_without_a_trace():
    document = GameDocument(catalog_game("battle-of-partners"))
    with pytest.raises(GameError, match="finite"):
        document.grow_and_set({0: 1}, [(2, 0)], [(float("inf"), 0)])
    with pytest.raises(GameError, match="GiB of payoffs"):
        document.grow_and_set({0: 10**9}, [(2, 0)], [(1, 1)])
    assert document.game == catalog_game("battle-of-partners") and not document.can_undo()
