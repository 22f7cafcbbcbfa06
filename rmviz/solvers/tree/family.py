"""The game-tree family (see :class:`rmviz.solvers.family.Family`)."""

from __future__ import annotations

from typing import cast

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.solvers.family import Family, RunExtras
from rmviz.solvers.protocol import Solver
from rmviz.solvers.tree.config import PRESETS, preset
from rmviz.solvers.tree.solver import METRICS, CFRSolver


def run_extras(solver: Solver) -> RunExtras:
    """The compiled tree the tree and strategy figures are drawn on."""
    return RunExtras(tree=cast(CFRSolver, solver).tree)


FAMILY = Family(
    name="tree",
    title="game trees",
    game_type=ExtensiveFormGame,
    presets=PRESETS,
    preset=preset,
    solver=CFRSolver,
    choices=("updates", "seed", "device"),
    parameters=("alpha", "beta", "gamma", "greedy_floor", "exploration"),
    metrics=METRICS,
    compared={"exploitability": "exploitability (NashConv/n)", "cce_gap": "CCE gap", "efce_gap": "EFCE gap"},
    compare_default=("cfr", "cfr+", "dcfr", "mccfr-external"),
    compare_carries=("seed",),
    infosets=True,
    run_extras=run_extras,
)
