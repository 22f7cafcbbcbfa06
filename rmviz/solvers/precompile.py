"""Compile the numba kernels into the on-disk cache before they are needed, in parallel.

A kernel is compiled on its first call and cached on disk (:mod:`rmviz.solvers.jit`); the
first run of each kernel in a new install (or after an upgrade) waits for it: ~12 s idle,
70-80 s on a busy machine, for the largest. ``rmviz precompile`` compiles them all at once,
one group of kernels per process, so that the window's first run (in a classroom, say)
starts at once; the test suite's controller does the same before its workers start
(``tests/conftest.py``), so that its parallel workers load the kernels instead of each
compiling the same ones.

Each :data:`WORKLOADS` entry runs a solver for two iterations on a small catalog game and
takes a snapshot with its metrics: that compiles the kernels of its kind with the argument
types every run of that kind passes (the payoffs are read-only views, the regrets float64;
see :func:`.matrix.kernels.read_only`). The groups of :func:`groups` are balanced by the
compile times measured on this project's 2-core machine (seconds, idle).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from rmviz.errors import ConfigError
from rmviz.games.catalog import catalog_game
from rmviz.solvers.jit import AVAILABLE
from rmviz.solvers.registry import make_solver


def _run(game: str, algorithm: str, **options: Any) -> Callable[[], None]:
    def workload() -> None:
        solver = make_solver(catalog_game(game), algorithm, **options)
        solver.step(2)
        solver.snapshot()  # with its metrics (the tree's best responses are compiled)

    return workload


# what it compiles: (a run that compiles it, its compile seconds in one process, measured
# in that order into an empty cache on the idle 2-core machine)
WORKLOADS: dict[str, tuple[Callable[[], None], float]] = {
    "two-player expected play": (_run("rps", "rm"), 25.2),
    "two-player expected play, float32": (_run("rps", "rm", dtype="float32"), 12.3),
    "sampled play, three or more players, internal regret": (_run("rps", "rm", play="sampled"), 18.3),
    "CFR": (_run("kuhn", "cfr"), 4.2),
    "Monte-Carlo CFR, external and chance sampling": (_run("kuhn", "mccfr-external"), 6.3),
    "Monte-Carlo CFR, outcome sampling": (_run("kuhn", "mccfr-outcome"), 1.7),
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
    for name in names:
        WORKLOADS[name][0]()
    return time.perf_counter() - start


def precompile(jobs: int | None = None) -> float:
    """Compile (or load, when cached) every kernel, in ``jobs`` processes (default: the CPUs
    this process may use, at most one per group); the seconds it took."""
    if not AVAILABLE:
        return 0.0
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    start = time.perf_counter()
    split = groups(jobs)
    if len(split) == 1:
        compile_group(split[0])
    else:  # spawned, not forked: a fork of a process running Qt or threads is unsafe
        with ProcessPoolExecutor(len(split), mp_context=get_context("spawn")) as pool:
            list(pool.map(compile_group, split))
    return time.perf_counter() - start
