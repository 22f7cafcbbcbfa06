"""The joint distribution's buffered terms (rmviz.solvers.matrix.joint): the same weighted
joint as adding ``d J + c x y^T`` every iteration, to rounding, in every averaging schedule;
and a run's joint that does not depend on how it was stepped, saved or restored."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games import random_game
from rmviz.solvers.matrix import joint
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.metrics import ce_gap
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.weighting import SCHEMES, averaging_step_of

FUSED = (40, 30)  # 1,200 payoff entries: above the summation rule's 1,024, the buffered joint


def discounts(kind: str, iterations: int) -> list[tuple[float, float]]:
    """``(d, c)`` of each iteration: the averaging schemes, a greedy weight of 0, and
    discounts small enough that the running scale must be folded before it underflows."""
    if kind == "zero weight":
        return [(0.0 if t % 50 == 7 else 0.9, 1.0) for t in range(1, iterations + 1)]
    if kind == "underflow":
        return [(1e-30, 1.0 + t) for t in range(1, iterations + 1)]
    scheme = SCHEMES.index(kind)
    return [averaging_step_of(scheme, t, -1.5) for t in range(1, iterations + 1)]


@pytest.mark.parametrize("kind", ["uniform", "linear", "quadratic", "discounted", "zero weight", "underflow"])
def test_buffered_terms_make_the_joint_of_the_recurrence(kind):
    rng = np.random.default_rng(4)
    rows, columns = 7, 5
    buffered = np.zeros((rows, columns))
    terms = joint.buffers(rows, columns)
    reference = np.zeros((rows, columns))
    for t, (d, c) in enumerate(discounts(kind, 300), start=1):
        x, y = rng.dirichlet(np.ones(rows)), rng.dirichlet(np.ones(columns))
        joint.record(d, c, buffered, *terms, x, y)
        reference = d * reference + c * np.outer(x, y)
        if t % 23 == 0 or t == 300:
            np.testing.assert_allclose(
                joint.weighted_joint(buffered, *terms), reference, rtol=1e-13, atol=1e-300
            )
    assert terms[2][0] <= joint.BUFFER


@pytest.mark.parametrize(
    "algorithm", ["rm", "rm+", "linear-rm", "discounted-rm", "greedy-rm", "predictive-rm+"]
)
def test_a_runs_joint_is_the_same_however_it_is_stepped_or_saved(algorithm):
    """Folds happen at fixed iterations and the buffers are checkpointed: one step(300),
    uneven steps with snapshots between them, and a restore mid-buffer agree bit for bit."""
    game = random_game("general-sum", FUSED, seed=3)
    whole = RegretMinimizer(game, preset(algorithm, seed=1))
    assert whole.buffers_joint
    whole.step(300)
    pieces = RegretMinimizer(game, preset(algorithm, seed=1))
    for chunk in (1, 2, 61, 64, 65, 7, 100):
        pieces.step(chunk)
        pieces.snapshot()
    saved = RegretMinimizer(game, preset(algorithm, seed=1))
    saved.step(100)  # 36 terms pending
    restored = RegretMinimizer(game, preset(algorithm, seed=1))
    restored.restore(saved.checkpoint())
    restored.step(200)
    expected = whole.snapshot()
    for other in (pieces, restored):
        snapshot = other.snapshot()
        np.testing.assert_array_equal(snapshot.joint, expected.joint)
        assert snapshot.metrics.ce_gap == expected.metrics.ce_gap


@pytest.mark.parametrize("handover", [False, True], ids=["kernel", "then array code"])
@pytest.mark.parametrize("algorithm", ["rm", "linear-rm", "discounted-rm"])
def test_the_kernels_buffered_joint_is_that_of_the_profiles_it_played(algorithm, handover):
    """Recomputed from the profiles the kernel played, one step at a time, with the
    schedule's (d, c): equal to rounding; the CE gap is the definition's of that joint.
    The array code, run on after 130 iterations (2 terms pending), adds them first."""
    game = random_game("general-sum", FUSED, seed=9)
    solver = RegretMinimizer(game, preset(algorithm, seed=1))
    scheme = SCHEMES.index(solver.config.averaging or solver.config.weighting)
    reference = np.zeros(FUSED)
    for t in range(1, 201):
        if handover and t == 131:
            assert solver.state.joint_terms[2][0] == 2
            solver._kernel = None
        x, y = (np.array(s) for s in solver.state.current)
        solver.step(1)
        d, c = averaging_step_of(scheme, t, solver.config.gamma)
        reference = d * reference + c * np.outer(x, y)
    snapshot = solver.snapshot()
    np.testing.assert_allclose(snapshot.joint, reference / reference.sum(), rtol=1e-12, atol=1e-15)
    assert snapshot.metrics.ce_gap == pytest.approx(ce_gap(game.payoffs, snapshot.joint), abs=1e-12)


def test_small_games_add_the_joint_entry_by_entry():
    """Within the summation rule's size the kernel's joint is the array code's, bit for bit."""
    game = random_game("general-sum", (32, 32), seed=2)
    compiled = RegretMinimizer(game, preset("linear-rm", seed=1))
    generic = RegretMinimizer(game, preset("linear-rm", seed=1))
    generic._kernel = None
    assert not compiled.buffers_joint and compiled.state.joint_terms is None
    for solver in (compiled, generic):
        solver.step(150)
    np.testing.assert_array_equal(compiled.snapshot().joint, generic.snapshot().joint)
