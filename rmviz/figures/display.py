"""Figures that show themselves in notebooks (Jupyter, JupyterLab, VS Code).

rmviz draws on :class:`matplotlib.figure.Figure` objects without pyplot, so no backend
registers IPython's figure formatters and a bare Figure shows as
``<Figure size 1100x620 with 1 Axes>``. :class:`NotebookFigure` is a ``Figure`` (``savefig``,
``axes``, pickling unchanged) with IPython's display methods: ``_repr_mimebundle_`` gives the
formats of :data:`DISPLAY` (PNG by default, as matplotlib's inline backend; SVG on request),
and ``_repr_png_`` / ``_repr_svg_`` render one of them, returning ``None`` (IPython's "not
this format") for a format not chosen, so a cell's output holds each image once. Nothing
touches pyplot or its global list of figures.

::

    rmviz.figures.display.DISPLAY.formats = ("svg", "png")   # vector first, PNG as fallback
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from rmviz.errors import ConfigError

MIME = {"png": "image/png", "svg": "image/svg+xml"}


@dataclass
class Display:
    """What a figure's notebook output holds: ``formats`` (``"png"``, ``"svg"``), and the
    PNG's resolution (``dpi``; ``None``: the figure's own)."""

    formats: tuple[str, ...] = ("png",)
    dpi: float | None = None

    def chosen(self) -> tuple[str, ...]:
        unknown = [f for f in self.formats if f not in MIME]
        if unknown:
            raise ConfigError(f"no display format {unknown[0]!r}; choose png or svg")
        return tuple(self.formats)


DISPLAY = Display()


def render(fig: Figure, fmt: str, dpi: float | None = None) -> bytes:
    """``fig`` as ``fmt`` (``"png"`` or ``"svg"``) bytes, through its own canvas."""
    buffer = io.BytesIO()
    with warnings.catch_warnings(), matplotlib.rc_context({"svg.hashsalt": "rmviz"}):
        # make_figure laid it out: the layout savefig runs again fits as well
        warnings.filterwarnings("ignore", message="constrained_layout not applied")
        metadata = {"Date": None} if fmt == "svg" else None  # the same figure, the same text
        fig.savefig(buffer, format=fmt, dpi=dpi or fig.dpi, metadata=metadata)
    return buffer.getvalue()


class NotebookFigure(Figure):
    """A matplotlib ``Figure`` that a notebook shows as an image (see the module docstring)."""

    def _repr_png_(self) -> bytes | None:
        return render(self, "png", DISPLAY.dpi) if "png" in DISPLAY.chosen() else None

    def _repr_svg_(self) -> str | None:
        return render(self, "svg").decode("utf-8") if "svg" in DISPLAY.chosen() else None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {}
        for fmt in DISPLAY.chosen():
            mime = MIME[fmt]
            if (include and mime not in include) or (exclude and mime in exclude):
                continue
            data = self._repr_png_() if fmt == "png" else self._repr_svg_()
            if data is not None:
                bundle[mime] = data
        return bundle
