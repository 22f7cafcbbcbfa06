"""BatchSolver: B games at once give, game by game, the iterates of RegretMinimizer."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.batch import BatchSolver
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

BATCH_PRESETS = ("rm", "rm+", "linear-rm", "discounted-rm", "predictive-rm+")
UPDATES = ("simultaneous", "alternating")


def games(kind: str, shape: tuple[int, int], count: int, seed: int = 0) -> np.ndarray:
    return np.stack([random_game(kind, shape, seed=seed + g).payoffs for g in range(count)])


def one_by_one(payoffs: np.ndarray, config, iterations: int):
    """Each game's own RegretMinimizer (uniform start): average strategies and NashConv."""
    averages, gaps = ([], []), []
    for matrices in payoffs:
        solver = RegretMinimizer(NormalFormGame(matrices), config.with_(start={}))
        solver.step(iterations)
        snapshot = solver.snapshot()
        for k in range(2):
            averages[k].append(snapshot.average_strategy[k])
        gaps.append((snapshot.metrics.nash_conv, snapshot.metrics.cce_gap))
    return np.stack(averages[0]), np.stack(averages[1]), np.array(gaps)


CPU_CASES = [
    *((algorithm, updates, "zero-sum", (4, 6)) for algorithm in BATCH_PRESETS for updates in UPDATES),
    *(
        (algorithm, updates, "general-sum", (5, 3))
        for algorithm in ("rm", "predictive-rm+")
        for updates in UPDATES
    ),
    # above the small loop's 1024 entries: the single-pass products, P_1 = -P_0 not read
    ("rm+", "alternating", "zero-sum", (40, 35)),
    ("linear-rm", "simultaneous", "zero-sum", (40, 35)),
]


@pytest.mark.parametrize(("algorithm", "updates", "kind", "shape"), CPU_CASES)
def test_cpu_batch_equals_one_solver_per_game(algorithm, updates, kind, shape):
    payoffs = games(kind, shape, 4)
    config = preset(algorithm, updates=updates, device="cpu")
    batch = BatchSolver(payoffs, config)
    batch.step(30)
    batch.step(41)  # two calls: the iteration count carries over
    x, y, gaps = one_by_one(payoffs, config, 71)
    first, second = batch.average_strategy()
    np.testing.assert_allclose(first, x, rtol=0, atol=1e-12)
    np.testing.assert_allclose(second, y, rtol=0, atol=1e-12)
    np.testing.assert_allclose(batch.nash_conv(), gaps[:, 0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(batch.cce_gap(), gaps[:, 1], rtol=1e-9, atol=1e-12)


def test_nash_conv_is_recomputed_from_the_average_strategies():
    payoffs = games("general-sum", (3, 4), 3, seed=7)
    batch = BatchSolver(payoffs, preset("rm+", device="cpu"))
    batch.step(50)
    x, y = batch.average_strategy()
    for g in range(3):
        p0, p1 = payoffs[g]
        row, column = p0 @ y[g], x[g] @ p1
        expected = row.max() - x[g] @ row + column.max() - column @ y[g]
        assert batch.nash_conv()[g] == pytest.approx(expected, abs=1e-12)


def test_batch_payoffs_of_any_magnitude_give_the_same_strategies():
    payoffs = games("zero-sum", (4, 4), 2, seed=3)
    small = BatchSolver(payoffs, preset("rm", device="cpu"))
    huge = BatchSolver(payoffs * 2.0**100, preset("rm", device="cpu"))
    for solver in (small, huge):
        solver.step(40)
    np.testing.assert_array_equal(small.average_strategy()[0], huge.average_strategy()[0])
    np.testing.assert_allclose(huge.nash_conv(), small.nash_conv() * 2.0**100, rtol=1e-12)


@pytest.mark.parametrize(
    ("payoffs", "config", "message"),
    [
        (np.zeros((2, 3, 2, 2)), preset("rm"), "a batch of two-player games"),
        (np.full((1, 2, 2, 2), np.nan), preset("rm"), "finite"),
        (np.zeros((1, 2, 2, 2)), preset("greedy-rm"), "fixed schedule"),
        (np.zeros((1, 2, 2, 2)), preset("rm", play="sampled"), "expected play"),
        (np.zeros((1, 2, 2, 2)), preset("internal-rm"), "external regrets"),
        (np.zeros((1, 2, 2, 2)), preset("rm", start={0: [1, 0]}), "uniform"),
    ],
)
def test_unsupported_batches_are_refused_with_a_reason(payoffs, config, message):
    with pytest.raises(ConfigError, match=message):
        BatchSolver(payoffs, config)


@pytest.mark.gpu
@pytest.mark.parametrize("algorithm", BATCH_PRESETS)
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize(("kind", "shape"), [("zero-sum", (10, 10)), ("general-sum", (7, 40))])
def test_gpu_batch_equals_cpu_batch(algorithm, updates, kind, shape):
    payoffs = games(kind, shape, 50)
    cpu = BatchSolver(payoffs, preset(algorithm, updates=updates, device="cpu"))
    gpu = BatchSolver(payoffs, preset(algorithm, updates=updates, device="gpu"))
    for solver in (cpu, gpu):  # 41 iterations (HORIZON in test_device.py)
        solver.step(1)
        solver.step(40)
    for a, b in zip(cpu.average_strategy(), gpu.average_strategy(), strict=True):
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-9)
    np.testing.assert_allclose(gpu.nash_conv(), cpu.nash_conv(), rtol=0, atol=1e-9)
    np.testing.assert_allclose(gpu.cce_gap(), cpu.cce_gap(), rtol=0, atol=1e-9)


@pytest.mark.gpu
def test_gpu_batch_float32_stays_close():
    payoffs = games("zero-sum", (10, 10), 20)
    cpu = BatchSolver(payoffs, preset("rm+", device="cpu"))
    gpu = BatchSolver(payoffs, preset("rm+", device="gpu", dtype="float32"))
    for solver in (cpu, gpu):
        solver.step(200)
    np.testing.assert_allclose(gpu.nash_conv(), cpu.nash_conv(), atol=1e-5)
