"""A batch of games of one tree gives each game's own CFRSolver iterates, bit for bit: on the
CPU, on the GPU (marked ``gpu``) and with cfr.cu's kernels emulated on the CPU."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.trees import kuhn_poker, leduc_poker, teaching_tree
from rmviz.solvers.tree import batch as tree_batch
from rmviz.solvers.tree.batch import TreeBatchSolver, random_payoffs, terminal_payoffs
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver
from tests.solvers import cuda_emulator

pytest.importorskip("numba")


def game_with(game: ExtensiveFormGame, payoffs: np.ndarray) -> ExtensiveFormGame:
    return ExtensiveFormGame.from_flat(replace(game.flat, payoffs=payoffs), game.player_names)


def assert_each_game_is_its_solver(batch: TreeBatchSolver, game, payoffs, algorithm, updates, steps):
    singles = [
        CFRSolver(game_with(game, p), preset(algorithm, updates=updates, device="cpu")) for p in payoffs
    ]
    for n in steps:
        batch.step(n)
        for single in singles:
            single.step(n)
    average = batch.average_strategy()
    for g, single in enumerate(singles):
        for name in ("strategy", "regret", "strategy_sum", "true_regret", "prediction"):
            if getattr(single.state, name) is None:  # the prediction of a predictive run only
                assert getattr(batch.state, name) is None
                continue
            np.testing.assert_array_equal(
                getattr(batch.state, name)[g], getattr(single.state, name), err_msg=name
            )
        np.testing.assert_array_equal(average[g], single.average_strategy())
        assert batch.weight_sums[g] == single.state.weight_sum
    np.testing.assert_allclose(
        batch.nash_conv(), [s.metrics().nash_conv for s in singles], rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("build", [kuhn_poker, teaching_tree])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "dcfr", "greedy-cfr", "pcfr+", "pdcfr+"])
def test_cpu_batch_equals_one_solver_per_game(build, algorithm):
    game = build()
    payoffs = random_payoffs(game, 5, seed=3)
    updates = "simultaneous" if algorithm == "greedy-cfr" else "alternating"
    batch = TreeBatchSolver(game, payoffs, preset(algorithm, updates=updates, device="cpu"))
    assert_each_game_is_its_solver(batch, game, payoffs, algorithm, updates, (1, 20))


def test_the_games_own_payoffs_give_the_games_solver():
    game = leduc_poker()
    batch = TreeBatchSolver(game, terminal_payoffs(game)[None], preset("cfr+", device="cpu"))
    single = CFRSolver(game, preset("cfr+", device="cpu"))
    batch.step(5)
    single.step(5)
    np.testing.assert_array_equal(batch.average_strategy()[0], single.average_strategy())


@pytest.mark.skipif(cuda_emulator.compiler() is None, reason="needs a C++ compiler")
@pytest.mark.parametrize(
    ("algorithm", "updates"),
    [("cfr", "alternating"), ("dcfr", "simultaneous"), ("pcfr+", "alternating"), ("pdcfr+", "simultaneous")],
)
def test_gpu_batch_emulated_on_the_cpu_equals_one_solver_per_game(algorithm, updates, monkeypatch):
    """cfr.cu's batched launches (a grid dimension over the games), run thread by thread."""
    from rmviz.solvers import backend

    monkeypatch.setattr(
        tree_batch, "get_backend", lambda device, large: backend.Backend(cuda_emulator.EmulatedCuPy(), "gpu")
    )
    game = kuhn_poker()
    payoffs = random_payoffs(game, 3, seed=5)
    batch = TreeBatchSolver(game, payoffs, preset(algorithm, updates=updates))
    assert batch.device is not None and batch.device.games == 3
    assert_each_game_is_its_solver(batch, game, payoffs, algorithm, updates, (1, 9))


@pytest.mark.gpu
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear-cfr", "dcfr", "pcfr+", "pdcfr+"])
def test_gpu_batch_equals_one_solver_per_game(algorithm):
    game = kuhn_poker()
    payoffs = random_payoffs(game, 64, seed=7)
    batch = TreeBatchSolver(game, payoffs, preset(algorithm, device="gpu"))
    assert batch.device is not None
    assert_each_game_is_its_solver(batch, game, payoffs, algorithm, "alternating", (1, 49))


@pytest.mark.parametrize(
    ("payoffs", "message"),
    [
        (np.zeros((2, 3, 2)), "a batch of this tree's games is a"),
        (np.full((1, 30, 2), np.nan), "finite"),
    ],
)
def test_bad_batches_are_refused(payoffs, message):
    with pytest.raises(ConfigError, match=message):
        TreeBatchSolver(kuhn_poker(), payoffs, preset("cfr"))


def test_sampling_algorithms_are_refused():
    with pytest.raises(ConfigError, match="full traversals"):
        TreeBatchSolver(kuhn_poker(), terminal_payoffs(kuhn_poker())[None], preset("mccfr-external"))
