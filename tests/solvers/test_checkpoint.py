"""Checkpoints (rmviz.solvers.checkpoint): a solver restored from one goes on with the very
iterates of the run it was taken from, in every preset, play mode and update schedule of
both families; one that does not fit is refused and changes nothing."""

from __future__ import annotations

import itertools
from dataclasses import make_dataclass, replace

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import catalog_game
from rmviz.games.generators import random_game
from rmviz.solvers.checkpoint import NotCapturable, capture
from rmviz.solvers.registry import MATRIX, TREE

MATRIX_GAMES = {
    "bimatrix": random_game("general-sum", (4, 3), seed=2),
    "three players": random_game("general-sum", (3, 2, 3), seed=5),
}


def assert_same_state(a, b):
    first, second = a.checkpoint(), b.checkpoint()
    assert first.iteration == second.iteration
    assert first.rng == second.rng and first.seed == second.seed
    assert first.arrays.keys() == second.arrays.keys()
    for name, array in first.arrays.items():
        assert array.dtype == second.arrays[name].dtype
        assert np.array_equal(array, second.arrays[name], equal_nan=True), name


def goes_on_alike(family, game, config, before=37, after=29):
    """Run ``before`` iterations, restore a fresh solver from the checkpoint, and check both
    solvers step ``after`` more (in two chunks) to the same state, bit for bit."""
    original = family.solver(game, config)
    original.step(before)
    checkpoint = original.checkpoint()
    restored = family.solver(game, config)
    restored.step(3)  # a solver that ran elsewhere is put back too
    restored.restore(checkpoint)
    assert_same_state(original, restored)
    for solver in (original, restored):
        solver.step(after // 2)
        solver.step(after - after // 2)
    assert_same_state(original, restored)
    assert restored.iteration == before + after
    np.testing.assert_array_equal(original.snapshot().trace_values(), restored.snapshot().trace_values())


def runnable(family, **choices):
    """Every (algorithm, config) of ``family`` over the product of ``choices`` that it runs."""
    names = list(choices)
    found = []
    for algorithm in family.presets:
        for values in itertools.product(*choices.values()):
            options = dict(zip(names, values, strict=True))
            try:
                config = family.config(algorithm, seed=7, **options)
            except ConfigError:
                continue
            found.append(pytest.param(config, id="-".join((algorithm, *values))))
    return found


@pytest.mark.parametrize("game", MATRIX_GAMES, ids=list(MATRIX_GAMES))
@pytest.mark.parametrize(
    "config", runnable(MATRIX, updates=["simultaneous", "alternating"], play=["expected", "sampled"])
)
def test_a_restored_matrix_solver_goes_on_with_the_same_iterates(config, game):
    goes_on_alike(MATRIX, MATRIX_GAMES[game], config)


@pytest.mark.parametrize("config", runnable(TREE, updates=["simultaneous", "alternating"]))
def test_a_restored_tree_solver_goes_on_with_the_same_iterates(config):
    goes_on_alike(TREE, catalog_game("kuhn"), config)


def test_every_preset_of_both_families_is_checked():
    assert {p.values[0].algorithm for p in runnable(MATRIX, updates=["simultaneous"])} == set(MATRIX.presets)
    assert {p.values[0].algorithm for p in runnable(TREE, updates=["simultaneous", "alternating"])} == set(
        TREE.presets
    )


def test_the_sampled_stream_comes_back_with_the_generator_state():
    game = MATRIX_GAMES["bimatrix"]
    config = MATRIX.config("rm", play="sampled", seed=3)
    solver = MATRIX.solver(game, config)
    solver.step(10)
    checkpoint = solver.checkpoint()
    assert checkpoint.rng is not None and checkpoint.rng["bit_generator"] == "PCG64"
    other = MATRIX.solver(game, MATRIX.config("rm", play="sampled", seed=99))
    other.restore(checkpoint)  # the seed comes back with the stream
    assert other.seed == 3
    for solver_ in (solver, other):
        solver_.step(50)
    assert_same_state(solver, other)


def test_a_checkpoint_of_another_game_is_refused_and_changes_nothing():
    small = MATRIX.solver(catalog_game("rps"), MATRIX.config("rm"))
    large = MATRIX.solver(MATRIX_GAMES["bimatrix"], MATRIX.config("rm"))
    large.step(5)
    before = large.checkpoint()
    small.step(4)
    with pytest.raises(ConfigError, match="does not fit this game"):
        large.restore(small.checkpoint())
    assert_same_state_as(large, before)
    with pytest.raises(ConfigError, match="random generator"):
        tree = TREE.solver(catalog_game("kuhn"), TREE.config("cfr"))
        tree.restore(_with_rng(tree.checkpoint(), before.rng))


def assert_same_state_as(solver, checkpoint):
    now = solver.checkpoint()
    assert now.iteration == checkpoint.iteration
    for name, array in checkpoint.arrays.items():
        assert np.array_equal(now.arrays[name], array)


def _with_rng(checkpoint, rng):
    return replace(checkpoint, rng=rng)


def test_a_generator_other_than_numpys_cannot_be_captured():
    state = make_dataclass("State", ["iteration", "rng"])(0, object())  # CuPy's, say
    with pytest.raises(NotCapturable):
        capture(state, 0, 0.0, np.asarray)
