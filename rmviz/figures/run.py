"""What a figure is drawn from: one run's trace and its last snapshot (:class:`RunData`), and
the runs of a comparison. The window builds it from its run loop, ``rmviz export`` and the
notebook API from :func:`record` (a run recorded on the app's grid of iterations, so a
headless figure is the figure the app shows).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rmviz.numbers import format_number
from rmviz.present.definitions import CAPTION_SEPARATOR
from rmviz.runner.record import record_run
from rmviz.runner.trace import TraceData
from rmviz.solvers.family import PARAMETER_LABELS, Family
from rmviz.solvers.protocol import Snapshot, Solver
from rmviz.solvers.registry import compared_options, family_of, make_solver
from rmviz.solvers.tree.compiled_tree import CompiledTree

Equilibrium = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class RunData:
    """One run as figures draw it.

    Attributes:
        game: the game solved (a matrix game solved by CFR is its game tree).
        family: the game's :class:`~rmviz.solvers.family.Family` (a figure's builders are
            keyed by it: :data:`~rmviz.figures.registry.FIGURES`).
        algorithm, play: the preset's name and the play mode (``None`` for trees).
        trace: the iterations and columns recorded.
        snapshot: the newest snapshot (matrix: the joint distribution; trees: strategies).
        tree: the compiled tree (trees only).
        equilibrium: the matrix game's reference equilibrium (the catalog's, or the LP's
            for two-player zero-sum games: :func:`~rmviz.solvers.exact.reference_equilibrium`),
            starred on the simplex as in the window.
        faces: simplex faces of players with more than three actions.
        compared: algorithm -> trace, for the compare figure (empty: this run alone).
        config: the solver's config (matrix games: the rule whose dynamic is drawn).
        dynamics: draw the vector field of the run's continuous-time dynamic under the
            simplex and square paths (:mod:`rmviz.present.dynamics`).
        dynamics_step: with ``dynamics``, also the discrete algorithm's steps of this size from
            the newest point beside the flow's trajectory (None: none).
    """

    game: Any
    family: Family
    algorithm: str
    play: str | None
    trace: TraceData
    snapshot: Snapshot
    tree: CompiledTree | None = None
    equilibrium: Equilibrium | None = None
    faces: Mapping[int, tuple[int, int, int]] = field(default_factory=dict)
    compared: Mapping[str, TraceData] = field(default_factory=dict)
    config: Any = None
    dynamics: bool = False
    dynamics_step: float | None = None

    @classmethod
    def of(
        cls,
        solver: Solver,
        trace: TraceData,
        snapshot: Snapshot | None = None,
        **extras: Any,
    ) -> RunData:
        """The run of ``solver`` recorded as ``trace`` (``snapshot``: its newest, taken now
        when not given; ``extras``: faces, compared, dynamics, dynamics_step). The family gives the
        play mode, the compiled tree and the reference equilibrium (:attr:`Family.run_extras`)."""
        family = family_of(solver.game)
        known = family.run_extras(solver)
        return cls(
            solver.game,
            family,
            solver.config.algorithm,
            known.play,
            trace,
            snapshot if snapshot is not None else solver.snapshot(metrics=True),
            known.tree,
            known.equilibrium,
            config=solver.config,
            **extras,
        )

    @property
    def last_iteration(self) -> int:
        return int(self.trace.iterations[-1]) if self.trace.iterations.size else 0

    @property
    def zero_sum(self) -> bool:
        """A two-player zero-sum game of a family that measures the CCE gap (matrix games:
        exploitability is at most the CCE gap)."""
        return "cce_gap" in self.family.metrics and self.game.n_players == 2 and bool(self.game.is_zero_sum())

    @property
    def payoff_scale(self) -> float:
        """The largest absolute payoff (at least 1): what rounding noise is measured against."""
        payoffs = self.game.payoffs if self.tree is None else self.tree.payoffs
        return max(1.0, float(np.abs(payoffs).max(initial=0.0)))

    def caption(self) -> str:
        """``Rock-paper-scissors · RM · T = 2,000 · expected play``: under every figure, with
        the parameters set to other values than the preset's (``step size 0.5``)."""
        algorithms = ", ".join(self.compared) if self.compared else self.algorithm
        parts = [self.game.title, algorithms, *self._settings(), self._iterations()]
        if self.play is not None:
            parts.append(f"{self.play} play")
        return CAPTION_SEPARATOR.join(parts)

    def _iterations(self) -> str:
        """``T = 2,000``; for compared runs, theirs (``T = 345,727 to 2,305,169``: each runs
        at its own speed), not this run's."""
        traces = self.compared.values() if self.compared else (self.trace,)
        ends = sorted({int(t.iterations[-1]) if t.iterations.size else 0 for t in traces})
        return f"T = {ends[0]:,}" if len(ends) == 1 else f"T = {ends[0]:,} to {ends[-1]:,}"

    def _settings(self) -> list[str]:
        """The run's parameters that differ from its preset's, by their panel labels (a figure
        of ``--step-size 0.5`` or ``--alpha 2`` says so; compare figures share them)."""
        if self.config is None:
            return []
        preset = self.family.preset(self.config.algorithm)
        return [
            f"{PARAMETER_LABELS[name][0]} {format_number(getattr(self.config, name))}"
            for name in self.config.parameters()
            if getattr(self.config, name) is not None and getattr(self.config, name) != getattr(preset, name)
        ]


def record(game: Any, algorithm: str | None = None, iterations: int = 1000, **options: Any) -> RunData:
    """Solve ``game`` for ``iterations`` with ``algorithm`` and ``options`` (those of
    :func:`~rmviz.solvers.registry.make_solver`: play, updates, seed...) and return the run,
    recorded on the app's grid of iterations."""
    solver = make_solver(game, algorithm, **options)
    trace = record_run(solver, iterations)
    return RunData.of(solver, trace.data())


def record_comparison(
    game: Any, algorithms: Sequence[str] | None = None, iterations: int = 1000, **options: Any
) -> RunData:
    """Several algorithms on ``game`` (default: the family's compare-mode choice), for the
    compare figure: the first one's run with every algorithm's trace in ``compared``."""
    names = list(algorithms or family_of(game).compare_default)
    first = record(game, names[0], iterations, **compared_options(game, names[0], options))
    return compared_with(first, names[1:], **options)


def compared_with(run: RunData, algorithms: Sequence[str], **options: Any) -> RunData:
    """``run`` with ``algorithms`` run as long on the same game with the same ``options``,
    for the compare figure."""
    others = {
        name: record(run.game, name, run.last_iteration, **compared_options(run.game, name, options)).trace
        for name in algorithms
    }
    return dataclasses.replace(run, compared={run.algorithm: run.trace, **others})
