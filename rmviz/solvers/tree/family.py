"""The game-tree family (see :class:`rmviz.solvers.family.Family`)."""

from __future__ import annotations

from typing import cast

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.solvers.family import Family, RunExtras
from rmviz.solvers.protocol import Solver
from rmviz.solvers.tree.config import PRESETS, CFRConfig, preset
from rmviz.solvers.tree.efr import EFRSolver
from rmviz.solvers.tree.solver import METRICS, CFRSolver


def tree_solver(game: ExtensiveFormGame, config: CFRConfig) -> CFRSolver:
    """The solver of ``config``: EFR when it names deviations (:mod:`.efr`), else CFR."""
    return EFRSolver(game, config) if config.deviations is not None else CFRSolver(game, config)


def run_extras(solver: Solver) -> RunExtras:
    """The compiled tree the tree and strategy figures are drawn on."""
    return RunExtras(tree=cast(CFRSolver, solver).tree)


FAMILY = Family(
    name="tree",
    title="game trees",
    game_type=ExtensiveFormGame,
    presets=PRESETS,
    preset=preset,
    solver=tree_solver,
    choices=("updates", "seed", "device", "deviations"),
    parameters=("alpha", "beta", "gamma", "greedy_floor", "exploration"),
    metrics=METRICS,
    compared={"exploitability": "exploitability", "cce_gap": "CCE gap", "efce_gap": "EFCE gap"},
    compare_default=("cfr", "cfr+", "dcfr", "mccfr-external"),
    compare_carries=("seed",),
    infosets=True,
    run_extras=run_extras,
)
