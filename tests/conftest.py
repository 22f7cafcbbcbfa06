"""Shared fixtures. GPU tests are marked ``gpu`` and skip cleanly without CuPy and CUDA."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[1]
REFERENCE_GAMES = REPO / "tests" / "data" / "reference-games"


def pytest_configure(config: pytest.Config) -> None:
    """numba is imported first, so that every solver in the tests runs its compiled kernel
    (a process without numba runs a short matrix run in the array code: rmviz.solvers.jit).
    With pytest-xdist's workers (``-n``), the controller compiles the numba kernels first,
    split over as many processes (:mod:`rmviz.solvers.precompile`): otherwise every worker
    compiles the same kernels for its first tests (with an empty cache, the default run took
    274-313 s on the 2-core machine against 222 s with a warm one)."""
    from rmviz.solvers import jit

    jit.load()
    workers = config.getoption("numprocesses", None)
    if workers and not hasattr(config, "workerinput"):
        from rmviz.solvers.precompile import precompile

        precompile(workers)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip, saying why, the tests whose reference is absent: a GPU (``gpu``) or Gambit
    (``gambit``: the ``reference`` extra, left out of ``test`` because it builds C++)."""
    from importlib.util import find_spec

    from rmviz.solvers.backend import gpu_available

    absent = {}
    if not gpu_available():
        absent["gpu"] = pytest.mark.skip(reason="needs CuPy and an NVIDIA GPU")
    if find_spec("pygambit") is None:
        absent["gambit"] = pytest.mark.skip(
            reason="needs pygambit: pip install -e '.[reference]' (builds Gambit's C++, minutes)"
        )
    for item in items:
        for marker, skip in absent.items():
            if marker in item.keywords:
                item.add_marker(skip)


@pytest.fixture
def reference_games() -> Path:
    """The Gambit reference files, vendored in tests/data/reference-games (see its README)."""
    return REFERENCE_GAMES
