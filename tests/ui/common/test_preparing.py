"""A first start: the app compiles every kernel in the background (rmviz.ui.common.warmup);
meanwhile the windows say "Preparing the solvers (first start only)..." and stay usable, and
once it is done they never say so again (issue 27). The message means compiling: a kernel
compiling in the window's process says so too, a slow step that compiles nothing does not."""

from __future__ import annotations

import threading
from multiprocessing import get_context

import pytest
from numba.core import event

from rmviz.solvers import precompile
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.ui.common import warmup
from rmviz.ui.common.messages import PREPARING
from tests.ui.matrix.conftest import iteration, make_window

OLD_THRESHOLD = 3.0  # seconds of a first step after which the window used to say it prepared


@pytest.fixture
def first_start(monkeypatch):
    """A cache without the stamp of a complete compile, and a warm-up whose processes wait
    for the returned event (set: they end, as compiling would); the stamps left are counted."""
    context = get_context("spawn")
    compiled = context.Event()
    stamps = []
    monkeypatch.setattr(warmup, "_warmup", None)
    monkeypatch.setattr(precompile, "current", lambda: bool(stamps))
    monkeypatch.setattr(precompile, "mark_current", stamps.append)
    monkeypatch.setattr(
        precompile,
        "processes",
        lambda jobs: [context.Process(target=compiled.wait, args=(60,), daemon=True) for _ in range(jobs)],
    )
    yield compiled, stamps
    compiled.set()
    warmup.stop()


def test_the_first_start_says_it_prepares_until_the_warm_up_is_done(qtbot, tmp_path, first_start):
    compiled, stamps = first_start
    window = make_window(qtbot, tmp_path)
    window.show()
    bar = window.statusBar()
    running = warmup.start_if_needed(jobs=2)
    assert running is not None and len(running.processes) == 2
    qtbot.waitUntil(lambda: bar.currentMessage() == PREPARING, timeout=60_000)

    # the window is usable meanwhile: an edit restarts the run, which steps
    assert window.model.setData(window.model.index(0, 1), "3, 4")
    assert window.document.game.payoffs[:, 0, 1].tolist() == [3, 4]
    window.run.step(5)
    qtbot.waitUntil(lambda: iteration(window) == 5, timeout=600_000)
    assert bar.currentMessage() == PREPARING and not stamps

    # a message of its own meanwhile stays its time; then the first start's line is back
    ticks = []
    window.run.timer.timeout.connect(lambda: ticks.append(bar.currentMessage()))
    bar.showMessage("autosave failed: disk full", 60_000)
    qtbot.waitUntil(lambda: len(ticks) >= 3, timeout=60_000)
    assert set(ticks) == {"autosave failed: disk full"}
    bar.clearMessage()
    qtbot.waitUntil(lambda: bar.currentMessage() == PREPARING, timeout=60_000)

    compiled.set()
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=60_000)
    assert running.succeeded and len(stamps) == 1  # the stamp: later starts compile nothing
    assert warmup.start_if_needed() is running  # never twice in one process
    warmup._warmup = None  # (the fixture puts it back) a new process: the next start
    assert warmup.start_if_needed() is None  # the cache is complete: nothing to compile
    window.shutdown()


def test_a_warm_up_ended_early_leaves_no_stamp(first_start):
    _, stamps = first_start
    running = warmup.start_if_needed(jobs=1)
    assert running is not None and warmup.warming_up()
    warmup.stop()  # the app quits
    assert running.wait(60) and not running.succeeded and not stamps and not warmup.preparing()


def test_a_warm_up_that_cannot_start_its_processes_is_over_at_once(first_start, monkeypatch):
    _, stamps = first_start

    class Refused:
        pid = None

        def start(self):
            raise OSError("no processes here")

        def is_alive(self):
            return False

    monkeypatch.setattr(precompile, "processes", lambda jobs: [Refused()])
    running = warmup.start_if_needed(jobs=1)
    assert running is not None and running.wait(0) and not running.succeeded
    assert not warmup.preparing() and not stamps


def test_a_kernel_compiling_in_the_window_process_says_so(qtbot, tmp_path):
    """numba's compile event (never fired by a load from the cache): the solver thread's
    first step compiling a kernel the warm-up did not (or has not yet) compiled."""
    window = make_window(qtbot, tmp_path)
    window.show()
    bar = window.statusBar()
    compiled = threading.Event()

    def compile_in_a_thread():
        event.start_event("numba:compile")
        compiled.wait(60)
        event.end_event("numba:compile")

    thread = threading.Thread(target=compile_in_a_thread)
    thread.start()
    qtbot.waitUntil(lambda: bar.currentMessage() == PREPARING, timeout=60_000)
    compiled.set()
    thread.join()
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=60_000)
    window.shutdown()


def test_a_slow_first_step_that_compiles_nothing_is_not_preparing(qtbot, tmp_path, monkeypatch):
    """A large game's first iteration, say: the window used to guess compiling after 3 s."""
    done = threading.Event()
    step = RegretMinimizer.step

    def slow_step(self, iterations=1):
        done.wait(60)
        step(self, iterations)

    monkeypatch.setattr(RegretMinimizer, "step", slow_step)
    window = make_window(qtbot, tmp_path)
    window.show()
    ticks = []
    window.run.timer.timeout.connect(lambda: ticks.append(window.statusBar().currentMessage()))
    window.run.step(5)
    loop = window.run.thread.loop
    qtbot.waitUntil(lambda: loop.warming_up(OLD_THRESHOLD + 0.5), timeout=60_000)
    seen = len(ticks)
    qtbot.waitUntil(lambda: len(ticks) >= seen + 3, timeout=60_000)  # redrawn since
    assert window.run.preparing()  # its first step has not returned (for --screenshot's wait)
    assert PREPARING not in ticks
    done.set()
    qtbot.waitUntil(lambda: iteration(window) == 5, timeout=60_000)
    window.shutdown()


def test_a_paused_window_is_not_preparing(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.show()
    qtbot.wait(200)
    assert not window.run.preparing() and window.statusBar().currentMessage() == ""
    window.shutdown()
