"""Figures of a matrix-game run, the same in the app's Export dialog and ``rmviz export``.

A figure is a fresh top-level widget (one of the views of the window, or the whole
dashboard) drawn from a trace (its :class:`~rmviz.solvers.columns.Column` table) and the
newest joint distribution, so an exported figure is laid out at the size asked for,
independent of the window's size, and looks like the app.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PySide6.QtWidgets import QApplication, QGridLayout, QWidget

from rmviz.games.normal_form import NormalFormGame
from rmviz.runner.record import FIGURES, PANELS
from rmviz.solvers.columns import Column
from rmviz.ui.common.export import export_widget
from rmviz.ui.common.style import configure_pyqtgraph
from rmviz.ui.matrix.joint import JointView
from rmviz.ui.matrix.plots import ConvergencePlots
from rmviz.ui.matrix.simplex import SimplexView

DEFAULT_SIZES = {"dashboard": (1600, 1000), "simplex": (1200, 500), "joint": (600, 500)}


@dataclass(frozen=True)
class RunData:
    """What a figure shows: the game, its known equilibrium, the trace (kept iterations and
    the values of each column) and the joint distribution."""

    game: NormalFormGame
    equilibrium: tuple[tuple[float, ...], ...] | None
    iterations: np.ndarray
    columns: Mapping[Column, np.ndarray]
    joint: np.ndarray | None
    faces: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # simplex faces (> 3 actions)


def figure_widget(figure: str, data: RunData, scale: float = 1.0) -> QWidget:
    """A top-level widget showing ``figure`` (one of :data:`FIGURES`) for ``data``."""
    if figure not in FIGURES:
        raise ValueError(f"unknown figure {figure!r}; choose one of {', '.join(FIGURES)}")
    if figure == "dashboard":
        widget = QWidget()
        widget.setStyleSheet("background: white")
        grid = QGridLayout(widget)
        grid.addWidget(_simplex(data, scale), 0, 0)
        grid.addWidget(_joint(data, scale), 0, 1)
        grid.addWidget(_plots(PANELS, data, scale), 1, 0, 1, 2)
        grid.setRowStretch(0, 2)
        grid.setRowStretch(1, 3)
        grid.setColumnStretch(0, 3)
        grid.setColumnStretch(1, 1)
    elif figure == "simplex":
        widget = _simplex(data, scale)
    elif figure == "joint":
        widget = _joint(data, scale)
    else:
        widget = _plots((figure,), data, scale)
    widget.setWindowTitle(f"{data.game.title}: {figure}")
    return widget


def _plots(panels: tuple[str, ...], data: RunData, scale: float) -> ConvergencePlots:
    plots = ConvergencePlots(panels=panels, scale=scale)
    plots.set_game(data.game)
    plots.update_from(data.iterations, data.columns)
    return plots


def _simplex(data: RunData, scale: float) -> SimplexView:
    simplex = SimplexView(scale=scale)
    simplex.set_game(data.game, data.equilibrium)
    for player, face in data.faces.items():
        simplex.set_face(player, face)
    simplex.update_from(data.columns)
    return simplex


def _joint(data: RunData, scale: float) -> JointView:
    joint = JointView(scale=scale)
    joint.set_game(data.game)
    joint.update_from(data.joint)
    return joint


def render_figure(
    figure: str,
    data: RunData,
    path: str | Path,
    size: tuple[int, int] | None = None,
    dpi: int = 96,
    scale: float = 1.0,
) -> Path:
    """Write ``figure`` for ``data`` to ``path`` without a window (``rmviz export``); starts an
    offscreen Qt application when none is running."""
    if QApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        QApplication([])
    configure_pyqtgraph()
    widget = figure_widget(figure, data, scale)
    try:
        return export_widget(widget, path, size or DEFAULT_SIZES.get(figure, (900, 600)), dpi)
    finally:
        widget.close()
        widget.deleteLater()
