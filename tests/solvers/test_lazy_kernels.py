"""numba is imported when a kernel is first called (rmviz.solvers.jit.load), and a command
that asks (jit.prepare: rmviz solve) and has not imported numba runs its first jit.SHORT_RUN
iterations of small matrix games in the array code, which gives the kernel's iterates bit
for bit; then the kernels. Other processes run the kernels from the first iteration."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from rmviz.games.catalog import catalog_game
from rmviz.solvers import jit
from rmviz.solvers.matrix import kernels
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

pytestmark = pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed")

ITERATES = ("current", "regret", "prediction", "strategy_sum", "external_regret")
TOTALS = ("payoff_sum", "weight_sum", "last_lambda")


def test_importing_the_kernels_imports_no_numba_and_a_first_call_loads_every_kernel():
    code = """
import sys
from rmviz.solvers import stationary
from rmviz.solvers.matrix import kernels
from rmviz.solvers.tree import kernels as tree_kernels
assert "numba" not in sys.modules
assert type(kernels._run_bimatrix_expected).__name__ == "Kernel"
assert kernels._row_utilities.__name__ == "_row_utilities" and kernels._row_utilities.__doc__
assert "numba" not in sys.modules  # (reading them loads nothing)
bits = stationary.chain_bits(k=3)  # (keywords pass through as to a dispatcher)
from numba.core.dispatcher import Dispatcher
assert bits.shape[0] > 0
for module in (kernels, stationary, tree_kernels):
    waiting = [name for name, value in vars(module).items() if type(value).__name__ == "Kernel"]
    assert not waiting, waiting
assert isinstance(kernels._run_bimatrix_expected, Dispatcher)
assert isinstance(kernels._row_utilities, Dispatcher)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]


def test_after_loading_every_kernel_is_numbas_dispatcher():
    from numba.core.dispatcher import Dispatcher

    jit.load()  # (the tests' conftest has loaded it already)
    assert jit.loaded()
    assert isinstance(kernels._run_bimatrix_expected, Dispatcher)
    assert isinstance(jit.jit(lambda x: x + 1), Dispatcher)  # decorated after loading


@pytest.fixture
def without_numba(monkeypatch):
    """This process as one that has not imported numba, with its whole SHORT_RUN left."""
    monkeypatch.setattr(jit, "loaded", lambda: False)
    monkeypatch.setattr(jit, "_short_left", jit.SHORT_RUN)
    monkeypatch.setattr(jit, "_short_allowed", False)


def test_only_a_command_that_asks_runs_short_runs_in_the_array_code(monkeypatch, without_numba):
    """A sweep's worker, a notebook or the window run the kernels: their runs report speeds."""
    loads: list[int] = []
    monkeypatch.setattr(jit, "load", lambda: loads.append(1))
    assert not jit.short_run(10)
    jit.prepare(jit.SHORT_RUN + 1)  # more than SHORT_RUN: numba now, before the clock
    assert loads == [1] and not jit.short_run(10)
    jit.prepare(jit.SHORT_RUN)
    assert loads == [1] and jit.short_run(10) and jit._short_left == jit.SHORT_RUN - 10


def _state(solver: RegretMinimizer) -> dict[str, list[np.ndarray]]:
    state = solver.state
    out = {name: [np.array(a) for a in getattr(state, name)] for name in ITERATES}
    out.update({name: [np.array(getattr(state, name))] for name in TOTALS})
    return out


@pytest.mark.parametrize("algorithm", ["rm", "greedy-rm", "predictive-rm+"])
def test_a_short_run_takes_the_array_code_then_the_kernel_with_the_same_iterates(monkeypatch, algorithm):
    game = catalog_game("chicken")
    reference = RegretMinimizer(game, preset(algorithm))
    reference.step(jit.SHORT_RUN + 300)  # numba is loaded: the kernel throughout
    monkeypatch.setattr(jit, "loaded", lambda: False)  # as in a process without numba
    monkeypatch.setattr(jit, "_short_left", jit.SHORT_RUN)
    monkeypatch.setattr(jit, "_short_allowed", True)  # as rmviz solve's jit.prepare allows
    solver = RegretMinimizer(game, preset(algorithm))
    assert solver.array_twin
    paths: list[str] = []
    array_iterate, kernel_run = solver._iterate, solver._kernel.run
    monkeypatch.setattr(solver, "_iterate", lambda: (paths.append("array"), array_iterate())[1])
    monkeypatch.setattr(solver._kernel, "run", lambda s, n: (paths.append("kernel"), kernel_run(s, n))[1])
    solver.step(0)
    solver.step(jit.SHORT_RUN - 100)
    solver.step(100)  # SHORT_RUN iterations in all: still the array code
    assert paths == ["array"] * jit.SHORT_RUN
    solver.step(300)
    assert paths[-1] == "kernel" and paths.count("kernel") == 1
    for name, arrays in _state(reference).items():
        for expected, got in zip(arrays, _state(solver)[name], strict=True):
            np.testing.assert_array_equal(got, expected, err_msg=name)


def test_the_processs_short_run_is_shared_by_its_solvers(monkeypatch, without_numba):
    """Several runs in one command pay SHORT_RUN slow iterations in all, not per run."""
    monkeypatch.setattr(jit, "_short_allowed", True)
    game = catalog_game("chicken")
    first, second = (RegretMinimizer(game, preset("rm")) for _ in range(2))
    ran: list[int] = []
    second._kernel.run = lambda s, n: ran.append(n)  # (a kernel that only says it ran)
    first.step(jit.SHORT_RUN - 500)
    second.step(501)  # more than is left: the kernel
    assert ran == [501] and jit._short_left == 500
    second.step(500)  # what is left: the array code
    assert ran == [501] and jit._short_left == 0
    loads: list[int] = []
    monkeypatch.setattr(jit, "load", lambda: loads.append(1))
    jit.prepare(0)
    assert loads == []
    jit.prepare(1)  # nothing left: a run of one iteration loads numba before its clock
    assert loads == [1]


def test_a_large_or_float32_game_never_takes_the_array_code(without_numba):
    large = RegretMinimizer(catalog_game("rps"), preset("rm", dtype="float32"))
    assert large._kernel is not None and not large.array_twin
    internal = RegretMinimizer(catalog_game("rps"), preset("internal-rm"))
    assert not internal.array_twin  # its array code calls the stationary-distribution kernel


def test_a_gpu_run_never_takes_the_array_code(monkeypatch, without_numba):
    """The CUDA kernels agree with the array code to rounding only: a run on the GPU stays
    in them from its first iteration."""
    import rmviz.solvers.backend as backend
    from rmviz.solvers.matrix import device

    monkeypatch.setattr(backend, "_cupy", lambda: np)  # a stand-in "GPU" module
    monkeypatch.setattr(device, "kernel_for", lambda *a, **k: object())  # a stand-in CUDA kernel
    gpu = RegretMinimizer(catalog_game("rps"), preset("rm", device="gpu"))
    assert gpu.backend.is_gpu and gpu._kernel is not None and not gpu.array_twin


def test_a_library_run_in_a_new_process_runs_the_kernel_from_its_first_iteration():
    code = """
import sys
from rmviz.games.catalog import catalog_game
from rmviz.solvers.registry import make_solver
solver = make_solver(catalog_game("rps"), "rm")
assert "numba" not in sys.modules
solver.step(0)  # as rmviz.solve, sweeps and the window do: the kernel loads before the clock
assert "numba" in sys.modules
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
