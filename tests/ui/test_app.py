"""The app's window registry: the one table from game family to window class; it opens the
right window for any game and owns the windows it opened."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from rmviz.games import catalog_game
from rmviz.solvers.registry import FAMILIES, family_named
from rmviz.ui import app
from rmviz.ui.app import WINDOWS
from rmviz.ui.common import warmup
from rmviz.ui.common.run_export import RunExport
from rmviz.ui.matrix.window import MatrixWindow
from rmviz.ui.tree.window import TreeWindow

GAMES = {"matrix": ("rps-crash", MatrixWindow), "tree": ("kuhn", TreeWindow)}


def test_every_family_has_a_window():
    assert set(WINDOWS) == set(FAMILIES) and {family.name for family in WINDOWS} == set(GAMES)


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
    assert tree.run.thread is None and matrix.run.thread is None


def test_a_read_only_tree_refuses_edits(registry):
    tree = registry.open_game(catalog_game("kuhn"), read_only=True)
    before = tree.document.game
    assert not tree.editor.edit(lambda: tree.document.set_payoffs(("J", "Q", "p", "p"), [5, -5]))
    assert "read-only" in tree.editor.problem.text() and tree.document.game is before


def test_the_app_starts_the_first_starts_warm_up_and_ends_it_when_it_quits(qtbot, monkeypatch, tmp_path):
    """Every kernel compiles in the background from the first window on (issue 27); a
    screenshot run, which reaches nothing beyond its first run, compiles only that."""
    calls: list[str] = []
    monkeypatch.setattr(warmup, "start_if_needed", lambda: calls.append("start"))
    monkeypatch.setattr(warmup, "stop", lambda: calls.append("stop"))
    monkeypatch.setattr("rmviz.solvers.threads.reserve_cores", lambda count: 1)  # the other tests' BLAS

    def close_the_windows() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, app.RunWindow):
                widget.close()

    QTimer.singleShot(0, close_the_windows)
    assert app.main(["kuhn"]) == 0
    assert calls == ["start", "stop"]

    calls.clear()
    assert app.main(["kuhn", "--screenshot", str(tmp_path / "kuhn.png"), "--after", "0"]) == 0
    assert "start" not in calls and (tmp_path / "kuhn.png").exists()
    # without --size, a screenshot is of a 1280x720 window (offscreen's 800x600 screen
    # clipped the run panel); --size wins
    from PySide6.QtGui import QImage

    from rmviz.ui.options import HEADLESS_SIZE

    shot = QImage(str(tmp_path / "kuhn.png"))
    assert (shot.width(), shot.height()) == HEADLESS_SIZE
    assert app.main(["rps", "--screenshot", str(tmp_path / "rps.png"), "--size", "900x700"]) == 0
    shot = QImage(str(tmp_path / "rps.png"))
    assert (shot.width(), shot.height()) == (900, 700)


def test_export_writes_figures_as_file_export_does_and_says_errors_in_a_line(
    qtbot, monkeypatch, tmp_path, capsys
):
    """``--export FIGURE=FILE`` (the bundle's smoke test drives File > Export figure with it):
    the window's own exporter (RunExport.figure) writes each figure, all of one moment of a
    running run; an error a dialog would show is one line on stderr and exit status 2, never a
    dialog that waits for nobody (issue 33)."""
    monkeypatch.setattr("rmviz.solvers.threads.reserve_cores", lambda count: 1)
    written: list[tuple[str, str]] = []
    export = RunExport.figure

    runs = []

    def spy(exporter, path, figure="gaps", *rest, **named):
        written.append((figure, str(path)))
        runs.append(named.get("run"))
        return export(exporter, path, figure, *rest, **named)

    monkeypatch.setattr(RunExport, "figure", spy)
    gaps, joint = tmp_path / "gaps.svg", tmp_path / "joint.pdf"
    argv = ["rps", "--export", f"gaps={gaps}", "--export", f"joint={joint}", "--after", "0.5"]
    assert app.main(argv) == 0
    assert written == [("gaps", str(gaps)), ("joint", str(joint))]
    assert runs[0] is not None and runs[1] is runs[0] and runs[0].snapshot.iteration > 0
    assert gaps.read_text().startswith("<?xml") and joint.read_bytes().startswith(b"%PDF")

    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "warning", lambda *args: pytest.fail(f"a dialog: {args[2]}"))
    assert app.main(["rps", "--export", f"tree={tmp_path / 'tree.png'}", "--after", "0"]) == 2
    assert "the tree figure is not drawn for matrix games" in capsys.readouterr().err
    assert not (tmp_path / "tree.png").exists()


def test_an_unknown_information_set_is_one_short_line(monkeypatch, tmp_path, capsys):
    """``--infoset`` naming no set of the tree: one line, exit status 2, the count of the
    tree's sets and its first few (OpenSpiel's trees: 10^5 labels of up to 120 characters),
    as ``rmviz step`` says it."""
    monkeypatch.setattr("rmviz.solvers.threads.reserve_cores", lambda count: 1)
    argv = ["leduc", "--infoset", "nope", "--after", "0", "--screenshot", str(tmp_path / "x.png")]
    assert app.main(argv) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("rmviz")]
    assert len(lines) == 1 and "no such information set among the tree's 936 (Js:," in lines[0]
    assert len(lines[0]) < 200
