"""Autosave: each window's unsaved edits in a file of its own, written off the GUI thread.

Every window has an :class:`Autosave`: one file in the autosave folder, named
``<date>-<time>-<pid>-<random>.json`` (rmviz JSON holds both game families), and a lock on
it (a ``QLockFile``, ``<file>.lock``) held for as long as the window lives. So two windows,
in one process or in two, never write, restore or delete each other's file.

Writing happens off the GUI thread, through :func:`~rmviz.formats.write_game_file`, which
is atomic: each write or removal runs on a short-lived thread that first waits for the one
asked before it, so they happen in order and no thread is left once they are done. The game
handed over is the document's game object itself: documents replace their game on every
edit and never change one in place (matrix payoffs are a read-only array, tree nodes are
rebuilt), so it is an immutable snapshot and the GUI thread never waits for it to be copied
or serialised (a 1000x1000 game takes seconds).

After a crash the file stays and its lock is stale (its process is gone): :func:`orphans`
finds such files, skipping those whose window is still alive in another process, and locks
each one while the person is asked whether to restore it.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QStandardPaths

from rmviz.formats import read_game_file, write_game_file

AUTOSAVE_MS = 20_000  # how often a window writes its unsaved edits


def default_folder() -> Path:
    """The person's autosave folder (beside the app's settings)."""
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(location) / "autosave"


def _lock(path: Path) -> QLockFile | None:
    """Take the lock of autosave file ``path`` without waiting; None when a live window (in
    this process or another) holds it. A lock left by a dead process is taken over."""
    lock = QLockFile(f"{path}.lock")
    lock.setStaleLockTime(0)  # stale only when its process is gone, however old it is
    return lock if lock.tryLock(0) else None


class Autosave:
    """The autosave file of one window in ``folder`` (created on the first write)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.path = folder / f"{stamp}-{os.getpid()}-{secrets.token_hex(4)}.json"
        self._lock: QLockFile | None = None
        self._written: Any = None  # the game last handed to a writer (None: no file)
        self._pending: list[Future[Any]] = []
        self._last: threading.Thread | None = None  # the thread of the last work asked

    def save(self, game: Any) -> None:
        """Write ``game`` (an immutable game object) in the background, unless it is the one
        written last."""
        if game is self._written:
            return
        if self._lock is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._lock = _lock(self.path)
        self._written = game
        self.then(lambda: write_game_file(game, self.path))

    def discard(self) -> None:
        """Remove the file: the edits are saved, undone or dropped."""
        if self._written is not None:
            self._written = None
            self.then(lambda: self.path.unlink(missing_ok=True))

    def then(self, action: Callable[[], object]) -> None:
        """Run ``action`` on a thread of its own once the work asked before it is done (not
        a daemon: the interpreter waits for it at exit)."""
        future: Future[Any] = Future()
        previous = self._last

        def run() -> None:
            if previous is not None:
                previous.join()
            try:
                future.set_result(action())
            except Exception as error:  # kept for take_error: the window tells the person
                future.set_exception(error)

        self._last = threading.Thread(target=run, name="rmviz-autosave")
        self._pending.append(future)
        self._last.start()

    def take_error(self) -> str | None:
        """Why the last finished write or removal failed, once; None if none did."""
        done = [future for future in self._pending if future.done()]
        self._pending = [future for future in self._pending if not future.done()]
        errors = [future.exception() for future in done if future.exception() is not None]
        return str(errors[-1]) if errors else None

    def wait(self, timeout: float | None = None) -> None:
        """Block until the work asked so far is done (tests and measurements)."""
        for future in list(self._pending):
            future.result(timeout)

    def close(self) -> None:
        """The window closes on purpose: remove the file and release the lock, after a write
        in progress (closing never waits for it). A window that ends without closing leaves
        both, as a crash would."""
        lock, self._lock = self._lock, None
        self.discard()
        if lock is not None:
            self.then(lock.unlock)


class Orphan:
    """An autosave file left by a window that died, locked while it is offered back."""

    def __init__(self, path: Path, lock: QLockFile) -> None:
        self.path, self._lock = path, lock

    def read(self) -> Any:
        """The game in the file (a ReadError, or any reader's exception, when damaged)."""
        return read_game_file(self.path)

    def drop(self) -> None:
        """Delete the file and release its lock (restored elsewhere, declined, unreadable)."""
        self.path.unlink(missing_ok=True)
        self._lock.unlock()

    def release(self) -> None:
        """Leave the file for a later session."""
        self._lock.unlock()


def orphans(folder: Path) -> Iterator[Orphan]:
    """The autosave files in ``folder`` whose window died (oldest first), each locked as it
    is yielded; files of windows alive in any process are skipped."""
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        lock = _lock(path)
        if lock is not None:
            yield Orphan(path, lock)
