"""The solver panel of one game family: algorithm preset and its parameters, the family's
choices (play mode, update schedule, seed, device), metric cadence and speed.

Everything comes from the :class:`~rmviz.solvers.family.Family`: its presets are the
algorithms, its ``parameters`` the numerical rows (labels from
:data:`~rmviz.solvers.family.PARAMETER_LABELS`), shown only where the chosen preset's config
uses them (``config.parameters()``: alpha, beta, gamma for discounted weights, the weight
floor for greedy weights, the inertia for internal regret matching), and its ``choices`` the
other rows; the update schedule is locked where the preset needs its own
(``config.schedule_locked``). A blank parameter means the preset's default; an entry that is
not a number, or that the configuration refuses, is shown in red with the reason and the run
keeps its last valid configuration.

A window may add rows of its own (:meth:`SolverPanel.add_option`: the matrix window's
starting strategies). :meth:`SolverPanel.set_config` shows a saved configuration (a session
file): the widgets and those rows take its algorithm, parameters and choices; the choices
without a row (the fixed strategies of matrix games) are carried in the panel's config as
they were, until :meth:`SolverPanel.forget_carried` (another game is opened).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QSpinBox, QWidget

from rmviz.errors import RmvizError
from rmviz.solvers.backend import gpu_available, gpu_name
from rmviz.solvers.family import DEVIATIONS, OPTIONAL_CHOICES, PARAMETER_LABELS, PLAY_MODES, SCHEDULES, Family
from rmviz.solvers.protocol import Config

# The family choices the panel sets, with their row labels, in panel order (the starting
# strategies are the matrix window's own row; fixed strategies are set on the command line
# or carried from a session).
CHOICE_LABELS = {
    "play": "Play",
    "updates": "Updates",
    "deviations": "Deviations",
    "seed": "Seed",
    "device": "Device",
    "dtype": "Precision",
}
SHARED_ROWS = {"dtype": "device"}  # in another choice's row: the panel fits a 540-pixel screen
# the payoffs as the solver reads them: single precision halves the memory a large game streams
PRECISIONS = {"float64": "double (float64)", "float32": "single (float32)"}
CADENCES = {"coarse (50 per decade)": 50, "normal (200 per decade)": 200, "fine (1000 per decade)": 1000}
SPEEDS = {"full speed": None, **{f"{v:,} it/s": float(v) for v in (100_000, 10_000, 1_000, 100, 10, 1)}}


class WrappedLabel(QLabel):
    """A word-wrapped label that keeps the height its lines need at its width: a window too
    short for every widget's preferred height shrinks the others, not this text (a plain
    wrapped QLabel may be squeezed to its one-line minimum, its second line cut off)."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._keep_lines()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._keep_lines()

    def _keep_lines(self) -> None:
        self.setMinimumHeight(self.heightForWidth(self.width()) if self.text() else 0)


