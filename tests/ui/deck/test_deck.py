"""The deck in the windows: PageDown / PageUp move between slides, each shown as defined
(restored exactly, however far it was run meanwhile); the presenter view follows; File >
Save as Deck collects the open windows and reopening the deck shows the same sessions."""

from __future__ import annotations

import argparse
import os
import struct
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel

from rmviz.examples import example_path, examples
from rmviz.games import catalog_game
from rmviz.runner.deck import read_deck
from rmviz.runner.session import session_to_dict
from rmviz.ui.common import warmup
from rmviz.ui.common.deck_files import save_deck
from rmviz.ui.common.run_window import RunWindow
from rmviz.ui.deck.controller import DeckController
from rmviz.ui.deck.main import run_deck
from rmviz.ui.deck.presenter import PresenterView
from rmviz.ui.options import HEADLESS_SIZE
from rmviz.ui.tree.window import TreeWindow
from tests.runner.test_session import assert_same_snapshot

DECK = """
title = "Test lecture"
[[slide]]
title = "RPS"
notes = '''
first notes,
one paragraph

and <a second>'''
game = "rps"
algorithm = "rm"
iterations = 200

[[slide]]
title = "Kuhn"
notes = "second notes"
game = "kuhn"
algorithm = "cfr"
iterations = 20
infoset = "Kb"

[[slide]]
title = "Pennies compared"
game = "matching-pennies"
iterations = 100
tab = "compare"
compared = ["rm", "rm+"]
"""


@pytest.fixture
def deck(tmp_path):
    path = tmp_path / "lecture.toml"
    path.write_text(DECK, encoding="utf-8")
    return read_deck(path)


@pytest.fixture
def controller(qtbot, registry, deck):
    shown = DeckController(deck, registry, size=(1280, 720))
    shown.errors = []
    shown.show_error = shown.errors.append
    yield shown
    for window in shown.windows():
        window.confirm_discard = lambda: True


def fresh_snapshot(session, iterations):
    """The snapshot of a run of ``session``'s settings never shown in a window."""
    solver = session.family.solver(session.game, session.config)
    solver.step(iterations)
    return solver.snapshot()


def latest(window):
    return window.run.thread.loop.latest()[1]


def counter(window):
    return window.menuBar().cornerWidget(Qt.Corner.TopRightCorner).toolTip()


def test_paging_moves_between_slides_and_restores_each_as_defined(qtbot, controller, deck):
    controller.show(0)
    qtbot.waitUntil(controller.ready, timeout=60_000)
    matrix = controller.window
    assert matrix.presentation.on and counter(matrix) == "1 / 3 \u00b7 RPS"
    assert_same_snapshot(latest(matrix), fresh_snapshot(deck.slides[0].session, 200))
    matrix.run.step(50)  # the lecturer runs on
    qtbot.waitUntil(lambda: latest(matrix).iteration == 250, timeout=60_000)

    qtbot.keyClick(matrix, Qt.Key.Key_PageDown)
    assert controller.index == 1
    qtbot.waitUntil(controller.ready, timeout=60_000)
    tree = controller.window
    assert isinstance(tree, TreeWindow) and tree.isVisible() and not matrix.isVisible()
    assert tree.view_state().infoset == "Kb" and counter(tree) == "2 / 3 \u00b7 Kuhn"
    assert latest(tree).iteration == 20

    qtbot.waitUntil(tree.isActiveWindow)
    qtbot.keyClick(tree, Qt.Key.Key_PageDown)
    qtbot.waitUntil(controller.ready, timeout=60_000)
    assert controller.window is matrix and matrix.tabs.currentWidget() is matrix.compare
    threads = matrix.compare.threads
    assert sorted(threads) == ["rm", "rm+"] and {t.loop.latest()[1].iteration for t in threads.values()} == {
        100
    }
    qtbot.keyClick(matrix, Qt.Key.Key_PageDown)  # the last slide: it stays
    assert controller.index == 2

    qtbot.keyClick(matrix, Qt.Key.Key_PageUp)
    assert controller.index == 1
    qtbot.waitUntil(tree.isActiveWindow)  # keys go to the window shown
    qtbot.keyClick(tree, Qt.Key.Key_PageUp)
    assert controller.index == 0
    qtbot.waitUntil(controller.ready, timeout=60_000)
    assert controller.window is matrix and matrix.tabs.currentWidget() is matrix.run_tab
    assert_same_snapshot(latest(matrix), fresh_snapshot(deck.slides[0].session, 200))  # not 250
    assert controller.errors == []


