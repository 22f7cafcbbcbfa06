"""Figures of a game-tree run (matplotlib): the average strategy at each information set over
the iterations (with a zero-sum tree's equilibrium nearest the run's average, by the
sequence-form LP, as dashed levels, as the window draws it), and the tree itself with the
run's numbers on it. The distances to equilibrium and the comparison are the shared panels
of :mod:`.matrix` and :mod:`.compare`.

The tree diagram uses the window's layout (:mod:`rmviz.present.tree_layout`), as wide as a
beamer frame by default: chance nodes are grey diamonds with their probabilities on the
edges, decision nodes circles in their player's colour with the information set's label,
terminal nodes squares with their payoffs; each decision edge carries the average
strategy's probability, and its width grows with the reach probability of the average
profile. Labels follow :mod:`rmviz.present.tree_labels`: none overlaps another, and the
dashed arcs joining an information set's nodes run through no label (an arc that cannot is
left out: the nodes' shared label says it). Trees wider than :data:`MAX_LEAVES` leaves, or
than the figure's width holds (:func:`~rmviz.present.tree_labels.max_leaves`), are drawn to
the deepest rows that fit; the collapsed subtrees say how many nodes they hold.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from rmviz.figures import canvas
from rmviz.figures.canvas import Target
from rmviz.figures.panels import draw_panel
from rmviz.figures.run import RunData
from rmviz.figures.style import CAPTION_COLOUR, Style, lay_out, legend_below
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.present.definitions import (
    CHANCE_COLOUR,
    PANEL_TEXT,
    TERMINAL_COLOUR,
    TEXT_COLOUR,
    player_colour,
)
from rmviz.present.panels import infoset_columns, infoset_panel, last_values
from rmviz.present.tree_labels import Box, Placed, Plan, max_leaves, plan_labels, text_box
from rmviz.present.tree_layout import collapse_below, tree_layout, visible_nodes
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses
from rmviz.solvers.tree.sequence_lp import drawn_reference
from rmviz.solvers.tree.solver import TreeSnapshot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MAX_INFOSETS, INFOSET_COLUMNS = 12, 4
TITLE_LINES = 3  # an information set's panel title, at most (the rest cut: "…")
MAX_LEAVES = 64


def shown_infosets(tree: CompiledTree) -> list[int]:
    """The information sets drawn: :data:`MAX_INFOSETS` of the traced ones
    (``CompiledTree.traced_infoset``: all but on a big tree), shared out among the players
    in turn, each player's nearest the root first (breadth first), so every player has some
    (Leduc: the six first decisions of each player; three-player Kuhn: four of each, where
    the twelve nearest the root were players 1's and 2's), drawn each player's in turn."""
    traced = np.flatnonzero(tree.traced_infoset)
    nearest = traced[np.argsort(tree.infoset_first_node[traced], kind="stable")]
    players = tree.infoset_player[nearest]
    # each set's rank among its player's: the players' first sets, then their second, ...
    rank = np.empty(nearest.size, dtype=np.int64)
    for player in np.unique(players):
        mine = players == player
        rank[mine] = np.arange(np.count_nonzero(mine))
    chosen = nearest[np.lexsort((players, rank))][:MAX_INFOSETS]
    return chosen[np.lexsort((tree.infoset_first_node[chosen], tree.infoset_player[chosen]))].tolist()


def draw_infoset_strategies(target: Target, run: RunData, style: Style) -> None:
    """The average strategy of every move over the iterations, one panel per information set
    (:func:`shown_infosets`)."""
    tree, text = cast(CompiledTree, run.tree), PANEL_TEXT["infoset"]
    infosets = shown_infosets(tree)
    rows = math.ceil(len(infosets) / INFOSET_COLUMNS)
    cols = min(len(infosets), INFOSET_COLUMNS)
    what = "one per information set"
    axes = canvas.panels(target, rows, cols, "strategies", what, sharex=True, sharey=True)
    near = cast(TreeSnapshot, run.snapshot).average_strategy
    solution = drawn_reference(cast(ExtensiveFormGame, run.game), tree, near)  # the window's dashed levels
    reference = None if solution is None else solution.strategy
    for ax, infoset in zip(axes, infosets, strict=False):
        average = last_values(run.trace.columns, infoset_columns(tree, infoset))
        panel = infoset_panel(tree, infoset, run.game.player_names, reference, average)
        draw_panel(ax, panel, {None: run.trace}, style)
        ax.title.set_fontsize(style.small)
        ax.title.rmviz_lines = TITLE_LINES  # style.wrap_to reads it
        ax.set_xlabel("")  # the bottom row's only
        ax.set_ylabel("")  # the figure's, once
    for ax in axes[len(infosets) :]:
        ax.axis("off")
    for ax in axes[(rows - 1) * cols : len(infosets)]:
        ax.set_xlabel(text.x_tex)
    fig = canvas.figure_of(target)
    if fig is None:
        return
    fig.supylabel(text.y_tex, fontsize=style.font_size)
    more = tree.n_infosets - len(infosets)
    title = "average strategy at each information set"
    fig.suptitle(
        title + (f" (each player's nearest the root: {len(infosets)} of {tree.n_infosets:,})" if more else "")
    )


