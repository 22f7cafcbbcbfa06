"""Where a tree's labels may go, one rule for every drawing of it (the window's tree view,
the tree figure, the TikZ picture): a label is kept at the first of its candidate places
whose box, grown by the gap, covers no node, no label placed before it and no line that
must stay clear of labels (the information-set arcs); else shortened (a move without its
probability), else dropped. A figure says what it left out (:meth:`Plan.note`: the tree
figure in a free corner, the TikZ picture under it); the window's tooltips hold it. The rule
works in any unit with y up or down.

The width a figure of the tree fits by default, :data:`FRAME_WIDTH_CM`, is the text width
of a beamer frame at its defaults (128 mm paper, 1 cm margins: ``\\textwidth`` = 10.8 cm).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np

from rmviz.numbers import format_number
from rmviz.present.tree_layout import format_probability, infoset_links, neighbour_links, subtree_sizes

if TYPE_CHECKING:
    from rmviz.solvers.tree.compiled_tree import CompiledTree

FRAME_WIDTH_CM = 10.8  # beamer's \textwidth with its default 1 cm margins on 12.8 cm paper
CM_PER_INCH = 2.54
ARC_POINTS = 24  # an arc drawn as this many straight pieces
LEAF_POINTS = 9.0  # leaves at least this far apart: a frame's width holds 34 (Kuhn's 30)
SHORT_LABEL = 24  # an information set's label where the whole does not fit: its first characters
FIRST_LISTED = 8  # the labels an error listing a tree's information sets names


def short_label(label: str) -> str:
    """An information set's label cut to :data:`SHORT_LABEL` characters and "…" (OpenSpiel's
    information-state strings run to 120), the label itself when that is no shorter."""
    return label if len(label) <= SHORT_LABEL + 1 else label[:SHORT_LABEL].rstrip() + "…"


def no_such_infoset(asked: str, labels: Sequence[str]) -> str:
    """The one line refusing ``--infoset asked`` (the window's and ``rmviz step``'s): how
    many sets the tree has and the first few, shortened (OpenSpiel's labels run to 120
    characters and its trees to 10^5 sets)."""
    first = ", ".join(short_label(label) for label in labels[:FIRST_LISTED])
    more = ", ..." if len(labels) > FIRST_LISTED else ""
    return f"--infoset {asked!r}: no such information set among the tree's {len(labels):,} ({first}{more})"


def max_leaves(width: float) -> int:
    """The leaves a drawing ``width`` points wide shows; deeper rows are folded."""
    return max(2, int(width / LEAF_POINTS))


class Box(NamedTuple):
    """An axis-aligned rectangle: ``x0 <= x1``, ``y0 <= y1``."""

    x0: float
    y0: float
    x1: float
    y1: float

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def holds(self, other: Box) -> bool:
        return self.x0 <= other.x0 and other.x1 <= self.x1 and self.y0 <= other.y0 and other.y1 <= self.y1

    def meets(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


def segment_meets_box(p: tuple[float, float], q: tuple[float, float], box: Box) -> bool:
    """Whether the segment ``p``-``q`` passes through ``box`` (Liang and Barsky 1984)."""
    low, high = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for step, room in ((-dx, p[0] - box.x0), (dx, box.x1 - p[0]), (-dy, p[1] - box.y0), (dy, box.y1 - p[1])):
        if step == 0:
            if room < 0:
                return False
            continue
        t = room / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def arc_points(a: tuple[float, float], b: tuple[float, float], lift: float) -> list[tuple[float, float]]:
    """The quadratic Bezier from ``a`` to ``b`` whose middle is ``lift`` above the chord
    (``lift`` in the drawing's y direction: negative where y grows downwards)."""
    t = np.linspace(0.0, 1.0, ARC_POINTS + 1)
    xs = a[0] + (b[0] - a[0]) * t
    ys = a[1] + (b[1] - a[1]) * t + 4 * lift * t * (1 - t)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


class LabelSpace:
    """What is drawn so far (boxes and lines), in a grid of ``cell`` units so a check costs
    the few things near it (Leduc draws ~2,000); a box is free when, grown by ``gap``, it
    meets none of them, lines included (a Leduc chance label cleared an arc by its estimate
    and met it by 0.02 pixels drawn)."""

    def __init__(self, cell: float, gap: float = 0.0, bounds: Box | None = None) -> None:
        self.cell, self.gap, self.bounds = cell, gap, bounds  # labels stay inside the bounds
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.lines: dict[tuple[int, int], list[tuple[tuple[float, float], tuple[float, float]]]] = {}

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        c = self.cell
        xs = range(math.floor(box.x0 / c), math.floor(box.x1 / c) + 1)
        ys = range(math.floor(box.y0 / c), math.floor(box.y1 / c) + 1)
        return [(x, y) for x in xs for y in ys]

    def free(self, box: Box) -> bool:
        if self.bounds is not None and not self.bounds.holds(box):
            return False
        grown = box.grown(self.gap)
        boxes = (other for key in self._keys(grown) for other in self.boxes.get(key, ()))
        return self.clear_of_lines(grown) and not any(grown.meets(other) for other in boxes)

    def clear_of_lines(
        self, box: Box, own: Collection[tuple[tuple[float, float], tuple[float, float]]] = ()
    ) -> bool:
        """Whether no line taken passes through ``box``, but the segments ``own``."""
        return not any(
            segment_meets_box(p, q, box)
            for key in self._keys(box)
            for p, q in self.lines.get(key, ())
            if (p, q) not in own
        )

    def crossed(self, points: Sequence[tuple[float, float]]) -> set[Box]:
        """The boxes taken that the polyline ``points`` passes through (grown by the gap)."""
        hit: set[Box] = set()
        for p, q in itertools.pairwise(points):
            span = Box(min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))
            near = {box for key in self._keys(span.grown(self.gap)) for box in self.boxes.get(key, ())}
            hit.update(box for box in near if segment_meets_box(p, q, box.grown(self.gap)))
        return hit

    def release(self, box: Box) -> None:
        for key in self._keys(box):
            self.boxes[key].remove(box)

    def take(self, box: Box) -> None:
        for key in self._keys(box):
            self.boxes.setdefault(key, []).append(box)

    def take_line(self, points: Sequence[tuple[float, float]]) -> None:
        """A polyline that labels must not cross."""
        for p, q in itertools.pairwise(points):
            span = Box(min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))
            for key in self._keys(span):
                self.lines.setdefault(key, []).append((p, q))

    def claim(self, candidates: Sequence[Box]) -> int | None:
        """The index of the first free candidate, taken; None when none is free."""
        for k, box in enumerate(candidates):
            if self.free(box):
                self.take(box)
                return k
        return None


