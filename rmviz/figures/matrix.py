"""Figures of a matrix-game run (matplotlib): the convergence panels (strategies, gaps,
regrets, welfare), the simplex trajectories, the joint distribution and the dashboard of all
of them. Each builder draws into a figure or subfigure from a :class:`~.run.RunData` with a
:class:`~.style.Style`; the registry (:mod:`.registry`) lays out, captions and writes.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, cast

import numpy as np

from rmviz.figures.run import RunData
from rmviz.figures.style import Style, category_ticks, decade_range, iteration_axis, legend_below, log_axis
from rmviz.numbers import format_number
from rmviz.present.definitions import (
    EQUILIBRIUM_COLOUR,
    FRAME_COLOUR,
    JOINT_COLOURMAP,
    PANEL_TEXT,
    REFERENCE,
    WELFARE_COLOUR,
    action_colour,
    gap_curves,
    player_colour,
)
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.solver import MatrixSnapshot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import FigureBase

MAX_PLAYERS, MAX_ACTIONS, MAX_LABELLED = 3, 10, 8  # as the live plots; cell labels up to 8 x 8
CURRENT_TRAIL, FADE_STEPS = 60, 8  # simplex: recent current strategies; pieces of the average path
NOISE = 1e-9  # welfare within NOISE x the largest payoff of zero is rounding noise
CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, math.sqrt(3) / 2]])
Number = float | int


def draw_line(ax: Axes, x: np.ndarray, y: np.ndarray, colour: str, style: Style, **options: object) -> None:
    """A curve at the style's width (``width`` scales it, ``dash`` names the line style)."""
    width = float(cast(Number, options.pop("width", 1.0)))
    dash = options.pop("dash", "solid")
    ax.plot(x, y, color=colour, linewidth=style.line_width * width, linestyle=dash, **options)  # type: ignore[arg-type]


# -- convergence panels --------------------------------------------------------------------
def draw_strategies(fig: FigureBase, run: RunData, style: Style) -> None:
    """Average (solid) and current (faint) strategy of every action, one panel per player."""
    game, trace = run.game, run.trace
    players = range(min(game.n_players, MAX_PLAYERS))
    text = PANEL_TEXT["strategies"]
    axes = np.atleast_1d(fig.subplots(1, len(players), sharey=True))
    for i, ax in zip(players, axes, strict=True):
        for a, action in enumerate(game.action_names[i][:MAX_ACTIONS]):
            for quantity, alpha, width in (("current", 0.25, 0.4), ("average", 1.0, 1.0)):
                y = trace.columns.get(Column(quantity, player=i, action=a))
                if y is not None:
                    label = action if quantity == "average" else None
                    draw_line(
                        ax,
                        trace.iterations,
                        y,
                        action_colour(a),
                        style,
                        alpha=alpha,
                        width=width,
                        label=label,
                    )
        ax.set_title(text.title.format(player=game.player_names[i]) + first_of(game.num_actions[i]))
        ax.set_ylim(-0.02, 1.02)
        iteration_axis(ax, trace.iterations, text.x_tex)
        legend_below(ax)
    axes[0].set_ylabel(text.y_tex)
    panels_title(fig, style, game.n_players)


def first_of(actions: int) -> str:
    """What a panel of a player's actions leaves out: ``" (first 10 of 30 actions)"``."""
    return f" (first {MAX_ACTIONS} of {actions} actions)" if actions > MAX_ACTIONS else ""


def panels_title(fig: FigureBase, style: Style, players: int, title: str = "") -> None:
    """The title over the players' panels, saying so when players beyond
    :data:`MAX_PLAYERS` are not drawn (no title when there is nothing to say)."""
    if players > MAX_PLAYERS:
        title += f" (first {MAX_PLAYERS} of {players} players)"
    if title:
        fig.suptitle(title.strip(), fontsize=style.font_size)


def draw_gaps(fig: FigureBase, run: RunData, style: Style) -> None:
    """The family's distances to equilibrium on log-log axes with a 1/sqrt(T) reference
    anchored at the exploitability's first point."""
    ax = fig.subplots()
    gap_panel(ax, run, style)


