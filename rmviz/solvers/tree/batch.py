"""Many games of one tree, differing only in their payoffs, solved at once.

Experiments over random games (random payoffs on Kuhn's tree, say) run the same CFR on B games
of one shape. One :class:`~rmviz.solvers.tree.solver.CFRSolver` per game pays compilation,
Python and launch overheads B times; :class:`TreeBatchSolver` compiles the tree once, keeps
every game's state as one ``(B, S)`` array per quantity (S slots) and runs ``step(n)``

* on the GPU: the kernels of ``cfr.cu`` with a second grid dimension over the games, every
  game of a depth in one launch (:class:`~rmviz.solvers.tree.device.DeviceCFR` with
  ``(B, n, N)`` payoffs);
* on the CPU: the compiled full traversal of :mod:`.kernels` game after game, on rows of the
  batched arrays (:meth:`~rmviz.solvers.tree.kernels.FullTraversal.with_payoffs`).

Both give, game by game, the iterates of ``CFRSolver`` with the same config on that game, bit
for bit (tests/solvers/tree/test_batch.py). Supported: full traversals (CFR, CFR+, linear
CFR, DCFR, greedy CFR on the CPU; the GPU runs the fixed schedules). Payoffs are given per
terminal history in the game's order (:func:`terminal_payoffs`: the game's own, shape
``(T, n)``), and one power-of-two scale serves the batch (:mod:`rmviz.solvers.scale`).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import numpy as np

from rmviz.errors import ConfigError
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.solvers.backend import AUTO_GPU_MIN_BATCH_NODES, get_backend
from rmviz.solvers.scale import payoff_scale
from rmviz.solvers.threads import ensure_threads
from rmviz.solvers.tree import kernels
from rmviz.solvers.tree.compiled_tree import TreePasses, compile_tree
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.device import DeviceCFR
from rmviz.solvers.tree.solver import greedy_floor
from rmviz.solvers.tree.state import CFRState


def terminal_payoffs(game: ExtensiveFormGame) -> np.ndarray:
    """The game's payoffs per terminal history, ``(T, n)``, in the order a batch takes them
    (the histories' prefix order)."""
    return np.array(game.flat.payoffs, dtype=np.float64)


def random_payoffs(game: ExtensiveFormGame, games: int, seed: int = 0) -> np.ndarray:
    """``games`` draws of the tree's terminal payoffs ``(games, T, n)``, uniform in [-2, 2)
    (twice Kuhn's ante), zero-sum (the second player's the negation) with two players."""
    rng = np.random.default_rng(seed)
    terminals, players = terminal_payoffs(game).shape
    draws = rng.uniform(-2.0, 2.0, (games, terminals, players))
    if players == 2:
        draws[:, :, 1] = -draws[:, :, 0]
    return draws


class TreeBatchSolver:
    """B games of ``game``'s tree, game ``g`` with terminal payoffs ``payoffs[g]`` ``(T, n)``.

    ``config`` is a full-traversal :class:`CFRConfig`; ``device`` picks the GPU when
    ``"gpu"``, or ``"auto"`` with a GPU and at least
    :data:`~rmviz.solvers.backend.AUTO_GPU_MIN_BATCH_NODES` histories in the batch.

    >>> from rmviz.solvers.tree.config import CFRConfig
    >>> from rmviz.solvers.tree.batch import terminal_payoffs
    >>> kuhn = rmviz.load("kuhn")
    >>> payoffs = terminal_payoffs(kuhn)          # (terminals, players)
    >>> batch = rmviz.TreeBatchSolver(kuhn, np.stack([payoffs, 2 * payoffs]), CFRConfig(algorithm="cfr+"))
    >>> batch.step(500); batch.iteration
    500
    >>> nash_conv = batch.nash_conv()             # the doubled game's is twice the first's
    >>> bool(abs(nash_conv[1] - 2 * nash_conv[0]) < 1e-12), batch.average_strategy().shape
    (True, (2, 24))
    >>> batch.reset(); batch.iteration
    0
    """

    def __init__(self, game: ExtensiveFormGame, payoffs: Any, config: CFRConfig | None = None) -> None:
        config = (config or CFRConfig()).validated()
        if config.sampling != "none":
            raise ConfigError("batches run full traversals (cfr, cfr+, linear-cfr, dcfr, greedy-cfr)")
        shape = terminal_payoffs(game).shape
        payoffs = np.asarray(payoffs, dtype=np.float64)
        if payoffs.ndim != 3 or payoffs.shape[1:] != shape or payoffs.shape[0] < 1:
            raise ConfigError(
                f"a batch of this tree's games is a (B, {shape[0]}, {shape[1]}) array, not {payoffs.shape}"
            )
        if not np.isfinite(payoffs).all():
            raise ConfigError("every payoff of the batch must be a finite number")
        ensure_threads()
        self.game, self.config, self.games = game, config, payoffs.shape[0]
        self.scale = payoff_scale(payoffs)
        self.tree = compile_tree(game)
        self.passes = TreePasses(self.tree)
        # each game's tree: the game's payoffs are the compiled tree's outcomes (one row per
        # terminal, in the game's order)
        self.trees = [replace(self.tree, outcomes=p / self.scale) for p in payoffs]
        large = config.runs_on_gpu and self.games * self.tree.n_nodes >= AUTO_GPU_MIN_BATCH_NODES
        self.backend = get_backend(config.device, large and kernels.runs(config))
        if self.backend.is_gpu and not config.runs_on_gpu:
            raise ConfigError("batches on the GPU run cfr, cfr+, linear-cfr, dcfr, pcfr+ and pdcfr+")
        if self.backend.is_gpu:
            dense = np.zeros((self.games, self.tree.n_players, self.tree.n_nodes))  # (B, n, N)
            dense[:, :, self.tree.kind == 2] = np.stack([tree.terminal_payoffs() for tree in self.trees])
            self.device: DeviceCFR | None = DeviceCFR(self.backend.xp, self.tree, config, dense)
        else:
            self.device = None
            if not kernels.runs(config):
                raise ConfigError("batches on the CPU need numba (the compiled full traversal)")
            one = kernels.FullTraversal(self.tree, config)
            self.traversals = [
                one.with_payoffs(tree.outcomes, greedy_floor(config, tree)) for tree in self.trees
            ]
        self.reset()

    def reset(self) -> None:
        """Back to iteration 0: uniform strategies, zero regrets and sums."""
        slots = self.tree.n_slots
        self.state = CFRState(
            iteration=0,
            strategy=np.tile(self.tree.uniform_strategy(), (self.games, 1)),
            regret=np.zeros((self.games, slots)),
            strategy_sum=np.zeros((self.games, slots)),
            true_regret=np.zeros((self.games, slots)),
            prediction=np.zeros((self.games, slots)) if self.config.predictive else None,
        )
        self.weight_sums = np.zeros(self.games)
        self.last_lambdas = np.zeros(self.games)

    @property
    def iteration(self) -> int:
        """The iterations run so far (the same for every game)."""
        return self.state.iteration

    def step(self, iterations: int = 1) -> None:
        """Run ``iterations`` iterations of every game."""
        if iterations <= 0:
            return
        state = self.state
        if self.device is not None:
            state.weight_sum = float(self.weight_sums[0])
            self.device.run(state, iterations)
            self.weight_sums[:] = state.weight_sum
            return
        for g, traversal in enumerate(self.traversals):
            game = CFRState(
                iteration=state.iteration,
                strategy=state.strategy[g],
                regret=state.regret[g],
                strategy_sum=state.strategy_sum[g],
                true_regret=state.true_regret[g],
                prediction=None if state.prediction is None else state.prediction[g],
                weight_sum=float(self.weight_sums[g]),
                last_lambda=float(self.last_lambdas[g]),
            )
            traversal.run(game, iterations)
            self.weight_sums[g], self.last_lambdas[g] = game.weight_sum, game.last_lambda
        state.iteration += iterations

    def average_strategy(self) -> np.ndarray:
        """The average behaviour strategies ``(B, S)`` (uniform where never reached)."""
        return np.stack([self.passes.average_strategy(sums) for sums in self.state.strategy_sum])

    def nash_conv(self) -> np.ndarray:
        """NashConv of each game's average profile (exact best responses), payoff units: ``(B,)``."""
        passes = copy.copy(self.passes)  # its tree takes each game's payoffs in turn
        out = np.empty(self.games)
        for g, strategy in enumerate(self.average_strategy()):
            passes.tree = self.trees[g]
            out[g] = passes.nash_conv(strategy)[0] * self.scale
        return out