def text_box(x: float, y: float, width: float, height: float, ha: str = "center", va: str = "center") -> Box:
    """The box of a ``width`` x ``height`` text anchored at (x, y) as matplotlib anchors it
    (``ha`` left/center/right, ``va`` bottom/center/top, y up)."""
    x0 = {"left": x, "center": x - width / 2, "right": x - width}[ha]
    y0 = {"bottom": y, "center": y - height / 2, "top": y - height}[va]
    return Box(x0, y0, x0 + width, y0 + height)


EDGE_FRACTIONS = (0.7, 0.55, 0.4, 0.82, 0.3, 0.9, 0.2)  # along an edge from the parent: a label's places


def edge_places(
    a: tuple[float, float], b: tuple[float, float], width: float, height: float
) -> list[tuple[float, float, str]]:
    """Where a ``width`` x ``height`` label of the edge from ``a`` to ``b`` may go, as (x, y,
    horizontal alignment), vertically centred: at each of :data:`EDGE_FRACTIONS`, on the
    edge, beside it on the side it leans to (siblings' labels part), then on the other side,
    clear of the line."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    off = height / 2 * abs(dx) / max(abs(dy), 1e-9) + 0.15 * height
    outer, inner = ((off, "left"), (-off, "right")) if dx >= 0 else ((-off, "right"), (off, "left"))
    places = []
    for f in EDGE_FRACTIONS:
        x, y = a[0] + dx * f, a[1] + dy * f
        places += [(x, y, "center"), (x + outer[0], y, outer[1]), (x + inner[0], y, inner[1])]
    return places


def edge_label_lines(tree: CompiledTree, h: int, strategy: np.ndarray | None = None) -> list[str]:
    """The label of the edge into node ``h``: the move, under it a chance move's probability
    or, with ``strategy`` (per slot), the decision move's probability."""
    lines = [tree.move_label[h]]
    slot = int(tree.edge_slot[h])
    if tree.edge_owner[h] == tree.n_players:
        lines.append(format_probability(float(tree.chance_probability[h])))
    elif slot >= 0 and strategy is not None:
        lines.append(format_number(strategy[slot], ".2f"))
    return lines


