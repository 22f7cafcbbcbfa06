"""The one pyqtgraph widget class every live plot of the app derives from.

:class:`PlotLayout` is a ``pg.GraphicsLayoutWidget`` whose scene keeps no spatial index
(``QGraphicsScene.ItemIndexMethod.NoIndex``). Cause of the paint-time segfault of issue 17:
with Qt's default BSP-tree index, structural edits while a run is drawn (each one rebuilds
the plots: ``clear()`` removes every PlotItem and Python then deletes it) left pointers to
deleted items in the index, and the next repaint walked them. The native backtrace of the
crash is ``QGraphicsView::paintEvent`` -> ``QGraphicsScenePrivate::drawItems`` -> the index's
item estimate -> ``QGraphicsSceneBspTree::climbTree`` (recursive) ->
``QGraphicsSceneFindItemBspTreeVisitor::visit``, faulting on ``item->d_ptr->parent`` of an
item already freed. Qt keeps an item in the leaves of the bounding rectangle it was indexed
under and removes it from those of its current one, so an item whose ``boundingRect()``
changes without ``prepareGeometryChange()`` stays behind when it is removed (QTBUG-18021);
several pyqtgraph items compute their bounds from children or text (``TextItem``,
``GraphicsWidget`` subclasses) without that call. The index only speeds up hit tests in
large static scenes; these plots hold a few hundred items, rebuilt on every edit, so
without it nothing is slower and nothing stale can be left (tests/ui/matrix/test_stress.py,
tests/benchmarks/edit_while_running.py).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsScene

LIVE_POINTS = 300  # points per live curve, evenly spread over log T (exports draw every point)


def live_points(iterations: np.ndarray, budget: int | None = None) -> slice | np.ndarray:
    """The trace points a live curve draws on log-T axes: all of them when there are at most
    ``budget``, else the first, the newest, and the first point at or after each mark of a
    grid in log T (:func:`mark_step`: fewer than ``budget`` marks). Every point where the
    trace is sparser than the marks (the first iterations, each one recorded) is kept; where
    it is denser (200 points a decade at the default cadence) it is thinned to ~40 a decade,
    about one per pixel. Thinning by position in the trace instead skipped every other one of
    the first iterations, each a visible vertex on log axes. The grid stays put while the run
    goes on (its step changes when the span of log T has grown by a fifth), so the points
    drawn stay the same from one redraw to the next but the newest: a curve grows at its end
    (:mod:`rmviz.ui.common.live_curve` strokes only that). ``budget``: :data:`LIVE_POINTS`
    when None."""
    budget = LIVE_POINTS if budget is None else budget
    if iterations.size <= budget:
        return slice(None)
    logs = np.log10(np.maximum(iterations, 1))
    step = mark_step(float(logs[-1] - logs[0]), budget)
    marks = np.arange(math.ceil(logs[0] / step), math.floor(logs[-1] / step) + 1) * step
    return np.unique(np.concatenate(([0], np.searchsorted(logs, marks), [iterations.size - 1])))


def mark_step(span: float, budget: int) -> float:
    """The step of :func:`live_points`'s grid over ``span`` decades: ``span / (budget - 2)``
    (at most ``budget - 1`` marks, with the first and newest points ``budget + 1`` points)
    rounded up to a power of 2**(1/4), so it changes only when the span grows by 19%."""
    raw = max(span, 1e-9) / max(1, budget - 2)
    return float(2.0 ** (math.ceil(4 * math.log2(raw)) / 4))


class PlotLayout(pg.GraphicsLayoutWidget):
    """A ``pg.GraphicsLayoutWidget`` whose scene has no BSP index (see the module)."""

    def __init__(self, parent: object = None, **options: object) -> None:
        super().__init__(parent, **options)
        self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
