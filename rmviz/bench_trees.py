"""``rmviz bench``'s big-tree rows (issue 34): CFR per history per iteration, 10^5 to 10^7
histories, alternating beside simultaneous updates and two threads beside one.

Trees: :func:`rmviz.games.random_trees.binary_tree` (two players, imperfect information,
zero-sum payoffs) of 2^17, 2^20 and 2^23 histories. For each tree the four runs
(simultaneous and alternating on one thread, then on two) are measured in turn
:data:`ROUNDS` times, each keeping its least time, each from the state after :data:`WARM`
iterations (an alternating pass skips the subtrees that the others' zero probabilities cut
off, so its cost depends on the iterations); a row gives nanoseconds per history per
iteration in the process's CPU time (both threads' when two run) and in wall time, and the
ratios the targets name: alternating / simultaneous (<= 1.2) and one thread's wall time / two
threads' (>= 1.7 from 10^6 histories). The per-history bytes are the kernel's layout
(:func:`rmviz.solvers.tree.layout.layout_bytes`; <= 100). The runs of one tree give the same
iterates on one thread and on two (``tests/solvers/tree/test_layout.py``).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable

ROUNDS = 2
WARM = 10  # every run measures the iterations after these, from the same state
LEVELS = (16, 19, 22)  # 2^17 - 1, 2^20 - 1 and 2^23 - 1 histories


def _least(run: Callable[[], None], best: tuple[float, float]) -> tuple[float, float]:
    """``run``'s (CPU, wall) seconds, each the least of this run and ``best``."""
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return min(best[0], time.process_time() - cpu), min(best[1], time.perf_counter() - wall)


def bench_big_trees(budget: float, line: Callable[[str], None], levels: tuple[int, ...] = LEVELS) -> None:
    """The rows of the module docstring, one pair per binary tree of ``levels`` levels."""
    from rmviz.games.random_trees import binary_tree
    from rmviz.solvers.threads import configured_threads, set_threads
    from rmviz.solvers.tree.config import preset
    from rmviz.solvers.tree.layout import layout_bytes
    from rmviz.solvers.tree.solver import CFRSolver

    chosen = configured_threads()
    line()
    line(
        f"{'CFR on big trees, ns per history per iteration':<48}{'1 thread':>10}{'CPU':>7}"
        f"{'2 threads':>11}{'CPU':>7}{'1/2':>7}{'alt/sim':>9}{'bytes':>7}"
    )
    try:
        for count in levels:
            game = binary_tree(count)
            solvers = {
                updates: CFRSolver(game, preset("cfr", updates=updates))
                for updates in ("simultaneous", "alternating")
            }
            histories = solvers["simultaneous"].tree.n_nodes
            layout = solvers["simultaneous"].traversal
            assert layout is not None  # numba runs the benchmarks
            iterations = max(1, int(budget / (15e-9 * histories)))
            start = {}
            for updates, solver in solvers.items():
                solver.step(WARM)
                start[updates] = copy.deepcopy(solver.state)
            best = {(u, t): (float("inf"),) * 2 for u in solvers for t in (1, 2)}
            for _ in range(ROUNDS):
                for updates, solver in solvers.items():
                    for threads in (1, 2):
                        set_threads(threads)
                        solver.state = copy.deepcopy(start[updates])  # the same iterations
                        best[updates, threads] = _least(
                            lambda s=solver, n=iterations: s.step(n), best[updates, threads]
                        )
            per = 1e9 / (iterations * histories)
            bytes_per = layout_bytes(layout.tree) / histories
            for updates in solvers:
                (cpu1, wall1), (cpu2, wall2) = best[updates, 1], best[updates, 2]
                ratio = best[updates, 1][0] / best["simultaneous", 1][0]
                line(
                    f"{f'binary tree, {histories:,} histories, {updates}':<48}{wall1 * per:10.1f}"
                    f"{cpu1 * per:7.1f}{wall2 * per:11.1f}{cpu2 * per:7.1f}{wall1 / wall2:6.2f}x"
                    f"{ratio:8.2f}x{bytes_per:7.1f}"
                )
            del game, solvers, layout
    finally:
        set_threads(chosen)
    line(f"  (iterations {WARM + 1} on; 1/2: one thread's wall time / two threads'; alt/sim: CPU per")
    line("   iteration, alternating / simultaneous on one thread; bytes: the kernel's layout per history)")
