"""Work off the GUI thread with a progress dialog: its result, its errors, and Cancel."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QProgressDialog, QPushButton, QWidget

from rmviz.ui.common.background import run_with_progress


@pytest.fixture
def parent(qtbot):
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


def test_the_result_comes_back_on_the_gui_thread(parent):
    worker = []

    def work(progress):
        worker.append(threading.current_thread())
        progress(1)
        return 42

    assert run_with_progress(parent, "Counting", "steps", work) == 42
    assert worker[0] is not threading.main_thread()


def test_an_error_of_the_work_is_raised_here(parent):
    def work(progress):
        raise ValueError("no such game")

    with pytest.raises(ValueError, match="no such game"):
        run_with_progress(parent, "Counting", "steps", work)


def test_cancel_stops_the_work_and_the_event_loop_ran_meanwhile(parent):
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)

    def press_cancel():
        dialog = parent.findChild(QProgressDialog)
        if dialog is None or not dialog.isVisible() or "so far" not in dialog.labelText():
            QTimer.singleShot(50, press_cancel)
            return
        assert "steps so far" in dialog.labelText()
        dialog.findChild(QPushButton).click()  # Cancel, as a person presses it

    def work(progress):
        n = 0
        while progress(n := n + 1000):
            time.sleep(0.01)
        raise RuntimeError(f"stopped at {n}")

    QTimer.singleShot(50, press_cancel)
    with pytest.raises(RuntimeError, match="stopped at"):
        run_with_progress(parent, "Counting", "steps", work)
    timer.stop()
    assert len(ticks) > 10  # the window's timers ran while the work did
