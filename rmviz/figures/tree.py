"""Figures of a game-tree run (matplotlib): the average strategy at each information set over
the iterations, and the tree itself with the run's numbers on it. The distances to
equilibrium and the comparison are the shared panels of :mod:`.matrix` and :mod:`.compare`.

The tree diagram uses the window's layout (:mod:`rmviz.present.tree_layout`), as wide as a
beamer frame by default: chance nodes are grey diamonds with their probabilities on the
edges, decision nodes circles in their player's colour with the information set's label,
terminal nodes squares with their payoffs; each decision edge carries the average
strategy's probability, and its width grows with the reach probability of the average
profile. Labels follow :mod:`rmviz.present.tree_labels`: none overlaps another, and the
dashed arcs joining an information set's nodes run through no label (an arc that cannot is
left out: the nodes' shared label says it). Trees wider than :data:`MAX_LEAVES` leaves, or
than the figure's width holds at :data:`COLUMN_POINTS` a leaf, are drawn to the deepest
rows that fit; the collapsed subtrees say how many nodes they hold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from rmviz.figures.panels import draw_panel
from rmviz.figures.run import RunData
from rmviz.figures.style import Style, lay_out, legend_below
from rmviz.numbers import format_number
from rmviz.present.definitions import (
    CHANCE_COLOUR,
    PANEL_TEXT,
    TERMINAL_COLOUR,
    TEXT_COLOUR,
    player_colour,
)
from rmviz.present.panels import infoset_panel
from rmviz.present.tree_labels import (
    Box,
    LabelSpace,
    Movable,
    arc_lifts,
    arc_points,
    edge_label_lines,
    edge_places,
    route_arc,
    text_box,
)
from rmviz.present.tree_layout import collapse_below, infoset_links, subtree_sizes, tree_layout, visible_nodes
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses
from rmviz.solvers.tree.solver import TreeSnapshot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, FigureBase

MAX_INFOSETS, INFOSET_COLUMNS = 12, 4
MAX_LEAVES = 64
COLUMN_POINTS = 9.0  # leaves at least this far apart: a frame's width holds 34 (Kuhn's 30)


def shown_infosets(tree: CompiledTree) -> list[int]:
    """The information sets drawn: each player's in turn, at most :data:`MAX_INFOSETS`."""
    order = sorted(range(tree.n_infosets), key=lambda s: (int(tree.infoset_player[s]), s))
    return order[:MAX_INFOSETS]


def draw_infoset_strategies(fig: FigureBase, run: RunData, style: Style) -> None:
    """The average strategy of every move over the iterations, one panel per information set
    (the first :data:`MAX_INFOSETS`, player by player)."""
    tree, text = cast(CompiledTree, run.tree), PANEL_TEXT["infoset"]
    infosets = shown_infosets(tree)
    rows = math.ceil(len(infosets) / INFOSET_COLUMNS)
    cols = min(len(infosets), INFOSET_COLUMNS)
    axes = np.atleast_1d(fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)).ravel()
    for ax, infoset in zip(axes, infosets, strict=False):
        draw_panel(ax, infoset_panel(tree, infoset, run.game.player_names), {None: run.trace}, style)
        ax.title.set_fontsize(style.small)
        ax.set_xlabel("")  # the bottom row's only
        ax.set_ylabel("")  # the figure's, once
    for ax in axes[len(infosets) :]:
        ax.axis("off")
    for ax in axes[(rows - 1) * cols : len(infosets)]:
        ax.set_xlabel(text.x_tex)
    fig.supylabel(text.y_tex, fontsize=style.font_size)
    more = tree.n_infosets - len(infosets)
    title = "average strategy at each information set"
    fig.suptitle(title + (f" (first {len(infosets)} of {tree.n_infosets})" if more else ""))


def draw_tree(fig: FigureBase, run: RunData, style: Style) -> None:
    """The game tree with the average strategy and its reach (see the module docstring)."""
    tree = cast(CompiledTree, run.tree)
    ax = fig.subplots()
    ax.set_title(f"{run.game.title}: average strategy, edge width = reach")
    tree_diagram(ax, run.game.player_names, tree, style, cast(TreeSnapshot, run.snapshot).average_strategy)


