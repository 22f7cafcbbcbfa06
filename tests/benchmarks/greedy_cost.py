"""What greedy weights cost per iteration, beside the same solver with uniform weights.

    python tests/benchmarks/greedy_cost.py [--rounds 7] [--search]

Greedy weights (Zhang, Lerer & Brown, AAAI 2022) add an exact line search to every
iteration. Per case this prints the iterations per second of the plain solver and of the
greedy one and their ratio (the cost of one greedy iteration in plain iterations): greedy-rm
against rm on RPS with Crash (3x3) and a random zero-sum 100x100 game (expected play,
simultaneous updates); greedy-cfr against CFR with simultaneous updates (the same single
traversal per iteration) and with alternating ones (CFR's default, two traversals) on Kuhn
and Leduc poker.

Times are the CPU time of this thread (``time.thread_time``), plain and greedy measured in
turn, best of ``--rounds``: on a shared machine a preempted process loses wall time, not
CPU time, so the ratios hold under load (caches and frequency still vary with it).

``--search`` also times the line search alone, the compiled array version
(``weighting.greedy_lambda_for(np)`` under numba, what the kernels ran before) against the
loop form the kernels run now (``weighting.greedy_lambda_scan``), on random vectors of 6,
200 and 2,184 regrets (a 3x3 game, a 100x100 game, Leduc's slots). Results are recorded in
docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.games import catalog_game, random_game
from rmviz.games.trees import kuhn_poker, leduc_poker
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver


def seconds_per_iteration(step: Callable[[int], None], n: int) -> float:
    start = time.thread_time()
    step(n)
    return (time.thread_time() - start) / n


def compare(
    label: str, plain: Callable[[int], None], greedy: Callable[[int], None], n: int, rounds: int
) -> None:
    plain(10)  # numba's cache, outside the clock
    greedy(10)
    a = b = float("inf")
    for _ in range(rounds):
        a = min(a, seconds_per_iteration(plain, n))
        b = min(b, seconds_per_iteration(greedy, n))
    print(f"{label:<44}{1 / a:14,.0f}{1 / b:14,.0f}{b / a:9.2f}x", flush=True)


def solvers(rounds: int) -> None:
    print(f"{'case':<44}{'plain it/s':>14}{'greedy it/s':>14}{'cost':>10}")
    for label, game, n in (
        ("rps-crash (3x3) greedy-rm / rm", catalog_game("rps-crash"), 200_000),
        ("zero-sum 100x100 greedy-rm / rm", random_game("zero-sum", (100, 100), seed=0), 5_000),
    ):
        compare(
            label,
            RegretMinimizer(game, preset("rm")).step,
            RegretMinimizer(game, preset("greedy-rm")).step,
            n,
            rounds,
        )
    for name, build, n in (("kuhn", kuhn_poker, 50_000), ("leduc", leduc_poker, 300)):
        tree = build()
        for updates in ("simultaneous", "alternating"):
            compare(
                f"{name} greedy-cfr / cfr ({updates})",
                CFRSolver(tree, cfr_preset("cfr", updates=updates)).step,
                CFRSolver(tree, cfr_preset("greedy-cfr")).step,
                n,
                rounds,
            )


def search(rounds: int) -> None:
    import numba

    from rmviz.solvers import weighting
    from rmviz.solvers.jit import jit

    scan = jit(weighting.greedy_lambda_scan)
    array_version = jit(weighting.greedy_lambda_for(np))

    @numba.njit
    def loop_scan(x, r, work, order, n):  # pragma: no cover - compiled
        total = 0.0
        for _ in range(n):
            total += scan(x, r, 0.95, 0.9, work, order)
        return total

    @numba.njit
    def loop_array(x, r, n):  # pragma: no cover - compiled
        total = 0.0
        for _ in range(n):
            total += array_version(x, r, 0.95, 0.9)
        return total

    print()
    print(f"{'line search alone, K regrets':<44}{'array us':>14}{'scan us':>14}{'speed-up':>10}")
    rng = np.random.default_rng(1)
    for size in (6, 200, 2184):
        x, r = rng.normal(size=size), rng.normal(size=size)
        work, order = weighting.greedy_scratch(size)
        n = 200_000 // size + 1
        loop_scan(x, r, work, order, 1)
        loop_array(x, r, 1)
        a = b = float("inf")
        for _ in range(rounds):
            start = time.thread_time()
            loop_array(x, r, n)
            a = min(a, (time.thread_time() - start) / n)
            start = time.thread_time()
            loop_scan(x, r, work, order, n)
            b = min(b, (time.thread_time() - start) / n)
        print(f"{f'K = {size}':<44}{a * 1e6:14.2f}{b * 1e6:14.2f}{a / b:9.1f}x", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--search", action="store_true", help="also time the line search alone")
    args = parser.parse_args()
    solvers(args.rounds)
    if args.search:
        search(args.rounds)


if __name__ == "__main__":
    main()
