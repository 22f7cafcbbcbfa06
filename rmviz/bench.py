"""``rmviz bench``: iterations per second, each next to its baselines, measured in one run.

Baselines:

* **seed loop**: plain NumPy written like the regret-matching snippet of the lecture notes
  (shared/seeds): ``PAYOFF_avg = s1 P s2``, ``cfr1 = P s2 - avg``, ``cfr2 = -(s1 P - avg)``,
  clip/normalise/nan_to_num, one Python iteration at a time; for sampled play the
  notebook's loop (sample, read the payoff slice, add regrets).
* **matvec floor**: for large matrices, the bare cost of the two matrix-vector products
  ``P0 y`` and ``x P1`` that any expected-play iteration must read (memory bandwidth).

Every measurement runs for a time budget after a warm-up, on the same machine in the same
process, so ratios are comparable even when absolute speeds vary with load.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from typing import TextIO

import numpy as np

from rmviz.errors import RmvizError
from rmviz.games.catalog import catalog_game
from rmviz.games.generators import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.backend import gpu_available, gpu_name
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer


def _rate(run: Callable[[int], None], seconds: float, first: int = 1) -> float:
    """Iterations per second of ``run(n)``, doubling ``n`` until the budget is spent."""
    run(first)  # warm-up (compilation, caches)
    n, done, elapsed = first, 0, 0.0
    while elapsed < seconds:
        start = time.perf_counter()
        run(n)
        elapsed += time.perf_counter() - start
        done += n
        n *= 2
    return done / elapsed


def _strategy(cumulative_regret: np.ndarray) -> np.ndarray:
    """The snippet's getStrategy: clip, normalise, NaN -> uniform."""
    weights = np.clip(cumulative_regret, 0, np.inf)
    with np.errstate(invalid="ignore", divide="ignore"):
        weights = weights / np.sum(weights)
    return np.nan_to_num(weights, nan=1 / weights.shape[0])


def seed_loop_expected(payoff: np.ndarray) -> Callable[[int], None]:
    """The seed snippet's "averaged variant" as a plain NumPy loop (zero-sum, row gains)."""
    rows, columns = payoff.shape
    cum1, cum2 = np.zeros(rows), np.zeros(columns)
    sum1, sum2 = np.zeros(rows), np.zeros(columns)
    state = [np.ones(rows) / rows, np.ones(columns) / columns]

    def run(n: int) -> None:
        nonlocal cum1, cum2, sum1, sum2
        s1, s2 = state
        for _ in range(n):
            average = s1 @ payoff @ s2
            cfr1 = payoff @ s2 - average
            cfr2 = -(s1 @ payoff - average)
            s1, s2 = _strategy(cum1), _strategy(cum2)
            cum1 += cfr1
            cum2 += cfr2
            sum1 += s1
            sum2 += s2
        state[:] = [s1, s2]

    return run


def seed_loop_sampled(game: NormalFormGame, seed: int = 0) -> Callable[[int], None]:
    """The teaching notebook's sampled regret matching for n players, as a plain loop."""
    rng = np.random.default_rng(seed)
    n_players = game.n_players
    cumulative = [np.zeros(k) for k in game.num_actions]
    sums = [np.zeros(k) for k in game.num_actions]

    def run(n: int) -> None:
        for _ in range(n):
            strategies = [_strategy(r) for r in cumulative]
            actions = [rng.choice(len(s), p=s) for s in strategies]
            for i in range(n_players):
                index = list(actions)
                index[i] = slice(None)
                utilities = game.payoffs[i][tuple(index)]
                cumulative[i] += utilities - utilities[actions[i]]
                sums[i] += strategies[i]

    return run


def matvec_floor(game: NormalFormGame) -> Callable[[int], None]:
    """The two matrix-vector products of one expected-play iteration, nothing else."""
    p0, p1 = game.payoffs[0], game.payoffs[1]
    x = np.full(p0.shape[0], 1.0 / p0.shape[0])
    y = np.full(p0.shape[1], 1.0 / p0.shape[1])

    def run(n: int) -> None:
        for _ in range(n):
            p0 @ y
            x @ p1

    return run


def solver_run(game: NormalFormGame, algorithm: str, **options: object) -> Callable[[int], None]:
    solver = RegretMinimizer(game, preset(algorithm, **options))
    return solver.step


