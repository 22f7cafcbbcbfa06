"""Pens, fonts and axes of the live plots (pyqtgraph). The colours, labels and titles are the
figure definitions (:mod:`rmviz.present.definitions`), so a player, an action or a metric
looks the same in both windows and in exported figures; log axes carry decade labels only
(:class:`DecadeAxis`, the exported figures' :func:`~rmviz.present.ticks.decade_ticks`)."""

from __future__ import annotations

import html
import math
import types

import pyqtgraph as pg

from rmviz.numbers import format_number
from rmviz.present.definitions import Curve, action_colour
from rmviz.present.ticks import decade_label, decade_ticks

DASHES = {"solid": "SolidLine", "dashed": "DashLine", "dotted": "DotLine"}


def configure_pyqtgraph() -> None:
    """Light plots that match the editor, antialiased (call before creating plot widgets)."""
    pg.setConfigOptions(background="w", foreground="#333333", antialias=True, exitCleanup=False)


def pen(colour: str, width: float = 2.0, dash: str = "solid", alpha: int = 255) -> pg.mkPen:
    """A pen of ``colour`` (``dash``: ``"solid"``, ``"dashed"`` or ``"dotted"``)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor

    shade = QColor(colour)
    shade.setAlpha(alpha)
    return pg.mkPen(shade, width=width, style=getattr(Qt.PenStyle, DASHES[dash]))


def action_pen(action: int, width: float = 2.0, alpha: int = 255) -> pg.mkPen:
    return pen(action_colour(action), width, "solid", alpha)


def curve_pen(curve: Curve, scale: float = 1.0) -> pg.mkPen:
    """The pen of a metric's :class:`~rmviz.present.definitions.Curve` (live width 2)."""
    return pen(curve.colour, 2 * curve.width * scale, curve.dash)


class DecadeAxis(pg.AxisItem):
    """An axis whose log mode labels decades only (``1``, ``10``, ``10²``), every k-th when
    the axis is short, with unlabelled minor ticks, so labels never overprint at any zoom.
    Linear axes are pyqtgraph's, but never label a tick ``-0`` (pyqtgraph puts the first
    tick at ``ceil(min / spacing) * spacing``, which is ``-0.0`` when the axis starts just
    below zero, and writes it with ``%g``; a tick that misses zero by rounding is zero)."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self.labelled: set[int] = set()  # the decades labelled at the last layout

    def logTickValues(self, minVal: float, maxVal: float, size: float, stdTicks: list) -> list:
        font = self.style.get("tickFont")
        points = font.pointSizeF() if font is not None else 8.0
        extent = points * 96 / 72 * (3.2 if self.orientation in ("top", "bottom") else 1.8)
        majors, minors = decade_ticks(minVal, maxVal, max(1, int(size // extent)))
        if not majors and minors:  # a range within one decade: label its ends' minor ticks
            ends = [minors[0], minors[-1]]
            self.labelled = {round(v, 9) for v in ends}
            return [(1.0, ends), (None, minors[1:-1])]
        self.labelled = set(majors)  # decades left unlabelled between them are minor ticks
        return [(1.0, [float(e) for e in majors]), (None, minors)]

    def tickStrings(self, values: list[float], scale: float, spacing: float | None) -> list[str]:
        if self.logMode or not spacing:  # log mode: logTickStrings (its minor ticks have no spacing)
            return super().tickStrings(values, scale, spacing)
        # a tick a billionth of the spacing from zero is zero (np.arange's rounding: -1e-17)
        values = [0.0 if abs(v) < 1e-9 * abs(spacing) else v for v in values]
        return [_no_negative_zero(text) for text in super().tickStrings(values, scale, spacing)]

    def logTickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [_log_label(v) if round(v, 9) in self.labelled else "" for v in values]


def _log_label(v: float) -> str:
    """The label of log10 position ``v``: a decade (``10⁻³``) or a multiple of one (``3×10⁻³``)."""
    exponent = math.floor(v + 1e-9)
    mantissa = round(10 ** (v - exponent))
    return decade_label(exponent) if mantissa == 1 else f"{mantissa}×{decade_label(exponent)}"


def _no_negative_zero(text: str) -> str:
    """A tick label without the sign of a zero (``-0``, ``-0.00``)."""
    try:
        return format_number(float(text), "g") if float(text) == 0 else text
    except ValueError:  # not a plain number (a label pyqtgraph was given): as it is
        return text


def log_axes() -> dict[str, DecadeAxis]:
    """Axis items for ``addPlot(axisItems=...)``: decade labels on whichever axis is log."""
    return {"bottom": DecadeAxis("bottom"), "left": DecadeAxis("left")}


def style_plot(plot: pg.PlotItem, title: str, scale: float = 1.0, colour: str | None = None) -> None:
    """Title, grid and fonts of a plot; ``scale`` enlarges fonts (presentation mode). The
    right-click menu keeps the view's entries (*View All*, the axes' ranges, *Export...*) but
    not pyqtgraph's *Plot Options*: its log, FFT, derivative, downsampling and alpha
    transforms redraw a panel against its definition (a log y axis under probabilities), and
    the live curves (:class:`~rmviz.ui.common.live_curve.LiveCurve`) take none of them."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QGraphicsItem

    label = plot.titleLabel
    if "updateMin" not in vars(label):
        label.updateMin = types.MethodType(_title_minimum, label)
        label.setText = types.MethodType(_set_title, label)
        label.resizeEvent = types.MethodType(_fit_title, label)
    set_title(plot, title, scale, colour)
    plot.setMenuEnabled(False, enableViewBoxMenu=None)
    plot.showGrid(x=True, y=True, alpha=0.2)
    font = QFont()
    font.setPointSizeF(8 * scale)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setStyle(tickFont=font)
        axis.label.setFont(font)
        # an axis and its grid lines span the plot: each curve's repaint repainted them
        # (~0.2 ms each); kept as pixels, they are repainted when their ticks or size change
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


