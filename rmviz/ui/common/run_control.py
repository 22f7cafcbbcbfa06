"""Run control in a window: the single run's thread, run/pause/step/reset, the paced redraw
timer and the status line. A :class:`RunControl` starts a fresh solver in a
:class:`~rmviz.runner.worker.SolverThread` when the game or the settings change, steps and
runs it, and each timer tick draws the visible tab from the newest snapshot (never a live
solver array: the compiled kernels mutate those without the GIL), a view or a plot at a time
with the event loop let through between them (each part's repaint runs, then any click or
timer due, then the next part: a redraw of the whole tab held the loop for 40-70 ms of CPU
with other processes busy beside the window); the interval stretches to 1.5 times what a
redraw and its repaints took, so the event loop stays free however slow painting is. The
:class:`StatusLine` says "Preparing the solvers..." while kernels compile.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from rmviz.errors import RmvizError
from rmviz.runner.loop import RunLoop
from rmviz.runner.worker import SolverThread
from rmviz.solvers.protocol import Solver
from rmviz.ui.common.messages import PREPARING, REPLAYING
from rmviz.ui.common.warmup import preparing as compiling_kernels


def shown_text(label: QLabel) -> str:
    """What a status-bar label shows: its text, or the text elided (``…``) to its width."""
    width = label.contentsRect().width()
    return label.fontMetrics().elidedText(label.text(), Qt.TextElideMode.ElideRight, width)


class Elider(QObject):
    """Status-bar labels elide their text, never cut it (issue 29: a projector's status bar
    read "317,7" it/s): each label of the bar, left or permanent, may shrink below its text
    (it still asks for the whole text's width) and paints the text elided to its width, the
    whole text as its tooltip. ``text()`` stays the whole text."""

    TIP = "rmviz_elided_tip"  # the label's tooltip is the elided text's (not the window's)

    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        bar.installEventFilter(self)
        for label in bar.findChildren(QLabel):
            self.watch(label)

    def watch(self, label: QLabel) -> None:
        if label.property(self.TIP) is None:
            label.setProperty(self.TIP, False)
            if label.minimumWidth() == 0:  # else its minimum is its whole text's width
                label.setMinimumWidth(1)
            label.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ChildAdded and isinstance(event.child(), QLabel):
            self.watch(event.child())
        elif event.type() == QEvent.Type.Paint and isinstance(watched, QLabel):
            return self._paint(watched)
        return False

    def _paint(self, label: QLabel) -> bool:
        """Paint ``label`` elided if its text does not fit (True: painted here)."""
        full, shown = label.text(), shown_text(label)
        elided = shown != full and label.textFormat() != Qt.TextFormat.RichText
        if elided:
            label.setToolTip(full)
            label.setProperty(self.TIP, True)
        elif label.property(self.TIP):
            label.setToolTip("")
            label.setProperty(self.TIP, False)
        if not elided:
            return False
        painter = QPainter(label)
        label.style().drawItemText(
            painter, label.contentsRect(), int(label.alignment()), label.palette(),
            label.isEnabled(), shown, label.foregroundRole(),
        )  # fmt: skip
        painter.end()
        return True


class StatusLine:
    """The window's status bar: widgets on its left, hidden while a message shows there, and
    the message while kernels compile (:meth:`show_preparing`). Its labels elide their text
    to their width, with the whole text as tooltip (:class:`Elider`)."""

    def __init__(self, bar: QStatusBar) -> None:
        self.bar = bar
        self._widgets: list[QWidget] = []
        self.elider = Elider(bar)
        bar.messageChanged.connect(self._message_changed)

    def add(self, widget: QWidget, stretch: int = 0) -> None:
        """``widget`` on the left of the status bar, hidden while a message shows there."""
        self.bar.addWidget(widget, stretch)
        if isinstance(widget, QLabel):
            self.elider.watch(widget)
        self._widgets.append(widget)

    def _message_changed(self, message: str) -> None:
        """QStatusBar hides its widgets for a message only if they are visible then: one shown
        while the window went from full screen to ``--size`` stayed, and the two overprinted
        (a reopened presentation-mode session's screenshot)."""
        for widget in self._widgets:
            widget.setVisible(not message)

    def show_preparing(self, preparing: bool) -> None:
        """Say so while kernels compile, in place of a reopened session's re-run count (which
        waits for them); another message shown meanwhile (the session restored, a failed
        autosave) stays its time, and the first start's minute or two resumes after it."""
        message = self.bar.currentMessage()
        if preparing and (not message or message.startswith(REPLAYING)):
            self.bar.showMessage(PREPARING)
        elif not preparing and message == PREPARING:
            self.bar.clearMessage()


CHOOSE_EVERY_S = 1.0  # a running window chooses a big game's actions drawn anew at most this often


class ChoiceClock:
    """When a window's redraw chooses anew which of a big game's actions (or a wide set's
    moves) it draws, the most played at the trace's newest point
    (:func:`~rmviz.present.panels.shown_actions`): at once when the run is not running or
    the redraw is forced, so a still window draws what the figure of its iteration draws;
    while it runs, at most every :data:`CHOOSE_EVERY_S` seconds. A 200-action game's ten
    most played changed at about every redraw: the legend reshuffled 2-3 times a second and
    each change restroked curves, a third of a redraw's own CPU. ``clock``: seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last = -math.inf

    def due(self, running: bool, force: bool = False) -> bool:
        """Whether this redraw chooses (and, if so, the next choice counts from now)."""
        now = self.clock()
        if force or not running or now - self.last >= CHOOSE_EVERY_S:
            self.last = now
            return True
        return False

    def expire(self) -> None:
        """The next redraw chooses (a view now draws another set or face)."""
        self.last = -math.inf


class RunControl:
    """The single run of a :class:`~.run_window.RunWindow` (``window``, typed loosely: its
    module imports this one). ``thread``: the run, ``None`` between runs; ``timer``: the
    redraw timer, which the window starts once its views are built. The window's hooks
    (``new_solver``, ``run_started``, ``before_stepping``, ``draw``,
    ``show_compare_status``) fill in what differs between the families."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.thread: SolverThread | None = None
        self.prepared: Solver | None = None  # built by show_game for restart to run
        self.seen_version = -1  # the snapshot drawn; -1 draws the next tick
        self.timer = QTimer(window)
        self.timer.timeout.connect(self._tick)
        self._tick_started = 0.0
        self._parts: Iterator[None] | None = None  # the tick's redraw parts not drawn yet
        self._redraw_ms = 0.0  # smoothed time of a redraw and its repaint
        self.choices = ChoiceClock()  # a big game's actions drawn: chosen anew when due
        # what else a picture of the window waits for (the tree window's nearest equilibrium
        # to a paused run's average): each True while it is not ready
        self.waits: list[Callable[[], bool]] = []

    def restart(self, run: bool | None = None) -> None:
        """Stop any run and start a fresh solver on the current game and settings (the one
        :meth:`~.run_window.RunWindow.show_game` built, if it is for this game); it runs if
        ``run`` is True, or, when ``run`` is None, if the run it replaces was running."""
        window = self.window
        if run is None:
            run = self.thread is not None and self.thread.loop.running
        window.sessions.catch_up = None
        self.stop()
        prepared, self.prepared = self.prepared, None
        try:
            if prepared is not None and prepared.game is window.document.game:
                solver = prepared
            else:
                solver = window.new_solver(window.document.game)
        except RmvizError as error:
            window.show_error(str(error))
            return
        self.thread = SolverThread(solver, points_per_decade=window.panel.points_per_decade())
        loop = self.thread.loop
        loop.set_speed(window.panel.speed_limit())
        # the repaint this change queued comes first; then the fresh run records its points
        loop.gui_drawing(True)
        QTimer.singleShot(1, lambda: loop.gui_drawing(False))
        self.thread.start()
        self.seen_version = -1
        self.choices.expire()  # the fresh run's first redraw chooses
        window.compare.set_game(window.document.game, window.panel.config())
        if self.comparing():
            window.compare.activate()
        window.run_started(solver)
        if run and not self.comparing():
            window.before_stepping()
            self.thread.loop.run()
        self.update_buttons()

    def reset(self) -> None:
        """A fresh run at iteration 0, paused (*Reset*, Ctrl+R)."""
        self.restart(run=False)

    def toggle(self) -> None:
        """Run or pause the visible tab's solvers (Space)."""
        if self.comparing():
            self.window.compare.toggle_run()
            return
        if self.thread is None:
            return
        self.window.sessions.cancel_catch_up()
        loop = self.thread.loop
        if loop.running:
            loop.pause()
        else:
            self.window.before_stepping()
            loop.run()
        self.update_buttons()

    def step(self, iterations: int) -> None:
        """Run exactly ``iterations`` more iterations, then pause."""
        if self.thread is not None:
            self.window.sessions.cancel_catch_up()
            self.window.before_stepping()
            self.thread.loop.step(iterations)
            self.update_buttons()

    def apply_speed(self) -> None:
        """The panel's speed limit, on the run."""
        if self.thread is not None:
            self.thread.loop.set_speed(self.window.panel.speed_limit())

    def comparing(self) -> bool:
        """Whether *Compare algorithms* is the visible tab."""
        return bool(self.window.tabs.currentWidget() is self.window.compare)

    def tab_changed(self) -> None:
        """One tab runs at a time, so the other does not take its CPU."""
        if self.comparing():
            self.window.compare.activate()
            if self.thread is not None:
                self.thread.loop.pause()
        else:
            self.window.compare.pause()
        self.update_buttons()

    def update_buttons(self) -> None:
        """*Run* or *Pause*, as the run is."""
        self.window.controls.show_running(self.thread is not None and self.thread.loop.running)

    def stop(self) -> None:
        """Shut the run's thread down (idempotent); a tick's parts not drawn yet are dropped."""
        self._drop_parts()
        if self.thread is not None:
            self.thread.shutdown()
            self.thread = None

    def _report_run_error(self) -> None:
        """Show (once) the error that stopped the worker's run (a game too large for memory,
        an exception from deep inside the solver): the run is paused, the button says *Run*
        again before the message shows, and the game, its edits and the trace are kept."""
        message = self.thread.loop.take_error() if self.thread is not None else None
        if message:
            self.update_buttons()
            self.window.show_error(message)

    # -- drawing -------------------------------------------------------------------------------
    def _tick(self) -> None:
        """The redraw timer's slot: draws the first part of the redraw, and the others each
        after the repaint of the one before (:meth:`_next_part`). Redrawing and the repaints
        it causes take the GUI thread for a while (C, smoothed over recent ticks); the timer
        then waits at least 1.5 C. A tick while the last one's parts are still being drawn
        (a slow repaint) is skipped."""
        if self._parts is not None:
            return
        self._tick_started = time.perf_counter()
        for loop in self.loops():
            loop.gui_drawing(True)
        self.window.status_line.show_preparing(compiling_kernels())
        self.window.sessions.follow_catch_up()
        self._parts = self._drawing()
        self._next_part(self._parts)

    def _next_part(self, parts: Iterator[None]) -> None:
        """Draw the next of ``parts`` unless a redraw, a new run or a stop dropped them. A
        1 ms timer fires after the posted (low-priority) repaint the part queued, and after
        the clicks and timers due; a 0 ms one would be a posted call and run before the
        repaint. The window is its context: closed and deleted within that millisecond,
        the call is dropped (not made on a deleted QTabWidget, as tests/ui/test_app.py saw
        now and then)."""
        if parts is not self._parts:
            return
        self._parts = None  # until this part is drawn: an error in it ends the redraw
        try:
            next(parts)
        except StopIteration:
            QTimer.singleShot(1, self.window, self._pace)
            return
        self._parts = parts
        QTimer.singleShot(1, self.window, lambda: self._next_part(parts))

    def _drop_parts(self) -> None:
        """Drop the parts of a tick not drawn yet (their trace is stale, or their views are
        about to be rebuilt): their snapshot is not drawn whole, so the next redraw draws."""
        if self._parts is not None:
            self._parts = None
            self.seen_version = -1
            self._pace()

    def _pace(self) -> None:
        for loop in self.loops():
            loop.gui_drawing(False)
        cost_ms = (time.perf_counter() - self._tick_started) * 1000
        self._redraw_ms = 0.7 * self._redraw_ms + 0.3 * cost_ms
        self.timer.setInterval(max(self.window.redraw_ms, min(500, round(1.5 * self._redraw_ms))))

    def preparing(self) -> bool:
        """Whether a run of the visible tab waits for its solver's first step (compiling its
        kernels, on a first start; or a large game's first iteration), or the window for
        one of its :attr:`waits`: what ``--screenshot`` and a deck's slides wait for."""
        return any(loop.warming_up() for loop in self.loops()) or any(wait() for wait in self.waits)

    def loops(self) -> list[RunLoop]:
        """The run loops drawn now (the single run's, or compare mode's)."""
        if self.comparing():
            return [thread.loop for thread in self.window.compare.threads.values()]
        return [self.thread.loop] if self.thread is not None else []

    def redraw(self, force: bool = False) -> None:
        """Draw the visible tab from the newest snapshot, if there is a new one (or
        ``force``), at once; a tick's parts not drawn yet are dropped."""
        self._drop_parts()
        for _ in self._drawing(force):
            pass

    def drawn(self) -> bool:
        """Whether the single run's newest snapshot is drawn, every part of its redraw."""
        if self._parts is not None or self.thread is None:
            return False
        return self.seen_version == self.thread.loop.latest()[0]

    def _drawing(self, force: bool = False) -> Iterator[None]:
        """The parts of a redraw (:meth:`~.run_window.RunWindow.draw`)."""
        if self.comparing():
            self.window.compare.redraw()
            self.window.show_compare_status()
            return
        if self.thread is None:
            return
        loop = self.thread.loop
        version, snapshot = loop.latest()
        self.update_buttons()
        if version != self.seen_version or force:
            self.seen_version = version
            yield from self.window.draw(loop, snapshot, force)
        self._report_run_error()  # last: its dialog runs a nested event loop

    def shutdown(self) -> None:
        """Stop the redraw timer and the run (idempotent)."""
        self.timer.stop()
        self.stop()