def edge_label_texts(lines: list[str]) -> list[list[str]]:
    """An edge label's texts, the first that fits drawn: the move over its probability, both on
    one line (where two lines do not fit between a fan's rows, or below the node above a short
    edge), the move alone (the window's and the figures' rule)."""
    return [lines, [" ".join(lines)], lines[:1]] if len(lines) > 1 else [lines]


def arc_lifts(span: float, row: float) -> list[float]:
    """The heights tried for an information set's arc over ``span`` columns, rows ``row``
    apart: the usual one first (higher the wider), then every 20th of a row above up to
    0.9 rows, then below the row down to half a row."""
    usual = min(0.16 * row + 0.04 * span, 0.6 * row)
    above = [k * row / 20 for k in range(2, 19)]
    below = [-k * row / 20 for k in range(1, 11)]
    return [usual, *above, *below]


@dataclass
class Movable:
    """A label that may go to several places: its texts, fullest first, each with its
    candidate boxes (the caller keeps what each index means); ``chosen`` is (text, place),
    None where no text has a free place (the label is not drawn)."""

    boxes: list[list[Box]]
    chosen: tuple[int, int] | None = None

    def settle(self, space: LabelSpace) -> bool:
        """Take the first free place of the fullest text that has one (True), else none."""
        for text, boxes in enumerate(self.boxes):
            k = space.claim(boxes)
            if k is not None:
                self.chosen = (text, k)
                return True
        self.chosen = None
        return False


def route_arc(space: LabelSpace, routes: list[list[tuple[float, float]]]) -> int | None:
    """The first of an arc's ``routes`` (each the points that must stay clear: its ends'
    nodes left out) that passes through no node or label, taken; None where every route
    would: the arc is not drawn, and the label its nodes share says they are one set."""
    for k, route in enumerate(routes):
        if not space.crossed(route):
            space.take_line(route)
            return k
    return None


class Measure(Protocol):
    """How large things are in a drawing's units: its labels (``size`` of some lines of
    text), its nodes' markers, the gap kept between labels, the area labels stay in."""

    gap: float
    bounds: Box

    def size(self, lines: list[str]) -> tuple[float, float]: ...

    def marker_box(self, x: float, y: float) -> Box: ...


@dataclass(frozen=True)
class Placed:
    """A label drawn: of node ``h`` (``kind``: payoffs, infoset or move, the move into
    ``h``), its lines, anchored at (x, y) with matplotlib's ``ha`` and ``va``."""

    kind: str
    h: int
    lines: tuple[str, ...]
    x: float
    y: float
    ha: str = "center"
    va: str = "center"


LEFT_OUT = {  # what a drawing's note counts, in its order: (one, several)
    "probability": ("probability", "probabilities"),
    "payoffs": ("leaf's payoffs", "leaves' payoffs"),
    "move": ("move", "moves"),
    "infoset": ("information set's label", "information sets' labels"),
    "folded": ("folded subtree's count", "folded subtrees' counts"),
}