def draw_tree(target: Target, run: RunData, style: Style) -> None:
    """The game tree with the average strategy and its reach (see the module docstring)."""
    tree = cast(CompiledTree, run.tree)
    ax = canvas.one_panel(target)
    title = f"{run.game.title}: average strategy, edge width = reach"
    strategy = cast(TreeSnapshot, run.snapshot).average_strategy
    tree_diagram(ax, run.game.player_names, tree, style, strategy, title)


def tree_diagram(
    ax: Axes,
    players: tuple[str, ...],
    tree: CompiledTree,
    style: Style,
    strategy: np.ndarray | None,
    title: str | None = None,
) -> None:
    """The tree on ``ax``, its labels and arcs where :func:`~rmviz.present.tree_labels.plan_labels`
    puts them; ``title`` above, saying how many histories are drawn where rows too wide for
    the page are folded (as the window's note does), set before the labels are planned."""
    inches = cast("Figure", ax.get_figure(root=True)).get_figwidth()
    collapsed = collapse_below(tree, min(MAX_LEAVES, max_leaves(72 * inches)))
    nodes = visible_nodes(tree, collapsed)
    if title is not None:
        drawn = f" ({len(nodes):,} of {tree.n_nodes:,} histories drawn, +n folded)"
        ax.set_title(title + (drawn if len(nodes) < tree.n_nodes else ""))
    place = tree_layout(tree, nodes, collapsed)
    xy = {h: (x, -ROW * d) for h, (x, d) in place.items()}
    scale = _axes(ax, players, tree, place, style)
    reach = None
    if strategy is not None:
        passes = TreePasses(tree)
        reach = passes.reach(passes.edge_probabilities(strategy)).prod(axis=0)
    for h in nodes:
        _node(ax, tree, h, xy[h], scale)
        if tree.parent[h] >= 0:
            _edge(ax, tree, h, xy, reach, style)
    plan = plan_labels(tree, nodes, place, collapsed, xy, ROW, strategy, scale)
    for a, _, points in plan.arcs:
        _arc(ax, points, int(tree.player[a]), style)
    for label in plan.labels:
        _text(ax, tree, label, scale)
    note = plan.note()
    if note is not None:
        _note(ax, plan, note, scale)


def _note(ax: Axes, plan: Plan, note: str, scale: _Scale) -> None:
    """What the plan left out for room, said in a corner of the tree that holds nothing
    else (:meth:`~rmviz.present.tree_labels.Plan.corner`), the labels where they are; after
    the title where no corner is free."""
    corner = plan.corner(scale.size([note]))
    if corner is None:
        ax.set_title(f"{ax.get_title()}; {note}")
        return
    x, y, ha, va = corner
    ax.text(x, y, note, ha=ha, va=va, fontsize=scale.font, color=CAPTION_COLOUR, **TEXT)


