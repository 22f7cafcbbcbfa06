"""What a written figure must be, checked with renderers other than the one that wrote it:
rsvg-convert (librsvg) for SVG, pdftoppm (poppler) for PDF, Pillow for PNG."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

RSVG, PDFTOPPM = shutil.which("rsvg-convert"), shutil.which("pdftoppm")


def ink(path: Path) -> float:
    """The fraction of pixels that are not (near) white."""
    pixels = np.asarray(Image.open(path).convert("L"), dtype=np.float64)
    return float((pixels < 235).mean())


def check_png(path: Path, size: tuple[int, int], dpi: int) -> float:
    image = Image.open(path)
    assert image.format == "PNG" and image.size == size
    assert round(image.info["dpi"][0]) == dpi
    return ink(path)


def check_svg(path: Path, tmp_path: Path) -> float:
    """Rendered by librsvg: the ink it puts on the page (blobs would blacken it)."""
    text = path.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "non-scaling-stroke" not in text  # librsvg fills such strokes as polygons
    if RSVG is None:
        pytest.skip("rsvg-convert is not installed (Debian: librsvg2-bin)")
    rendered = tmp_path / f"{path.stem}-rsvg.png"
    subprocess.run([RSVG, "-w", "600", "-b", "white", str(path), "-o", str(rendered)], check=True)
    return ink(rendered)


def check_pdf(path: Path, tmp_path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    if PDFTOPPM is None:
        pytest.skip("pdftoppm is not installed (Debian: poppler-utils)")
    out = tmp_path / f"{path.stem}-page"
    result = subprocess.run(
        [PDFTOPPM, "-r", "20", "-png", str(path), str(out)], capture_output=True, text=True
    )
    assert result.returncode == 0 and not result.stderr, result.stderr
    (page,) = tmp_path.glob(f"{path.stem}-page*.png")
    assert 0.0 < ink(page) < 0.6


def drawn(fig):
    """``fig`` drawn by Agg (as ``save_figure`` draws a PNG); its renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def texts_drawn(fig, renderer):
    """Every visible, non-empty text of ``fig`` and its box on the page."""
    from matplotlib.text import Text

    ticks, shown = set(), set()  # tick labels; those drawn (ticks outside the view are not)
    for ax in fig.axes:
        for axis in ax._axis_map.values():
            for tick in axis.majorTicks + axis.minorTicks:
                ticks |= {id(tick.label1), id(tick.label2)}
            if ax.axison and axis.get_visible():
                shown |= {id(label) for tick in axis._update_ticks() for label in (tick.label1, tick.label2)}
    found = []
    for text in fig.findobj(Text):
        visible = (
            text.get_visible() and text.get_text().strip() and (id(text) in shown or id(text) not in ticks)
        )
        parent = text
        while visible and parent is not None:  # tick labels of hidden axes, and the like
            visible = parent.get_visible()
            parent = getattr(parent, "axes", None) if parent is text else None
        if visible:
            found.append((text, text.get_window_extent(renderer)))
    return found


def overprinted(fig, gap=0.5):
    """Pairs of texts of ``fig`` that overlap (by more than ``gap`` pixels) and texts that
    leave the page: an empty list for a legible figure."""
    renderer = drawn(fig)
    found = texts_drawn(fig, renderer)
    page = fig.bbox
    bad = [
        (t.get_text(), "off the page")
        for t, box in found
        if box.x0 < page.x0 - 1 or box.y0 < page.y0 - 1 or box.x1 > page.x1 + 1 or box.y1 > page.y1 + 1
    ]
    for i, (a, box_a) in enumerate(found):
        for b, box_b in found[i + 1 :]:
            if (
                box_a.x0 < box_b.x1 - gap
                and box_b.x0 < box_a.x1 - gap
                and box_a.y0 < box_b.y1 - gap
                and box_b.y0 < box_a.y1 - gap
            ):
                bad.append((a.get_text(), b.get_text()))
    return bad


def legends_over_data(fig):
    """Legends of ``fig`` that cover a point of a curve (of any axes): their first labels."""
    from matplotlib.legend import Legend

    renderer = drawn(fig)
    covering = []
    for legend in fig.findobj(Legend):
        box = legend.get_window_extent(renderer)
        for ax in fig.axes:
            for line in ax.get_lines():
                if len(line.get_xdata()) < 2:
                    continue  # a legend's handle
                xy = line.get_transform().transform(np.column_stack([line.get_xdata(), line.get_ydata()]))
                inside = (xy[:, 0] > box.x0) & (xy[:, 0] < box.x1) & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)
                if inside.any():
                    covering.append(legend.get_texts()[0].get_text())
    return covering
