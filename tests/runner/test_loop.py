"""The run loop driven from the test thread, as the GUI drives it (no Qt)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.runner.loop import RunLoop
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer


@pytest.fixture
def loop():
    running = RunLoop(RegretMinimizer(catalog_game("rps-crash"), preset("rm")))
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    yield running
    running.stop()
    thread.join(5)
    assert not thread.is_alive()


def wait_for(condition, seconds=60.0):  # returns as soon as the condition holds
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False


def test_step_runs_exactly_the_asked_iterations(loop):
    loop.step(1)
    assert wait_for(lambda: loop.latest()[1].iteration == 1)
    loop.step(5)
    assert wait_for(lambda: loop.latest()[1].iteration == 6)
    time.sleep(0.05)
    assert loop.solver.iteration == 6


def test_run_pause_and_the_trace_keeps_the_first_iterations(loop):
    loop.run()
    assert wait_for(lambda: loop.latest()[1].iteration > 100_000 and loop.iterations_per_second > 0)
    loop.pause()
    time.sleep(0.05)
    stopped_at = loop.solver.iteration
    time.sleep(0.1)
    assert loop.solver.iteration == stopped_at
    trace = loop.trace_data((Column("exploitability"), Column("average", player=0, action=1)))
    iterations, columns = trace.iterations, trace.columns
    assert iterations[:5].tolist() == [1, 2, 3, 4, 5]
    assert len(iterations) < 2000
    assert columns[Column("average", player=0, action=1)][-1] == pytest.approx(0.5, abs=0.01)


def test_reset_returns_to_iteration_zero(loop):
    loop.step(10)
    assert wait_for(lambda: loop.latest()[1].iteration == 10)
    loop.reset()
    assert wait_for(lambda: loop.latest()[1].iteration == 0)
    assert loop.trace_data((Column("exploitability"),)).iterations.size == 0


def test_speed_limit():
    """At 200 it/s, half a second runs at most ~100 iterations (and some: it runs at all)."""
    solver = RegretMinimizer(catalog_game("rps"), preset("rm"))
    running = RunLoop(solver)
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    running.step(1)  # the first step loads (or compiles) the kernels: not part of the timing
    assert wait_for(lambda: running.latest()[1].iteration == 1)
    running.set_speed(200.0)
    running.run()
    started = time.perf_counter()
    time.sleep(0.5)
    running.stop()
    seconds = time.perf_counter() - started
    thread.join(5)
    assert 1 < solver.iteration <= 1 + 200 * seconds * 1.2 + 2


def test_large_games_answer_pause_within_a_frame_or_two():
    solver = RegretMinimizer(random_game("zero-sum", (1000, 1000), seed=0), preset("rm"))
    running = RunLoop(solver)
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    running.run()
    time.sleep(0.3)
    running.pause()
    before = solver.iteration
    time.sleep(0.2)
    assert solver.iteration - before <= 50  # at most the chunk in flight
    running.stop()
    thread.join(60)
    assert not thread.is_alive()


def test_a_solver_holding_the_gil_steps_aside_while_the_gui_draws():
    from rmviz.runner.worker import SolverThread

    compiled = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    # every catalog configuration now runs compiled: the generic NumPy code, as for games
    # beyond the kernels' limits or on the GPU
    generic = RegretMinimizer(catalog_game("three-player-pennies"), preset("internal-rm"))
    generic._kernel, generic.releases_gil = None, False
    assert compiled.releases_gil and not generic.releases_gil
    generic.step(1)  # numba's first load (stationary.py), 0.3-0.8 s: alone, the test failed
    generic.reset()
    thread = SolverThread(generic)
    thread.start()
    try:
        thread.loop.run()
        assert wait_for(lambda: generic.iteration > 0)
        thread.loop.gui_drawing(True)
        time.sleep(0.05)  # the chunk under way ends
        frozen = generic.iteration
        time.sleep(0.1)
        assert generic.iteration == frozen  # waits while the GUI draws (up to 0.2 s)
        thread.loop.gui_drawing(False)
        time.sleep(0.1)
        assert generic.iteration > frozen
    finally:
        assert thread.shutdown()


def test_a_fresh_run_recording_every_iteration_waits_while_the_gui_draws(monkeypatch):
    """A compiled solver runs on while the GUI draws, except where recording the trace's
    grid points (Python, holding the GIL) outweighs its steps: a fresh run records every
    iteration, and the window's repaint after an edit comes first. Stopping wakes it.
    (That it runs on once its chunks outweigh the recording, the throughput of
    tests/benchmarks/gui_responsiveness.py shows: 3.2-3.4M it/s on rps-crash.)"""
    from rmviz.runner import loop as loop_module
    from rmviz.runner.worker import SolverThread

    monkeypatch.setattr(loop_module, "GUI_WAIT_SECONDS", 60.0)  # waits as long as the GUI draws
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    assert solver.releases_gil
    thread = SolverThread(solver)
    thread.loop.gui_drawing(True)  # as the window does before it starts a fresh run
    thread.start()
    thread.loop.run()
    assert wait_for(lambda: solver.iteration >= 1)  # the first chunk: nothing measured yet
    stopped_at = solver.iteration
    time.sleep(0.2)
    assert solver.iteration == stopped_at <= 2  # then it waits for the repaint
    thread.loop.gui_drawing(False)
    assert wait_for(lambda: solver.iteration > 100_000)
    assert thread.shutdown()

    waiting = SolverThread(RegretMinimizer(catalog_game("rps-crash"), preset("rm")))
    waiting.loop.gui_drawing(True)
    waiting.start()
    waiting.loop.run()
    assert wait_for(lambda: waiting.loop.solver.iteration >= 1)
    assert waiting.shutdown()  # stop() wakes the worker: it does not wait the 60 s out


def test_after_a_pause_the_latest_snapshot_is_where_the_solver_stopped(loop):
    """However a pause falls against the worker's publication, once the worker is idle the
    window is shown the solver's own iteration (not a snapshot a chunk behind)."""
    for k in range(20):
        loop.run()
        time.sleep(0.002 * (k % 5))
        loop.pause()
        assert wait_for(lambda: loop.latest()[1].iteration == loop.solver.iteration)
        time.sleep(0.02)  # still true once the worker has settled
        assert loop.latest()[1].iteration == loop.solver.iteration


