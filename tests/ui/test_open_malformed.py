"""Malformed files opened in either window: a message, and the window stays on its game."""

from __future__ import annotations

import pytest

from rmviz.formats import write_game_file
from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker
from tests.ui.matrix.conftest import make_window
from tests.ui.tree.conftest import make_tree_window

NO_DECISION_NODE = (
    'EFG 2 R "chance only" { "A" "B" }\n'
    'c "" 1 "" { "x" 1/2 "y" 1/2 } 0\n'
    't "" 1 "o" { 1 -1 }\n'
    't "" 2 "p" { 0 0 }\n'
)


def malformed_files(folder):
    """A handful of broken files: truncated in each format, garbage, a tree with no decision
    node (a valid file the tree window cannot show)."""
    write_game_file(catalog_game("rps"), folder / "good.nfg")
    write_game_file(kuhn_poker(), folder / "good.efg")
    write_game_file(kuhn_poker(), folder / "good.json")
    files = {}
    for name in ("good.nfg", "good.efg", "good.json"):
        text = (folder / name).read_text()
        broken = folder / f"truncated-{name.split('.')[1]}.{name.split('.')[1]}"
        broken.write_text(text[: len(text) * 2 // 3])
        files[broken.name] = broken
    garbage = folder / "garbage.efg"
    garbage.write_bytes(bytes(range(256)) * 8)
    files[garbage.name] = garbage
    chance_only = folder / "chance-only.efg"
    chance_only.write_text(NO_DECISION_NODE)
    files[chance_only.name] = chance_only
    return files


@pytest.fixture(params=["matrix", "tree"])
def any_window(request, qtbot, tmp_path, registry):
    if request.param == "matrix":
        window = make_window(qtbot, tmp_path, opener=registry)
    else:
        window = make_tree_window(qtbot, kuhn_poker(), opener=registry)
    yield window
    window.shutdown()


def assert_unchanged(window, game, depth):
    assert window.document.game is game
    assert len(window.document._undo) == depth and not window.document.can_redo()
    assert window.run.thread is not None and window.run.thread.loop.solver.game is game


def test_a_malformed_file_shows_a_message_and_keeps_the_game(any_window, tmp_path, registry):
    window = any_window
    game, depth = window.document.game, len(window.document._undo)
    for name, path in malformed_files(tmp_path).items():
        window.errors.clear()
        assert not window.files.open(path), name
        assert len(window.errors) == 1 and path.name in window.errors[0], (name, window.errors)
        assert_unchanged(window, game, depth)
    assert not registry.windows  # no half-built window for the tree with no decision node


def test_an_unexpected_exception_while_reading_is_shown(any_window, tmp_path, monkeypatch):
    window = any_window
    game, depth = window.document.game, len(window.document._undo)

    def buggy_reader(path):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr("rmviz.ui.common.game_files.read_game_file", buggy_reader)
    assert not window.files.open(tmp_path / "deep.json")
    assert "RecursionError" in window.errors[-1] and "deep.json" in window.errors[-1]
    assert_unchanged(window, game, depth)


def test_an_exception_while_showing_the_game_goes_back_to_the_previous_one(qtbot, tmp_path, monkeypatch):
    """A view that fails on the new game (after the document changed): the window returns
    to the game it had, running, and the attempt leaves nothing to undo or redo."""
    window = make_window(qtbot, tmp_path)
    game, depth = window.document.game, len(window.document._undo)
    write_game_file(catalog_game("rps"), tmp_path / "rps.nfg")
    original = window.dashboard.set_game

    def failing(shown):
        if shown.num_actions == (3, 3):
            raise ValueError("a view bug")
        original(shown)

    monkeypatch.setattr(window.dashboard, "set_game", failing)
    assert not window.files.open(tmp_path / "rps.nfg")
    assert "ValueError: a view bug" in window.errors[-1]
    assert_unchanged(window, game, depth)
    assert window.document.path is None and not window.document.modified
    window.shutdown()
