"""The pyqtgraph renderer of :mod:`rmviz.present.panels`: a :class:`PanelPlot` draws one
:class:`~rmviz.present.panels.Panel` live, as :func:`rmviz.figures.panels.draw_panel` draws it
on paper: the same lines, labels, colours, dashes, axis scales, ranges and tick rules. Axis
ranges are set only when they change (a range that moves every frame re-lays the plot out
every frame, the largest cost of a live repaint)."""

from __future__ import annotations

import html
import math
from collections.abc import Collection, Sequence
from dataclasses import replace

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

from rmviz.present.definitions import FRAME_COLOUR
from rmviz.present.panels import (
    LEVEL_WIDTH,
    PROBABILITY_TICKS,
    X_STEP,
    ZERO_NOTE,
    Line,
    Panel,
    Table,
    Tables,
    drops,
    points,
    reference_points,
    regret_key,
    values,
    x_range,
    y_range,
)
from rmviz.runner.trace import TraceData
from rmviz.ui.common.live_curve import LiveCurve
from rmviz.ui.common.plot_layout import live_points
from rmviz.ui.common.style import curve_pen, log_axes, pen, style_plot

MAX_NAMED = 6  # actions named in a title
CURVE_Z = 1e-3  # a curve's z value per line before it (the reference over all: below the marks)
DASH_GLYPHS = {"solid": "—", "dashed": "- -", "dotted": "···"}  # the regret title's players
GLYPHS = {"solid": "&#9644;", "dashed": "- -", "dotted": "···"}  # a line named in a title
WIDTH = 2.0  # a line of relative width 1, in pixels at text scale 1
DROP_PIXELS, DROP_Z = 9.0, 100  # a drop's mark (at text scale 1), above the curves
LEGEND_BACKING = (255, 255, 255, 215)  # behind a corner legend (key "ends")
IN_TITLE = ("names", "players")  # keys drawn in the title live: the whole title in its tooltip


def _stroke(line: Line) -> tuple[str, float, str, float]:
    """What :func:`line_pen` makes of ``line``: its colour, width, dash and opacity."""
    return line.colour, line.width, line.dash, line.alpha


def keyed(legend: pg.LegendItem, item: pg.GraphicsObject, label: str, meaning: str) -> None:
    """``item`` named ``label`` in ``legend``, its sample and name saying ``meaning`` on hover
    (what the number is: a distance's definition, said in :mod:`rmviz.present.definitions`)."""
    legend.addItem(item, label)
    for part in legend.items[-1]:
        part.setToolTip(meaning)


def hover_text(panel: Panel) -> str:
    """A panel keyed in its title, on hover: the whole title (cut short on screen) and what
    each line it names is, where its definition says (:func:`keyed`'s texts)."""
    named = [f"{line.label}: {line.meaning}" for line in panel.lines if line.legend and line.meaning]
    if panel.reference is not None and panel.reference.meaning:
        named.append(f"{panel.reference.label}: {panel.reference.meaning}")
    return "\n".join([panel.title, *named])


def line_pen(line: Line, scale: float) -> pg.mkPen:
    colour, width, dash, alpha = _stroke(line)
    return pen(colour, WIDTH * width * scale, dash, round(255 * alpha))


def live_title(panel: Panel, scale: float, key: str, drawn: Collection[Line] | None = None) -> str:
    """The title drawn live. With ``key`` ``"names"`` the lines are named in the title, each
    in its colour and dash (the first :data:`MAX_NAMED`), instead of a legend over plots that
    are short at 1280x720: after the player's name for strategies, after the title else;
    with ``"players"`` (the regret panel) the players' dashes follow the title in smaller
    type. ``drawn``: the lines a run has
    drawn points of, the only ones named once it has (as the figures' legends name only what
    they draw: a big tree's untracked correlation gaps were named and never drawn)."""
    if key == "players":
        players = ", ".join(
            f"{html.escape(name)}&nbsp;{DASH_GLYPHS[dash]}" for name, dash in regret_key(panel)
        )
        return f'{html.escape(panel.title)} <span style="font-size:{7 * scale:.0f}pt">{players}</span>'
    if key != "names":
        return html.escape(panel.title)
    named = [
        (line.label, line.colour, line.dash)
        for line in panel.lines
        if line.legend and (drawn is None or line in drawn)
    ]
    named += [(key.label, key.colour, "solid") for key in panel.keys]
    if panel.reference is not None:
        named.append((panel.reference.label, panel.reference.colour, panel.reference.dash))
    spans = " ".join(
        f'<span style="color:{colour}">{GLYPHS[dash]}&nbsp;{html.escape(label)}</span>'
        for label, colour, dash in named[:MAX_NAMED]
    )
    more = f" +{len(named) - MAX_NAMED} more" if len(named) > MAX_NAMED else ""
    lead = panel.title.split(":", 1)[0] if panel.name == "strategies" else panel.title
    return f"{html.escape(lead)}: {spans}{more}"


