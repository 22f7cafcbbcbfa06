"""The compiled stationary distribution of internal regret matching (stationary.py): stationary
(pi M = 0), a distribution, and the generic code's least-squares answer, closed classes too."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.solvers.regret_matching import internal_regret_matching
from rmviz.solvers.stationary import chain_bits, stationary_distribution

pytest.importorskip("numba")


def _solve(guide: np.ndarray) -> np.ndarray:
    k = guide.shape[0]
    out = np.empty(k)
    stationary_distribution(guide, out, np.empty((k, k)), np.empty((4, k), dtype=np.int64), chain_bits(k))
    return out


def _generator(guide: np.ndarray) -> np.ndarray:
    rates = np.maximum(guide, 0.0)
    np.fill_diagonal(rates, 0.0)
    return rates - np.diag(rates.sum(axis=1))


def _cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for trial in range(count):
        k = int(rng.integers(1, 12))
        density = rng.random()  # sparse patterns: several closed classes, transient actions
        guide = rng.standard_normal((k, k)) * (rng.random((k, k)) < density)
        yield guide * (1e-200 if trial % 5 == 0 else 1e200 if trial % 5 == 1 else 1.0)


def test_stationary_and_the_least_squares_answer():
    for guide in _cases(0, 2000):
        pi = _solve(guide)
        assert np.all(pi >= 0.0) and abs(pi.sum() - 1.0) < 1e-14
        generator = _generator(guide)
        top = max(np.abs(generator).max(), 1e-300)
        np.testing.assert_allclose(pi @ generator / top, 0.0, atol=1e-13)
        np.testing.assert_allclose(pi, internal_regret_matching(guide, np), rtol=0, atol=1e-10)


def test_closed_classes_mix_by_the_minimum_norm():
    """Two absorbing actions and a class {2, 3} with stationary (1/3, 2/3); action 4 feeds all:
    least squares weighs each class's distribution by 1 / |pi_c|^2, transient actions get 0."""
    guide = np.zeros((5, 5))
    guide[2, 3], guide[3, 2] = 2.0, 1.0
    guide[4, :4] = 1.0
    weights = np.array([1.0, 1.0, 1.0 / (1 / 9 + 4 / 9)])
    expected = np.array([weights[0], weights[1], weights[2] / 3, 2 * weights[2] / 3, 0.0]) / weights.sum()
    np.testing.assert_allclose(_solve(guide), expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(internal_regret_matching(guide, np), expected, rtol=0, atol=1e-14)


def test_no_positive_regret_is_uniform_and_a_cycle_is_uniform():
    np.testing.assert_array_equal(_solve(-np.ones((4, 4))), np.full(4, 0.25))
    cycle = np.roll(np.eye(6), 1, axis=1) * 3.0
    np.testing.assert_allclose(_solve(cycle), np.full(6, 1 / 6), rtol=0, atol=1e-15)


@pytest.mark.parametrize("k", [30, 100])
def test_large_irreducible_chains(k):
    rng = np.random.default_rng(k)
    guide = rng.standard_normal((k, k))
    pi = _solve(guide)
    np.testing.assert_allclose(pi @ _generator(guide), 0.0, atol=1e-13)
    np.testing.assert_allclose(pi, internal_regret_matching(guide, np), rtol=0, atol=1e-12)


def test_wide_chains_with_classes_across_bit_words():
    """Over 64 actions the class search's bit rows span several words: sparse random chains
    (closed classes, transient actions) of 60 to 200 actions against least squares."""
    rng = np.random.default_rng(7)
    for trial in range(40):
        k = int(rng.integers(60, 200))
        guide = rng.standard_normal((k, k)) * (rng.random((k, k)) < rng.choice([0.005, 0.02, 0.1, 0.5]))
        if trial % 4 == 0:  # blocks: several closed classes whatever the density
            guide *= np.add.outer(np.arange(k) % 3, -(np.arange(k) % 3)) == 0
        pi = _solve(guide)
        np.testing.assert_allclose(pi @ _generator(guide), 0.0, atol=1e-12)
        np.testing.assert_allclose(pi, internal_regret_matching(guide, np), rtol=0, atol=1e-10)


def test_transient_actions_change_no_float():
    """One closed class holding action 0, transient actions anywhere else: the elimination of
    the whole chain (every pivot positive) gives the class's own distribution bit for bit
    (rates scaled by the same largest one), exact zeros on the transient actions, which add
    exact zeros to every sum."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        size, extra = int(rng.integers(2, 30)), int(rng.integers(1, 20))
        k = size + extra
        members = np.sort(np.concatenate([[0], rng.choice(np.arange(1, k), size - 1, replace=False)]))
        transient = np.setdiff1d(np.arange(k), members)
        guide = rng.standard_normal((k, k)) * (rng.random((k, k)) < rng.uniform(0.2, 1.0))
        cycle = np.roll(members, 1)
        guide[members, cycle] = rng.uniform(0.5, 2.0, size)  # the class is irreducible
        guide[members[0], cycle[0]] = 100.0  # the largest rate (the scale) lies in the class
        guide[np.ix_(members, transient)] = -np.abs(guide[np.ix_(members, transient)])  # closed
        guide[transient, rng.choice(members, extra)] = 1.0  # every transient action can leave
        expected = np.zeros(k)
        expected[members] = _solve(np.ascontiguousarray(guide[np.ix_(members, members)]))
        np.testing.assert_array_equal(_solve(guide), expected)
