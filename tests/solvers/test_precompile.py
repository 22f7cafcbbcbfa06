"""``rmviz precompile`` compiles what every run needs: the kernels' argument types of each
preset, play mode, update schedule, precision and game shape are those of its workloads, and
those of the matrix window's *Step* tab too; a complete compile leaves a stamp of the sources
it compiled, which a change of them makes stale."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rmviz.cli import main
from rmviz.errors import ConfigError
from rmviz.games.catalog import catalog_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers import jit, precompile
from rmviz.solvers.jit import AVAILABLE, cache_dir
from rmviz.solvers.matrix import kernels
from rmviz.solvers.matrix.explain import Replay
from rmviz.solvers.registry import FAMILIES, make_solver
from rmviz.solvers.tree import kernels as tree_kernels
from rmviz.solvers.tree import sampling_kernels

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="numba is not installed")

ENTRY_KERNELS = (
    kernels._run_bimatrix_expected,
    kernels._run_profiles,
    tree_kernels._run,
    sampling_kernels._run_subtree,
    sampling_kernels._run_outcome,
)


def _signatures() -> set[tuple[str, str]]:
    return {(kernel.__name__, str(signature)) for kernel in ENTRY_KERNELS for signature in kernel.signatures}


def all_signatures() -> set[tuple[str, str]]:
    """Every signature of every rmviz kernel called from Python in this process so far (a
    kernel another kernel calls is compiled inside it, not by its own dispatcher)."""
    from numba.core.dispatcher import Dispatcher

    kernels = {
        id(value): value
        for name, module in list(sys.modules.items())
        if name.startswith("rmviz.")
        for value in list(vars(module).values())
        if isinstance(value, Dispatcher)
    }
    return {
        (f"{kernel.py_func.__module__}.{kernel.__name__}", str(signature))
        for kernel in kernels.values()
        for signature in kernel.signatures
    }


def _matrix_games() -> list[NormalFormGame]:
    scaled = NormalFormGame(1e30 * np.array([[[3.0, -1.5], [0.25, 7.0]], [[-3.0, 1.5], [2.0, -7.0]]]))
    return [
        catalog_game("rps"),  # payoff scale 1: the solver reads the game's read-only payoffs
        scaled,  # divided by its payoff scale (rmviz.solvers.scale): a writable copy
        catalog_game("three-player-pennies"),
        NormalFormGame(np.arange(2 * 2 * 3, dtype=float).reshape(2, 2, 3)),  # not square
    ]


def _configurations():
    """(game, algorithm, options) of every preset in every mode a person can choose."""
    matrix, tree = (next(f for f in FAMILIES if f.name == name) for name in ("matrix", "tree"))
    schedules = ("simultaneous", "alternating")
    for game, algorithm, play, updates, dtype in itertools.product(
        _matrix_games(), matrix.presets, ("expected", "sampled"), schedules, (None, "float32")
    ):
        yield game, algorithm, {"play": play, "updates": updates, "dtype": dtype}
    for algorithm, updates in itertools.product(tree.presets, schedules):
        yield catalog_game("kuhn"), algorithm, {"updates": updates}


def test_the_workloads_compile_every_configurations_kernel_types():
    for workload, _ in precompile.WORKLOADS.values():
        workload()
    compiled = _signatures()
    runs = 0
    for game, algorithm, options in _configurations():
        try:
            solver = make_solver(game, algorithm, **options)
        except ConfigError:  # a combination the preset refuses (greedy weights alternating)
            continue
        solver.step(2)
        runs += 1
        assert _signatures() == compiled, (getattr(game, "num_actions", game), algorithm, options)
    assert runs > 200


def test_the_workloads_compile_what_the_step_tab_explains():
    """The matrix window's *Step* tab explains an iteration in Python: internal regret
    matching's stationary distribution is then a kernel of its own, with its own types."""
    for workload, _ in precompile.WORKLOADS.values():
        workload()
    compiled = all_signatures()
    matrix = next(f for f in FAMILIES if f.name == "matrix")
    for game, algorithm, play in itertools.product(
        (catalog_game("rps"), catalog_game("three-player-pennies")), matrix.presets, ("expected", "sampled")
    ):
        Replay(game, matrix.config(algorithm, play=play)).explain(3)
        assert all_signatures() - compiled == set(), (game.title, algorithm, play)


