"""A live curve that grows at its end and is stroked incrementally.

A live plot's curve changes at every redraw, but only at its end: the trace keeps its
points (:class:`~rmviz.runner.trace.Trace`) and the live thinning keeps the same ones
(:func:`~rmviz.ui.common.plot_layout.live_points`), and only the newest point moves. Stroking
a whole curve of ~300 points with a 1.5-2 px antialiased pen costs ~0.45 ms of the GUI
thread (a 1 px pen ~0.02 ms: Qt has a fast path for thin lines only), and a row of plots
holds a dozen of them: most of a redraw's repaint. :class:`GrowingCurveItem` keeps the curve
but its last points as an image (the *head*, in device pixels, stroked once) and strokes the
rest (the *tail*, from the head's last point) afresh; the head is stroked again when the
points before the tail change (a new run, a rewind, an edit), the plot's transform or the
pen does, or the tail grows past :data:`TAIL_POINTS`; a head replaced before it served two
repaints (the axes' ranges moving at every redraw, as in a run's first second) is not
stroked: that curve is stroked whole. The stroke is the same (points, pen, antialiasing; the
seam at the head's last point differs by a fraction of a pixel's shade). Curves that are not
opaque lines, short curves and exports are drawn by pyqtgraph as before. Every live line is
a :class:`LiveCurve`, which takes its points as they are and maps them onto log axes itself.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QTransform
from PySide6.QtWidgets import QWidget

TAIL_POINTS = 24  # points stroked at every repaint before the head is stroked afresh
MIN_POINTS = 48  # shorter curves are stroked whole: nothing to gain


class _Head:
    """The stroked head of a curve: its points, how it was drawn, and the image."""

    def __init__(self, key: tuple[Any, ...], pen: QPen, x: np.ndarray, y: np.ndarray) -> None:
        self.key, self.pen, self.x, self.y = key, QPen(pen), x.copy(), y.copy()
        self.image: QImage | None = None
        self.origin = QPointF()
        self.tail_pen = self.pen  # a dashed pen's tail goes on with the head's dashes
        self.stroked = False
        self.uses = 0  # the repaints it served

    def fits(self, key: tuple[Any, ...], pen: QPen, x: np.ndarray, y: np.ndarray) -> bool:
        """Whether this head is the start of the curve ``(x, y)``, drawn the same way, with a
        tail of at most :data:`TAIL_POINTS` after it."""
        n = len(self.x)
        return (
            key == self.key
            and pen == self.pen
            and n < len(x) <= n + TAIL_POINTS
            and np.array_equal(x[:n], self.x, equal_nan=True)
            and np.array_equal(y[:n], self.y, equal_nan=True)
        )


class GrowingCurveItem(pg.PlotCurveItem):
    """A ``PlotCurveItem`` whose head is kept as an image (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head: _Head | None = None
        self.head_strokes = 0  # the heads stroked, for tests and benchmarks

    def _cacheable(self, widget: QWidget | None) -> bool:
        opts = self.opts
        pen = opts["pen"]
        shadow = opts["shadowPen"]
        return (
            widget is not None
            and not widget.inherits("QOpenGLWidget")
            and self._exportOpts is False
            and self.xData is not None
            and len(self.xData) >= MIN_POINTS
            and pen is not None
            and (pen.style() == Qt.PenStyle.SolidLine or self._unbroken())
            and pen.isSolid()
            and pen.color().alpha() == 255
            and (shadow is None or shadow.style() == Qt.PenStyle.NoPen)
            and opts["fillLevel"] is None
            and not opts["stepMode"]
            and opts["compositionMode"] is None
            and isinstance(opts["connect"], str)
            and opts["connect"] in ("all", "finite")
            and not self._shouldUseDrawLineSegments(pen)
        )

    def _unbroken(self) -> bool:
        """Whether the curve is one line (no gap at a missing value): dashes go on along it."""
        if self.opts["connect"] == "all":
            return True
        return bool(np.isfinite(self.xData).all() and np.isfinite(self.yData).all())

    def paint(self, p: QPainter, opt: object, widget: QWidget | None) -> None:
        if not self._cacheable(widget):
            self._head = None
            super().paint(p, opt, widget)
            return
        assert widget is not None
        x, y = self.xData, self.yData
        pen = self.opts["pen"]
        antialias = bool(self.opts["antialias"])
        transform = p.combinedTransform()
        dpr = p.device().devicePixelRatioF()
        key = (_matrix(transform), dpr, antialias, self.opts["connect"], widget.width(), widget.height())
        head = self._head
        if head is None or not head.fits(key, pen, x, y):
            churning = head is not None and head.uses < 2
            head = self._head = _Head(key, pen, x[:-1], y[:-1])
            if churning:  # heads outlived by their image (a run's first second): stroked whole
                super().paint(p, opt, widget)
                return
        if not head.stroked:
            self._stroke_head(head, transform, dpr, antialias)
        head.uses += 1
        if head.image is not None:
            p.save()
            p.resetTransform()
            p.drawImage(head.origin, head.image)
            p.restore()
        start = len(head.x) - 1
        p.setRenderHint(QPainter.RenderHint.Antialiasing, antialias)
        p.setPen(head.tail_pen)
        p.drawPath(self.generatePath(x[start:], y[start:]))

    def _stroke_head(self, head: _Head, transform: QTransform, dpr: float, antialias: bool) -> None:
        """Stroke ``head`` into an image covering its part of the plot, in device pixels."""
        self.head_strokes += 1
        head.stroked = True
        path = self.generatePath(head.x, head.y)
        if head.pen.style() != Qt.PenStyle.SolidLine:  # dashes in pen widths, along the path
            head.tail_pen = QPen(head.pen)
            length = transform.map(path).length()  # a cosmetic pen's dashes are in pixels
            head.tail_pen.setDashOffset(head.pen.dashOffset() + length / max(1.0, head.pen.widthF()))
        margin = head.pen.widthF() + 2
        bounds = transform.mapRect(path.boundingRect()).adjusted(-margin, -margin, margin, margin)
        view = self.getViewBox()
        seen = None if view is None else view.mapRectToDevice(view.boundingRect())
        if seen is not None:  # the view clips its curves: nothing outside it shows
            bounds = bounds.intersected(QRectF(seen))
        if bounds.isEmpty():
            return
        left, top = math.floor(bounds.left()), math.floor(bounds.top())
        area = QRect(left, top, math.ceil(bounds.right()) - left, math.ceil(bounds.bottom()) - top)
        image = QImage(area.size() * dpr, QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        image.fill(QColor(0, 0, 0, 0))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, antialias)
        painter.setTransform(transform * QTransform.fromTranslate(-left, -top))
        painter.setPen(head.pen)
        painter.drawPath(path)
        painter.end()
        head.image, head.origin = image, QPointF(left, top)


class LiveCurve(GrowingCurveItem):
    """A live plot's line: a :class:`GrowingCurveItem` given its points as they are, which it
    maps onto its plot's log axes itself (``log10``, a point with no logarithm not drawn, as
    pyqtgraph's ``PlotDataItem`` does), drawn as a dot while it has a single point (a line
    through one point draws nothing: after *Step 1* every plot was empty although the
    status bar gave the first iteration's numbers), in the line's colour, a ring for a faint
    line. A ``PlotDataItem`` wraps a curve in a mapping, downsampling and clipping pipeline
    that a live curve never uses: its ``setData`` costs ~0.13 ms of the GUI thread against
    ~0.013 ms for this one's, and a redraw sets ~25 curves (a 200x200 game's 60)."""

    def __init__(self, pen: QPen, antialias: bool = True, dot: bool = True) -> None:
        self.log = (False, False)
        self._given = (np.empty(0), np.empty(0))
        self.dot: pg.ScatterPlotItem | None = None  # created when first needed
        self._dots = dot
        super().__init__()  # which sets no points
        self.setPen(pen)
        self.opts["antialias"] = antialias

    def setLogMode(self, x: bool, y: bool) -> None:
        """Called by the plot (``PlotItem.addItem``, ``PlotItem.setLogMode``)."""
        if (x, y) != self.log:
            self.log = (x, y)
            self.setData(*self._given)

    def getOriginalDataset(self) -> tuple[np.ndarray, np.ndarray]:
        """The points as given (``getData``: as drawn, on the log axes), as pyqtgraph's
        ``PlotDataItem.getOriginalDataset``."""
        return self._given

    def setData(self, x: Any = (), y: Any = ()) -> None:  # type: ignore[override]
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        self._given = (x, y)
        shown_x, shown_y = _on_axis(x, self.log[0]), _on_axis(y, self.log[1])
        finite = bool(np.isfinite(shown_x).all() and np.isfinite(shown_y).all())
        super().setData(x=shown_x, y=shown_y, connect="all" if finite else "finite", skipFiniteCheck=finite)
        lone = self._dots and len(x) == 1 and finite
        if lone:
            self._show_dot(shown_x, shown_y)
        elif self.dot is not None and self.dot.isVisible():
            self.dot.hide()

    @property
    def lone(self) -> bool:
        """Whether the curve is drawn as a dot (its single point)."""
        return self.dot is not None and self.dot.isVisible()

    def setPen(self, *args: Any, **kwargs: Any) -> None:
        super().setPen(*args, **kwargs)
        if self.lone:
            self._show_dot(self.xData, self.yData)

    def _show_dot(self, x: np.ndarray, y: np.ndarray) -> None:
        if self.dot is None:
            self.dot = pg.ScatterPlotItem(size=7)
            self.dot.setParentItem(self)
        colour = QColor(self.opts["pen"].color())
        faint = colour.alpha() < 255
        colour.setAlpha(255)
        self.dot.setData(x, y, symbol="o", pen=pg.mkPen(colour, width=1.5), brush=None if faint else colour)
        self.dot.show()


def _on_axis(values: np.ndarray, log: bool) -> np.ndarray:
    """``values`` where a plot's axis draws them: their ``log10`` on a log axis, NaN where
    that is not a number (zero, negative), as pyqtgraph maps a ``PlotDataItem``'s."""
    if not log:
        return values
    with np.errstate(divide="ignore", invalid="ignore"):
        mapped = np.log10(values)
    mapped[~np.isfinite(mapped)] = np.nan
    return mapped


def _matrix(transform: QTransform) -> tuple[float, ...]:
    t = transform
    return (t.m11(), t.m12(), t.m13(), t.m21(), t.m22(), t.m23(), t.m31(), t.m32(), t.m33())
