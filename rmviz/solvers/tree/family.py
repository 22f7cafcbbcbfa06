"""The game-tree family (see :class:`rmviz.solvers.family.Family`)."""

from __future__ import annotations

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.solvers.family import Family
from rmviz.solvers.tree.config import PRESETS, preset
from rmviz.solvers.tree.solver import METRICS, CFRSolver

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
    compared={"exploitability": "exploitability (NashConv/n)"},
    compare_default=("cfr", "cfr+", "dcfr", "mccfr-external"),
    compare_carries=("seed",),
)
