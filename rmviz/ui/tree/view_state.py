"""What of the tree view a session keeps: the zoom, the scene point at the view's centre,
whether the whole tree is shown (F), and the subtrees the person collapsed or opened
(:class:`~rmviz.runner.session.TreeShown`). Reopened, the tree is drawn with those subtrees
folded and opened, then zoomed and centred as it was; a window of another size shows the
same point at its centre."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from rmviz.runner.session import TreeShown
from rmviz.ui.tree.view import TreeView


def tree_shown(view: TreeView) -> TreeShown:
    """The tree view as it is now; its zoom and centre only where the person zoomed (else
    the window's fit, redone at any size)."""
    folds = {
        "whole": view.whole,
        "collapsed": tuple(sorted(view.collapsed)),
        "opened": tuple(sorted(view.opened)),
    }
    if not view.zoomed:
        return TreeShown(**folds)
    centre = view.mapToScene(view.viewport().rect().center())
    zoom = float(view.transform().m11())
    return TreeShown(zoom=zoom, centre=(float(centre.x()), float(centre.y())), zoomed=True, **folds)


def show_tree(view: TreeView, shown: TreeShown) -> None:
    """Draw the tree as ``shown`` says (its node numbers are this tree's: the session's game)."""
    assert view.tree is not None
    nodes = view.tree.n_nodes
    view.collapsed = {h for h in shown.collapsed if h < nodes}
    view.opened = {h for h in shown.opened if h < nodes}
    view.whole = shown.whole
    view.rebuild()
    if not shown.zoomed:  # the automatic fit: the same rule in a window of any size
        view.fit()
        return
    view.resetTransform()
    view.scale(shown.zoom, shown.zoom)
    view.centerOn(QPointF(*shown.centre))
    view.zoomed = True


__all__ = ["show_tree", "tree_shown"]
