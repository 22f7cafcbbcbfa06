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

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsScene


class PlotLayout(pg.GraphicsLayoutWidget):
    """A ``pg.GraphicsLayoutWidget`` whose scene has no BSP index (see the module)."""

    def __init__(self, parent: object = None, **options: object) -> None:
        super().__init__(parent, **options)
        self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
