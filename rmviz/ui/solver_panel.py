"""The solver panel: algorithm preset and its parameters, play mode, update schedule, seed,
device, metric cadence and speed.

Parameters show only where the preset uses them: alpha, beta, gamma for discounted RM
(Brown & Sandholm 2019), the weight floor for greedy weights (Zhang, Lerer & Brown 2022) and
the inertia for internal RM in sampled play. A blank parameter means the preset's default;
an entry that is not a number, or that the configuration refuses, is shown in red with the
reason and the run keeps its last valid configuration.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget

from rmviz.errors import RmvizError
from rmviz.solvers.backend import gpu_available, gpu_name
from rmviz.solvers.matrix.config import PLAY_MODES, PRESETS, SCHEDULES, preset

# parameter -> (label, placeholder shown when blank, applies to the preset's config?)
PARAMETERS = {
    "alpha": ("alpha", "1.5", lambda c: c.weighting == "discounted"),
    "beta": ("beta", "0", lambda c: c.weighting == "discounted"),
    "gamma": ("gamma", "2", lambda c: c.weighting == "discounted"),
    "greedy_floor": ("weight floor", "paper's default", lambda c: c.weighting == "greedy"),
    "inertia": ("inertia", "0.1 x payoff range", lambda c: getattr(c, "regret", None) == "internal"),
}
CADENCES = {"coarse (50 per decade)": 50, "normal (200 per decade)": 200, "fine (1000 per decade)": 1000}
SPEEDS = {"full speed": None, **{f"{v:,} it/s": float(v) for v in (100_000, 10_000, 1_000, 100, 10, 1)}}


ROWS = ("play", "updates", "seed", "device", "cadence", "speed")


class SolverPanel(QWidget):
    """Choices that define a run; ``changed`` fires when the configuration changes, and
    ``speed_changed`` when only the speed does (the run goes on).

    ``presets`` and ``make`` are the algorithms and the function that builds a validated
    config from a preset name and overrides (:func:`~rmviz.solvers.matrix.config.preset` for
    matrix games, :func:`~rmviz.solvers.tree.config.preset` for trees); ``rows`` are the
    choices shown besides the algorithm and its parameters.
    """

    changed = Signal()
    speed_changed = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        presets: dict[str, tuple[str, dict[str, Any]]] = PRESETS,
        make: Callable[..., Any] = preset,
        rows: tuple[str, ...] = ROWS,
    ) -> None:
        super().__init__(parent)
        self.presets, self.make, self.rows = presets, make, rows
        layout = QFormLayout(self)
        self.algorithm = QComboBox()
        for name, (description, _) in presets.items():
            self.algorithm.addItem(name, name)
            self.algorithm.setItemData(self.algorithm.count() - 1, description, 3)  # tooltip role
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.play = QComboBox()
        self.play.addItems(PLAY_MODES)
        self.updates = QComboBox()
        self.updates.addItems(SCHEDULES)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.device = QComboBox()
        self.device.addItem("CPU", "cpu")
        if gpu_available():
            self.device.addItem(f"GPU ({gpu_name()})", "gpu")
        self.cadence = QComboBox()
        for label, points in CADENCES.items():
            self.cadence.addItem(label, points)
        self.cadence.setCurrentIndex(1)
        self.cadence.setToolTip("metric points recorded per factor of ten in iterations")
        self.speed = QComboBox()
        for label, speed in SPEEDS.items():
            self.speed.addItem(label, speed)
        self.parameters: dict[str, QLineEdit] = {}
        layout.addRow("Algorithm", self.algorithm)
        layout.addRow("", self.description)
        for name, (label, placeholder, _) in PARAMETERS.items():
            edit = QLineEdit()
            edit.setPlaceholderText(placeholder)
            edit.editingFinished.connect(self._changed)
            self.parameters[name] = edit
            layout.addRow(label, edit)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #c62828")
        self.problem.setWordWrap(True)
        layout.addRow("", self.problem)
        for row, label, widget in (
            ("play", "Play", self.play),
            ("updates", "Updates", self.updates),
            ("seed", "Seed", self.seed),
            ("device", "Device", self.device),
            ("cadence", "Metrics", self.cadence),
            ("speed", "Speed", self.speed),
        ):
            if row in rows:
                layout.addRow(label, widget)
            else:
                widget.hide()
        self._layout = layout
        self.algorithm.currentIndexChanged.connect(self._algorithm_changed)
        for combo in (self.play, self.updates, self.device, self.cadence):
            combo.currentIndexChanged.connect(self._changed)
        self.seed.valueChanged.connect(self._changed)
        self.speed.currentIndexChanged.connect(self.speed_changed)
        self._last_good = make(next(iter(presets)))
        self._algorithm_changed()

    def _algorithm_changed(self) -> None:
        """Show the preset's description and parameters, and its update schedule: locked
        where the algorithm needs one (greedy weights: simultaneous; external sampling:
        alternating)."""
        name = self.algorithm.currentData()
        self.description.setText(self.presets[name][0])
        base = self.make(name)
        for parameter, (_, _, applies) in PARAMETERS.items():
            self._layout.setRowVisible(self.parameters[parameter], applies(base))
        locked = base.weighting == "greedy" or getattr(base, "sampling", None) == "external"
        self.updates.blockSignals(True)
        self.updates.setCurrentText(base.updates)  # the preset's schedule (CFR+ alternates)
        self.updates.blockSignals(False)
        self.updates.setEnabled(not locked)
        self._changed()

    def _changed(self) -> None:
        try:
            self._last_good = self._config()
            self.problem.setText("")
        except RmvizError as error:
            self.problem.setText(str(error))
            return
        finally:
            self._layout.setRowVisible(self.problem, bool(self.problem.text()))
        self.changed.emit()

    def _config(self) -> Any:
        name = self.algorithm.currentData()
        values: dict[str, Any] = {}
        base = self.make(name)
        for parameter, (label, _, applies) in PARAMETERS.items():
            text = self.parameters[parameter].text().strip()
            if not text or not applies(base):
                continue
            try:
                value = float(text)
            except ValueError:
                raise RmvizError(f"{label}: {text!r} is not a number") from None
            if not math.isfinite(value):
                raise RmvizError(f"{label} must be a finite number")
            values[parameter] = value
        for row, value in (
            ("play", self.play.currentText()),
            ("updates", self.updates.currentText()),
            ("seed", self.seed.value()),
            ("device", self.device.currentData()),
        ):
            if row in self.rows:
                values[row] = value
        return self.make(name, **values)

    def config(self) -> Any:
        """The configuration chosen (the last valid one while an entry is refused)."""
        return self._last_good

    def points_per_decade(self) -> int:
        return int(self.cadence.currentData())

    def speed_limit(self) -> float | None:
        """Iterations per second, None for as fast as possible."""
        return self.speed.currentData()
