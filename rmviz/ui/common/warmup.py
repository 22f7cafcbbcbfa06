"""The first start: every kernel a person can reach compiled once, in the background.

numba compiles a kernel at its first call (:mod:`rmviz.solvers.jit`), so a window that only
compiled what its first run needed compiled again, minutes later, at the first *Step N* of
the tree window (its run kernel: 10 s on an idle 2-core machine, more under load), at another
algorithm or play mode, or at the *Step* tab's first internal-regret iteration. On a first
start (no stamp of a complete compile in the cache, or a stamp of other sources or another
numba: :func:`rmviz.solvers.precompile.current`) the app starts :class:`Warmup`: every
group of :data:`~rmviz.solvers.precompile.WORKLOADS` compiles in a spawned process of its
own (numba compiling holds the GIL, so never in the window's process), one per CPU; once
all succeed the stamp is written, and later starts load the kernels. A warm-up that failed
(a process killed, the app quit first) leaves no stamp: the next start tries again.

:func:`preparing` is what the windows' status line shows as "Preparing the solvers (first
start only)...": the warm-up running, or a kernel compiling in this process now (numba's
``numba:compile`` event, which fires on a compile and never on a load from the cache). A
slow step that compiles nothing (a large game's first iteration) does not say so.
"""

from __future__ import annotations

import threading
from multiprocessing.process import BaseProcess
from typing import Any

from rmviz.solvers import precompile
from rmviz.solvers.jit import AVAILABLE


class Warmup:
    """The background compile of every kernel in ``jobs`` spawned processes (see the module
    docstring); thread-safe, Qt-free."""

    def __init__(self, jobs: int) -> None:
        self.processes: list[BaseProcess] = precompile.processes(jobs)
        self._compiled = precompile.fingerprint()  # the sources the processes will read
        self._done = threading.Event()
        self._stopped = False
        self.succeeded = False
        self._waiter = threading.Thread(target=self._wait, name="rmviz-warmup", daemon=True)

    def start(self) -> None:
        try:
            for process in self.processes:
                process.start()
        except OSError:  # no process can be started here: the kernels compile when reached
            self.stop()
            self._done.set()
            return
        self._waiter.start()

    def _wait(self) -> None:
        for process in self.processes:
            process.join()
        self.succeeded = not self._stopped and all(process.exitcode == 0 for process in self.processes)
        if self.succeeded:
            precompile.mark_current(self._compiled)
        self._done.set()

    def running(self) -> bool:
        return self._waiter.is_alive() and not self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the warm-up is over; whether it is."""
        return self._done.wait(timeout)

    def stop(self) -> None:
        """End the processes (the app quits before they are done; no stamp is left)."""
        self._stopped = True
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            if process.pid is not None:
                process.join()


_warmup: Warmup | None = None


def start_if_needed(jobs: int | None = None) -> Warmup | None:
    """Start the warm-up if the cache lacks a complete compile of these sources and this
    process has not started one (once a process); the warm-up, or None when nothing is to
    be compiled. ``jobs``: the processes (default: one per usable CPU)."""
    global _warmup
    if _warmup is not None:
        return _warmup
    if precompile.current():
        return None
    _warmup = Warmup(jobs if jobs is not None else precompile.usable_cpus())
    _warmup.start()
    return _warmup


def stop() -> None:
    """End a running warm-up (the app quits)."""
    if _warmup is not None:
        _warmup.stop()


def warming_up() -> bool:
    """Whether the background warm-up of this process is running."""
    return _warmup is not None and _warmup.running()


# -- compiling in this process ---------------------------------------------------------------
class _Compiling:
    """How many kernel compiles are under way in this process (numba's ``numba:compile``
    events; a kernel compiles the kernels it calls inside its own event, any thread)."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def on_start(self) -> None:
        with self._lock:
            self.count += 1

    def on_end(self) -> None:
        with self._lock:
            self.count -= 1


compiling = _Compiling()


def _listen() -> None:
    if not AVAILABLE:
        return
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, _event: Any) -> None:
            compiling.on_start()

        def on_end(self, _event: Any) -> None:
            compiling.on_end()

    event.register("numba:compile", Listener())


_listen()


def preparing() -> bool:
    """Whether kernels compile now: the background warm-up, or a compile in this process."""
    return warming_up() or compiling.count > 0
