"""The live matrix window under a storm of structural edits and through many run cycles.

The long versions: tests/benchmarks/edit_while_running.py (minutes of edits) and
tests/benchmarks/window_lifecycle.py (1,000 cycles, threads and memory printed).
"""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

from tests.ui.matrix.conftest import make_window
from tests.ui.matrix.stress import EditStorm, lifecycle_cycle

STORM_SECONDS, STORM_EDITS = 3, 8  # each structural edit rebuilds the plots (0.2-3 s)
CYCLES = 3  # each rebuilds the plots three times (0.5-6 s a cycle, by load); a leak shows at once


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_structural_edits_while_running_keep_the_window_alive(qtbot, tmp_path):
    """Random edits (add/remove actions and players, undo, redo, faces, run/pause) on a
    three-player game while it runs and is drawn. The segfault this guards against (issue 17)
    came from the plots' BSP scene index keeping deleted items; no live plot may use one."""
    window = make_window(qtbot, tmp_path, "three-player-pennies", autorun=True)
    window.show()
    for view in window.findChildren(QGraphicsView):
        assert view.scene().itemIndexMethod() == QGraphicsScene.ItemIndexMethod.NoIndex, type(view)
    storm, done = EditStorm(window, seed=17, interval=0.03), []
    storm.start(time.perf_counter() + STORM_SECONDS, lambda: done.append(True), min_edits=STORM_EDITS)
    qtbot.waitUntil(lambda: bool(done), timeout=120_000)
    assert storm.edits >= STORM_EDITS and storm.redraws > 0
    window.run.step(3)  # still answering
    qtbot.waitUntil(lambda: not window.run.thread.loop.running, timeout=60_000)
    window.shutdown()


@pytest.mark.slow  # 12 s (the benchmark runs 1,000 cycles)
def test_run_cycles_leave_no_threads_behind(qtbot, tmp_path):
    """Cycles of run / pause / step / reset / edit while running / game switch: the thread
    count comes back to where it was (1,000 cycles, with memory: the benchmark)."""
    window = make_window(qtbot, tmp_path)
    window.show()

    def wait(condition):
        qtbot.waitUntil(condition, timeout=60_000)

    lifecycle_cycle(window, 0, wait)
    baseline = threading.active_count()
    for k in range(1, CYCLES + 1):
        lifecycle_cycle(window, k, wait)
    qtbot.waitUntil(lambda: threading.active_count() <= baseline, timeout=60_000)
    window.shutdown()
    assert window.run.thread is None
