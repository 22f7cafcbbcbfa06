"""``rmviz deck FILE [--screenshot OUT.png] [--size WxH] [--slide N]``.

The deck is read and every slide checked before any window opens (a bad deck: one line,
exit status 2). The slides open in presentation mode with the presenter view
(:mod:`.presenter`). ``--screenshot out.png`` shows each slide in turn and, once its run has
reached its iteration (waited for, never a fixed time; a re-run that would take more than
:data:`rmviz.ui.app.MAX_REPLAY` seconds is refused as ``rmviz FILE --screenshot`` refuses
it), saves ``out-01.png``, ``out-02.png``, ..., then quits: exit status 0, or 2 when a slide
could not be shown or saved.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from rmviz import resources
from rmviz.errors import one_line
from rmviz.runner.deck import Deck, read_deck
from rmviz.ui import preflight
from rmviz.ui.app import WINDOWS, WindowRegistry, app_icon, replay_problem
from rmviz.ui.common import warmup
from rmviz.ui.common.run_window import RunWindow, save_picture
from rmviz.ui.deck.controller import DeckController
from rmviz.ui.deck.presenter import PresenterView
from rmviz.ui.options import HEADLESS_SIZE

POLL_MS = 50  # how often a screenshot run looks whether the slide is ready


def screenshot_files(out: Path, count: int) -> list[Path]:
    """``out.png`` -> ``out-01.png``, ``out-02.png``, ... (``count`` of them)."""
    width = max(2, len(str(count)))
    return [out.with_name(f"{out.stem}-{n:0{width}d}{out.suffix}") for n in range(1, count + 1)]


def run_deck(args: argparse.Namespace) -> int:
    """Open the deck ``args.deck`` (see the module docstring); the exit status."""
    if QApplication.instance() is None:
        plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
        problem = preflight.check(plugins, str(args.deck))
        if problem is not None:
            sys.stderr.write(problem + "\n")
            return 2
    deck = read_deck(args.deck)  # a ReadError: one line from the CLI, exit 2
    from rmviz.solvers.threads import reserve_cores

    reserve_cores(1)  # as rmviz GAME: the solver thread's BLAS leaves the GUI thread a core
    if args.slide is not None and args.slide > len(deck.slides):
        sys.stderr.write(f"rmviz: --slide {args.slide}: {args.deck} has {len(deck.slides)} slides\n")
        return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("rmviz")
    QGuiApplication.setDesktopFileName(resources.APP_ID)
    app.setWindowIcon(app_icon())
    headless = args.screenshot is not None
    options = (
        {family: {"autosave_folder": Path(tempfile.mkdtemp())} for family in WINDOWS} if headless else {}
    )
    registry = WindowRegistry(options)
    controller = DeckController(deck, registry, args.size or (HEADLESS_SIZE if headless else None))
    failed: list[str] = []
    if headless:
        _shoot(controller, screenshot_files(args.screenshot, len(deck.slides)), failed)
    else:
        warmup.start_if_needed()  # a first start compiles every kernel now, in the background
        presenter = PresenterView(controller)
        presenter.place()
        presenter.show()
        controller.show((args.slide or 1) - 1)
    code = app.exec()
    RunWindow.headless_errors = None
    warmup.stop()
    registry.shutdown()
    app.processEvents()
    return 2 if failed else code


def _shoot(controller: DeckController, files: list[Path], failed: list[str]) -> None:
    """Show every slide, wait until it is ready, save its window to its file; then quit."""
    deck: Deck = controller.deck

    def say(problem: str) -> None:
        failed.append(problem)
        sys.stderr.write(one_line(f"rmviz: {problem}") + "\n")

    controller.show_error = say  # what a dialog would say, printed: nobody is there
    RunWindow.headless_errors = say  # the slides' windows too, from their first moment
    started: list[float] = []

    def show(index: int) -> None:
        started[:] = [time.perf_counter()]
        if not controller.show(index):
            return finish()
        wait(index)

    def wait(index: int) -> None:
        window = controller.window
        assert window is not None
        if failed:
            return finish()
        if not controller.ready():
            progress = controller.progress()
            seconds = time.perf_counter() - started[0]
            problem = None if progress is None else replay_problem(*progress, seconds)
            if problem is not None:
                say(f"{deck.path}: slide {index + 1}: {problem}")
                return finish()
            QTimer.singleShot(POLL_MS, lambda: wait(index))
            return
        QApplication.processEvents()  # the slide's layout settled
        if not save_picture(window, files[index]):
            say(f"cannot write {files[index]}")
            return finish()
        if index + 1 < len(deck.slides):
            show(index + 1)
        else:
            finish()

    def finish() -> None:
        for window in controller.windows():
            window.document.mark_saved()  # nothing to confirm when quitting
            window.close()
        QApplication.quit()

    QTimer.singleShot(0, lambda: show(0))
