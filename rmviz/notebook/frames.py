"""The frames of the live view: the window's panels of a run (:mod:`rmviz.present.panels`:
matrix games the strategies of each player above the gaps, regrets and welfare; game trees
the gaps beside one information set's strategy) drawn by
:func:`~rmviz.figures.panels.draw_panel` into one matplotlib figure, reused from frame to
frame, and returned as PNG bytes; and the status line under them.

The figure is laid out (constrained layout, decade ticks, legends under their axes:
:func:`rmviz.figures.style.finish`) only when what the layout measures changes: a tick
label, a legend's entries or a title (:func:`layout_key`). Other frames clear each Axes and
draw the panel again in place, which took a third of a laid-out frame's time (0.6 s against
2.0 s on a loaded 2-core machine, docs/research.md).
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rmviz.figures.panels import draw_panel
from rmviz.figures.run import RunData
from rmviz.figures.style import STYLES, arrange, decades, finish
from rmviz.numbers import format_number
from rmviz.present.definitions import CAPTION_SEPARATOR, PANELS, gap_curves
from rmviz.present.panels import (
    Panel,
    chosen_from,
    gap_panel,
    infoset_columns,
    infoset_panel,
    last_values,
    matrix_panels,
    moves_chosen_from,
    tracks_last,
)
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.family import Family
from rmviz.solvers.protocol import Snapshot
from rmviz.solvers.registry import MATRIX, TREE

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SIZE = (10.0, 6.0)  # inches: about a notebook's output width at DPI
DPI = 96
STYLE = "paper"  # the slides style's fonts leave the panels no room at this size
CAPTION = {"color": "#555555", "x": 0.01, "ha": "left"}  # as style.finish writes it


def matrix_rows(run: RunData, infoset: int) -> list[list[Panel]]:
    """The window's convergence plots: each player's strategies, then gaps, regrets, welfare."""
    panels = matrix_panels(
        run.family, run.game, PANELS, run.zero_sum, last=tracks_last(run.trace), table=run.trace
    )
    return [panels["strategies"], [panel for name in PANELS[1:] for panel in panels[name]]]


def tree_rows(run: RunData, infoset: int) -> list[list[Panel]]:
    """The tree window's plots: the gaps and the average strategy at ``infoset``."""
    assert run.tree is not None  # the tree family's runs carry their compiled tree
    gaps = gap_panel(run.family, False, last=tracks_last(run.trace))
    average = last_values(run.trace.columns, infoset_columns(run.tree, infoset))
    return [[gaps, infoset_panel(run.tree, infoset, run.game.player_names, average=average)]]


ROWS: dict[Family, Callable[[RunData, int], list[list[Panel]]]] = {MATRIX: matrix_rows, TREE: tree_rows}
# the columns the rows' panels choose their actions or moves from (rmviz.present.panels.shown_actions)
CHOSEN_FROM: dict[Family, Callable[[RunData, int], list[Column]]] = {
    MATRIX: lambda run, _infoset: chosen_from(run.game.num_actions),
    TREE: lambda run, infoset: moves_chosen_from(run.tree, infoset) if run.tree is not None else [],
}


def main_metric(family: Family, snapshot: Snapshot) -> tuple[str, float] | None:
    """The first of the family's gap curves (exploitability first) that ``snapshot`` measured:
    its label and value; None when none is measured."""
    metrics = snapshot.metrics.as_dict() if snapshot.metrics is not None else {}
    for name, curve in gap_curves(family, False).items():
        value = metrics.get(name)
        if isinstance(value, (int, float)) and math.isfinite(value):
            return curve.label, float(value)
    return None


def status_line(
    iteration: int,
    state: str,
    per_second: float,
    metric: tuple[str, float] | None,
    error: str | None,
) -> str:
    """``T = 12,000 · 3.1e+05 it/s · exploitability ε 0.0021 · running`` (plain text)."""
    parts = [f"T = {iteration:,}"]
    if state == "running" and per_second > 0:
        parts.append(f"{format_number(per_second, '.3g')} it/s")
    if metric is not None:
        parts.append(f"{metric[0]} {format_number(metric[1], '.3g')}")
    parts.append(state)
    if error:
        parts.append(f"error: {error}")
    return CAPTION_SEPARATOR.join(parts)


