"""The matrix window's *Run* tab: simplex trajectories and the joint distribution above,
convergence plots below.

For players with more than three actions a selector above the simplex chooses the face
drawn (:meth:`~rmviz.ui.matrix.simplex.SimplexView.set_face`). Above it, *Dynamics* draws the
field of the run's continuous-time dynamic under the paths and its step slider the
algorithm's steps beside the flow (:class:`FieldControls`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from rmviz.games.normal_form import NormalFormGame
from rmviz.present.definitions import shown_names
from rmviz.present.dynamics import STEP_CHOICES
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import Column
from rmviz.ui.common.plot_layout import live_points
from rmviz.ui.matrix.joint import JointView
from rmviz.ui.matrix.plots import MAX_STRATEGY_PLOTS, ConvergencePlots
from rmviz.ui.matrix.simplex import SimplexView


class Dashboard(QSplitter):
    """``simplex``, ``joint`` and ``plots`` of one run; ``face_changed`` fires when a
    simplex face is chosen (the paths need a redraw)."""

    face_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.simplex = SimplexView()
        self.simplex.face_followed.connect(self._show_followed)
        self.joint = JointView()
        self.faces = QWidget()
        self.face_combos: dict[int, FaceSelector] = {}  # player -> the selector of its face
        self.faces.setLayout(QHBoxLayout())
        self.faces.layout().setContentsMargins(0, 0, 0, 0)
        top = QSplitter()
        simplex_box = QWidget()
        simplex_layout = QVBoxLayout(simplex_box)
        simplex_layout.setContentsMargins(0, 0, 0, 0)
        self.unseen = QLabel()  # players past the third: said, as they are not drawn
        self.unseen.setWordWrap(True)
        self.unseen.setStyleSheet("color: #616161")
        simplex_layout.addWidget(self.unseen)
        self.field = FieldControls(self.simplex)
        self.field.changed.connect(self.face_changed)  # the view needs more columns: a redraw
        simplex_layout.addWidget(self.field)
        simplex_layout.addWidget(self.faces)
        simplex_layout.addWidget(self.simplex, stretch=1)
        top.addWidget(simplex_box)
        top.addWidget(self.joint)
        top.setSizes([640, 300])
        self.plots = ConvergencePlots()
        self.addWidget(top)
        self.addWidget(self.plots)
        self._drawn: tuple[object, ...] | None = None  # what the views show of the game
        self._segments: bool | None = None  # whether the strategies are drawn as segments

    def set_scale(self, scale: float) -> None:
        for view in (self.plots, self.simplex, self.joint):
            view.set_scale(scale)

    def set_game(self, game: NormalFormGame) -> None:
        """Show a fresh run on ``game`` (the window stars its equilibrium with
        ``simplex.set_equilibrium``). The views are rebuilt only when what they draw changes
        (players, actions, names, the zero-sum flag): an edit of payoffs empties the curves,
        which takes a few milliseconds where a rebuild takes half a second
        (tests/benchmarks/edit_latency.py)."""
        drawn = _drawn(game)
        if drawn == self._drawn:
            self.plots.restart(game)
            self.simplex.restart(game)
            self.joint.restart(game)
            return
        self._drawn = drawn
        self.plots.set_game(game)
        self.simplex.set_game(game)
        self.joint.set_game(game)
        self.joint.setVisible(game.n_players == 2)  # the joint of more players is not drawn
        self._face_selectors(game)
        self.unseen.setText(unseen_players(game))
        self.unseen.setVisible(bool(self.unseen.text()))
        # the strategy views' share of the height: segments need less than triangles; set
        # when the kind of view changes, so a split the person dragged outlives other edits
        segments = not self.simplex.square and max(game.num_actions[:3]) <= 2
        if segments != self._segments:
            self._segments = segments
            total = sum(self.sizes()) or 800
            self.setSizes(
                [total // 5, total - total // 5] if segments else [total * 7 // 20, total * 13 // 20]
            )

    def chosen_from(self) -> list[Column]:
        """The columns :meth:`choose` reads."""
        return list(dict.fromkeys(self.plots.chosen_from() + self.simplex.chosen_from()))

    def choose(self, newest: TraceData) -> None:
        """Which actions the plots and the simplex draw of a big game's players, from the
        trace's newest point (of :meth:`chosen_from`'s columns); before :meth:`columns`."""
        self.plots.choose(newest)
        self.simplex.choose(newest.columns)

    def columns(self) -> tuple[Column, ...]:
        """The trace columns the views draw."""
        return tuple(dict.fromkeys(self.plots.columns() + self.simplex.columns()))

    def drawing(
        self,
        iterations: np.ndarray,
        columns: Mapping[Column, np.ndarray],
        joint: np.ndarray | None,
        row: int | None,
        thin: bool,
    ) -> Iterator[None]:
        """Draw the trace (of the plots, ``row``: :meth:`ConvergencePlots.next_row`; None, all
        of them, as after the plots were rebuilt) and the newest joint distribution: a
        generator that yields after each plot and view (:meth:`ConvergencePlots.drawing`).
        ``thin``: the points thinned evenly over log T (the live window)."""
        yield from self.plots.drawing(iterations, columns, row, thin)
        self.simplex.update_from(columns, live_points(iterations) if thin else slice(None))
        yield
        self.joint.update_from(joint)

    def _face_selectors(self, game: NormalFormGame) -> None:
        """For players with more than 3 actions, choose the face of the simplex drawn."""
        layout = self.faces.layout()
        while layout.count():
            layout.takeAt(0).widget().deleteLater()
        self.face_combos = {}
        for player in range(min(game.n_players, 3)):
            if game.num_actions[player] <= 3:
                continue
            selector = FaceSelector(game.player_names[player], game.action_names[player])
            selector.chosen.connect(lambda face, p=player: self._set_face(p, face))
            layout.addWidget(selector)
            self.face_combos[player] = selector
        self.faces.setVisible(layout.count() > 0)

    def _show_followed(self, faces: Mapping[int, tuple[int, ...]]) -> None:
        """Show the faces the simplex follows (a player's most played) in the selectors,
        without choosing them: a face the person picks stays."""
        for player, face in faces.items():
            selector = self.face_combos.get(player)
            if selector is not None:
                selector.show_face(face)
        self.face_changed.emit()  # the face's columns: a redraw

    def set_faces(self, faces: Mapping[int, tuple[int, int, int]]) -> None:
        """Choose these faces (a session's) in the selectors, which draw them; a face the
        selectors do not offer (a player with three actions or fewer, an action the game
        does not have) is left out."""
        for player, face in faces.items():
            selector = self.face_combos.get(player)
            if selector is not None and selector.offers(face):
                selector.set_face(face)

    def _set_face(self, player: int, face: tuple[int, int, int]) -> None:
        self.simplex.set_face(player, tuple(face))  # type: ignore[arg-type]
        self.face_changed.emit()


class FieldControls(QWidget):
    """*Dynamics*: the field of the run's continuous-time dynamic under the simplex's paths,
    and a step-size slider (leftmost: off) that draws, from the newest point, the algorithm's
    steps of that size beside the flow over the same time. ``changed`` fires on either."""

    changed = Signal()

    def __init__(self, simplex: SimplexView) -> None:
        super().__init__()
        self.simplex = simplex
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.check = QCheckBox("Dynamics")
        self.check.toggled.connect(self._toggled)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, len(STEP_CHOICES))
        self.slider.setMaximumWidth(160)
        self.slider.setToolTip(
            "step size eta (per unit of payoff range) of the algorithm's steps drawn from the newest "
            "point beside the flow: small steps follow it, large ones depart (leftmost: none)"
        )
        self.slider.valueChanged.connect(self._stepped)
        self.step_label = QLabel()
        self.step_label.setMinimumWidth(110)
        layout.addWidget(self.check)
        layout.addWidget(self.slider)
        layout.addWidget(self.step_label)
        layout.addStretch(1)
        self._stepped(0)
        self.refresh()

    def step(self) -> float | None:
        value = self.slider.value()
        return STEP_CHOICES[value - 1] if value > 0 else None

    def set_state(self, on: bool, step: float | None) -> None:
        """Show the field (``on``) with the steps of size ``step`` (the nearest choice; None: none)."""
        index = 0 if step is None else 1 + int(np.argmin([abs(np.log(c / step)) for c in STEP_CHOICES]))
        self.slider.setValue(index)
        self.check.setChecked(on)

    def refresh(self) -> None:
        """The check box's tooltip for the run's dynamic; disabled without one."""
        drawable = self.simplex.dynamic is not None and bool(self.simplex.fields)
        self.check.setToolTip(self.simplex.field_tooltip())
        self.check.setEnabled(drawable)
        self.slider.setEnabled(drawable and self.check.isChecked())

    def _toggled(self, on: bool) -> None:
        self.simplex.show_field(on)
        self.refresh()
        self.changed.emit()

    def _stepped(self, _value: int) -> None:
        step = self.step()
        self.step_label.setText("steps: none" if step is None else f"steps: eta = {step:g}")
        self.simplex.set_field_step(step)
        self.changed.emit()


CHOOSER_CHARS = 6  # the fewest characters of an action a face chooser shows


class FaceSelector(QWidget):
    """The face of a player's simplex drawn: three actions, one per corner, each chosen from
    all the player's actions (a list of every triple stopped at the tenth action: a 30x30
    game could not show the actions its equilibrium plays). Choosing an action another
    corner shows swaps the two, so the three always differ. ``chosen`` fires with the face."""

    chosen = Signal(object)

    def __init__(self, player: str, actions: tuple[str, ...]) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(f"{player}:"))
        self.corners = []
        for corner in range(3):
            combo = QComboBox()
            # as wide as the row gives it (a name's whole width made a window of 6 choosers
            # of 30-character names 2,053 pixels wide at --size 1280x720), CHOOSER_CHARS at least
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(CHOOSER_CHARS)
            for a, (name, whole) in enumerate(zip(shown_names(actions), actions, strict=True)):
                combo.addItem(name, a)
                combo.setItemData(a, whole, Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(corner)
            combo.setToolTip(f"the action at corner {corner + 1} of {player}'s triangle")
            combo.currentIndexChanged.connect(lambda index, c=corner: self._picked(c, index))
            layout.addWidget(combo)
            self.corners.append(combo)
        self._face = (0, 1, 2)

    def face(self) -> tuple[int, int, int]:
        return self._face

    def offers(self, face: tuple[int, ...]) -> bool:
        count = self.corners[0].count()
        return len(face) == 3 and len(set(face)) == 3 and all(0 <= a < count for a in face)

    def set_face(self, face: tuple[int, ...]) -> None:
        """Show ``face`` (three different actions) and fire ``chosen``."""
        self.show_face(face)
        self.chosen.emit(self._face)

    def show_face(self, face: tuple[int, ...]) -> None:
        """Show ``face`` (three different actions), choosing nothing."""
        for combo, action in zip(self.corners, face, strict=True):
            blocked = combo.blockSignals(True)
            combo.setCurrentIndex(action)
            combo.blockSignals(blocked)
        self._face = tuple(int(a) for a in face)  # type: ignore[assignment]

    def _picked(self, corner: int, action: int) -> None:
        face = list(self._face)
        if action in face:  # shown at another corner: the two swap
            face[face.index(action)] = face[corner]
        face[corner] = action
        self.set_face(tuple(face))


def unseen_players(game: NormalFormGame) -> str:
    """What the dashboard says of the players it does not draw (the simplices and strategy
    plots show the first :data:`~rmviz.ui.matrix.plots.MAX_STRATEGY_PLOTS`): empty when it
    draws every player."""
    hidden = game.player_names[MAX_STRATEGY_PLOTS:]
    if not hidden:
        return ""
    names = ", ".join(hidden)
    return (
        f"Drawn: the first {MAX_STRATEGY_PLOTS} of {game.n_players} players. Not drawn: {names} "
        "(their payoffs are in the table, their strategies in File > Export Run Data)."
    )


def _drawn(game: NormalFormGame) -> tuple[object, ...]:
    """What the dashboard's views draw of ``game`` besides the run: names, actions and
    whether the gap plot shows exploitability alone (two-player zero-sum games)."""
    return (game.player_names, game.action_names, game.n_players == 2 and game.is_zero_sum())
