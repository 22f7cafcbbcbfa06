"""``rmviz bench``: iterations per second, each next to its baselines, measured in one run.

Baselines:

* **seed loop**: plain NumPy written like the regret-matching snippet of the lecture notes
  (shared/seeds): ``PAYOFF_avg = s1 P s2``, ``cfr1 = P s2 - avg``, ``cfr2 = -(s1 P - avg)``,
  clip/normalise/nan_to_num, one Python iteration at a time; for sampled play the
  notebook's loop (sample, read the payoff slice, add regrets).
* **single-pass floor**: for large matrices, the bare cost of reading the payoff matrix once
  and forming both matrix-vector products ``P0 y`` and ``-(x P0)`` from it (a zero-sum
  game's ``P1 = -P0`` need not be read): :func:`rmviz.solvers.matrix.products.fused_products`
  alone, in a compiled loop, in the solver's dtype. Any expected-play iteration with
  simultaneous updates must do at least this (memory bandwidth). Beside it, the two BLAS
  calls ``P0 @ y``, ``x @ P1`` (the floor before the single-pass products).

Every measurement runs for a time budget after a warm-up, on the same machine in the same
process, so ratios are comparable even when absolute speeds vary with load. The square
games' floors and rmviz rows are measured in turn, twice, and keep their best rates.
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import time
from collections.abc import Callable
from typing import Any, TextIO, cast

import numpy as np

from rmviz.errors import RmvizError
from rmviz.games.catalog import catalog_game
from rmviz.games.generators import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.backend import gpu_available, gpu_name
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.timing import rate as _rate
from rmviz.timing import rates as _rates

ROUNDS = 2  # the square games' floors and rmviz rows: best of this many turns each


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
    """The two BLAS matrix-vector products ``P0 @ y``, ``x @ P1``, nothing else."""
    p0, p1 = game.payoffs[0], game.payoffs[1]
    x = np.full(p0.shape[0], 1.0 / p0.shape[0])
    y = np.full(p0.shape[1], 1.0 / p0.shape[1])

    def run(n: int) -> None:
        for _ in range(n):
            p0 @ y
            x @ p1

    return run


def single_pass_floor(game: NormalFormGame, dtype: str = "float64") -> Callable[[int], None]:
    """``n`` bare single-pass products over ``P0`` (both players' utilities, each entry read
    once) in one compiled loop: the floor of a zero-sum expected-play iteration."""
    from rmviz.solvers.matrix.products import single_pass_floor as passes

    payoff = np.ascontiguousarray(game.payoffs[0], dtype=dtype)
    rows, columns = payoff.shape
    x, y = np.full(rows, 1.0 / rows, dtype=dtype), np.full(columns, 1.0 / columns, dtype=dtype)
    row_out, column_out = np.empty(rows, dtype=dtype), np.empty(columns, dtype=dtype)

    def run(n: int) -> None:
        passes(payoff, x, y, row_out, column_out, n)

    return run


def solver_run(game: NormalFormGame, algorithm: str, **options: object) -> Callable[[int], None]:
    """``step`` of a fresh solver, on the CPU unless ``device`` says otherwise (the GPU's rows
    wait for the device: :mod:`rmviz.bench_gpu`)."""
    options.setdefault("device", "cpu")
    solver = RegretMinimizer(game, preset(algorithm, **options))
    return solver.step


def bench_small_matrices(
    budget: float, line: Callable[[str], None], sizes: tuple[int, ...] = (10, 32, 64, 65)
) -> None:
    """Small matrices with the CE gap and the joint tracked (the default up to 64 actions)
    and without, beside the single-pass floor (issue 34: no
    cliff at the default's edge): random zero-sum games, RM, expected play; the three are
    measured in turn ``ROUNDS`` times, each keeping its best; time per iteration over the
    floor's in wall and in this thread's CPU time, and the tracking's price (tracked over
    untracked: the step at the default's edge is its value at 64 against 1.00 at 65)."""
    line("")
    head = f"{'small matrices, rm (expected)':<44}{'tracked it/s':>14}{'untracked it/s':>16}"
    line(f"{head}{'price':>10}{'vs floor':>10}{'CPU':>8}")
    for size in sizes:
        game = random_game("zero-sum", (size, size), seed=0)
        runs = {
            "floor": single_pass_floor(game),
            "tracked": solver_run(game, "rm"),
            "untracked": solver_run(game, "rm", track_ce=False, track_joint=False),
        }
        best = dict.fromkeys(runs, (0.0, 0.0))
        for _ in range(ROUNDS):
            for name, run in runs.items():
                wall, cpu = _rates(run, budget, 100)
                best[name] = (max(best[name][0], wall), max(best[name][1], cpu))
        (floor, floor_cpu), (tracked, tracked_cpu) = best["floor"], best["tracked"]
        untracked = best["untracked"][0]
        line(
            f"{f'random zero-sum {size}x{size}':<44}{tracked:14,.0f}{untracked:16,.0f}"
            f"{untracked / tracked:9.2f}x{floor / tracked:9.2f}x{floor_cpu / tracked_cpu:7.2f}x"
        )


def run_bench(
    quick: bool = False,
    seconds: float | None = None,
    out: TextIO | None = None,
    sizes: tuple[int, ...] | None = None,
    many_players: tuple[int, ...] = (10,) * 7,
    device: str = "cpu",
    tree_levels: tuple[int, ...] | None = None,
) -> int:
    """Measure and print the table; returns 0.

    ``sizes`` are the square zero-sum games (default 100, 1000, 4000; 4000 skipped when
    ``quick``; ``rmviz bench --sizes 100,1000,4000,8000`` for more: an 8000x8000 game holds
    1 GB of payoffs, its float32 copy 256 MB more); ``many_players`` is the shape of the
    sampled general-sum game; ``tree_levels`` the big trees' levels
    (:data:`rmviz.bench_trees.LEVELS` by default, the two smaller when ``quick``).
    """
    import sys

    from rmviz.solvers.jit import load

    load()  # numba now: a short run in a process without it takes the array code
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
    if device == "gpu":  # first, so that a missing GPU is said at once
        from rmviz.bench_gpu import run_gpu_bench

        run_gpu_bench(line, budget, sizes=(1000, 4000) if quick else (1000, 4000, 10_000))
    line()
    line(f"{'case':<44}{'it/s':>14}{'baseline it/s':>16}{'speed-up':>10}{'vs floor':>10}")

    def row(label: str, rate: float, baseline: float | None = None, floor: float | None = None) -> None:
        base = f"{baseline:16,.0f}{rate / baseline:9.1f}x" if baseline else " " * 26
        over = f"{floor / rate:9.2f}x" if floor else ""
        line(f"{label:<44}{rate:14,.0f}{base}{over}")

    rps = cast(NormalFormGame, catalog_game("rps-crash"))  # the catalog id names a matrix game
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
        # the floors and rmviz's rows are measured in turn, twice, each keeping its best
        # rate: a neighbour's burst of memory traffic then cannot skew one ratio alone
        runs = {
            "floor": single_pass_floor(game),
            "floor32": single_pass_floor(game, "float32"),
            "rm": solver_run(game, "rm"),
            "rm32": solver_run(game, "rm", dtype="float32"),
            "alternating": solver_run(game, "rm", updates="alternating"),
        }
        best = dict.fromkeys(runs, 0.0)
        for _ in range(ROUNDS):
            for name, run in runs.items():
                best[name] = max(best[name], _rate(run, budget))
        floor, floor32 = best["floor"], best["floor32"]
        blas = _rate(matvec_floor(game), budget)
        baseline = _rate(seed_loop_expected(game.payoffs[0]), budget)
        label = f"random zero-sum {size}x{size} rm"
        row(f"{label} (expected)", best["rm"], baseline, floor)
        row(f"{label} float32", best["rm32"], baseline, floor32)
        row(f"{label} alternating", best["alternating"], baseline, floor)
        line(f"{'  single-pass floor (float64)':<44}{floor:14,.0f}")
        line(f"{'  single-pass floor (float32)':<44}{floor32:14,.0f}")
        line(
            f"{'  two BLAS products P0 y, x P1 (float64)':<44}{blas:14,.0f}{'':16}{'':10}{floor / blas:9.2f}x"
        )
        del game
    bench_small_matrices(budget, line)

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
    for size in (10, 50):
        three = random_game("general-sum", (size,) * 3, seed=0)
        numpy_path = RegretMinimizer(three, preset("rm", device="cpu"))
        numpy_path._kernel = None  # the generic array code: the baseline of n-player expected play
        row(
            f"3-player {size}x{size}x{size} rm (expected)",
            _rate(solver_run(three, "rm"), budget, 10),
            _rate(numpy_path.step, budget, 10),
        )
    for name, internal_game in (
        ("rps-crash", rps),
        ("random zero-sum 30x30", random_game("zero-sum", (30, 30), seed=0)),
    ):
        least_squares = RegretMinimizer(internal_game, preset("internal-rm", device="cpu"))
        least_squares._kernel = None  # the generic code: a least-squares solve per player
        row(
            f"{name} internal-rm (expected)",
            _rate(solver_run(internal_game, "internal-rm"), budget, 10),
            _rate(least_squares.step, budget),
        )
        line(f"{'  same game, rm (expected)':<44}{_rate(solver_run(internal_game, 'rm'), budget, 10):14,.0f}")
    _bench_leaders(rps, budget, line)
    _bench_trees(budget, line)
    from rmviz.bench_trees import LEVELS, bench_big_trees

    bench_big_trees(budget, line, tree_levels or (LEVELS[:2] if quick else LEVELS))
    bench_correlation(budget, line)
    bench_efr(budget, line)
    bench_monte_carlo(budget, line)
    _bench_greedy(budget, line)
    bench_internal(budget, line)
    _bench_liteefg(budget, line)
    _bench_loading(quick, line)
    from rmviz.bench_walk import GAMES, bench_walk

    bench_walk(line, GAMES[:1] if quick else GAMES)
    from rmviz.bench_startup import bench_startup

    bench_startup(line, runs=3 if quick else 5)
    line()
    line("speed-up: rmviz / baseline (seed loop; for 3-player expected play and internal RM rmviz's")
    line("          own NumPy code, internal RM's by least squares; for trees OpenSpiel's C++")
    line("          CFRSolver; for Monte-Carlo CFR OpenSpiel's C++ External/OutcomeSamplingMCCFRSolver,")
    line("          one iteration = one traversal per player);")
    line("cost: plain it/s / greedy it/s, the price of one greedy iteration in plain iterations;")
    line("vs floor: time per iteration / single-pass floor's time per pass, in the row's dtype")
    line("          (alternating updates need two dependent passes: 2.00x is their floor)")
    return 0


LEADERS = ("hedge", "optimistic-hedge", "ftrl", "fictitious-play")


def _bench_leaders(rps: NormalFormGame, budget: float, line: Callable[[str], None]) -> None:
    """Hedge, optimistic Hedge, Euclidean FTRL and fictitious play beside RM on the same game
    and play mode, measured in turn and twice each (best rate kept); "cost" is RM's rate over
    the row's: the price of one iteration in RM iterations (issue 31 asks for at most 2)."""
    line()
    line(f"{'FTRL and fictitious play beside RM':<44}{'it/s':>14}{'rm it/s':>16}{'cost':>10}")
    for label, game, play in (
        ("rps-crash", rps, "expected"),
        ("rps-crash", rps, "sampled"),
        ("random zero-sum 100x100", random_game("zero-sum", (100, 100), seed=0), "expected"),
        ("3-player 10-action", random_game("general-sum", (10, 10, 10), seed=0), "expected"),
    ):
        runs = {name: solver_run(game, name, play=play) for name in ("rm", *LEADERS)}
        best = dict.fromkeys(runs, 0.0)
        for _ in range(ROUNDS):
            for name, run in runs.items():
                best[name] = max(best[name], _rate(run, budget, 10))
        for name in LEADERS:
            case = f"{label} {name} ({play})"
            line(f"{case:<44}{best[name]:14,.0f}{best['rm']:16,.0f}{best['rm'] / best[name]:9.2f}x")


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
        for algorithm in ("cfr", "cfr+", "pcfr+", "pdcfr+", "greedy-cfr"):
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


def bench_correlation(budget: float, line: Callable[[str], None]) -> None:
    """What tracking a tree run's correlation gaps costs (``track_correlation``, issue 30 asks
    for under 2x where it is on by default): CFR with the gaps and without, measured in turn
    ``ROUNDS`` times (best rate kept each); the cost in wall and in this thread's CPU time."""
    from rmviz.games.trees import kuhn_poker, leduc_poker
    from rmviz.solvers.tree.config import preset as cfr_preset
    from rmviz.solvers.tree.solver import CFRSolver

    line()
    head = f"{'CFR with correlation gaps (off -> on)':<44}{'on it/s':>14}{'off it/s':>16}"
    line(f"{head}{'cost':>10}{'CPU cost':>10}")
    for name, build in (("kuhn_poker", kuhn_poker), ("leduc_poker", leduc_poker)):
        game = build()
        for updates in ("alternating", "simultaneous"):
            runs = {
                tracked: CFRSolver(game, cfr_preset("cfr", updates=updates, track_correlation=tracked)).step
                for tracked in (False, True)
            }
            best = {tracked: (0.0, 0.0) for tracked in runs}
            for _ in range(ROUNDS):
                for tracked, run in runs.items():
                    wall, cpu = _rates(run, budget, 10)
                    best[tracked] = (max(best[tracked][0], wall), max(best[tracked][1], cpu))
            (off_wall, off_cpu), (on_wall, on_cpu) = best[False], best[True]
            line(
                f"{f'{name} cfr ({updates})':<44}{on_wall:14,.0f}{off_wall:16,.0f}"
                f"{off_wall / on_wall:9.2f}x{off_cpu / on_cpu:9.2f}x"
            )


def bench_efr(budget: float, line: Callable[[str], None], peer: bool = True) -> None:
    """EFR's cost per iteration beside CFR's (Morrill et al. 2021, :mod:`rmviz.solvers.tree.efr`):
    each deviation set against simultaneous CFR (both tracking the correlation gaps, as by
    default), in turn ``ROUNDS`` times (best rate kept each), the cost in wall and in this
    thread's CPU time; with ``peer``, OpenSpiel's efr.py on Kuhn beside (Leduc takes it minutes)."""
    from rmviz.games.trees import kuhn_poker, leduc_poker
    from rmviz.solvers.tree.config import DEVIATIONS
    from rmviz.solvers.tree.config import preset as cfr_preset
    from rmviz.solvers.tree.efr import OPENSPIEL_NAMES, EFRSolver
    from rmviz.solvers.tree.solver import CFRSolver

    line()
    line(f"{'EFR beside simultaneous CFR':<44}{'EFR it/s':>14}{'CFR it/s':>16}{'cost':>10}{'CPU cost':>10}")
    for name, build in (("kuhn_poker", kuhn_poker), ("leduc_poker", leduc_poker)):
        game = build()
        cfr = CFRSolver(game, cfr_preset("cfr", updates="simultaneous")).step
        for deviations in DEVIATIONS:
            runs = {"efr": EFRSolver(game, cfr_preset("efr", deviations=deviations)).step, "cfr": cfr}
            best = {key: (0.0, 0.0) for key in runs}
            for _ in range(ROUNDS):
                for key, run in runs.items():
                    wall, cpu = _rates(run, budget)
                    best[key] = (max(best[key][0], wall), max(best[key][1], cpu))
            (efr_wall, efr_cpu), (cfr_wall, cfr_cpu) = best["efr"], best["cfr"]
            line(
                f"{f'{name} efr {deviations}':<44}{efr_wall:14,.1f}{cfr_wall:16,.0f}"
                f"{cfr_wall / efr_wall:9.1f}x{cfr_cpu / efr_cpu:9.1f}x"
            )
            if peer and name == "kuhn_poker":
                _bench_openspiel_efr(OPENSPIEL_NAMES[deviations], budget, line)


def _bench_openspiel_efr(name: str, budget: float, line: Callable[[str], None]) -> None:
    """OpenSpiel's Python efr.py on Kuhn with the deviation set ``name``, if installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import efr
    except ImportError:
        return
    solver = efr.EFRSolver(pyspiel.load_game("kuhn_poker"), name)

    def run(n: int) -> None:
        for _ in range(n):
            solver.evaluate_and_update_policy()

    wall, _ = _rates(run, budget)
    line(f"{f'  OpenSpiel efr.py {name!r}':<44}{wall:14,.1f}{'':>16}{'':>10}{'':>10}")


MONTE_CARLO_PEERS = {
    "mccfr-external": "ExternalSamplingMCCFRSolver",
    "mccfr-chance": "ExternalSamplingMCCFRSolver",  # OpenSpiel has no chance sampler in C++
    "mccfr-outcome": "OutcomeSamplingMCCFRSolver",
}


def bench_monte_carlo(budget: float, line: Callable[[str], None]) -> None:
    """Monte-Carlo CFR on Kuhn and Leduc: rmviz's compiled samplers beside OpenSpiel's C++
    samplers (when installed) and rmviz's NumPy reference passes (the path of recorded
    steps, and of every step before the samplers were compiled)."""
    from rmviz.games.trees import kuhn_poker, leduc_poker
    from rmviz.solvers.tree.config import preset as cfr_preset
    from rmviz.solvers.tree.solver import CFRSolver

    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    line()
    line(f"{'Monte-Carlo CFR':<44}{'it/s':>14}{'OpenSpiel C++':>16}{'speed-up':>10}{'NumPy ref':>10}")
    for name, build in (("kuhn_poker", kuhn_poker), ("leduc_poker", leduc_poker)):
        game = build()
        for algorithm, peer_name in MONTE_CARLO_PEERS.items():
            solver = CFRSolver(game, cfr_preset(algorithm))
            ours = _rate(solver.step, budget)
            reference = CFRSolver(game, cfr_preset(algorithm))
            numpy_rate = _rate(
                lambda n, s=reference: [s._iterate(record=False) for _ in range(n)], min(budget, 0.5)
            )
            label = f"{name} {algorithm}"
            if pyspiel is None:
                line(f"{label:<44}{ours:14,.1f}{'':26}{numpy_rate:10,.1f}")
                continue
            peer = getattr(pyspiel, peer_name)(pyspiel.load_game(name), seed=0)
            cpp = _rate(lambda n, s=peer: [s.run_iteration() for _ in range(n)], budget)
            line(f"{label:<44}{ours:14,.1f}{cpp:16,.1f}{ours / cpp:9.1f}x{numpy_rate:10,.1f}")
    if pyspiel is None:
        line("  (install open-spiel for the peer column)")


def _bench_greedy(budget: float, line: Callable[[str], None]) -> None:
    """Greedy weights (Zhang, Lerer & Brown, AAAI 2022) beside the same solver with uniform
    weights and the same updates, per iteration: what the exact line search adds.

    Matrix games: greedy-rm against rm (simultaneous, expected play) on rps-crash (3x3) and
    a random zero-sum 100x100 game. Trees: greedy-cfr against CFR with simultaneous updates
    (greedy-cfr's schedule: one traversal per iteration) on Kuhn and Leduc poker."""
    from rmviz.games.trees import kuhn_poker, leduc_poker
    from rmviz.solvers.tree.config import preset as cfr_preset
    from rmviz.solvers.tree.solver import CFRSolver

    line("")
    line(f"{'greedy weights beside uniform ones':<44}{'greedy it/s':>14}{'plain it/s':>16}{'cost':>10}")

    def pair(label: str, greedy: Callable[[int], None], plain: Callable[[int], None], first: int) -> None:
        plain_rate = _rate(plain, budget, first)
        greedy_rate = _rate(greedy, budget, first)
        line(f"{label:<44}{greedy_rate:14,.0f}{plain_rate:16,.0f}{plain_rate / greedy_rate:9.2f}x")

    rps = cast(NormalFormGame, catalog_game("rps-crash"))  # a matrix game of the catalog
    for label, game, first in (
        ("rps-crash (3x3)", rps, 1000),
        ("random zero-sum 100x100", random_game("zero-sum", (100, 100), seed=0), 100),
    ):
        pair(f"{label} greedy-rm / rm", solver_run(game, "greedy-rm"), solver_run(game, "rm"), first)
    for name, build in (("kuhn_poker", kuhn_poker), ("leduc_poker", leduc_poker)):
        tree = build()
        pair(
            f"{name} greedy-cfr / cfr (simultaneous)",
            CFRSolver(tree, cfr_preset("greedy-cfr")).step,
            CFRSolver(tree, cfr_preset("cfr", updates="simultaneous")).step,
            1,
        )


def bench_internal(
    budget: float, line: Callable[[str], None], sizes: tuple[int, ...] = (10, 50, 100)
) -> None:
    """Internal regret matching (Hart & Mas-Colell 2000) beside RM, expected play, per
    iteration, on random zero-sum games of ``sizes`` actions: the cost of the k x k
    regrets and of the stationary distribution (``stationary.py``, O(k^3)). Both
    solvers start 1,000 iterations in (the first chains are small and sparse) and are
    measured in turn, ``ROUNDS`` times, keeping each one's best; the cost is given in wall
    time and in this thread's CPU time."""
    line("")
    head = f"{'internal RM beside RM (expected)':<44}{'internal it/s':>14}{'rm it/s':>16}"
    line(f"{head}{'cost':>10}{'CPU cost':>10}")
    for size in sizes:
        game = random_game("zero-sum", (size, size), seed=0)
        runs = {name: solver_run(game, name) for name in ("rm", "internal-rm")}
        best = {name: (0.0, 0.0) for name in runs}
        for run in runs.values():
            run(1000)
        for _ in range(ROUNDS):
            for name, run in runs.items():
                wall, cpu = _rates(run, budget, 10)
                best[name] = (max(best[name][0], wall), max(best[name][1], cpu))
        (rm_wall, rm_cpu), (internal_wall, internal_cpu) = best["rm"], best["internal-rm"]
        line(
            f"{f'random zero-sum {size}x{size} internal-rm / rm':<44}{internal_wall:14,.0f}{rm_wall:16,.0f}"
            f"{rm_wall / internal_wall:9.1f}x{rm_cpu / internal_cpu:9.1f}x"
        )


def _bench_liteefg(budget: float, line: Callable[[str], None]) -> None:
    """CFR and external-sampling MCCFR beside LiteEFG 1.0 (Liu et al. 2024, a C++ engine
    driven by a Python computation graph) when it is installed (``pip install LiteEFG``).

    LiteEFG's CFR baseline updates both players at once, so rmviz runs CFR with
    simultaneous updates here; its "External" traversal with the same graph is
    external-sampling MCCFR (Lanctot et al. 2009). One LiteEFG iteration is one
    ``update_graph`` + ``update_strategy`` call, as in LiteEFG's own training loop. Its PCFR+
    graph updates the players in turn: it plays the iterates of alternating ``pcfr+``
    (tests/solvers/tree/test_predictive.py)."""
    try:
        import LiteEFG
        import pyspiel
        from LiteEFG.baselines.CFR import graph as cfr_graph
        from LiteEFG.baselines.PCFR import graph as pcfr_graph
    except ImportError:
        line()
        line("  (install LiteEFG and open-spiel for the LiteEFG peer rows)")
        return
    from rmviz.games.trees import kuhn_poker, leduc_poker
    from rmviz.solvers.tree.config import preset as cfr_preset
    from rmviz.solvers.tree.solver import CFRSolver

    def liteefg_run(name: str, traversal: str, make: Callable[[], Any] = cfr_graph) -> Callable[[int], None]:
        with contextlib.redirect_stdout(io.StringIO()):  # LiteEFG prints a banner per graph
            graph = make()
            env = LiteEFG.OpenSpielEnv(pyspiel.load_game(name), traverse_type=traversal, regenerate=False)
            env.set_graph(graph)

        def run(n: int) -> None:
            for _ in range(n):
                graph.update_graph(env)
                env.update_strategy(graph.current_strategy(), update_best=False)

        return run

    line()
    line(f"{'beside LiteEFG 1.0':<44}{'it/s':>14}{'LiteEFG':>16}{'speed-up':>10}")
    for name, build in (("kuhn_poker", kuhn_poker), ("leduc_poker", leduc_poker)):
        game = build()
        for algorithm, traversal, config in (
            ("cfr (simultaneous)", "Enumerate", cfr_preset("cfr", updates="simultaneous")),
            ("mccfr-external", "External", cfr_preset("mccfr-external")),
            ("pcfr+", "Enumerate", cfr_preset("pcfr+")),
        ):
            ours = _rate(CFRSolver(game, config).step, budget)
            make = pcfr_graph if config.predictive else cfr_graph
            peer = _rate(liteefg_run(name, traversal, make), budget)
            line(f"{name + ' ' + algorithm:<44}{ours:14,.1f}{peer:16,.1f}{ours / peer:9.1f}x")


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