def test_the_groups_split_the_workloads_evenly():
    for jobs in (1, 2, 3, 16):
        split = precompile.groups(jobs)
        assert sorted(name for group in split for name in group) == sorted(precompile.WORKLOADS)
        assert len(split) == min(jobs, len(precompile.WORKLOADS))
    seconds = [sum(precompile.WORKLOADS[name][1] for name in group) for group in precompile.groups(2)]
    assert max(seconds) - min(seconds) <= max(seconds) / 4


def test_the_command_compiles_or_loads_the_kernels(capsys):
    assert main(["precompile", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kernels compiled or loaded in ") and str(cache_dir()) in out
    assert precompile.current()  # its stamp: the window's next start compiles nothing


def test_the_stamp_says_whether_the_cache_is_of_these_sources(tmp_path, monkeypatch):
    monkeypatch.setattr(precompile, "cache_dir", lambda: tmp_path / "cache")
    assert not precompile.current()  # no stamp: a first start
    precompile.mark_current()
    assert precompile.current()
    assert (tmp_path / "cache" / precompile.STAMP).read_text().strip() == precompile.fingerprint()
    (tmp_path / "cache" / precompile.STAMP).write_text("another version\n")
    assert not precompile.current()


def test_the_fingerprint_follows_the_sources_as_numba_does(tmp_path):
    """numba recompiles a kernel whose file has another size or modification time; so does
    the first start, for any solver source."""
    sources = tmp_path / "solvers"
    (sources / "tree").mkdir(parents=True)
    kernel = sources / "tree" / "kernels.py"
    kernel.write_text("x = 1\n")
    first = precompile.fingerprint(sources)
    assert precompile.fingerprint(sources) == first
    os.utime(kernel, ns=(0, kernel.stat().st_mtime_ns + 10**9))
    touched = precompile.fingerprint(sources)
    assert touched != first
    kernel.write_text("x = 12\n")
    assert precompile.fingerprint(sources) not in (first, touched)
    (sources / "new.py").write_text("")
    assert precompile.fingerprint(sources) != precompile.fingerprint(sources / "tree")
    assert precompile.fingerprint() != precompile.fingerprint(sources)  # rmviz.solvers by default
    assert Path(precompile.jit.__file__).parent.name == "solvers"


@pytest.mark.slow  # compiles every kernel into an empty cache (~35 s on two cores)
def test_after_precompile_a_new_process_loads_every_kernel_it_runs(tmp_path):
    """What `rmviz precompile` leaves in an empty cache is all a run of each kind needs:
    numba's cache log (NUMBA_DEBUG_CACHE) of the runs that follow saves nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}

    def rmviz(*argv: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "rmviz", *argv], env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    rmviz("precompile", "--jobs", "2")
    env["NUMBA_DEBUG_CACHE"] = "1"
    for argv in (
        # past the short run that rmviz solve plays in the array code (jit.SHORT_RUN), which loads no kernel
        ("solve", "random:general-sum:5x7:seed=1", "--algorithm", "greedy-rm", "-n", str(jit.SHORT_RUN + 1)),
        ("solve", "three-player-pennies", "--algorithm", "internal-rm", "--play", "sampled", "-n", "50"),
        ("solve", "rps", "--dtype", "float32", "-n", "50"),
        ("solve", "leduc", "--algorithm", "mccfr-outcome", "-n", "50"),
        ("solve", "kuhn", "--algorithm", "dcfr", "-n", "50"),
    ):
        log = rmviz(*argv)
        assert "data loaded" in log and "data saved" not in log, argv
