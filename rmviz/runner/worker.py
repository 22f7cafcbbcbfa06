"""The worker thread (Qt) that serves a :class:`~rmviz.runner.loop.RunLoop`."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QThread

from rmviz.runner.loop import RunLoop


class SolverThread(QThread):
    """Runs ``RunLoop.serve`` off the GUI thread; :meth:`shutdown` stops and joins it."""

    def __init__(self, solver: Any, parent: Any = None) -> None:
        super().__init__(parent)
        self.loop = RunLoop(solver)

    def run(self) -> None:
        self.loop.serve()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the loop and wait for the thread; True when it ended in time."""
        self.loop.stop()
        return self.wait(timeout_ms)
