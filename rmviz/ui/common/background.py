"""Long work off the GUI thread, with a progress dialog that can stop it.

Building a game tree from OpenSpiel walks every history (about 10 microseconds each, most
of it in OpenSpiel's own calls), and reading a big .efg file takes about as long per
history: up to a million histories, seconds; on the GUI thread the window would freeze for
that long. :func:`run_with_progress` runs the work on a worker thread while a modal
progress dialog counts what is done and offers *Cancel*; the window keeps repainting.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QWidget

T = TypeVar("T")
SHOW_AFTER_MS = 400  # quick work shows no dialog
POLL_MS = 50


def run_with_progress(
    parent: QWidget, title: str, unit: str, work: Callable[[Callable[[int], bool]], T]
) -> T:
    """``work(progress)`` on a worker thread, where ``progress(count)`` reports ``count``
    ``unit`` done and returns False once the person pressed *Cancel* (``work`` then stops
    with an exception of its own). Returns ``work``'s result or raises its exception, here on
    the GUI thread, once it is done; the event loop runs meanwhile."""
    done = threading.Event()
    cancelled = threading.Event()
    count = [0]
    outcome: list[object] = []

    def progress(n: int) -> bool:
        count[0] = n
        return not cancelled.is_set()

    def body() -> None:
        try:
            outcome.append(work(progress))
        except BaseException as error:  # handed to the GUI thread, raised there
            outcome.append(error)
        finally:
            done.set()

    dialog = QProgressDialog(title, "Cancel", 0, 0, parent)
    dialog.setWindowTitle("rmviz")
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(SHOW_AFTER_MS)
    dialog.canceled.connect(cancelled.set)
    waiting = QEventLoop()
    timer = QTimer()

    started = time.perf_counter()

    def poll() -> None:
        if (
            not dialog.isVisible()
            and not cancelled.is_set()
            and time.perf_counter() - started > SHOW_AFTER_MS / 1000
        ):
            dialog.show()
        if count[0]:
            dialog.setLabelText(f"{title}\n{count[0]:,} {unit} so far")
        if done.is_set():
            waiting.quit()

    timer.timeout.connect(poll)
    threading.Thread(target=body, name="rmviz-background", daemon=True).start()
    timer.start(POLL_MS)
    if not done.is_set():
        waiting.exec()
    timer.stop()
    dialog.reset()
    dialog.deleteLater()
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    return result  # type: ignore[return-value]