NO_GAPS = "every distance is 0 at every iteration recorded\n(an equilibrium from the start)"


def gap_panel(ax: Axes, run: RunData, style: Style) -> None:
    text, trace = PANEL_TEXT["gaps"], run.trace
    x = trace.iterations.astype(np.float64)
    shown = []
    for metric, curve in gap_curves(run.family, run.zero_sum).items():
        y = trace.columns.get(Column(metric))
        if y is None:
            continue
        keep = np.isfinite(y) & (y > 0)
        if keep.any():
            draw_line(
                ax, x[keep], y[keep], curve.colour, style, dash=curve.dash, width=curve.width, label=curve.tex
            )
            shown.append(y[keep])
    first = trace.columns.get(Column("exploitability"))
    if first is not None and first.size and np.isfinite(first[0]) and first[0] > 0:
        reference = first[0] * np.sqrt(max(x[0], 1.0) / x)
        draw_line(
            ax,
            x,
            reference,
            REFERENCE.colour,
            style,
            dash=REFERENCE.dash,
            width=REFERENCE.width,
            label=REFERENCE.tex,
        )
    log_axis(ax, "y", *decade_range(np.concatenate(shown) if shown else np.empty(0)))
    iteration_axis(ax, trace.iterations, text.x_tex)
    ax.set_title(text.title)
    ax.set_ylabel(text.y_tex)
    if legend_below(ax) is None:  # log axes show no zeros: say so rather than leave the panel blank
        ax.text(0.5, 0.5, NO_GAPS, transform=ax.transAxes, ha="center", va="center", color=FRAME_COLOUR)


def draw_regrets(fig: FigureBase, run: RunData, style: Style) -> None:
    """Average regret of every action, one panel per player (up to :data:`MAX_PLAYERS`),
    each with its own actions' names, on a shared regret axis."""
    game, trace, text = run.game, run.trace, PANEL_TEXT["regrets"]
    players = range(min(game.n_players, MAX_PLAYERS))
    axes = np.atleast_1d(fig.subplots(1, len(players), sharey=True))
    for i, ax in zip(players, axes, strict=True):
        for a, action in enumerate(game.action_names[i][:MAX_ACTIONS]):
            y = trace.columns.get(Column("regret", player=i, action=a))
            if y is not None:
                draw_line(ax, trace.iterations, y, action_colour(a), style, width=0.7, label=action)
        ax.axhline(0.0, color=FRAME_COLOUR, linewidth=0.8)
        iteration_axis(ax, trace.iterations, text.x_tex)
        ax.set_title(game.player_names[i] + first_of(game.num_actions[i]), color=player_colour(i))
        legend_below(ax)
    axes[0].set_ylabel(text.y_tex)
    panels_title(fig, style, game.n_players, text.title)


def welfare_limit(welfare: np.ndarray, scale: float) -> float:
    """Half the height of the symmetric welfare axis: the largest |welfare|, where values
    within rounding noise of zero (``NOISE`` x the payoff scale) count as zero, with a
    margin; a tenth of the payoff scale when all of it is noise (zero-sum games)."""
    values = np.abs(welfare[np.isfinite(welfare)])
    values = values[values > NOISE * scale]
    return 1.1 * float(values.max()) if values.size else 0.1 * scale


def draw_welfare(fig: FigureBase, run: RunData, style: Style) -> None:
    """Social welfare of the empirical joint distribution, on an axis symmetric about zero."""
    ax = fig.subplots()
    text, trace = PANEL_TEXT["welfare"], run.trace
    welfare = trace.columns.get(Column("welfare"), np.full(trace.iterations.size, np.nan))
    limit = welfare_limit(welfare, run.payoff_scale)
    noise = np.abs(welfare) <= NOISE * run.payoff_scale
    draw_line(ax, trace.iterations, np.where(noise, 0.0, welfare), WELFARE_COLOUR, style)
    ax.axhline(0.0, color=FRAME_COLOUR, linewidth=0.8)
    ax.set_ylim(-limit, limit)
    iteration_axis(ax, trace.iterations, text.x_tex)
    ax.set_title(text.title)
    ax.set_ylabel(text.y_tex)


