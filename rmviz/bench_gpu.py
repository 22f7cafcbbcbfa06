"""``rmviz bench --device gpu``: the GPU's rows beside the CPU's, measured in one run.

* **bound**: the time to read the payoff matrix once at the device's memory bandwidth,
  measured here as a large device-to-device copy (bytes read plus bytes written over its
  time). Expected play with simultaneous updates reads each payoff entry once per iteration
  (a zero-sum game's ``P_1 = -P_0`` not at all; :mod:`rmviz.solvers.matrix.device`), so
  ``bound it/s = bandwidth / (rows x columns x bytes per entry)`` and ``vs bound`` is the
  measured time per iteration over that.
* **large RM**: RM on random zero-sum n x n games, float64 and float32, GPU beside the CPU's
  compiled kernel (the same solver, ``device="cpu"``).
* **small games**: one 10x10 game (the GPU's device loop against the CPU kernel) and a
  batch of random 10x10 games solved at once (:class:`~rmviz.solvers.matrix.batch.BatchSolver`,
  one thread block per game) against the same batch on the CPU.
* **FTRL and fictitious play**: issue 31's rules on a 1000x1000 game, generic array code
  on the GPU, beside RM.
* **trees**: CFR, CFR+ and predictive CFR+ (alternating updates) on liar's dice and goofspiel with 6 cards,
  read through OpenSpiel, GPU (:mod:`rmviz.solvers.tree.device`) beside the CPU's compiled
  kernel.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rmviz.errors import ConfigError
from rmviz.games.generators import random_game
from rmviz.solvers.backend import get_backend, gpu_available, gpu_name
from rmviz.solvers.matrix.batch import BatchSolver
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.timing import rate as _rate

BATCH_GAMES, BATCH_ITERATIONS = 1000, 10_000


def copy_bandwidth(xp: Any, gib: float = 2.0) -> float:
    """Bytes per second of a device-to-device copy of ``gib`` GiB, read plus written (best of
    20 copies timed with CUDA events after a warm-up)."""
    source = xp.ones(int(gib * 2**30) // 8)
    target = xp.empty_like(source)
    target[...] = source
    start, end = xp.cuda.Event(), xp.cuda.Event()
    best = float("inf")
    for _ in range(20):
        start.record()
        target[...] = source
        end.record()
        end.synchronize()
        best = min(best, xp.cuda.get_elapsed_time(start, end) / 1e3)
    return 2 * source.nbytes / best


def _device_rate(
    step: Callable[[int], None], synchronize: Callable[[], None], seconds: float, first: int
) -> float:
    """The :func:`rmviz.timing.rate` of ``step(n)`` including the wait for the device to finish."""

    def run(n: int) -> None:
        step(n)
        synchronize()

    return _rate(run, seconds, first)


def run_gpu_bench(
    line: Callable[[str], None],
    seconds: float,
    sizes: tuple[int, ...] = (1000, 4000, 10_000),
    batch_games: int = BATCH_GAMES,
) -> None:
    """Print the GPU section of ``rmviz bench``."""
    if not gpu_available():
        raise ConfigError("--device gpu needs CuPy and an NVIDIA GPU, and none was found")
    xp = get_backend("gpu").xp
    synchronize = xp.cuda.Device().synchronize
    bandwidth = copy_bandwidth(xp)
    line()
    line(f"GPU: {gpu_name()}; device-to-device copy {bandwidth / 1e9:,.0f} GB/s (read + written)")
    line(f"{'case':<44}{'it/s':>14}{'CPU it/s':>14}{'GPU/CPU':>9}{'GB/s':>8}{'vs bound':>10}")

    def row(label: str, rate: float, cpu: float | None, matrix_bytes: int | None = None) -> None:
        text = f"{label:<44}{rate:14,.0f}"
        text += f"{cpu:14,.0f}{rate / cpu:8.1f}x" if cpu else " " * 23
        if matrix_bytes:
            text += f"{matrix_bytes * rate / 1e9:8,.0f}{bandwidth / (matrix_bytes * rate):9.2f}x"
        line(text)

    for size in sizes:
        game = random_game("zero-sum", (size, size), seed=0)
        for dtype in ("float64", "float32"):
            gpu = RegretMinimizer(game, preset("rm", device="gpu", dtype=dtype))
            rate = _device_rate(gpu.step, synchronize, seconds, 1)
            cpu_rate = None
            if size <= 4000:  # above, a CPU iteration takes a large share of the budget
                cpu = RegretMinimizer(game, preset("rm", device="cpu", dtype=dtype))
                cpu_rate = _rate(cpu.step, seconds, 1)
            row(
                f"random zero-sum {size}x{size} rm {dtype}",
                rate,
                cpu_rate,
                size * size * np.dtype(dtype).itemsize,
            )
            del gpu
        alternating = RegretMinimizer(game, preset("rm", device="gpu", updates="alternating"))
        rate = _device_rate(alternating.step, synchronize, seconds, 1)
        row("  alternating (two passes) float64", rate, None, 2 * size * size * 8)
        del game, alternating
        xp.get_default_memory_pool().free_all_blocks()

    small = random_game("zero-sum", (10, 10), seed=0)
    gpu_small = RegretMinimizer(small, preset("rm", device="gpu"))
    cpu_small = RegretMinimizer(small, preset("rm", device="cpu"))
    row(
        "random zero-sum 10x10 rm (one game)",
        _device_rate(gpu_small.step, synchronize, seconds, 1000),
        _rate(cpu_small.step, seconds, 1000),
    )
    payoffs = np.stack([random_game("general-sum", (10, 10), seed=g).payoffs for g in range(batch_games)])
    _batch_row(
        row,
        line,
        synchronize,
        lambda where: BatchSolver(payoffs, preset("rm+", device=where)),
        f"{batch_games} random 10x10 games x {BATCH_ITERATIONS:,} rm+",
        batch_games,
        BATCH_ITERATIONS,
    )
    _ftrl_rows(row, line, synchronize, seconds)
    _tree_rows(row, line, synchronize, seconds)
    line("vs bound: time per iteration / time to read the matrix once at the copy bandwidth")


FTRL_SIZE = 1000
FTRL_RULES = ("hedge", "optimistic-hedge", "ftrl", "fictitious-play")


def _ftrl_rows(
    row: Callable[..., None], line: Callable[[str], None], synchronize: Any, seconds: float
) -> None:
    """Hedge, optimistic Hedge, Euclidean FTRL and fictitious play beside RM on a random
    zero-sum 1000x1000 game: the generic array code on the GPU (these rules have no CUDA
    kernel) against the CPU's compiled kernel."""
    game = random_game("zero-sum", (FTRL_SIZE, FTRL_SIZE), seed=0)
    line(f"FTRL and fictitious play on random zero-sum {FTRL_SIZE}x{FTRL_SIZE} (generic array code)")
    for algorithm in ("rm", *FTRL_RULES):
        gpu = RegretMinimizer(game, preset(algorithm, device="gpu"))
        cpu = RegretMinimizer(game, preset(algorithm, device="cpu"))
        row(f"  {algorithm}", _device_rate(gpu.step, synchronize, seconds, 1), _rate(cpu.step, seconds, 1))


