"""What every solver and snapshot offers, whatever the game family.

The runner (:mod:`rmviz.runner`), the CLI and the windows drive any solver through
:class:`Solver` and read any state through :class:`Snapshot`; which family a game belongs to
is decided once, in :mod:`rmviz.solvers.registry`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from rmviz.solvers.checkpoint import Checkpoint
from rmviz.solvers.columns import Column


class Metrics(Protocol):
    """Distances to equilibrium of one state (host floats)."""

    @property
    def nash_conv(self) -> float: ...

    @property
    def exploitability(self) -> float: ...

    @property
    def eps_bound(self) -> float: ...

    @property
    def value(self) -> tuple[float, ...]: ...

    @property
    def potential(self) -> float: ...

    def as_dict(self) -> dict[str, Any]:
        """Every metric by name (``value`` as a list); only the metrics the family has."""
        ...


class Snapshot(Protocol):
    """An immutable host copy of a solver's state after ``iteration`` iterations."""

    @property
    def iteration(self) -> int: ...

    @property
    def metrics(self) -> Metrics | None: ...

    @property
    def seconds(self) -> float: ...

    def trace_values(self) -> np.ndarray:
        """One float per column of the solver's ``columns`` (NaN where not tracked)."""
        ...


class Config(Protocol):
    """A validated, immutable run configuration of one family."""

    @property
    def algorithm(self) -> str: ...

    @property
    def updates(self) -> str: ...

    @property
    def seed(self) -> int: ...

    def validated(self) -> Any: ...

    def parameters(self) -> tuple[str, ...]:
        """The numerical parameters this configuration uses (``alpha``, ``greedy_floor``...)."""
        ...

    @property
    def schedule_locked(self) -> bool:
        """True when the algorithm needs its update schedule (greedy weights, external sampling)."""
        ...

    @property
    def uses_seed(self) -> bool:
        """True when a run draws from ``seed`` (sampled play, Monte-Carlo sampling): two runs
        that differ only in their seed are then different samples; otherwise they are the
        same run (sweeps run such configs once, :mod:`rmviz.sweep`)."""
        ...


class Solver(Protocol):
    """A regret minimiser on one game: ``step(n)``, ``snapshot()``, ``reset(seed)``.

    ``releases_gil`` says whether ``step`` runs without the GIL (a compiled kernel), so the
    app's worker thread need not step aside while the window draws. ``last_iterate`` says
    whether the metrics include the current profile's distances (the ``last_*`` columns, NaN
    when off; on by default for matrix games, off for trees: docs/algorithms.md).
    """

    game: Any
    config: Any
    releases_gil: bool
    last_iterate: bool

    @property
    def iteration(self) -> int: ...

    @property
    def columns(self) -> tuple[Column, ...]:
        """The trace schema: the columns every snapshot's ``trace_values()`` fills."""
        ...

    def step(self, iterations: int = 1) -> None: ...

    def snapshot(self, metrics: bool = True) -> Snapshot: ...

    def reset(self, seed: int | None = None) -> None: ...

    def checkpoint(self) -> Checkpoint:
        """The whole state, host copies (:mod:`rmviz.solvers.checkpoint`); raises
        ``NotCapturable`` where a generator's state cannot be saved."""
        ...

    def restore(self, checkpoint: Checkpoint) -> None:
        """Go on from ``checkpoint``, bit for bit; ``ConfigError`` when it does not fit."""
        ...

    def column_name(self, column: Column) -> str:
        """The readable name of one of ``columns`` (``average[Player 1][Rock]``)."""
        ...

    def report(self, snapshot: Any) -> dict[str, Any]:
        """JSON-ready strategies, device and config of one of this solver's snapshots."""
        ...

    def config_record(self) -> dict[str, Any]:
        """The run's whole configuration as JSON, defaults as resolved
        (:mod:`rmviz.solvers.config_record`)."""
        ...
