"""The CUDA kernels of two-player expected play (rmviz.solvers.matrix.device) against the CPU.

Every test here needs a GPU (marked ``gpu``: skipped cleanly without one), except the
choice of path, which is decided without CuPy.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.solvers.matrix import device
from rmviz.solvers.matrix.config import PRESETS, preset
from rmviz.solvers.matrix.solver import RegretMinimizer

FIXED_SCHEDULES = ("rm", "rm+", "linear-rm", "discounted-rm", "predictive-rm+")
# Iterations compared at 1e-9. Regret dynamics amplify rounding: the CPU's own two paths
# (compiled kernel, NumPy) part by up to 1e-5 after 157 iterations of predictive RM+ on random
# 7x40 games and by 8e-3 of linear RM on a 6x9 game, where after 41 they agree within 1e-9.
# The GPU sums in another order, so it is held to the same horizon.
HORIZON = 41


def test_supported_configs():
    for name in PRESETS:
        supported = device.supports(preset(name), 2)
        assert supported == (name in FIXED_SCHEDULES), name
        assert not device.supports(preset(name, play="sampled"), 2)
        assert not device.supports(preset(name), 3)


def assert_same_run(cpu: RegretMinimizer, gpu: RegretMinimizer, atol: float = 1e-9) -> None:
    a, b = cpu.snapshot(), gpu.snapshot()
    assert a.iteration == b.iteration
    for field in ("current_strategy", "average_strategy", "cumulative_regret", "average_regret"):
        for x, y in zip(getattr(a, field), getattr(b, field), strict=True):
            np.testing.assert_allclose(y, x, rtol=0, atol=atol, err_msg=field)
    if a.joint is not None:
        np.testing.assert_allclose(b.joint, a.joint, rtol=0, atol=atol)
    for name, value in a.metrics.as_dict().items():
        other = b.metrics.as_dict()[name]
        if value is None:
            assert other is None, name
        else:
            assert other == pytest.approx(value, abs=atol), name


@pytest.mark.gpu
@pytest.mark.parametrize("algorithm", FIXED_SCHEDULES)
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize(
    "spec", ["rps-crash", "zero-sum 7x5", "general-sum 6x9", "zero-sum 90x70", "general-sum 300x1000"]
)
def test_device_kernel_equals_cpu_kernel(algorithm, updates, spec, monkeypatch):
    """The device loop (small games, with the CE accumulator and joint of up to 64 actions)
    and the tiled pass (general-sum 300x1000, above a lowered LOOP_MAX_ENTRIES: 5 row tiles,
    1 column chunk; and its CUDA graphs: more than GRAPH_ITERATIONS iterations per call)."""
    if spec == "rps-crash":
        game = catalog_game(spec)
    else:
        kind, shape = spec.split()
        game = random_game(kind, tuple(int(k) for k in shape.split("x")), seed=3)
    if game.payoffs[0].size > 10_000:
        monkeypatch.setattr(device, "LOOP_MAX_ENTRIES", 10_000)
    cpu = RegretMinimizer(game, preset(algorithm, updates=updates, device="cpu"))
    gpu = RegretMinimizer(game, preset(algorithm, updates=updates, device="gpu"))
    assert isinstance(gpu._kernel, device.DeviceBimatrixKernel)
    assert gpu._kernel.tiled == (game.payoffs[0].size > 10_000)
    for n in (1, 40):  # 41 iterations: see HORIZON
        cpu.step(n)
        gpu.step(n)
        assert_same_run(cpu, gpu)


@pytest.mark.gpu
def test_tiled_pass_with_several_column_chunks(monkeypatch):
    monkeypatch.setattr(device, "LOOP_MAX_ENTRIES", 1000)
    game = random_game("zero-sum", (130, 2100), seed=5)  # 3 row tiles x 3 column chunks, ragged
    for updates in ("simultaneous", "alternating"):
        cpu = RegretMinimizer(game, preset("rm+", updates=updates, device="cpu"))
        gpu = RegretMinimizer(game, preset("rm+", updates=updates, device="gpu"))
        assert gpu._kernel.tiled and gpu._kernel.chunks == 3 and gpu._kernel.tiles == 3
        cpu.step(HORIZON)
        gpu.step(HORIZON)
        assert_same_run(cpu, gpu)


@pytest.mark.gpu
@pytest.mark.parametrize("tiled", [False, True])
def test_fixed_player(tiled, monkeypatch):
    if tiled:
        monkeypatch.setattr(device, "LOOP_MAX_ENTRIES", 100)
    game = random_game("general-sum", (20, 30), seed=1)
    for updates in ("simultaneous", "alternating"):
        for fixed in ({0: np.full(20, 0.05)}, {1: np.full(30, 1 / 30)}):
            config = preset("rm", updates=updates, fixed_strategies=fixed)
            cpu = RegretMinimizer(game, config.with_(device="cpu"))
            gpu = RegretMinimizer(game, config.with_(device="gpu"))
            cpu.step(HORIZON)
            gpu.step(HORIZON)
            assert_same_run(cpu, gpu)


@pytest.mark.gpu
@pytest.mark.parametrize("tiled", [False, True])
def test_float32_payoffs(tiled, monkeypatch):
    if tiled:
        monkeypatch.setattr(device, "LOOP_MAX_ENTRIES", 100)
    game = random_game("zero-sum", (200, 150), seed=2)
    cpu = RegretMinimizer(game, preset("rm", device="cpu"))
    gpu = RegretMinimizer(game, preset("rm", device="gpu", dtype="float32"))
    assert gpu._kernel.payoff0.dtype == np.float32
    cpu.step(100)
    gpu.step(100)
    assert_same_run(cpu, gpu, atol=1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize("tiled", [False, True])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_step_never_synchronises(tiled, updates, monkeypatch):
    """``step(n)`` only enqueues work: CuPy's synchronisation detector stays silent."""
    import cupyx

    if tiled:
        monkeypatch.setattr(device, "LOOP_MAX_ENTRIES", 100)
    game = random_game("zero-sum", (50, 60), seed=4)
    solver = RegretMinimizer(game, preset("predictive-rm+", updates=updates, device="gpu"))
    solver.step(40)  # compiles and captures first
    solver.snapshot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # allow_synchronize is marked experimental
        with cupyx.allow_synchronize(False):
            solver.step(100)
    assert solver.snapshot().iteration == 140


