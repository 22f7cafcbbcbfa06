"""Fixtures of the window tests: every window autosaves and keeps its settings in the test's
own folder (never the person's), and the app's window registry closes every window it opens afterwards."""

from __future__ import annotations

import gc

import pytest
from PySide6.QtCore import QSettings

from rmviz.ui.app import WindowRegistry


@pytest.fixture
def registry(qtbot):
    opened = WindowRegistry()
    yield opened
    for window in list(opened.windows):
        window.confirm_discard = lambda: True
        window.close()
    qtbot.waitUntil(lambda: not opened.windows, timeout=60_000)  # deleted on close


@pytest.fixture(autouse=True)
def autosave_folder(tmp_path, monkeypatch):
    """The folder where every window of the test autosaves by default."""
    folder = tmp_path / "autosave"
    monkeypatch.setattr("rmviz.ui.common.recovery.default_folder", lambda: folder)
    return folder


@pytest.fixture(autouse=True)
def settings_folder(tmp_path):
    """The test's own QSettings (recent files, window state): never the person's
    ~/.config/rmviz, and never another test's, when tests run side by side (pytest -n)."""
    folder = tmp_path / "settings"
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.NativeFormat, scope, str(folder / scope.name))
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder / scope.name))
    return folder


@pytest.fixture(autouse=True)
def collect_between_tests():
    """The test's garbage collected here, on the GUI thread, once its solver threads have
    stopped: the windows collect only on a GUI-thread timer (rmviz.ui.common.collector), and
    a window left for the next test's solver thread to collect would deadlock it."""
    yield
    gc.collect()
