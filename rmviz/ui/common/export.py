"""Figures for slides: any widget (a plot, the whole dashboard: :func:`export_widget`) or a
whole graphics scene (the game tree: :func:`export_scene`) as PNG, SVG or PDF.

The graphics scenes paint themselves onto the chosen device, so SVG and PDF get vector
paths and text (pyqtgraph items paint with ``QPainter``), and the output always has a white
background whatever the screen's theme. This replaces pyqtgraph's own exporters: its SVG
exporter walks the scene itself and broke with PySide6 6.12. PNG takes a size in pixels and
a DPI: the widget is laid out at ``size`` and drawn scaled by ``dpi / 96``, with the DPI
written into the file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPoint, QRect, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPicture
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView, QWidget

from rmviz.errors import RmvizError

FIGURE_SUFFIXES = (".png", ".svg", ".pdf")
SCREEN_DPI = 96


def export_widget(
    widget: QWidget, path: str | Path, size: tuple[int, int] | None = None, dpi: int = SCREEN_DPI
) -> Path:
    """Write ``widget`` to ``path`` (.png, .svg or .pdf) and return the path.

    ``size`` (pixels) lays a top-level widget out at that size first (off screen when it is
    not shown; given back its size afterwards); without it the widget is drawn as it is.
    """
    path = _checked(path, dpi)
    shown = widget.size()
    if size is not None:
        if widget.parentWidget() is not None:
            raise ValueError("only a top-level widget can be exported at a chosen size")
        if not widget.isVisible():  # lay it out without showing it on screen
            widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
            widget.show()
        widget.resize(*size)
        QApplication.processEvents()  # let the layout settle at the new size
    try:
        _write(path, widget.width(), widget.height(), dpi, widget.windowTitle(), lambda p: _paint(widget, p))
    finally:
        if size is not None:
            widget.resize(shown)
    return path


def export_scene(scene: QGraphicsScene, path: str | Path, dpi: int = SCREEN_DPI, title: str = "") -> Path:
    """Write everything in ``scene`` (the whole game tree, not just the part in view) to
    ``path`` (.png, .svg or .pdf), one scene unit per pixel, with a margin."""
    path = _checked(path, dpi)
    source = scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
    width, height = max(1, round(source.width())), max(1, round(source.height()))

    def paint(painter: QPainter) -> None:
        painter.fillRect(0, 0, width, height, Qt.GlobalColor.white)
        scene.render(painter, QRectF(0, 0, width, height), source)

    _write(path, width, height, dpi, title, paint)
    return path


def _checked(path: str | Path, dpi: int) -> Path:
    path = Path(path)
    if path.suffix.lower() not in FIGURE_SUFFIXES:
        raise RmvizError(f"{path.name}: figures are written as .png, .svg or .pdf")
    if not 10 <= dpi <= 2400:
        raise RmvizError(f"a DPI of {dpi} is outside 10-2400")
    if not path.parent.is_dir():
        raise RmvizError(f"cannot write {path}: the folder {path.parent} does not exist")
    return path


def _write(
    path: Path, width: int, height: int, dpi: int, title: str, paint: Callable[[QPainter], None]
) -> None:
    """Run ``paint`` (which draws a ``width`` x ``height`` picture) onto the file's device."""
    title = title or "rmviz figure"

    def on(device: object) -> None:
        painter = QPainter(device)  # type: ignore[arg-type]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        paint(painter)
        painter.end()

    suffix = path.suffix.lower()
    if suffix == ".png":
        ratio = dpi / SCREEN_DPI
        image = QImage(round(width * ratio), round(height * ratio), QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.white)
        picture = QPicture()  # record at screen scale, replay scaled: text scales with the rest
        on(picture)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.scale(ratio, ratio)
        painter.drawPicture(0, 0, picture)
        painter.end()
        # after painting: drawPicture rescales by the device's DPI
        image.setDotsPerMeterX(round(dpi / 0.0254))
        image.setDotsPerMeterY(round(dpi / 0.0254))
        ok = image.save(str(path))
    elif suffix == ".svg":
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(QSize(width, height))
        generator.setViewBox(QRect(0, 0, width, height))
        generator.setTitle(title)
        generator.setDescription("made with rmviz")
        generator.setResolution(SCREEN_DPI)
        on(generator)
        ok = path.exists()
    else:
        writer = QPdfWriter(str(path))
        writer.setResolution(SCREEN_DPI)  # one widget pixel = one PDF pixel (1/96 inch)
        page = QSizeF(width * 72 / SCREEN_DPI, height * 72 / SCREEN_DPI)
        writer.setPageLayout(
            QPageLayout(
                QPageSize(page, QPageSize.Unit.Point), QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)
            )
        )
        writer.setTitle(title)
        writer.setCreator("rmviz")
        on(writer)
        ok = path.exists()
    if not ok:
        raise RmvizError(f"cannot write {path}")


def _paint(widget: QWidget, painter: QPainter) -> None:
    """Paint the graphics views inside ``widget`` (or ``widget`` itself when it is one) at
    their places, white behind. Scenes are rendered directly: ``QWidget.render`` on a
    ``QGraphicsView`` mis-scales its viewport on devices other than the screen."""
    painter.fillRect(0, 0, widget.width(), widget.height(), Qt.GlobalColor.white)
    views = [widget] if isinstance(widget, QGraphicsView) else widget.findChildren(QGraphicsView)
    for view in views:
        if not view.isVisibleTo(widget) and view is not widget:
            continue
        corner = view.mapTo(widget, QPoint(0, 0)) if view is not widget else QPoint(0, 0)
        viewport = view.viewport().rect()
        source = view.mapToScene(viewport).boundingRect()
        view.scene().render(
            painter, QRectF(corner.x(), corner.y(), viewport.width(), viewport.height()), source
        )
