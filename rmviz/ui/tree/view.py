"""The game tree drawn on a QGraphicsView, with CFR's numbers on it.

Nodes are the compiled tree's breadth-first ids
(:class:`~rmviz.solvers.tree.compiled_tree.CompiledTree`).
Chance nodes are grey diamonds, decision nodes circles in their player's colour with the
information set's label beside them, terminal nodes small squares with the payoffs under
them; edges carry the move's label (a chance move's probability under it). Neighbouring
nodes of one information set are joined by a dashed arc in the player's colour, and all the
chosen set's nodes (:func:`~rmviz.present.tree_layout.neighbour_links`: other arcs crossed
the tree in a band); the label beside each node names its set. A label is kept where it
comes within :data:`LABEL_GAP` of no node or label drawn before it, else shortened, else
left out (the rule of :mod:`rmviz.present.tree_labels`, the figures' too).

With a CFR iteration shown (:meth:`TreeView.show_record`): edge width grows with the reach
probability of the history below it (all players and chance, Zinkevich et al. 2007), and each
decision node shows the acting player's counterfactual value P(h | pi_-i) U_i(pi | h) in the
player's colour, keyed once in the note over the view (:class:`ViewNote`). With strategies shown
(:meth:`TreeView.show_strategies`), every decision edge has two bars under its label: the
current strategy (player colour) and the average strategy (grey).

Text size: the labels follow the window's text size (:meth:`TreeView.set_text_scale`, 1.5x
in presentation mode, Ctrl+= / Ctrl+-), the spacing of the nodes its square root, so a
larger text also reads larger with the whole tree in view and labels do not run into their
neighbours. The view fits the tree, magnified at most :data:`MAX_ZOOM` times, but never
shrinks it so far that its labels fall below :data:`LEGIBLE_POINTS` on screen (times the
square root of the text size, 8.6 pt in presentation mode): a tree too large for that
(Kuhn poker beside the explanation on a 1280x720 projector) is shown at that zoom around
the selected node or the chosen information set (the root at first), scrollable; F toggles
between that and the whole tree, however small.

Large trees stay usable: beyond :data:`COLLAPSE_DEPTH` subtrees start collapsed when the
tree has more than :data:`COLLAPSE_ABOVE` nodes, and at most :data:`MAX_DRAWN` nodes are
drawn whatever the tree (expanded breadth first: the nodes whose children do not fit are
drawn collapsed, and the note over the view says how many nodes are shown). Every walk over
the tree is a loop, never a recursion, so a chain thousands of levels deep draws like any
other tree. Double-click a node (or press Enter) to collapse or expand it (a node expanded
by hand is drawn expanded past the limit), the wheel zooms, dragging pans, F toggles the
whole tree, the arrows move the selection to the parent (up), first child (down) and siblings (left/right).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QLabel,
)

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.numbers import format_number
from rmviz.present.definitions import CHANCE_COLOUR, TERMINAL_COLOUR, player_colour
from rmviz.present.tree_labels import Box, LabelSpace, edge_label_lines, edge_label_texts, short_label
from rmviz.present.tree_layout import (
    folded_nodes,
    infoset_links,
    neighbour_links,
    subtree_sizes,
    tree_layout,
    visible_nodes,
)
from rmviz.solvers.tree.compiled_tree import CompiledTree

X_STEP, Y_STEP, RADIUS = 46.0, 90.0, 10.0  # at text scale 1
BAR_WIDTH = 28.0
BAR_PIXELS = 0.25  # a running tree's bar is set again when off by this much on screen
LABEL_BACKING = QColor(255, 255, 255, 210)  # behind node labels: arcs crossing them fade out
LABEL_GAP = 2.0  # labels at least this far apart (scene units at text scale 1): never run together
TEXT_POINTS = 7.5  # the labels' size in scene units at text scale 1
MAX_ZOOM = 1.6  # a small tree is magnified at most this much
LEGIBLE_POINTS = 7.0  # nor a large one shrunk so far that its labels fall below this size on
# screen (times the square root of the text scale: at any text size, leaves stay ~43 px apart)
COLLAPSE_ABOVE, COLLAPSE_DEPTH = 300, 3
HIGHLIGHT = "#ffb300"
NOTE_COLOUR = "#616161"  # the note over the view: the numbers' key, how many nodes are drawn
# what the coloured number beside a decision node is, said once (with an iteration shown)
CFV_KEY = (
    "coloured number by a decision node: the acting player's counterfactual value (hover for its factors)"
)
MAX_DRAWN = 2_000  # nodes drawn at most (a scene item costs ~50 us to build and to paint)


class ViewNote(QLabel):
    """The view's note over its top edge: the key of the numbers drawn and how many nodes a
    folded tree draws. Not in the scene, where above Leduc's root it ran past the view's
    right edge at 1280x720 and scrolled away; a child of the view, not of its viewport,
    whose scrolling moves its children."""

    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view)
        self.view = view
        self.setWordWrap(True)
        self.setStyleSheet(
            f"QLabel {{ color: {NOTE_COLOUR}; background: rgba(255, 255, 255, 220); padding: 2px 4px; }}"
        )
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()

    def say(self, text: str) -> None:
        """Show ``text`` (hidden when empty) a little smaller than the window's text (whose
        size presentation mode and Ctrl+= set)."""
        self.setText(text)
        font = self.view.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        self.setFont(font)
        self.setVisible(bool(text))
        self.place()

    def place(self) -> None:
        """Across the viewport's top, wrapped to its width (hidden: an empty label's height
        for a width is -1, which Qt refuses)."""
        if self.isHidden():
            return
        shown = self.view.viewport().geometry()
        width = max(1, shown.width() - 8)
        self.setFixedWidth(width)
        self.setFixedHeight(self.heightForWidth(width))
        self.move(shown.left() + 4, shown.top() + 4)
        self.raise_()


class TreeView(QGraphicsView):
    """Draws a game tree; ``node_selected`` fires with a node id when one is chosen."""

    node_selected = Signal(int)

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(QBrush(QColor("white")))
        self.game: ExtensiveFormGame | None = None
        self.tree: CompiledTree | None = None
        self.collapsed: set[int] = set()  # collapsed by the person (or at first, when large)
        self.opened: set[int] = set()  # expanded by the person: drawn expanded past MAX_DRAWN
        self.folded: set[int] = set()  # drawn collapsed now: collapsed, or past MAX_DRAWN
        self.sizes = np.ones(1, dtype=np.int64)  # nodes in the subtree of each node
        self.selected: int | None = None
        self.focus_infoset: int | None = None  # the window's chosen one: kept in view
        self.highlighted: int | None = None
        self.place: dict[int, tuple[float, int]] = {}  # (column, depth), the shared layout
        self.positions: dict[int, QPointF] = {}
        self.node_items: dict[int, QGraphicsItem] = {}
        self.record = None
        self.traversal = 0
        self.strategies: tuple[np.ndarray, np.ndarray] | None = None
        self.bars = StrategyBars()
        self.cfv_labels: dict[int, QGraphicsSimpleTextItem] = {}  # decision node -> its cfv
        self.far_arcs: dict[int, list[QGraphicsPathItem]] = {}  # arcs across the tree, by set
        self.zoomed = False  # the person zoomed (wheel): no automatic fit until F
        self.whole = False  # F: the whole tree in view, however small its labels
        self.text_scale = 1.0
        self.note = ViewNote(self)  # the numbers' key and how many nodes are drawn

    # -- the game ------------------------------------------------------------------------------
    def set_game(self, game: ExtensiveFormGame, tree: CompiledTree) -> None:
        """Draw ``game`` (compiled as ``tree``): nothing selected, no numbers yet."""
        self.game, self.tree = game, tree
        self.record, self.strategies, self.selected, self.highlighted = None, None, None, None
        self.focus_infoset = None
        self.collapsed, self.opened = set(), set()
        self.sizes = subtree_sizes(tree)
        if tree.n_nodes > COLLAPSE_ABOVE and len(tree.depth_ranges) > COLLAPSE_DEPTH:
            start, stop = tree.depth_ranges[COLLAPSE_DEPTH]
            self.collapsed = {h for h in range(start, stop) if tree.child_count[h] > 0}
        self.rebuild()
        self.fit()

    def visible_nodes(self) -> list[int]:
        """Nodes drawn, depth first. Nodes are expanded breadth first while their children
        fit in :data:`MAX_DRAWN` (those opened by hand always are); the others with children,
        and the collapsed ones, are drawn folded (:attr:`folded`)."""
        assert self.tree is not None
        self.folded = folded_nodes(self.tree, self.collapsed, self.opened, MAX_DRAWN)
        return visible_nodes(self.tree, self.folded)

    @property
    def spread(self) -> float:
        """The geometry's scale: the square root of the text's."""
        return self.text_scale**0.5

    def set_text_scale(self, scale: float) -> None:
        """Labels ``scale`` times their normal size, the geometry its square root; drawn
        again and fitted (unless the person zoomed)."""
        self.text_scale = scale
        self.rebuild()
        if not self.zoomed:
            self.fit()

    def _layout(self, nodes: list[int]) -> None:
        """The shared layout (:func:`~rmviz.present.tree_layout.tree_layout`) in scene units."""
        assert self.tree is not None
        self.place = tree_layout(self.tree, nodes, self.folded)
        dx, dy = X_STEP * self.spread, Y_STEP * self.spread
        self.positions = {h: QPointF(x * dx, depth * dy) for h, (x, depth) in self.place.items()}

    # -- drawing -----------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Redraw the scene from the game, the collapsed set and the numbers shown."""
        scene = self.scene()
        scene.clear()
        self.node_items = {}
        self.bars = StrategyBars()  # updated in place when running
        self.cfv_labels = {}
        self.far_arcs = {}
        if self.tree is None or self.game is None:
            return
        tree = self.tree
        nodes = self.visible_nodes()
        self._layout(nodes)
        self._taken = _Taken(self.scene(), LABEL_GAP * self.spread)  # a label never covers another
        r = RADIUS * self.spread
        for h in nodes:
            self._taken.add(QRectF(self.positions[h] - QPointF(r, r), self.positions[h] + QPointF(r, r)))
        small = QFont()
        small.setPointSizeF(TEXT_POINTS * self.text_scale)
        reach = trace = None
        if self.record is not None:
            trace = self.record.traversals[min(self.traversal, len(self.record.traversals) - 1)]
            reach = trace.reach.prod(axis=0)
        for h in nodes:
            here = self.positions[h]
            parent = int(tree.parent[h])
            if parent >= 0:
                self._edge(h, parent, here, small, reach)
        if self.strategies is not None:
            self.show_strategies(*self.strategies)  # the bars, over the edges and under the nodes
        self._infoset_links(nodes)
        for h in sorted(nodes, key=lambda h: tree.child_count[h] > 0):  # payoffs claim their place first
            self._node(h, self.positions[h], small, trace)
        notes = [CFV_KEY] if trace is not None else []
        if len(nodes) < tree.n_nodes:
            notes.append(
                f"showing {len(nodes):,} of {tree.n_nodes:,} nodes: +n marks a folded subtree "
                "(double-click it to expand)"
            )
        self.note.say("\n".join(notes))
        margin = 24 * self.spread
        # the root clear of the note, at the zoom the view has (a fit keeps it near)
        top = margin + (0 if self.note.isHidden() else self.note.height() / max(self.transform().m11(), 0.1))
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-margin, -top, margin, margin))

    def _edge(self, h: int, parent: int, here: QPointF, font: QFont, reach: np.ndarray | None) -> None:
        tree, scene = self.tree, self.scene()
        assert tree is not None
        start = self.positions[parent]
        g = self.spread
        width = (1.2 if reach is None else 1.0 + 7.0 * float(reach[h])) * g
        colour = QColor("#9e9e9e") if reach is not None and reach[h] == 0 else QColor("#424242")
        scene.addLine(start.x(), start.y(), here.x(), here.y(), QPen(colour, width))
        # the move, a chance move's probability under it; then the shorter texts
        first, *shorter = ("\n".join(lines) for lines in edge_label_texts(edge_label_lines(tree, h)))
        middle = (start + here) / 2
        label = scene.addSimpleText(first, font)
        label.setBrush(QBrush(QColor("#212121")))
        # beside the edge's midpoint on its upper side, clear of the line however thick (its
        # width grows with the reach): a label centred on the midpoint was struck through by
        # a thick edge ("Y (1/2)" on the teaching tree). Left of x0 = the midpoint + clear,
        # the line lies below y = middle - clear, so the label's bottom corner there clears it
        clear = width / 2 + 3 * g
        right = here.x() >= start.x()

        def place() -> None:
            box = label.boundingRect()
            label.setPos(
                middle.x() + clear if right else middle.x() - clear - box.width(),
                middle.y() - clear - box.height(),
            )

        # where it would come within the gap of another label or a node (Leduc's chance fans
        # read "Qh (1/5)Ks (1/5)"), shorter (edge_label_texts: a thick MCCFR edge had no room
        # for "Q" over "1/3" below the root), else none (the bars still show the strategy)
        self._taken.claim(label, *shorter, place=place)

    def _infoset_links(self, nodes: list[int]) -> None:
        """The information sets' arcs: those of neighbours drawn, the others kept hidden in
        :attr:`far_arcs` (by information set) but the chosen set's."""
        tree, scene = self.tree, self.scene()
        assert tree is not None
        links = infoset_links(tree, nodes, self.place)
        near = set(neighbour_links(tree, nodes, self.place, links))
        for a, b in links:
            colour = QColor(player_colour(int(tree.player[a])))
            colour.setAlpha(150)  # light: an arc crossing a label fades behind its backing
            pen = QPen(colour, 1.4 * self.spread, Qt.PenStyle.DashLine)
            # an arc above the row, so the link does not run through the nodes between
            pa, pb = self.positions[a], self.positions[b]
            lift = min(Y_STEP * self.spread * 0.45, 12 * self.spread + 0.12 * abs(pb.x() - pa.x()))
            arc = QPainterPath(pa)
            arc.quadTo(QPointF((pa.x() + pb.x()) / 2, min(pa.y(), pb.y()) - 2 * lift), pb)
            item = scene.addPath(arc, pen)
            item.setZValue(-1)
            if (a, b) not in near:
                self.far_arcs.setdefault(int(tree.node_infoset[a]), []).append(item)
        _show_only(self.far_arcs, self.focus_infoset)

    def _node(self, h: int, here: QPointF, font: QFont, trace: object | None) -> None:
        """One node; at decision nodes with a traversal shown, the acting player i's
        counterfactual value P(h | pi_-i) U_i(pi | h) (tooltip: both factors)."""
        tree, game, scene = self.tree, self.game, self.scene()
        assert tree is not None and game is not None
        kind = int(tree.kind[h])
        g, r = self.spread, RADIUS * self.spread
        ring = ring_pen(h, self.selected, self.highlighted, g)
        if kind == 0:
            polygon = QPolygonF(
                [here + QPointF(0, -r), here + QPointF(r, 0), here + QPointF(0, r), here + QPointF(-r, 0)]
            )
            item = scene.addPolygon(polygon, ring, QBrush(QColor(CHANCE_COLOUR)))
            tip = "chance"
        elif kind == 1:
            player = int(tree.player[h])
            item = scene.addEllipse(
                QRectF(here.x() - r, here.y() - r, 2 * r, 2 * r),
                ring,
                QBrush(QColor(player_colour(player))),
            )
            infoset = int(tree.node_infoset[h])
            label = scene.addSimpleText(tree.infoset_label[infoset], font)
            label.setPos(here.x() + r + 2 * g, here.y() - r - label.boundingRect().height() / 2)
            # a short label always (a node's name: Leduc's "Qh:c" ends a pixel from the next
            # node); a long one whole, else shortened, else none where it would run into a node
            # or label drawn before it (OpenSpiel's 120-character strings did; the tooltip
            # and the side panel have it whole)
            short = short_label(tree.infoset_label[infoset])
            if short == tree.infoset_label[infoset]:
                self._taken.keep(label)
            else:
                self._taken.claim(label, short)
            tip = f"{game.player_names[player]}, information set {tree.infoset_label[infoset]}"
            if trace is not None:
                others = [q for q in range(tree.n_players + 1) if q != player]
                reach = float(trace.reach[others, h].prod())
                value = float(trace.values[player, h])
                number = format_number(reach * value, ".3g")
                text = scene.addSimpleText(number, font)
                text.setBrush(QBrush(QColor(player_colour(player))))
                # under the information set's label, beside the node: lower, it ran into the
                # payoffs under a neighbouring terminal node. The number alone, keyed once in
                # the note (CFV_KEY): a "cfv=" that did not fit was dropped at some nodes of a
                # row and kept at others; none where it would cover another node or label
                # (Leduc's rows a column apart): the node's tooltip has it
                text.setPos(label.pos() + QPointF(0, label.boundingRect().height() + LABEL_GAP * g))
                if self._taken.claim(text):
                    self.cfv_labels[h] = text
                tip += (
                    f"\nreach of the others and chance P(h | pi_-i) = {format_number(reach, '.4g')}"
                    f"\nvalue U_i(pi | h) = {format_number(value, '.4g')}"
                    f"\ncounterfactual value = {format_number(reach * value, '.4g')}"
                )
        else:
            item = scene.addRect(
                QRectF(here.x() - 6 * g, here.y() - 6 * g, 12 * g, 12 * g),
                ring,
                QBrush(QColor(TERMINAL_COLOUR)),
            )
            payoffs = ", ".join(format_number(v) for v in tree.payoffs[:, h])
            text = scene.addSimpleText(payoffs, font)
            box = text.boundingRect()
            text.setPos(here.x() - box.width() / 2, here.y() + 8 * g)
            self._taken.add(text.sceneBoundingRect())
            tip = f"payoffs {payoffs}"
        if h in self.folded:
            more = scene.addSimpleText(f"+{int(self.sizes[h]) - 1:,}", font)
            more.setPos(here.x() - 8 * g, here.y() + r + 2 * g)
            tip += " (collapsed: double-click to expand)"
        item.setToolTip(f"{tip}\nhistory: {' > '.join(self.path(h)) or '(root)'}")
        item.setData(0, h)
        item.setZValue(1)
        self.node_items[h] = item

    def path(self, h: int) -> tuple[str, ...]:
        """The moves from the root to node ``h``."""
        assert self.tree is not None
        return self.tree.history(h)

    # -- numbers ---------------------------------------------------------------------------------
    def show_record(self, record: object, traversal: int = 0) -> None:
        """Reach probabilities and values of one traversal of a recorded CFR iteration (none:
        the tree drawn again only if one was shown; each *Run* drew a 1,000-move node anew)."""
        if record is None and self.record is None:
            return
        self.record, self.traversal = record, traversal
        self.rebuild()

    def show_strategies(self, current: np.ndarray, average: np.ndarray) -> None:
        """Probability bars under each decision move (per slot). The first strategies add the
        bars to the tree drawn (rebuilding it drew a 1,000-move node a second time as its
        window opened: 0.3-0.7 s); after, only their widths change, to :data:`BAR_PIXELS` at
        the view's zoom (a running Leduc tree, fully expanded, was rebuilt item by item,
        0.7 s, ten times a second)."""
        self.strategies = (current, average)
        if not self.bars:
            tree = self.tree
            assert tree is not None
            for h in self.positions:  # the nodes drawn
                parent, slot = int(tree.parent[h]), int(tree.edge_slot[h])
                if parent >= 0 and slot >= 0:
                    middle = (self.positions[parent] + self.positions[h]) / 2
                    colour = player_colour(int(tree.player[parent]))
                    self.bars.draw(self.scene(), middle, self.spread, colour, slot, self.strategies)
            self.bars.drawn()
            return
        self.bars.set(self.strategies, BAR_WIDTH * self.spread, self.transform().m11())

    def highlight(self, h: int | None) -> None:
        """Ring node ``h`` (the traversal animation); expands its ancestors."""
        old, self.highlighted = self.highlighted, h
        self._reveal(h, old)

    def select(self, h: int) -> None:
        old, self.selected = self.selected, h
        self._reveal(h, old)
        self.centerOn(self.positions[h])
        self.node_selected.emit(h)

    def _reveal(self, h: int | None, *ringed: int | None) -> None:
        """Open the path to node ``h`` (None: none) and draw it: the whole tree again where
        that changes what is drawn, else only the rings of ``h`` and ``ringed`` set anew (a
        click on a node of a 1,000-move fan drew its 8,000 items again: 0.2-0.4 s)."""
        tree = self.tree
        assert tree is not None
        node = h
        while node is not None and tree.parent[node] >= 0:
            node = int(tree.parent[node])
            self._open(node)
        drawn = h is None or h in self.node_items
        if not drawn or folded_nodes(tree, self.collapsed, self.opened, MAX_DRAWN) != self.folded:
            self.rebuild()
            return
        for k in {h, *ringed} & self.node_items.keys():
            self.node_items[k].setPen(ring_pen(k, self.selected, self.highlighted, self.spread))

    def _open(self, h: int) -> None:
        """Draw ``h`` expanded (the person's choice: past :data:`MAX_DRAWN` too)."""
        self.collapsed.discard(h)
        self.opened.add(h)

    def toggle(self, h: int) -> None:
        """Collapse or expand the subtree below ``h``."""
        assert self.tree is not None
        if self.tree.child_count[h] == 0:
            return
        if h in self.folded:
            self._open(h)
        else:
            self.collapsed.add(h)
            self.opened.discard(h)
        self.rebuild()

    def fit(self, whole: bool | None = None) -> None:
        """The whole tree in view, never magnified beyond :data:`MAX_ZOOM`, nor shrunk below
        :meth:`legible_zoom` unless ``whole`` (F) asks for the whole tree however small
        (None: as the last fit); a tree shown at that zoom keeps the selected node, or the
        root, in view."""
        if whole is not None:
            self.whole = whole
        self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        zoom, legible = self.transform().m11(), self.legible_zoom()
        if zoom > MAX_ZOOM or (zoom < legible and not self.whole):
            zoom = MAX_ZOOM if zoom > MAX_ZOOM else legible
            self.resetTransform()
            self.scale(zoom, zoom)
            if self.selected in self.positions:
                self._center_with_root(self.selected)
            elif self.focus_infoset is not None and self._drawn(self.focus_infoset):
                self._center_with_root(self._drawn(self.focus_infoset)[0])
            else:
                self.centerOn(self.positions[0])
        self.zoomed = False
        if self.strategies is not None:
            self.show_strategies(*self.strategies)  # to a quarter pixel at this zoom

    def _center_with_root(self, h: int) -> None:
        """Node ``h`` in view, and the view as near the root as that allows: both where they
        fit (Kuhn opened on information set 0, at the far left, with the root off screen)."""
        margin = 3 * RADIUS * self.spread
        node, root = self.positions[h], self.positions[0]
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        reach_x, reach_y = max(0.0, shown.width() / 2 - margin), max(0.0, shown.height() / 2 - margin)
        middle = (node + root) / 2
        self.centerOn(
            min(max(middle.x(), node.x() - reach_x), node.x() + reach_x),
            min(max(middle.y(), node.y() - reach_y), node.y() + reach_y),
        )

    def legible_zoom(self) -> float:
        """The zoom at which the labels show at :data:`LEGIBLE_POINTS` times the square root
        of the text scale."""
        return LEGIBLE_POINTS * self.spread / (TEXT_POINTS * self.text_scale)

    def toggle_whole(self) -> None:
        """F: the whole tree, or back to the legible zoom."""
        self.fit(whole=not self.whole)

    def _drawn(self, infoset: int) -> list[int]:
        """The drawn nodes of ``infoset``."""
        assert self.tree is not None
        return [h for h in np.flatnonzero(self.tree.node_infoset == infoset).tolist() if h in self.positions]

    def show_infoset(self, infoset: int) -> None:
        """Scroll the first drawn node of ``infoset`` into view, unless one of its nodes is
        in view already (a click on one never scrolls); where none is drawn (folded below a
        collapsed node: Leduc's ``Kh:rr``), the path to its first node is opened and the view
        centred on it. Fits keep it in view."""
        assert self.tree is not None
        self.focus_infoset = infoset
        _show_only(self.far_arcs, infoset)
        drawn = self._drawn(infoset)
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        if not drawn:
            first = int(self.tree.infoset_first_node[infoset])
            self._reveal(first)
            self.centerOn(self.positions[first])
        elif not any(shown.contains(self.positions[h]) for h in drawn):
            self.centerOn(self.positions[drawn[0]])

    # -- people ------------------------------------------------------------------------------------
    def _node_at(self, event: QMouseEvent) -> int | None:
        for item in self.items(event.position().toPoint()):
            if item.data(0) is not None:
                return int(item.data(0))
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        h = self._node_at(event)
        if h is not None and event.button() == Qt.MouseButton.LeftButton:
            self.select(h)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        h = self._node_at(event)
        if h is not None:
            self.toggle(h)

    def wheelEvent(self, event: QWheelEvent) -> None:
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.scale(factor, factor)
        self.zoomed = True
        if self.strategies is not None:
            self.show_strategies(*self.strategies)  # to a quarter pixel at the new zoom

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.note.place()
        if not self.zoomed:  # keep the whole tree in view until the person zooms
            self.fit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, tree = event.key(), self.tree
        if tree is None:
            return
        if key == Qt.Key.Key_F:
            self.toggle_whole()
            return
        h = self.selected if self.selected is not None else 0
        parent = int(tree.parent[h])
        target = None
        if key == Qt.Key.Key_Up and parent >= 0:
            target = parent
        elif key == Qt.Key.Key_Down and tree.child_count[h] > 0:
            self._open(h)
            target = int(tree.child_start[h])
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right) and parent >= 0:
            first, count = tree.child_start[parent], tree.child_count[parent]
            target = int(first + (h - first + (1 if key == Qt.Key.Key_Right else -1)) % count)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.toggle(h)
            return
        if target is not None:
            self.select(target)
        else:
            super().keyPressEvent(event)