def run_bench(
    quick: bool = False,
    seconds: float | None = None,
    out: TextIO | None = None,
    sizes: tuple[int, ...] | None = None,
    many_players: tuple[int, ...] = (10,) * 7,
) -> int:
    """Measure and print the table; returns 0.

    ``sizes`` are the square zero-sum games (default 100, 1000, 4000; 4000 skipped when
    ``quick``); ``many_players`` is the shape of the sampled general-sum game.
    """
    import sys

    out = out or sys.stdout
    budget = seconds if seconds is not None else (0.3 if quick else 1.5)

    def line(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    cpu = platform.processor() or platform.machine()
    line(
        f"rmviz bench: {os.cpu_count()} CPU cores ({cpu}), numpy {np.__version__}, "
        f"budget {budget:g} s per measurement"
    )
    line(f"GPU: {gpu_name() if gpu_available() else 'none (CuPy missing or no CUDA device)'}")
    line()
    line(f"{'case':<44}{'it/s':>14}{'baseline it/s':>16}{'speed-up':>10}{'vs floor':>10}")

    def row(label: str, rate: float, baseline: float | None = None, floor: float | None = None) -> None:
        base = f"{baseline:16,.0f}{rate / baseline:9.1f}x" if baseline else " " * 26
        over = f"{floor / rate:9.2f}x" if floor else ""
        line(f"{label:<44}{rate:14,.0f}{base}{over}")

    rps = catalog_game("rps-crash")
    seed_rps = _rate(seed_loop_expected(rps.payoffs[0]), budget)
    for algorithm in ("rm", "rm+", "predictive-rm+", "greedy-rm"):
        row(
            f"rps-crash {algorithm} (expected)",
            _rate(solver_run(rps, algorithm), budget, 1000),
            seed_rps,
        )

    if sizes is None:
        sizes = (100, 1000) if quick else (100, 1000, 4000)
    for size in sizes:
        game = random_game("zero-sum", (size, size), seed=0)
        floor = _rate(matvec_floor(game), budget)
        baseline = _rate(seed_loop_expected(game.payoffs[0]), budget)
        row(
            f"random zero-sum {size}x{size} rm (expected)",
            _rate(solver_run(game, "rm"), budget),
            baseline,
            floor,
        )
        if gpu_available() and size >= 1000:
            row(
                f"  same on GPU ({gpu_name()})",
                _rate(solver_run(game, "rm", device="gpu"), budget),
                baseline,
                floor,
            )
        line(f"{'  matvec floor (2 products)':<44}{floor:14,.0f}")
        del game

    many = random_game("general-sum", many_players, seed=0)
    same = len(set(many_players)) == 1
    shape = f"{many_players[0]}-action" if same else "x".join(map(str, many_players))
    label = f"{len(many_players)}-player {shape}"
    baseline = _rate(seed_loop_sampled(many), budget)
    for algorithm in ("rm", "greedy-rm", "internal-rm"):
        row(
            f"{label} {algorithm} (sampled)",
            _rate(solver_run(many, algorithm, play="sampled"), budget),
            baseline,
        )
    three = random_game("general-sum", (10, 10, 10), seed=0)
    numpy_path = RegretMinimizer(three, preset("rm"))
    numpy_path._kernel = None  # the generic array code: the baseline of n-player expected play
    row(
        "3-player 10x10x10 rm (expected)",
        _rate(solver_run(three, "rm"), budget, 100),
        _rate(numpy_path.step, budget, 100),
    )
    _bench_trees(budget, line)
    _bench_loading(quick, line)
    line()
    line("speed-up: rmviz / baseline (seed loop; for 3-player expected play rmviz's own NumPy code;")
    line("          for trees OpenSpiel's C++ CFRSolver);")
    line("vs floor: rmviz time per iteration / matvec floor")
    return 0


def _bench_trees(budget: float, line: Callable[[str], None]) -> None:
    """CFR on Kuhn and Leduc beside OpenSpiel's C++ and Python CFR solvers when installed."""
    from rmviz.games.trees import kuhn_poker, leduc_poker
    from rmviz.solvers.tree.config import preset as cfr_preset
    from rmviz.solvers.tree.solver import CFRSolver

    try:
        import pyspiel
        from open_spiel.python.algorithms import cfr as python_cfr
    except ImportError:
        pyspiel = None
    line()
    line(f"{'CFR on game trees':<44}{'it/s':>14}{'OpenSpiel C++':>16}{'speed-up':>10}{'Python':>10}")
    for name, build in (("kuhn_poker", kuhn_poker), ("leduc_poker", leduc_poker)):
        game = build()
        for algorithm in ("cfr", "cfr+", "greedy-cfr", "mccfr-external"):
            ours = _rate(CFRSolver(game, cfr_preset(algorithm)).step, budget)
            if pyspiel is None or algorithm not in ("cfr", "cfr+"):
                line(f"{name + ' ' + algorithm:<44}{ours:14,.1f}")
                continue
            peer = pyspiel.load_game(name)
            solver_class = pyspiel.CFRSolver if algorithm == "cfr" else pyspiel.CFRPlusSolver
            cpp_solver = solver_class(peer)
            cpp = _rate(lambda n, s=cpp_solver: [s.evaluate_and_update_policy() for _ in range(n)], budget)
            python_solver = (python_cfr.CFRSolver if algorithm == "cfr" else python_cfr.CFRPlusSolver)(peer)
            python = _rate(
                lambda n, s=python_solver: [s.evaluate_and_update_policy() for _ in range(n)],
                min(budget, 0.5),
            )
            line(f"{name + ' ' + algorithm:<44}{ours:14,.1f}{cpp:16,.1f}{ours / cpp:9.1f}x{python:10,.1f}")
    if pyspiel is None:
        line("  (install open-spiel for the peer columns)")


def _bench_loading(quick: bool, line: Callable[[str], None]) -> None:
    """Loading game trees (issue 16): OpenSpiel's walk and the .efg reader, each followed by
    compiling the tree for CFR, in histories per second (tests/benchmarks/tree_loading.py
    measures bigger trees and memory)."""
    from rmviz.formats.efg import read_efg, write_efg
    from rmviz.solvers.tree.compiled_tree import compile_tree

    try:
        from rmviz.formats.openspiel import openspiel_game

        openspiel_game("kuhn_poker")
    except RmvizError:
        line("")
        line("  (install open-spiel for the tree-loading rows)")
        return
    line("")
    line(f"{'loading game trees (then compiling)':<44}{'histories/s':>14}{'seconds':>16}")
    for spec in ("leduc_poker",) if quick else ("leduc_poker", "liars_dice(dice_sides=5)"):
        started = time.perf_counter()
        game = openspiel_game(spec)
        compile_tree(game)
        seconds = time.perf_counter() - started
        line(f"{spec + ' (OpenSpiel walk)':<44}{game.n_nodes / seconds:14,.0f}{seconds:16.2f}")
        text = write_efg(game)
        started = time.perf_counter()
        compile_tree(read_efg(text))
        seconds = time.perf_counter() - started
        label = f"{spec} (.efg, {len(text) // 1024:,} kB)"
        line(f"{label:<44}{game.n_nodes / seconds:14,.0f}{seconds:16.2f}")
