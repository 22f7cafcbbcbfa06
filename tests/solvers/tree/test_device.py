"""CFR on the GPU (rmviz.solvers.tree.device) gives the CPU kernel's iterates bit for bit.

GPU tests are marked ``gpu`` and skip cleanly without one; the choice of device is checked
without CuPy.
"""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games.random_trees import binary_tree
from rmviz.games.trees import kuhn_poker, leduc_poker, teaching_tree
from rmviz.solvers import backend
from rmviz.solvers.tree import solver as tree_solver
from rmviz.solvers.tree.config import PRESETS, preset
from rmviz.solvers.tree.solver import CFRSolver
from tests.solvers import cuda_emulator
from tests.solvers.tree.ragged import PARTED, ragged_tree

FULL_TRAVERSALS = ("cfr", "cfr+", "linear-cfr", "dcfr", "pcfr+", "pdcfr+")


def test_which_algorithms_run_on_a_gpu():
    for name in PRESETS:
        assert preset(name).runs_on_gpu == (name in FULL_TRAVERSALS), name


def test_auto_takes_the_gpu_for_large_trees_only(monkeypatch):
    chosen = []
    monkeypatch.setattr(
        tree_solver, "get_backend", lambda device, large: chosen.append(large) or backend.get_backend("cpu")
    )
    CFRSolver(kuhn_poker(), preset("cfr"))
    monkeypatch.setattr(tree_solver, "AUTO_GPU_MIN_NODES", 50)  # Kuhn has 58 nodes
    CFRSolver(kuhn_poker(), preset("cfr"))
    CFRSolver(kuhn_poker(), preset("greedy-cfr"))
    CFRSolver(kuhn_poker(), preset("mccfr-external"))
    assert chosen == [False, True, False, False]


def liars_dice():
    pytest.importorskip("pyspiel")
    from rmviz.formats import load_game

    return load_game("openspiel:liars_dice(dice_sides=6)")


def generated_tree():
    return binary_tree(12)  # 8,191 histories


@pytest.mark.gpu
@pytest.mark.parametrize("build", [kuhn_poker, leduc_poker, teaching_tree, liars_dice, generated_tree])
@pytest.mark.parametrize("algorithm", FULL_TRAVERSALS)
@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_gpu_cfr_equals_the_cpu_kernel(build, algorithm, updates):
    """50 iterations (1, then 49) give the CPU kernel's iterates bit for bit."""
    game = build()
    cpu = CFRSolver(game, preset(algorithm, updates=updates, device="cpu"))
    gpu = CFRSolver(game, preset(algorithm, updates=updates, device="gpu"))
    assert gpu.device is not None and gpu.backend.is_gpu
    for n in (1, 49):
        cpu.step(n)
        gpu.step(n)
        a, b = cpu.snapshot(), gpu.snapshot()
        for field in ("current_strategy", "average_strategy", "cumulative_regret"):
            np.testing.assert_array_equal(getattr(b, field), getattr(a, field), err_msg=field)
        assert b.metrics.nash_conv == a.metrics.nash_conv
        assert gpu.state.weight_sum == cpu.state.weight_sum


def _same_ties(game, algorithm: str, updates: str, on_gpu: CFRSolver) -> None:
    """20 iterations on ``on_gpu`` give the CPU walk's iterates: to rounding (the GPU sums an
    information set's histories in node order, the walk depth first), so every tie is
    decided alike (a tie decided otherwise moves a strategy by 1/2 or more)."""
    cpu = CFRSolver(game, preset(algorithm, updates=updates, device="cpu"))
    for n in (1, 19):
        cpu.step(n)
        on_gpu.step(n)
    for name in ("strategy", "regret", "strategy_sum"):
        a, b = getattr(cpu.state, name), getattr(on_gpu.state, name)
        np.testing.assert_allclose(b, a, rtol=1e-9, atol=1e-12, err_msg=name)


