"""A real long run: every algorithm for 10^8 iterations (by default) on a small game,
checking at every checkpoint that metrics and strategies are finite and the averages are
distributions. The default test run fast-forwards solvers to 10^8 instead
(tests/solvers/test_numeric_limits.py); this is the check that the shortcut is honest.

    python tests/benchmarks/long_run.py [--iterations 1e8] [--algorithm NAME ...]
        [--scale 1e150] [--checkpoints 10]

Matrix algorithms run on RPS with Crash, tree algorithms on Kuhn poker, with every payoff
multiplied by ``--scale``. Prints, per algorithm, the seconds, the iterations per second and
the exploitability at the end. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker
from rmviz.solvers.matrix.config import PRESETS as MATRIX_PRESETS
from rmviz.solvers.registry import make_solver
from rmviz.solvers.tree.config import PRESETS as TREE_PRESETS
from tests.solvers.tree.builders import scaled


def _check(solver) -> float:
    snapshot = solver.snapshot(metrics=True)
    for name, value in snapshot.metrics.as_dict().items():
        if value is not None and not np.all(np.isfinite(value)):
            raise SystemExit(f"{solver.config.algorithm}: {name} = {value} at {solver.iteration}")
    averages = snapshot.average_strategy
    pieces = list(averages) if isinstance(averages, tuple) else [averages]
    if not all(np.all(np.isfinite(p)) and np.all(p >= 0) for p in pieces):
        raise SystemExit(f"{solver.config.algorithm}: average not finite at {solver.iteration}")
    return snapshot.metrics.exploitability


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=float, default=1e8)
    parser.add_argument("--algorithm", action="append", choices=[*MATRIX_PRESETS, *TREE_PRESETS])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--checkpoints", type=int, default=10)
    args = parser.parse_args()
    matrix = catalog_game("rps-crash")
    matrix = matrix.with_payoffs(matrix.payoffs * args.scale)
    tree = scaled(kuhn_poker(), args.scale)
    total = int(args.iterations)
    for algorithm in args.algorithm or [*MATRIX_PRESETS, *TREE_PRESETS]:
        solver = make_solver(matrix if algorithm in MATRIX_PRESETS else tree, algorithm)
        solver.step(1)  # compile / load outside the clock
        start = time.perf_counter()
        for k in range(1, args.checkpoints + 1):
            solver.step(total * k // args.checkpoints - solver.iteration)
            exploitability = _check(solver)
        seconds = time.perf_counter() - start
        print(
            f"{algorithm:<20} {solver.iteration:>12,} iterations {seconds:8.1f} s "
            f"{solver.iteration / seconds:>12,.0f} it/s  exploitability {exploitability:.3g}",
            flush=True,
        )


if __name__ == "__main__":
    main()
