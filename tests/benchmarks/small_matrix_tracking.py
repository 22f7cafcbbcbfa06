"""What tracking the CE gap and the joint costs on small matrices, beside the floor.

    python tests/benchmarks/small_matrix_tracking.py [--sizes 8,10,...,80] [--rounds 3]

Per square zero-sum game (expected play, RM, simultaneous updates) this prints the
iterations per second of the single-pass floor (``rmviz bench``'s: one fused pass over
``P_0``, nothing else), of rmviz with its defaults (the CE accumulators and the joint tracked
up to 64 actions) and with both switched off, each as time per iteration over the floor's,
in wall time and in this process's CPU time; ``tracked / untracked`` is the tracking's price
(the step at the default's edge is this ratio at 64 against 1 at 65), and ``step(1)`` the
cost of one call of one iteration (the kernel folds its pending sum once per call,
:mod:`rmviz.solvers.matrix.joint_tracking`). The three are measured in turn, best of
``--rounds``, in one process. Run it with ``PYTHONPATH`` set to another checkout to measure
that one. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.bench import single_pass_floor, solver_run
from rmviz.games import random_game
from rmviz.solvers import jit

SIZES = (8, 10, 16, 24, 32, 40, 48, 56, 64, 65, 72, 80)


def rates(run: Callable[[int], None], seconds: float) -> tuple[float, float]:
    """Iterations per second of wall time and of process CPU time, doubling ``n``."""
    run(100)  # warm-up
    n, done, wall, cpu = 100, 0, 0.0, 0.0
    while wall < seconds:
        start, start_cpu = time.perf_counter(), time.process_time()
        run(n)
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        done, n = done + n, n * 2
    return done / wall, done / max(cpu, 1e-9)


def per_call(run: Callable[[int], None], calls: int = 2000) -> float:
    """Microseconds of CPU time per ``step(1)`` call."""
    run(1)
    start = time.process_time()
    for _ in range(calls):
        run(1)
    return (time.process_time() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.3)
    args = parser.parse_args()
    if hasattr(jit, "load"):
        jit.load()
    print(f"{'actions':>7} {'floor it/s':>12} {'tracked it/s':>13} {'vs floor':>17} {'untracked it/s':>15}")
    second = f"{'wall / cpu':>17} {'vs floor':>15} {'tracked/untr.':>14} {'step(1) us':>11}"
    print(f"{'':7} {'':12} {'':13} {second}")
    for size in map(int, args.sizes.split(",")):
        game = random_game("zero-sum", (size, size), seed=0)
        runs = {
            "floor": single_pass_floor(game),
            "tracked": solver_run(game, "rm"),
            "untracked": solver_run(game, "rm", track_ce=False, track_joint=False),
        }
        best = dict.fromkeys(runs, (0.0, 0.0))
        for _ in range(args.rounds):
            for name, run in runs.items():
                wall, cpu = rates(run, args.seconds)
                best[name] = (max(best[name][0], wall), max(best[name][1], cpu))
        floor, tracked, untracked = best["floor"], best["tracked"], best["untracked"]
        call = per_call(solver_run(game, "rm"))
        print(
            f"{size:7d} {floor[0]:12,.0f} {tracked[0]:13,.0f} "
            f"{floor[0] / tracked[0]:7.2f}x /{floor[1] / tracked[1]:5.2f}x {untracked[0]:15,.0f} "
            f"{floor[0] / untracked[0]:6.2f}x /{floor[1] / untracked[1]:5.2f}x "
            f"{untracked[0] / tracked[0]:9.2f}x {call:11.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
