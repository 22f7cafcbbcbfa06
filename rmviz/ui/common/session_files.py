"""Session files in the windows: *File > Save Session...* and *Open Session...*.

:class:`SessionFiles` is the part of the :class:`~.run_window.RunWindow` template that
saves and reopens a whole session (:mod:`rmviz.runner.session`: the game, the solver
panel's settings, the metric cadence and speed, the iteration reached and the view). A
session file also opens through *Open...*, a dropped file and ``rmviz FILE``.

Reopening shows the settings in the panel and the game as one undoable edit that is not
"modified", then re-runs the solver to the saved iteration in the worker thread at full
speed, so the window stays usable (the status bar counts the iterations), and pauses there
(:class:`CatchUp`); the solvers are deterministic given the config and its seed, so the run
is where it was saved, array for array. Running, stepping or resetting meanwhile hands the
run back to the person. A window adds to what the view holds (:meth:`SessionFiles.view_state`,
:meth:`SessionFiles.apply_view`): the matrix window its simplex faces and *Step* tab, the
tree window its information set, side tab and the last recorded iteration, which is
recorded again.

What the person must know about the reopened run (a GPU run on the CPU, a cadence the panel
lacks, a Monte-Carlo session saved by an older rmviz that replays a new run: the session's
``notices``) stays in the status bar after the count while the run re-runs, after *Session
restored* once there, and on its own when the person takes the run over before.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QWidget

from rmviz.errors import RmvizError
from rmviz.runner.session import SUFFIX, Session, View, read_session, session_path, write_session
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
    """Session files for a :class:`~.run_window.RunWindow` (a mixin: it uses the window's
    ``document``, ``panel``, ``thread``, ``tabs``, ``run_tab``, ``compare``, its restart,
    stepping and messages). ``RECORDS_STEPS``: *Step 1* records the iteration it runs (the
    tree window), so a session saved just after one records it again."""

    RECORDS_STEPS = False
    _catch_up: CatchUp | None = None  # a reopened session's run on its way

    def tab_keys(self) -> dict[str, QWidget]:
        """The tabs by the name a session file gives them (windows add theirs)."""
        return {"run": self.run_tab, "compare": self.compare}

    def view_state(self) -> View:
        """What the window shows besides the run, for a session (windows add theirs)."""
        current = self.tabs.currentWidget()
        tab = next((key for key, widget in self.tab_keys().items() if widget is current), None)
        return View(
            tab=tab,
            presentation=self.presentation,
            text_steps=self.text_steps,
            compared=tuple(self.compare.checked()),
        )

    def apply_view(self, view: View) -> list[str]:
        """Show a session's ``view`` (windows add theirs); a tab this window lacks is ignored.
        Returns what could not be shown as saved (the status bar says it)."""
        self.compare.set_checked(
            list(self.family.compare_default if view.compared is None else view.compared)
        )
        widget = self.tab_keys().get(view.tab or "run")
        if widget is not None:
            self.tabs.setCurrentWidget(widget)
        if view.text_steps != self.text_steps:  # rebuilding the plots takes a while: only if it changes
            self.set_text_steps(view.text_steps)
        self.set_presentation(view.presentation)
        return []

    def session(self) -> Session:
        """The session as it stands: the game, the panel's settings, the iteration reached
        (where a reopened session is on its way to, while it is) and the view."""
        iteration = 0
        if self._catch_up is not None:
            iteration = self._catch_up.final
        elif self.thread is not None:
            iteration = self.thread.loop.latest()[1].iteration
        return Session(
            self.document.game,
            self.panel.config(),
            iteration,
            self.panel.points_per_decade(),
            self.panel.speed_limit(),
            self.view_state(),
        )

    def save_session(self, path: str | Path) -> bool:
        """Write the session to ``path`` (the session suffix added if it lacks it). A game
        with no file of its own is saved with it: it is no longer "modified"."""
        target = session_path(path)
        if not self.attempt(lambda: write_session(self.session(), target)):
            return False
        if self.document.path is None and not self.read_only:
            self.document.mark_saved()
        self.statusBar().showMessage(f"session saved to {target.name}", 5000)
        return True

    def save_session_dialog(self) -> None:
        start = session_path(self.document.game.title.replace("/", "-") or "session")
        path, _ = QFileDialog.getSaveFileName(self, "Save session", str(start), SESSION_FILTER)
        if path:
            self.save_session(path)

    def open_session_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open session", "", SESSION_FILTER)
        if path:
            self.open_session(path)

    def open_session(self, path: str | Path) -> bool:
        """Open a session file: here when its game is of this window's family, else in a
        window of its family. A file that cannot be read or shown says why (naming it) and
        changes nothing."""
        path = Path(path)
        try:
            session = read_session(path)
        except Exception as error:  # as in open_file: a message, never a dead window
            self.show_error(describe(error, path))
            return False
        if not self.shows(session.game):
            window = self.open_elsewhere(session.game)
            return isinstance(window, SessionFiles) and window.reopen_session(session, path)
        return self.reopen_session(session, path)

    def reopen_session(self, session: Session, path: Path | None = None) -> bool:
        """:meth:`reopen` showing any error as a message; False then."""
        try:
            self.reopen(session, path)
        except RmvizError as error:
            self.show_error(str(error))
            return False
        return True

    def reopen(self, session: Session, path: Path | None = None) -> None:
        """Show ``session`` (of this window's family): its settings in the panel, its game as
        one undoable edit that is not "modified", its view; then re-run the solver to the
        saved iteration in the worker thread, at full speed whatever the speed saved, and
        pause there (:meth:`_follow_catch_up`). Raises an :class:`RmvizError` naming the
        file when the session's settings do not fit its game; the window is then as it was."""
        name = path.name if path is not None else "session"
        before = self.panel.config(), self.panel.points_per_decade(), self.panel.speed_limit()
        try:
            notes = self.panel.set_config(session.config)
            solver = self.new_solver(session.game)
        except Exception as error:  # the window stays as it was
            self.panel.set_config(before[0])
            raise RmvizError(describe(error, path)) from None
        cadence = self.panel.set_cadence(session.points_per_decade)
        speed = self.panel.set_speed(session.speed)
        notes += [note for note in (cadence, speed) if note]
        notes += session.notices
        if self.thread is not None:
            self.thread.loop.pause()  # the fresh run starts paused
        if self.document.game is session.game:  # the window opened on it (rmviz SESSION_FILE)
            self.document.mark_opened(None)
        elif not self.show_game(session.game, f"Open {name}", solver=solver):
            self.panel.set_config(before[0])
            self.panel.set_cadence(before[1])
            self.panel.set_speed(before[2])
            raise RmvizError(f"{name}: the session's game cannot be shown")
        if self.thread is None or self.thread.loop.solver is not solver:
            self._prepared = solver  # the session's run, paused at iteration 0
            self.restart(run=False)
        assert self.thread is not None
        notes += self.apply_view(session.view)
        recorded = session.view.recorded and self.RECORDS_STEPS and session.iteration > 0
        self._catch_up = CatchUp(session.iteration - int(recorded), session.iteration, recorded, tuple(notes))
        self.thread.loop.set_speed(None)
        if self._catch_up.target > 0:
            self.before_stepping()
            self.thread.loop.step(self._catch_up.target)
        self._update_buttons()
        self._follow_catch_up()

    def _follow_catch_up(self) -> None:
        """Each tick while a reopened session's run steps to its iteration: count in the
        status bar; once there, the panel's speed again and, where the last iteration was
        recorded, record it again. A run the person ran, stepped or reset meanwhile is
        left alone."""
        catch_up = self._catch_up
        if catch_up is None or self.thread is None:
            return
        loop = self.thread.loop
        bar = self.statusBar()
        notes = "".join(f"; {note}" for note in catch_up.notes)
        if loop.busy:
            if bar.currentMessage() != PREPARING:
                done = loop.latest()[1].iteration
                bar.showMessage(f"{REPLAYING}: iteration {done:,} of {catch_up.final:,}…{notes}")
            return
        self.cancel_catch_up()
        if loop.latest()[1].iteration == catch_up.target:
            if catch_up.recorded:
                self.step_one()
            bar.showMessage(f"Session restored at iteration {catch_up.final:,}{notes}", 10_000)

    def catch_up_progress(self) -> tuple[int, int] | None:
        """While a reopened session's run is on its way: the iteration it reached and the
        one it steps to; None otherwise."""
        if self._catch_up is None or self.thread is None:
            return None
        return self.thread.loop.latest()[1].iteration, self._catch_up.target

    def catching_up(self) -> bool:
        """Whether a reopened session's run is still on its way to the saved iteration."""
        return self._catch_up is not None

    def cancel_catch_up(self) -> None:
        """Stop following a reopened session's run (the person took over): the panel's speed
        applies again, and the count in the status bar gives way to the session's notes."""
        if self._catch_up is not None:
            notes = self._catch_up.notes
            self._catch_up = None
            self._apply_speed()
            bar = self.statusBar()
            if bar.currentMessage().startswith(REPLAYING):
                bar.clearMessage()
                if notes:
                    bar.showMessage("; ".join(notes), 10_000)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """A dropped game or session file opens as through *Open...*."""
        urls = event.mimeData().urls()
        if urls:
            self.open_file(urls[0].toLocalFile())
