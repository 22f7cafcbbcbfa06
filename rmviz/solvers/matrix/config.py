"""What to run: an algorithm as a composition of small named pieces.

A regret-minimisation run is (DESIGN.md, "Algorithms are compositions, not copies"):

* a rule from guiding regrets to the next strategy (``rule``): regret matching, following the
  regularised leader (``ftrl``: Hedge with the entropic regulariser, or the Euclidean one, at
  the learning rate ``step_size``) or the leader itself (``best-response``: fictitious play);
  see :mod:`rmviz.solvers.regret_matching`;
* a regret update: plain, RM+ (``plus``: clip the guiding regrets at zero,
  Tammelin 2014), predictive (``predictive``: play ``[R + m]_+`` with the prediction ``m``
  = the last instantaneous regret, Syrgkanis et al. 2015; Farina, Kroer & Sandholm 2021);
* an iterate weighting (uniform, linear, discounted, greedy; see :mod:`.weighting`) and
  optionally a separate averaging scheme;
* a regret kind: ``external`` (average play -> CCE; -> NE in two-player zero-sum) or
  ``internal`` (empirical play -> CE; Hart & Mas-Colell 2000);
* a play mode: ``expected`` (mixed strategies, expected payoffs) or ``sampled`` (each player
  samples one action; regrets from the realised payoffs, as in the seed snippet's
  "stochastic variant");
* an update schedule: ``simultaneous`` or ``alternating`` (players update in turn, each
  against the others' newest strategies; Tammelin 2014).

:data:`PRESETS` names the usual combinations for the CLI and the app.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rmviz.errors import ConfigError
from rmviz.solvers.backend import DEVICES
from rmviz.solvers.family import PLAY_MODES, SCHEDULES
from rmviz.solvers.presets import PresetTable, check_finite, check_numbers, check_strategies, from_preset
from rmviz.solvers.regret_matching import REGULARISERS, RULES
from rmviz.solvers.weighting import AVERAGINGS, DISCOUNTS, WEIGHTINGS

REGRET_KINDS = ("external", "internal")
# The largest FTRL step per unit of payoff range: eta G must stay finite (at 1e16 the
# Euclidean projection of a regret of 1e300 overflowed), and beyond it every rule already
# plays the best response (a regret gap of 1e-6 of the range weighs exp(1e6) in Hedge).
MAX_STEP_SIZE = 1e6
DTYPES = ("float64", "float32")


@dataclass(frozen=True)
class MatrixConfig:
    """A normal-form regret-minimisation run. See the module docstring for each field."""

    algorithm: str = "rm"
    rule: str = "regret-matching"
    regulariser: str = "entropic"  # of rule "ftrl"
    # FTRL's constant learning rate eta, in units of 1 / the player's payoff range; None: the
    # anytime schedule eta_t ~ 1/sqrt(t) of the regulariser (regret_matching.base_rate)
    step_size: float | None = None
    plus: bool = False
    predictive: bool = False
    weighting: str = "uniform"
    averaging: str | None = None  # None: same as ``weighting``
    alpha: float = DISCOUNTS["alpha"]
    beta: float = DISCOUNTS["beta"]
    gamma: float = DISCOUNTS["gamma"]
    # Greedy weight floor as a fraction of the average weight so far; None = the paper's
    # recommendation: 0.5 (w_sum/(2t)) for external regret in two-player zero-sum games,
    # no floor otherwise (Zhang, Lerer & Brown 2022, "Greedy Weights" and appendix).
    greedy_floor: float | None = None
    regret: str = "external"
    # Inertia alpha of sampled internal RM, in payoff units; None = 0.1 x the payoff range.
    # The paper's 1e-10 (Zhang, Lerer & Brown 2022, footnote 1) suits large random games but
    # leaves no inertia at all: in Battle of the Partners both players then switch every
    # time and cycle (Cinema, Dancing) <-> (Dancing, Cinema) forever (CE gap stays 5.0),
    # and RPS with Crash stalls at a CE gap of 0.6; 0.1 x range converges on every catalog
    # game (docs/algorithms.md).
    inertia: float | None = None
    play: str = "expected"
    updates: str = "simultaneous"
    seed: int = 0
    device: str = "auto"
    # Players whose strategy is fixed (they do not learn): {player index: mixed strategy}.
    fixed_strategies: Mapping[int, Sequence[float]] = field(default_factory=dict)
    # Each player's strategy at iteration 1, pi_i^1: {player index: mixed strategy}; players
    # not named start uniform. None: the game's default start (a catalog game whose uniform
    # profile is its equilibrium starts away from it, :func:`rmviz.games.catalog.default_start`;
    # any other game uniform). Checked against the game by the solver (non-negative, summing
    # to 1, one probability per action); a fixed player's start is its fixed strategy.
    start: Mapping[int, Sequence[float]] | None = None
    # Track the CE gap (two-player expected play: read off the joint, which is then kept
    # whatever track_joint says; otherwise an |A_i| x |A_i| accumulator per player). None:
    # always in sampled play or with internal regrets, in expected play while max |A_i| <= 64.
    track_ce: bool | None = None
    # Track the empirical joint distribution of two-player games (|A_0| x |A_1| per
    # iteration in expected play). None: in sampled play, in expected play up to 64 x 64;
    # True: in expected play up to 100 x 100 too (``rmviz solve --json`` asks for it).
    track_joint: bool | None = None
    # The precision of the payoff matrix that two-player expected play reads on the CPU:
    # "float32" halves the bytes per iteration (the products then sum in single precision,
    # relative error ~1e-7 of the payoffs); strategies, regrets and metrics stay float64.
    dtype: str = "float64"

    def validated(self) -> MatrixConfig:
        """This config after checking every field; a :class:`ConfigError` says what is wrong."""
        check_numbers(self, ("alpha", "beta", "gamma", "inertia", "greedy_floor", "step_size"))
        check_strategies(self.fixed_strategies, "fixed_strategies")
        if self.start is not None:
            check_strategies(self.start, "start")
        for name, value, allowed in (
            ("rule", self.rule, RULES),
            ("regulariser", self.regulariser, REGULARISERS),
            ("weighting", self.weighting, WEIGHTINGS),
            ("regret", self.regret, REGRET_KINDS),
            ("play", self.play, PLAY_MODES),
            ("updates", self.updates, SCHEDULES),
            ("device", self.device, DEVICES),
            ("dtype", self.dtype, DTYPES),
        ):
            if value not in allowed:
                raise ConfigError(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}")
        if self.averaging is not None and self.averaging not in AVERAGINGS:
            raise ConfigError(f"unknown averaging {self.averaging!r}; choose one of {', '.join(AVERAGINGS)}")
        if self.weighting == "greedy":
            if self.averaging is not None:
                raise ConfigError(
                    "greedy weights set the average's weights themselves; leave averaging unset"
                )
            if self.updates != "simultaneous":
                raise ConfigError(
                    "greedy weights choose one weight per iteration for all players: use simultaneous updates"
                )
        if self.rule != "regret-matching" and (self.plus or self.regret == "internal"):
            raise ConfigError(
                f"{'RM+ clipping' if self.plus else 'internal regret'} applies to regret matching only, "
                f"not to rule {self.rule}"
            )
        if self.rule != "ftrl" and (self.step_size is not None or self.regulariser != "entropic"):
            raise ConfigError(
                f"{'step size' if self.step_size is not None else 'regulariser'} applies to FTRL "
                f"(hedge, optimistic-hedge, ftrl), not to {self.algorithm}"
            )
        if self.step_size is not None and not (0 < self.step_size <= MAX_STEP_SIZE):
            raise ConfigError(
                f"the step size must be a positive number up to {MAX_STEP_SIZE:,.0f} (a larger step "
                "plays the best response: fictitious-play)"
            )
        check_finite(self, DISCOUNTS)
        if self.inertia is not None and not (0 < self.inertia < math.inf):
            raise ConfigError("the inertia of internal regret matching must be a positive number")
        if self.greedy_floor is not None and not (0 <= self.greedy_floor < math.inf):
            raise ConfigError("the greedy weight floor must be a fraction >= 0 of the average weight")
        return self

    def parameters(self) -> tuple[str, ...]:
        """The numerical parameters this configuration uses."""
        used = tuple(DISCOUNTS) if self.weighting == "discounted" else ()
        used += ("greedy_floor",) if self.weighting == "greedy" else ()
        used += ("step_size",) if self.rule == "ftrl" else ()
        return used + (("inertia",) if self.regret == "internal" else ())

    @property
    def uses_seed(self) -> bool:
        """Whether a run draws from its seed: only sampled play does (the actions drawn each
        iteration). Runs in expected play that differ only in ``seed`` are identical."""
        return self.play == "sampled"

    @property
    def schedule_locked(self) -> bool:
        """Greedy weights choose one weight for all players: simultaneous updates only."""
        return self.weighting == "greedy"

    def with_(self, **changes: Any) -> MatrixConfig:
        """A copy with some fields changed."""
        return replace(self, **changes)


PRESETS: PresetTable = {
    "rm": ("regret matching (Blackwell; Hart & Mas-Colell 2000)", {}),
    "rm+": (
        "RM+: clipped regrets, linear averaging (Tammelin 2014)",
        {"plus": True, "averaging": "linear"},
    ),
    "linear-rm": (
        "linear RM: iteration t weighs t (Brown & Sandholm 2019)",
        {"weighting": "linear"},
    ),
    "discounted-rm": (
        "discounted RM (Brown & Sandholm 2019)",
        {"weighting": "discounted"},
    ),
    "predictive-rm+": (
        "predictive RM+, linear averaging (Farina, Kroer & Sandholm 2021)",
        {"plus": True, "predictive": True, "averaging": "linear"},
    ),
    "greedy-rm": ("RM with greedy weights (Zhang, Lerer & Brown 2022)", {"weighting": "greedy"}),
    "internal-rm": (
        "internal regret matching -> CE (Hart & Mas-Colell 2000)",
        {"regret": "internal"},
    ),
    "greedy-internal-rm": (
        "internal RM with greedy weights -> CE (Zhang, Lerer & Brown 2022)",
        {"regret": "internal", "weighting": "greedy"},
    ),
    "hedge": (
        "Hedge, multiplicative weights: FTRL with entropy (Freund & Schapire 1997)",
        {"rule": "ftrl", "regulariser": "entropic"},
    ),
    "optimistic-hedge": (
        "optimistic Hedge, constant step (Rakhlin & Sridharan 2013; Daskalakis & Panageas 2019)",
        # the last-iterate theorems take a constant step; 1/4 per unit of payoff range makes the
        # current profile of rps, rps-crash and matching pennies converge (docs/algorithms.md)
        {"rule": "ftrl", "regulariser": "entropic", "predictive": True, "step_size": 0.25},
    ),
    "ftrl": (
        "FTRL, Euclidean regulariser (Shalev-Shwartz 2012)",
        {"rule": "ftrl", "regulariser": "euclidean"},
    ),
    "fictitious-play": (
        "fictitious play: best response to the empirical play (Brown 1951)",
        {"rule": "best-response"},
    ),
}


def preset(name: str, **overrides: Any) -> MatrixConfig:
    """The :class:`MatrixConfig` of preset ``name`` with ``overrides`` (None values ignored), validated."""
    return from_preset(MatrixConfig, PRESETS, name, overrides, "algorithm")
