"""The solver panel: algorithm preset, play mode, update schedule, seed, device."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QSpinBox, QWidget

from rmviz.solvers.backend import gpu_available, gpu_name
from rmviz.solvers.config import PLAY_MODES, PRESETS, SCHEDULES, SolverConfig, preset


class SolverPanel(QWidget):
    """Choices that define a run; ``changed`` fires when any of them changes."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QFormLayout(self)
        self.algorithm = QComboBox()
        for name, (description, _) in PRESETS.items():
            self.algorithm.addItem(name, name)
            self.algorithm.setItemData(self.algorithm.count() - 1, description, 3)  # tooltip role
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
        self.description = QLabel()
        self.description.setWordWrap(True)
        layout.addRow("Algorithm", self.algorithm)
        layout.addRow("", self.description)
        layout.addRow("Play", self.play)
        layout.addRow("Updates", self.updates)
        layout.addRow("Seed", self.seed)
        layout.addRow("Device", self.device)
        for combo in (self.algorithm, self.play, self.updates, self.device):
            combo.currentIndexChanged.connect(self._changed)
        self.seed.valueChanged.connect(self._changed)
        self._changed()

    def _changed(self) -> None:
        self.description.setText(PRESETS[self.algorithm.currentData()][0])
        self.changed.emit()

    def config(self) -> SolverConfig:
        """The configuration chosen (greedy weights need simultaneous updates: enforced)."""
        algorithm = self.algorithm.currentData()
        updates = self.updates.currentText()
        if "greedy" in algorithm and updates != "simultaneous":
            self.updates.blockSignals(True)
            self.updates.setCurrentText("simultaneous")
            self.updates.blockSignals(False)
            updates = "simultaneous"
        return preset(
            algorithm,
            play=self.play.currentText(),
            updates=updates,
            seed=self.seed.value(),
            device=self.device.currentData(),
        )
