"""The run / pause / step loop of a solver, as a plain object (no Qt).

A GUI thread calls :meth:`run`, :meth:`pause`, :meth:`step`, :meth:`reset`, :meth:`stop`
and reads :meth:`latest` and :meth:`trace_columns`; one worker thread calls :meth:`serve`,
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

import numpy as np

from rmviz.errors import RmvizError
from rmviz.runner.trace import Trace
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
        self._reset_seed: int | bool | None = False
        self._stopped = False
        self._speed: float | None = None  # iterations per second, None = as fast as possible
        self._latest = solver.snapshot(metrics=True)
        self._version = 0
        self.error: str | None = None
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
            self._asked()
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
            self._asked()
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

    def _asked(self) -> None:
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

    def latest(self) -> tuple[int, Snapshot]:
        """``(version, snapshot)``: the version grows with every publication."""
        with self._condition:
            return self._version, self._latest

    def trace_columns(self, columns: Sequence[Column]) -> tuple[np.ndarray, dict[Column, np.ndarray]]:
        """The kept iterations and the values of ``columns`` (each a copy)."""
        with self._condition:
            return self.trace.iterations(), {column: self.trace.column(column) for column in columns}

    # -- the worker thread -----------------------------------------------------------------
    def serve(self) -> None:
        """The worker thread's body: returns after :meth:`stop`."""
        chunk = 1
        last_publish = publish_cost = 0.0
        window_start, window_iterations = time.perf_counter(), 0
        while True:
            with self._condition:
                idle = not (self._stopped or self._running or self._pending or self._reset_seed is not False)
                if idle and self._latest.iteration != self.solver.iteration:
                    # paused just after the last publish check: show where the solver stopped
                    self._publish(metrics=True)
                    self.trace.add(self.solver.iteration, self._latest.trace_values())
                while not (self._stopped or self._running or self._pending or self._reset_seed is not False):
                    self._condition.wait()
                if self._stopped:
                    return
                if self._reset_seed is not False:
                    seed = self._reset_seed
                    self._reset_seed = False
                    self.solver.reset(seed)
                    self.trace.clear()
                    self._publish(metrics=True)
                    chunk = 1
                    continue
                count = chunk if self._running else min(chunk, self._pending)
                speed = self._speed
            count = max(
                1, min(count, self.trace.next_iteration - self.solver.iteration)
            )  # land on grid points
            if self._yield_to_gui:
                self._gui_idle.wait(GUI_WAIT_SECONDS)
            started = time.perf_counter()
            try:
                with self._step_lock:
                    self.solver.step(count)
            except (RmvizError, MemoryError) as error:
                with self._condition:
                    self.error = str(error) or type(error).__name__
                    self._running, self._pending = False, 0
                    self._first_step_done = True
                continue
            elapsed = time.perf_counter() - started
            with self._condition:
                self._first_step_done = True
                if self._pending:
                    self._pending = max(0, self._pending - count)
                if self.solver.iteration >= self.trace.next_iteration:
                    snapshot = self.solver.snapshot(metrics=True)
                    self.trace.add(snapshot.iteration, snapshot.trace_values())
                now = time.perf_counter()
                window_iterations += count
                if now - window_start >= 0.25:
                    self.iterations_per_second = window_iterations / (now - window_start)
                    window_start, window_iterations = now, 0
                done_stepping = not self._running and not self._pending
                # a frame apart, or further when measuring costs more than 5% of the time
                # (exact best responses on Leduc take ~3 ms): the solver keeps 95%
                if now - last_publish >= max(self.frame_seconds, 20 * publish_cost) or done_stepping:
                    self._publish(metrics=True)
                    self.trace.add(self.solver.iteration, self._latest.trace_values())
                    last_publish = time.perf_counter()
                    publish_cost = last_publish - now
            # aim at half a frame per chunk, so pause/step answer within a frame
            target = self.frame_seconds / 2
            chunk = int(min(max(1, chunk * target / max(elapsed, 1e-7)), 2 * chunk + 1, 10_000_000))
            if speed:
                time.sleep(max(0.0, count / speed - elapsed))
                chunk = max(1, min(chunk, int(speed * self.frame_seconds) or 1))
            elif self._yield_to_gui:
                time.sleep(elapsed)  # half the time without the GIL: the window stays usable

    def _publish(self, metrics: bool) -> None:
        self._latest = self.solver.snapshot(metrics=metrics)
        self._version += 1
