"""The *Export figure* dialog of both windows: which figure (those of the window's game
family, :func:`~rmviz.figures.registry.figures_of`), the style, its size in pixels and the
DPI, then the file."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QSpinBox,
    QWidget,
)

from rmviz.figures.registry import DPI_RANGE, FIGURES, default_size, figures_of, minimum_size
from rmviz.figures.style import DEFAULT_STYLE, STYLES

DEFAULT_DPI = 150
FILTERS = {".png": "PNG (*.png)", ".svg": "SVG (*.svg)", ".pdf": "PDF (*.pdf)", ".tex": "LaTeX (*.tex)"}


@dataclass(frozen=True)
class FigureRequest:
    """What the person chose: the file, the figure, the style, pixels and DPI."""

    path: str
    figure: str
    style: str
    size: tuple[int, int]
    dpi: int


def ask_figure(parent: QWidget, family: str, game: Any = None) -> FigureRequest | None:
    """Ask which figure of a ``family`` run (of ``game``: the sizes offered fit it) to
    export and where; None when cancelled."""
    dialog = QDialog(parent)
    dialog.setWindowTitle("Export figure")
    form = QFormLayout(dialog)
    figure, style = QComboBox(), QComboBox()
    for name in figures_of(family):
        figure.addItem(name)
        figure.setItemData(figure.count() - 1, FIGURES[name].description, 3)  # tooltip role
    style.addItems(list(STYLES))
    style.setCurrentText(DEFAULT_STYLE)
    width, height, dpi = QSpinBox(), QSpinBox(), QSpinBox()
    for box in (width, height):
        box.setRange(100, 16000)
    dpi.setRange(*DPI_RANGE)
    dpi.setValue(DEFAULT_DPI)

    def limits() -> None:  # no smaller than the figure draws legibly (the export refuses it)
        if figure.currentText() == "tikz":
            return
        low = minimum_size(figure.currentText(), style.currentText(), game)
        width.setMinimum(max(100, math.ceil(low[0] * dpi.value())))
        height.setMinimum(max(100, math.ceil(low[1] * dpi.value())))

    def sizes() -> None:  # the figure's default size in the chosen style, at the DPI
        inches = default_size(figure.currentText(), style.currentText(), game=game)
        limits()
        width.setValue(round(inches[0] * dpi.value()))
        height.setValue(round(inches[1] * dpi.value()))

    for signal in (figure.currentTextChanged, style.currentTextChanged):
        signal.connect(sizes)
    dpi.valueChanged.connect(limits)
    sizes()
    form.addRow("Figure", figure)
    form.addRow("Style", style)
    form.addRow("Width (px)", width)
    form.addRow("Height (px)", height)
    form.addRow("DPI", dpi)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    name = figure.currentText()
    suffixes = FIGURES[name].suffixes
    path, _ = QFileDialog.getSaveFileName(
        parent, "Export figure", f"{name}{suffixes[0]}", ";;".join(FILTERS[s] for s in suffixes)
    )
    if not path:
        return None
    return FigureRequest(path, name, style.currentText(), (width.value(), height.value()), dpi.value())
