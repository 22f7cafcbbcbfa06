"""Session files in the windows: *File > Save Session...* and *Open Session...*, also opened
through *Open...*, a dropped file and ``rmviz FILE``. A window holds a :class:`SessionFiles`,
which saves the game, the panel's settings, the cadence and speed, the iteration reached and
the view (:mod:`rmviz.runner.session`; windows add to the view: simplex faces, the *Step*
and *Equilibria* tabs, the information set, the last recorded iteration) and the run itself
(the solver's state and the trace). Reopening shows the settings and the game as one
undoable edit that is not "modified" and puts the run back where it was, paused, at once
(the tree window records its last *Step 1* again). A session saved without its run (older
files) re-runs the deterministic solver to the saved iteration in the worker thread instead
(:class:`CatchUp`; the status bar counts, and the session's ``notices`` stay there after);
running, stepping or resetting meanwhile hands the run back to the person.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from rmviz.errors import RmvizError
from rmviz.runner.loop import RunLoop
from rmviz.runner.session import SUFFIX, Session, read_session, session_path, write_session
from rmviz.runner.trace import SavedRun, Trace
from rmviz.solvers.checkpoint import NotCapturable
from rmviz.solvers.protocol import Solver
from rmviz.ui.common.messages import PREPARING, REPLAYING, describe

SESSION_FILTER = f"rmviz sessions (*{SUFFIX})"


@dataclass(frozen=True)
class CatchUp:
    """A reopened session's run stepping to where it was saved: the worker steps to
    ``target``; ``final`` is the saved iteration (one more when the last iteration is
    recorded again on the GUI thread: ``recorded``)."""

    target: int
    final: int
    recorded: bool
    notes: tuple[str, ...] = ()  # what of the session could not be shown as saved


class SessionFiles:
    """Session files for a :class:`~.run_window.RunWindow` (``window``, typed loosely: its
    module imports this one): it uses the window's ``document``, ``panel``, ``run``, its
    view (``view_state``, ``apply_view``), its hooks and messages. The window's
    ``RECORDS_STEPS``: *Step 1* records the iteration it runs (the tree window), so a
    session saved just after one records it again."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.catch_up: CatchUp | None = None  # a reopened session's run on its way

    def session(self) -> Session:
        """The session as it stands: the game, the panel's settings, the iteration reached
        (where a reopened session is on its way to, while it is: then without its run), the
        view and the run (after a recorded *Step 1*: the run before it, which reopening
        steps again)."""
        window = self.window
        view = window.view_state()
        iteration, saved = 0, None
        if self.catch_up is not None:
            iteration = self.catch_up.final
        elif window.run.thread is not None:
            loop = window.run.thread.loop
            saved = window.recorded_from if view.recorded else _saved_run(loop)
            iteration = loop.latest()[1].iteration
            if saved is not None:
                iteration = saved.checkpoint.iteration + int(view.recorded)
        return Session(
            window.document.game,
            window.panel.config(),
            iteration,
            window.panel.points_per_decade(),
            window.panel.speed_limit(),
            view,
            saved=saved,
            compared_runs=window.compare.saved_runs() if self.catch_up is None else {},
        )

    def save(self, path: str | Path) -> bool:
        """Write the session to ``path`` (the session suffix added if it lacks it). A game
        with no file of its own is saved with it: it is no longer "modified"."""
        window = self.window
        target = session_path(path)
        if not window.attempt(lambda: write_session(self.session(), target)):
            return False
        if window.document.path is None and not window.read_only:
            window.document.mark_saved()
        window.statusBar().showMessage(f"session saved to {target.name}", 5000)
        return True

    def save_dialog(self) -> None:
        start = session_path(self.window.document.game.title.replace("/", "-") or "session")
        path, _ = QFileDialog.getSaveFileName(self.window, "Save session", str(start), SESSION_FILTER)
        if path:
            self.save(path)

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Open session", "", SESSION_FILTER)
        if path:
            self.open(path)

    def open(self, path: str | Path) -> bool:
        """Open a session file: here when its game is of this window's family, else in a
        window of its family. A file that cannot be read or shown says why (naming it) and
        changes nothing."""
        path = Path(path)
        try:
            session = read_session(path)
        except Exception as error:  # as in open_file: a message, never a dead window
            self.window.show_error(describe(error, path))
            return False
        if not self.window.shows(session.game):
            other = self.window.open_elsewhere(session.game)  # a RunWindow, or None
            return other is not None and bool(other.sessions.reopen_session(session, path))
        return self.reopen_session(session, path)

    def reopen_session(self, session: Session, path: Path | None = None) -> bool:
        """:meth:`reopen` showing any error as a message; False then."""
        try:
            self.reopen(session, path)
        except RmvizError as error:
            self.window.show_error(str(error))
            return False
        return True

    def reopen(self, session: Session, path: Path | None = None) -> None:
        """Show ``session`` (of this window's family): its settings in the panel, its game as
        one undoable edit that is not "modified", its view; then re-run the solver to the
        saved iteration in the worker thread, at full speed whatever the speed saved, and
        pause there (:meth:`follow_catch_up`). Raises an :class:`RmvizError` naming the
        file when the session's settings do not fit its game; the window is then as it
        was (the window's ``prepare_session`` undone too)."""
        undo = self.window.prepare_session(session.game)
        try:
            self._reopen(session, path)
        except Exception:
            undo()
            raise

    def _reopen(self, session: Session, path: Path | None) -> None:
        window, panel = self.window, self.window.panel
        name = path.name if path is not None else "session"
        before = panel.config(), panel.points_per_decade(), panel.speed_limit()
        tracked = window.last_iterate
        try:
            notes = panel.set_config(session.config)
            window.keep_last_iterate(session.view.last_iterate)
            solver = window.new_solver(session.game)
            unfit = None if session.saved is None else _unfit(solver, session.saved)
            if unfit is not None:
                notes.append(f"{unfit}: re-running it")
                session = dataclasses.replace(session, saved=None)
        except Exception as error:  # the window stays as it was
            panel.set_config(before[0])
            window.keep_last_iterate(tracked)
            raise RmvizError(describe(error, path)) from None
        cadence = panel.set_cadence(session.points_per_decade)
        speed = panel.set_speed(session.speed)
        notes += [note for note in (cadence, speed) if note]
        notes += session.notices
        if session.saved is None and session.view.script:
            notes.append("its run is re-run with random draws where the Step tab chose them")
        run = window.run
        if run.thread is not None:
            run.thread.loop.pause()  # the fresh run starts paused
        if window.document.game is session.game:  # the window opened on it (rmviz SESSION_FILE)
            window.document.mark_opened(None)
        elif not window.show_game(session.game, f"Open {name}", solver=solver):
            panel.set_config(before[0])
            panel.set_cadence(before[1])
            panel.set_speed(before[2])
            window.keep_last_iterate(tracked)
            raise RmvizError(f"{name}: the session's game cannot be shown")
        if run.thread is None or run.thread.loop.solver is not solver:
            run.prepared = solver  # the session's run, paused at iteration 0
            run.restart(run=False)
        assert run.thread is not None
        if session.saved is not None:
            run.thread.loop.restore(session.saved)
        window.compare.saved = dict(session.compared_runs)  # put back as the tab builds them
        notes += window.apply_view(session.view)
        recorded = session.view.recorded and window.RECORDS_STEPS and session.iteration > 0
        self.catch_up = CatchUp(session.iteration - int(recorded), session.iteration, recorded, tuple(notes))
        run.thread.loop.set_speed(None)
        if self.catch_up.target > run.thread.loop.solver.iteration:
            window.before_stepping()
            run.thread.loop.step(self.catch_up.target - run.thread.loop.solver.iteration)
        run.update_buttons()
        self.follow_catch_up()

    def follow_catch_up(self) -> None:
        """Each tick while a reopened session's run steps to its iteration: count in the
        status bar; once there, the panel's speed again and, where the last iteration was
        recorded, record it again. A run the person ran, stepped or reset meanwhile is
        left alone."""
        catch_up, thread = self.catch_up, self.window.run.thread
        if catch_up is None or thread is None:
            return
        loop = thread.loop
        bar = self.window.statusBar()
        notes = "".join(f"; {note}" for note in catch_up.notes)
        if loop.busy:
            if bar.currentMessage() != PREPARING:
                done = loop.latest()[1].iteration
                bar.showMessage(f"{REPLAYING}: iteration {done:,} of {catch_up.final:,}…{notes}")
            return
        self.cancel_catch_up()
        if loop.latest()[1].iteration == catch_up.target:
            if catch_up.recorded:
                self.window.step_one()
            bar.showMessage(f"Session restored at iteration {catch_up.final:,}{notes}", 10_000)

    def catch_up_progress(self) -> tuple[int, int] | None:
        """While a reopened session's run is on its way: the iteration it reached and the
        one it steps to; None otherwise."""
        thread = self.window.run.thread
        if self.catch_up is None or thread is None:
            return None
        return thread.loop.latest()[1].iteration, self.catch_up.target

    def catching_up(self) -> bool:
        """Whether a reopened session's run is still on its way to the saved iteration."""
        return self.catch_up is not None

    def cancel_catch_up(self) -> None:
        """Stop following a reopened session's run (the person took over): the panel's speed
        applies again, and the count in the status bar gives way to the session's notes."""
        if self.catch_up is not None:
            notes = self.catch_up.notes
            self.catch_up = None
            self.window.run.apply_speed()
            bar = self.window.statusBar()
            if bar.currentMessage().startswith(REPLAYING):
                bar.clearMessage()
                if notes:
                    bar.showMessage("; ".join(notes), 10_000)


def _saved_run(loop: RunLoop) -> SavedRun | None:
    """The loop's run to save, or None where its state cannot be (a CuPy generator)."""
    try:
        return loop.saved_run()
    except NotCapturable:
        return None


def _unfit(solver: Solver, saved: SavedRun) -> str | None:
    """Why ``saved`` cannot be put back into ``solver`` (a fresh one, put back after the
    check) though the run can be re-run, or None when it fits: its solver state where the
    solver's own cannot be captured (a CuPy generator), its trace where an older version kept
    other columns (before the last iterate's). Raises when the state does not fit the game
    and algorithm."""
    try:
        fresh = solver.checkpoint()
    except NotCapturable:
        return "its solver state cannot be restored on this device"
    solver.restore(saved.checkpoint)
    solver.restore(fresh)
    try:
        Trace(solver.columns).restore(saved.trace_iterations, saved.trace_rows)
    except ValueError:
        return "its trace has the columns of another version"
    return None
