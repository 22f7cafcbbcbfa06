"""The matplotlib renderer of :mod:`rmviz.present.panels`: :func:`draw_panel` draws one
:class:`~rmviz.present.panels.Panel` of a trace into an Axes, as the live plots
(:mod:`rmviz.ui.common.panel_plot`) draw it with pyqtgraph: the same lines, labels, colours,
dashes, axis scales, ranges and tick rules (decade labels: :func:`.style.finish`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from rmviz.figures.style import Style, end_labels, legend_below, log_axis
from rmviz.present.definitions import FRAME_COLOUR, TEXT_COLOUR
from rmviz.present.panels import (
    LEVEL_WIDTH,
    PROBABILITY_TICKS,
    ZERO_NOTE,
    Line,
    Panel,
    Tables,
    action_key,
    drops,
    points,
    reference_points,
    regret_key,
    untracked_note,
    values,
    x_range,
    y_range,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

DROP_SIZE, DROP_Z = 3.5, 3.0  # a drop's mark, in line widths; above the curves (2)


def draw_line(
    ax: Axes,
    x: np.ndarray,
    y: np.ndarray,
    line: Line,
    style: Style,
    label: bool = True,
    own_key: bool = False,
) -> None:
    """One :class:`Line` at the style's width; keyed by its label when ``label`` and the line
    is keyed one by one, or ``own_key`` (a line keyed with others whose others are not drawn)."""
    ax.plot(
        x,
        y,
        color=line.colour,
        linewidth=style.line_width * line.width,
        linestyle=line.dash,
        alpha=line.alpha,
        label=line.tex if label and (line.legend or own_key) else None,
    )


def mark_drops(ax: Axes, at: np.ndarray, line: Line, style: Style, rank: int) -> bool:
    """:data:`ZERO_MARK` at the foot of the axis at each iteration ``at`` where ``line``
    drops to 0 (:func:`drops`), above the curves, higher ``rank`` on top (the panel's first
    lines: the gaps' over the bound's where both drop at once); whether there was one."""
    if not at.size:
        return False
    ax.plot(
        at,
        np.zeros(at.size),
        transform=ax.get_xaxis_transform(),  # x in iterations, y in the axes' height
        linestyle="none",
        marker="v",
        markersize=DROP_SIZE * style.line_width,
        markeredgewidth=0,
        color=line.colour,
        alpha=line.alpha,
        clip_on=False,
        zorder=DROP_Z + 0.01 * rank,
        gid="rmviz-drop",
    )
    return True


def key_regrets(ax: Axes, panel: Panel, style: Style) -> None:
    """The regret panel's legend: each player's dash (:func:`regret_key`), then each
    action's colour (:func:`action_key`), not every player's every action (a 12x9 game's
    19 entries left its dashboard panel no room)."""
    width = style.line_width * panel.lines[0].width
    for name, dash in regret_key(panel):
        ax.plot([], [], color=TEXT_COLOUR, linestyle=dash, linewidth=width, label=name)
    for names, colour in action_key(panel):
        ax.plot([], [], color=colour, linewidth=width, label=names)


def draw_panel(
    ax: Axes,
    panel: Panel,
    tables: Tables,
    style: Style,
    scale: float = 1.0,
    shared: Sequence[np.ndarray] | None = None,
) -> None:
    """Draw ``panel`` of the runs ``tables`` into ``ax``. ``scale``: the payoff scale (the
    welfare axis's rounding noise); ``shared``: the values a y axis spans when panels share
    it (the compare figure; default: this panel's own)."""
    ends = []
    drawn = dropped = False
    keyed = panel.key in ("below", "names")  # each line in the legend
    shown = {
        line: found
        for line in panel.lines
        if (found := points(panel, line, tables, scale)) is not None and found[0].size
    }
    # a last iterate's line is keyed with the others by the panel's key, in its average's
    # colour: where that average is not drawn (blotto's untracked CE gap), it keys itself
    colours = {line.colour for line in shown if line.legend}
    for k, line in enumerate(panel.lines):
        dropped |= mark_drops(ax, drops(panel, line, tables), line, style, len(panel.lines) - k)
        if line not in shown:
            continue
        x, y = shown[line]
        drawn = True
        draw_line(ax, x, y, line, style, label=keyed, own_key=line.colour not in colours)
        if panel.key == "ends" and line.legend:
            ends.append((line.label, x[-1], y[-1], line.colour))
    if drawn and panel.key == "players":
        key_regrets(ax, panel, style)
    for key in panel.keys if drawn and keyed else ():
        width = style.line_width * key.width
        ax.plot([], [], color=key.colour, linewidth=width, alpha=key.alpha, label=key.tex)
    reference = reference_points(panel, tables)
    if reference is not None and panel.reference is not None:
        curve = panel.reference
        width = style.line_width * curve.width
        ax.plot(*reference, color=curve.colour, linestyle=curve.dash, linewidth=width, label=curve.tex)
    if panel.zero_line:
        ax.axhline(0.0, color=FRAME_COLOUR, linewidth=0.8)
    for level in panel.levels:
        ax.axhline(
            level.y, color=level.colour, linestyle=level.dash, linewidth=style.line_width * LEVEL_WIDTH
        )
    log_axis(ax, "x", *x_range(tables))
    ax.set_xlabel(panel.x.tex)
    limits = y_range(panel, values([panel], tables) if shared is None else shared, scale)
    if panel.y.scale == "log" and limits is not None:
        log_axis(ax, "y", *limits)
    elif limits is not None:
        ax.set_ylim(*limits)
    if panel.y.scale == "probability":
        ax.set_yticks(PROBABILITY_TICKS, [f"{t:g}" for t in PROBABILITY_TICKS])
    ax.set_ylabel(panel.y.tex)
    title = panel.title + (ZERO_NOTE if dropped else "")
    if panel.title_colour is None:
        ax.set_title(title)
    else:
        ax.set_title(title, color=panel.title_colour)
    legend = None
    if panel.key == "ends":
        end_labels(ax, ends, style.small)
    else:
        legend = legend_below(ax)
    if legend is None and panel.empty and not drawn:
        ax.text(
            0.5,
            0.5,
            panel.empty,
            transform=ax.transAxes,
            ha="center",
            va="center",
            color=FRAME_COLOUR,
            fontsize=style.small,
        )
    note = untracked_note(panel, tables)
    if note:  # top right: the gaps fall from the top left to the bottom right
        ax.text(
            0.97,
            0.97,
            note,
            transform=ax.transAxes,
            ha="right",
            va="top",
            color=FRAME_COLOUR,
            size=style.small,
        )
