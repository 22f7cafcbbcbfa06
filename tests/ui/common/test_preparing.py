"""A first start: while the kernels compile (the first step), the window says "Preparing the
solvers (first start only)..." and stays usable: an edit applies at once (issue 13)."""

from __future__ import annotations

import threading
import time

import pytest

from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.ui.common import run_window
from tests.ui.matrix.conftest import iteration, make_window


@pytest.fixture
def compiling(monkeypatch):
    """Every solver's step waits until the event is set, as numba compiling would."""
    done = threading.Event()
    step = RegretMinimizer.step

    def slow_step(self, iterations=1):
        done.wait(20)
        step(self, iterations)

    monkeypatch.setattr(RegretMinimizer, "step", slow_step)
    monkeypatch.setattr(run_window, "PREPARING_AFTER_SECONDS", 0.1)
    yield done
    done.set()


def test_the_window_says_it_prepares_and_stays_editable(qtbot, tmp_path, compiling):
    window = make_window(qtbot, tmp_path)
    window.show()
    window.step(5)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: bar.currentMessage() == run_window.PREPARING, timeout=60_000)
    assert window.preparing()

    started = time.perf_counter()
    assert window.model.setData(window.model.index(0, 1), "3, 4")  # restarts the run
    # not a wait for the compiling thread (20 s), with room for a busy machine
    assert time.perf_counter() - started < 10
    assert window.document.game.payoffs[:, 0, 1].tolist() == [3, 4]

    window.step(5)
    compiling.set()
    # the real kernels now: loaded from the cache in seconds, but compiled anew in a fresh
    # checkout (numba's cache is per source path), minutes on a busy 2-core machine
    qtbot.waitUntil(lambda: iteration(window) == 5, timeout=600_000)
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=60_000)
    assert not window.preparing()
    window.shutdown()


def test_a_paused_window_is_not_preparing(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.show()
    qtbot.wait(200)
    assert not window.preparing() and window.statusBar().currentMessage() == ""
    window.shutdown()
