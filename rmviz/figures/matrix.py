"""Figures of a matrix-game run (matplotlib): the convergence panels (strategies, gaps,
regrets, welfare), the simplex trajectories, the joint distribution and the dashboard of all
of them. Each builder draws into a figure or subfigure from a :class:`~.run.RunData` with a
:class:`~.style.Style`; the registry (:mod:`.registry`) lays out, captions and writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from rmviz.figures import canvas
from rmviz.figures.canvas import Target
from rmviz.figures.panels import draw_panel
from rmviz.figures.run import RunData
from rmviz.figures.style import Style, category_ticks
from rmviz.numbers import format_number
from rmviz.present import dynamics
from rmviz.present.definitions import (
    EQUILIBRIUM_COLOUR,
    FRAME_COLOUR,
    JOINT_COLOURMAP,
    TEXT_COLOUR,
    player_colour,
    shown_names,
)
from rmviz.present.panels import (
    PROBABILITY_TICKS,
    Panel,
    gap_panel,
    last_averages,
    matrix_panels,
    players_note,
    tracks_last,
    welfare_panel,
)
from rmviz.present.simplex import (
    ARROW_COLOUR,
    ARROW_OPACITIES,
    CORNER_NAME_SIDES,
    CURRENT_TRAIL,
    FLOW_COLOUR,
    STEPS_COLOUR,
    STEPS_COLOUR_NAME,
    TRAIL_COLOUR,
    TRAIL_DOT,
    TRAIL_DOT_OPACITY,
    TRAIL_OPACITY,
    TRAIL_WIDTH,
    face_corners,
    face_title,
    fade_pieces,
    project,
    simplex_panels,
)
from rmviz.present.simplex import face as simplex_face
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.solver import MatrixSnapshot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import FigureBase

MAX_LABELLED = 8  # cell labels of the joint distribution up to 8 x 8
SEAMLESS = 0.3  # points: the joint's cell edges, drawn in the cell's colour
SHORT_NAME = 2  # characters: a column name the joint never slants


# -- convergence panels (rmviz.present.panels, drawn by .panels.draw_panel) ------------------------
def convergence(run: RunData, name: str) -> list[Panel]:
    return matrix_panels(run.family, run.game, [name], run.zero_sum, table=run.trace)[name]


def draw_strategies(target: Target, run: RunData, style: Style) -> None:
    """Average (solid) and current (faint) strategy of every action, one panel per player."""
    panels = convergence(run, "strategies")
    axes = canvas.panels(target, 1, len(panels), "strategies", "one per player", sharey=True)
    for ax, panel in zip(axes, panels, strict=True):
        draw_panel(ax, panel, {None: run.trace}, style)
    for ax in axes[1:]:
        ax.set_ylabel("")
    note = players_note(run.game.n_players)
    fig = canvas.figure_of(target)
    if note and fig is not None:
        fig.suptitle(note.strip(" ()"), fontsize=style.font_size)


def draw_gaps(target: Target, run: RunData, style: Style) -> None:
    """The family's distances to equilibrium on log-log axes with a 1/sqrt(T) reference
    anchored at the exploitability's first point; the last iterate's, lighter, where the
    trace holds them."""
    panel = gap_panel(run.family, run.zero_sum, last=tracks_last(run.trace))
    draw_panel(canvas.one_panel(target), panel, {None: run.trace}, style)


def draw_regrets(target: Target, run: RunData, style: Style) -> None:
    """Average regret of every action of the first players, coloured by action, dashed by player."""
    draw_panel(canvas.one_panel(target), convergence(run, "regrets")[0], {None: run.trace}, style)


def draw_welfare(target: Target, run: RunData, style: Style) -> None:
    """Social welfare of the empirical joint distribution, on an axis symmetric about zero."""
    panel = welfare_panel(run.game.is_zero_sum())
    draw_panel(canvas.one_panel(target), panel, {None: run.trace}, style, scale=run.payoff_scale)


# -- the simplex -----------------------------------------------------------------------------
# the simplex figure's shapes (simplex_shape): one square with its axis titles; a row of
# segments, each a line with its ends named; two or three triangles
SQUARE_SHAPE, SEGMENTS_SHAPE, TRIANGLES_SHAPE = (0.45, 0.8), (1.3, 0.3), (1.3, 0.8)
SQUARE_KEY = "average strategies (fading in), recent current strategies (grey)"


def fading_path(ax: Axes, points: np.ndarray, colour: str, style: Style) -> None:
    """The average path in :data:`FADE_STEPS` pieces, faint at the start of the run and solid
    now, so the direction of travel reads at a glance; a dot where it ends."""
    for start, stop, alpha in fade_pieces(len(points)):
        piece = points[start:stop]
        ax.plot(
            piece[:, 0],
            piece[:, 1],
            color=colour,
            alpha=alpha,
            linewidth=style.line_width,
            solid_capstyle="round",
        )
    if len(points):
        ax.plot(*points[-1], "o", color=colour, markersize=style.line_width * 2.5)


def current_trail(ax: Axes, points: np.ndarray, style: Style) -> None:
    """The last :data:`CURRENT_TRAIL` current strategies, a faint line and a dot at each, over
    the frame."""
    trail = points[-CURRENT_TRAIL:]
    width = style.line_width * TRAIL_WIDTH
    ax.plot(trail[:, 0], trail[:, 1], color=TRAIL_COLOUR, alpha=TRAIL_OPACITY, linewidth=width, zorder=2.5)
    dot = style.line_width * TRAIL_DOT
    dots = ax.plot(*trail.T, "o", color=TRAIL_COLOUR, alpha=TRAIL_DOT_OPACITY, markersize=dot, zorder=2.6)
    dots[0].set_markeredgewidth(0)


def equilibrium_marker(ax: Axes, point: np.ndarray, style: Style) -> None:
    ax.plot(
        *point,
        marker="*",
        markersize=style.font_size,
        color=EQUILIBRIUM_COLOUR,
        markeredgecolor="#000000",
        markeredgewidth=0.8,
        linestyle="none",
        label="equilibrium",
        zorder=5,
    )


def run_dynamic(run: RunData) -> dynamics.Dynamic | None:
    """The dynamic drawn under the paths: the run's rule's, when ``run.dynamics`` asks."""
    return dynamics.dynamic_of(run.config) if run.dynamics and run.config is not None else None


def newest(run: RunData, quantity: str) -> list[np.ndarray] | None:
    """Every player's newest ``quantity`` strategy (``"current"`` or ``"average"``) in the
    trace, or None when the trace lacks one of them."""
    game, columns = run.game, run.trace.columns
    strategies = []
    for i, k in enumerate(game.num_actions):
        parts = [columns.get(Column(quantity, player=i, action=a)) for a in range(k)]
        if any(part is None or not len(part) for part in parts):
            return None
        strategies.append(np.array([float(cast(np.ndarray, part)[-1]) for part in parts]))
    return strategies


def draw_field(ax: Axes, field: dynamics.PanelField | None, style: Style) -> None:
    """A dynamic's arrows under the paths (opacity by speed), and from the newest point the
    flow (dashed) beside the discrete algorithm's steps (dots)."""
    from matplotlib.collections import LineCollection

    if field is None:
        return
    for level, opacity in enumerate(ARROW_OPACITIES):
        segments = field.arrows.level(level)
        if len(segments):
            ax.add_collection(
                LineCollection(
                    list(segments),
                    colors=ARROW_COLOUR,
                    alpha=opacity,
                    linewidths=style.line_width * 0.4,
                    capstyle="round",
                    zorder=0.5,
                    gid="rmviz-field",
                )
            )
    if field.flow is not None and field.steps is not None:
        ax.plot(*field.flow.T, color=FLOW_COLOUR, linewidth=style.line_width * 0.5, linestyle="--", zorder=3)
        dots = len(field.steps) <= 200
        ax.plot(
            *field.steps.T,
            color=STEPS_COLOUR,
            linewidth=style.line_width * 0.45,
            marker="o" if dots else None,
            markersize=style.line_width * 1.1,
            zorder=3,
        )