def test_busy_until_the_chunk_in_flight_is_published():
    """A pause while the worker steps a chunk: the loop stays busy until that chunk's state is
    published, so "not busy" means latest() is where the solver stopped (the solver's
    iteration moves only at the chunk's end, so the two iterations alone can agree early)."""
    running = RunLoop(StepEntered(catalog_game("rps"), preset("rm")))
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    try:
        running.run()
        assert running.solver.entered.wait(60)  # the worker is inside its first chunk
        running.pause()
        assert running.latest()[1].iteration == running.solver.iteration == 0
        assert running.busy  # the chunk has not ended
        running.solver.go.set()
        assert wait_for(lambda: not running.busy)
        assert running.latest()[1].iteration == running.solver.iteration > 0
    finally:
        running.solver.go.set()
        running.stop()
        thread.join(5)


def test_busy_until_a_reset_is_done():
    """A reset asked while the worker steps a chunk of a step: "not busy" waits for the reset,
    not only for the chunk (a watch's run to its limit, counted from a solver that was not
    reset yet, stopped 2 short of the limit)."""
    idle = RunLoop(RegretMinimizer(catalog_game("rps"), preset("rm")))
    idle.reset()
    assert idle.busy  # no worker: the reset is not done
    running = RunLoop(StepEntered(catalog_game("rps"), preset("rm")))
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    try:
        running.step(100)
        assert running.solver.entered.wait(60)
        running.reset()
        running.solver.go.set()
        assert wait_for(lambda: not running.busy)
        assert running.latest()[1].iteration == running.solver.iteration == 0
    finally:
        running.solver.go.set()
        running.stop()
        thread.join(5)


