"""Payoffs of any magnitude give the same strategies and proportional metrics.

Regret matching is homogeneous in the payoffs (:mod:`rmviz.solvers.scale`): multiplying
every payoff by ``k > 0`` must leave every strategy unchanged and multiply the metrics by
``k`` (the potential by ``k^2``), for every preset of both families in every play mode and
update schedule, from ``k ~ 1e-300`` to ``1e150`` (games refuse larger payoffs).

* Powers of two (``2^-1000 ~ 1e-301``, ``2^-498 ~ 1e-150``, ``2^498 ~ 1e150``) scale exactly in floating
  point, so strategies must be *bit-identical* after a longer run.
* Other factors (``1e-300``, ``1e-150``, ``1e150``) round every payoff (a relative
  change of ~1e-16): a different game by one unit in the last place. Internal regret
  matching in expected play amplifies such a change about tenfold per iteration once
  strategies settle (a property of the dynamics, not of the scale: the same happens for
  any one-ulp perturbation), so these runs are short and compared to a relative 1e-9.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker, teaching_tree
from rmviz.solvers.family import PLAY_MODES, SCHEDULES
from rmviz.solvers.matrix.config import PRESETS as MATRIX_PRESETS
from rmviz.solvers.registry import family_named, make_solver
from rmviz.solvers.tree.config import PRESETS as TREE_PRESETS
from tests.solvers.tree.builders import scaled

EXACT_FACTORS = (2.0**-1000, 2.0**-498, 2.0**498)
ROUNDED_FACTORS = (1e-300, 1e-150, 1e150)
EXACT_ITERATIONS, ROUNDED_ITERATIONS = 40, 15


def _valid(family: str, algorithm: str, **options: str) -> bool:
    try:
        family_named(family).config(algorithm, **options)
    except ConfigError:
        return False
    return True


MATRIX_CASES = [
    (algorithm, play, updates)
    for algorithm in MATRIX_PRESETS
    for play in PLAY_MODES
    for updates in SCHEDULES
    if _valid("matrix", algorithm, play=play, updates=updates)
]
TREE_CASES = [
    (algorithm, updates)
    for algorithm in TREE_PRESETS
    for updates in SCHEDULES
    if _valid("tree", algorithm, updates=updates)
]


def _run(game, algorithm, iterations, **options):
    solver = make_solver(game, algorithm, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow or a 0/0 on the way fails the test
        solver.step(iterations)
        return solver.snapshot(metrics=True)


def _flat(arrays) -> np.ndarray:
    """One array of a tree snapshot's per-slot array or a matrix snapshot's per-player ones."""
    return np.concatenate([np.ravel(a) for a in arrays]) if isinstance(arrays, tuple) else arrays


def _strategies(snapshot) -> np.ndarray:
    return np.concatenate([_flat(snapshot.average_strategy), _flat(snapshot.current_strategy)])


def _metrics(snapshot) -> dict[str, np.ndarray]:
    """Every metric, a tree's per-player correlation gaps (``player_gaps``) one per notion."""
    found = dict(snapshot.metrics.as_dict())
    for notion, gaps in (found.pop("player_gaps", None) or {}).items():
        found[f"player_gaps[{notion}]"] = gaps
    return {name: np.asarray(value, dtype=np.float64) for name, value in found.items() if value is not None}


