"""The compare figure: several algorithms' distances to equilibrium overlaid on shared
log-log axes, one panel per metric the family compares (its ``compared``: exploitability,
CCE and CE gaps for matrix games, exploitability for trees), one colour per algorithm,
against iterations, as the window's *Compare algorithms* tab draws them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rmviz.errors import RmvizError
from rmviz.figures.matrix import draw_line
from rmviz.figures.run import RunData
from rmviz.figures.style import Style, decade_range, iteration_axis, legend_below, log_axis
from rmviz.present.definitions import PANEL_TEXT, action_colour
from rmviz.solvers.columns import Column

if TYPE_CHECKING:
    from matplotlib.figure import FigureBase


def draw_compare(fig: FigureBase, run: RunData, style: Style) -> None:
    """Every compared algorithm's metrics (``run.compared``; this run alone when empty)."""
    traces = {
        name: trace
        for name, trace in (dict(run.compared) or {run.algorithm: run.trace}).items()
        if trace.iterations.size and trace.iterations[-1] >= 1
    }
    if not traces:
        raise RmvizError("nothing to compare yet: run the algorithms in compare mode first")
    metrics = run.family.compared
    text = PANEL_TEXT["compare"]
    axes = np.atleast_1d(fig.subplots(1, len(metrics), sharey=True))
    everything = np.concatenate(
        [trace.columns.get(Column(m), np.empty(0)) for trace in traces.values() for m in metrics]
    )
    low, high = decade_range(everything)
    last = max(int(trace.iterations[-1]) for trace in traces.values())
    for ax, (metric, title) in zip(axes, metrics.items(), strict=True):
        for index, (name, trace) in enumerate(traces.items()):
            y = trace.columns.get(Column(metric))
            if y is None:
                continue
            keep = np.isfinite(y) & (y > 0)
            draw_line(ax, trace.iterations[keep], y[keep], action_colour(index), style, label=name)
        ax.set_title(text.title.format(metric=title))
        log_axis(ax, "y", low, high)
        iteration_axis(ax, np.array([1, last]), text.x_tex)
    axes[0].set_ylabel(text.y_tex)
    legend_below(axes[0])