@pytest.mark.gpu
@pytest.mark.parametrize("algorithm", ["hedge", "optimistic-hedge", "ftrl", "fictitious-play"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("spec", ["rps-crash", "zero-sum 7x5", "general-sum 6x9", "general-sum 3x4x2"])
def test_ftrl_and_fictitious_play_equal_the_cpu(algorithm, updates, spec):
    """FTRL (entropic, optimistic, Euclidean) and fictitious play run the generic array code on
    the GPU (no CUDA kernel): CuPy's iterates equal the CPU's at each step to 1e-9 over
    HORIZON iterations, ties of fictitious play's best response decided alike."""
    if spec == "rps-crash":
        game = catalog_game(spec)
    else:
        kind, shape = spec.split()
        game = random_game(kind, tuple(int(k) for k in shape.split("x")), seed=3)
    cpu = RegretMinimizer(game, preset(algorithm, updates=updates, device="cpu"))
    gpu = RegretMinimizer(game, preset(algorithm, updates=updates, device="gpu"))
    assert gpu.backend.is_gpu and gpu._kernel is None
    for n in (1, 40):
        cpu.step(n)
        gpu.step(n)
        assert_same_run(cpu, gpu)


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("algorithm", "play", "spec"),
    [
        ("greedy-rm", "expected", (5, 7)),
        ("greedy-rm", "sampled", (5, 7)),
        ("internal-rm", "sampled", (4, 4)),
        ("greedy-internal-rm", "sampled", (4, 4)),
        ("rm", "expected", (3, 4, 2)),
        ("rm+", "sampled", (3, 4, 2)),
        ("hedge", "expected", (5, 7)),
        ("optimistic-hedge", "sampled", (5, 7)),
        ("ftrl", "expected", (3, 4, 2)),
        ("fictitious-play", "expected", (5, 7)),
    ],
)
def test_generic_step_never_synchronises(algorithm, play, spec):
    """The generic array code (what the CUDA kernels do not cover) only enqueues work too;
    internal RM in expected play is the exception: CuPy's least squares waits for the device
    (docs/performance.md, "GPU")."""
    import cupyx

    game = random_game("general-sum", spec, seed=6)
    solver = RegretMinimizer(game, preset(algorithm, play=play, device="gpu"))
    assert solver._kernel is None
    solver.step(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with cupyx.allow_synchronize(False):
            solver.step(20)
    assert solver.snapshot().iteration == 25


@pytest.mark.gpu
@pytest.mark.parametrize("tiled", [False, True])
@pytest.mark.parametrize("algorithm", ["rm", "predictive-rm+"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_a_tie_of_rounding_noise_stays_a_tie_on_the_gpu(tiled, algorithm, updates, monkeypatch):
    """The cyclic game of tests/solvers/matrix/test_one_answer.py: against uniform play every
    U(a) is 0 in exact arithmetic and rounding noise in floats; the device loop, the tiled
    pass and a batch keep uniform play with regrets exactly 0, as the CPU does."""
    from rmviz.games.normal_form import NormalFormGame
    from rmviz.solvers.matrix.batch import BatchSolver
    from tests.solvers.matrix.test_one_answer import CYCLIC

    if tiled:
        monkeypatch.setattr(device, "LOOP_MAX_ENTRIES", 1)
    game = NormalFormGame(np.stack([CYCLIC, -CYCLIC.T]))
    options = {"track_ce": False, "track_joint": False}  # the tiled pass keeps neither
    gpu = RegretMinimizer(game, preset(algorithm, updates=updates, device="gpu", **options))
    assert isinstance(gpu._kernel, device.DeviceBimatrixKernel) and gpu._kernel.tiled == tiled
    gpu.step(6)
    snapshot = gpu.snapshot()
    for strategy, regret in zip(snapshot.current_strategy, snapshot.cumulative_regret, strict=True):
        assert np.all(strategy == 1.0 / 3.0) and np.all(regret == 0.0)
    batch = BatchSolver(np.stack([game.payoffs] * 3), preset(algorithm, updates=updates, device="gpu"))
    batch.step(6)
    for strategies in batch.current_strategy():
        assert np.all(strategies == 1.0 / 3.0)