def ring_pen(h: int, selected: int | None, highlighted: int | None, spread: float) -> QPen:
    """Node ``h``'s outline: black and thick when selected, amber when the traversal
    animation is at it, else thin."""
    if h == selected:
        return QPen(QColor("#000000"), 3 * spread)
    if h == highlighted:
        return QPen(QColor(HIGHLIGHT), 4 * spread)
    return QPen(QColor("#212121"), 1.2 * spread)


class StrategyBars:
    """A tree's strategy bars: each item, its row (0 current, 1 average strategy), slot and
    the width drawn; iterates as ``(item, row, slot)``."""

    def __init__(self) -> None:
        self.items: list[QGraphicsRectItem] = []
        self.keys: list[tuple[int, int]] = []
        self.rows, self.slots, self.widths = np.empty(0), np.empty(0, dtype=int), np.empty(0)

    def draw(
        self,
        scene: QGraphicsScene,
        middle: QPointF,
        spread: float,
        colour: str,
        slot: int,
        strategies: tuple[np.ndarray, np.ndarray],
    ) -> None:
        """The two bars of the move at ``slot`` under its edge's ``middle``, each in a frame:
        the current strategy in ``colour`` (its player's), the average in grey."""
        for row, (values, fill) in enumerate(zip(strategies, (colour, "#757575"), strict=True)):
            top = middle.y() + (2 + row * 5) * spread
            left = middle.x() - BAR_WIDTH * spread / 2
            frame = QRectF(left, top, BAR_WIDTH * spread, 4 * spread)
            scene.addRect(frame, QPen(QColor("#bdbdbd"), 0.5), QBrush(Qt.BrushStyle.NoBrush))
            frame.setWidth(BAR_WIDTH * spread * float(values[slot]))
            self.items.append(scene.addRect(frame, QPen(Qt.PenStyle.NoPen), QBrush(QColor(fill))))
            self.keys.append((row, slot))

    def drawn(self) -> None:
        """Every bar added, at the width its item has."""
        keys = np.array(self.keys, dtype=int).reshape(-1, 2)
        self.rows, self.slots = keys[:, 0], keys[:, 1]
        self.widths = np.array([item.rect().width() for item in self.items])

    def set(self, strategies: tuple[np.ndarray, np.ndarray], full: float, zoom: float) -> None:
        """Each bar ``full`` times its probability in ``strategies`` (current, average) wide,
        to :data:`BAR_PIXELS` on screen at ``zoom``: only the bars off by more are set again
        (a 1,000-move node's average strategy moves every bar a little at every redraw:
        2,000 bars set took 6 ms)."""
        current, average = (np.asarray(s)[self.slots] for s in strategies)
        widths = full * np.where(self.rows == 0, current, average)
        off = np.flatnonzero(np.abs(widths - self.widths) > BAR_PIXELS / zoom)
        for k in off.tolist():
            rect = self.items[k].rect()
            self.items[k].setRect(rect.x(), rect.y(), float(widths[k]), rect.height())
        self.widths[off] = widths[off]

    def __iter__(self) -> Iterator[tuple[QGraphicsRectItem, int, int]]:
        return ((item, row, slot) for item, (row, slot) in zip(self.items, self.keys, strict=True))

    def __len__(self) -> int:
        return len(self.items)


