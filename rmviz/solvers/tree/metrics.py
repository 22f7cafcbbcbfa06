"""Equilibrium distances of a tree solver's average profile, of its current profile (the
last iterate) when the solver tracks it (``CFRSolver.last_iterate``), and of its device's
correlation (:mod:`.correlation`) when tracked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rmviz.solvers.tree.correlation import NOTIONS, CorrelationGaps


@dataclass(frozen=True)
class TreeMetrics:
    """Equilibrium distances of the average profile of a tree solver.

    ``eps_bound`` is the sum over players and information sets of the largest positive
    average counterfactual regret, which bounds NashConv in two-player zero-sum games
    (Zinkevich et al. 2007, Theorem 3). ``last_nash_conv`` and ``last_exploitability``: the
    same distances of the current behavioural profile (the last iterate), by the same exact
    best responses; ``None`` where not tracked. ``correlation``: the device's gaps per
    player; ``cce_gap``, ``efcce_gap`` and ``efce_gap`` their maxima over players.
    """

    nash_conv: float
    exploitability: float
    value: tuple[float, ...]
    eps_bound: float
    potential: float
    last_nash_conv: float | None = None
    last_exploitability: float | None = None
    correlation: CorrelationGaps | None = None

    def gap(self, notion: str) -> float | None:
        """The largest player's gap of ``notion`` (``"cce"``, ``"efcce"``, ``"efce"``)."""
        return None if self.correlation is None else max(getattr(self.correlation, notion))

    def as_dict(self) -> dict[str, Any]:
        gaps = self.correlation
        return {
            **{f"{notion}_gap": self.gap(notion) for notion in NOTIONS},
            "player_gaps": None
            if gaps is None
            else {notion: list(getattr(gaps, notion)) for notion in NOTIONS},
            "nash_conv": self.nash_conv,
            "exploitability": self.exploitability,
            "eps_bound": self.eps_bound,
            "value": list(self.value),
            "potential": self.potential,
            "last_exploitability": self.last_exploitability,
            "last_nash_conv": self.last_nash_conv,
        }