TREE_GAMES = {
    "liars_dice": "liars_dice(dice_sides=6)",
    "goofspiel 6": "goofspiel(num_cards=6,imp_info=True,points_order=descending)",
    "leduc_poker 3 players": "leduc_poker(players=3)",
}
BIG_TREE_LEVELS = 23  # 16.8 million histories (rmviz.games.random_trees.binary_tree)
CROSSOVER_LEVELS = (9, 11, 13, 15, 17, 19, 21)  # 1,023 to 4.2 million histories


def _tree_rows(
    row: Callable[..., None], line: Callable[[str], None], synchronize: Any, seconds: float
) -> None:
    """CFR, CFR+ and PCFR+ (alternating updates) on OpenSpiel's liar's dice (294,883 histories),
    goofspiel with 6 cards (969,523) and 3-player Leduc (1.8 million; when OpenSpiel is
    installed) and a generated binary tree of 16.8 million histories, GPU beside the CPU's
    compiled kernel; ``vs bound`` is the time per iteration over the time to read or write the
    tree's device arrays once per traversal at the copy bandwidth. Then CFR on binary trees
    from 1,023 histories up: the size from which the GPU is faster (``device="auto"``'s
    threshold, :data:`rmviz.solvers.backend.AUTO_GPU_MIN_NODES`)."""
    from rmviz.formats.openspiel import openspiel_game
    from rmviz.games.random_trees import binary_tree

    games: dict[str, Callable[[], Any]] = {}
    try:
        import pyspiel  # noqa: F401

        walk = functools.partial(openspiel_game, max_nodes=2_000_000)
        games = {name: functools.partial(walk, spec) for name, spec in TREE_GAMES.items()}
    except ImportError:
        line("  (install open-spiel for liar's dice, goofspiel 6 and 3-player Leduc)")
    games[f"binary tree {BIG_TREE_LEVELS} levels"] = functools.partial(binary_tree, BIG_TREE_LEVELS)
    for name, build in games.items():
        game = build()
        for algorithm in ("cfr", "cfr+", "pcfr+"):
            gpu_rate, cpu_rate, traffic, nodes = _tree_rates(game, algorithm, synchronize, seconds)
            row(f"{name} ({nodes:,} histories) {algorithm}", gpu_rate, cpu_rate, traffic)
        del game
    _tree_batch_rows(row, line, synchronize)
    line("CFR (alternating) on binary trees: GPU against CPU by size")
    for levels in CROSSOVER_LEVELS:
        gpu_rate, cpu_rate, traffic, nodes = _tree_rates(binary_tree(levels), "cfr", synchronize, seconds / 4)
        row(f"  binary tree ({nodes:,} histories)", gpu_rate, cpu_rate, traffic)


