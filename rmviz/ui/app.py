"""Start the desktop app: ``rmviz [GAME] [--screenshot FILE --after SECONDS]``."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from rmviz.errors import RmvizError


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
        "--steps", type=int, default=0, help="game trees: recorded CFR iterations to show first"
    )
    parser.add_argument("--run", action="store_true", help="game trees: start running CFR")
    parser.add_argument("--infoset", help="game trees: the information set shown in the panel")
    return parser


def main(argv: list[str]) -> int:
    """Open the window on the game and run it (exit code of the Qt event loop)."""
    args = app_parser().parse_args(argv)
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from rmviz.formats import load_game
    from rmviz.games.normal_form import NormalFormGame
    from rmviz.ui.main_window import MainWindow
    from rmviz.ui.tree_window import TreeWindow

    try:
        game = load_game(args.game)
    except RmvizError as error:
        sys.stderr.write(f"rmviz: {error}\n")
        return 2
    # pyqtgraph's atexit clean-up (disabled in ui.style) garbage-collects Qt items while Python
    # finalises, which corrupted refcounts with PySide6 on Python 3.11 (bool_dealloc); the
    # window is torn down explicitly below instead.
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("rmviz")
    # a screenshot run must not touch (or delete) the person's autosaved edits
    autosave = Path(tempfile.mkdtemp()) / "autosave.json" if args.screenshot else None
    if isinstance(game, NormalFormGame):
        window = MainWindow(game, autosave_path=autosave)
        window.show()
        if args.presentation:
            window.toggle_presentation()
        if args.compare:
            window.tabs.setCurrentWidget(window.compare)
            window.compare.toggle_run()
        if args.screenshot is None:
            window.offer_restore()
    else:
        window = TreeWindow(game)
        window.show()
        if args.infoset:
            labels = list(window.solver.tree.infoset_label)
            if args.infoset not in labels:
                sys.stderr.write(
                    f"rmviz: no information set {args.infoset!r}; there are {', '.join(labels[:20])}\n"
                )
                window.shutdown()
                return 2
            window.infosets.choose(labels.index(args.infoset))
        for _ in range(args.steps):
            window.step_recorded()
        if args.run:
            window.toggle_run()
    if args.screenshot is not None:

        def shoot() -> None:
            window.redraw()
            if not window.grab().save(str(args.screenshot)):
                sys.stderr.write(f"rmviz: cannot write {args.screenshot}\n")
            window.document.mark_saved()  # nothing to confirm when quitting
            window.close()

        QTimer.singleShot(int(args.after * 1000), shoot)
    code = app.exec()
    window.shutdown()
    window.deleteLater()
    app.processEvents()
    return code
