"""What to run on a game tree: CFR and its variants as compositions of the shared pieces.

See :mod:`rmviz.solvers.tree.solver` for the algorithms and their sources; :data:`PRESETS`
names the usual combinations for the CLI and the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rmviz.errors import ConfigError
from rmviz.solvers.backend import DEVICES
from rmviz.solvers.family import DEVIATIONS, EXPLORATION, SCHEDULES
from rmviz.solvers.presets import PresetTable, check_finite, check_numbers, from_preset
from rmviz.solvers.weighting import AVERAGINGS, DISCOUNTS, WEIGHTINGS

SAMPLINGS = ("none", "chance", "external", "outcome")


@dataclass(frozen=True)
class CFRConfig:
    """A CFR run; see the module docstring and :data:`PRESETS`."""

    algorithm: str = "cfr"
    plus: bool = False
    predictive: bool = False  # play [d R + m]_+ with the prediction m = the last regret (solver.py)
    weighting: str = "uniform"
    averaging: str | None = None
    alpha: float = DISCOUNTS["alpha"]
    beta: float = DISCOUNTS["beta"]
    gamma: float = DISCOUNTS["gamma"]
    greedy_floor: float | None = None
    updates: str = "alternating"
    sampling: str = "none"
    exploration: float = EXPLORATION  # outcome sampling: the traverser samples eps-uniform + (1-eps) sigma
    seed: int = 0
    device: str = "auto"  # the GPU for large trees whose algorithm runs there (solver.py)
    # Track the device's CCE, EFCCE and EFCE gaps (solvers/tree/correlation.py; on the CPU).
    # None: in full traversals where it costs little (correlation.tracked_by_default), not on
    # a GPU; Monte-Carlo CFR only when asked (a full pass per iteration).
    track_correlation: bool | None = None
    deviations: str | None = None  # EFR's deviation set (DEVIATIONS); None: CFR

    def parameters(self) -> tuple[str, ...]:
        """The numerical parameters this configuration uses."""
        used = tuple(DISCOUNTS) if self.weighting == "discounted" else ()
        used += ("greedy_floor",) if self.weighting == "greedy" else ()
        return used + (("exploration",) if self.sampling == "outcome" else ())

    @property
    def schedule_locked(self) -> bool:
        """Greedy weights need simultaneous updates, external and outcome sampling
        alternating ones."""
        return (
            self.weighting == "greedy"
            or self.sampling in ("external", "outcome")
            or self.deviations is not None
        )

    @property
    def uses_seed(self) -> bool:
        """Whether a run draws from its seed: only Monte-Carlo CFR does (the chance outcomes and
        actions it samples). Full-traversal runs that differ only in ``seed`` are identical."""
        return self.sampling != "none"

    @property
    def runs_on_gpu(self) -> bool:
        """Full traversals with a fixed schedule run on a GPU (:mod:`.device`); greedy weights
        and Monte-Carlo sampling on the CPU only."""
        return self.sampling == "none" and self.weighting != "greedy" and self.deviations is None

    def validated(self) -> CFRConfig:
        check_numbers(self, ("alpha", "beta", "gamma", "greedy_floor", "exploration"))
        if self.deviations is not None or self.algorithm == "efr":
            self._check_efr()
        if self.weighting not in WEIGHTINGS:
            raise ConfigError(f"unknown weighting {self.weighting!r}; choose one of {', '.join(WEIGHTINGS)}")
        if self.averaging is not None and self.averaging not in AVERAGINGS:
            raise ConfigError(f"unknown averaging {self.averaging!r}; choose one of {', '.join(AVERAGINGS)}")
        if self.updates not in SCHEDULES:
            raise ConfigError(f"unknown updates {self.updates!r}; choose simultaneous or alternating")
        if self.sampling not in SAMPLINGS:
            raise ConfigError(f"unknown sampling {self.sampling!r}")
        if self.weighting == "greedy" and self.updates != "simultaneous":
            raise ConfigError("greedy weights choose one weight per iteration: use simultaneous updates")
        if self.sampling in ("external", "outcome") and self.updates != "alternating":
            raise ConfigError(
                f"{self.sampling} sampling traverses one player at a time: use alternating updates"
            )
        if not 0.0 < self.exploration <= 1.0:
            raise ConfigError("exploration must be in (0, 1]")
        if self.predictive and (self.weighting == "greedy" or self.sampling != "none"):
            raise ConfigError("predictive CFR runs with full traversals and a fixed weighting")
        if self.sampling != "none" and (
            self.weighting != "uniform" or self.averaging not in (None, "uniform")
        ):
            raise ConfigError("Monte-Carlo CFR runs with uniform weights in this version")
        if self.device not in DEVICES:
            raise ConfigError(f"unknown device {self.device!r}; choose one of {', '.join(DEVICES)}")
        if self.device == "gpu" and not self.runs_on_gpu:
            raise ConfigError(
                "greedy CFR and Monte-Carlo CFR run on the CPU (CFR, CFR+, linear CFR, DCFR, PCFR+ "
                "and PDCFR+ run on a GPU); use --device cpu or auto"
            )
        if self.track_correlation and self.device == "gpu":
            raise ConfigError("correlation gaps are tracked on the CPU only; use --device cpu or auto")
        check_finite(self, DISCOUNTS)
        return self

    def _check_efr(self) -> None:
        """EFR (:mod:`.efr`): one of :data:`DEVIATIONS`, simultaneous full traversals, plain
        regret matching and uniform averaging, on the CPU, as Morrill et al. and OpenSpiel."""
        if self.algorithm != "efr":
            raise ConfigError(f"--deviations applies to efr, not {self.algorithm}")
        if self.deviations not in DEVIATIONS:
            raise ConfigError(
                f"unknown deviations {self.deviations!r}; choose one of {', '.join(DEVIATIONS)}"
            )
        if self.updates != "simultaneous":
            raise ConfigError("efr updates every player at once: use simultaneous updates")
        if self.sampling != "none":
            raise ConfigError("efr traverses the whole tree: Monte-Carlo sampling does not apply")
        if (
            self.plus
            or self.predictive
            or self.weighting != "uniform"
            or self.averaging not in (None, "uniform")
        ):
            raise ConfigError("efr runs with regret matching and uniform weights in this version")
        if self.device == "gpu":
            raise ConfigError("efr runs on the CPU; use --device cpu or auto")


PRESETS: PresetTable = {
    "cfr": ("CFR (Zinkevich et al. 2007)", {}),
    "cfr+": (
        "CFR+: RM+, alternating, linear averaging (Tammelin 2014)",
        {"plus": True, "averaging": "linear"},
    ),
    "linear-cfr": (
        "Linear CFR: iteration t weighs t (Brown & Sandholm 2019)",
        {"weighting": "linear"},
    ),
    "dcfr": (
        "Discounted CFR (Brown & Sandholm 2019)",
        {"weighting": "discounted"},
    ),
    "pcfr+": (
        "predictive CFR+, quadratic averaging (Farina, Kroer & Sandholm 2021)",
        {"plus": True, "predictive": True, "averaging": "quadratic"},
    ),
    "pdcfr+": (
        "predictive discounted CFR+ (Xu et al. 2024)",
        {"plus": True, "predictive": True, "weighting": "discounted", "alpha": 2.3, "gamma": 5.0},
    ),
    "greedy-cfr": (
        "CFR with greedy weights (Zhang, Lerer & Brown 2022)",
        {"weighting": "greedy", "updates": "simultaneous"},
    ),
    "mccfr-chance": (
        "chance-sampling Monte-Carlo CFR (Lanctot et al. 2009)",
        {"sampling": "chance"},
    ),
    "mccfr-external": (
        "external-sampling Monte-Carlo CFR (Lanctot et al. 2009)",
        {"sampling": "external"},
    ),
    "mccfr-outcome": (
        "outcome-sampling Monte-Carlo CFR (Lanctot et al. 2009)",
        {"sampling": "outcome"},
    ),
    "efr": (
        "extensive-form regret minimisation, --deviations (Morrill et al. 2021)",
        {"deviations": "causal", "updates": "simultaneous"},
    ),
}


def preset(name: str, **overrides: Any) -> CFRConfig:
    """The :class:`CFRConfig` of preset ``name`` with ``overrides`` (None values ignored), validated."""
    return from_preset(CFRConfig, PRESETS, name, overrides, "tree algorithm")
