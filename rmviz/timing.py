"""The one timing loop of ``rmviz bench`` (:mod:`rmviz.bench`, :mod:`rmviz.bench_gpu`)."""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(run: Callable[[int], None], seconds: float, first: int = 1) -> float:
    """Iterations per second of ``run(n)``, doubling ``n`` until the budget is spent."""
    return rates(run, seconds, first)[0]


def rates(run: Callable[[int], None], seconds: float, first: int = 1) -> tuple[float, float]:
    """Iterations per second of ``run(n)`` in wall time and in this thread's CPU time,
    doubling ``n`` until the wall-time budget is spent."""
    run(first)  # warm-up (compilation, caches)
    n, done, elapsed, cpu = first, 0, 0.0, 0.0
    while elapsed < seconds:
        start, start_cpu = time.perf_counter(), time.thread_time()
        run(n)
        elapsed += time.perf_counter() - start
        cpu += time.thread_time() - start_cpu
        done += n
        n *= 2
    return done / elapsed, done / max(cpu, 1e-9)
