"""CI's check, without a GPU, that the generic array code never syncs inside ``step(n)``.

The GPU runs the generic array code of :mod:`rmviz.solvers.matrix.solver` for what its CUDA
kernels do not cover (greedy weights, internal regrets, sampled play, three or more players).
Here that code runs against ``strict_xp``, a NumPy namespace whose arrays refuse to become
host numbers during ``step``: the CuPy-incompatible ``float(device_array)`` is caught before
it reaches a GPU (tests/solvers/matrix/test_device.py checks the same on a GPU with CuPy's
own detector).
"""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import catalog_game, random_game
from rmviz.solvers import backend as backend_module
from rmviz.solvers.matrix import device, solver
from rmviz.solvers.matrix.config import PRESETS, preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from tests.solvers import strict_xp

GAMES = {
    "rps-crash": lambda: catalog_game("rps-crash"),
    "general-sum 3x4x2": lambda: random_game("general-sum", (3, 4, 2), seed=2),
}


@pytest.fixture
def strict_gpu(monkeypatch):
    """Solvers asking for the GPU get the strict namespace and the generic array code."""
    monkeypatch.setattr(solver, "get_backend", lambda *a, **k: backend_module.Backend(strict_xp.xp, "gpu"))
    monkeypatch.setattr(device, "kernel_for", lambda *a, **k: None)


def test_the_strict_namespace_refuses_host_numbers():
    array = strict_xp.xp.zeros(3)
    assert float(array.sum()) == 0.0  # allowed outside step
    with strict_xp.forbidden(), pytest.raises(strict_xp.HostConversion, match="float"):
        float(array.sum())
    with strict_xp.forbidden(), pytest.raises(strict_xp.HostConversion, match="bool"):
        bool(array.sum() > 0)


@pytest.mark.parametrize("algorithm", list(PRESETS))
@pytest.mark.parametrize("play", ["expected", "sampled"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("spec", list(GAMES))
def test_generic_step_makes_no_host_conversion(strict_gpu, algorithm, play, updates, spec):
    if algorithm.startswith("greedy") and updates == "alternating":
        pytest.skip("greedy weights are simultaneous only")
    game = GAMES[spec]()
    on_gpu = RegretMinimizer(game, preset(algorithm, play=play, updates=updates, device="gpu"))
    assert on_gpu.backend.xp is strict_xp.xp and on_gpu._kernel is None
    with strict_xp.forbidden():
        on_gpu.step(6)
    # and the strict run is the CPU's generic run
    on_cpu = RegretMinimizer(game, preset(algorithm, play=play, updates=updates, device="cpu"))
    on_cpu._kernel = None
    on_cpu.step(6)
    for a, b in zip(on_cpu.snapshot().average_strategy, on_gpu.snapshot().average_strategy, strict=True):
        np.testing.assert_array_equal(a, b)
