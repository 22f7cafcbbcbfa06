"""The run / pause / step loop of a solver, as a plain object (no Qt).

A GUI thread calls :meth:`run`, :meth:`pause`, :meth:`step`, :meth:`reset`, :meth:`stop`
and reads :meth:`latest` and :meth:`trace_data`; one worker thread calls :meth:`serve`,
which steps the solver in chunks sized to take about half a frame, records a point of the
:class:`~rmviz.runner.trace.Trace` at every grid iteration (so the first iterations, where
the dynamics are easiest to see, are all kept), and publishes the newest snapshot at most
once a frame. The GUI redraws from the newest snapshot on its own timer; older ones are
simply replaced, so no queue can grow however fast the solver runs.

A solver's first step is slow on a first start: numba compiles its kernels then (12 s on
an idle machine, 70-80 s under load; later starts load them from the cache).
:meth:`warming_up` tells the window, which says so meanwhile.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from rmviz.errors import RmvizError
from rmviz.runner.trace import SavedRun, Trace, TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.protocol import Snapshot, Solver

GUI_WAIT_SECONDS = 0.2  # the longest a GIL-holding solver waits for a redraw to end


class RunLoop:
    """Drives one solver from a worker thread; every public method is thread-safe."""

    def __init__(self, solver: Solver, frame_seconds: float = 1 / 60, points_per_decade: int = 200) -> None:
        self.solver = solver
        self.frame_seconds = frame_seconds
        self.trace = Trace(solver.columns, points_per_decade)
        self._condition = threading.Condition()
        self._step_lock = threading.Lock()  # held by the worker while the solver steps
        self._running = False
        self._pending = 0
        self._stepping = False  # a chunk taken and not yet published: busy until it is
        self._reset_seed: int | bool | None = False
        self._stopped = False
        self._speed: float | None = None  # iterations per second, None = as fast as possible
        self._latest = solver.snapshot(metrics=True)
        self._version = 0
        self.error: str | None = None  # what stopped the run; the GUI takes it (take_error)
        self._failed = False  # the last step raised: the solver's state is not published
        self.iterations_per_second = 0.0
        self._asked_at: float | None = None  # when the loop was first asked to step
        self._first_step_done = False
        # A solver that holds the GIL while it steps (NumPy on small arrays: n-player expected
        # play) makes the GUI thread wait for the GIL at every Qt call of a repaint (seconds
        # per frame). Such a solver sleeps as long as each chunk took, and waits between
        # chunks while the GUI says it is drawing; kernels that release the GIL run on.
        self._gui_idle = threading.Event()
        self._gui_idle.set()
        self._yield_to_gui = not solver.releases_gil

    # -- commands (GUI thread) -------------------------------------------------------------
    def run(self) -> None:
        with self._condition:
            self._running = True
            self._note_asked()
            self._condition.notify()

    def pause(self) -> None:
        with self._condition:
            self._running = False
            self._pending = 0

    def step(self, iterations: int = 1) -> None:
        """Run exactly ``iterations`` more iterations, then pause."""
        with self._condition:
            self._running = False
            self._pending += int(iterations)
            self._note_asked()
            self._condition.notify()

    def reset(self, seed: int | None = None) -> None:
        with self._condition:
            self._running = False
            self._pending = 0
            self._reset_seed = seed
            self._condition.notify()

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()
        self._gui_idle.set()  # a worker waiting for a redraw to end stops now

    def set_speed(self, iterations_per_second: float | None) -> None:
        with self._condition:
            self._speed = iterations_per_second

    def exclusive(self, action: Callable[[Any], Any]) -> Any:
        """Run ``action(solver)`` on the calling thread while the worker neither steps nor
        snapshots the solver (the tree view's recorded step), then record and publish the new
        state. (The worker takes its snapshots holding the condition, not the step lock:
        ``action`` holds both. The worker never waits for one while holding the other.)"""
        with self._condition, self._step_lock:
            result = action(self.solver)
            self._publish(metrics=True)
            self.trace.add(self.solver.iteration, self._latest.trace_values())
        return result

    def saved_run(self) -> SavedRun:
        """The solver's whole state and the trace's kept points, taken between two chunks
        (a running loop goes on)."""
        with self._condition, self._step_lock:
            return SavedRun(self.solver.checkpoint(), *self.trace.kept())

    def restore(self, saved: SavedRun) -> None:
        """Put the solver and the trace back where ``saved`` was taken and publish it,
        paused: the run goes on as if never saved. Raises ``ConfigError`` (solver) or
        ``ValueError`` (trace) when ``saved`` does not fit, changing nothing."""
        with self._condition, self._step_lock:
            trace = Trace(self.solver.columns, self.trace.points_per_decade, self.trace.every)
            trace.restore(saved.trace_iterations, saved.trace_rows)  # checked before the solver
            self.solver.restore(saved.checkpoint)
            self.trace = trace
            self._running, self._pending, self._failed = False, 0, False
            self._publish(metrics=True)
            self.trace.add(self.solver.iteration, self._latest.trace_values())

    def _note_asked(self) -> None:
        """Remember when the loop was first asked to run or step (for :meth:`warming_up`)."""
        if self._asked_at is None:
            self._asked_at = time.perf_counter()

    def warming_up(self, for_at_least: float = 0.0) -> bool:
        """Whether the loop was asked to run or step at least ``for_at_least`` seconds ago and
        its solver's first step has not returned yet (numba compiling the kernels, on a first
        start). A paused loop that was never asked to step is not warming up."""
        with self._condition:
            if self._first_step_done or not (self._running or self._pending) or self._asked_at is None:
                return False
            return time.perf_counter() - self._asked_at >= for_at_least

    def gui_drawing(self, drawing: bool) -> None:
        """The GUI starts (True) or ends (False) a redraw and its repaint."""
        self._gui_idle.clear() if drawing else self._gui_idle.set()

    @property
    def running(self) -> bool:
        return self._running

    @property
    def busy(self) -> bool:
        """Whether the loop is running, has iterations of a :meth:`step` left to do or a
        :meth:`reset` not yet done; once it is not, :meth:`latest` is where the solver
        stopped."""
        with self._condition:
            return self._running or self._pending > 0 or self._stepping or self._reset_seed is not False

    def latest(self) -> tuple[int, Snapshot]:
        """``(version, snapshot)``: the version grows with every publication."""
        with self._condition:
            return self._version, self._latest

    def trace_data(
        self, columns: Sequence[Column], newest: bool = False, at: Snapshot | None = None
    ) -> TraceData:
        """The kept iterations and the values of ``columns`` (copies; ``newest``: the newest
        point alone; ``at``: as the trace was when that snapshot was published, :meth:`Trace.data`)."""
        point = None if at is None else (at.iteration, at.trace_values())
        with self._condition:
            return self.trace.data(columns, newest, point)

    # -- the worker thread -----------------------------------------------------------------
    def serve(self) -> None:
        """The worker thread's body: returns after :meth:`stop`. Any exception the solver
        raises (an rmviz error, memory, or one from deep inside NumPy such as LinAlgError on
        payoffs of 1e14) stops the run and is kept in :attr:`error` for the window to show;
        the worker then waits for the next command, so the game, the trace and the
        solver's last good snapshot stay."""
        pace = _Pace(self.frame_seconds)
        while True:
            try:
                if not self._serve_once(pace):
                    return
            except Exception as error:  # reported, not swallowed: see _fail
                self._fail(error)

    def _fail(self, error: BaseException) -> None:
        """Stop the run on ``error`` and keep its message for :meth:`take_error`."""
        message = str(error)
        if not isinstance(error, RmvizError):
            message = f"the solver stopped: {type(error).__name__}" + (f": {message}" if message else "")
        with self._condition:
            self.error = message or type(error).__name__
            self._running, self._pending, self._stepping = False, 0, False
            self._reset_seed = False
            self._failed = True
            self._first_step_done = True

    def take_error(self) -> str | None:
        """The error that stopped the run, once (``None`` when there is none)."""
        with self._condition:
            message, self.error = self.error, None
            return message

    def _asked(self) -> bool:
        """Whether the worker has something to do (the condition held)."""
        return self._stopped or self._running or bool(self._pending) or self._reset_seed is not False

    def _serve_once(self, pace: _Pace) -> bool:
        """Wait for a command, then carry out one chunk of it; False after :meth:`stop`."""
        with self._condition:
            if not self._asked() and not self._failed and self._latest.iteration != self.solver.iteration:
                # paused just after the last publish check: show where the solver stopped
                self._publish(metrics=True)
                self.trace.add(self.solver.iteration, self._latest.trace_values())
            while not self._asked():
                self._condition.wait()
            if self._stopped:
                return False
            if self._reset_seed is not False:
                seed = self._reset_seed
                self._reset_seed = False
                self.solver.reset(seed)
                self.trace.clear()
                self._publish(metrics=True)
                pace.chunk = 1
                return True
            count = pace.chunk if self._running else min(pace.chunk, self._pending)
            speed = self._speed
            self._stepping = True  # a pause now still lets this chunk end and be published
        count = max(1, min(count, self.trace.next_iteration - self.solver.iteration))  # land on grid points
        # A chunk that ends on a grid point records a snapshot in Python, holding the GIL
        # (~0.5 ms on 3x3). Where that outweighs the stepping (a fresh run records every
        # iteration at first), the worker is as good as a GIL-holding solver and waits
        # while the GUI draws too: an edit's repaint used to take several times longer.
        records = self.solver.iteration + count >= self.trace.next_iteration
        if self._yield_to_gui or (records and pace.recording_bound()):
            self._gui_idle.wait(GUI_WAIT_SECONDS)
        started = time.perf_counter()
        with self._step_lock:
            self.solver.step(count)
        self._failed = False
        elapsed = time.perf_counter() - started
        with self._condition:
            self._first_step_done = True
            if self._pending:
                self._pending = max(0, self._pending - count)
            if self.solver.iteration >= self.trace.next_iteration:
                snapshot = self.solver.snapshot(metrics=True)
                self.trace.add(snapshot.iteration, snapshot.trace_values())
                pace.recorded(time.perf_counter() - started - elapsed)
            now = time.perf_counter()
            pace.measured(count, now)
            if pace.publish_due(now) or (not self._running and not self._pending):
                self._publish(metrics=True)
                self.trace.add(self.solver.iteration, self._latest.trace_values())
                pace.published(now)
            self.iterations_per_second = pace.iterations_per_second
            self._stepping = False
        pace.next_chunk(count, elapsed, speed, self._yield_to_gui)
        return True

    def _publish(self, metrics: bool) -> None:
        self._latest = self.solver.snapshot(metrics=metrics)
        self._version += 1


