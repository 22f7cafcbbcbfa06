"""How a game is solved: regret minimisation on NumPy or CuPy arrays (no Qt).

Build a solver from a game and a :class:`SolverConfig` (or a preset name), then drive it
with ``step(n)`` / ``snapshot()`` / ``reset(seed)``.
"""

from __future__ import annotations

from rmviz.solvers.config import PRESETS, SolverConfig, preset
from rmviz.solvers.metrics import Metrics
from rmviz.solvers.regret_minimizer import RegretMinimizer, Snapshot

__all__ = ["PRESETS", "Metrics", "RegretMinimizer", "Snapshot", "SolverConfig", "preset"]
