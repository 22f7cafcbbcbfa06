"""Strategy trajectories on the simplex, one panel per player (2x2 games: the unit square).

* 3 actions: the triangle, vertices labelled with the actions, the current-strategy path
  (thin) and the average-strategy path (thick, fading from light to dark), the reference
  equilibrium as a star (:meth:`SimplexView.set_equilibrium`: the catalog's, or the LP's of a
  two-player zero-sum game, recomputed after every edit), the run's starting strategy as a
  ring that can be dragged to choose another (:attr:`SimplexView.start_dragged`);
* 2x2 games: one square with p = P(row plays action 1) across and q = P(column plays
  action 1) up;
* 2 actions (other games): a segment, the triangle's bottom edge; more than 3 actions: a
  face of three actions chosen with :meth:`SimplexView.set_face` (by default the run's
  three most played, followed as it goes: :attr:`SimplexView.face_followed`), the strategy
  restricted to it and renormalised (the panel title says which).

Under the paths, the field of the run's continuous-time dynamic (:meth:`SimplexView.show_field`;
:mod:`rmviz.present.dynamics`): on the square, and on the triangle of a player with three
actions (a symmetric game's single population, else against the others' newest strategies,
redrawn as the run goes); with a step size (:meth:`SimplexView.set_field_step`), from the
newest point the flow (dashed) beside the algorithm's own steps (dots).

The paths are drawn from the trace's per-action columns (``Column("average", player=i,
action=a)`` and ``"current"``, :meth:`SimplexView.columns`). ``scale`` multiplies line
widths, markers and fonts (presentation mode).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal

from rmviz.games.normal_form import NormalFormGame
from rmviz.present import dynamics
from rmviz.present.definitions import EQUILIBRIUM_COLOUR, FRAME_COLOUR, player_colour, shown_names
from rmviz.present.panels import MAX_PLAYERS, PROBABILITY_TICKS, average_columns, last_averages
from rmviz.present.simplex import (
    ARROW_COLOUR,
    ARROW_OPACITIES,
    CORNER_NAME_SIDES,
    CORNERS,
    CURRENT_TRAIL,
    FADE_STEPS,
    FLOW_COLOUR,
    STEPS_COLOUR,
    TRAIL_COLOUR,
    TRAIL_DOT,
    TRAIL_DOT_OPACITY,
    TRAIL_OPACITY,
    TRAIL_WIDTH,
    face,
    face_corners,
    face_title,
    fade_pieces,
    project,
    simplex_panels,
    unproject,
    unproject_square,
)
from rmviz.solvers.columns import Column
from rmviz.ui.common.live_curve import LiveCurve
from rmviz.ui.common.plot_layout import PlotLayout
from rmviz.ui.common.style import set_title, style_plot


def fit_face(view: pg.ViewBox, names: list[pg.TextItem], clear: float) -> None:
    """Range ``view`` so that its face (a triangle of :data:`CORNERS`, or a segment: its
    bottom edge) is as large as the panel allows, with its corner ``names`` where
    :data:`CORNER_NAME_SIDES` puts them, ``clear`` pixels from their corners: the names' room
    reckoned in pixels, as they are drawn, so the face grows with the panel (a room in data
    units took a third of a short panel's height and was too little in a narrow one)."""
    sizes = [name.textItem.boundingRect() for name in names]  # pixels
    left, right = (size.width() + clear for size in sizes[:2])
    below = max(size.height() for size in sizes[:2]) / 2
    top = sizes[2].height() + clear if len(sizes) == 3 else below
    height = CORNERS[2, 1] if len(sizes) == 3 else 0.0
    across = max(view.width() - left - right, 1.0)  # pixels per unit, the face as wide as it may be
    per_unit = min(across, max(view.height() - top - below, 1.0) / height) if height else across
    for name, corner, (dx, dy) in zip(names, CORNERS, CORNER_NAME_SIDES, strict=False):
        name.setPos(corner[0] + dx * clear / per_unit, corner[1] + dy * clear / per_unit)
    view.setRange(
        xRange=(-left / per_unit, 1 + right / per_unit),
        yRange=(-below / per_unit, height + top / per_unit),
        padding=0,
    )


class FadingPath:
    """A path drawn in :data:`FADE_STEPS` consecutive pieces whose opacity rises from faint
    (the start of the run) to solid (now), so the direction of travel reads at a glance, and
    a dot where it ends (as in the exported figure: after *Step 1* the path is that dot)."""

    def __init__(self, plot: pg.PlotItem, colour: str, width: float) -> None:
        from PySide6.QtGui import QColor

        self.pieces = []
        for _start, _stop, opacity in fade_pieces(FADE_STEPS):
            shade = QColor(colour)
            shade.setAlphaF(opacity)
            self.pieces.append(LiveCurve(pg.mkPen(shade, width=width), dot=False))
            plot.addItem(self.pieces[-1])
        self.end = plot.plot(
            pen=None, symbol="o", symbolSize=2.5 * width, symbolBrush=colour, symbolPen=colour
        )

    def setData(self, x: np.ndarray, y: np.ndarray, drawn: slice | np.ndarray = slice(None)) -> None:
        """The path through the points ``(x, y)``, of which those at ``drawn`` are drawn (see
        :func:`~rmviz.ui.common.plot_layout.live_points`). The pieces split the whole path,
        as the exported figure's do, and each keeps its last point, where the next begins.
        A piece whose points are those it has is left alone: only the newest pieces move
        while a run goes on, and each ``setData`` costs ~0.5 ms of pyqtgraph's Python."""
        pieces = fade_pieces(len(x))
        kept = np.zeros(len(x), dtype=bool)
        kept[drawn] = True
        ends = np.array([stop for _start, stop, _opacity in pieces])
        kept[ends[ends > 0] - 1] = True
        for piece, (start, stop, _opacity) in zip(self.pieces, pieces, strict=True):
            shown = np.arange(start, stop)
            shown = shown[kept[shown]]
            if not (np.array_equal(piece.xData, x[shown]) and np.array_equal(piece.yData, y[shown])):
                piece.setData(x[shown], y[shown])  # pieces join
        finite = np.flatnonzero(np.isfinite(x) & np.isfinite(y))  # a face the strategy misses: none
        self.end.setData(x[finite[-1:]], y[finite[-1:]])

    def getData(self) -> tuple[np.ndarray, np.ndarray]:
        """The whole path, as one curve would give it."""
        parts = [piece.getData() for piece in self.pieces if piece.getData()[0] is not None]
        if not parts:
            return np.empty(0), np.empty(0)
        x = np.concatenate([parts[0][0], *(p[0][1:] for p in parts[1:])])
        y = np.concatenate([parts[0][1], *(p[1][1:] for p in parts[1:])])
        return x, y


class CurrentTrail(LiveCurve):
    """The current strategies' short trail, over the frame: a faint line through them and a
    dot at each (:data:`~rmviz.present.simplex.TRAIL_DOT`)."""

    def __init__(self, scale: float) -> None:
        from PySide6.QtGui import QColor

        line, dot = QColor(TRAIL_COLOUR), QColor(TRAIL_COLOUR)
        line.setAlphaF(TRAIL_OPACITY)
        dot.setAlphaF(TRAIL_DOT_OPACITY)
        self.dots = pg.ScatterPlotItem(size=TRAIL_DOT * PATH_WIDTH * scale, pen=None, brush=dot)
        super().__init__(pg.mkPen(line, width=TRAIL_WIDTH * PATH_WIDTH * scale), dot=False)
        self.dots.setParentItem(self)

    def setData(self, x: Any = (), y: Any = ()) -> None:  # type: ignore[override]
        super().setData(x, y)
        shown = np.isfinite(self.xData) & np.isfinite(self.yData)
        self.dots.setData(self.xData[shown], self.yData[shown])


def current_trail(plot: pg.PlotItem, scale: float) -> CurrentTrail:
    """The current strategies' short trail on ``plot``."""
    trail = CurrentTrail(scale)
    plot.addItem(trail)
    return trail


PATH_WIDTH = 2.5  # the average paths' pen, in pixels at text scale 1
NAME_CLEAR = 8  # pixels at text scale 1 between a corner and its name: clear of a star or ring
PANEL_SIZES = {"point": 1, "segment": 2, "triangle": 3}  # actions drawn by each kind of panel
MAX_FIELD_ACTIONS = 40  # the others' strategies a field is drawn against: the trace's columns
PATHS_EVERY = 0.5  # seconds between recomputed flows and steps while a run moves the point


class FieldItems:
    """One panel's drawing of a dynamic: an item of arrows per opacity level, the flow from
    the newest point (dashed) and the discrete steps (dots)."""

    def __init__(self, plot: pg.PlotItem, scale: float) -> None:
        from PySide6.QtGui import QColor

        self.levels = []
        for opacity in ARROW_OPACITIES:
            shade = QColor(ARROW_COLOUR)
            shade.setAlphaF(opacity)
            item = plot.plot(pen=pg.mkPen(shade, width=1.1 * scale), connect="pairs")
            item.setZValue(-5)  # under the paths
            self.levels.append(item)
        self.flow = plot.plot(pen=pg.mkPen(FLOW_COLOUR, width=1.5 * scale, style=Qt.PenStyle.DashLine))
        self.steps = plot.plot(
            pen=pg.mkPen(STEPS_COLOUR, width=1.5 * scale),
            symbol="o",
            symbolSize=4.5 * scale,
            symbolBrush=STEPS_COLOUR,
            symbolPen=None,
        )
        for item in (self.flow, self.steps):
            item.setZValue(5)

    def set_field(self, field: dynamics.PanelField | None) -> None:
        empty = np.empty(0)
        for index, item in enumerate(self.levels):
            segments = field.arrows.level(index) if field is not None else np.empty((0, 2, 2))
            flat = segments.reshape(-1, 2)
            item.setData(flat[:, 0], flat[:, 1], connect="pairs")
        flow = None if field is None else field.flow
        if flow is None:
            self.flow.setData(empty, empty)
        else:
            self.flow.setData(flow[:, 0], flow[:, 1])
        steps = None if field is None else field.steps
        if steps is None:
            self.steps.setData(empty, empty)
        else:
            self.steps.setData(steps[:, 0], steps[:, 1], symbol="o" if len(steps) <= 200 else None)

    def arrow_count(self) -> int:
        """The arrows drawn (three segments each)."""
        return sum(len(item.xData) // 6 for item in self.levels if item.xData is not None)


class SimplexView(PlotLayout):
    """Trajectories of the current and average strategies; :meth:`update_from` redraws.
    ``start_dragged`` fires with ``{player: strategy}`` when a starting ring is dropped."""

    start_dragged = Signal(object)
    face_followed = Signal(object)  # {player: face}: the most played, drawn where none is chosen

    def __init__(self, parent: object = None, scale: float = 1.0) -> None:
        super().__init__(parent)
        self.ci.setContentsMargins(2, 2, 2, 2)  # the height is short: the triangles take it
        self.game: NormalFormGame | None = None
        self.equilibrium: tuple[tuple[float, ...], ...] | None = None
        self.start: Mapping[int, np.ndarray] = {}
        self.rings: list[tuple[str, int, pg.TargetItem]] = []  # (panel kind, player, ring)
        self.paths: list[tuple[str, int, LiveCurve, FadingPath]] = []
        self.stars: list[tuple[str, int, pg.PlotDataItem]] = []  # (panel kind, player, marker)
        # a face of more than three actions: its plot and corner names, named anew in place
        self.corners: dict[int, tuple[pg.PlotItem, list[pg.TextItem]]] = {}
        self.faces: dict[int, tuple[int, int, int]] = {}  # chosen by the person
        self.played: dict[int, tuple[int, ...]] = {}  # else the most played (choose)
        self.square = False
        self.scale = scale
        self.fields: list[tuple[str, int, FieldItems]] = []  # (panel kind, player, items)
        self.dynamic: dynamics.Dynamic | None = None  # the run's, None: no field to draw
        self.predictive = False
        self.field_on = False
        self.field_step: float | None = None
        self._columns: Mapping[Column, np.ndarray] = {}
        self._field_key: object = None
        self._paths_at = 0.0
        self._field_pending = False

    def set_scale(self, scale: float) -> None:
        self.scale = scale
        if self.game is not None:
            self.set_game(self.game, self.equilibrium, keep_faces=True)

    def face(self, player: int) -> tuple[int, ...]:
        """The actions drawn for ``player``: all of them when 3 or fewer, else the face chosen,
        or where none is, the run's three most played (:func:`~rmviz.present.simplex.face`)."""
        assert self.game is not None
        return face(self.game.num_actions[player], self.faces.get(player) or self.played.get(player))

    def _followed(self) -> list[int]:
        """The players drawn whose face follows the run: more than three actions, no face chosen."""
        assert self.game is not None
        actions = self.game.num_actions
        return [
            i for i in range(min(self.game.n_players, MAX_PLAYERS)) if actions[i] > 3 and i not in self.faces
        ]

    def chosen_from(self) -> list[Column]:
        """The columns :meth:`choose` reads: each followed player's average strategy."""
        if self.game is None:
            return []
        return [c for i in self._followed() for c in average_columns(i, self.game.num_actions[i])]

    def choose(self, columns: Mapping[Column, np.ndarray]) -> None:
        """Of each player of more than three actions without a face chosen, draw the face of
        the three actions most played at the trace's last point (``columns``: the newest
        point of :meth:`chosen_from`'s will do), as the figures do: named anew in place, and
        ``face_followed`` fired, when that changes. Call before :meth:`columns`."""
        if self.game is None:
            return
        actions = self.game.num_actions
        followed = self._followed()
        averages = last_averages(columns, actions) if followed else []
        played = {i: face(actions[i], None, averages[i]) for i in followed}
        if played != self.played:
            self.played = played
            self._refaced()
            self.face_followed.emit(dict(played))

    def set_face(self, player: int, actions: tuple[int, int, int]) -> None:
        """Draw ``player``'s strategy on the face of these three actions (redraw afterwards)."""
        assert self.game is not None and len(set(actions)) == 3
        self.faces[player] = tuple(actions)  # type: ignore[assignment]
        self._refaced()

    def _refaced(self) -> None:
        """The faces drawn changed: their titles and corners named again and the stars moved,
        in place (a 200-action player's followed face changed at most redraws early in a run,
        and rebuilding the panels cost ~150 ms); the paths move at the next redraw."""
        assert self.game is not None
        for player, (plot, corners) in self.corners.items():
            set_title(
                plot, face_title(self.game, player, self.face(player), " "), self.scale, player_colour(player)
            )
            for text, action in zip(corners, self.face(player), strict=True):
                text.setText(shown_names(self.game.action_names[player])[action])
            fit_face(plot.vb, corners, NAME_CLEAR * self.scale)
        self.set_equilibrium(self.equilibrium)

    def set_game(
        self,
        game: NormalFormGame,
        equilibrium: tuple[tuple[float, ...], ...] | None = None,
        keep_faces: bool = False,
    ) -> None:
        """Rebuild the panels for ``game`` (``equilibrium``: one profile, starred)."""
        self.clear()
        self.paths, self.stars, self.rings, self.fields = [], [], [], []
        self.corners = {}
        self._field_key = None
        self.game = game
        if not keep_faces:
            self.faces, self.played = {}, {}
        self.square, players = simplex_panels(game.num_actions)
        if self.square:
            self._square(game)
        else:
            for i in players:
                self._panel(game, i)
        self.set_equilibrium(equilibrium)
        # the start drawn is kept when it is one of this game's profiles (a rebuild for a new
        # scale or face); else the rings wait for the run's start
        fits = len(self.start) == game.n_players and all(
            len(self.start.get(i, ())) == k for i, k in enumerate(game.num_actions)
        )
        self.set_start(self.start if fits else {})

    def restart(self, game: NormalFormGame) -> None:
        """A fresh run on ``game``, whose players and actions are those drawn: the paths are
        emptied, nothing is rebuilt (the star is the window's, :meth:`set_equilibrium`)."""
        self.game = game
        empty = np.empty(0)
        for _kind, _player, current, average in self.paths:
            current.setData(empty, empty)
            average.setData(empty, empty)

    def set_equilibrium(self, equilibrium: tuple[tuple[float, ...], ...] | None) -> None:
        """Star ``equilibrium`` (one mixed strategy per player), or no star when None."""
        self.equilibrium = equilibrium
        for kind, player, star in self.stars:
            if equilibrium is None:
                star.setData([], [])
            elif kind == "square":
                star.setData([equilibrium[0][0]], [equilibrium[1][0]])
            else:
                star.setData(*self._point(kind, player, equilibrium[player]).T)

    def star_points(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The stars' coordinates, one ``(x, y)`` per panel (empty arrays: none drawn)."""
        points = [star.getData() for _, _, star in self.stars]
        return [(np.empty(0), np.empty(0)) if x is None else (x, y) for x, y in points]

    def set_start(self, start: Mapping[int, np.ndarray]) -> None:
        """Put the starting rings at ``start`` (``{player: strategy}``, every player)."""
        self.start = start
        for kind, player, ring in self.rings:
            if player not in start:
                ring.hide()
                continue
            ring.show()
            if kind == "square":
                ring.setPos(float(start[0][0]), float(start[1][0]))
            else:
                point = self._point(kind, player, start[player])
                if point.size:
                    ring.setPos(*point[0])

    def _point(self, kind: str, player: int, strategy: np.ndarray | tuple[float, ...]) -> np.ndarray:
        """``strategy`` on ``player``'s panel as one plane point, or none (a face it puts no
        mass on)."""
        point = project(PANEL_SIZES[kind], np.array([strategy])[:, list(self.face(player))])
        return point if np.isfinite(point).all() else np.empty((0, 2))

    def _star(self, plot: pg.PlotItem, kind: str, player: int) -> None:
        star = plot.plot(pen=None, symbol="star", symbolSize=16 * self.scale, symbolBrush=EQUILIBRIUM_COLOUR)
        self.stars.append((kind, player, star))

    def _ring(self, plot: pg.PlotItem, kind: str, player: int) -> None:
        """A ring at the player's starting strategy; dropped elsewhere, it asks for that start
        (panels of a face of more actions show none: a point there is not a strategy)."""
        if self.game is None or (kind != "square" and self.game.num_actions[player] > 3) or kind == "point":
            return
        colour = player_colour(player)
        ring = pg.TargetItem(
            size=13 * self.scale,
            symbol="o",
            pen=pg.mkPen(colour, width=2 * self.scale),
            hoverPen=pg.mkPen("#111111", width=2.5 * self.scale),
            brush=(255, 255, 255, 160),
            hoverBrush=(255, 255, 255, 220),
        )
        ring.setToolTip("the starting strategy: drag it to start from another")
        ring.setZValue(10)
        ring.sigPositionChangeFinished.connect(lambda item, k=kind, p=player: self._dropped(k, p, item))
        plot.addItem(ring)
        self.rings.append((kind, player, ring))

    def _dropped(self, kind: str, player: int, ring: pg.TargetItem) -> None:
        position = ring.pos()
        x, y = float(position.x()), float(position.y())
        if kind == "square":
            chosen = dict(enumerate(unproject_square((x, y))))
        else:
            chosen = {player: unproject(PANEL_SIZES[kind], (x, y))}
        self.start_dragged.emit(chosen)

    def _square(self, game: NormalFormGame) -> None:
        plot = self.addPlot()
        style_plot(
            plot,
            f"P({game.player_names[0]}: {shown_names(game.action_names[0])[0]}) across, "
            f"P({game.player_names[1]}: {shown_names(game.action_names[1])[0]}) up",
            self.scale,
        )
        plot.setAspectLocked(True)
        plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.05)
        # the aspect is locked: a wide panel showed the x axis from -1.5 to 2.5, probabilities
        # that do not exist, and grid lines across them. Ticks on the square only, no grid
        ticks = [[(t, f"{t:g}") for t in PROBABILITY_TICKS], []]
        for side in ("bottom", "left"):
            plot.getAxis(side).setTicks(ticks)
        plot.showGrid(x=False, y=False)
        plot.plot([0, 1, 1, 0, 0], [0, 0, 1, 1, 0], pen=pg.mkPen(FRAME_COLOUR, width=self.scale))
        self.fields.append(("square", 0, FieldItems(plot, self.scale)))
        current = current_trail(plot, self.scale)
        average = FadingPath(plot, player_colour(0), PATH_WIDTH * self.scale)
        self.paths.append(("square", 0, current, average))
        self._star(plot, "square", 0)
        self._ring(plot, "square", 0)

    def _panel(self, game: NormalFormGame, player: int) -> None:
        face = self.face(player)
        actions = [shown_names(game.action_names[player])[a] for a in face]
        plot = self.addPlot()
        # in the player's colour, as the figures' (and the path's): in the text's grey, "Row"
        # over the top corner's "Scissors" read as one label
        style_plot(plot, face_title(game, player, face, " "), self.scale, player_colour(player))
        plot.setAspectLocked(True)
        plot.hideAxis("left")
        plot.hideAxis("bottom")
        if len(actions) == 1:
            label = self._label(f"{actions[0]} (the only action)", (0.5, -0.3))
            plot.addItem(label)
            label.setPos(0.5, 0)
            kind = "point"
        else:
            places = face_corners(len(actions))
            outline = np.vstack([places, places[:1]]) if len(actions) == 3 else places
            frame = (1.5 if len(actions) == 3 else 2.0) * self.scale
            plot.plot(outline[:, 0], outline[:, 1], pen=pg.mkPen(FRAME_COLOUR, width=frame))
            names = []
            for label, (dx, dy) in zip(actions, CORNER_NAME_SIDES, strict=False):
                names.append(self._label(label, ((1 - dx) / 2, (1 + dy) / 2)))  # placed by fit_face
                plot.addItem(names[-1])
            if game.num_actions[player] > 3:
                self.corners[player] = (plot, names)
            clear = NAME_CLEAR * self.scale
            plot.vb.sigResized.connect(lambda view, names=names: fit_face(view, names, clear))
            fit_face(plot.vb, names, clear)
            kind = "segment" if len(actions) == 2 else "triangle"
            if game.num_actions[player] == 3:
                self.fields.append((kind, player, FieldItems(plot, self.scale)))
        current = current_trail(plot, self.scale)
        average = FadingPath(plot, player_colour(player), PATH_WIDTH * self.scale)
        self.paths.append((kind, player, current, average))
        self._star(plot, kind, player)
        self._ring(plot, kind, player)

    def _label(self, text: str, anchor: tuple[float, float]) -> pg.TextItem:
        from PySide6.QtGui import QFont

        item = pg.TextItem(text, anchor=anchor, color="#333333")
        item.textItem.document().setDocumentMargin(0)  # its corner's clearance is NAME_CLEAR
        font = QFont()
        font.setPointSizeF(9 * self.scale)
        item.setFont(font)
        return item

    def update_from(
        self, columns: Mapping[Column, np.ndarray], drawn: slice | np.ndarray = slice(None)
    ) -> None:
        """Redraw the paths from the trace's columns (those of :meth:`columns`); of the average
        paths, the points at ``drawn`` (the current strategies' trail is short)."""
        if self.game is None:
            return
        self._columns = columns
        self._draw_field()
        for kind, player, current, average in self.paths:
            if kind == "square":
                for curve, quantity, keep in (
                    (current, "current", CURRENT_TRAIL),
                    (average, "average", None),
                ):
                    x = columns.get(Column(quantity, player=0, action=0))
                    y = columns.get(Column(quantity, player=1, action=0))
                    if x is None or y is None:
                        continue
                    if keep:
                        curve.setData(x[-keep:], y[-keep:])
                    else:
                        curve.setData(x, y, drawn)
                continue
            for curve, quantity, keep in ((current, "current", CURRENT_TRAIL), (average, "average", None)):
                parts = [columns.get(Column(quantity, player=player, action=a)) for a in self.face(player)]
                if any(part is None for part in parts):
                    continue
                points = project(PANEL_SIZES[kind], np.column_stack(parts))
                if keep:
                    curve.setData(points[-keep:, 0], points[-keep:, 1])
                else:
                    curve.setData(points[:, 0], points[:, 1], drawn)

    def columns(self) -> tuple[Column, ...]:
        """The trace columns the paths are drawn from (with the field on, every player's
        whole strategy too, up to :data:`MAX_FIELD_ACTIONS` actions in all)."""
        if self.game is None:
            return ()
        drawn = tuple(
            Column(quantity, player=i, action=a)
            for i in range(min(self.game.n_players, MAX_PLAYERS))
            for a in self.face(i)
            for quantity in ("average", "current")
        )
        drawn = tuple(dict.fromkeys(drawn))
        if not (self.field_on and self.fields) or sum(self.game.num_actions) > MAX_FIELD_ACTIONS:
            return drawn
        everyone = tuple(
            Column(quantity, player=i, action=a)
            for i, k in enumerate(self.game.num_actions)
            for a in range(k)
            for quantity in ("average", "current")
        )
        return tuple(dict.fromkeys(drawn + everyone))

    # -- the field of the run's dynamic ---------------------------------------------------------
    def set_dynamic(self, dynamic: dynamics.Dynamic | None, predictive: bool = False) -> None:
        """The run's dynamic (:func:`rmviz.present.dynamics.dynamic_of`; None: none to draw) and
        whether its steps are optimistic."""
        self.dynamic, self.predictive = dynamic, predictive
        self._field_key = None
        self._draw_field()

    def show_field(self, on: bool) -> None:
        """Draw the field under the paths, or not (the window then asks for :meth:`columns`)."""
        self.field_on = on
        self._field_key = None
        self._draw_field()

    def set_field_step(self, step: float | None) -> None:
        """From the newest point, the flow beside the algorithm's steps of size ``step``
        (None: neither)."""
        self.field_step = step
        self._field_key = None
        self._draw_field()

    def field_tooltip(self) -> str:
        """What the field shows, for the view's check box."""
        if self.dynamic is None:
            return "no continuous-time dynamic is drawn for this algorithm (internal regret matching)"
        if not self.fields:
            return (
                f"{self.dynamic.describe()}: drawn for a 2x2 game's square and for players with "
                "three actions only"
            )
        game = self.game
        against = ""
        if game is not None and not self.square:
            against = (
                " A symmetric game: one population, each strategy against itself."
                if dynamics.is_symmetric(game.payoffs)
                else f" Each player's field is drawn against the others' {self.dynamic.strategy} "
                "strategies, redrawn as the run goes."
            )
        return (
            f"Arrows: {self.dynamic.describe()}.{against} Drawn for the 2x2 square and for players "
            "with three actions."
        )

    def _newest(self) -> list[np.ndarray] | None:
        """Every player's newest strategy of the kind the dynamic describes, or None."""
        assert self.game is not None and self.dynamic is not None
        strategies = []
        for i, k in enumerate(self.game.num_actions):
            parts = [self._columns.get(Column(self.dynamic.strategy, player=i, action=a)) for a in range(k)]
            if any(part is None or not len(part) for part in parts):
                return None
            strategies.append(np.array([float(part[-1]) for part in parts]))  # type: ignore[index]
        return strategies

    def _draw_field(self) -> None:
        if not self.fields:
            return
        if not self.field_on or self.dynamic is None or self.game is None:
            if self._field_key != "off":
                for _kind, _player, items in self.fields:
                    items.set_field(None)
                self._field_key = "off"
            return
        strategies = self._newest()
        step = self.field_step
        key = (None if strategies is None else tuple(np.round(np.concatenate(strategies), 4)), step)
        if key == self._field_key:
            return
        now = time.monotonic()
        last = self._field_key
        moving = isinstance(last, tuple) and last[0] is not None and last[1] == step
        if step is not None and moving and now - self._paths_at < PATHS_EVERY:
            if not self._field_pending:  # the paths cost up to ~50 ms: twice a second at most
                self._field_pending = True
                QTimer.singleShot(int(PATHS_EVERY * 1000), self, self._deferred_field)
            return
        self._field_key, self._paths_at = key, now
        payoffs = self.game.payoffs
        for kind, player, items in self.fields:
            if kind == "square":
                at = None if strategies is None else (float(strategies[0][0]), float(strategies[1][0]))
                field = dynamics.square_panel(payoffs, self.dynamic, at, step, self.predictive)
            else:
                field = dynamics.simplex_panel(
                    payoffs, player, self.dynamic, strategies, step, self.predictive
                )
            items.set_field(field)

    def _deferred_field(self) -> None:
        self._field_pending = False
        self._draw_field()

    def arrow_count(self) -> int:
        """The arrows drawn on every panel."""
        return sum(items.arrow_count() for _kind, _player, items in self.fields)
