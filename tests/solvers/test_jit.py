"""Where numba caches the compiled kernels: a per-user directory, or ``NUMBA_CACHE_DIR``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rmviz.solvers import jit


def test_the_cache_is_the_variable_when_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert jit.cache_dir() == tmp_path


def test_the_cache_is_per_user_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    path = jit.cache_dir()
    assert path.parent.name == "numba" and path.name.startswith("source-") and "rmviz" in path.parts
    assert path.is_absolute() and not path.is_relative_to(Path(jit.__file__).parents[2])


def test_an_edit_of_any_solver_source_gives_a_fresh_cache(tmp_path: Path) -> None:
    """numba checks a cached kernel against its own file only: an edit of the greedy line
    search in weighting.py must not load the matrix kernel compiled before it."""
    solvers = Path(jit.__file__).parent
    copy = tmp_path / "solvers"
    shutil.copytree(solvers, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert jit.solvers_digest(copy) == jit.solvers_digest(solvers)
    weighting = copy / "weighting.py"
    weighting.write_text(weighting.read_text() + "\n# an edit\n")
    assert jit.solvers_digest(copy) != jit.solvers_digest(solvers)


def test_a_frozen_app_caches_per_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba stamps a frozen app's kernels with its executable, not their source."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    path = jit.cache_dir()
    assert path.parent.name == "numba" and path.name.startswith("bundle-")
    assert path == jit.cache_dir()  # the same build, the same directory


@pytest.mark.slow
@pytest.mark.skipif(not jit.AVAILABLE, reason="needs numba")
def test_kernels_are_cached_there_whatever_the_launch_directory(tmp_path: Path) -> None:
    """A function compiled with ``jit`` in a process started elsewhere, where numba was
    imported before rmviz, is cached in the per-user directory (here under a fresh
    ``XDG_CACHE_HOME``)."""
    (tmp_path / "kernel.py").write_text(
        "import numba\nfrom rmviz.solvers.jit import jit\n\n@jit\ndef twice(x):\n    return 2 * x\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(Path(jit.__file__).parents[2])])
    launch = tmp_path / "elsewhere"
    launch.mkdir()
    subprocess.run(
        [sys.executable, "-c", "import kernel; assert kernel.twice(21) == 42"],
        cwd=launch,
        env=env,
        check=True,
    )
    cached = list((tmp_path / "cache" / "rmviz" / "numba").rglob("kernel.twice-*.nbi"))
    assert len(cached) == 1
    assert not list(tmp_path.rglob("__pycache__/*.nbi"))
