"""Shared fixtures. GPU tests are marked ``gpu`` and skip cleanly without CuPy and CUDA."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[1]
REFERENCE_GAMES = REPO / "tests" / "data" / "reference-games"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from rmviz.solvers.backend import gpu_available

    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs CuPy and an NVIDIA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def reference_games() -> Path:
    """The Gambit reference files, vendored in tests/data/reference-games (see its README)."""
    return REFERENCE_GAMES