def one_line(message: str, limit: int = 200) -> str:
    """``message`` on one line of at most ``limit`` characters (errors in the status line)."""
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def layout_key(fig: Figure) -> tuple[Any, ...]:
    """What the layout of ``fig`` depends on: every axis's shown tick labels, every legend's
    entries and every title. Equal keys: the last layout still fits."""
    key: list[Any] = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            shown = [value for value in axis.get_majorticklocs() if low <= value <= high]
            key.append(tuple(axis.get_major_formatter().format_ticks(shown)))
        legend = ax.get_legend()
        key.append(tuple(text.get_text() for text in legend.get_texts()) if legend is not None else ())
        key.append((ax.get_title(), ax.yaxis.get_label_text()))
    return tuple(key)


class Frames:
    """Draws a run's panels as PNG frames into one reused figure (see the module docstring).

    ``run``: the run as figures draw it (:meth:`~rmviz.figures.run.RunData.of`, taken once:
    its trace and snapshot are replaced at every frame); ``infoset``: the information set
    whose strategy a game tree's frame draws."""

    def __init__(
        self,
        run: RunData,
        infoset: int = 0,
        size: tuple[float, float] = SIZE,
        dpi: int = DPI,
        style: str = STYLE,
    ) -> None:
        self.run = run
        self.infoset = infoset
        self.size = size
        self.dpi = dpi
        self.style = STYLES[style]
        self.layouts = 0  # frames that were laid out afresh
        self._figure: Figure | None = None
        self._axes: list[Axes] = []
        self._layout: tuple[Any, ...] | None = None
        panels = [panel for row in ROWS[run.family](run, infoset) for panel in row]
        panels.append(gap_panel(run.family, run.zero_sum, last=True))  # the last iterate, if tracked
        drawn = (column for panel in panels for column in panel.columns())
        wanted = dict.fromkeys((*drawn, *CHOSEN_FROM[run.family](run, infoset)))  # what to draw of a big game
        self.columns: tuple[Column, ...] = tuple(c for c in wanted if c in run.trace.columns)

    def draw(self, trace: TraceData, snapshot: Snapshot) -> bytes:
        """The frame of ``trace`` (at least :attr:`columns`) and its newest ``snapshot``."""
        run = dataclasses.replace(self.run, trace=trace, snapshot=snapshot)
        panels = [panel for row in ROWS[run.family](run, self.infoset) for panel in row]
        with self.style.context():
            fig = self._figure or self._build(run)
            empty = not bool((trace.iterations >= 1).any())  # a fresh run: no point on a log axis
            for ax, panel in zip(self._axes, panels, strict=True):
                ax.cla()
                if empty:  # spans for the log axes (matplotlib warns of axes with no positive data)
                    ax.update_datalim(((1.0, 0.1), (10.0, 1.0)))
                draw_panel(ax, panel, {None: trace}, self.style, scale=run.payoff_scale)
            caption = run.caption()
            self._caption(fig, caption)
            decades(fig, self.style)
            key = layout_key(fig)  # before arrange wraps titles and labels
            if key != self._layout:
                fig.set_layout_engine("constrained")
                finish(fig, self.style, caption)
                fig.set_layout_engine("none")  # kept until the key changes
                self._layout = key
                self.layouts += 1
            else:
                arrange(fig, self.style)
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=self.dpi, facecolor="white")
        return buffer.getvalue()

    def _build(self, run: RunData) -> Figure:
        from matplotlib.figure import Figure

        rows = ROWS[run.family](run, self.infoset)
        fig = Figure(figsize=self.size, dpi=self.dpi, layout="constrained")
        for sub, row in zip(fig.subfigures(len(rows), 1, squeeze=False).ravel(), rows, strict=True):
            self._axes.extend(sub.subplots(1, len(row), squeeze=False)[0])
        self._figure = fig
        return fig

    def _caption(self, fig: Figure, caption: str) -> None:
        """The caption line under the panels, its text replaced (``style.wrap_to`` keeps a
        text's first words on the Text: the caption's T would stay at the first frame's)."""
        label = fig.supxlabel(caption, fontsize=self.style.small * 0.9, **CAPTION)
        label.rmviz_words = caption  # type: ignore[attr-defined]

    def close(self) -> None:
        """Let the figure go."""
        self._figure, self._axes = None, []
