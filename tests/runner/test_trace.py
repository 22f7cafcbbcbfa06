from __future__ import annotations

import numpy as np
import pytest

from rmviz.runner.trace import Trace


def test_every_early_iteration_then_a_geometric_grid():
    trace = Trace(points_per_decade=10)
    for t in range(1, 1001):
        trace.add(t, {"gap": 1.0 / t})
    iterations = trace.iterations()
    assert iterations[:4].tolist() == [1, 2, 3, 4]  # finer than one iteration: all kept
    assert (np.diff(iterations) > 0).all()
    ratios = iterations[6:-1] / iterations[5:-2]
    assert ratios.max() <= 10**0.1 * 1.1  # no gap much wider than the grid (integers round up)
    assert 25 <= len(iterations) <= 32  # about 10 per decade over three decades
    assert iterations[-1] == 1000  # the newest point is always there
    np.testing.assert_allclose(trace.column("gap"), 1.0 / iterations)


def test_memory_is_flat_over_1e8_iterations():
    trace = Trace(points_per_decade=200)
    t = 1
    while t < 10**8:  # snapshots arrive in growing chunks, as from the worker
        trace.add(t, {"a": 1.0, "b": 2.0})
        t += max(1, t // 1000)
    points = len(trace)
    assert points <= 8 * 200 + 200
    assert trace.nbytes() < 200_000


def test_none_becomes_nan_and_columns_are_fixed_by_the_first_point():
    trace = Trace()
    trace.add(1, {"ce_gap": None, "x": 1.0})
    assert np.isnan(trace.column("ce_gap")[0])
    with pytest.raises(KeyError):
        trace.add(2, {"x": 1.0})


def test_clear():
    trace = Trace()
    trace.add(1, {"x": 1.0})
    trace.clear()
    assert len(trace) == 0 and trace.names == ()


def test_a_repeated_iteration_is_not_a_second_point():
    trace = Trace()
    trace.add(1, {"x": 1.0})
    trace.add(1, {"x": 2.0})
    assert trace.iterations().tolist() == [1] and trace.column("x").tolist() == [1.0]
