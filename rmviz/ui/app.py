"""Start the desktop app: ``rmviz [GAME] [--presentation] [--size WxH] [--screenshot FILE
--after SECONDS]``.

:data:`WINDOWS` is the one table from game family (:func:`rmviz.solvers.registry.family_of`)
to window class. A :class:`WindowRegistry` opens every window from it, the first one and
those a window asks for (a tree file opened in the matrix window, a tree's reduced strategic
form): each window is given the registry as its :class:`~rmviz.ui.common.opener.Opener`, so
the families' windows never import each other. The registry owns the open windows and shuts
them down when the app ends.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from rmviz.errors import RmvizError
from rmviz.solvers.registry import family_of
from rmviz.ui.common.run_window import RunWindow, StartOptions
from rmviz.ui.matrix.window import MatrixWindow
from rmviz.ui.tree.window import TreeWindow

# game family name -> the window that shows its games
WINDOWS: Mapping[str, type[RunWindow]] = {"matrix": MatrixWindow, "tree": TreeWindow}


class WindowRegistry:
    """Opens a window of the right class for any game and keeps the open ones.

    ``options`` are extra keyword arguments per family name for the windows it opens (a
    screenshot run gives its windows a scratch autosave folder).
    """

    def __init__(
        self,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        windows: Mapping[str, type[RunWindow]] = WINDOWS,
    ) -> None:
        self.options = options or {}
        self.classes = windows
        self.windows: list[RunWindow] = []

    def window_class(self, game: Any) -> type[RunWindow]:
        """The class of the window that shows ``game``."""
        return self.classes[family_of(game).name]

    def open_game(self, game: Any, path: Path | None = None, read_only: bool = False) -> RunWindow:
        """Show ``game`` in a new window of its family's class (see
        :class:`~rmviz.ui.common.opener.Opener`); the window is deleted when it closes. A game
        the window cannot show is refused (RmvizError) before a window is built."""
        family = family_of(game)
        self.classes[family.name].check_game(game)
        window = self.classes[family.name](
            game, path, opener=self, read_only=read_only, **self.options.get(family.name, {})
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


def window_size(text: str) -> tuple[int, int]:
    """``--size``: ``WIDTHxHEIGHT`` in pixels, e.g. ``1280x720``."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (200 <= width <= 10_000 and 200 <= height <= 10_000):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height from 200 to 10000 pixels")
    return width, height


def app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rmviz", description="Open the rmviz desktop app.")
    parser.add_argument("game", nargs="?", default="rps-crash", help="a catalog id, a file or a random: spec")
    parser.add_argument("--screenshot", type=Path, help="save a PNG of the whole window, then quit")
    parser.add_argument("--after", type=float, default=2.0, help="seconds of solving before the screenshot")
    parser.add_argument(
        "--compare", action="store_true", help="open compare mode with every algorithm running"
    )
    parser.add_argument("--presentation", action="store_true", help="start in presentation mode")
    parser.add_argument(
        "--size",
        type=window_size,
        metavar="WxH",
        help="the window's size in pixels, e.g. 1280x720 (presentation mode keeps it, not full screen)",
    )
    parser.add_argument(
        "--steps", type=int, default=0, help="game trees: recorded CFR iterations to show first"
    )
    parser.add_argument("--run", action="store_true", help="game trees: start running CFR")
    parser.add_argument("--infoset", help="game trees: the information set shown in the panel")
    return parser


def main(argv: list[str]) -> int:
    """Open the window on the game and run it (exit code of the Qt event loop)."""
    args = app_parser().parse_args(argv)
    from rmviz.formats import load_game

    try:
        game = load_game(args.game)
    except RmvizError as error:
        sys.stderr.write(f"rmviz: {error}\n")
        return 2
    # pyqtgraph's atexit clean-up (disabled in ui.common.style) garbage-collects Qt items while
    # Python finalises, which corrupted refcounts with PySide6 on Python 3.11 (bool_dealloc);
    # the windows are torn down explicitly below instead.
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("rmviz")
    # a screenshot run must not touch (or delete) the person's autosaved edits
    scratch = {"autosave_folder": Path(tempfile.mkdtemp())}
    options = {name: scratch for name in WINDOWS} if args.screenshot else {}
    registry = WindowRegistry(options)
    try:
        window = registry.open_game(game)
        window.start(
            StartOptions(
                compare=args.compare,
                presentation=args.presentation,
                restore=args.screenshot is None,
                steps=args.steps,
                run=args.run,
                infoset=args.infoset,
                size=args.size,
            )
        )
    except RmvizError as error:
        sys.stderr.write(f"rmviz: {error}\n")
        registry.shutdown()
        return 2
    if args.screenshot is not None:

        def shoot() -> None:
            window.redraw()
            if not window.grab().save(str(args.screenshot)):
                sys.stderr.write(f"rmviz: cannot write {args.screenshot}\n")
            window.document.mark_saved()  # nothing to confirm when quitting
            window.close()

        QTimer.singleShot(int(args.after * 1000), shoot)
    code = app.exec()
    registry.shutdown()
    app.processEvents()
    return code
