"""Where a strategy goes in the simplex view (three actions: a point of the equilateral
triangle in barycentric coordinates; two: a point of a segment) and in the 2x2 square, for
the window's simplex (pyqtgraph) and the exported simplex figure (matplotlib) alike, and how
the average path is drawn: in :data:`FADE_STEPS` pieces, faint at the start of the run and
solid now, beside the last :data:`CURRENT_TRAIL` current strategies; and the arrows of a
dynamic's field under them (:func:`arrows`, the field from :mod:`rmviz.present.dynamics`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from rmviz.present.definitions import shown_names
from rmviz.present.panels import MAX_PLAYERS, most_played

if TYPE_CHECKING:
    from rmviz.games.normal_form import NormalFormGame

CURRENT_TRAIL, FADE_STEPS = 60, 8  # recent current strategies; pieces of the average path
# The recent current strategies' trail, faint beside the average path: its grey, its opacity
# and its width as a fraction of the path's (the window and the figures alike); and a dot at
# each strategy, in that grey, its diameter a fraction of the path's width and its opacity:
# regret matching's current strategies are often pure for one player, on the frame, where a
# line alone would not show
TRAIL_COLOUR, TRAIL_OPACITY, TRAIL_WIDTH = "#777777", 0.4, 0.4
TRAIL_DOT, TRAIL_DOT_OPACITY = 1.0, 0.7
CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, math.sqrt(3) / 2]])
CORNER_NAME_SIDES = ((-1, 0), (1, 0), (0, 1))
"""Where each corner's action name lies from its corner, as ``(x, y)`` directions (-1 left
or below, 1 right or above, 0 centred): the bottom corners' (a segment's ends too) beside
them, level with the bottom edge, the top corner's above it; the window and the figures
alike. The names reach past the triangle's sides whichever way they hang, so beside costs
no width, where below cost the height of a line: a row of triangles is short and wide."""


def simplex_panels(num_actions: tuple[int, ...]) -> tuple[bool, range]:
    """Whether a game of ``num_actions`` is drawn on the 2x2 square (two players of two
    actions: p across, q up, one panel), and the players drawn (the square: the first, for
    both; else each of the first :data:`~rmviz.present.panels.MAX_PLAYERS` on its simplex)."""
    square = tuple(num_actions) == (2, 2)
    return square, range(1 if square else min(len(num_actions), MAX_PLAYERS))


def to_triangle(p: np.ndarray) -> np.ndarray:
    """Barycentric (n, 3) -> planar (n, 2) on the equilateral triangle; rows that put no
    mass on the three actions are NaN (not drawn)."""
    total = p.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(total > 0, p / total, np.nan) @ CORNERS)


def face(actions: int, chosen: tuple[int, ...] | None, average: np.ndarray | None = None) -> tuple[int, ...]:
    """The actions drawn of a player with ``actions`` actions: all of them up to three, else
    the ``chosen`` face; when none is, the three most played by ``average`` (the player's
    average strategy at the run's last point: :func:`~rmviz.present.panels.most_played`) in
    index order, or the first three before a run has a point."""
    if actions <= 3:
        return tuple(range(actions))
    if chosen:
        return tuple(chosen)
    return (0, 1, 2) if average is None else tuple(sorted(most_played(average, 3)))


def face_title(game: NormalFormGame, player: int, face: tuple[int, ...], gap: str) -> str:
    """A player's simplex panel's title: the player and, of more than three actions, the face
    drawn after ``gap`` (a new line on paper, a space live)."""
    if game.num_actions[player] <= 3:
        return game.player_names[player]
    names = ", ".join(shown_names(game.action_names[player])[a] for a in face)
    return f"{game.player_names[player]}{gap}(face {names} of {game.num_actions[player]})"


def face_corners(face_size: int) -> np.ndarray:
    """Where each action of a face of ``face_size`` actions sits, in order: the triangle's
    :data:`CORNERS` (the first action bottom left, the second bottom right, the third on
    top); two actions on the triangle's bottom edge, the first on the left; one in the
    middle of that edge."""
    return CORNERS[:face_size] if face_size > 1 else np.array([[0.5, 0.0]])


def project(face_size: int, p: np.ndarray) -> np.ndarray:
    """Strategies restricted to a face of ``face_size`` actions (n, k) -> plane points
    (the face's :func:`face_corners` weighted by the strategy)."""
    if face_size == 1:
        return np.column_stack([np.full(len(p), 0.5), np.zeros(len(p))])
    if face_size == 2:
        return np.column_stack([p[:, 1], np.zeros(len(p))])
    return to_triangle(p)


def unproject(face_size: int, point: tuple[float, float]) -> np.ndarray:
    """The strategy on a face of 2 or 3 actions nearest to a plane point (the inverse of
    :func:`project`; points outside the face are clipped to its edge)."""
    x, y = point
    if face_size == 2:
        p = np.array([1.0 - x, x])
    else:  # barycentric coordinates on CORNERS: p2 from the height, then p1 from x
        p2 = y / CORNERS[2, 1]
        p = np.array([1.0 - x - p2 / 2, x - p2 / 2, p2])
    p = np.clip(p, 0.0, None)
    return p / p.sum() if p.sum() > 0 else np.full(face_size, 1.0 / face_size)


def unproject_square(point: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Both players' strategies at a point of the 2x2 square (``p`` = P(the row player's
    first action) across, ``q`` the column player's up), clipped to the square."""
    p, q = (min(max(v, 0.0), 1.0) for v in point)
    return np.array([p, 1.0 - p]), np.array([q, 1.0 - q])


def fade_pieces(length: int) -> list[tuple[int, int, float]]:
    """The average path of ``length`` points as :data:`FADE_STEPS` pieces ``(start, stop,
    opacity)``, each starting at the previous one's last point, opacity rising to 1."""
    bounds = np.linspace(0, length, FADE_STEPS + 1).astype(int)
    return [
        (max(0, int(bounds[k]) - 1), int(bounds[k + 1]), 0.3 + 0.7 * (k + 1) / FADE_STEPS)
        for k in range(FADE_STEPS)
    ]


# -- the field of a dynamic under the paths (rmviz.present.dynamics) --------------------------------
ARROW_COLOUR = "#6b7785"  # lighter than the paths, which the arrows lie under
ARROW_OPACITIES = (0.3, 0.45, 0.6, 0.75)  # by speed: faster arrows are darker
FLOW_COLOUR, STEPS_COLOUR = "#222222", "#CC79A7"  # the flow from the current point; the steps
STEPS_COLOUR_NAME = "pink"  # the figures' note tells the steps' dots from the trail's grey ones


@dataclass(frozen=True)
class Arrows:
    """A field drawn as arrows: line ``segments`` ``(k, 2, 2)`` (each arrow's shaft and the two
    strokes of its head) and each segment's ``levels`` in :data:`ARROW_OPACITIES`."""

    segments: np.ndarray
    levels: np.ndarray

    def level(self, index: int) -> np.ndarray:
        """The segments drawn at opacity ``ARROW_OPACITIES[index]``, ``(j, 2, 2)``."""
        return self.segments[self.levels == index]


def arrows(points: np.ndarray, vectors: np.ndarray, spacing: float) -> Arrows:
    """Arrows centred on plane ``points`` ``(m, 2)`` in the directions of ``vectors``, their
    length rising with the square root of the speed from 35% to 80% of the grid ``spacing``
    and their opacity level with it; points where the field (nearly) vanishes get none."""
    speed = np.hypot(vectors[:, 0], vectors[:, 1])
    top = float(speed.max(initial=0.0))
    moving = speed > 1e-9 * top if top > 0 else np.zeros(len(speed), dtype=bool)
    points, vectors, speed = points[moving], vectors[moving], speed[moving]
    relative = np.sqrt(speed / top) if top > 0 else speed
    length = spacing * (0.35 + 0.45 * relative)
    direction = vectors / speed[:, None] if len(speed) else vectors
    tail = points - direction * length[:, None] / 2
    tip = points + direction * length[:, None] / 2
    head = np.minimum(0.45 * length, 0.25 * spacing)[:, None]
    strokes = []
    for angle in (0.45, -0.45):  # radians either side of the shaft
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        strokes.append(np.stack([tip, tip - (direction @ turn.T) * head], axis=1))
    segments = np.concatenate([np.stack([tail, tip], axis=1), *strokes]).reshape(-1, 2, 2)
    level = np.minimum((speed / top * len(ARROW_OPACITIES)).astype(int), len(ARROW_OPACITIES) - 1)
    return Arrows(segments, np.tile(level, 3))
