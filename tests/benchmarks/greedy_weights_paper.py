"""Reproduce Zhang, Lerer & Brown (AAAI 2022) on random 7-player 10-action games.

Setting of the paper's Fig. 4 and its welfare experiment: general-sum games with payoffs
uniform in [0, 1), sampled play, each algorithm run side by side on the same games.
Prints the median CCE gap (external regret) and CE gap (internal regret) at checkpoints,
the seconds spent, and the social welfare after 1000 iterations (the paper reports
4.16 +- 0.023 for greedy weights and 3.50 +- 0.005 for vanilla RM over 100 games).

With ``--zero-sum``: the paper's two-player zero-sum setting (Fig. 3), random 10x10 and
100x100 games with payoffs uniform in [0, 1), sampled play; prints the median NashConv of
the average strategy, which in sampled play is the weighted frequency of the actions played
(the paper's Algorithm 1). Hedge, optimistic Hedge, Euclidean FTRL and fictitious play run
beside them in both settings.

    python tests/benchmarks/greedy_weights_paper.py [--games 10] [--iterations 10000] [--zero-sum]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rmviz.games import random_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

# the rest of the no-regret family beside the paper's algorithms (issue 31)
LEADERS = ("hedge", "optimistic-hedge", "ftrl", "fictitious-play")


def run(algorithm: str, games: list, checkpoints: list[int], gap: str) -> tuple[np.ndarray, float]:
    """Median gap at each checkpoint over ``games``, and total seconds."""
    gaps = np.zeros((len(games), len(checkpoints)))
    seconds = 0.0
    for g, game in enumerate(games):
        solver = RegretMinimizer(game, preset(algorithm, play="sampled", seed=g))
        solver.step(0)  # compile / load before timing
        done = 0
        for c, checkpoint in enumerate(checkpoints):
            start = time.perf_counter()
            solver.step(checkpoint - done)
            seconds += time.perf_counter() - start
            done = checkpoint
            gaps[g, c] = getattr(solver.metrics(), gap)
    return np.median(gaps, axis=0), seconds


def zero_sum(games: int, iterations: int) -> None:
    checkpoints = [c for c in (1000, 10_000, 100_000) if c <= iterations]
    header = "".join(f"{'T=' + str(c):>11}" for c in checkpoints)
    for size in (10, 100):
        instances = [random_game("zero-sum", (size, size), seed=1000 + g) for g in range(games)]
        print(f"\n{games} random {size}x{size} zero-sum games, sampled play, median NashConv")
        print(f"{'':<28}{header}{'seconds':>10}")
        for algorithm in ("rm", "greedy-rm", *LEADERS):
            medians, seconds = run(algorithm, instances, checkpoints, "nash_conv")
            print(f"{algorithm:<28}" + "".join(f"{m:11.2e}" for m in medians) + f"{seconds:10.2f}")


def welfare(algorithm: str, games: list, iterations: int = 1000) -> tuple[float, float]:
    values = []
    for g, game in enumerate(games):
        solver = RegretMinimizer(game, preset(algorithm, play="sampled", seed=g))
        solver.step(iterations)
        values.append(solver.metrics().welfare)
    values = np.array(values)
    return float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--zero-sum", action="store_true", help="the two-player zero-sum setting")
    args = parser.parse_args()
    if args.zero_sum:
        zero_sum(args.games, args.iterations)
        return
    games = [random_game("general-sum", (10,) * 7, seed=1000 + g) for g in range(args.games)]
    checkpoints = [c for c in (10, 100, 1000, 10_000, 100_000) if c <= args.iterations]
    header = "".join(f"{'T=' + str(c):>11}" for c in checkpoints)
    print(f"{args.games} random 7-player 10-action general-sum games, sampled play, median gap")
    for title, gap, algorithms in (
        ("CCE gap (external regret)", "cce_gap", ("rm", "linear-rm", "greedy-rm", *LEADERS)),
        ("CE gap (internal regret)", "ce_gap", ("internal-rm", "greedy-internal-rm")),
    ):
        print(f"\n{title:<28}{header}{'seconds':>10}")
        for algorithm in algorithms:
            medians, seconds = run(algorithm, games, checkpoints, gap)
            print(f"{algorithm:<28}" + "".join(f"{m:11.2e}" for m in medians) + f"{seconds:10.2f}")
    print("\nsocial welfare after 1000 iterations (mean +- 95% CI)")
    for algorithm in ("rm", "greedy-rm"):
        mean, half = welfare(algorithm, games)
        print(f"  {algorithm:<12}{mean:.3f} +- {half:.3f}")


if __name__ == "__main__":
    main()
