"""The app's window registry for tests: every window it opens is closed afterwards."""

from __future__ import annotations

import pytest

from rmviz.ui.app import WindowRegistry


@pytest.fixture
def registry(qtbot):
    opened = WindowRegistry()
    yield opened
    for window in list(opened.windows):
        window.confirm_discard = lambda: True
        window.close()
    qtbot.waitUntil(lambda: not opened.windows, timeout=5000)  # deleted on close
