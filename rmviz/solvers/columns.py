"""The trace schema: the named columns a run publishes, with indices as data.

A run's history (:class:`rmviz.runner.trace.Trace`, the live plots, exported run data and
``rmviz solve --trace``) is a table whose columns are :class:`Column` values, never strings
to parse. A metric is ``Column("exploitability")``; a per-move quantity names its player,
and its information set for trees, and the move's index within it:

* ``Column("average", player=i, action=a)``: average strategy of action ``a`` of player ``i``;
* ``Column("current", ...)``, ``Column("regret", ...)``: current strategy, average regret;
* trees: ``Column("average", player=i, infoset=I, action=k)``: move ``k`` of information set
  ``I`` (the compiled tree's numbering).

'A solver's ``columns`` are its schema, fixed when it is built; its snapshots' ``trace_values()``
are one float per column, in that order; ``column_name(column)`` is the readable name used
in files (``average[Player 1][Rock]``).
"""

from __future__ import annotations

from dataclasses import dataclass

STRATEGY_QUANTITIES = ("average", "current", "regret")
MAX_TRACED_SLOTS = 4000  # tree runs trace per-move average strategies up to this many moves


@dataclass(frozen=True)
class Column:
    """One column of a run's trace (see the module docstring)."""

    quantity: str
    player: int | None = None
    infoset: int | None = None
    action: int | None = None

    @property
    def is_metric(self) -> bool:
        return self.player is None


def metric_columns(names: tuple[str, ...]) -> tuple[Column, ...]:
    """The columns of the metrics ``names``."""
    return tuple(Column(name) for name in names)
