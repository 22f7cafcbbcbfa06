"""The compiled kernels' greedy line search (``greedy_lambda_scan``) returns the minimiser of
the array version (``greedy_lambda``) on the hostile cases: ties where g is flat, all-zero
and all-negative regrets, terms with x = r, zero instantaneous regrets (breakpoint 0),
breakpoints at lam_max, and magnitudes from 1e-300 to 1e300; short vectors (insertion sort
of every term) and long ones (only the crossing terms sorted)."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.solvers import greedy_scan
from rmviz.solvers.greedy_scan import GREEDY_SORT_ALL_MAX, greedy_lambda_scan, greedy_scratch
from rmviz.solvers.jit import jit
from rmviz.solvers.weighting import greedy_lambda

pytest.importorskip("numba")


scan = jit(greedy_lambda_scan)  # numba's on-disk cache: loads the kernels' compilation

SIZES = (1, 2, 3, 6, 17, GREEDY_SORT_ALL_MAX, GREEDY_SORT_ALL_MAX + 1, 80, 400)
BOUNDS = ((1.0, 0.9), (0.95, 0.9), (1 / (1 + 0.5 / 3), 0.75), (1 / (1 + 0.5 / 99), 0.99))


def _vectors(size: int, kind: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    x, r = rng.normal(size=size), rng.normal(size=size)
    if kind == 1:  # small integers: coinciding breakpoints, exact zeros of g'
        x, r = rng.integers(-2, 3, size).astype(float), rng.integers(-2, 3, size).astype(float)
    elif kind == 2:  # degenerate: every regret zero
        x, r = np.zeros(size), np.zeros(size)
    elif kind == 3:  # half the terms flat (x = r)
        r = x.copy()
        r[: size // 2] = rng.normal(size=size // 2)
    elif kind == 4:  # nothing positive: g = 0 on the whole interval, the tie rule decides
        x, r = -np.abs(x), -np.abs(r)
    elif kind == 5:  # huge and tiny magnitudes, x and r on different scales
        x, r = x * 10.0 ** rng.integers(-300, 301), r * 10.0 ** rng.integers(-300, 301)
    elif kind == 6:  # history positive, new regrets negative: the floor binds
        x, r = np.abs(x), -np.abs(r)
    elif kind == 7:  # many zero instantaneous regrets (CFR's unreached moves): breakpoint 0
        r = np.where(rng.random(size) < 0.6, 0.0, r)
    elif kind == 8:  # breakpoints exactly at lam_max = 0.95 and at lam_tie = 0.9
        d = rng.choice([-1.0, 1.0], size)
        lam = rng.choice([0.95, 0.9, 0.5], size)
        r = -lam * d
        x = r + d
    return x, r


def _cases():
    rng = np.random.default_rng(2022)
    for size in SIZES:
        for kind in range(9):
            for _ in range(3):
                x, r = _vectors(size, kind, rng)
                for lam_max, lam_tie in BOUNDS:
                    yield x, r, lam_max, lam_tie


def test_compiled_scan_returns_the_array_versions_minimiser():
    cases = list(_cases())
    exact = 0
    for x, r, lam_max, lam_tie in cases:
        work, order = greedy_scratch(x.shape[0])
        expected = float(greedy_lambda(x, r, lam_max, lam_tie, np))
        found = scan(x, r, lam_max, lam_tie, work, order)
        assert 0.0 <= found <= lam_max
        # sums in another order (long vectors, tied breakpoints) differ in the last bits
        # only: lam is a d^2-weighted mean of breakpoints, so its error is absolute
        assert abs(found - expected) <= 1e-15, (x, r, lam_max, lam_tie)
        exact += found == expected
    assert exact > 0.9 * len(cases)


def test_scan_interpreted_equals_compiled():
    """The plain-Python source is what the kernels compile: both give the same numbers."""
    for i, (x, r, lam_max, lam_tie) in enumerate(_cases()):
        if i % 17:
            continue
        work, order = greedy_scratch(x.shape[0])
        assert greedy_lambda_scan(x, r, lam_max, lam_tie, work, order) == scan(
            x, r, lam_max, lam_tie, work, order
        )


def test_tie_rule_and_floor():
    """Flat g: the value nearest lam_tie; everything improving with more history: lam_max."""
    work, order = greedy_scratch(3)
    negative = np.array([-1.0, -2.0, -0.5])
    assert greedy_lambda_scan(negative, negative * 3, 0.95, 0.9, work, order) == 0.9
    assert greedy_lambda_scan(np.zeros(3), np.zeros(3), 0.95, 0.9, work, order) == 0.9
    assert greedy_lambda_scan(np.zeros(3), np.ones(3), 0.95, 0.9, work, order) == 0.95  # new iterate bad
    assert greedy_lambda_scan(np.ones(3), -np.ones(3), 0.95, 0.9, work, order) == 0.5  # zeroes the average


def test_scratch_is_reused_across_sizes():
    """One scratch of the longest vector serves shorter ones (the kernels slice)."""
    rng = np.random.default_rng(7)
    work, order = greedy_scratch(64)
    for size in (64, 5, 40, 1):
        x, r = rng.normal(size=size), rng.normal(size=size)
        expected = float(greedy_lambda(x, r, 0.9, 0.8, np))
        assert greedy_lambda_scan(x, r, 0.9, 0.8, work, order) == expected  # to the bit
    assert greedy_scan.GREEDY_SCRATCH_ROWS == work.shape[0]


def test_both_sorts_of_long_vectors_give_the_stable_order():
    """Spread breakpoints go to buckets, clustered ones (a bucket over 32 keys) to merges;
    ties keep the terms' order either way."""
    from rmviz.solvers.greedy_scan import _bucket_sort, _stable_sort

    rng = np.random.default_rng(11)
    spread = rng.uniform(0, 0.9, 300)
    spread[::60] = spread[3]  # ties
    clustered = np.concatenate([rng.uniform(0.5, 0.5001, 40), rng.uniform(0, 0.9, 60)])
    for keys, bucketed in ((spread, True), (clustered, False)):
        m = keys.shape[0]
        work, order = greedy_scratch(m)
        work[0, :m], order[0, :m] = keys, np.arange(m)
        assert _bucket_sort(work, order, m, float(keys.min()), float(keys.max())) == bucketed
        if not bucketed:
            np.testing.assert_array_equal(order[0, :m], np.arange(m))  # untouched
            _stable_sort(work, order, m)
        np.testing.assert_array_equal(order[0, :m], np.argsort(keys, kind="stable"))
        np.testing.assert_array_equal(work[0, :m], np.sort(keys))
