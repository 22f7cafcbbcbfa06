"""The BLAS thread count: set by the API, the environment and the command line, and in force
(threadpoolctl reports the limit on every pool the process has loaded)."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.linalg  # noqa: F401  (loads SciPy's own OpenBLAS pool: both pools must obey)

from rmviz import cli
from rmviz.errors import ConfigError
from rmviz.games import catalog_game
from rmviz.solvers import threads
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer

pytest.importorskip("threadpoolctl")


@pytest.fixture(autouse=True)
def _restore(monkeypatch):
    monkeypatch.delenv(threads.THREADS_VARIABLE, raising=False)
    yield
    monkeypatch.delenv(threads.THREADS_VARIABLE, raising=False)
    threads._reserved = 0
    threads.set_threads(None)


def _counts() -> set[int]:
    counts = threads.pool_threads()
    assert counts, "NumPy's BLAS pool is loaded"
    return set(counts.values())


def test_the_default_is_one_thread_in_every_pool():
    assert threads.set_threads(None) == threads.DEFAULT_THREADS == 1
    assert _counts() == {1}
    assert len(threads.pool_threads()) >= 2  # NumPy's and SciPy's


def test_set_threads_takes_effect_and_the_solver_keeps_it():
    assert threads.set_threads(2) == 2
    assert _counts() == {2}
    RegretMinimizer(catalog_game("rps"), preset("rm")).step(3)
    assert _counts() == {2}
    np.ones((50, 50)) @ np.ones(50)  # BLAS still answers
    threads.set_threads(1)
    assert _counts() == {1}


def test_the_environment_variable_sets_the_count(monkeypatch):
    monkeypatch.setenv(threads.THREADS_VARIABLE, "2")
    assert threads.set_threads(None) == 2
    assert _counts() == {2}
    monkeypatch.setenv(threads.THREADS_VARIABLE, "many")
    with pytest.raises(ConfigError, match="RMVIZ_THREADS"):
        threads.configured_threads()


@pytest.mark.parametrize("wrong", [0, -1, 1.5, "2x", True, threads.MAX_THREADS + 1, 2**31, 2**63])
def test_a_wrong_count_is_refused(wrong):
    with pytest.raises(ConfigError, match="whole number from 1 to 4096"):
        threads.set_threads(wrong)


def test_a_huge_count_in_the_environment_is_refused_in_a_short_line(monkeypatch):
    """Past 2^63 it ended in OverflowError; the line quotes 40 characters of the value."""
    monkeypatch.setenv(threads.THREADS_VARIABLE, "9" * 200)
    with pytest.raises(ConfigError, match="from 1 to") as caught:
        threads.configured_threads()
    assert len(str(caught.value)) < 120


def test_the_window_keeps_a_core_for_its_gui_thread(monkeypatch):
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 2)
    threads.set_threads(2)
    assert threads.reserve_cores(1) == 1
    assert _counts() == {1}


def test_the_command_line_option(monkeypatch):
    monkeypatch.setattr(cli.sys, "stdout", io.StringIO())
    assert cli.main(["solve", "rps", "-n", "10", "--threads", "2"]) == 0
    assert _counts() == {2}
    assert cli.main(["solve", "rps", "-n", "10"]) == 0  # not given: the variable or the default
    assert _counts() == {1}