def tree_diagram(
    ax: Axes, players: tuple[str, ...], tree: CompiledTree, style: Style, strategy: np.ndarray | None
) -> None:
    """The tree on ``ax``: nodes and leaves' labels, the information sets' labels, the arcs
    of neighbouring members, the moves' labels, then the other arcs where they pass clear
    (one rule for every label: :mod:`rmviz.present.tree_labels`)."""
    inches = cast("Figure", ax.get_figure(root=True)).get_figwidth()
    collapsed = collapse_below(tree, min(MAX_LEAVES, int(72 * inches / COLUMN_POINTS)))
    nodes = visible_nodes(tree, collapsed)
    place = tree_layout(tree, nodes, collapsed)
    xy = {h: (x, -ROW * d) for h, (x, d) in place.items()}
    scale, space = _axes(ax, players, place, style)
    for h in nodes:
        _node(ax, tree, h, xy[h], scale, space)
    sizes = subtree_sizes(tree)
    for h in nodes:
        if h in collapsed:
            _below(ax, xy[h], [f"+{int(sizes[h]) - 1:,}", "nodes"], scale, space)
        elif tree.kind[h] == 2:
            _below(ax, xy[h], [format_number(v) for v in tree.payoffs[:, h]], scale, space)
        elif tree.kind[h] == 1:
            _infoset_label(ax, tree, h, xy[h], scale, space)
    links = infoset_links(tree, nodes, place)
    near = [link for link in links if _neighbours(tree, nodes, place, *link)]
    _arcs(ax, tree, near, xy, style, scale, space)  # before the move labels: they keep clear
    reach = None
    if strategy is not None:
        passes = TreePasses(tree)
        reach = passes.reach(passes.edge_probabilities(strategy)).prod(axis=0)
    moves = [_MoveLabel.of(tree, h, xy, strategy, scale) for h in nodes if tree.parent[h] >= 0]
    for move in moves:
        _edge(ax, tree, move.h, xy, reach, style)
        move.label.settle(space)
    _arcs(ax, tree, [link for link in links if link not in near], xy, style, scale, space)
    for move in moves:
        move.draw(ax, tree, scale)


def _axes(
    ax: Axes, players: tuple[str, ...], place: dict[int, tuple[float, int]], style: Style
) -> tuple[_Scale, LabelSpace]:
    """The axes' limits and legend, the labels' scale and the space they share."""
    leaves = max(x for x, _ in place.values()) + 1
    depth = max(d for _, d in place.values())
    ax.set_xlim(-1.0, leaves)
    ax.set_ylim(-ROW * depth - 1.2, 0.4)
    ax.axis("off")
    for i, name in enumerate(players):
        ax.plot([], [], "o", color=player_colour(i), markeredgecolor="#222222", label=name)
    ax.plot([], [], "D", color=CHANCE_COLOUR, markeredgecolor="#222222", label="chance")
    ax.plot([], [], color=TEXT_COLOUR, linestyle="dashed", label="one information set (or one label)")
    width = 72 * cast("Figure", ax.get_figure(root=True)).get_figwidth()  # points
    legend_below(ax, frameon=False, fontsize=min(style.small, max(MIN_POINTS * 1.5, width / 50)))
    scale = _Scale.of(ax, style)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    return scale, LabelSpace(cell=1.0, gap=scale.gap, bounds=Box(x0, y0, x1, y1))


