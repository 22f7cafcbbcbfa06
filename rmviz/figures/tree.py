"""Figures of a game-tree run (matplotlib): the average strategy at each information set over
the iterations, and the tree itself with the run's numbers on it. The distances to
equilibrium and the comparison are the shared panels of :mod:`.matrix` and :mod:`.compare`.

The tree diagram uses the window's layout (:mod:`.layout`): chance nodes are grey diamonds
with their probabilities on the edges, decision nodes circles in their player's colour with
the information set's label, information sets joined by dashed arcs, terminal nodes squares
with their payoffs; each decision edge carries the average strategy's probability, and its
width grows with the reach probability of the average profile (all players and chance).
Trees wider than :data:`MAX_LEAVES` leaves are drawn to the deepest rows that fit; the
collapsed subtrees say how many nodes they hold.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

import numpy as np

from rmviz.figures.panels import draw_panel
from rmviz.figures.run import RunData
from rmviz.figures.style import Style
from rmviz.numbers import format_number
from rmviz.present.definitions import (
    CHANCE_COLOUR,
    PANEL_TEXT,
    TERMINAL_COLOUR,
    TEXT_COLOUR,
    player_colour,
)
from rmviz.present.panels import infoset_panel
from rmviz.present.tree_layout import (
    collapse_below,
    format_probability,
    infoset_links,
    subtree_sizes,
    tree_layout,
    visible_nodes,
)
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses
from rmviz.solvers.tree.solver import TreeSnapshot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, FigureBase

MAX_INFOSETS, INFOSET_COLUMNS = 12, 4
MAX_LEAVES = 64


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
    tree_diagram(ax, run.game.player_names, tree, style, cast(TreeSnapshot, run.snapshot).average_strategy)
    ax.set_title(f"{run.game.title}: average strategy on the moves, edge width = reach")


def tree_diagram(
    ax: Axes, players: tuple[str, ...], tree: CompiledTree, style: Style, strategy: np.ndarray | None
) -> None:
    collapsed = collapse_below(tree, MAX_LEAVES)
    nodes = visible_nodes(tree, collapsed)
    place = tree_layout(tree, nodes, collapsed)
    sizes = subtree_sizes(tree)
    leaves = sum(1 for h in nodes if h in collapsed or tree.child_count[h] == 0)
    # one unit per leaf across, rows 1.6 units apart; text no wider than a sibling's share
    unit = 72 * cast("Figure", ax.get_figure(root=True)).get_figwidth() / (leaves + 1)  # points
    font = min(style.small, unit / 4.5)
    reach = None
    if strategy is not None:
        passes = TreePasses(tree)
        reach = passes.reach(passes.edge_probabilities(strategy)).prod(axis=0)
    xy = {h: (x, -1.6 * depth) for h, (x, depth) in place.items()}
    for h in nodes:
        parent = int(tree.parent[h])
        if parent < 0:
            continue
        (x0, y0), (x1, y1) = xy[parent], xy[h]
        width = style.line_width * (0.35 + (1.6 * float(reach[h]) if reach is not None else 0.3))
        ax.plot([x0, x1], [y0, y1], color="#555555", linewidth=width, zorder=1, solid_capstyle="round")
        label = tree.move_label[h]
        slot = int(tree.edge_slot[h])
        if tree.edge_owner[h] == tree.n_players:
            label += f"\n{format_probability(float(tree.chance_probability[h]))}"
        elif slot >= 0 and strategy is not None:
            label += f"\n{format_number(strategy[slot], '.2f')}"
        colour = player_colour(int(tree.player[parent])) if slot >= 0 else TEXT_COLOUR
        # labels nearer the child than the parent: siblings' labels stay apart
        ax.text(
            0.3 * x0 + 0.7 * x1,
            0.3 * y0 + 0.7 * y1,
            label,
            ha="center",
            va="center",
            fontsize=font,
            color=colour,
            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"},
            zorder=3,
        )
    for a, b in infoset_links(tree, nodes, place):
        (xa, ya), (xb, yb) = xy[a], xy[b]
        lift = 0.25 + 0.04 * abs(xb - xa)
        t = np.linspace(0.0, 1.0, 30)
        arc_x = xa + (xb - xa) * t
        arc_y = ya + (yb - ya) * t + 4 * lift * t * (1 - t)
        ax.plot(
            arc_x,
            arc_y,
            color=player_colour(int(tree.player[a])),
            linestyle="dashed",
            linewidth=style.line_width * 0.5,
            alpha=0.8,
            zorder=0,
        )
    marker = style.font_size * 0.9
    for h in nodes:
        x, y = xy[h]
        kind = int(tree.kind[h])
        if kind == 0:
            ax.plot(
                x, y, "D", color=CHANCE_COLOUR, markersize=marker * 0.9, markeredgecolor="#222222", zorder=4
            )
        elif kind == 1:
            player = int(tree.player[h])
            ax.plot(
                x, y, "o", color=player_colour(player), markersize=marker, markeredgecolor="#222222", zorder=4
            )
            ax.text(  # left of the node: the edge labels sit above it
                x - 0.25,
                y,
                tree.infoset_label[int(tree.node_infoset[h])],
                ha="right",
                va="center",
                fontsize=font,
                color=player_colour(player),
                zorder=4,
            )
        else:
            ax.plot(x, y, "s", color=TERMINAL_COLOUR, markersize=marker * 0.6, zorder=4)
            payoffs = "\n".join(format_number(v) for v in tree.payoffs[:, h])
            ax.text(x, y - 0.3, payoffs, ha="center", va="top", fontsize=font, color=TEXT_COLOUR, zorder=4)
        if h in collapsed:
            ax.text(x, y - 0.3, f"+{int(sizes[h]) - 1:,}\nnodes", ha="center", va="top", fontsize=font)
    for i, name in enumerate(players):
        ax.plot([], [], "o", color=player_colour(i), markeredgecolor="#222222", label=name)
    ax.plot([], [], "D", color=CHANCE_COLOUR, markeredgecolor="#222222", label="chance")
    ax.legend(loc="upper left", ncols=len(players) + 1)
    ax.set_xlim(-0.8, leaves - 0.2)
    depth = max(d for _, d in place.values())
    ax.set_ylim(-1.6 * depth - 1.4, 1.0)
    ax.axis("off")
