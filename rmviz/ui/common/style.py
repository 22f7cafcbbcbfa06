"""Colours, pens and plot styling shared by every view, so a player, an action or a metric
looks the same in both windows and in exported figures."""

from __future__ import annotations

import pyqtgraph as pg

PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
ACTION_COLOURS = (
    "#4c72b0",
    "#dd8452",
    "#55a868",
    "#c44e52",
    "#8172b3",
    "#937860",
    "#da8bc3",
    "#8c8c8c",
    "#ccb974",
    "#64b5cd",
)
METRIC_COLOURS = {
    "exploitability": "#1f77b4",
    "cce_gap": "#2ca02c",
    "ce_gap": "#d62728",
    "eps_bound": "#7f7f7f",
}


def configure_pyqtgraph() -> None:
    """Light plots that match the editor, antialiased (call before creating plot widgets)."""
    pg.setConfigOptions(background="w", foreground="#333333", antialias=True, exitCleanup=False)


def action_pen(action: int, width: float = 2.0, dashed: bool = False, alpha: int = 255) -> pg.mkPen:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor

    colour = QColor(ACTION_COLOURS[action % len(ACTION_COLOURS)])
    colour.setAlpha(alpha)
    style = Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine
    return pg.mkPen(colour, width=width, style=style)


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def style_plot(plot: pg.PlotItem, title: str, scale: float = 1.0) -> None:
    """Title, grid and fonts of a plot; ``scale`` enlarges fonts (presentation mode)."""
    from PySide6.QtGui import QFont

    plot.setTitle(title, size=f"{9 * scale:.0f}pt")
    plot.showGrid(x=True, y=True, alpha=0.2)
    font = QFont()
    font.setPointSizeF(8 * scale)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setStyle(tickFont=font)
        axis.label.setFont(font)
