"""A game family described once: everything the runner, the CLI and the windows need.

rmviz solves two families, matrix games (:mod:`rmviz.solvers.matrix`) and game trees
(:mod:`rmviz.solvers.tree`). Each package defines one :class:`Family`; the registry
(:mod:`rmviz.solvers.registry`) lists them and is the only place that asks which family a
game or an algorithm belongs to. Adding a family is a new package and one registry entry
(docs/architecture.md lists the places a family plugs into).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rmviz.errors import ConfigError
from rmviz.numbers import format_number
from rmviz.solvers.presets import PresetTable
from rmviz.solvers.protocol import Config, Solver
from rmviz.solvers.weighting import DISCOUNTS

# A person's choices that are not numerical parameters: panel rows and CLI flags.
CHOICES = ("play", "updates", "seed", "device", "fixed_strategies", "start", "dtype", "deviations")
# The values of the two named choices (every family that has the choice takes these).
PLAY_MODES = ("expected", "sampled")
SCHEDULES = ("simultaneous", "alternating")
# EFR's deviation sets (Morrill et al. 2021; solvers/tree/efr.py maps them to OpenSpiel's): a
# choice only the presets that set it take (OPTIONAL_CHOICES)
DEVIATIONS = ("blind-action", "informed-action", "blind-cf", "informed-cf", "causal")
OPTIONAL_CHOICES = ("deviations",)
# Outcome-sampling MCCFR's default share of uniform exploration at the traverser's nodes
# (Lanctot et al. 2009 use 0.6): the tree config's default, the panel's and the CLI's text.
EXPLORATION = 0.6
# Labels of the numerical parameters (panel rows; blank = the preset's default).
PARAMETER_LABELS = {
    **{name: (name, f"{value:g}") for name, value in DISCOUNTS.items()},
    "greedy_floor": ("weight floor", "paper's default"),
    "inertia": ("inertia", "0.1 x payoff range"),
    "step_size": ("step size", "~1/sqrt(t)"),
    "exploration": ("exploration", f"{EXPLORATION:g}"),
}


# Every option a config of some family takes (the choices, the parameters, and the switches
# of what is tracked: Family.switches, each family's within these, as a test checks), for the
# nearest name to a mistyped one
KNOWN_OPTIONS = (*CHOICES, *PARAMETER_LABELS, "track_ce", "track_joint", "track_correlation")


def _said(option: str) -> str:
    """An option as a person reads it: a parameter's label (weight floor), else its name."""
    return PARAMETER_LABELS[option][0] if option in PARAMETER_LABELS else option.replace("_", " ")


@dataclass(frozen=True)
class RunExtras:
    """What a run's figures and captions need besides its trace, as its family knows it.

    Attributes:
        play: the play mode named in captions (matrix games: ``"expected"``, ``"sampled"``).
        tree: the solver's compiled tree, for figures drawn on the tree (game trees).
        equilibrium: the reference equilibrium starred on the simplex (matrix games).
    """

    play: str | None = None
    tree: Any = None
    equilibrium: tuple[tuple[float, ...], ...] | None = None


def no_extras(solver: Solver) -> RunExtras:
    """A family whose runs need nothing besides their trace."""
    return RunExtras()