# -- the simplex -----------------------------------------------------------------------------
def to_triangle(p: np.ndarray) -> np.ndarray:
    """Barycentric (n, 3) -> planar (n, 2) on the equilateral triangle; rows that put no
    mass on the three actions are NaN (not drawn)."""
    total = p.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(total > 0, p / total, np.nan) @ CORNERS)


def simplex_face(run: RunData, player: int) -> tuple[int, ...]:
    """The actions drawn for ``player``: all of them up to three, else the chosen face."""
    k = run.game.num_actions[player]
    return tuple(run.faces.get(player, (0, 1, 2))) if k > 3 else tuple(range(k))


def project(face_size: int, p: np.ndarray) -> np.ndarray:
    """Strategies restricted to a face of ``face_size`` actions (n, k) -> plane points."""
    if face_size == 1:
        return np.column_stack([np.full(len(p), 0.5), np.zeros(len(p))])
    if face_size == 2:
        return np.column_stack([p[:, 0], np.zeros(len(p))])
    return to_triangle(p)


def unproject(face_size: int, point: tuple[float, float]) -> np.ndarray:
    """The strategy on a face of 2 or 3 actions nearest to a plane point (the inverse of
    :func:`project`; points outside the face are clipped to its edge)."""
    x, y = point
    if face_size == 2:
        p = np.array([x, 1.0 - x])
    else:  # barycentric coordinates on CORNERS: p2 from the height, then p1 from x
        p2 = y / CORNERS[2, 1]
        p = np.array([1.0 - x - p2 / 2, x - p2 / 2, p2])
    p = np.clip(p, 0.0, None)
    return p / p.sum() if p.sum() > 0 else np.full(face_size, 1.0 / face_size)


def fading_path(ax: Axes, points: np.ndarray, colour: str, style: Style) -> None:
    """The average path in :data:`FADE_STEPS` pieces, faint at the start of the run and solid
    now, so the direction of travel reads at a glance; a dot where it ends."""
    bounds = np.linspace(0, len(points), FADE_STEPS + 1).astype(int)
    for k, (start, stop) in enumerate(itertools.pairwise(bounds)):
        piece = points[max(0, start - 1) : stop]
        alpha = 0.3 + 0.7 * (k + 1) / FADE_STEPS
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


def draw_simplex(fig: FigureBase, run: RunData, style: Style) -> None:
    """Each player's strategy on its simplex (2x2 games: the unit square): the average path
    fading in, the recent current strategies, the reference equilibrium as a star."""
    game, columns = run.game, run.trace.columns
    if game.n_players == 2 and game.num_actions == (2, 2):
        square_panel(fig.subplots(), run, style)
        return
    players = range(min(game.n_players, MAX_PLAYERS))
    for i, ax in zip(players, np.atleast_1d(fig.subplots(1, len(players))), strict=True):
        face = simplex_face(run, i)
        names = [game.action_names[i][a] for a in face]
        title = game.player_names[i]
        if game.num_actions[i] > 3:
            title += f"\n(face {', '.join(names)} of {game.num_actions[i]})"
        # the top corner's label sits above the triangle: the title clears it at any size
        ax.set_title(title, color=player_colour(i), pad=6 + 1.4 * style.small)
        ax.set_aspect("equal", adjustable="datalim")  # the box keeps its layout, the data fit in
        ax.axis("off")
        outline = np.vstack([CORNERS, CORNERS[:1]]) if len(face) == 3 else np.array([[0.0, 0.0], [1.0, 0.0]])
        ax.plot(outline[:, 0], outline[:, 1], color=FRAME_COLOUR, linewidth=1.0)
        corners = CORNERS if len(face) == 3 else np.array([[1.0, 0.0], [0.0, 0.0]])
        for corner, name, (ha, va) in zip(
            corners, names, (("right", "top"), ("left", "top"), ("center", "bottom")), strict=False
        ):
            ax.annotate(
                name, corner, xytext=(0, 0), textcoords="offset points", ha=ha, va=va, fontsize=style.small
            )
        for quantity in ("current", "average"):
            parts = [columns.get(Column(quantity, player=i, action=a)) for a in face]
            if any(part is None for part in parts):
                continue
            points = project(len(face), np.column_stack(cast(list[np.ndarray], parts)))
            if quantity == "current":
                trail = points[-CURRENT_TRAIL:]
                ax.plot(
                    trail[:, 0], trail[:, 1], color="#777777", alpha=0.5, linewidth=style.line_width * 0.35
                )
            else:
                fading_path(ax, points, player_colour(i), style)
        if run.equilibrium is not None:
            point = project(len(face), np.array([run.equilibrium[i]])[:, list(face)])
            if np.isfinite(point).all():
                equilibrium_marker(ax, point[0], style)
        ax.margins(0.12)  # room for the corner labels


