"""What the last iterate's distances cost on the metrics cadence (docs/algorithms.md, "The
last iterate"): one metrics evaluation with and without them, median of repeated calls.

* a 100 x 100 zero-sum matrix game under RM+: ``metrics()`` against the same call with
  ``last_iterate`` off (the last iterate is one expected-utility vector per player);
* Leduc under CFR+: ``metrics()`` against the same with the second best-response pass.

The rule (issue 31): on by default where the cost is small; a tree's best-response pass is
an option (off by default) when it makes a metrics evaluation more than ~1.3x as costly.

    python tests/benchmarks/last_iterate_cost.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import rmviz
from rmviz.solvers.registry import make_solver


def median_seconds(call: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(spec: str, algorithm: str, iterations: int, repeats: int) -> tuple[float, float, float]:
    """Seconds of one metrics evaluation without and with the last iterate, and of one
    iteration, after ``iterations`` iterations."""
    solver = make_solver(rmviz.load(spec), algorithm)
    solver.step(iterations)
    solver.last_iterate = False
    without = median_seconds(solver.metrics, repeats)
    solver.last_iterate = True
    with_last = median_seconds(solver.metrics, repeats)
    start = time.perf_counter()
    solver.step(iterations)
    return without, with_last, (time.perf_counter() - start) / iterations


def main() -> None:
    for spec, algorithm, iterations, repeats in (
        ("random:zero-sum:100x100:seed=1", "rm+", 1000, 300),
        ("leduc", "cfr+", 100, 30),
    ):
        without, with_last, iteration = measure(spec, algorithm, iterations, repeats)
        print(
            f"{spec} {algorithm}: metrics {without * 1e6:,.1f} us, with the last iterate "
            f"{with_last * 1e6:,.1f} us ({with_last / without:.2f}x); one iteration {iteration * 1e6:,.1f} us"
        )


if __name__ == "__main__":
    main()
