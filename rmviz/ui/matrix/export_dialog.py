"""The *Export figure* dialog: which figure, its size in pixels and the DPI of a PNG."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QSpinBox,
    QWidget,
)

from rmviz.runner.record import FIGURES
from rmviz.ui.matrix.figures import DEFAULT_SIZES


def ask_figure(parent: QWidget) -> tuple[str, str, tuple[int, int], int] | None:
    """Ask for a figure (one of :data:`~rmviz.runner.record.FIGURES` or ``"compare"``), its
    size, DPI and file: ``(path, figure, (width, height), dpi)``, None when cancelled."""
    dialog = QDialog(parent)
    dialog.setWindowTitle("Export figure")
    form = QFormLayout(dialog)
    figure = QComboBox()
    figure.addItems([*FIGURES[::-1], "compare"])
    width, height, dpi = QSpinBox(), QSpinBox(), QSpinBox()
    for box, value in ((width, 1600), (height, 1000), (dpi, 96)):
        box.setRange(10 if box is dpi else 100, 2400 if box is dpi else 8000)
        box.setValue(value)
    figure.currentTextChanged.connect(
        lambda name: [
            b.setValue(v) for b, v in zip((width, height), DEFAULT_SIZES.get(name, (900, 600)), strict=True)
        ]
    )
    form.addRow("Figure", figure)
    form.addRow("Width (px)", width)
    form.addRow("Height (px)", height)
    form.addRow("DPI (PNG)", dpi)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    path, _ = QFileDialog.getSaveFileName(
        parent, "Export figure", f"{figure.currentText()}.png", "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"
    )
    if not path:
        return None
    return path, figure.currentText(), (width.value(), height.value()), dpi.value()
