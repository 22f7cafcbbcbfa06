"""A matrix window for tests: settings and autosave in a temporary folder, messages collected."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from rmviz.games import catalog_game
from rmviz.ui.matrix.window import MatrixWindow


def make_window(qtbot, tmp_path, game="battle-of-partners", autorun=False, opener=None):
    """A window with its settings in ``tmp_path`` (its autosave: tests/ui/conftest.py) and no
    modal dialogs."""
    shown = MatrixWindow(
        catalog_game(game),
        opener=opener,
        autorun=autorun,
        settings=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat),
    )
    shown.errors = []
    shown.show_error = shown.errors.append
    shown.confirm_discard = lambda: True
    qtbot.addWidget(shown)
    return shown


@pytest.fixture
def window(qtbot, tmp_path):
    shown = make_window(qtbot, tmp_path)
    yield shown
    shown.shutdown()
    assert shown.run.thread is None


def iteration(window):
    return window.run.thread.loop.latest()[1].iteration
