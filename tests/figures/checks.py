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
