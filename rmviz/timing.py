"""The one timing loop of ``rmviz bench`` (:mod:`rmviz.bench`, :mod:`rmviz.bench_gpu`)."""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(run: Callable[[int], None], seconds: float, first: int = 1) -> float:
    """Iterations per second of ``run(n)``, doubling ``n`` until the budget is spent."""
    run(first)  # warm-up (compilation, caches)
    n, done, elapsed = first, 0, 0.0
    while elapsed < seconds:
        start = time.perf_counter()
        run(n)
        elapsed += time.perf_counter() - start
        done += n
        n *= 2
    return done / elapsed