def test_the_presenter_view_shows_the_notes_and_pages_too(qtbot, controller, tmp_path):
    presenter = PresenterView(controller)
    qtbot.addWidget(presenter)
    presenter.show()
    presenter.activateWindow()
    qtbot.waitUntil(presenter.isActiveWindow)
    controller.show(0)  # the slide's window opens, the presenter view keeps the keys
    assert presenter.isActiveWindow()
    assert presenter.notes.toPlainText() == "first notes, one paragraph\nand <a second>"
    assert presenter.current.text() == "1 / 3 \u00b7 RPS"
    assert presenter.following.text() == "Next: 2 / 3 \u00b7 Kuhn"
    qtbot.keyClick(presenter, Qt.Key.Key_PageDown)
    assert controller.index == 1 and presenter.notes.toPlainText() == "second notes"
    assert presenter.slides.currentRow() == 1
    qtbot.keyClick(presenter, Qt.Key.Key_End)
    assert presenter.following.text() == "Next: (the end)" and presenter.notes.toPlainText() == "(no notes)"
    assert presenter.findChild(QLabel, "presenter-current") is presenter.current
    qtbot.waitUntil(controller.ready, timeout=60_000)


def test_save_as_deck_collects_the_open_windows_and_the_deck_shows_them_again(qtbot, registry, tmp_path):
    matrix = registry.open_game(catalog_game("rps-crash"))
    tree = registry.open_game(catalog_game("kuhn"))
    for window in (matrix, tree):
        window.errors = []
        window.show_error = window.errors.append
        window.confirm_discard = lambda: True
    matrix.run.step(37)
    tree.run.step(11)
    loops = (matrix.run.thread.loop, tree.run.thread.loop)
    qtbot.waitUntil(lambda: not any(loop.busy for loop in loops), timeout=60_000)
    assert latest(matrix).iteration >= 37 and latest(tree).iteration >= 11
    saved = [session_to_dict(w.sessions.session()) for w in (matrix, tree)]

    path = save_deck(tree, tmp_path / "lecture")
    assert path == tmp_path / "lecture.toml" and matrix.errors == tree.errors == []
    deck = read_deck(path)
    assert [s.title for s in deck.slides] == [matrix.document.game.title, tree.document.game.title]
    assert [session_to_dict(s.session) for s in deck.slides] == saved

    shown = DeckController(deck, registry)
    shown.show_error = matrix.errors.append
    for index, window in enumerate((matrix, tree)):
        shown.show(index)
        qtbot.waitUntil(shown.ready, timeout=60_000)
        again = session_to_dict(shown.window.sessions.session())
        again["view"]["presentation"] = saved[index]["view"]["presentation"]  # a deck presents
        assert again == saved[index]
        assert_same_snapshot(latest(shown.window), latest(window))
    for window in shown.windows():
        window.confirm_discard = lambda: True
    assert matrix.errors == []