@dataclass
class Plan:
    """Every label of a drawing of a tree, and its information sets' arcs (the link's
    nodes and the arc's points); a label or arc that found no room is not in it, and
    ``left_out`` counts the labels, and the moves' probabilities, that found none (by the
    names of :data:`LEFT_OUT`; an information set's label counts once none of its nodes
    shows it). ``space`` holds what is drawn, edges included."""

    labels: list[Placed]
    arcs: list[tuple[int, int, list[tuple[float, float]]]]
    left_out: dict[str, int]
    space: LabelSpace

    def note(self) -> str | None:
        """What the drawing must say it leaves out (``left out for room: 3 probabilities``),
        None when it shows everything: numbers are never dropped silently."""
        parts = [f"{n:,} {LEFT_OUT[what][n > 1]}" for what in LEFT_OUT if (n := self.left_out.get(what, 0))]
        return f"left out for room: {', '.join(parts)}" if parts else None

    def corner(self, size: tuple[float, float]) -> tuple[float, float, str, str] | None:
        """Where a text of ``size`` fits in a corner of the drawing's bounds without meeting
        a node, label, arc or edge (top left, top right, bottom left, bottom right: y up):
        its anchor and alignment, taken; None where no corner is free."""
        bounds = self.space.bounds
        if bounds is None:
            return None
        for x, ha in ((bounds.x0, "left"), (bounds.x1, "right")):
            for y, va in ((bounds.y1, "top"), (bounds.y0, "bottom")):
                if self.space.claim([text_box(x, y, *size, ha, va)]) is not None:
                    return x, y, ha, va
        return None


@dataclass
class _Candidate:
    """A label of node ``h`` that may take one of several texts at one of several places."""

    kind: str
    h: int
    texts: list[list[str]]
    places: list[list[tuple[float, float, str, str]]]
    label: Movable

    @classmethod
    def of(
        cls,
        kind: str,
        h: int,
        texts: list[list[str]],
        places: list[list[tuple[float, float, str, str]]],
        measure: Measure,
    ) -> _Candidate:
        boxes = [
            [text_box(x, y, *measure.size(text), ha, va) for x, y, ha, va in where]
            for text, where in zip(texts, places, strict=True)
        ]
        return cls(kind, h, texts, places, Movable(boxes))

    def left_out(self) -> str | None:
        """What of this label found no room: the whole (its kind), or a move's probability
        (the move alone drawn: the last text of a move's that has a number)."""
        if self.label.chosen is None:
            return self.kind
        if self.kind == "move" and len(self.texts) > 1 and self.label.chosen[0] == len(self.texts) - 1:
            return "probability"
        return None

    def placed(self) -> Placed | None:
        if self.label.chosen is None:
            return None
        text, k = self.label.chosen
        x, y, ha, va = self.places[text][k]
        return Placed(self.kind, self.h, tuple(self.texts[text]), x, y, ha, va)


def plan_labels(
    tree: CompiledTree,
    nodes: list[int],
    place: dict[int, tuple[float, int]],
    folded: Collection[int],
    xy: dict[int, tuple[float, float]],
    row: float,
    strategy: np.ndarray | None,
    measure: Measure,
) -> Plan:
    """Where every label and arc of a tree drawn at ``xy`` (y up, rows ``row`` apart) goes,
    in this order: the leaves' payoffs and folded subtrees' counts, the arcs of neighbouring
    members of an information set, the sets' labels, the moves' labels, the other arcs
    (each where it passes clear; the rule is the module docstring's)."""
    space = LabelSpace(cell=row / 2, gap=measure.gap, bounds=measure.bounds)
    for h in nodes:
        space.take(measure.marker_box(*xy[h]))
    sizes = subtree_sizes(tree)
    fixed = [
        c for h in nodes if (c := _node_label(tree, h, folded, int(sizes[h]), xy[h], measure)) is not None
    ]
    for candidate in fixed:
        if candidate.kind != "infoset":
            candidate.label.settle(space)
    links = infoset_links(tree, nodes, place)
    near = neighbour_links(tree, nodes, place, links)
    arcs = _route(tree, near, xy, row, measure, space)
    for candidate in fixed:
        if candidate.kind == "infoset":
            candidate.label.settle(space)
    # a move's label meets no other edge: a fan's labels sat on their neighbours' edges
    edges = LabelSpace(cell=row / 2)
    for h in nodes:
        if tree.parent[h] >= 0:
            edges.take_line([xy[int(tree.parent[h])], xy[h]])
    moves = [_move_label(tree, h, xy, strategy, measure, edges) for h in nodes if tree.parent[h] >= 0]
    for candidate in moves:
        candidate.label.settle(space)
    arcs += _route(tree, [link for link in links if link not in near], xy, row, measure, space)
    labels = [p for c in fixed + moves if (p := c.placed()) is not None]
    shown = {int(tree.node_infoset[c.h]) for c in fixed if c.kind == "infoset" and c.label.chosen is not None}
    left_out = Counter(
        what
        for c in fixed + moves
        if (what := c.left_out()) is not None
        and not (what == "infoset" and int(tree.node_infoset[c.h]) in shown)
    )
    for h in nodes:  # a note placed after the plan meets no edge either
        if tree.parent[h] >= 0:
            space.take_line([xy[int(tree.parent[h])], xy[h]])
    return Plan(labels, arcs, dict(left_out), space)


