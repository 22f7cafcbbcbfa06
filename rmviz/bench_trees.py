"""``rmviz bench``'s big-tree rows (issue 34): CFR per history per iteration, 10^5 to 10^7
histories, alternating beside simultaneous updates and two threads beside one.

Trees: :func:`rmviz.games.random_trees.binary_tree` (two players, imperfect information,
zero-sum payoffs) of 2^17, 2^20 and 2^23 histories. For each tree the runs (simultaneous and
alternating, on one thread and on two) are measured in turn :data:`ROUNDS` times, each
keeping its least time: the first iteration (uniform strategies) again and again, and the
iterations after :data:`WARM` from one state (a pass skips the subtrees below a move of
probability 0, so its cost depends on the iterations). A row gives nanoseconds per history
per iteration in wall time and in the process's CPU time (both threads' when two run), and
the ratios the targets name: alternating / simultaneous (<= 1.2) and one thread's wall time
/ two threads' (>= 1.7 from 10^6 histories); bytes are the kernel's layout per history
(:func:`rmviz.solvers.tree.layout.layout_bytes`; <= 100). One thread and two give the same
iterates (``tests/solvers/tree/test_layout.py``). Below each tree's rows, what the whole
process holds per history (:func:`process_bytes`, Linux): a child builds the tree, its CFR
solver, two iterations and a snapshot with metrics, and reports its resident set over the
one after its imports before the snapshot (``running``) and after it (``held``: with the
metrics' freed temporaries, kept for the next), its peak over that base (``peak``) and what
``tracemalloc`` counts (``traced``: NumPy's arrays and Python's objects, not what numba's
kernels allocate or the allocator keeps of freed temporaries).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROUNDS = 2
WARM = 10  # every run measures the iterations after these, from the same state
LEVELS = (16, 19, 22)  # 2^17 - 1, 2^20 - 1 and 2^23 - 1 histories


def _least(run: Callable[[], None], best: tuple[float, float]) -> tuple[float, float]:
    """``run``'s (CPU, wall) seconds, each the least of this run and ``best``."""
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return min(best[0], time.process_time() - cpu), min(best[1], time.perf_counter() - wall)


def bench_big_trees(budget: float, line: Callable[[str], None], levels: tuple[int, ...] = LEVELS) -> None:
    """The rows of the module docstring, four per binary tree of ``levels`` levels."""
    from rmviz.games.random_trees import binary_tree
    from rmviz.solvers.threads import configured_threads, set_threads
    from rmviz.solvers.tree.config import preset
    from rmviz.solvers.tree.layout import layout_bytes
    from rmviz.solvers.tree.solver import CFRSolver

    chosen = configured_threads()
    line()
    line(
        f"{'CFR on binary trees, ns per history per iteration':<52}{'1 thread':>10}{'CPU':>7}"
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
            traversal = solvers["simultaneous"].traversal
            assert traversal is not None  # numba runs the benchmarks
            iterations = max(1, int(budget / (15e-9 * histories)))
            # the first iteration (uniform strategies: nothing to skip), then those after WARM
            starts = {(u, 0): copy.deepcopy(solver.state) for u, solver in solvers.items()}
            for updates, solver in solvers.items():
                solver.step(WARM)
                starts[updates, WARM] = copy.deepcopy(solver.state)
            best = {(key, t): (float("inf"),) * 2 for key in starts for t in (1, 2)}
            for _ in range(ROUNDS):
                for (updates, warm), state in starts.items():
                    solver = solvers[updates]
                    for threads in (1, 2):
                        set_threads(threads)
                        best[(updates, warm), threads] = _least(
                            lambda s=solver, x=state, w=warm, n=iterations: _iterations(s, x, n, w),
                            best[(updates, warm), threads],
                        )
            per = 1e9 / (iterations * histories)
            bytes_per = layout_bytes(traversal.tree) / histories
            for updates, warm in starts:
                (cpu1, wall1), (cpu2, wall2) = best[(updates, warm), 1], best[(updates, warm), 2]
                ratio = cpu1 / best[("simultaneous", warm), 1][0]
                which = "iteration 1" if warm == 0 else f"from {WARM + 1}"
                line(
                    f"{f'{histories:,} histories, {updates}, {which}':<52}{wall1 * per:10.1f}"
                    f"{cpu1 * per:7.1f}{wall2 * per:11.1f}{cpu2 * per:7.1f}{wall1 / wall2:6.2f}x"
                    f"{ratio:8.2f}x{bytes_per:7.1f}"
                )
            del game, solvers, traversal
            memory = process_bytes(count)
            if memory is not None:
                running, held, peak, traced = (
                    memory[key] / histories for key in ("running", "held", "peak", "traced")
                )
                line(
                    f"  the process: running {running:.1f}, held {held:.1f}, peak {peak:.1f},"
                    f" traced {traced:.1f} B per history"
                )
    finally:
        set_threads(chosen)
    line("  (iteration 1: from uniform strategies, where a simultaneous pass skips nothing; 1/2: one")
    line("   thread's wall time / two threads'; alt/sim: CPU per iteration, alternating / simultaneous")
    line("   on one thread, the same iterations; bytes: the kernel's layout per history)")


_MEMORY_CHILD = r"""
import json, resource, sys, tracemalloc
sys.path.insert(0, sys.argv[2])
from rmviz.games.random_trees import binary_tree
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver

def resident():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))

CFRSolver(binary_tree(3), preset("cfr")).snapshot(metrics=True)  # the kernels, loaded before
base = resident()
tracemalloc.start()
solver = CFRSolver(binary_tree(int(sys.argv[1])), preset("cfr"))
solver.step(2)
running = resident() - base
solver.snapshot(metrics=True)
traced = tracemalloc.get_traced_memory()[0]
tracemalloc.stop()
held, peak = resident() - base, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - base
row = {"histories": solver.tree.n_nodes, "running": running, "held": held, "peak": peak, "traced": traced}
print(json.dumps(row))
"""


def process_bytes(levels: int, root: Path | None = None) -> dict[str, int] | None:
    """The bytes a CFR run on the binary tree of ``levels`` levels holds in a child process
    (``histories``, ``running``, ``held``, ``peak``, ``traced``: the module docstring), importing rmviz
    from ``root`` (default: this one's); None where the resident set cannot be read (not
    Linux) or no Python can run the child (the bundle: its executable is rmviz's)."""
    if not sys.platform.startswith("linux") or getattr(sys, "frozen", False):
        return None
    root = root or Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", _MEMORY_CHILD, str(levels), str(root)],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _iterations(solver: Any, state: Any, iterations: int, warm: int) -> None:
    """``iterations`` iterations from ``state``: the first iteration's, each from ``state``
    again (``warm`` 0), or the iterations that follow it."""
    if warm:
        solver.state = copy.deepcopy(state)
        solver.step(iterations)
        return
    for _ in range(iterations):
        solver.state = copy.deepcopy(state)
        solver.step(1)
