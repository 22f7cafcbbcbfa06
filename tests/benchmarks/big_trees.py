"""Time the tree solver's size-dependent work on large trees: compiling, CFR iterations,
metrics (exact best responses), the strategy table and the ``--json`` report.

Trees (built by ``tests.solvers.tree.builders.py``): chains of 330, 1,500 and 10,000
decisions (perfect information), a 1,500-decision chain under a hidden coin (two nodes per
information set), and complete binary trees of 65,535 nodes with imperfect (own moves only)
and perfect information (32,767 information sets); and the random binary tree of
4,194,303 histories of ``rmviz.games.random_trees`` (``rmviz bench``'s memory lines' trees);
and OpenSpiel's goofspiel with 6 cards (969,523 histories; needs open-spiel).

    python tests/benchmarks/big_trees.py [--only NAME] [--iterations 10] [--budget 600]
        [--algorithms cfr,greedy-cfr]

Each phase prints its seconds; a phase is skipped once the case has spent ``--budget``
seconds. ``--per-history [SECONDS]`` prints instead ``rmviz bench``'s big-tree rows (CFR's
nanoseconds per history per iteration on binary trees of 2^17 to 2^23 histories, alternating
beside simultaneous, two threads beside one: :mod:`rmviz.bench_trees`), SECONDS per
measurement (default 1.5). Results and the command are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.formats import load_game
from rmviz.games import random_trees
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver
from tests.solvers.tree.builders import binary_tree, chain, hidden_chain

CASES = {
    "chain-330": lambda: chain(330),
    "chain-1500": lambda: chain(1500),
    "hidden-chain-1500": lambda: hidden_chain(1500),
    "chain-10000": lambda: chain(10_000),
    "binary-65k": lambda: binary_tree(15),
    "binary-65k-perfect": lambda: binary_tree(15, perfect=True),
    "random-binary-4m": lambda: random_trees.binary_tree(21),
    "goofspiel-6": lambda: load_game(
        "openspiel:goofspiel(num_cards=6,imp_info=True,points_order=descending)"
    ),
}


def run_case(name: str, iterations: int, budget: float, algorithms: tuple[str, ...]) -> None:
    start = time.perf_counter()
    game = CASES[name]()
    print(f"{name}: built in {time.perf_counter() - start:.2f} s", flush=True)
    spent = 0.0
    solvers: dict[str, CFRSolver] = {}

    def timed(label: str, work):
        nonlocal spent
        if spent > budget:
            print(f"  {label:<40} skipped (budget spent)", flush=True)
            return None
        t = time.perf_counter()
        result = work()
        seconds = time.perf_counter() - t
        spent += seconds
        print(f"  {label:<40} {seconds:9.3f} s", flush=True)
        return result

    for algorithm in algorithms:
        solver = timed(f"compile ({algorithm})", lambda a=algorithm: CFRSolver(game, preset(a)))
        if solver is None:
            return
        solvers[algorithm] = solver
        solver.step(1)  # numba's cache, outside the clock
        timed(f"{iterations} iterations ({algorithm})", lambda s=solver: s.step(iterations))
        solver.snapshot(metrics=True)  # the metrics' layout and kernels, outside the clock
        timed(f"snapshot with metrics ({algorithm})", lambda s=solver: s.snapshot(metrics=True))
    solver = solvers[algorithms[0]]
    snap = solver.snapshot(metrics=True)
    print(f"  exploitability {snap.metrics.exploitability:.6g}")
    timed("strategy_table", lambda: solver.strategy_table(snap.average_strategy))
    timed("report", lambda: solver.report(snap))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(CASES), action="append")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--budget", type=float, default=600.0, help="seconds per case")
    parser.add_argument("--per-history", type=float, nargs="?", const=1.5, metavar="SECONDS")
    parser.add_argument("--algorithms", default="cfr,greedy-cfr", help="comma-separated presets")
    args = parser.parse_args()
    if args.per_history is not None:
        from rmviz.bench_trees import bench_big_trees

        bench_big_trees(args.per_history, print)
        return
    for name in args.only or CASES:
        run_case(name, args.iterations, args.budget, tuple(args.algorithms.split(",")))


if __name__ == "__main__":
    main()
