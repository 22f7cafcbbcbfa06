"""Game files in a window: *Open...* (a game file, a session file, a catalog or OpenSpiel
spec, a dropped file), *Save As...*. A :class:`GameFiles` shows a game of the window's
family in the window, as one undoable edit, and opens another family's in a window of its
own; a file that cannot be read or a game that cannot be shown says why and keeps the game
shown. A big .efg file is read behind a progress dialog that can stop it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog, QInputDialog

from rmviz.errors import RmvizError
from rmviz.formats import load_game, read_game_file, write_game_file
from rmviz.formats.openspiel import INSTALL_HINT, Cancelled, fitting_games, openspiel_game
from rmviz.formats.openspiel import PREFIX as OPENSPIEL_PREFIX
from rmviz.runner.session import is_session_file
from rmviz.ui.common.background import run_with_progress
from rmviz.ui.common.messages import describe

BIG_FILE_BYTES = 2 * 1024**2  # a .efg file this large (~50,000 histories) is read behind a progress dialog


class GameFiles(QObject):
    """The game files of a :class:`~.run_window.RunWindow` (``window``, typed loosely: its
    module imports this one). ``used`` carries the path of each file opened or saved (the
    matrix window's *Open Recent*)."""

    used = Signal(Path)

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        window.setAcceptDrops(True)  # the window hands a drop to :meth:`drop`

    def open(self, path: str | Path) -> bool:
        """Open a game file: a game of this window's family replaces the current one
        (undoable), another family's opens in its own window through the opener. A file
        that cannot be read, or a game that cannot be shown, shows a message and keeps the
        current game, whatever the exception. A session file opens as a session."""
        path = Path(path)
        window = self.window
        if is_session_file(path):
            opened = bool(window.sessions.open(path))
        else:
            try:
                game = self._read(path)
            except Cancelled:
                return False
            except Exception as error:  # a reader's own bug must not take the window down either
                window.show_error(describe(error, path))
                return False
            if not window.shows(game):
                opened = window.open_elsewhere(game, path) is not None
            else:
                opened = bool(window.show_game(game, f"Open {path.name}", path))
        if opened:
            self.used.emit(path)
        return opened

    def _read(self, path: Path) -> Any:
        """Read a game file; a big .efg file (seconds: about 4 microseconds per history) is
        read on a worker thread behind :func:`run_with_progress`'s dialog, which counts the
        histories read and can stop the reading."""
        try:
            big = path.suffix.lower() == ".efg" and path.stat().st_size > BIG_FILE_BYTES
        except OSError:  # read_game_file says what is wrong with the path
            big = False
        if not big:
            return read_game_file(path)
        return run_with_progress(
            self.window, f"Reading {path.name}", "histories", lambda progress: read_game_file(path, progress)
        )

    def open_dialog(self) -> None:
        window = self.window
        path, _ = QFileDialog.getOpenFileName(window, f"Open {window.FILE_KIND}", "", window.FILE_FILTER)
        if path:
            self.open(path)

    def open_spec(self, spec: str) -> bool:
        """Open the game a spec names (``openspiel:leduc_poker``, ``random:...``, a catalog id)
        as :meth:`open` opens a file: here or in a window of its family; a game that
        cannot be built shows a message and keeps the current one."""
        window = self.window
        try:
            if spec.startswith(OPENSPIEL_PREFIX):  # a walk of up to a million histories
                game = run_with_progress(
                    window,
                    f"Building {spec.removeprefix(OPENSPIEL_PREFIX)} from OpenSpiel",
                    "histories",
                    lambda progress: openspiel_game(spec, progress=progress),
                )
            else:
                game = load_game(spec)
        except Cancelled:
            return False
        except Exception as error:  # as in open: a message, never a dead window
            window.show_error(str(error) if isinstance(error, RmvizError) else f"{spec}: {error!r}")
            return False
        if not window.shows(game):
            return window.open_elsewhere(game) is not None
        return bool(window.show_game(game, f"Open {spec}"))

    def openspiel_dialog(self) -> None:
        """Choose one of OpenSpiel's games (type to search; parameters may follow the name:
        ``liars_dice(numdice=1,dice_sides=4)``) and open it."""
        names = fitting_games()
        if not names:
            self.window.show_error(f"OpenSpiel games need OpenSpiel; {INSTALL_HINT}")
            return
        start = names.index("kuhn_poker") if "kuhn_poker" in names else 0
        text, ok = QInputDialog.getItem(
            self.window,
            "OpenSpiel game",
            "Game (parameters in brackets, e.g. leduc_poker(players=2)):",
            names,
            start,
            True,
        )
        if ok and text.strip():
            self.open_spec(f"{OPENSPIEL_PREFIX}{text.strip()}")

    def save_dialog(self) -> None:
        window = self.window
        path, _ = QFileDialog.getSaveFileName(
            window, f"Save {window.FILE_KIND}", str(window.document.path or ""), window.FILE_FILTER
        )
        if path:
            self.save(path)

    def save(self, path: str | Path) -> bool:
        """Write the document's game to ``path`` (the format follows the extension)."""
        window = self.window
        if not window.attempt(lambda: write_game_file(window.document.game, path)):
            return False
        window.document.mark_saved(Path(path))
        self.used.emit(Path(path))
        return True

    def drop(self, event: QDropEvent) -> None:
        """A game or session file dropped on the window opens as through *Open...*."""
        urls = event.mimeData().urls()
        if urls:
            self.open(urls[0].toLocalFile())
