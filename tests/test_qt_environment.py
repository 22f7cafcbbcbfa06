"""Qt starts offscreen with the system libraries .ci/run installs (the GUI issues build on it)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")


def test_a_qt_widget_renders_offscreen(qtbot):
    from PySide6.QtWidgets import QLabel

    label = QLabel("rmviz")
    qtbot.addWidget(label)
    label.show()
    image = label.grab().toImage()
    assert image.width() > 0 and image.height() > 0


def test_pyqtgraph_imports_on_pyside6():
    import pyqtgraph

    assert pyqtgraph.Qt.QT_LIB == "PySide6"
