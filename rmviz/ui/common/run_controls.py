"""The run's buttons: Run / Pause, Step 1, Step N (with N), Reset."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSpinBox, QWidget


class RunControls(QWidget):
    """``run`` (Run / Pause), ``step_one``, ``step_n`` (with :attr:`step_count`) and
    ``reset`` fire when their button is pressed; :meth:`add` appends a window's own
    controls to the row."""

    run = Signal()
    step_one = Signal()
    step_n = Signal(int)
    reset = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.run)
        self.step_one_button = QPushButton("Step 1")
        self.step_one_button.clicked.connect(self.step_one)
        self.step_count = QSpinBox()
        self.step_count.setRange(1, 10_000_000)
        self.step_count.setValue(100)
        step_n = QPushButton("Step N")
        step_n.clicked.connect(lambda: self.step_n.emit(self.step_count.value()))
        reset = QPushButton("Reset")
        reset.clicked.connect(self.reset)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)  # laid out like a bare row of buttons
        for widget in (self.run_button, self.step_one_button, step_n, self.step_count, reset):
            self.row.addWidget(widget)

    def add(self, *widgets: QWidget) -> None:
        for widget in widgets:
            self.row.addWidget(widget)

    def show_running(self, running: bool) -> None:
        self.run_button.setText("Pause" if running else "Run")