class _Taken:
    """The labels placed on ``scene`` by the rule of :mod:`rmviz.present.tree_labels`:
    nodes and labels drawn so far in a :class:`LabelSpace` of :data:`CELL` units (Leduc
    draws ~2,000), a label kept only where it comes within the gap of none of them."""

    CELL = 64.0

    def __init__(self, scene: QGraphicsScene, gap: float) -> None:
        self.scene = scene
        self.space = LabelSpace(self.CELL, gap)

    def add(self, rect: QRectF) -> None:
        self.space.take(_box(rect))

    def claim(
        self, label: QGraphicsSimpleTextItem, *shorter: str, place: Callable[[], None] | None = None
    ) -> bool:
        """Keep ``label`` where it is clear of every node and label drawn before it: as it
        is, else as each of ``shorter`` in turn, else not at all (removed: False). ``place``
        positions it again after its text changes (one whose width moves it)."""
        for text in (label.text(), *shorter):
            label.setText(text)
            if place is not None:
                place()
            if self.space.free(_box(label.sceneBoundingRect())):
                self.keep(label)
                return True
        self.scene.removeItem(label)
        return False

    def keep(self, text: QGraphicsSimpleTextItem) -> None:
        """``text`` taken, with a light box behind it, above the information-set arcs (z -1)
        and below the nodes: a dashed arc crossing a label no longer runs through its glyphs."""
        box = text.sceneBoundingRect()
        self.add(box)
        backing = self.scene.addRect(box, QPen(Qt.PenStyle.NoPen), QBrush(LABEL_BACKING))
        backing.setZValue(-0.5)


def _show_only(arcs: dict[int, list[QGraphicsPathItem]], infoset: int | None) -> None:
    """Show the arcs of ``infoset``, hide the others."""
    for key, items in arcs.items():
        for item in items:
            item.setVisible(key == infoset)


def _box(rect: QRectF) -> Box:
    return Box(rect.left(), rect.top(), rect.right(), rect.bottom())