def test_the_shipped_deck_pages_through_under_screenshot_one_picture_per_slide(tmp_path):
    (deck,) = [e for e in examples("decks") if e.filename == "seeds.toml"]
    with example_path(deck) as path:
        slides = len(read_deck(path).slides)
        command = ["deck", str(path), "--screenshot", str(tmp_path / "s.png")]  # HEADLESS_SIZE
        result = subprocess.run(
            [sys.executable, "-m", "rmviz.cli", *command],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )
    assert result.returncode == 0, result.stderr
    pictures = sorted(p.name for p in tmp_path.iterdir())
    assert pictures == [f"s-{n:02d}.png" for n in range(1, slides + 1)]
    assert all((tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in pictures)
    # without --size, 1280x720 (not offscreen's 800x600 full screen): the IHDR's width, height
    sizes = {struct.unpack(">II", (tmp_path / name).read_bytes()[16:24]) for name in pictures}
    assert sizes == {HEADLESS_SIZE}


def test_a_bad_deck_is_one_line_and_exit_status_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[[slide]]\ntitle = "S"\ngame = "rps"\niterations = -1\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "rmviz.cli", "deck", str(path), "--screenshot", str(tmp_path / "s.png")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 2
    assert result.stderr == (
        f"rmviz: {path}: slide 1 ('S'): "
        "iterations must be a whole number from 0 to 9,007,199,254,740,992, not -1\n"
    )
    assert list(tmp_path.iterdir()) == [path]


def test_a_slide_that_does_not_fit_its_game_is_said_naming_the_deck_and_the_slide(qtbot, registry, tmp_path):
    path = tmp_path / "misfit.toml"
    path.write_text(
        '[[slide]]\ntitle = "fine"\ngame = "rps"\n\n'
        '[[slide]]\ntitle = "misfit"\ngame = "rps"\n[slide.options]\nstart = {"0" = [1, 0]}\n',
        encoding="utf-8",
    )
    shown = DeckController(read_deck(path), registry)
    errors: list[str] = []
    shown.show_error = errors.append
    assert shown.show(0) and errors == []
    assert not shown.show(1)
    assert errors == [f"{path} (slide 2): the starting strategy of 'Row' needs 3 probabilities, got 2"]
    for window in shown.windows():
        window.confirm_discard = lambda: True


def test_a_slide_window_the_lecturer_closed_is_opened_again(qtbot, controller):
    controller.show(0)
    qtbot.waitUntil(controller.ready, timeout=60_000)
    first = controller.window
    first.confirm_discard = lambda: True
    first.close()
    qtbot.waitUntil(lambda: first not in controller.registry.windows, timeout=60_000)
    controller.show(0)  # the counter of the closed window is left alone
    qtbot.waitUntil(controller.ready, timeout=60_000)
    assert controller.window is not first and controller.windows() == [controller.window]
    assert counter(controller.window) == "1 / 3 \u00b7 RPS" and latest(controller.window).iteration == 200


def test_rmviz_deck_opens_the_first_slide_and_the_presenter_view_whose_closing_ends_it(
    qtbot, monkeypatch, deck
):
    """``rmviz deck FILE`` in the window: the slides, the presenter view, the first start's
    warm-up (stubbed here); closing the presenter view closes the deck and the app returns."""
    calls: list[str] = []
    monkeypatch.setattr(warmup, "start_if_needed", lambda: calls.append("start"))
    monkeypatch.setattr(warmup, "stop", lambda: calls.append("stop"))
    monkeypatch.setattr("rmviz.solvers.threads.reserve_cores", lambda count: 1)  # the other tests' BLAS
    seen: list[str] = []

    def close_when_shown() -> None:
        presenters = [w for w in QApplication.topLevelWidgets() if isinstance(w, PresenterView)]
        slides = [w for w in QApplication.topLevelWidgets() if isinstance(w, RunWindow) and w.isVisible()]
        if not presenters or not slides or not presenters[0].controller.ready():
            QTimer.singleShot(20, close_when_shown)
            return
        seen.append(presenters[0].current.text())
        for window in slides:
            window.confirm_discard = lambda: True
        presenters[0].close()

    QTimer.singleShot(0, close_when_shown)
    args = argparse.Namespace(deck=deck.path, screenshot=None, size=(1280, 720), slide=2)
    assert run_deck(args) == 0
    assert seen == ["2 / 3 \u00b7 Kuhn"] and calls == ["start", "stop"]
