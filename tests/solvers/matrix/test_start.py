"""Starting strategies as people type and drag them: parsed, checked, rounded, and the
simplex's plane points turned back into strategies."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rmviz.errors import ConfigError
from rmviz.games import catalog_game
from rmviz.present.simplex import CORNERS, face_corners, project, to_triangle, unproject, unproject_square
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.matrix.start import parse_start, rounded, start_text

RPS = catalog_game("rps")


def test_one_strategy_per_player_with_fractions_and_blanks():
    assert parse_start("1/2, 1/4, 1/4; ", RPS) == {0: [0.5, 0.25, 0.25]}
    assert parse_start(" ; 0, 1, 0", RPS) == {1: [0.0, 1.0, 0.0]}
    assert parse_start("  ", RPS) is None
    assert parse_start("0.33, 0.33, 0.34", RPS) == {0: [0.33, 0.33, 0.34]}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0.5, 0.5", "needs 3 probabilities, got 2"),
        ("0.5, 0.6, -0.1", "must be non-negative"),
        ("0.5, 0.2, 0.2", "sums to 0.9"),
        ("a, b, c", "is not a list of probabilities"),
        ("1/0, 0, 1", "is not a list of probabilities"),
        ("1,0,0; 1,0,0; 1,0,0", "3 strategies for 2 players"),
        ("nan, 0, 1", "must be non-negative numbers"),
    ],
)
def test_a_start_that_is_no_strategy_is_refused_with_the_reason(text, reason):
    with pytest.raises(ConfigError, match=reason):
        parse_start(text, RPS)


def test_the_text_reads_back_as_the_start():
    start = {0: [0.5, 0.25, 0.25], 1: [0.0, 1.0, 0.0]}
    assert parse_start(start_text(start, 2), RPS) == start
    assert start_text({1: [0.0, 1.0, 0.0]}, 2) == "; 0, 1, 0"


@given(st.lists(st.floats(0, 10), min_size=2, max_size=6).filter(lambda p: sum(p) > 1e-6))
def test_rounded_strategies_are_hundredths_summing_to_exactly_one(weights):
    strategy = rounded(weights)
    assert sum(Fraction(p).limit_denominator(100) for p in strategy) == 1
    assert all(p == round(p, 2) and p >= 0 for p in strategy)
    exact = np.array(weights) / sum(weights)
    assert np.abs(np.array(strategy) - exact).max() <= 0.01 + 1e-12


@given(st.lists(st.floats(0, 1), min_size=3, max_size=3).filter(lambda p: sum(p) > 1e-3))
def test_a_dragged_point_is_the_strategy_drawn_there(weights):
    strategy = np.array(weights) / sum(weights)
    for size in (2, 3):
        p = strategy[:size] / strategy[:size].sum() if strategy[:size].sum() > 0 else np.full(size, 1 / size)
        assert np.allclose(unproject(size, tuple(project(size, p[None])[0])), p, atol=1e-9)


def test_a_point_outside_the_simplex_is_clipped_to_its_edge():
    assert np.allclose(unproject(3, (-1.0, -1.0)), [1, 0, 0])
    assert np.allclose(unproject(2, (-0.7, 0.0)), [1, 0])
    assert np.allclose(unproject(2, (1.7, 0.0)), [0, 1])
    assert [p.tolist() for p in unproject_square((1.3, -0.5))] == [[1, 0], [0, 1]]


def test_a_segment_is_the_triangles_bottom_edge():
    """Two actions sit where a triangle puts its first two: the first on the left."""
    p = np.array([[1.0, 0.0], [0.25, 0.75], [0.0, 1.0]])
    assert np.allclose(project(2, p), to_triangle(np.column_stack([p, np.zeros(3)])))
    assert np.allclose(project(2, np.eye(2)), face_corners(2))
    assert np.array_equal(face_corners(2), CORNERS[:2])


def test_the_solver_starts_from_the_parsed_start():
    start = parse_start("1, 0, 0; 0, 0, 1", RPS)
    solver = RegretMinimizer(RPS, preset("rm", start=start))
    assert np.array_equal(solver.start[0], [1, 0, 0]) and np.array_equal(solver.start[1], [0, 0, 1])
    solver.step(1)
    snapshot = solver.snapshot()
    # iteration 1 was played from the start: the average is the start
    assert np.allclose(snapshot.average_strategy[0], [1, 0, 0])
    assert np.allclose(snapshot.average_strategy[1], [0, 0, 1])


def test_strategies_given_as_numpy_arrays_are_taken_as_lists():
    """A notebook passes NumPy arrays; the GPU test of fixed players found them refused."""
    game = catalog_game("rps-crash")
    as_arrays = RegretMinimizer(game, preset("rm", fixed_strategies={1: np.array([0.5, 0.25, 0.25])}))
    as_lists = RegretMinimizer(game, preset("rm", fixed_strategies={1: [0.5, 0.25, 0.25]}))
    started = RegretMinimizer(game, preset("rm", start={np.int64(0): np.array([1.0, 0.0, 0.0])}))
    for solver in (as_arrays, as_lists, started):
        solver.step(20)
    np.testing.assert_array_equal(as_arrays.average_strategy()[0], as_lists.average_strategy()[0])
    assert started.iteration == 20
    with pytest.raises(ConfigError, match="a list of probabilities"):
        preset("rm", start={0: np.array([[1.0, 0.0, 0.0]])})
