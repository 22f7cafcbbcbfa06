"""Start the desktop app: ``rmviz [GAME] [window options]`` (:mod:`.options`).

Before the ``QApplication`` exists, :func:`rmviz.ui.preflight.check` makes sure Qt can show a
window here (one line and exit status 2 if not, instead of Qt's abort); the app then carries
the rmviz icon and its desktop-file name (:mod:`rmviz.resources`). The options are checked
before that (:func:`rmviz.ui.options.parse_window_args`), and those the game's family has no
use for once the game is read: one line and exit status 2, before any window.

``--screenshot`` waits for the solvers to be ready and a reopened session's re-run, then
``--after`` seconds; it never waits for ever: a re-run that would take more than
:data:`MAX_REPLAY` seconds (estimated from its pace, or found so) is refused in one line, exit
status 2, as is a screenshot that cannot be written. Otherwise a first start (no complete
compile in the cache) compiles every kernel in the background (:mod:`.common.warmup`), ended
if the app quits first.

:data:`WINDOWS` is the one table from game family (:func:`rmviz.solvers.registry.family_of`)
to window class. A :class:`WindowRegistry` opens every window from it, the first one and
those a window asks for (a tree file opened in the matrix window, a tree's reduced strategic
form): each window is given the registry as its :class:`~rmviz.ui.common.opener.Opener`, so
the families' windows never import each other. The registry owns the open windows and shuts
them down when the app ends.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLibraryInfo, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QIcon, QPixmap
from PySide6.QtWidgets import QApplication

from rmviz import resources
from rmviz.errors import RmvizError, one_line
from rmviz.present.number_text import CENTURY, duration
from rmviz.solvers.family import Family
from rmviz.solvers.registry import MATRIX, TREE, FamilyTable, family_of
from rmviz.ui import preflight
from rmviz.ui.common import warmup
from rmviz.ui.common.run_window import RunWindow, StartOptions, save_picture
from rmviz.ui.matrix.window import MatrixWindow
from rmviz.ui.options import HEADLESS_SIZE, family_problem, parse_window_args
from rmviz.ui.tree.window import TreeWindow

if TYPE_CHECKING:
    from rmviz.runner.session import Session

# each game family's window, and the options that window alone uses
WINDOWS: FamilyTable[type[RunWindow]] = FamilyTable({MATRIX: MatrixWindow, TREE: TreeWindow})
WINDOW_OPTIONS: FamilyTable[tuple[str, ...]] = FamilyTable(
    {MATRIX: ("--field", "--field-step"), TREE: ("--steps", "--run", "--infoset")}
)

MAX_REPLAY = 3600.0  # seconds a screenshot waits for a reopened session's re-run, at most
ESTIMATE_AFTER = 2.0  # seconds of re-run before its pace is taken to estimate the rest


def replay_problem(done: int, target: int, seconds: float, limit: float = MAX_REPLAY) -> str | None:
    """Why a screenshot will not wait for a session's re-run that reached iteration ``done`` of
    ``target`` in ``seconds``: it took, or at its pace would take, more than ``limit`` seconds
    (the pace is taken after :data:`ESTIMATE_AFTER` seconds); None to wait on."""
    if done >= target:
        return None
    wait = (
        f"--screenshot waits for at most {duration(limit)}; "
        "open it without --screenshot (Space takes the run over)"
    )
    if seconds > limit:
        return f"re-running the session to iteration {target:,} took more than {duration(limit)}; {wait}"
    if seconds < ESTIMATE_AFTER or done <= 0:
        return None
    total = seconds * target / done
    if total <= limit:
        return None
    rate = done / seconds
    about = "" if total >= CENTURY else "about "  # "more than a century" takes no "about"
    return (
        f"re-running the session to iteration {target:,} would take {about}{duration(total)} here "
        f"({rate:,.0f} iterations per second); {wait}"
    )


class WindowRegistry:
    """Opens a window of the right class for any game and keeps the open ones.

    ``options`` are extra keyword arguments per family for the windows it opens (a
    screenshot run gives its windows a scratch autosave folder).
    """

    def __init__(
        self,
        options: Mapping[Family, Mapping[str, Any]] | None = None,
        windows: Mapping[Family, type[RunWindow]] = WINDOWS,
    ) -> None:
        self.options = options or {}
        self.classes = windows
        self.windows: list[RunWindow] = []

    def window_class(self, game: Any) -> type[RunWindow]:
        """The class of the window that shows ``game``."""
        return self.classes[family_of(game)]

    def open_game(self, game: Any, path: Path | None = None, read_only: bool = False) -> RunWindow:
        """Show ``game`` in a new window of its family's class (see
        :class:`~rmviz.ui.common.opener.Opener`); the window is deleted when it closes. (A
        game no window could show never gets here: the game model refuses it.)"""
        family = family_of(game)
        window = self.classes[family](
            game, path, opener=self, read_only=read_only, **self.options.get(family, {})
        )
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.windows.append(window)
        window.destroyed.connect(lambda _=None, w=window: self._forget(w))
        window.show()
        return window

    def _forget(self, window: RunWindow) -> None:
        if window in self.windows:
            self.windows.remove(window)

    def shutdown(self) -> None:
        """Stop every open window's timers and threads, and delete the windows."""
        for window in list(self.windows):
            window.shutdown()
            window.deleteLater()