def _node_label(
    tree: CompiledTree, h: int, folded: Collection[int], size: int, at: tuple[float, float], measure: Measure
) -> _Candidate | None:
    """A folded subtree's node count or a leaf's payoffs (one a line) under the node; an
    information set's label left of it, else right, else above or below on the left, whole,
    else shortened (:func:`short_label`)."""
    x, y = at
    marker = measure.marker_box(x, y)
    below = (x, marker.y0 - measure.gap, "center", "top")
    if h in folded:
        texts = [[f"+{size - 1:,}", "nodes"], [f"+{size - 1:,}"]]
        return _Candidate.of("folded", h, texts, [[below], [below]], measure)
    if tree.kind[h] == 2:
        payoffs = [format_number(v) for v in tree.payoffs[:, h]]
        return _Candidate.of("payoffs", h, [payoffs], [[below]], measure)
    if tree.kind[h] == 1:
        sides = [
            (marker.x0 - measure.gap, y, "right", "center"),
            (marker.x1 + measure.gap, y, "left", "center"),
            (marker.x0, marker.y1 + measure.gap, "right", "bottom"),
            (marker.x0, marker.y0 - measure.gap, "right", "top"),
        ]
        label = tree.infoset_label[int(tree.node_infoset[h])]
        short = short_label(label)
        texts = [[label], [short]] if short != label else [[label]]
        return _Candidate.of("infoset", h, texts, [sides] * len(texts), measure)
    return None


def _move_label(
    tree: CompiledTree,
    h: int,
    xy: dict[int, tuple[float, float]],
    strategy: np.ndarray | None,
    measure: Measure,
    edges: LabelSpace,
) -> _Candidate:
    """The label of the edge into ``h``: the move over its probability, else both on one line
    (where two lines do not fit between a fan's rows: Kuhn's second moves showed no number),
    else the move alone, at places that meet no other edge of ``edges`` (its own it may sit
    on)."""
    texts = edge_label_texts(edge_label_lines(tree, h, strategy))
    a, b = xy[int(tree.parent[h])], xy[h]
    places = []
    for text in texts:
        size = measure.size(text)
        places.append(
            [
                (x, y, ha, "center")
                for x, y, ha in edge_places(a, b, *size)
                if edges.clear_of_lines(text_box(x, y, *size, ha, "center"), own=((a, b),))
            ]
        )
    return _Candidate.of("move", h, texts, places, measure)


def _route(
    tree: CompiledTree,
    links: list[tuple[int, int]],
    xy: dict[int, tuple[float, float]],
    row: float,
    measure: Measure,
    space: LabelSpace,
) -> list[tuple[int, int, list[tuple[float, float]]]]:
    """Each link's arc at the first height that runs through no node or label
    (:func:`route_arc`; the ends' own markers left out), none where every height would."""
    arcs = []
    for a, b in links:
        routes = [arc_points(xy[a], xy[b], lift) for lift in arc_lifts(abs(xy[b][0] - xy[a][0]), row)]
        ends = (measure.marker_box(*xy[a]), measure.marker_box(*xy[b]))
        clear = [[p for p in route if not any(end.holds(Box(*p, *p)) for end in ends)] for route in routes]
        k = route_arc(space, clear)
        if k is not None:
            arcs.append((a, b, routes[k]))
    return arcs
