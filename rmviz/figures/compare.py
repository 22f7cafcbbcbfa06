"""The compare figure: several algorithms' distances to equilibrium overlaid on shared
log-log axes, one panel per metric the family compares (its ``compared``: exploitability,
CCE and CE gaps for matrix games, exploitability for trees), one colour per algorithm,
against iterations, as the window's *Compare algorithms* tab draws them; each algorithm's
last iterate lighter in its colour, where the traces hold it."""

from __future__ import annotations

from rmviz.errors import RmvizError
from rmviz.figures import canvas
from rmviz.figures.canvas import Target
from rmviz.figures.panels import draw_panel
from rmviz.figures.run import RunData
from rmviz.figures.style import Style, legend_below
from rmviz.present.panels import Tables, compare_panels, compared_last, tracks_last, values


def draw_compare(target: Target, run: RunData, style: Style) -> None:
    """Every compared algorithm's metrics (``run.compared``; this run alone when empty)."""
    traces = {
        name: trace
        for name, trace in (dict(run.compared) or {run.algorithm: run.trace}).items()
        if trace.iterations.size and trace.iterations[-1] >= 1
    }
    if not traces:
        raise RmvizError("nothing to compare yet: run the algorithms in compare mode first")
    last = compared_last(run.family, any(tracks_last(trace) for trace in traces.values()))
    panels = compare_panels(run.family.compared, list(traces), last)
    tables: Tables = {name: trace for name, trace in traces.items()}
    shared = values(panels, tables)  # one y range for every panel
    axes = canvas.panels(target, 1, len(panels), "compare", "one per compared metric", sharey=True)
    for ax, panel in zip(axes, panels, strict=True):
        draw_panel(ax, panel, tables, style, shared=shared)
        if ax is not axes[0]:
            ax.set_ylabel("")
            legend = ax.get_legend()
            if legend is not None:
                legend.remove()
    legend_below(axes[0])
