"""A tick's redraw is drawn a view or a plot at a time, with the event loop let through
between the parts (rmviz.ui.common.run_control): a click waits for one part's repaint, not
for the whole tab's."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer

from tests.ui.matrix.conftest import make_window


@pytest.fixture
def logged(qtbot, tmp_path):
    """A matrix window paused at iteration 3, whose redraws log each part drawn ("part"), a
    posted event queued by each part when it runs ("event") and each redraw's end ("end")."""
    window = make_window(qtbot, tmp_path, game="rps-crash")
    window.run.step(3)
    qtbot.waitUntil(lambda: not window.run.thread.loop.busy and window.run.drawn(), timeout=60_000)
    log: list[str] = []
    draw = window.draw

    def logging_draw(*args):
        for _ in draw(*args):
            log.append("part")
            QTimer.singleShot(0, lambda: log.append("event"))  # as a click would be
            yield
        log.append("end")

    window.draw = logging_draw
    yield window, log
    window.shutdown()


def test_the_event_loop_runs_between_the_parts_of_a_ticks_redraw(logged, qtbot):
    window, log = logged
    window.run.seen_version = -1  # the next tick redraws
    qtbot.waitUntil(lambda: "end" in log, timeout=60_000)
    drawn = log[: log.index("end")]
    assert drawn.count("part") >= 3  # a row of plots, a plot each; the simplex; the joint
    # every event a part queued ran before the next part was drawn
    assert drawn == ["part", "event"] * drawn.count("part"), drawn
    assert window.iteration_label.text() == "iteration 3"  # set last: every view draws it


def test_a_forced_redraw_drops_the_parts_left_and_frees_the_worker(logged, qtbot):
    window, log = logged
    window.run.timer.stop()  # the ticks below are this test's
    window.run.seen_version = -1
    window.run.timer.timeout.emit()  # a tick: its first part is drawn now
    assert log == ["part"] and not window.run.drawn()
    loop = window.run.thread.loop
    assert not loop._gui_idle.is_set()  # a recording-bound worker waits for the redraw's end
    window.run.redraw(force=True)  # every part at once; the tick's others are dropped
    assert log.count("end") == 1 and window.run.drawn() and loop._gui_idle.is_set()
    parts, later = log.count("part"), []
    QTimer.singleShot(1, lambda: later.append(True))  # after the dropped tick's next part was due
    qtbot.waitUntil(lambda: bool(later), timeout=10_000)
    assert log.count("part") == parts


def test_a_redraw_after_dropped_parts_draws_the_same_snapshot_whole(logged, qtbot):
    window, log = logged  # paused: the snapshot does not change (as --screenshot's last redraw)
    window.run.timer.stop()
    window.run.seen_version = -1
    window.run.timer.timeout.emit()  # the tick draws its first part only
    assert log == ["part"]
    window.run.redraw()  # not forced: the snapshot is the one the dropped parts were drawing
    assert log.count("end") == 1 and window.run.drawn()