def field_note(run: RunData, dynamic: dynamics.Dynamic | None) -> str:
    """What the arrows are, for the figure: the dynamic and the strategy it describes."""
    if dynamic is None:
        return ""
    steps = (
        f"\ndashed: its flow from the newest point; {STEPS_COLOUR_NAME} dots: steps of size "
        f"{run.dynamics_step:g}"
        if run.dynamics_step is not None
        else ""
    )
    return f"arrows: {dynamic.title}, the motion of the {dynamic.strategy} strategy{steps}"


def draw_simplex(target: Target, run: RunData, style: Style) -> None:
    """Each player's strategy on its simplex (2x2 games: the unit square): the average path
    fading in, the recent current strategies, the reference equilibrium as a star; with
    ``run.dynamics``, the field of the run's dynamic under them (a player with three actions:
    a symmetric game's single population, else against the others' newest strategies)."""
    game, columns = run.game, run.trace.columns
    square, players = simplex_panels(game.num_actions)
    # a field is drawn on the square and on the simplex of a player with three actions only:
    # the note promises no arrows where none are drawn (three-player pennies, 5 actions)
    drawn = square or any(game.num_actions[i] == 3 for i in players)
    dynamic = run_dynamic(run) if drawn else None
    note = field_note(run, dynamic)
    axes = canvas.panels(target, 1, len(players), "simplex", "one simplex per player")
    fig = canvas.figure_of(target)
    # the square's key goes over the figure, wrapped to its width: as the square's title,
    # wrapped to the square's width, each line it took shrank the square, which took more
    heading = "\n".join(filter(None, (SQUARE_KEY if square else "", note)))
    if heading and fig is not None:
        fig.suptitle(heading, fontsize=style.small, color=TEXT_COLOUR)
    if square:
        square_panel(axes[0], run, style, heading if fig is None else "")
        return
    others = newest(run, dynamic.strategy) if dynamic is not None else None
    averages = last_averages(columns, game.num_actions)
    for i, ax in zip(players, axes, strict=True):
        face = simplex_face(game.num_actions[i], run.faces.get(i), averages[i])
        names = [shown_names(game.action_names[i])[a] for a in face]
        # the top corner's label sits above the triangle: the title clears it at any size
        ax.set_title(face_title(game, i, face, "\n"), color=player_colour(i), pad=6 + 1.4 * style.small)
        ax.set_aspect("equal", adjustable="datalim")  # the box keeps its layout, the data fit in
        ax.axis("off")
        places = face_corners(len(face))
        outline = np.vstack([places, places[:1]]) if len(face) == 3 else places
        ax.plot(outline[:, 0], outline[:, 1], color=FRAME_COLOUR, linewidth=1.0)
        # clear of the paths' thick lines, which run along the edges and end in the corners
        clear = 1.5 * style.line_width
        for corner, name, (dx, dy) in zip(places, names, CORNER_NAME_SIDES, strict=False):
            ax.annotate(
                name,
                corner,
                xytext=(dx * clear, dy * clear),
                textcoords="offset points",
                ha=("right", "center", "left")[dx + 1],
                va=("top", "center", "bottom")[dy + 1],
                fontsize=style.small,
            )
        if dynamic is not None and len(face) == 3 and game.num_actions[i] == 3:
            step, predictive = run.dynamics_step, run.config.predictive
            draw_field(ax, dynamics.simplex_panel(game.payoffs, i, dynamic, others, step, predictive), style)
        for quantity in ("current", "average"):
            parts = [columns.get(Column(quantity, player=i, action=a)) for a in face]
            if any(part is None for part in parts):
                continue
            points = project(len(face), np.column_stack(cast(list[np.ndarray], parts)))
            if quantity == "current":
                current_trail(ax, points, style)
            else:
                fading_path(ax, points, player_colour(i), style)
        if run.equilibrium is not None:
            point = project(len(face), np.array([run.equilibrium[i]])[:, list(face)])
            if np.isfinite(point).all():
                equilibrium_marker(ax, point[0], style)
        ax.margins(0.12)  # room for the corner labels