TREE_BATCH_GAMES, TREE_BATCH_ITERATIONS = 1000, 1000


def _tree_batch_rows(row: Callable[..., None], line: Callable[[str], None], synchronize: Any) -> None:
    """1000 games of Kuhn's tree with random zero-sum payoffs, CFR+ (alternating) for 1000
    iterations in one :class:`~rmviz.solvers.tree.batch.TreeBatchSolver`: the GPU's batched
    launches against the CPU kernel game after game on one core."""
    from rmviz.games.trees import kuhn_poker
    from rmviz.solvers.tree.batch import TreeBatchSolver, random_payoffs
    from rmviz.solvers.tree.config import preset as cfr_preset

    game = kuhn_poker()
    payoffs = random_payoffs(game, TREE_BATCH_GAMES, seed=0)
    _batch_row(
        row,
        line,
        synchronize,
        lambda where: TreeBatchSolver(game, payoffs, cfr_preset("cfr+", device=where)),
        f"{TREE_BATCH_GAMES} Kuhn trees x {TREE_BATCH_ITERATIONS:,} cfr+",
        TREE_BATCH_GAMES,
        TREE_BATCH_ITERATIONS,
    )


def _batch_row(
    row: Callable[..., None],
    line: Callable[[str], None],
    synchronize: Any,
    make: Callable[[str], Any],
    label: str,
    games: int,
    iterations: int,
) -> None:
    """A batch's game-iterations per second on the GPU and the CPU (``make(where)`` builds
    it), timed around one ``step(iterations)`` after a compiling step, and how far its
    NashConvs part: matrix regret dynamics amplify the GPU's other order of summation (equal
    to 1e-9 over 41 iterations, ``tests/solvers/matrix/test_batch.py``), while the tree batch
    is the CPU's bit for bit."""
    timings, gaps = {}, {}
    for where in ("gpu", "cpu"):
        batch = make(where)
        batch.step(1)  # compile
        synchronize()
        start = time.perf_counter()
        batch.step(iterations)
        synchronize()
        timings[where] = time.perf_counter() - start
        gaps[where] = np.asarray(batch.nash_conv())
    row(f"{label} (game-it/s)", games * iterations / timings["gpu"], games * iterations / timings["cpu"])
    parted = float(np.max(np.abs(gaps["gpu"] - gaps["cpu"]) / np.maximum(np.abs(gaps["cpu"]), 1e-15)))
    line(
        f"  batch wall time: GPU {timings['gpu']:.3f} s, CPU {timings['cpu']:.2f} s; median NashConv "
        f"{np.median(gaps['gpu']):.2e}; largest relative difference GPU/CPU {parted:.1e}"
    )


def _tree_rates(game: Any, algorithm: str, synchronize: Any, seconds: float) -> tuple[float, float, int, int]:
    """GPU and CPU iterations per second of ``algorithm``, the device bytes one iteration
    reads or writes at least once, and the number of histories."""
    from rmviz.solvers.tree.config import preset as cfr_preset
    from rmviz.solvers.tree.solver import CFRSolver

    gpu = CFRSolver(game, cfr_preset(algorithm, device="gpu"))
    cpu = CFRSolver(game, cfr_preset(algorithm, device="cpu"))
    assert gpu.device is not None
    traffic = gpu.device.nbytes() * len(gpu.device.traversals)
    return (
        _device_rate(gpu.step, synchronize, seconds, 1),
        _rate(cpu.step, seconds, 1),
        traffic,
        gpu.tree.n_nodes,
    )