def set_title(plot: pg.PlotItem, title: str, scale: float = 1.0, colour: str | None = None) -> None:
    """A plot's title in the titles' type (:func:`style_plot`), in ``colour`` if given."""
    plot.setTitle(title, size=f"{9 * scale:.0f}pt", **({"color": colour} if colour else {}))


def _title_minimum(label: pg.LabelItem) -> None:
    """``LabelItem.updateMin`` for plot titles: as tall as the text but with no minimum
    width, so a long title (three players at 1024x768, large text) overhangs its plot's
    edges instead of widening the plot past the window's edge."""
    pg.LabelItem.updateMin(label)
    label.setMinimumWidth(0)


SMALLEST_TITLE = 0.7  # a title too wide for its plot is drawn at this share of its size at least


def _set_title(label: pg.LabelItem, text: str, **style: object) -> None:
    """``LabelItem.setText`` for plot titles: the whole title kept for :func:`_fit_title`."""
    label.whole_title = text
    pg.LabelItem.setText(label, text, **style)


def _fit_title(label: pg.LabelItem, event: object) -> None:
    """``LabelItem.resizeEvent`` for plot titles: a title wider than its plot is drawn
    smaller, about its centre, down to :data:`SMALLEST_TITLE` of its size (the gaps' legend
    ran into the strategy plot's title at 1280x720 in presentation mode; "exploitability"
    lost its last letters in the tree window's compare panels); a plain title still too wide
    is then elided to the plot's width, whole in the tooltip, instead of running over the
    next plot's title (an OpenSpiel information set's label). Rich text (the lines named in
    colour) is not cut."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont, QFontMetricsF

    item = label.item
    item.setScale(1.0)  # placed unscaled, then scaled about the centre it was given
    pg.LabelItem.resizeEvent(label, event)
    whole = getattr(label, "whole_title", label.text)
    if label.width() <= 0:
        return
    room = label.width() - 2 * item.document().documentMargin()  # the text item's margins
    if room <= 0:  # a panel squeezed to nothing: no text fits (the elided text is empty)
        return
    if "<" in whole:  # scaled about its centre, where the label put it: no new layout
        wide = item.boundingRect().width()
    else:
        font = QFont(item.font())
        font.setPointSizeF(float(str(label.opts.get("size", "9pt")).removesuffix("pt")))
        metrics, plain = QFontMetricsF(font), html.unescape(whole)
        shown = metrics.elidedText(plain, Qt.TextElideMode.ElideRight, room / SMALLEST_TITLE)
        text = whole if shown == plain else html.escape(shown)
        label.setToolTip("" if text == whole else plain)
        if text != label.text:  # setText calls this again, which then finds the text it set
            pg.LabelItem.setText(label, text)
            return
        wide = metrics.horizontalAdvance(shown)
    item.setTransformOriginPoint(item.boundingRect().center())
    item.setScale(1.0 if wide <= room else max(SMALLEST_TITLE, room / wide))


def probability_axis(plot: pg.PlotItem) -> None:
    """A y axis from 0 to 1 labelled 0, 0.5 and 1 only, which fit however short the plot."""
    plot.setYRange(0, 1, padding=0.08)  # room for the labels at the ends
    plot.getAxis("left").setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")], []])
