"""Short runs drawn by every figure test: one matrix game and one game tree, each with a
comparison of two algorithms, recorded once per test session (figures never change a run)."""

from __future__ import annotations

import pytest

from rmviz.figures import record_comparison
from rmviz.games import catalog_game


@pytest.fixture(scope="session")
def matrix_run():
    return record_comparison(catalog_game("rps-crash"), ["rm", "rm+"], iterations=200)


@pytest.fixture(scope="session")
def tree_run():
    return record_comparison(catalog_game("kuhn"), ["cfr+", "cfr"], iterations=60)
