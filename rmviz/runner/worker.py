"""The worker thread that serves a :class:`~rmviz.runner.loop.RunLoop`.

A plain :class:`threading.Thread`, not a ``QThread``: the worker never touches Qt, and
``QThread.wait()`` blocks the GUI thread while holding the GIL, so the worker could not
reach the Python code that notices the stop and every shutdown ran into its time-out.
``Thread.join`` releases the GIL.
"""

from __future__ import annotations

import threading
from typing import Any

from rmviz.runner.loop import RunLoop


class SolverThread:
    """Runs ``RunLoop.serve`` off the GUI thread; :meth:`shutdown` stops and joins it."""

    def __init__(self, solver: Any, points_per_decade: int = 200) -> None:
        self.loop = RunLoop(solver, points_per_decade=points_per_decade)
        self._thread = threading.Thread(target=self.loop.serve, name="rmviz-solver", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def shutdown(self, timeout: float = 5.0) -> bool:
        """Stop the loop and join the thread; True when it ended in time. A loop whose solver
        is still in its first step (numba compiling the kernels, which nothing interrupts) is
        not waited for, so an edit made meanwhile does not freeze the window: its thread ends
        when the step returns."""
        warming_up = self.loop.warming_up()
        self.loop.stop()
        self._thread.join(0 if warming_up else timeout)
        return not self._thread.is_alive()
