"""Autosave: one file per window, written off the GUI thread, offered back after a crash."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

from rmviz.formats import read_game_file, write_game_file
from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker
from rmviz.ui.common import autosave
from rmviz.ui.common.autosave import orphans
from tests.ui.matrix.conftest import make_window
from tests.ui.tree.conftest import make_tree_window


def edited(window, cell="42, 1"):
    """Edit the first cell of matrix ``window`` and autosave it (waiting for the worker)."""
    window.model.setData(window.model.index(0, 0), cell)
    window.recovery.save_now()
    window.recovery.autosave.wait(10)


def test_two_windows_autosave_to_files_of_their_own(qtbot, tmp_path, autosave_folder):
    first, second = make_window(qtbot, tmp_path), make_window(qtbot, tmp_path, game="rps")
    edited(first)
    edited(second, "7, -7")
    assert first.recovery.autosave.path != second.recovery.autosave.path
    assert read_game_file(first.recovery.autosave.path).payoffs[0, 0, 0] == 42
    assert read_game_file(second.recovery.autosave.path).payoffs[0, 0, 0] == 7
    assert list(orphans(autosave_folder)) == []  # both windows are alive: nothing to offer
    first.close()  # on purpose: its file goes, the other window's stays
    qtbot.waitUntil(lambda: not first.recovery.autosave.path.exists(), timeout=60_000)
    assert second.recovery.autosave.path.exists()
    second.document.undo()  # back to the saved game: nothing to keep
    qtbot.waitUntil(lambda: not second.recovery.autosave.path.exists(), timeout=60_000)
    second.shutdown()


def test_the_autosave_is_written_off_the_gui_thread(qtbot, tmp_path, monkeypatch):
    writers = []

    def recording(game, path):
        writers.append(threading.current_thread())
        write_game_file(game, path)

    monkeypatch.setattr(autosave, "write_game_file", recording)
    window = make_window(qtbot, tmp_path)
    window.model.setData(window.model.index(0, 0), "42, 1")
    window.recovery.save_now()
    window.recovery.save_now()  # the same game: not written again
    window.recovery.autosave.wait(10)
    assert len(writers) == 1 and writers[0] is not threading.main_thread()
    window.shutdown()


def test_tree_window_edits_are_autosaved(qtbot):
    window = make_tree_window(qtbot, kuhn_poker())
    first = window.document.game.root.moves[0]
    window.document.rename_move((), first, "First deal")
    window.recovery.save_now()
    window.recovery.autosave.wait(10)
    assert read_game_file(window.recovery.autosave.path).root.moves[0] == "First deal"
    window.shutdown()


def test_orphans_left_by_a_crash_are_offered_back_each_in_its_window(
    qtbot, tmp_path, autosave_folder, registry
):
    """A crash leaves autosave files whose lock nobody holds: every one is offered; the
    matrix game replaces the window's game (undoably), the tree opens a tree window; the
    orphans go once the restored edits are autosaved by their new windows."""
    autosave_folder.mkdir()
    write_game_file(catalog_game("rps"), autosave_folder / "20250101-000000-1-a.json")
    write_game_file(kuhn_poker(), autosave_folder / "20250101-000000-1-b.json")
    (autosave_folder / "20250101-000000-1-c.json").write_text("{ damaged")
    window = make_window(qtbot, tmp_path, opener=registry)
    asked = []
    window.recovery.confirm = lambda title: asked.append(title) or True
    assert window.recovery.offer_restore() == 2
    assert asked == [catalog_game("rps").title, "Kuhn poker"]  # oldest first; the damaged one dropped
    assert window.document.game.num_actions == (3, 3) and window.document.modified
    (tree_window,) = registry.windows
    assert tree_window.document.game.title == "Kuhn poker" and tree_window.document.modified
    for shown in (window, tree_window):
        shown.recovery.autosave.wait(10)
        assert shown.recovery.autosave.path.exists()
    assert sorted(p.name for p in autosave_folder.glob("*.json")) == sorted(
        p.name for p in (window.recovery.autosave.path, tree_window.recovery.autosave.path)
    )
    window.document.undo()  # the restore is an undoable step
    assert window.document.game.num_actions == (2, 2)
    window.shutdown()


def test_a_declined_restore_deletes_only_that_orphan(qtbot, tmp_path, autosave_folder):
    alive = make_window(qtbot, tmp_path)
    edited(alive)
    autosave_folder.mkdir(exist_ok=True)
    orphan = autosave_folder / "20250101-000000-1-a.json"
    write_game_file(catalog_game("rps"), orphan)
    window = make_window(qtbot, tmp_path)
    asked = []
    window.recovery.confirm = lambda title: asked.append(title) or False
    assert window.recovery.offer_restore() == 0
    assert len(asked) == 1  # the live window's file is not offered
    assert not orphan.exists()
    assert read_game_file(alive.recovery.autosave.path).payoffs[0, 0, 0] == 42
    for shown in (alive, window):
        shown.shutdown()


CHILD = """
import os, sys
from pathlib import Path
from rmviz.games import catalog_game
from rmviz.ui.common.autosave import Autosave
saved = Autosave(Path(sys.argv[1]))
saved.save(catalog_game("rps"))
saved.wait(10)
print(saved.path, flush=True)
if sys.argv[2] == "crash":
    os._exit(0)
sys.stdin.readline()  # alive until the parent has looked
"""


def test_only_files_of_dead_processes_are_orphans(tmp_path):
    """The lock is what tells: a file whose process is alive is not offered; once that
    process died without closing its window, it is (and it is locked while offered)."""
    script = textwrap.dedent(CHILD)
    alive = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path), "live"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        alive_path = alive.stdout.readline().strip()
        crashed = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path), "crash"], capture_output=True, text=True, check=True
        )
        crashed_path = crashed.stdout.strip()
        found = list(orphans(tmp_path))
        assert [str(orphan.path) for orphan in found] == [crashed_path] and alive_path != crashed_path
        assert list(orphans(tmp_path)) == []  # locked while offered
        found[0].drop()
    finally:
        alive.communicate("\n", timeout=10)
    # that process ended without closing its window: its edits are now offered
    assert [str(orphan.path) for orphan in orphans(tmp_path)] == [alive_path]