def simplex_shape(num_actions: tuple[int, ...]) -> tuple[float, float]:
    """The simplex figure's size, relative to the style's one-panel size, fitted to what it
    draws (:func:`~rmviz.present.simplex.simplex_panels`): a 2x2 game's one square panel,
    narrow; a row of segments (every player drawn has two actions), low; else triangles."""
    square, players = simplex_panels(num_actions)
    if square:
        return SQUARE_SHAPE
    return SEGMENTS_SHAPE if all(num_actions[i] <= 2 for i in players) else TRIANGLES_SHAPE


def square_panel(ax: Axes, run: RunData, style: Style, title: str = "") -> None:
    """2x2 games: p = P(row plays its first action) across, q = P(column plays its first) up;
    ``title``: the key and what the arrows are, on a given Axes."""
    game, columns = run.game, run.trace.columns
    ax.set_aspect("equal")
    ax.plot([0, 1, 1, 0, 0], [0, 0, 1, 1, 0], color=FRAME_COLOUR, linewidth=1.0)
    dynamic = run_dynamic(run)
    if dynamic is not None:
        at = newest(run, dynamic.strategy)
        field = dynamics.square_panel(
            game.payoffs,
            dynamic,
            None if at is None else (float(at[0][0]), float(at[1][0])),
            run.dynamics_step,
            run.config.predictive,
        )
        draw_field(ax, field, style)
    for quantity in ("current", "average"):
        x = columns.get(Column(quantity, player=0, action=0))
        y = columns.get(Column(quantity, player=1, action=0))
        if x is None or y is None:
            continue
        if quantity == "current":
            current_trail(ax, np.column_stack([x, y]), style)
        else:
            fading_path(ax, np.column_stack([x, y]), player_colour(0), style)
    if run.equilibrium is not None:
        equilibrium_marker(ax, np.array([run.equilibrium[0][0], run.equilibrium[1][0]]), style)
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xticks(PROBABILITY_TICKS)  # the strategy panels' (and the window's square's)
    ax.set_yticks(PROBABILITY_TICKS)
    ax.set_xlabel(f"P({game.player_names[0]} plays {shown_names(game.action_names[0])[0]})")
    ax.set_ylabel(f"P({game.player_names[1]} plays {shown_names(game.action_names[1])[0]})")
    if title:
        ax.set_title(title)