def square_panel(ax: Axes, run: RunData, style: Style) -> None:
    """2x2 games: p = P(row plays its first action) across, q = P(column plays its first) up."""
    game, columns = run.game, run.trace.columns
    ax.set_aspect("equal")
    ax.plot([0, 1, 1, 0, 0], [0, 0, 1, 1, 0], color=FRAME_COLOUR, linewidth=1.0)
    for quantity in ("current", "average"):
        x = columns.get(Column(quantity, player=0, action=0))
        y = columns.get(Column(quantity, player=1, action=0))
        if x is None or y is None:
            continue
        if quantity == "current":
            ax.plot(
                x[-CURRENT_TRAIL:],
                y[-CURRENT_TRAIL:],
                color="#777777",
                alpha=0.5,
                linewidth=style.line_width * 0.35,
            )
        else:
            fading_path(ax, np.column_stack([x, y]), player_colour(0), style)
    if run.equilibrium is not None:
        equilibrium_marker(ax, np.array([run.equilibrium[0][0], run.equilibrium[1][0]]), style)
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel(f"P({game.player_names[0]} plays {game.action_names[0][0]})")
    ax.set_ylabel(f"P({game.player_names[1]} plays {game.action_names[1][0]})")
    ax.set_title("average strategies (fading in), recent current strategies (grey)")


# -- the joint distribution ------------------------------------------------------------------
def draw_joint(fig: FigureBase, run: RunData, style: Style) -> None:
    """The empirical joint distribution of play as a heatmap (two-player games), each cell's
    probability written in it up to 8 x 8."""
    ax = fig.subplots()
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
    mesh = ax.pcolormesh(
        np.arange(cols + 1), np.arange(rows + 1), z, cmap=JOINT_COLOURMAP, vmin=0.0, vmax=peak
    )
    ax.invert_yaxis()
    ax.set_aspect("equal" if max(rows, cols) <= 3 * min(rows, cols) else "auto")
    ax.grid(False)
    category_ticks(ax, "x", game.action_names[1], rotation=0 if cols <= 4 else 45)
    category_ticks(ax, "y", game.action_names[0])
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
    fig.colorbar(mesh, ax=ax, label="probability", shrink=0.85)
    ax.set_title("empirical joint distribution of play", pad=style.font_size)


# -- all of it -------------------------------------------------------------------------------
def draw_dashboard(fig: FigureBase, run: RunData, style: Style) -> None:
    """Simplex and joint distribution above, the strategies in the middle, gaps, regrets and
    welfare below: the window's *Run* tab on one page."""
    top, middle, bottom = cast(np.ndarray, fig.subfigures(3, 1, height_ratios=(1.1, 1.0, 1.0)))
    left, right = cast(np.ndarray, top.subfigures(1, 2, width_ratios=(2.2, 1.0)))
    draw_simplex(left, run, style)
    draw_joint(right, run, style)
    draw_strategies(middle, run, style)
    for sub, draw in zip(
        np.ravel(
            bottom.subfigures(1, 3, width_ratios=(1.0, 0.7 * min(run.game.n_players, MAX_PLAYERS), 1.0))
        ),
        (draw_gaps, draw_regrets, draw_welfare),
        strict=True,
    ):
        draw(sub, run, style)