class _Pace:
    """The worker's pacing: the chunk size (half a frame of stepping, so pause and step
    answer within a frame), the measured speed and when to publish next."""

    def __init__(self, frame_seconds: float = 1 / 60) -> None:
        self.frame_seconds = frame_seconds
        self.chunk = 1
        self.iterations_per_second = 0.0
        self._last_publish = self._publish_cost = 0.0
        self._record_seconds = self._step_seconds = 0.0
        self._window_start, self._window_iterations = time.perf_counter(), 0

    def measured(self, count: int, now: float) -> None:
        """``count`` more iterations are done at ``now``; the speed over 0.25 s windows."""
        self._window_iterations += count
        if now - self._window_start >= 0.25:
            self.iterations_per_second = self._window_iterations / (now - self._window_start)
            self._window_start, self._window_iterations = now, 0

    def recorded(self, seconds: float) -> None:
        """Recording the last grid point took ``seconds`` (a snapshot and its metrics)."""
        self._record_seconds = seconds

    def recording_bound(self) -> bool:
        """Whether recording a grid point takes longer than stepping the last chunk did."""
        return self._record_seconds > self._step_seconds

    def publish_due(self, now: float) -> bool:
        """A frame apart, or further when measuring costs more than 5% of the time (exact
        best responses on Leduc take ~3 ms): the solver keeps 95%."""
        return now - self._last_publish >= max(self.frame_seconds, 20 * self._publish_cost)

    def published(self, started: float) -> None:
        self._last_publish = time.perf_counter()
        self._publish_cost = self._last_publish - started

    def next_chunk(self, count: int, elapsed: float, speed: float | None, yield_to_gui: bool) -> None:
        """Size the next chunk from this one's time, and sleep where the speed limit (or a
        solver holding the GIL) asks for it."""
        self._step_seconds = elapsed
        target = self.frame_seconds / 2
        self.chunk = int(
            min(max(1, self.chunk * target / max(elapsed, 1e-7)), 2 * self.chunk + 1, 10_000_000)
        )
        if speed:
            time.sleep(max(0.0, count / speed - elapsed))
            self.chunk = max(1, min(self.chunk, int(speed * self.frame_seconds) or 1))
        elif yield_to_gui:
            time.sleep(elapsed)  # half the time without the GIL: the window stays usable
