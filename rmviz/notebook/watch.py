"""``rmviz.watch(game, algorithm)``: a run to watch live in a notebook.

::

    live = rmviz.watch("rps", "rm+")     # runs at once; shown as a widget in Jupyter
    live.pause(); live.step(100); live.reset(); live.run()
    live.result                          # an rmviz Result of the run so far (a copy)
    live.close()                         # or the widget's Close button, or del live

The solver runs on the window's run loop (:class:`~rmviz.runner.loop.RunLoop`, served by a
:class:`~rmviz.runner.worker.SolverThread`: the compiled kernels release the GIL, so the
kernel stays responsive); a second thread draws the window's panels
(:class:`~rmviz.notebook.frames.Frames`) at most ``rate`` times a second, only when the loop
has published something new, and never more than half the time. Errors of either thread
show as one line in the status line.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from rmviz.api import Result, load
from rmviz.errors import RmvizError
from rmviz.figures.run import RunData
from rmviz.formats import Game
from rmviz.notebook.controls import Controls
from rmviz.notebook.frames import DPI, SIZE, Frames, main_metric, one_line, status_line
from rmviz.runner.trace import Trace, TraceData
from rmviz.runner.worker import SolverThread
from rmviz.solvers.protocol import Snapshot
from rmviz.solvers.registry import family_of, make_solver

RATE = 4.0  # frames per second at most
SETTLE_SECONDS = 10.0  # the longest a command waits for the worker to take it


def watch(
    game: str | os.PathLike[str] | Game,
    algorithm: str | None = None,
    iterations: int | None = None,
    *,
    start: bool = True,
    speed: float | None = None,
    rate: float = RATE,
    infoset: int = 0,
    size: tuple[float, float] = SIZE,
    dpi: int = DPI,
    points_per_decade: int = 200,
    **options: Any,
) -> Watch:
    """Run ``algorithm`` on ``game`` (as :func:`rmviz.solve` takes them) in a thread and
    return the :class:`Watch`, which Jupyter shows as a live widget.

    ``iterations``: where a run stops (None: when paused); ``start``: run at once;
    ``speed``: iterations per second at most (None: as fast as it goes); ``rate``: frames
    per second at most; ``infoset``: the information set whose strategy a game tree's frame
    draws; ``size`` (inches) and ``dpi``: the frame's; ``options``: the solver's, as for
    :func:`rmviz.solve`. numba compiles the kernels on a first start, before this returns.

    >>> live = rmviz.watch("rps-crash", "rm+", iterations=5000)
    >>> live.wait_idle()            # in a notebook, the cell shows the widget at once
    True
    >>> live.iteration, live.frames > 0
    (5000, True)
    >>> live.close()
    """
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0
    ):
        raise RmvizError(f"iterations must be a whole number, at least 0, or None (got {iterations!r})")
    if not (isinstance(rate, (int, float)) and 0 < rate <= 60):
        raise RmvizError(f"rate must be between 0 and 60 frames per second (got {rate!r})")
    loaded = load(game)
    solver = make_solver(loaded, algorithm, **options)
    solver.step(0)  # compile or load the kernels now, as rmviz.solve does
    solver.reset()
    thread = SolverThread(solver, points_per_decade)
    run = RunData.of(solver, thread.loop.trace_data(solver.columns), solver.snapshot(metrics=True))
    tree = run.tree
    if tree is not None and not 0 <= infoset < tree.n_infosets:
        raise RmvizError(f"infoset must be from 0 to {tree.n_infosets - 1} (got {infoset!r})")
    live = _Live(
        thread, Frames(run, infoset, size, dpi), None if iterations is None else int(iterations), rate
    )
    if speed is not None:
        live.loop.set_speed(float(speed))
    result = Watch(live, loaded, algorithm, options, points_per_decade)
    if start:
        live.run()
    return result


class _Live:
    """The threads of a watched run and what they share. Nothing here refers to the
    :class:`Watch`, so deleting it closes the run (``weakref.finalize``)."""

    def __init__(self, thread: SolverThread, frames: Frames, limit: int | None, rate: float) -> None:
        self.thread = thread
        self.loop = thread.loop
        # published a few times a frame, not 60 times a second: each publication measures
        # the metrics holding the GIL, which the frames need (the chunks are half of it)
        self.loop.frame_seconds = 1.0 / (2 * rate)
        self.frames = frames
        self.limit = limit
        self.interval = 1.0 / rate
        self.family = family_of(thread.loop.solver.game)
        self.count = 0  # frames drawn
        self.draw_seconds = 0.0  # the newest frame's drawing time
        self.png = b""
        self.status = ""
        self.error: str | None = None
        self.controls: Controls | None = None
        self._drawn = -1  # the loop's version the newest frame shows
        self._changed = threading.Condition()
        self._closed = threading.Event()
        self._redraw = threading.Thread(target=self._serve, name="rmviz-watch-frames", daemon=True)
        thread.start()
        self._redraw.start()

    # -- commands ----------------------------------------------------------------------------
    def run(self) -> None:
        self._command()
        if self.limit is None:
            self.loop.run()
            return
        self._settle()
        left = self.limit - self.loop.solver.iteration
        if left > 0:
            self.loop.step(left)

    def pause(self) -> None:
        self._command()
        self.loop.pause()

    def step(self, iterations: int = 1) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
            raise RmvizError(f"step takes a whole number of iterations, at least 1 (got {iterations!r})")
        self._command()
        self._settle()
        self.loop.step(int(iterations))

    def reset(self, seed: int | None = None) -> None:
        self._command()
        version = self.loop.latest()[0]
        self.loop.reset(seed)
        self.wait(lambda: self.loop.latest()[0] > version and not self.loop.busy, SETTLE_SECONDS)

    def close(self) -> None:
        """Stop both threads and close the widget; a second call does nothing."""
        if self._closed.is_set():
            return
        self._closed.set()
        self.thread.shutdown()
        if threading.current_thread() is not self._redraw:
            self._redraw.join(SETTLE_SECONDS)
        with self._changed:
            self.status = status_line(self.loop.solver.iteration, "closed", 0.0, None, self.error)
            self._changed.notify_all()
        if self.controls is not None:
            self.controls.show(self.status)
            self.controls.close()
        self.frames.close()

    def failed(self, message: str) -> None:
        """Show ``message`` (one line) in the status line until the next command."""
        with self._changed:
            self.error = message
            self._changed.notify_all()

    def _command(self) -> None:
        if self._closed.is_set():
            raise RmvizError("this live view is closed: call rmviz.watch again")
        self.error = None

    def _settle(self) -> None:
        """Pause, and wait for the chunk the worker is stepping (a step counts from here)."""
        self.loop.pause()
        self.loop.exclusive(lambda solver: None)

    # -- state -------------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    @property
    def caught_up(self) -> bool:
        """The solver is not stepping and the newest frame shows where it stopped."""
        return not self.loop.busy and self.loop.latest()[0] == self._drawn

    def wait(self, done: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``done()`` (checked at every frame, and every 20 ms) or ``timeout``
        seconds; whether it is done."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not done():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.02))
        return True

    def widget(self) -> Controls:
        """The widget (built on first use; ipywidgets needed)."""
        if self.controls is None:
            commands = {"run": self.run, "pause": self.pause, "step": self.step, "reset": self.reset}
            self.controls = Controls({**commands, "close": self.close}, self.failed)
            self.controls.show(self.status, self.png or None)
        return self.controls

    # -- the frames thread -----------------------------------------------------------------------
    def _serve(self) -> None:
        """Draw a frame when the loop published something new, at most once an interval
        and never more than half the time (a slow frame waits as long as it took)."""
        while not self._closed.is_set():
            started = time.perf_counter()
            try:
                self._tick()
            except Exception as error:  # one line in the status line, then on
                self.failed(one_line(f"drawing failed: {type(error).__name__}: {error}"))
            spent = time.perf_counter() - started
            self._closed.wait(max(self.interval - spent, spent))

    def _tick(self) -> None:
        error = self.loop.take_error()
        if error is not None:
            self.failed(one_line(error))
        version, snapshot = self.loop.latest()
        png = None
        if version != self._drawn:
            self.loop.gui_drawing(True)  # as the window's redraw: a GIL-bound chunk waits
            started = time.perf_counter()
            try:
                png = self.frames.draw(self.loop.trace_data(self.frames.columns, at=snapshot), snapshot)
            finally:
                self.loop.gui_drawing(False)
            self.draw_seconds = time.perf_counter() - started
        status = self._status(snapshot)
        with self._changed:
            if png is not None:
                self.png, self._drawn = png, version
                self.count += 1
            self.status = status
            self._changed.notify_all()
        if self.controls is not None and not self._closed.is_set():
            self.controls.show(status, png)

    def _status(self, snapshot: Snapshot) -> str:
        if self.loop.busy:
            state = "running"
        elif self.limit is not None and snapshot.iteration >= self.limit:
            state = f"done ({self.limit:,} iterations)"
        else:
            state = "paused"
        metric = main_metric(self.family, snapshot)
        return status_line(snapshot.iteration, state, self.loop.iterations_per_second, metric, self.error)


class Watch:
    """A run in a thread, drawn live (:func:`watch`). Jupyter shows it as a widget; the same
    controls are methods: :meth:`run`, :meth:`pause`, :meth:`step`, :meth:`reset`,
    :meth:`close`; :attr:`frames` counts the frames drawn and :attr:`png` is the newest.

    Attributes:
        game: the game solved (as loaded).
        options: the solver's options.

    >>> live = rmviz.watch("kuhn", "cfr+", start=False)
    >>> live.step(100).wait_idle(), live.iteration, live.running
    (True, 100, False)
    >>> live.run().wait_frames(1), live.frames > 0
    (True, True)
    >>> live.pause().wait_idle(), live.closed
    (True, False)
    >>> live.reset(seed=1).wait_idle(), live.iteration
    (True, 0)
    >>> result = live.step(10).result     # a copy to plot or step on
    >>> live.wait_idle(), live.result.iteration
    (True, 10)
    >>> live.png[1:4], live.error
    (b'PNG', None)
    >>> live.snapshot.iteration, live.metrics["exploitability"] > 0, live.trace.iterations[-1].item()
    (10, True, 10)
    >>> live.status
    'T = 10 ...'
    >>> type(live.widget).__name__            # what Jupyter shows: frames and controls
    'VBox'
    >>> live.close(); live.closed
    True
    """

    def __init__(
        self, live: _Live, game: Game, algorithm: str | None, options: dict[str, Any], points_per_decade: int
    ) -> None:
        self._live = live
        self.game = game
        self.options = dict(options)
        self._algorithm = algorithm
        self._points_per_decade = points_per_decade
        self._finalizer = weakref.finalize(self, live.close)

    # -- controls -----------------------------------------------------------------------------
    def run(self) -> Watch:
        """Run on (to ``iterations`` when the watch has a limit)."""
        self._live.run()
        return self

    def pause(self) -> Watch:
        """Pause after the chunk being stepped (the newest frame then shows it)."""
        self._live.pause()
        return self

    def step(self, iterations: int = 1) -> Watch:
        """Run exactly ``iterations`` more, then pause (a running run pauses first)."""
        self._live.step(iterations)
        return self

    def reset(self, seed: int | None = None) -> Watch:
        """Back to iteration 0 (``seed``: a new seed; None: the run's), paused."""
        self._live.reset(seed)
        return self

    def close(self) -> None:
        """Stop the solver's and the frames' threads and close the widget."""
        self._finalizer()

    # -- waiting -------------------------------------------------------------------------------
    def wait_frames(self, count: int = 1, timeout: float = 60.0) -> bool:
        """Wait for ``count`` more frames (at most ``timeout`` seconds); whether they came."""
        target = self.frames + count
        return self._live.wait(lambda: self._live.count >= target, timeout)

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until the solver stopped (paused, a step done, the limit reached) and the
        newest frame shows where; whether it did within ``timeout`` seconds."""
        return self._live.wait(lambda: self._live.caught_up or self._live.closed, timeout)

    # -- reading -------------------------------------------------------------------------------
    @property
    def iteration(self) -> int:
        """The iteration of the newest snapshot."""
        return self.snapshot.iteration

    @property
    def snapshot(self) -> Snapshot:
        """The newest snapshot the solver published (strategies, metrics)."""
        return self._live.loop.latest()[1]

    @property
    def metrics(self) -> dict[str, Any]:
        """The newest snapshot's metrics by name (as :attr:`rmviz.Result.newest_metrics`)."""
        metrics = self.snapshot.metrics
        return metrics.as_dict() if metrics is not None else {}

    @property
    def running(self) -> bool:
        """Whether the solver is stepping (running, or a step not done yet)."""
        return self._live.loop.busy

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` stopped the run."""
        return self._live.closed

    @property
    def frames(self) -> int:
        """The frames drawn so far."""
        return self._live.count

    @property
    def png(self) -> bytes:
        """The newest frame (PNG bytes; empty before the first)."""
        return self._live.png

    @property
    def status(self) -> str:
        """The status line: iteration, speed, the main metric, the state, an error."""
        return self._live.status

    @property
    def error(self) -> str | None:
        """What went wrong last (one line), until the next command."""
        return self._live.error

    @property
    def trace(self) -> TraceData:
        """The run's trace so far (every column; copies)."""
        loop = self._live.loop
        return loop.trace_data(loop.solver.columns)

    @property
    def result(self) -> Result:
        """An :class:`rmviz.Result` of the run so far: a copy, taken between two chunks
        (the solver's checkpoint and the trace's points), so stepping or plotting it leaves
        the live run alone."""
        saved = self._live.loop.saved_run()
        solver = make_solver(self.game, self._algorithm, **self.options)
        solver.restore(saved.checkpoint)
        trace = Trace(solver.columns, self._points_per_decade)
        trace.restore(saved.trace_iterations, saved.trace_rows)
        return Result(solver, trace, self.options)

    @property
    def widget(self) -> Any:
        """The ipywidgets view (a ``VBox``), built on first use."""
        return self._live.widget().box

    # -- display ---------------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import Image, display

        try:
            box = self.widget
        except RmvizError as error:  # no ipywidgets: the newest frame and what is missing
            if self.png:
                display(Image(data=self.png))
            print(f"{self.status}\n({error})")
            return
        display(box)

    def __repr__(self) -> str:
        loop = self._live.loop
        state = "closed" if self.closed else "running" if self.running else "paused"
        return (
            f"<rmviz Watch: {loop.solver.config.algorithm} on {loop.solver.game.title!r}, "
            f"T = {self.iteration:,}, {state}, {self.frames} frames>"
        )