@dataclass(frozen=True, eq=False)
class Family:
    """One game family. Families are singletons compared by identity, so a higher layer
    keys a table by the ``Family`` itself (a figure builder, a text summary per family), never
    by its name.

    Attributes:
        name, title: ``"matrix"``, ``"matrix games"``.
        game_type: the game class solved (``NormalFormGame``...).
        presets: algorithm name -> (description, config fields); the first is the default.
        preset: ``preset(name, **overrides)`` -> a validated config.
        solver: ``solver(game, config)`` -> a :class:`~rmviz.solvers.protocol.Solver`.
        choices: which of :data:`CHOICES` a person sets (panel rows, CLI flags).
        parameters: the numerical parameters its configs may use (see ``Config.parameters``).
        metrics: the metric columns its solvers publish, in plotting order.
        compared: metric -> plot title in compare mode; ``compare_default`` is checked first.
        compare_carries: the config fields compare mode copies from the panel's config.
        report_options: config fields ``rmviz solve --json`` sets to report more (the joint
            distribution of matrix games).
        infosets: a strategy is one distribution per information set (game trees: tables and
            traces have an infoset column, and there are no simplex faces); otherwise one per
            player over its actions.
        correlated: the CE/CCE checker and the best CE/CCE by LP apply (``rmviz
            equilibria``: a joint distribution over action profiles, matrix games).
        run_extras: ``run_extras(solver)`` -> the :class:`RunExtras` of a run.
    """

    name: str
    title: str
    game_type: type
    presets: PresetTable
    preset: Callable[..., Config]
    solver: Callable[[Any, Any], Solver]
    choices: tuple[str, ...]
    parameters: tuple[str, ...]
    metrics: tuple[str, ...]
    compared: Mapping[str, str]
    compare_default: tuple[str, ...]
    compare_carries: tuple[str, ...]
    report_options: Mapping[str, Any] = field(default_factory=dict)
    infosets: bool = False
    correlated: bool = False
    run_extras: Callable[[Solver], RunExtras] = no_extras

    def __repr__(self) -> str:
        return f"<Family {self.name}>"

    @property
    def default_algorithm(self) -> str:
        return next(iter(self.presets))

    def config(self, algorithm: str | None = None, **options: Any) -> Config:
        """The validated config of ``algorithm`` (default: the first preset) with a person's
        ``options``. Refused in one line: an option no config has (a mistyped name, with the
        nearest one), one this family does not have (naming the family), and a parameter set
        away from the preset's value that this algorithm does not use (RM's ``--alpha 3``
        was taken and ignored: it is discounted RM's)."""
        name = algorithm or self.default_algorithm
        for option in ("start", "fixed_strategies"):  # JSON's player numbers ("0"): a record read back
            value = options.get(option)
            if isinstance(value, Mapping):
                options[option] = {
                    int(p) if isinstance(p, str) and p.isdigit() else p: s for p, s in value.items()
                }
        for option, value in options.items():
            if option not in KNOWN_OPTIONS:
                near = difflib.get_close_matches(option, KNOWN_OPTIONS, n=1)
                hint = f"; did you mean {near[0]!r}?" if near else f" (options: {', '.join(self.accepted)})"
                raise ConfigError(f"unknown option {option!r}{hint}")
            if value is not None and value != {} and value != [] and option not in self.accepted:
                raise ConfigError(f"{_said(option)} does not apply to {self.title} ({name})")
        config = self.preset(name, **options)
        preset, used = self.preset(name), config.parameters()
        for option in options:
            if (
                option in self.parameters
                and option not in used
                and getattr(config, option) != getattr(preset, option)
            ):
                uses = ", ".join(_said(p) for p in used) or "no numerical parameter"
                raise ConfigError(f"{_said(option)} does not apply to {name}: it uses {uses}")
        return config

    def describe(self, config: Config) -> str:
        """``config``'s preset described with the values of the parameters it uses, as set
        (the preset texts name no values: "alpha=1.5" stayed on screen after alpha was set
        to 3). A parameter left to its default that depends on the game says so."""
        values = []
        for name in config.parameters():
            value = getattr(config, name)
            label, default = PARAMETER_LABELS[name]
            values.append(f"{label}: {default}" if value is None else f"{label}={format_number(value, 'g')}")
        description = self.presets[config.algorithm][0]
        return f"{description}; {', '.join(values)}" if values else description

    @property
    def accepted(self) -> tuple[str, ...]:
        """The options :meth:`config` takes: a person's choices, the parameters, and the
        switches of what a run tracks (:attr:`switches`; the report options among them)."""
        return self.choices + self.parameters + self.switches

    @functools.cached_property
    def switches(self) -> tuple[str, ...]:
        """The config's switches of what a run tracks, its ``track_*`` fields (matrix games:
        the CE gap and the joint; trees: the correlation gaps), read off the config itself."""
        config: Any = self.preset(self.default_algorithm)  # a dataclass, as every config is
        return tuple(f.name for f in dataclasses.fields(config) if f.name.startswith("track_"))

    def compare_solver(self, game: Any, algorithm: str, base: Config) -> Solver:
        """Preset ``algorithm`` with the fields compare mode carries from ``base`` (a preset
        that needs its own update schedule keeps it) and the parameters set in ``base`` away
        from its preset's values that ``algorithm`` uses (as :func:`.registry.compared_options`)."""
        fields = {name: getattr(base, name) for name in self.compare_carries}
        preset = self.preset(algorithm)
        if preset.schedule_locked:
            fields.pop("updates", None)
        # a parameter set in the panel (a step size) runs every compared preset that uses it
        own = self.preset(base.algorithm)
        fields |= {
            name: getattr(base, name)
            for name in base.parameters()
            if name in preset.parameters() and getattr(base, name) != getattr(own, name)
        }
        return self.solver(game, self.preset(algorithm, **fields))