def _axes(
    ax: Axes, players: tuple[str, ...], tree: CompiledTree, place: dict[int, tuple[float, int]], style: Style
) -> _Scale:
    """The axes' limits and legend (the players and chance that have a node drawn: Leduc's
    folded tree shows no node of player 2); the labels' scale."""
    leaves = max(x for x, _ in place.values()) + 1
    depth = max(d for _, d in place.values())
    ax.set_xlim(-1.0, leaves)
    ax.set_ylim(-ROW * depth - 1.2, 0.4)
    ax.axis("off")
    drawn = np.fromiter(place, dtype=np.int64)
    deciding = set(tree.player[drawn[tree.kind[drawn] == 1]].tolist())
    for i, name in enumerate(players):
        if i in deciding:
            ax.plot([], [], "o", color=player_colour(i), markeredgecolor="#222222", label=name)
    if np.any(tree.kind[drawn] == 0):
        ax.plot([], [], "D", color=CHANCE_COLOUR, markeredgecolor="#222222", label="chance")
    ax.plot([], [], color=TEXT_COLOUR, linestyle="dashed", label="one information set (or one label)")
    width = 72 * cast("Figure", ax.get_figure(root=True)).get_figwidth()  # points
    legend_below(ax, frameon=False, fontsize=min(style.small, max(MIN_POINTS * 1.5, width / 50)))
    return _Scale.of(ax, style)


def _text(ax: Axes, tree: CompiledTree, label: Placed, scale: _Scale) -> None:
    """A label of the plan: a move's in the deciding player's colour on a white box, an
    information set's in its player's colour, payoffs and counts in the text colour."""
    h, colour, extra = label.h, TEXT_COLOUR, {}
    if label.kind == "infoset":
        colour = player_colour(int(tree.player[h]))
    elif label.kind == "move":
        if tree.edge_slot[h] >= 0:
            colour = player_colour(int(tree.player[int(tree.parent[h])]))
        extra = {"bbox": {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"}}
    text = "\n".join(label.lines)
    ax.text(
        label.x, label.y, text, ha=label.ha, va=label.va, fontsize=scale.font, color=colour, **TEXT, **extra
    )


def _arc(ax: Axes, points: list[tuple[float, float]], player: int, style: Style) -> None:
    """An information set's dashed arc."""
    xs, ys = zip(*points, strict=True)
    ax.plot(
        xs,
        ys,
        color=player_colour(player),
        linestyle="dashed",
        linewidth=style.line_width * 0.5,
        alpha=0.8,
        zorder=0,
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


ROW = 1.6  # rows apart, in columns' units of the layout


class _Scale:
    """Points per data unit across and up, estimated from the axes' share of the figure
    before the layout (the tree's labels are placed in data units by :class:`LabelSpace`),
    and the labels' font, as large as the style's but no wider than a column allows."""

    def __init__(self, across: float, up: float, font: float, gap: float, bounds: Box) -> None:
        self.across, self.up, self.font, self.gap, self.bounds = across, up, font, gap, bounds
        self.marker = 1.6 * font  # a decision node's diameter in points

    def marker_box(self, x: float, y: float) -> Box:
        """The box of a node's marker at (x, y), its outline's stroke included (:func:`_node`
        draws the marker that much smaller: the stroke's outer half touched the labels)."""
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
        return cls(across, up, font, 0.15 * font / across, Box(x0, y0, x1, y1))

    def size(self, lines: list[str]) -> tuple[float, float]:
        """The width and height of ``lines`` in data units, with a little room for the glyphs."""
        width = (0.62 * max(len(line) for line in lines) + 0.4) * self.font / self.across
        return width, (1.2 * len(lines) + 0.3) * self.font / self.up

    def box(self, x: float, y: float, lines: list[str], ha: str = "center", va: str = "center") -> Box:
        """The box of ``lines`` at (x, y) in data units."""
        return text_box(x, y, *self.size(lines), ha, va)


MIN_POINTS = 4.0  # the labels' smallest font (a wide tree in a beamer frame's width)
MARKER_EDGE = 1.0  # points: a chance or decision node's outline, half of it outside its size
OUTLINE: dict[str, Any] = {"markeredgecolor": "#222222", "markeredgewidth": MARKER_EDGE, "zorder": 4}
TEXT: dict[str, Any] = {"zorder": 4, "clip_on": False, "in_layout": False}


def _node(ax: Axes, tree: CompiledTree, h: int, at: tuple[float, float], scale: _Scale) -> None:
    kind, (x, y), marker = int(tree.kind[h]), at, scale.marker
    if kind == 0:
        ax.plot(x, y, "D", color=CHANCE_COLOUR, markersize=marker * 0.9 - MARKER_EDGE, **OUTLINE)
    elif kind == 1:
        colour = player_colour(int(tree.player[h]))
        ax.plot(x, y, "o", color=colour, markersize=marker - MARKER_EDGE, **OUTLINE)
    else:
        ax.plot(x, y, "s", color=TERMINAL_COLOUR, markersize=marker * 0.6, zorder=4)
