from __future__ import annotations

import numpy as np
import pytest

from rmviz.runner.trace import Trace
from rmviz.solvers.columns import Column

GAP, A, B = Column("gap"), Column("a"), Column("b")


def test_every_early_iteration_then_a_geometric_grid():
    trace = Trace((GAP,), points_per_decade=10)
    for t in range(1, 1001):
        trace.add(t, np.array([1.0 / t]))
    iterations = trace.iterations()
    assert iterations[:4].tolist() == [1, 2, 3, 4]  # finer than one iteration: all kept
    assert (np.diff(iterations) > 0).all()
    ratios = iterations[6:-1] / iterations[5:-2]
    assert ratios.max() <= 10**0.1 * 1.1  # no gap much wider than the grid (integers round up)
    assert 25 <= len(iterations) <= 32  # about 10 per decade over three decades
    assert iterations[-1] == 1000  # the newest point is always there
    np.testing.assert_allclose(trace.column(GAP), 1.0 / iterations)


def test_memory_is_flat_over_1e8_iterations():
    trace = Trace((A, B), points_per_decade=200)
    t = 1
    while t < 10**8:  # snapshots arrive in growing chunks, as from the worker
        trace.add(t, np.array([1.0, 2.0]))
        t += max(1, t // 1000)
    points = len(trace)
    assert points <= 8 * 200 + 200
    assert trace.nbytes() < 200_000


def test_rows_must_fill_every_column():
    trace = Trace((A, B))
    trace.add(1, np.array([np.nan, 1.0]))
    assert np.isnan(trace.column(A)[0])
    with pytest.raises(ValueError, match="2 values"):
        trace.add(2, np.array([1.0]))
    with pytest.raises(KeyError):
        trace.column(GAP)


def test_clear():
    trace = Trace((A,))
    trace.add(1, np.array([1.0]))
    trace.clear()
    assert len(trace) == 0 and trace.columns == (A,)


def test_a_repeated_iteration_is_not_a_second_point():
    trace = Trace((A,))
    trace.add(1, np.array([1.0]))
    trace.add(1, np.array([2.0]))
    assert trace.iterations().tolist() == [1] and trace.column(A).tolist() == [1.0]


def test_every_n_iterations():
    trace = Trace((A,), every=10)
    for t in range(0, 36):
        trace.add(t, np.array([float(t)]))
    assert trace.iterations().tolist() == [10, 20, 30, 35]
    assert trace.column(A).tolist() == [10.0, 20.0, 30.0, 35.0]


@pytest.mark.parametrize("newest_off_grid", [False, True])
def test_data_copies_each_asked_column_newest_point_included(newest_off_grid):
    """``data`` copies the columns asked for at once (a row each of one new array): each equals
    ``column``, in the order asked, duplicates as one, and the trace goes on unchanged."""
    trace = Trace((GAP, A, B), points_per_decade=10)
    for t in range(1, 40):
        trace.add(t, np.array([1.0 / t, t, -t]))
    if newest_off_grid:
        trace.add(40, np.array([0.5, 7.0, -7.0]))  # between grid points: only the newest
    data = trace.data((B, GAP, B))
    assert list(data.columns) == [B, GAP]
    for column in (B, GAP):
        np.testing.assert_array_equal(data.columns[column], trace.column(column))
        assert data.columns[column].flags.c_contiguous
    np.testing.assert_array_equal(data.iterations, trace.iterations())
    data.columns[B][:] = 0.0  # a copy: the trace keeps its values
    assert trace.column(B)[0] == -1.0
    assert list(trace.data().columns) == [GAP, A, B]


@pytest.mark.parametrize("newest_off_grid", [False, True])
def test_data_of_the_newest_point_alone(newest_off_grid):
    """``data(..., newest=True)`` is the last point of ``data``: what a view chooses the
    actions it draws from, without copying every point of a big game's columns."""
    trace = Trace((GAP, A, B), points_per_decade=10)
    assert trace.data((A,), newest=True).iterations.size == 0  # no point yet
    for t in range(1, 40):
        trace.add(t, np.array([1.0 / t, t, -t]))
    if newest_off_grid:
        trace.add(40, np.array([0.5, 7.0, -7.0]))
    whole, newest = trace.data((B, A)), trace.data((B, A), newest=True)
    np.testing.assert_array_equal(newest.iterations, whole.iterations[-1:])
    assert newest.iterations[0] == (40 if newest_off_grid else 39)
    for column in (B, A):
        np.testing.assert_array_equal(newest.columns[column], whole.columns[column][-1:])


def test_the_trace_at_a_published_point_is_the_trace_as_it_was_then():
    """The loop adds each published snapshot's point, then records on between publications;
    the trace at that point is the trace as it was then, point included, though the point
    was only the newest and is gone from the grid (a screenshot's plots ended at 226,000
    iterations under a status bar that said 199,096)."""
    columns = [Column("exploitability"), Column("cce_gap")]
    trace = Trace(columns, points_per_decade=10)
    published = {}
    for t in range(1, 500):
        trace.add(t, [1.0 / t, 2.0 / t])
        if t in (123, 126, 200):  # off the grid, on it (10 a decade: 126), and on it
            published[t] = trace.data(columns[::-1])
    for t, then in published.items():
        now = trace.data(columns[::-1], at=(t, np.array([1.0 / t, 2.0 / t])))
        assert now.iterations.tolist() == then.iterations.tolist() and now.iterations[-1] == t
        for column in columns:
            assert now.columns[column].tolist() == then.columns[column].tolist()
    newest = trace.data(columns, newest=True, at=(123, np.array([1 / 123, 2 / 123])))
    assert newest.iterations.tolist() == [123]
    assert trace.data(columns, at=(0, np.zeros(2))).iterations.size == 0  # a reset's snapshot