class _Failing:
    """A solver whose step raises ``error`` from iteration ``at`` on (as NumPy's LinAlgError
    does deep inside internal regret matching on payoffs of 1e14)."""

    def __init__(self, error: Exception, at: int = 5) -> None:
        self.inner = RegretMinimizer(catalog_game("rps"), preset("rm"))
        self.error, self.at = error, at

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def step(self, count: int) -> None:
        if self.inner.iteration + count > self.at:
            raise self.error
        self.inner.step(count)


@pytest.mark.parametrize("error", [np.linalg.LinAlgError("SVD did not converge"), ZeroDivisionError()])
def test_any_exception_in_the_solver_stops_the_run_and_is_kept_once(error):
    running = RunLoop(_Failing(error))
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    try:
        running.step(5)
        assert wait_for(lambda: running.latest()[1].iteration == 5)
        running.run()
        assert wait_for(lambda: running.error is not None)
        assert not running.running
        message = running.take_error()
        assert type(error).__name__ in message
        assert running.take_error() is None
        assert running.latest()[1].iteration == 5  # the last good state stays shown
        assert running.trace_data(()).iterations.tolist()[-1] == 5  # and the trace
        running.reset()  # the worker still answers
        assert wait_for(lambda: running.latest()[1].iteration == 0)
    finally:
        running.stop()
        thread.join(5)
    assert not thread.is_alive()


class FirstStepBlocks(RegretMinimizer):
    """A solver whose first step waits for ``go`` (a first start compiling its kernels)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.go = threading.Event()

    def step(self, iterations=1):
        self.go.wait(10)
        super().step(iterations)


class StepEntered(FirstStepBlocks):
    """FirstStepBlocks that says when a step has begun (``entered``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.entered = threading.Event()

    def step(self, iterations=1):
        self.entered.set()
        super().step(iterations)


def test_warming_up_while_the_first_step_has_not_returned():
    running = RunLoop(FirstStepBlocks(catalog_game("rps"), preset("rm")))
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    try:
        assert not running.warming_up()  # never asked to step
        running.step(3)
        assert running.warming_up() and not running.warming_up(for_at_least=60)
        time.sleep(0.05)
        assert running.warming_up(for_at_least=0.05)
        running.solver.go.set()
        assert wait_for(lambda: running.latest()[1].iteration == 3)
        assert not running.warming_up()
        running.run()
        assert not running.warming_up()  # only the first step compiles
    finally:
        running.solver.go.set()
        running.stop()
        thread.join(5)


def test_shutdown_does_not_wait_for_a_warming_up_solver():
    """An edit made while the kernels compile restarts the run at once; the old thread ends
    when its step returns."""
    from rmviz.runner.worker import SolverThread

    worker = SolverThread(FirstStepBlocks(catalog_game("rps"), preset("rm")))
    worker.start()
    worker.loop.run()
    # a wait would see the thread end (its step gives up on go after 10 s): shutdown says
    # it did not end, so it did not wait
    assert not worker.shutdown(timeout=60)
    worker.loop.solver.go.set()
    assert wait_for(lambda: not worker.is_alive())


@pytest.mark.gpu
@pytest.mark.parametrize("size", [20, 600])  # the device loop and the tiled pass
def test_a_gpu_run_streams_to_the_trace_like_a_cpu_run(size):
    """What the window's plots read (latest snapshot, trace columns) from a run on the GPU."""
    game = random_game("zero-sum", (size, size), seed=1)
    running = RunLoop(RegretMinimizer(game, preset("rm+", device="gpu")))
    assert running.solver.backend.is_gpu
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    try:
        running.run()
        assert wait_for(lambda: running.latest()[1].iteration > 2000)
        running.pause()
        trace = running.trace_data((Column("exploitability"),))
        iterations, gaps = trace.iterations, trace.columns[Column("exploitability")]
        assert iterations[0] == 1 and np.all(np.diff(iterations) > 0)
        assert np.isfinite(gaps).all() and gaps[-1] < gaps[0]
    finally:
        running.stop()
        thread.join(5)
