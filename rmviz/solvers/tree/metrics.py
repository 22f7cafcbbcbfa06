"""Equilibrium distances of a tree solver's average profile, and of its current profile (the
last iterate) when the solver tracks it (``CFRSolver.last_iterate``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TreeMetrics:
    """Equilibrium distances of the average profile of a tree solver.

    ``eps_bound`` is the sum over players and information sets of the largest positive
    average counterfactual regret, which bounds NashConv in two-player zero-sum games
    (Zinkevich et al. 2007, Theorem 3). ``last_nash_conv`` and ``last_exploitability``: the
    same distances of the current behavioural profile (the last iterate), by the same exact
    best responses; ``None`` where not tracked.
    """

    nash_conv: float
    exploitability: float
    value: tuple[float, ...]
    eps_bound: float
    potential: float
    last_nash_conv: float | None = None
    last_exploitability: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "nash_conv": self.nash_conv,
            "exploitability": self.exploitability,
            "eps_bound": self.eps_bound,
            "value": list(self.value),
            "potential": self.potential,
            "last_exploitability": self.last_exploitability,
            "last_nash_conv": self.last_nash_conv,
        }
