"""The matrix-game family (see :class:`rmviz.solvers.family.Family`)."""

from __future__ import annotations

from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.family import Family, RunExtras
from rmviz.solvers.matrix.config import PRESETS, preset
from rmviz.solvers.matrix.solver import METRICS, RegretMinimizer
from rmviz.solvers.protocol import Solver


def run_extras(solver: Solver) -> RunExtras:
    """The play mode and the equilibrium the simplex stars (the catalog's, or the LP's in
    two-player zero-sum games: :func:`~rmviz.solvers.exact.reference_equilibrium`)."""
    from rmviz.solvers.exact import reference_equilibrium  # SciPy, when a figure is drawn

    return RunExtras(play=solver.config.play, equilibrium=reference_equilibrium(solver.game))


FAMILY = Family(
    name="matrix",
    title="matrix games",
    game_type=NormalFormGame,
    presets=PRESETS,
    preset=preset,
    solver=RegretMinimizer,
    choices=("play", "updates", "seed", "device", "fixed_strategies", "start", "dtype"),
    parameters=("alpha", "beta", "gamma", "greedy_floor", "inertia", "step_size"),
    metrics=METRICS,
    compared={"exploitability": "exploitability", "cce_gap": "CCE gap", "ce_gap": "CE gap"},
    compare_default=("rm", "rm+", "predictive-rm+", "greedy-rm"),
    compare_carries=("play", "updates", "seed", "device", "start"),
    report_options={"track_joint": True},
    correlated=True,
    run_extras=run_extras,
)
