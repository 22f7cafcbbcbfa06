"""What making a figure costs: :func:`rmviz.figures.make_figure` for each figure of a matrix
game and a game tree, in both styles, with the layout passes ending once the layout settles
(:func:`rmviz.figures.style.finish`) and with every pass run, in turn, best of ``--rounds``;
this thread's CPU time beside the wall time, and the layouts each ran.

    python tests/benchmarks/figure_cost.py [--rounds 2] [--games rps-crash kuhn]

Results and the command are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

import numpy as np

import rmviz.figures.style as style
from rmviz import api
from rmviz.figures import registry


def timed(name: str, run, look: str, settle: bool) -> tuple[float, float, int]:
    """CPU and wall seconds of one make_figure, and the layouts it ran."""
    layouts = []
    lay_out, positions = style.lay_out, style.positions
    count = itertools.count()
    style.lay_out = lambda fig: (layouts.append(1), lay_out(fig))
    if not settle:
        style.positions = lambda fig: np.full(1, next(count))  # never settles: every pass
    try:
        cpu, wall = time.thread_time(), time.perf_counter()
        registry.make_figure(name, run, look)
        return time.thread_time() - cpu, time.perf_counter() - wall, len(layouts)
    finally:
        style.lay_out, style.positions = lay_out, positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", nargs="+", default=["rps-crash", "kuhn"])
    args = parser.parse_args()
    print(f"{'figure':<34}{'settled CPU (wall)':>22}{'every pass CPU (wall)':>25}{'CPU ratio':>11}")
    totals = [0.0, 0.0]
    for game in args.games:
        run = api.solve(game, iterations=1000, progress=False).run_data()
        for name in registry.figures_of(run.family):
            if name in ("tikz", "compare"):  # compare needs several runs
                continue
            for look in style.STYLES:
                best = {}
                for _, settle in itertools.product(range(args.rounds), (True, False)):
                    got = timed(name, run, look, settle)
                    best[settle] = min(best.get(settle, got), got)
                (c1, w1, n1), (c0, w0, n0) = best[True], best[False]
                totals[0] += c1
                totals[1] += c0
                label = f"{game} {name} {look}"
                settled, every = f"{c1:.2f} s ({w1:.2f}) {n1}L", f"{c0:.2f} s ({w0:.2f}) {n0}L"
                print(f"{label:<34}{settled:>22}{every:>25}{c0 / c1:>10.2f}x", flush=True)
    print(f"{'all':<34}{totals[0]:>20.2f} s{totals[1]:>23.2f} s{totals[1] / totals[0]:>10.2f}x")


if __name__ == "__main__":
    main()