@pytest.mark.gpu
@pytest.mark.parametrize(("seed", "players", "algorithm", "updates"), PARTED)
def test_gpu_decides_ties_of_integer_payoffs_as_the_cpu(seed, players, algorithm, updates):
    """Trees whose exact ties are rounding noise, or with a player who never moves."""
    game = ragged_tree(seed, players, integer_payoffs=True)
    gpu = CFRSolver(game, preset(algorithm, updates=updates, device="gpu"))
    assert gpu.device is not None
    _same_ties(game, algorithm, updates, gpu)


@pytest.mark.skipif(cuda_emulator.compiler() is None, reason="needs a C++ compiler")
@pytest.mark.parametrize(("seed", "players", "algorithm", "updates"), PARTED)
def test_emulated_cuda_kernels_decide_ties_as_the_cpu(seed, players, algorithm, updates, monkeypatch):
    emulated = backend.Backend(cuda_emulator.EmulatedCuPy(), "gpu")
    monkeypatch.setattr(tree_solver, "get_backend", lambda device, large: emulated)
    game = ragged_tree(seed, players, integer_payoffs=True)
    on_gpu = CFRSolver(game, preset(algorithm, updates=updates))
    assert on_gpu.device is not None
    monkeypatch.undo()
    _same_ties(game, algorithm, updates, on_gpu)


@pytest.mark.gpu
def test_gpu_cfr_interleaves_with_recorded_steps():
    """The step-by-step view's recorded iterations (NumPy) and GPU steps share the state."""
    game = leduc_poker()
    cpu = CFRSolver(game, preset("cfr+", device="cpu"))
    gpu = CFRSolver(game, preset("cfr+", device="gpu"))
    for solver in (cpu, gpu):
        solver.step(5)
        solver.step_recorded()
        solver.step(5)
    np.testing.assert_allclose(gpu.snapshot().average_strategy, cpu.snapshot().average_strategy, atol=1e-12)
    assert gpu.report(gpu.snapshot())["device"].startswith("gpu (")


@pytest.mark.skipif(cuda_emulator.compiler() is None, reason="needs a C++ compiler")
@pytest.mark.parametrize(
    ("build", "iterations", "algorithm", "updates"),
    [
        *((kuhn_poker, 25, a, u) for a in FULL_TRAVERSALS for u in ("alternating", "simultaneous")),
        (teaching_tree, 25, "cfr", "alternating"),
        (teaching_tree, 25, "dcfr", "simultaneous"),
        (leduc_poker, 3, "cfr", "alternating"),
        (leduc_poker, 3, "cfr+", "alternating"),
        (leduc_poker, 3, "dcfr", "simultaneous"),
        (leduc_poker, 3, "pcfr+", "alternating"),
        (leduc_poker, 3, "pdcfr+", "simultaneous"),
    ],
)
def test_cuda_kernels_emulated_on_the_cpu_equal_the_cpu_kernel(
    build, iterations, algorithm, updates, monkeypatch
):
    """Without a GPU: cfr.cu's kernels, compiled for the CPU and run thread by thread (exact:
    their threads never communicate), with device.py's launches, give the CPU kernel's
    iterates bit for bit."""
    emulated = backend.Backend(cuda_emulator.EmulatedCuPy(), "gpu")
    monkeypatch.setattr(tree_solver, "get_backend", lambda device, large: emulated)
    game = build()
    on_gpu = CFRSolver(game, preset(algorithm, updates=updates))
    assert on_gpu.device is not None
    monkeypatch.undo()
    cpu = CFRSolver(game, preset(algorithm, updates=updates, device="cpu"))
    for n in (1, iterations):
        cpu.step(n)
        on_gpu.step(n)
    np.testing.assert_array_equal(on_gpu.state.strategy, cpu.state.strategy)
    np.testing.assert_array_equal(on_gpu.state.regret, cpu.state.regret)
    np.testing.assert_array_equal(on_gpu.state.strategy_sum, cpu.state.strategy_sum)
    np.testing.assert_array_equal(on_gpu.state.true_regret, cpu.state.true_regret)
    if cpu.state.prediction is not None:
        np.testing.assert_array_equal(on_gpu.state.prediction, cpu.state.prediction)
    assert on_gpu.state.weight_sum == cpu.state.weight_sum