def app_icon() -> QIcon:
    """The rmviz icon, every size (package data)."""
    icon = QIcon()
    for size in resources.ICON_SIZES:
        pixmap = QPixmap()
        pixmap.loadFromData(resources.icon_png(size), "PNG")
        icon.addPixmap(pixmap)
    return icon


def read_argument(argument: str) -> tuple[Any, Session | None]:
    """The game ``rmviz GAME`` opens and, for a session file, the session: its game, settings,
    iteration and view. Each of the session's notices (a replay that differs from the run
    saved) is one line on stderr; the window says it too, after the re-run. Raises the
    readers' :class:`~rmviz.errors.RmvizError`."""
    from rmviz.loading import load_with_progress
    from rmviz.runner.session import is_session_file, read_session

    if not is_session_file(argument):  # before any window: a big tree shows its progress line on stderr
        return load_with_progress(argument), None
    session = read_session(argument)
    for notice in session.notices:
        sys.stderr.write(f"rmviz: {argument}: {notice}\n")
    return session.game, session


def main(argv: list[str]) -> int:
    """Open the window on the game and run it (exit code of the Qt event loop; 2 when Qt
    cannot show a window here or the game cannot be read)."""
    args = parse_window_args(argv)
    # the solver thread's BLAS calls leave the GUI thread a core of its own
    from rmviz.solvers.threads import reserve_cores

    reserve_cores(1)
    if QApplication.instance() is None:
        problem = preflight.check(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)), args.game)
        if problem is not None:
            sys.stderr.write(problem + "\n")
            return 2
    try:
        game, session = read_argument(args.game)
    except RmvizError as error:
        sys.stderr.write(one_line(f"rmviz: {error}") + "\n")
        return 2
    problem = family_problem(args, family_of(game), WINDOW_OPTIONS)
    if problem is not None:
        sys.stderr.write(f"rmviz: {problem} (see rmviz --help)\n")
        return 2
    # pyqtgraph's atexit clean-up (disabled in ui.common.style) garbage-collects Qt items while
    # Python finalises, which corrupted refcounts with PySide6 on Python 3.11 (bool_dealloc);
    # the windows are torn down explicitly below instead.
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("rmviz")
    QGuiApplication.setDesktopFileName(resources.APP_ID)  # Wayland's app id, the taskbar's icon
    app.setWindowIcon(app_icon())
    # a screenshot run must not touch (or delete) the person's autosaved edits
    scratch = {"autosave_folder": Path(tempfile.mkdtemp())}
    headless = args.screenshot is not None or bool(args.export)  # nothing waits for a person
    options = {family: scratch for family in WINDOWS} if headless else {}
    failed: list[str] = []  # a headless run's one-line errors: exit status 2

    def say(problem: str) -> None:  # what a dialog would say, printed: nobody is there
        failed.append(problem)
        sys.stderr.write(one_line(f"rmviz: {problem}") + "\n")

    RunWindow.headless_errors = say if headless else None  # from the windows' first moment
    registry = WindowRegistry(options)
    try:
        window = registry.open_game(game)
        if session is not None:
            window.sessions.reopen(session, Path(args.game))
        window.start(
            StartOptions(
                compare=args.compare,
                presentation=args.presentation,
                restore=not headless,
                steps=args.steps or 0,
                run=args.run or args.solving,
                infoset=args.infoset,
                size=args.size or (HEADLESS_SIZE if headless else None),
                field=args.field or args.field_step is not None,
                field_step=args.field_step,
            )
        )
    except RmvizError as error:
        sys.stderr.write(one_line(f"rmviz: {error}") + "\n")
        registry.shutdown()
        return 2
    if not headless:  # a first start compiles every kernel now, in the background
        warmup.start_if_needed()
    else:

        def finish(problem: str | None = None) -> None:
            if problem is not None:
                say(problem)
            window.document.mark_saved()  # nothing to confirm when quitting
            window.close()

        def shoot() -> None:
            # one moment of the run for every figure and the screenshot: the run goes on
            # while they are written (three figures of one run read T = 8,126, 11,415, 12,235)
            run = window.export.run_data() if args.export else None
            if args.screenshot is not None and not save_picture(window, args.screenshot):
                say(f"cannot write {args.screenshot}")
            for figure, path in args.export or ():  # File > Export figure's own method
                window.export.figure(path, figure, run=run)
            finish()

        replay_started: list[float] = []

        def when_ready() -> None:
            # --after counts seconds of solving: not the first start's compiling, nor a
            # reopened session's re-run to its iteration (which it waits for, boundedly)
            if window.run.preparing():
                QTimer.singleShot(100, when_ready)
            elif window.sessions.catching_up():
                progress = window.sessions.catch_up_progress()
                if not replay_started:
                    replay_started.append(time.perf_counter())
                seconds = time.perf_counter() - replay_started[0]
                problem = None if progress is None else replay_problem(*progress, seconds)
                if problem is not None:
                    finish(f"{args.game}: {problem}")
                else:
                    QTimer.singleShot(100, when_ready)
            else:
                QTimer.singleShot(int(args.after * 1000), shoot)

        when_ready()
    code = app.exec()
    warmup.stop()  # unfinished: no stamp, the next start compiles again
    registry.shutdown()
    app.processEvents()
    RunWindow.headless_errors = None
    return 2 if failed else code