def _assert_scaled(reference, snapshot, factor: float, spread: float, exact: bool) -> None:
    """Same strategies; metrics finite and ``factor`` times the reference's (``factor^2``
    for the potential, while that is a normal number); regrets in snapshots scaled too."""
    same = np.testing.assert_array_equal if exact else _close
    same(_strategies(snapshot), _strategies(reference))
    ours, theirs = _metrics(snapshot), _metrics(reference)
    for name, value in ours.items():
        assert np.all(np.isfinite(value)), f"{name} = {value} at x{factor:g}"
        power = 2 if name == "potential" else 1
        if power == 2 and factor**2 < 1e-290:
            continue  # the potential underflows to (a finite) 0 with the payoffs squared
        np.testing.assert_allclose(
            value / factor**power,
            theirs[name],
            rtol=1e-12 if exact else 1e-7,
            atol=(1e-12 if exact else 1e-9) * spread**power,
            err_msg=f"{name} at x{factor:g}",
        )
    regrets, expected = _flat(snapshot.cumulative_regret), _flat(reference.cumulative_regret)
    if exact:  # in payoff units: scaled back by the solver
        np.testing.assert_allclose(regrets / factor, expected, rtol=1e-12, atol=1e-12 * spread)
    # the strategy columns after every metric's (an untracked metric, last_* on trees, is NaN)
    family = family_named("matrix" if isinstance(snapshot.cumulative_regret, tuple) else "tree")
    assert np.all(np.isfinite(snapshot.trace_values()[len(family.metrics) :]))


def unit(payoffs: np.ndarray) -> float:
    """The power of two that brings the largest ``|u|`` into [0.5, 1): the factors below then
    reach, and stay within, the limit games accept (``|u| <= 1e150``). Exact in floating point."""
    return 2.0 ** -math.frexp(float(np.abs(payoffs).max()))[1]


def _close(actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("game_id", ["rps-crash", "battle-of-partners", "three-player-pennies"])
@pytest.mark.parametrize(("algorithm", "play", "updates"), MATRIX_CASES)
def test_matrix_presets_are_scale_free(game_id, algorithm, play, updates):
    game = catalog_game(game_id)
    game = game.with_payoffs(game.payoffs * unit(game.payoffs))
    spread = game.payoff_range
    for factors, iterations, exact in (
        (EXACT_FACTORS, EXACT_ITERATIONS, True),
        (ROUNDED_FACTORS, ROUNDED_ITERATIONS, False),
    ):
        reference = _run(game, algorithm, iterations, play=play, updates=updates)
        for factor in factors:
            snapshot = _run(
                game.with_payoffs(game.payoffs * factor), algorithm, iterations, play=play, updates=updates
            )
            _assert_scaled(reference, snapshot, factor, spread, exact)


@pytest.mark.parametrize("build", [kuhn_poker, teaching_tree])
@pytest.mark.parametrize(("algorithm", "updates"), TREE_CASES)
def test_tree_presets_are_scale_free(build, algorithm, updates):
    game = build()
    game = scaled(game, unit(np.array([u for _, node in game.nodes() for u in node.payoffs])))
    payoffs = [u for _, node in game.nodes() for u in node.payoffs]
    spread = max(payoffs) - min(payoffs)
    for factors, iterations, exact in (
        (EXACT_FACTORS, EXACT_ITERATIONS, True),
        (ROUNDED_FACTORS, ROUNDED_ITERATIONS, False),
    ):
        reference = _run(game, algorithm, iterations, updates=updates)
        for factor in factors:
            snapshot = _run(scaled(game, factor), algorithm, iterations, updates=updates)
            _assert_scaled(reference, snapshot, factor, spread, exact)


def test_values_within_rounding_of_zero_are_reported_as_zero_in_both_families():
    """RPS with Crash's average profile read -3.4e-21 in `rmviz solve`; a real value stays."""
    from rmviz.solvers.registry import make_solver

    for name, algorithm in (("rps-crash", "rm"), ("kuhn", "cfr")):
        solver = make_solver(catalog_game(name), algorithm)
        solver.step(1000)
        values = solver.metrics().value
        if name == "kuhn":  # -1/18 for player 1, converging
            assert abs(values[0] + 1 / 18) < 1e-2 and values[0] == -values[1]
        else:
            assert values == (0.0, 0.0)
    partners = make_solver(catalog_game("battle-of-partners"), "rm")
    partners.step(100)
    assert all(v > 0.1 for v in partners.metrics().value)
