"""Compile the numba kernels into the on-disk cache before they are needed, in parallel.

A kernel compiles on its first call (:mod:`rmviz.solvers.jit`; ~12 s idle, 70-80 s on a busy
machine, for the largest). ``rmviz precompile`` compiles them all at once, one group of
:data:`WORKLOADS` per process (:func:`groups`), so that the window's first run starts at
once; the test suite's controller does the same before its workers start
(``tests/conftest.py``). Each workload runs a solver on a small catalog game, which compiles
the kernels of its kind with the argument types every run of that kind passes. A complete
compile leaves a stamp (:func:`stamp_path`) holding the :func:`fingerprint` of what it
compiled; when the stamp is missing or stale (:func:`current`), the window's first start
compiles in background processes (:func:`processes`, :mod:`rmviz.ui.common.warmup`).
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from rmviz.errors import ConfigError
from rmviz.games.catalog import catalog_game
from rmviz.solvers import jit
from rmviz.solvers.jit import AVAILABLE, cache_dir
from rmviz.solvers.registry import make_solver

STAMP = "precompiled"  # the file in the cache that says a complete compile left it


def _run(game: str, algorithm: str, **options: Any) -> Callable[[], None]:
    def workload() -> None:
        solver = make_solver(catalog_game(game), algorithm, **options)
        solver.step(2)
        solver.snapshot()  # with its metrics (the tree's best responses are compiled)

    return workload


def _recorded(game: str, algorithm: str, then: Callable[[], None]) -> Callable[[], None]:
    """``then``, and an iteration recorded as the tree window's *Step N* records it (after
    ``then``): its NumPy passes call the correlation sums' kernel from Python, a compile of
    its own."""

    def workload() -> None:
        then()
        solver: Any = make_solver(catalog_game(game), algorithm)
        solver.step_recorded()

    return workload


def _explained(game: str, algorithm: str, then: Callable[[], None]) -> Callable[[], None]:
    """``then``, and an iteration of ``algorithm`` explained as the matrix window's *Step* tab
    explains it (after ``then``, whose kernels it loads)."""

    def workload() -> None:
        from rmviz.solvers.matrix.explain import Replay

        then()
        Replay(catalog_game(game), make_solver(catalog_game(game), algorithm).config).explain(2)

    return workload


# what it compiles: (a run that compiles it, its compile seconds in one process, measured
# in that order into an empty cache on the idle 2-core machine). A run of two iterations and
# a snapshot with its metrics compiles the kernels of its kind with the argument types every
# run of that kind passes (the payoffs are read-only views, the regrets float64; see
# matrix.kernels.read_only). The internal-regret entry also explains an iteration as the
# Step tab does: that calls the stationary distribution from Python, a kernel of its own
# (1.3 s; inside the run's kernel it is compiled inline).
WORKLOADS: dict[str, tuple[Callable[[], None], float]] = {
    "two-player expected play": (_run("rps", "rm"), 25.2),
    "two-player expected play, float32": (_run("rps", "rm", dtype="float32"), 12.3),
    "sampled play, three or more players, internal regret; the Step tab's": (
        _explained("rps", "internal-rm", _run("rps", "rm", play="sampled")),
        19.6,
    ),
    "CFR; the tree's Step N": (_recorded("kuhn", "cfr", _run("kuhn", "cfr")), 10.9),
    "Monte-Carlo CFR, external and chance sampling": (_run("kuhn", "mccfr-external"), 6.3),
    "Monte-Carlo CFR, outcome sampling": (_run("kuhn", "mccfr-outcome"), 1.7),
    "EFR's fixed points (internal deviations)": (_run("kuhn", "efr"), 0.8),
}


def groups(jobs: int) -> list[list[str]]:
    """:data:`WORKLOADS` in ``jobs`` groups of about equal compile time (longest first,
    each to the group with the least so far)."""
    if jobs < 1:
        raise ConfigError(f"precompile needs at least one process, not {jobs}")
    split: list[list[str]] = [[] for _ in range(min(jobs, len(WORKLOADS)))]
    totals = [0.0] * len(split)
    for name in sorted(WORKLOADS, key=lambda name: -WORKLOADS[name][1]):
        lightest = totals.index(min(totals))
        split[lightest].append(name)
        totals[lightest] += WORKLOADS[name][1]
    return split


def compile_group(names: list[str]) -> float:
    """Run the workloads ``names`` in this process; the seconds they took."""
    start = time.perf_counter()
    jit.load()  # numba first: a short run in a process without it would take the array code
    for name in names:
        WORKLOADS[name][0]()
    return time.perf_counter() - start


def usable_cpus() -> int:
    """The CPUs this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def precompile(jobs: int | None = None) -> float:
    """Compile (or load, when cached) every kernel, in ``jobs`` processes (default: the CPUs
    this process may use, at most one per group), and leave the stamp (:func:`mark_current`);
    the seconds it took."""
    if not AVAILABLE:
        return 0.0
    if jobs is None:
        jobs = usable_cpus()
    start = time.perf_counter()
    compiled = fingerprint()
    split = groups(jobs)
    if len(split) == 1:
        compile_group(split[0])
    else:  # spawned, not forked: a fork of a process running Qt or threads is unsafe
        with ProcessPoolExecutor(len(split), mp_context=get_context("spawn")) as pool:
            list(pool.map(compile_group, split))
    mark_current(compiled)
    return time.perf_counter() - start


def processes(jobs: int) -> list[BaseProcess]:
    """One spawned process (not started) per group of :func:`groups`: what the window starts
    to compile in the background, never in its own process (numba compiling holds the GIL),
    so that no kernel a person can reach (a figure, the tree's Step N, another algorithm, the
    *Step* tab) compiles later. Daemonic: they end with the process that started them."""
    context = get_context("spawn")
    return [context.Process(target=compile_group, args=(names,), daemon=True) for names in groups(jobs)]


# -- the stamp of a complete compile ------------------------------------------------------------
def fingerprint(root: Path | None = None) -> str:
    """What the kernels in the cache were compiled from: numba's and Python's versions, the
    machine, and each solver source's path, size and modification time (numba recompiles a
    kernel whose file changed); a frozen app's executable too (numba stamps its kernels with
    it). ``root``: the solver sources (default: :mod:`rmviz.solvers`)."""
    import numba

    root = root or Path(jit.__file__).resolve().parent
    parts = [numba.__version__, sys.version, platform.machine(), str(root)]
    sources = sorted(root.rglob("*.py"))
    if getattr(sys, "frozen", False):
        sources.append(Path(sys.executable))
    for path in sources:
        info = path.stat()
        parts.append(f"{path} {info.st_size} {info.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def stamp_path() -> Path:
    """The stamp a complete compile leaves in the cache (:func:`cache_dir`)."""
    return cache_dir() / STAMP


def current() -> bool:
    """Whether every kernel is in the cache, compiled from these sources (without numba there
    is nothing to compile)."""
    if not AVAILABLE:
        return True
    try:
        return stamp_path().read_text(encoding="utf-8").strip() == fingerprint()
    except OSError:
        return False


def mark_current(compiled: str | None = None) -> None:
    """Leave the stamp: every kernel is in the cache, compiled from the sources of the
    :func:`fingerprint` ``compiled`` (taken before the compile began; default: now). Best
    effort: a read-only cache says nothing, and the next start compiles, or loads, again."""
    try:
        stamp = compiled or fingerprint()
        path = stamp_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(stamp + "\n", encoding="utf-8")
    except OSError:
        pass