class SolverPanel(QWidget):
    """The choices that define a run of ``family``; ``changed`` fires when the configuration
    changes, and ``speed_changed`` when only the speed does (the run goes on)."""

    changed = Signal()
    speed_changed = Signal()

    def __init__(self, family: Family, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.family = family
        layout = self._layout = QFormLayout(self)
        self.algorithm = QComboBox()
        for name in family.presets:
            self.algorithm.addItem(name, name)
            tip = family.describe(family.preset(name))
            self.algorithm.setItemData(self.algorithm.count() - 1, tip, 3)  # tooltip role
        self.description = WrappedLabel()
        layout.addRow("Algorithm", self.algorithm)
        layout.addRow(self.description)  # the panel's whole width: fewer lines
        self.parameters: dict[str, QLineEdit] = {}
        for name in family.parameters:
            label, placeholder = PARAMETER_LABELS[name]
            edit = QLineEdit()
            edit.setPlaceholderText(placeholder)
            edit.editingFinished.connect(self._changed)
            self.parameters[name] = edit
            layout.addRow(label, edit)
        self.problem = WrappedLabel()
        self.problem.setStyleSheet("color: #c62828")
        layout.addRow("", self.problem)

        self.play = QComboBox()
        self.play.addItems(PLAY_MODES)
        self.updates = QComboBox()
        self.updates.addItems(SCHEDULES)
        self.deviations = QComboBox()  # EFR's deviation set: shown for the presets that set it
        self.deviations.addItems(DEVIATIONS)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.device = QComboBox()
        self.device.addItem("CPU", "cpu")
        if gpu_available() and self._accepts_gpu():
            self.device.addItem(f"GPU ({gpu_name()})", "gpu")
        self.dtype = QComboBox()
        for dtype, label in PRECISIONS.items():
            self.dtype.addItem(label, dtype)
        self.dtype.setToolTip(
            "the payoffs' precision in the solver: float32 halves the memory each iteration reads"
        )
        self.choices = tuple(choice for choice in CHOICE_LABELS if choice in family.choices)
        rows: dict[str, QHBoxLayout] = {}
        self._rows = rows  # the form's row of each choice shown
        for choice, label in CHOICE_LABELS.items():
            widget = self.choice_widget(choice)
            if choice not in self.choices:
                widget.hide()
            elif SHARED_ROWS.get(choice) in rows:
                rows[SHARED_ROWS[choice]].addWidget(widget, 1)
            else:
                row = rows[choice] = QHBoxLayout()
                row.addWidget(widget, 1)
                layout.addRow(label, row)
        self.cadence = QComboBox()
        for label, points in CADENCES.items():
            self.cadence.addItem(label, points)
        self.cadence.setCurrentIndex(1)
        self.cadence.setToolTip("metric points recorded per factor of ten in iterations")
        self.speed = QComboBox()
        for label, speed in SPEEDS.items():
            self.speed.addItem(label, speed)
        layout.addRow("Metrics", self.cadence)
        layout.addRow("Speed", self.speed)

        self.algorithm.currentIndexChanged.connect(self._algorithm_changed)
        for combo in (self.play, self.updates, self.deviations, self.device, self.dtype, self.cadence):
            combo.currentIndexChanged.connect(self._changed)
        self.seed.valueChanged.connect(self._changed)
        self.speed.currentIndexChanged.connect(self.speed_changed)
        self.options: dict[str, Callable[[], Any]] = {}  # the window's own rows (add_option)
        self._shows: dict[str, Callable[[Any], None]] = {}
        self._last_good = family.preset(family.default_algorithm)
        self._carried: dict[str, Any] = {}  # choices without a row, from set_config
        self._algorithm_changed()

    def add_option(
        self, name: str, label: str, widget: QWidget, value: Callable[[], Any], show: Callable[[Any], None]
    ) -> None:
        """A row the window adds (the matrix window's starting strategies), above *Metrics*:
        ``value()`` is the configuration's field ``name`` (a ConfigError it raises is shown
        like a refused parameter), ``show(value)`` puts a saved one in the row
        (:meth:`set_config`). Call :meth:`refresh` when the row changes."""
        self.options[name] = value
        self._shows[name] = show
        self._layout.insertRow(self._layout.getWidgetPosition(self.cadence)[0], label, widget)

    def refresh(self, quiet: bool = False) -> None:
        """Read the rows again; ``changed`` fires unless ``quiet`` (the caller restarts)."""
        if quiet:
            self.blockSignals(True)
        try:
            self._changed()
        finally:
            self.blockSignals(False)

    def choice_widget(self, choice: str) -> QWidget:
        """The widget of one of :data:`CHOICE_LABELS`."""
        return {
            "play": self.play,
            "updates": self.updates,
            "deviations": self.deviations,
            "seed": self.seed,
            "device": self.device,
            "dtype": self.dtype,
        }[choice]

    def _choice_value(self, choice: str) -> Any:
        if choice == "seed":
            return self.seed.value()
        if choice in ("device", "dtype"):
            return self.choice_widget(choice).currentData()  # type: ignore[attr-defined]
        return self.choice_widget(choice).currentText()  # type: ignore[attr-defined]

    def _accepts_gpu(self) -> bool:
        """Whether the family's configurations run on a GPU (tree solvers do not)."""
        try:
            self.family.config(self.family.default_algorithm, device="gpu")
        except RmvizError:
            return False
        return True

    def _algorithm_changed(self) -> None:
        """Show the preset's description and parameters, and its update schedule: locked
        where the algorithm needs one (greedy weights: simultaneous; external and outcome
        sampling: alternating)."""
        self._show_algorithm()
        self._changed()

    def _show_algorithm(self) -> None:
        name = self.algorithm.currentData()
        base = self.family.preset(name)
        self.description.setText(self.family.describe(base))
        used = base.parameters()
        for parameter, edit in self.parameters.items():
            self._layout.setRowVisible(edit, parameter in used)
            preset_value = getattr(base, parameter)  # the preset's own (optimistic Hedge's step)
            default = PARAMETER_LABELS[parameter][1] if preset_value is None else f"{preset_value:g}"
            edit.setPlaceholderText(default)
        blocked = self.updates.blockSignals(True)
        self.updates.setCurrentText(base.updates)  # the preset's schedule (CFR+ alternates)
        self.updates.blockSignals(blocked)
        self.updates.setEnabled(not base.schedule_locked)
        fields = self.family.presets[name][1]
        for choice in OPTIONAL_CHOICES:
            if choice in self.choices:
                widget = self.choice_widget(choice)
                self._layout.setRowVisible(self._rows[choice], choice in fields)
                if choice in fields:
                    blocked = widget.blockSignals(True)
                    widget.setCurrentText(fields[choice])  # type: ignore[attr-defined]
                    widget.blockSignals(blocked)

    def _changed(self) -> None:
        try:
            self._last_good = self._config()
            self.description.setText(self.family.describe(self._last_good))  # the values set
            self.problem.setText("")
        except RmvizError as error:
            self.problem.setText(str(error))
            return
        finally:
            self._layout.setRowVisible(self.problem, bool(self.problem.text()))
        self.changed.emit()

    def _config(self) -> Config:
        name = self.algorithm.currentData()
        values: dict[str, Any] = {}
        for parameter in self.family.preset(name).parameters():
            text = self.parameters[parameter].text().strip()
            if not text:
                continue
            label = PARAMETER_LABELS[parameter][0]
            try:
                value = float(text)
            except ValueError:
                raise RmvizError(f"{label}: {text!r} is not a number") from None
            values[parameter] = value  # inf, nan: refused by the config (presets.check_finite, ranges)
        for choice in self.choices:
            if choice in OPTIONAL_CHOICES and choice not in self.family.presets[name][1]:
                continue  # a choice this preset does not take (EFR's deviations on CFR)
            values[choice] = self._choice_value(choice)
        for option, value in self.options.items():
            values[option] = value()
        return self.family.config(name, **{**self._carried, **values})

    # -- a saved configuration ---------------------------------------------------------------
    def set_config(self, config: Config) -> list[str]:
        """Show ``config`` (validated, of this family) without firing ``changed``: the caller
        starts the run. A parameter equal to the preset's is left blank (the preset's
        default). Returns what could not be shown as saved and was replaced (a GPU this
        machine lacks: the CPU). A seed larger than the panel's box takes is refused."""
        notes: list[str] = []
        seed = getattr(config, "seed", 0)
        if "seed" in self.choices and not 0 <= seed <= self.seed.maximum():
            raise RmvizError(f"seed {seed} is larger than the solver panel takes ({self.seed.maximum():,})")
        rows = [self.algorithm, self.play, self.updates, self.deviations, self.seed, self.device, self.dtype]
        widgets = [*rows, *self.parameters.values()]
        for widget in widgets:
            widget.blockSignals(True)
        try:
            self.algorithm.setCurrentIndex(self.algorithm.findData(config.algorithm))
            self._show_algorithm()
            base = self.family.preset(config.algorithm)
            for name, edit in self.parameters.items():
                value = getattr(config, name)
                shown = name in base.parameters() and value is not None and value != getattr(base, name)
                edit.setText(repr(float(value)) if shown else "")
            if "play" in self.choices:
                self.play.setCurrentText(config.play)  # type: ignore[attr-defined]
            self.updates.setCurrentText(config.updates)
            for choice in OPTIONAL_CHOICES:
                if choice in self.choices and getattr(config, choice) is not None:
                    self.choice_widget(choice).setCurrentText(getattr(config, choice))  # type: ignore[attr-defined]
            if "seed" in self.choices:
                self.seed.setValue(seed)
            wanted = getattr(config, "device", "cpu")
            device = self.device.findData(wanted)
            if device < 0 and wanted != "auto":  # auto: the panel's first device, the CPU
                notes.append(f"the session ran on device {getattr(config, 'device', '?')!r}; here on the CPU")
            self.device.setCurrentIndex(max(device, 0))
            if "dtype" in self.choices:
                self.dtype.setCurrentIndex(max(self.dtype.findData(getattr(config, "dtype", "float64")), 0))
        finally:
            for widget in widgets:
                widget.blockSignals(False)
        for name, show in self._shows.items():
            show(getattr(config, name))
        self._carried = {
            name: getattr(config, name)
            for name in self.family.choices
            if name not in CHOICE_LABELS
            and name not in self.options
            and getattr(config, name) not in (None, {}, [])
        }
        try:
            self._last_good = self._config()
        except RmvizError:  # a row that reads against the game shown (the start): as saved
            self._last_good = config
        self.description.setText(self.family.describe(self._last_good))
        self.problem.setText("")
        self._layout.setRowVisible(self.problem, False)
        return notes

    def set_cadence(self, points_per_decade: int) -> str | None:
        """Choose the metric cadence of ``points_per_decade`` without firing ``changed``;
        a note when the list does not offer it (the cadence is kept)."""
        index = self.cadence.findData(points_per_decade)
        if index < 0:
            kept = self.cadence.currentText()
            return f"{points_per_decade} metric points per decade is not offered here; kept {kept}"
        self.cadence.blockSignals(True)
        self.cadence.setCurrentIndex(index)
        self.cadence.blockSignals(False)
        return None

    def set_speed(self, speed: float | None) -> str | None:
        """Choose the speed limit ``speed`` (iterations per second, None: full speed) without
        firing ``speed_changed``; a note when the list does not offer it (the speed is kept)."""
        index = next((k for k in range(self.speed.count()) if self.speed.itemData(k) == speed), -1)
        if index < 0:
            return f"a speed of {speed:,g} it/s is not offered here; kept {self.speed.currentText()}"
        self.speed.blockSignals(True)
        self.speed.setCurrentIndex(index)
        self.speed.blockSignals(False)
        return None

    def forget_carried(self) -> None:
        """Drop the choices without a row that :meth:`set_config` carried (they were for the
        session's game), without firing ``changed``."""
        if not self._carried:
            return
        dropped, self._carried = self._carried, {}
        try:
            self._last_good = self._config()
        except RmvizError:  # an entry shown in red: the last valid config, less what was carried
            base = self.family.preset(self._last_good.algorithm)
            self._last_good = dataclasses.replace(  # type: ignore[type-var]
                self._last_good, **{name: getattr(base, name) for name in dropped}
            )

    def config(self) -> Any:
        """The configuration chosen (the last valid one while an entry is refused)."""
        return self._last_good

    def points_per_decade(self) -> int:
        return int(self.cadence.currentData())

    def speed_limit(self) -> float | None:
        """Iterations per second, None for as fast as possible."""
        return self.speed.currentData()
