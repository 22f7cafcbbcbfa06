"""A big .efg file opens behind the progress dialog (read on a worker thread), and Cancel
keeps the current game."""

from __future__ import annotations

from rmviz.errors import Cancelled
from rmviz.formats import write_game_file
from rmviz.games.trees import leduc_poker
from rmviz.ui.common import game_files


def test_a_big_efg_file_is_read_behind_the_progress_dialog(kuhn, tmp_path, monkeypatch):
    path = tmp_path / "leduc.efg"
    write_game_file(leduc_poker(), path)
    monkeypatch.setattr(game_files, "BIG_FILE_BYTES", 1000)
    used = []
    real = game_files.run_with_progress

    def spy(parent, title, unit, work):
        used.append((title, unit))
        return real(parent, title, unit, work)

    monkeypatch.setattr(game_files, "run_with_progress", spy)
    assert kuhn.files.open(path)
    assert used == [("Reading leduc.efg", "histories")]
    assert kuhn.document.game.n_nodes == 9457 and not kuhn.errors


def test_cancel_keeps_the_current_game(kuhn, tmp_path, monkeypatch):
    path = tmp_path / "leduc.efg"
    write_game_file(leduc_poker(), path)
    monkeypatch.setattr(game_files, "BIG_FILE_BYTES", 1000)

    def cancelled(parent, title, unit, work):
        raise Cancelled("stopped after 65,536 histories")

    monkeypatch.setattr(game_files, "run_with_progress", cancelled)
    game = kuhn.document.game
    assert not kuhn.files.open(path)
    assert kuhn.document.game is game and not kuhn.errors


def test_small_files_are_read_directly(kuhn, tmp_path, monkeypatch):
    path = tmp_path / "leduc.efg"
    write_game_file(leduc_poker(), path)
    monkeypatch.setattr(game_files, "run_with_progress", None)  # would fail if called
    assert kuhn.files.open(path) and kuhn.document.game.n_nodes == 9457