@dataclass
class _MoveLabel:
    """The label of the edge into node ``h``: its texts (the move with its probability, the
    move alone) and their places along the edge."""

    h: int
    texts: list[list[str]]
    places: list[list[tuple[float, float, str]]]
    label: Movable

    @classmethod
    def of(
        cls,
        tree: CompiledTree,
        h: int,
        xy: dict[int, tuple[float, float]],
        strategy: np.ndarray | None,
        scale: _Scale,
    ) -> _MoveLabel:
        lines = edge_label_lines(tree, h, strategy)
        texts = [lines, lines[:1]] if len(lines) > 1 else [lines]
        places = [edge_places(xy[int(tree.parent[h])], xy[h], *scale.size(text)) for text in texts]
        boxes = [
            [scale.box(x, y, text, ha) for x, y, ha in where]
            for text, where in zip(texts, places, strict=True)
        ]
        return cls(h, texts, places, Movable(boxes))

    def draw(self, ax: Axes, tree: CompiledTree, scale: _Scale) -> None:
        """At its place, in the deciding player's colour (a chance move's black); none if it
        found no place."""
        if self.label.chosen is None:
            return
        text, k = self.label.chosen
        x, y, ha = self.places[text][k]
        parent = int(tree.parent[self.h])
        colour = player_colour(int(tree.player[parent])) if tree.edge_slot[self.h] >= 0 else TEXT_COLOUR
        bbox = {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"}
        lines = "\n".join(self.texts[text])
        ax.text(
            x,
            y,
            lines,
            ha=ha,
            va="center",
            fontsize=scale.font,
            color=colour,
            bbox=bbox,
            gid="rmviz-move",
            **TEXT,
        )


def _neighbours(
    tree: CompiledTree, nodes: list[int], place: dict[int, tuple[float, int]], a: int, b: int
) -> bool:
    """Whether no inner node of their row is drawn between ``a`` and ``b``: their arc is
    placed before the labels (a far one only where it passes clear of them)."""
    (xa, row), (xb, _) = place[a], place[b]
    low, high = min(xa, xb), max(xa, xb)
    return not any(place[h][1] == row and low < place[h][0] < high and tree.kind[h] != 2 for h in nodes)


def _arcs(
    ax: Axes,
    tree: CompiledTree,
    links: list[tuple[int, int]],
    xy: dict[int, tuple[float, float]],
    style: Style,
    scale: _Scale,
    space: LabelSpace,
) -> None:
    """Each link's dashed arc at the first height that runs through no node or label
    (:func:`~rmviz.present.tree_labels.route_arc`), none where every height would."""
    for a, b in links:
        routes = [arc_points(xy[a], xy[b], lift) for lift in arc_lifts(abs(xy[b][0] - xy[a][0]), ROW)]
        ends = (scale.marker_box(*xy[a]), scale.marker_box(*xy[b]))
        clear = [[p for p in route if not any(_inside(p, end) for end in ends)] for route in routes]
        k = route_arc(space, clear)
        if k is not None:
            _arc(ax, routes[k], int(tree.player[a]), style)


def _inside(p: tuple[float, float], box: Box) -> bool:
    return box.x0 <= p[0] <= box.x1 and box.y0 <= p[1] <= box.y1


ROW = 1.6  # rows apart, in columns' units of the layout


class _Scale:
    """Points per data unit across and up, estimated from the axes' share of the figure
    before the layout (the tree's labels are placed in data units by :class:`LabelSpace`),
    and the labels' font, as large as the style's but no wider than a column allows."""

    def __init__(self, across: float, up: float, font: float, gap: float) -> None:
        self.across, self.up, self.font, self.gap = across, up, font, gap
        self.marker = 1.6 * font  # a decision node's diameter in points

    def marker_box(self, x: float, y: float) -> Box:
        """The box of a node's marker at (x, y)."""
        half = self.marker / 2
        return Box(x - half / self.across, y - half / self.up, x + half / self.across, y + half / self.up)

    @classmethod
    def of(cls, ax: Axes, style: Style) -> _Scale:
        """Measured on the layout as it stands (title and legend made), less the caption's
        line that :func:`~rmviz.figures.style.finish` adds under it."""
        fig = cast("Figure", ax.get_figure(root=True))
        lay_out(fig)
        box = ax.get_window_extent(fig._get_renderer())  # type: ignore[attr-defined]
        points = 72 / fig.dpi
        (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
        across = box.width * points / (x1 - x0)
        up = (box.height * points - 1.5 * style.small) / (y1 - y0)
        font = max(MIN_POINTS, min(style.small, across / 2.6, up / 2.2))
        return cls(across, up, font, 0.15 * font / across)

    def size(self, lines: list[str]) -> tuple[float, float]:
        """The width and height of ``lines`` in data units, with a little room for the glyphs."""
        width = (0.62 * max(len(line) for line in lines) + 0.4) * self.font / self.across
        return width, (1.2 * len(lines) + 0.3) * self.font / self.up

    def box(self, x: float, y: float, lines: list[str], ha: str = "center", va: str = "center") -> Box:
        """The box of ``lines`` at (x, y) in data units."""
        return text_box(x, y, *self.size(lines), ha, va)


MIN_POINTS = 4.0  # the labels' smallest font (a wide tree in a beamer frame's width)
TEXT: dict[str, Any] = {"zorder": 4, "clip_on": False, "in_layout": False}


def _node(
    ax: Axes, tree: CompiledTree, h: int, at: tuple[float, float], scale: _Scale, space: LabelSpace
) -> None:
    kind, (x, y), marker = int(tree.kind[h]), at, scale.marker
    if kind == 0:
        ax.plot(x, y, "D", color=CHANCE_COLOUR, markersize=marker * 0.9, markeredgecolor="#222222", zorder=4)
    elif kind == 1:
        colour = player_colour(int(tree.player[h]))
        ax.plot(x, y, "o", color=colour, markersize=marker, markeredgecolor="#222222", zorder=4)
    else:
        ax.plot(x, y, "s", color=TERMINAL_COLOUR, markersize=marker * 0.6, zorder=4)
    space.take(scale.marker_box(x, y))


def _below(ax: Axes, at: tuple[float, float], lines: list[str], scale: _Scale, space: LabelSpace) -> None:
    """A leaf's payoffs, one a line, or a folded subtree's node count, under it, where
    they fit (a folded subtree's count alone, else nothing)."""
    x, y = at
    top = y - 0.3
    texts = [lines, lines[:1]] if lines[-1] == "nodes" else [lines]
    label = Movable([[scale.box(x, top, text, va="top")] for text in texts])
    if label.settle(space) and label.chosen is not None:
        text = "\n".join(texts[label.chosen[0]])
        ax.text(x, top, text, ha="center", va="top", fontsize=scale.font, color=TEXT_COLOUR, **TEXT)


def _infoset_label(
    ax: Axes, tree: CompiledTree, h: int, at: tuple[float, float], scale: _Scale, space: LabelSpace
) -> None:
    """The information set's label beside its node: left, else right, else above."""
    x, y = at
    label = tree.infoset_label[int(tree.node_infoset[h])]
    off = 1.3 * scale.font / scale.across
    places = [
        (x - off, y, "right", "center"),
        (x + off, y, "left", "center"),
        (x - off, y + off, "right", "bottom"),
    ]
    k = space.claim([scale.box(px, py, [label], ha, va) for px, py, ha, va in places])
    if k is None:  # crowded (Leduc's rows at a frame's width): the node's colour says whose
        return
    px, py, ha, va = places[k]
    colour = player_colour(int(tree.player[h]))
    ax.text(px, py, label, ha=ha, va=va, fontsize=scale.font, color=colour, **TEXT)


def _arc(ax: Axes, points: list[tuple[float, float]], player: int, style: Style) -> None:
    """An information set's dashed arc (its route: :func:`~rmviz.present.tree_labels.route_arc`)."""
    xs, ys = zip(*points, strict=True)
    ax.plot(
        xs,
        ys,
        color=player_colour(player),
        linestyle="dashed",
        linewidth=style.line_width * 0.5,
        alpha=0.8,
        zorder=0,
        gid="rmviz-infoset",
    )


def _edge(
    ax: Axes,
    tree: CompiledTree,
    h: int,
    xy: dict[int, tuple[float, float]],
    reach: np.ndarray | None,
    style: Style,
) -> None:
    """The edge into ``h``, as wide as its reach."""
    (x0, y0), (x1, y1) = xy[int(tree.parent[h])], xy[h]
    width = style.line_width * (0.35 + (1.6 * float(reach[h]) if reach is not None else 0.3))
    ax.plot([x0, x1], [y0, y1], color="#555555", linewidth=width, zorder=1, solid_capstyle="round")
