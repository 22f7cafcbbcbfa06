"""The array backend: NumPy always, CuPy on a GPU (tests marked ``gpu`` skip without one)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import catalog_game, random_game
from rmviz.solvers.backend import get_backend, gpu_available
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

PACKAGE = Path(__file__).resolve().parents[2] / "rmviz"


def test_cupy_is_imported_in_backend_py_alone():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(name.split(".")[0] == "cupy" for name in names) and path.name != "backend.py":
                offenders.append(str(path))
    assert offenders == []


def test_cpu_and_auto_without_gpu():
    assert get_backend("cpu").xp is np
    if not gpu_available():
        assert get_backend("auto", large=True).device == "cpu"
        with pytest.raises(ConfigError, match="needs CuPy"):
            get_backend("gpu")
    with pytest.raises(ConfigError, match="unknown device"):
        get_backend("tpu")


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("spec", "algorithm", "play"),
    [
        ("rps-crash", "rm", "expected"),
        ("rps-crash", "greedy-rm", "expected"),
        ("rps-crash", "internal-rm", "expected"),
        ("zero-sum 300x200", "predictive-rm+", "expected"),
        ("general-sum 4x4x4", "greedy-internal-rm", "sampled"),
    ],
)
def test_gpu_matches_cpu(spec, algorithm, play):
    game = (
        catalog_game(spec)
        if spec == "rps-crash"
        else (
            random_game("zero-sum", (300, 200), seed=1)
            if "300" in spec
            else random_game("general-sum", (4, 4, 4), seed=1)
        )
    )
    cpu = RegretMinimizer(game, preset(algorithm, play=play, device="cpu"))
    gpu = RegretMinimizer(game, preset(algorithm, play=play, device="gpu"))
    assert gpu.backend.is_gpu
    cpu.step(200)
    gpu.step(200)
    a, b = cpu.snapshot(), gpu.snapshot()
    if play == "expected":  # deterministic: the same iterates up to rounding
        for x, y in zip(a.average_strategy, b.average_strategy, strict=True):
            np.testing.assert_allclose(x, y, atol=1e-8)
        assert a.metrics.nash_conv == pytest.approx(b.metrics.nash_conv, abs=1e-8)
    else:  # different random streams: both must still be valid and converging
        for strategy in b.average_strategy:
            assert strategy.sum() == pytest.approx(1.0)
        assert b.metrics.ce_gap < 0.5


def test_auto_takes_the_gpu_only_for_large_games_its_kernels_run(monkeypatch):
    """``device="auto"`` with a GPU present: two-player expected play with a fixed schedule
    from AUTO_GPU_MIN_ENTRIES entries; never sampled play or 3+ players (the generic code,
    launch-bound on a GPU), never small games."""
    import rmviz.solvers.backend as backend
    from rmviz.solvers.matrix import device

    monkeypatch.setattr(backend, "_cupy", lambda: np)  # a stand-in "GPU" module
    monkeypatch.setattr(device, "kernel_for", lambda *a, **k: None)
    large, small = random_game("zero-sum", (800, 700), seed=0), random_game("zero-sum", (10, 10), seed=0)
    assert RegretMinimizer(large, preset("rm")).backend.is_gpu
    assert not RegretMinimizer(small, preset("rm")).backend.is_gpu
    assert not RegretMinimizer(large, preset("rm", play="sampled")).backend.is_gpu
    assert not RegretMinimizer(large, preset("greedy-rm")).backend.is_gpu
    assert not RegretMinimizer(
        random_game("general-sum", (100, 100, 100), seed=0), preset("rm")
    ).backend.is_gpu
