"""Figure export (rmviz.ui.common.export): widgets and scenes as PNG, SVG and PDF files that
open as what their extension says; the helper :func:`assert_valid_figure` checks them."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QGraphicsScene

from rmviz.errors import RmvizError
from rmviz.ui.common.export import export_scene, export_widget
from rmviz.ui.common.style import PLAYER_COLOURS, style_plot


def assert_valid_figure(path, min_size=(100, 100)):
    """The file opens as what its extension says (PNG decoded, SVG parsed and rendered, PDF
    with a page and an end-of-file marker)."""
    data = path.read_bytes()
    if path.suffix == ".png":
        image = QImage(str(path))
        assert not image.isNull() and image.width() >= min_size[0] and image.height() >= min_size[1]
        # not blank: a plot has more than the background colour
        assert len({image.pixel(x, image.height() // 2) for x in range(0, image.width(), 3)}) > 2
    elif path.suffix == ".svg":
        root = ET.fromstring(data)
        assert root.tag.endswith("svg")
        assert QSvgRenderer(str(path)).isValid()
        assert data.count(b"<polyline") + data.count(b"<path") > 5  # vector curves, not one image
    else:
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
        assert b"/Type /Page" in data and len(data) > 2000


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_a_plot_widget_is_written_at_the_size_asked(qtbot, tmp_path, suffix):
    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    plot = widget.addPlot()
    style_plot(plot, "six lines")
    for k in range(6):
        plot.plot([0, 3], [k, 5 - k], pen=pg.mkPen(PLAYER_COLOURS[k], width=2))
    path = export_widget(widget, tmp_path / f"plot{suffix}", size=(400, 300), dpi=192)
    assert_valid_figure(path)
    if suffix == ".png":
        assert QImage(str(path)).width() == 800  # 400 px at 192 / 96


def test_a_whole_scene_is_written_with_a_margin(qtbot, tmp_path):
    scene = QGraphicsScene()
    scene.addRect(0, 0, 300, 200)
    scene.addText("1pb")
    path = export_scene(scene, tmp_path / "scene.png")
    image = QImage(str(path))  # 20 px around the items (and their pens' half width)
    assert 340 <= image.width() <= 341 and 240 <= image.height() <= 241


@pytest.mark.parametrize(
    ("name", "dpi", "message"),
    [("figure.gif", 96, "written as .png, .svg or .pdf"), ("figure.png", 5, "outside 10-2400")],
)
def test_refused_files_say_why(qtbot, tmp_path, name, dpi, message):
    with pytest.raises(RmvizError, match=message):
        export_scene(QGraphicsScene(), tmp_path / name, dpi)
    with pytest.raises(RmvizError, match="does not exist"):
        export_scene(QGraphicsScene(), tmp_path / "missing" / "figure.svg")
