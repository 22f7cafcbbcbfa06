"""Sampled RM on a 7-player game beside a minimal numba kernel of the same dynamics.

    python tests/benchmarks/sampled_many_players.py [--players 7] [--actions 10]

The game is ``rmviz bench``'s (random general-sum, 7 players x 10 actions: 560 MB of
payoffs, so each iteration's 70 payoff reads miss the caches). The minimal kernel samples a
profile (its uniform draws made per call, in advance, as rmviz's are), reads each player's
payoffs against the others' actions, updates the regrets, plays regret matching and adds the
strategy to its sum; rmviz's kernel also keeps what its metrics need (external regrets,
payoff sums, the empirical distribution's weights). Prints both rates (20,000-iteration
calls, best of 3) and their ratio. Results in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.games import random_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer


@numba.njit
def minimal(flat, n, k, draws):  # pragma: no cover - compiled
    strides = np.empty(n, np.int64)
    size = 1
    for j in range(n - 1, -1, -1):
        strides[j] = size
        size *= k
    regret = np.zeros((n, k))
    strategy = np.full((n, k), 1.0 / k)
    strategy_sum = np.zeros((n, k))
    actions = np.empty(n, np.int64)
    utilities = np.empty(k)
    for t in range(draws.shape[0]):
        for j in range(n):
            draw, cumulative, actions[j] = draws[t, j], 0.0, k - 1
            for a in range(k):
                cumulative += strategy[j, a]
                if cumulative > draw:
                    actions[j] = a
                    break
        for i in range(n):
            base = 0
            for j in range(n):
                if j != i:
                    base += actions[j] * strides[j]
            for a in range(k):
                utilities[a] = flat[i, base + a * strides[i]]
            value, total = utilities[actions[i]], 0.0
            for a in range(k):
                regret[i, a] += utilities[a] - value
                strategy_sum[i, a] += strategy[i, a]
                total += max(regret[i, a], 0.0)
            for a in range(k):
                strategy[i, a] = max(regret[i, a], 0.0) / total if total > 0.0 else 1.0 / k
    return strategy_sum


def rate(step: Callable[[int], object], iterations: int) -> float:
    step(100)
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        step(iterations)
        best = max(best, iterations / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--actions", type=int, default=10)
    args = parser.parse_args()
    n, k = args.players, args.actions
    game = random_game("general-sum", (k,) * n, seed=0)
    flat = np.ascontiguousarray(np.asarray(game.payoffs, dtype=np.float64).reshape(n, -1))
    ours = rate(RegretMinimizer(game, preset("rm", play="sampled", device="cpu")).step, 20_000)
    rng = np.random.default_rng(1)  # drawn per call, in advance, as rmviz's kernel draws
    floor = rate(lambda m: minimal(flat, n, k, rng.random((m, n))), 20_000)
    label = f"{n}-player {k}-action sampled rm"
    print(f"{label}: rmviz {ours:,.0f} it/s, minimal kernel {floor:,.0f} it/s, {floor / ours:.2f}x")


if __name__ == "__main__":
    main()