# -- the joint distribution ------------------------------------------------------------------
def draw_joint(target: Target, run: RunData, style: Style) -> None:
    """The empirical joint distribution of play as a heatmap (two-player games), each cell's
    probability written in it up to 8 x 8."""
    ax = canvas.one_panel(target)
    game = run.game
    joint = cast(MatrixSnapshot, run.snapshot).joint
    if game.n_players != 2 or joint is None:
        why = "two-player games only" if game.n_players != 2 else "not tracked for this game size"
        ax.text(0.5, 0.5, f"joint distribution:\n{why}", ha="center", va="center", transform=ax.transAxes)
        ax.axis("off")
        return
    total = joint.sum()
    z = joint / total if total > 0 else joint
    peak = max(float(z.max()), 1e-12)
    rows, cols = z.shape
    # each cell's edge in its own colour: vector renderers (pdftoppm, rsvg) antialias the
    # cells' shared edges apart, white seams between them
    mesh = ax.pcolormesh(
        np.arange(cols + 1),
        np.arange(rows + 1),
        z,
        cmap=JOINT_COLOURMAP,
        vmin=0.0,
        vmax=peak,
        edgecolors="face",
        linewidth=SEAMLESS,
    )
    ax.invert_yaxis()
    ax.set_aspect("equal" if max(rows, cols) <= 3 * min(rows, cols) else "auto")
    ax.grid(False)
    # long names slanted from 5 columns on; names of one or two characters ("1" to "30")
    # stay upright, thinned like the rows' to keep apart (style.finish)
    rows_named, columns_named = (shown_names(names) for names in game.action_names[:2])
    upright = cols <= 4 or max(len(name) for name in columns_named) <= SHORT_NAME
    category_ticks(ax, "x", columns_named, rotation=0 if upright else 45)
    category_ticks(ax, "y", rows_named)
    ax.tick_params(length=0)
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(game.player_names[1], color=player_colour(1))
    ax.set_ylabel(game.player_names[0], color=player_colour(0))
    if rows <= MAX_LABELLED and cols <= MAX_LABELLED:
        for r in range(rows):
            for c in range(cols):
                dark = z[r, c] < 0.6 * peak  # viridis is dark at the bottom: white text there
                ax.text(
                    c + 0.5,
                    r + 0.5,
                    format_number(z[r, c], ".2f"),
                    ha="center",
                    va="center",
                    color="#ffffff" if dark else "#111111",
                    fontsize=style.small,
                    gid="rmviz-cell",  # hidden when cells are too small for them (style.arrange)
                )
    # the bar as tall as the cells: an inset follows the box that the cells' aspect leaves
    # (a bar taken from the axes' space spans the box before the aspect shrinks it)
    bar = cast("FigureBase", ax.get_figure(root=False)).colorbar(
        mesh, cax=ax.inset_axes((1.04, 0.0, 0.05, 1.0)), label="probability"
    )
    if bar.solids is not None:
        bar.solids.set_edgecolor("face")  # the colour bar's steps: the same seams
    ax.set_title("empirical joint distribution of play", pad=style.font_size)


# -- all of it -------------------------------------------------------------------------------
def draw_dashboard(target: Target, run: RunData, style: Style) -> None:
    """Simplex and joint distribution above, the strategies in the middle, gaps, regrets and
    welfare below: the window's *Run* tab on one page."""
    fig = canvas.whole_figure(target, "dashboard", "six panels in subfigures")
    top, middle, bottom = cast(np.ndarray, fig.subfigures(3, 1, height_ratios=(1.1, 1.0, 1.0)))
    left, right = cast(np.ndarray, top.subfigures(1, 2, width_ratios=(2.2, 1.0)))
    draw_simplex(left, run, style)
    draw_joint(right, run, style)
    draw_strategies(middle, run, style)
    for sub, draw in zip(
        np.ravel(bottom.subfigures(1, 3)),
        (draw_gaps, draw_regrets, draw_welfare),
        strict=True,
    ):
        draw(sub, run, style)
