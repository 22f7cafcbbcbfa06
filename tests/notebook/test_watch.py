"""rmviz.watch in-process (issue 32): frames arrive while the run goes on and stop when it is
paused, a step is exact, reset goes back to 0, closing or deleting the watch ends its threads,
and an error in either thread is one line in the status. Waits have deadlines; no assertion
is about wall-clock time."""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path

import pytest

import rmviz
from rmviz.errors import RmvizError

WAIT = 120.0  # seconds a condition may take on a loaded 2-core machine (numba, matplotlib)
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def live():
    watched = rmviz.watch("rps", "rm+", start=False)
    yield watched
    watched.close()


@pytest.mark.slow  # 21-30 s: a frame costs 0.6-2 s of CPU (.ci/run runs it)
def test_frames_arrive_while_it_runs_and_stop_when_paused(live):
    assert live.wait_frames(1, WAIT), live.status  # the starting position
    assert live.png.startswith(PNG)
    live.run()
    assert live.wait_frames(2, WAIT), live.status
    assert live.running
    live.pause()
    assert live.wait_idle(WAIT), live.status
    drawn, at = live.frames, live.iteration
    assert at > 0
    assert not live.wait_frames(1, 1.0)  # nothing new to draw: no frame
    assert (live.frames, live.iteration) == (drawn, at)
    assert "paused" in live.status and f"T = {at:,}" in live.status


@pytest.mark.slow  # 29 s: five frames at 0.6-2 s of CPU each (.ci/run runs it)
def test_step_is_exact_and_reset_goes_back_to_zero(live):
    live.step(25)
    assert live.wait_idle(WAIT), live.status
    assert live.iteration == 25
    live.run()
    assert live.wait_frames(1, WAIT)
    live.step(7)  # a running run pauses first, then steps exactly 7
    assert live.wait_idle(WAIT)
    before = live.iteration
    live.step(7)
    assert live.wait_idle(WAIT)
    assert live.iteration == before + 7
    live.reset()
    assert live.iteration == 0
    assert live.wait_idle(WAIT)
    assert live.trace.iterations.size == 0  # a fresh trace
    with pytest.raises(RmvizError, match="at least 1"):
        live.step(0)


def test_a_run_stops_at_its_iterations_and_hands_over_a_result():
    live = rmviz.watch("kuhn", "cfr+", iterations=300)
    try:
        assert live.wait_idle(WAIT), live.status
        assert live.iteration == 300
        assert "done (300 iterations)" in live.status
        live.run()  # at the limit: nothing to do
        assert live.wait_idle(WAIT) and live.iteration == 300
        result = live.result
        assert result.iteration == 300
        assert result.report()["exploitability"] == pytest.approx(live.metrics["exploitability"])
        result.step(10)  # a copy: the live run stays where it was
        assert (result.iteration, live.iteration) == (310, 300)
    finally:
        live.close()


def test_close_and_del_end_the_threads():
    live = rmviz.watch("rps", "rm")
    threads = (live._live.thread._thread, live._live._redraw)
    live.close()
    assert not any(thread.is_alive() for thread in threads)
    assert live.closed and "closed" in repr(live)
    live.close()  # twice: nothing more
    with pytest.raises(RmvizError, match="closed"):
        live.run()

    live = rmviz.watch("rps", "rm")
    threads = (live._live.thread._thread, live._live._redraw)
    gone = weakref.ref(live)
    del live
    gc.collect()
    assert gone() is None
    for thread in threads:
        thread.join(WAIT)
        assert not thread.is_alive()


def test_errors_are_one_line_in_the_status(live, monkeypatch):
    def fail(iterations):
        raise RuntimeError("boom\n  at some depth\n  and deeper")

    monkeypatch.setattr(live._live.loop.solver, "step", fail)
    live.step(3)
    assert live._live.wait(lambda: live.error is not None, WAIT), live.status
    assert live.error == "the solver stopped: RuntimeError: boom at some depth and deeper"
    assert live.wait_frames(1, WAIT)
    assert "\n" not in live.status and live.status.endswith(live.error)

    def broken(trace, snapshot):
        raise ValueError("no canvas")

    monkeypatch.setattr(live._live.frames, "draw", broken)
    live.reset()  # something new to draw
    assert live._live.wait(lambda: live.error is not None, WAIT)
    assert live.error == "drawing failed: ValueError: no canvas"


def test_the_widget_drives_the_same_run(live):
    pytest.importorskip("ipywidgets")
    controls = live._live.widget()
    assert live.widget is controls.box
    assert live.wait_frames(1, WAIT)
    assert live._live.wait(lambda: controls.image.value == live.png, WAIT)
    controls.count.value = 12
    controls.buttons["step"].click()
    assert live.wait_idle(WAIT) and live.iteration == 12
    assert live._live.wait(lambda: "T = 12" in controls.status.value, WAIT)
    controls.buttons["reset"].click()
    assert live.iteration == 0
    controls.count.value = 0  # the widget bounds it; a command's error would be one line
    assert controls.count.value == 1
    controls.buttons["close"].click()
    assert live.closed
    assert controls.box.comm is None


def test_without_ipywidgets_it_shows_the_frame_and_says_what_is_missing(live, monkeypatch, capsys):
    from rmviz.notebook import controls

    def missing():
        raise RmvizError("the live view needs ipywidgets: pip install 'rmviz[notebook]'")

    monkeypatch.setattr(controls, "widgets", missing)
    assert live.wait_frames(1, WAIT)
    live._ipython_display_()
    shown = capsys.readouterr().out
    assert "T = 0" in shown and "pip install 'rmviz[notebook]'" in shown


@pytest.mark.slow  # runs a watch for 10,000 iterations at 2,000 a second
def test_the_research_notes_example_runs():
    """docs/research.md, "A live view": its code block, as written."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    section = text.split("### A live view: `rmviz.watch`\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    namespace: dict = {"rmviz": rmviz}
    exec(compile(block, "docs/research.md", "exec"), namespace)
    live = namespace["live"]
    assert live.closed and live.iteration == 10_000
    assert namespace["live"].frames >= 2