class PanelPlot:
    """One panel in a ``pg.GraphicsLayout``: build with the layout's ``addPlot`` arguments,
    then :meth:`update` with the runs' tables (:data:`~rmviz.present.panels.Tables`).
    ``legend``: a ``pg.LegendItem`` placed by the caller for panels keyed ``"below"``; ``key``
    overrides the panel's (a window too short for a legend row names lines in the title)."""

    def __init__(
        self,
        layout: pg.GraphicsLayout,
        panel: Panel,
        row: int,
        col: int,
        scale: float = 1.0,
        legend: pg.LegendItem | None = None,
        x_label: bool = True,
        key: str | None = None,
    ) -> None:
        self.panel = panel
        key = self.key = key or panel.key
        self.drawn: set[Line] = set()  # the lines that have drawn points since the last clear
        self.plot = layout.addPlot(row=row, col=col, axisItems=log_axes())
        style_plot(self.plot, live_title(panel, scale, key), scale)
        if key in IN_TITLE:
            self.plot.setToolTip(hover_text(panel))
        self._title_style: dict[str, str] = {"size": f"{9 * scale:.0f}pt"}
        if panel.title_colour is not None:
            self._title_style["color"] = panel.title_colour
            self.plot.setTitle(live_title(panel, scale, key), **self._title_style)
        self.plot.setLogMode(x=True, y=panel.y.scale == "log")
        if x_label:
            self.plot.setLabel("bottom", panel.x.label)
        self.plot.disableAutoRange(axis="x")
        if panel.y.scale != "linear":
            self.plot.disableAutoRange(axis="y")
        if panel.y.scale == "probability":
            self.plot.getAxis("left").setTicks([[(t, f"{t:g}") for t in PROBABILITY_TICKS], []])
        self.plot.setPreferredWidth(1)  # a row's plots share its width, whatever their titles
        if panel.zero_line:
            self.plot.addLine(y=0.0, pen=pen(FRAME_COLOUR, 1.0))
        self.levels = [
            self.plot.addLine(y=level.y, pen=pen(level.colour, WIDTH * LEVEL_WIDTH * scale, level.dash))
            for level in panel.levels
        ]
        self.legend: pg.LegendItem | None = None  # the plot's own (key "ends"), fitted to its height
        if key == "ends":
            # on a white backing: the curves it covers pass under it, its names stay legible
            # (Kuhn's "b" sat on the p curve at 0.8)
            legend = self.legend = self.plot.addLegend(offset=(-5, 5), brush=pg.mkBrush(LEGEND_BACKING))
            legend.setLabelTextSize(f"{8 * scale:.0f}pt")
            self.plot.vb.sigResized.connect(self._fit_legend)
        self.curves: dict[Line, LiveCurve] = {}
        for k, line in enumerate(panel.lines):
            # faint curves jump every iteration: drawn without antialiasing, half the cost
            curve = LiveCurve(line_pen(line, scale), antialias=line.alpha == 1.0)
            curve.setZValue(k * CURVE_Z)  # later lines over earlier ones, as on paper
            self.plot.addItem(curve)
            self.curves[line] = curve
            if legend is not None and line.legend:
                keyed(legend, curve, line.label, line.meaning)
        for key in panel.keys if legend is not None else ():  # a sample of a kind of line, not drawn
            sample = pg.PlotDataItem(
                pen=pen(key.colour, WIDTH * key.width * scale, "solid", round(255 * key.alpha))
            )
            keyed(legend, sample, key.label, key.meaning)
        self.reference: LiveCurve | None = None
        if panel.reference is not None:
            self.reference = LiveCurve(curve_pen(panel.reference, scale), dot=False)
            self.plot.addItem(self.reference)
            self.reference.setZValue(len(panel.lines) * CURVE_Z)  # over the curves
            if legend is not None:
                keyed(legend, self.reference, panel.reference.label, panel.reference.meaning)
        self.ranges: tuple[object, object, float] | None = None
        self.note: pg.LabelItem | None = None  # ``panel.empty``, shown while nothing is drawn
        self.drops: dict[Line, tuple[pg.PlotDataItem, np.ndarray]] = {}  # marks and iterations
        self._scale = scale
        self._fit({}, 1.0, [])  # the axes' empty ranges: 0, 0.5 and 1 show before any data
        if panel.y.scale == "log":
            self.plot.vb.sigResized.connect(self._resized)

    def clear(self) -> None:
        """No curve drawn (a fresh run); the axes back to their empty ranges."""
        for curve in (*self.curves.values(), *([self.reference] if self.reference else [])):
            curve.setData([], [])
        dropped = self._dropped()
        for line in self.drops:
            self._mark_drops(line, np.empty(0))
        self._name_drawn(set())
        self._say_empty(False)
        self._fit({}, 1.0, [])
        self._place_drops()
        if dropped:
            self._retitle()

    def retarget(self, panel: Panel) -> None:
        """Draw ``panel`` in place of this plot's panel, with as many lines and levels (a
        panel whose actions or moves shown changed: :func:`~rmviz.present.panels.shown_actions`):
        each curve and level keeps its place and takes the new one's column, value, pen and
        name; nothing is rebuilt (redraw afterwards). A curve whose column the new panel
        draws too keeps it, its points and its stroke (a 200-action game's ten most played
        change at about every redraw, and one new action restroked all twenty curves); the
        others take the new columns, a faint curve a faint line's."""
        assert len(panel.lines) == len(self.curves)
        drew = {curve: line for line, curve in self.curves.items()}
        kept = {line.column: curve for line, curve in self.curves.items()}
        columns = {line.column for line in panel.lines}
        free = [curve for line, curve in self.curves.items() if line.column not in columns]
        self.curves = {}
        for k, line in enumerate(panel.lines):
            curve = kept.get(line.column)
            if curve is None:
                curve = next(c for c in free if c.opts["antialias"] == (line.alpha == 1.0))
                free.remove(curve)
            self.curves[line] = curve
            curve.setZValue(k * CURVE_Z)
            if _stroke(drew[curve]) != _stroke(line):
                curve.setPen(line_pen(line, self._scale))
        for item, level in zip(self.levels, panel.levels, strict=True):
            item.setValue(level.y)
            item.setPen(pen(level.colour, WIDTH * LEVEL_WIDTH * self._scale, level.dash))
        if self.legend is not None:  # key "ends": the plot's own legend names them again
            self.legend.clear()
            for line, curve in self.curves.items():
                if line.legend:
                    keyed(self.legend, curve, line.label, line.meaning)
            self._fit_legend()
        self.panel, self.drawn = panel, set()
        if self.key in IN_TITLE:
            self.plot.setToolTip(hover_text(panel))
        self._retitle()

    def update(
        self,
        tables: Tables,
        scale: float = 1.0,
        lines: Sequence[Line] | None = None,
        shared: Sequence[np.ndarray] | None = None,
        thin: bool = True,
    ) -> None:
        """Redraw ``lines`` (default: all) from the runs' ``tables``, each run's points thinned
        evenly over log T unless ``thin`` is False (:func:`.plot_layout.live_points`; the
        ranges from every point). ``scale``: the payoff scale; ``shared``: the values a y axis
        shared with other panels spans. Ranges follow the panel's rules, set on change."""
        drawn: Tables = {key: self._thinned(table, thin) for key, table in tables.items()}
        shown, dropped, named = False, self._dropped(), set(self.drawn)
        for line in self.panel.lines if lines is None else lines:
            self._mark_drops(line, drops(self.panel, line, tables))
            found = points(self.panel, line, drawn, scale)
            if found is not None:
                self.curves[line].setData(*found)
                shown |= bool(found[0].size)
                if found[0].size:
                    named.add(line)
        self._name_drawn(named)  # once: a retargeted plot's ten lines retitled it ten times
        self._say_empty(not shown and any(table.iterations.size for table in tables.values()))
        reference = reference_points(self.panel, drawn)
        if self.reference is not None and reference is not None:
            self.reference.setData(*reference)
        self._fit(drawn, scale, values([self.panel], tables) if shared is None else shared)
        self._place_drops()
        if self._dropped() != dropped:
            self._retitle()

    def _name_drawn(self, drawn: set[Line]) -> None:
        """Lines named in the title (``key`` ``"names"``): those in ``drawn``, every line
        while none has drawn yet; the title is set again only when they change."""
        if drawn == self.drawn:
            return
        self.drawn = drawn
        if self.key == "names":
            self._retitle()

    def _retitle(self) -> None:
        """The title (:func:`live_title`), with :data:`~rmviz.present.panels.ZERO_NOTE` while a
        curve's drop to 0 is marked."""
        panel = replace(self.panel, title=self.panel.title + ZERO_NOTE) if self._dropped() else self.panel
        title = live_title(panel, self._scale, self.key, self.drawn or None)
        self.plot.setTitle(title, **self._title_style)

    def _dropped(self) -> bool:
        return any(at.size for _, at in self.drops.values())

    def _mark_drops(self, line: Line, at: np.ndarray) -> None:
        """Mark where ``line`` drops to 0 (:func:`~rmviz.present.panels.drops`), at the
        axis's foot in the line's colour, the panel's first lines on top (as on paper)."""
        mark = self.drops[line][0] if line in self.drops else None
        if mark is None:
            if not at.size:
                return
            colour = pg.mkColor(line.colour)
            colour.setAlphaF(line.alpha)
            size = DROP_PIXELS * self._scale
            mark = pg.PlotDataItem(pen=None, symbol="t", symbolSize=size, symbolBrush=colour, symbolPen=None)
            mark.setZValue(DROP_Z - self.panel.lines.index(line))
            self.plot.addItem(mark)
        self.drops[line] = (mark, at)

    def _place_drops(self) -> None:
        """The marks at the foot of the y axis as it now stands."""
        foot = None if self.ranges is None or self.ranges[1] is None else self.ranges[1][0]
        for mark, at in self.drops.values():
            if foot is None or not at.size:
                mark.setData([], [])
            else:
                mark.setData(at, np.full(at.size, 10.0**foot))

    def _say_empty(self, empty: bool) -> None:
        """Show ``panel.empty`` in the middle of the plot while a run has points but none of
        its lines drew any (as the figures do: :func:`rmviz.figures.panels.draw_panel`)."""
        if not self.panel.empty or (self.note is None and not empty):
            return
        if self.note is None:
            text = html.escape(self.panel.empty).replace("\n", "<br>")
            size = f"{8 * self._scale:.0f}pt"
            self.note = pg.LabelItem(text, parent=self.plot.vb, color=FRAME_COLOUR, size=size)
            self.note.anchor(itemPos=(0.5, 0.5), parentPos=(0.5, 0.5))
            self.plot.vb.sigResized.connect(self._fit_note)
            self._fit_note()
        self.note.setVisible(empty)

    def _fit_note(self, *_: object) -> None:
        """The note as large as the plot's width lets it be (its lines ran past a narrow
        panel's left edge: "ery distance is 0 at every iteration record"), at most its size."""
        assert self.note is not None
        item, room = self.note.item, self.plot.vb.width()
        wide = item.boundingRect().width()
        item.setTransformOriginPoint(item.boundingRect().center())
        item.setScale(1.0 if wide <= room or wide <= 0 else max(0.0, room / wide))

    def _thinned(self, table: Table, thin: bool) -> Table:
        rows = live_points(table.iterations) if thin else slice(None)
        wanted = self.panel.columns()
        columns = {column: table.columns[column][rows] for column in wanted if column in table.columns}
        return TraceData(table.iterations[rows], columns)

    def _fit(self, tables: Tables, scale: float, arrays: Sequence[np.ndarray]) -> None:
        x = tuple(math.log10(v) for v in x_range(tables, X_STEP))
        limits = y_range(self.panel, arrays, scale)
        if limits is not None and self.panel.y.scale == "log":
            limits = (math.log10(limits[0]), math.log10(limits[1]))
        padding = self._padding()
        if self.ranges == (x, limits, padding):
            return
        self.ranges = (x, limits, padding)
        self.plot.setXRange(*x, padding=0.02)
        if limits is not None:
            self.plot.setYRange(*limits, padding=padding)

    def _padding(self) -> float:
        """The y axis's padding, a fraction of its range: none on linear axes; on a log axis,
        whose ends are decades, room for half a label's height beyond each end (pyqtgraph drops
        a label it would cut, and a short plot at 1280x720 kept one decade of three), at least
        2 % and at most 25 %."""
        if self.panel.y.scale != "log":
            return 0.0
        font = self.plot.getAxis("left").style["tickFont"]
        label = 0.8 * QFontMetricsF(font if font is not None else QFont()).height() + 2  # as pyqtgraph
        height = self.plot.vb.height()
        if height <= 2 * label:
            return 0.25 if height > 0 else 0.02
        return round(min(0.25, max(0.02, label / (2 * (height - label)))), 3)

    def _fit_legend(self) -> None:
        """The plot's legend in as many columns as its entries need to fit the plot's height
        (goofspiel's six bids showed three in a plot 100 pixels high, Liar's Dice's ten two)."""
        legend = self.legend
        entries = 0 if legend is None else len(legend.items)
        if legend is None or not entries:
            return
        row = max(legend.layout.itemAt(0, 1).boundingRect().height(), 1.0)
        fits = max(1, int((self.plot.vb.height() - 10) // row))
        columns = -(-entries // fits)
        if columns != legend.columnCount:
            legend.setColumnCount(columns)

    def _resized(self) -> None:
        """A log axis's padding follows the plot's height."""
        if self.ranges is not None and self.ranges[1] is not None and self.ranges[2] != self._padding():
            x, limits, _ = self.ranges
            self.ranges = (x, limits, self._padding())
            self.plot.setYRange(*limits, padding=self.ranges[2])
