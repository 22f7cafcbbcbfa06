"""The look of exported figures: ``paper`` and ``slides`` styles (fonts, line widths, default
size), white background, vector text that every renderer reads, log axes with decade
labels only, the iteration axis ending at the data, and the caption line.

Builders draw with the style's numbers and call :func:`log_axis` for a log axis; once the
figure is laid out, :func:`finish` gives each log axis the decade labels that fit its length
(:func:`~rmviz.figures.ticks.decade_ticks`), so labels never overprint at any size.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from rmviz.figures.definitions import FRAME_COLOUR, TEXT_COLOUR
from rmviz.figures.ticks import decade_tex, decade_ticks

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Style:
    """Font size and line width in points, and the size of a one-panel figure in inches."""

    name: str
    font_size: float
    line_width: float
    size: tuple[float, float]

    def scaled(self, factor: float) -> Style:
        """Fonts and lines times ``factor`` (figures of many panels)."""
        return Style(self.name, self.font_size * factor, self.line_width * factor, self.size)

    @property
    def small(self) -> float:
        """Legends, tick labels, the caption."""
        return self.font_size * 0.8

    def context(self) -> contextlib.AbstractContextManager[None]:
        """matplotlib's settings for this style, within a ``with`` block."""
        import matplotlib

        return matplotlib.rc_context(cast(Any, self.rc()))

    def rc(self) -> dict[str, Any]:
        """matplotlib settings for this style (``matplotlib.rc_context``)."""
        return {
            "font.family": "DejaVu Sans",
            "mathtext.fontset": "dejavusans",
            "font.size": self.font_size,
            "axes.titlesize": self.font_size,
            "axes.labelsize": self.font_size,
            "xtick.labelsize": self.small,
            "ytick.labelsize": self.small,
            "legend.fontsize": self.small,
            "lines.linewidth": self.line_width,
            "axes.linewidth": 0.8,
            "axes.edgecolor": FRAME_COLOUR,
            "axes.labelcolor": TEXT_COLOUR,
            "axes.titlecolor": TEXT_COLOUR,
            "xtick.color": TEXT_COLOUR,
            "ytick.color": TEXT_COLOUR,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.color": "#000000",
            "grid.alpha": 0.12,
            "grid.linewidth": 0.6,
            "legend.frameon": False,
            "figure.facecolor": "white",
            "axes.facecolor": "white",
            "savefig.facecolor": "white",
            "savefig.transparent": False,
            "svg.fonttype": "path",  # glyphs as paths: the same text in every SVG renderer
            "pdf.fonttype": 42,  # TrueType in PDFs: text stays selectable and editable
            "svg.hashsalt": "rmviz",  # reproducible SVG ids
        }


STYLES = {
    "paper": Style("paper", font_size=9.0, line_width=1.3, size=(6.4, 4.0)),
    "slides": Style("slides", font_size=16.0, line_width=2.6, size=(11.0, 6.2)),
}
DEFAULT_STYLE = "slides"


def log_axis(ax: Axes, which: str, low: float, high: float) -> None:
    """Make ``which`` (``"x"`` or ``"y"``) of ``ax`` a log axis from ``low`` to ``high``;
    :func:`finish` puts its ticks."""
    if which == "x":
        ax.set_xscale("log")
        ax.set_xlim(low, high)
    else:
        ax.set_yscale("log")
        ax.set_ylim(low, high)


def iteration_axis(ax: Axes, iterations: np.ndarray, label: str) -> None:
    """The log iteration axis, from the first recorded iteration to the last (no blank
    decade after the data)."""
    first = float(max(1, iterations[0])) if iterations.size else 1.0
    last = float(max(first * 10, iterations[-1])) if iterations.size else 10.0
    log_axis(ax, "x", first, last)
    ax.set_xlabel(label)


def decade_range(values: np.ndarray) -> tuple[float, float]:
    """The whole decades around the positive finite ``values`` (1e-3..1 when there are none)."""
    values = values[np.isfinite(values) & (values > 0)]
    if not values.size:
        return 1e-3, 1.0
    low, high = math.floor(math.log10(values.min())), math.ceil(math.log10(values.max()))
    return 10.0**low, 10.0 ** max(high, low + 1)


def finish(fig: Figure, style: Style, caption: str | None) -> None:
    """Lay ``fig`` out with ``caption`` under it, then tick every log axis with the decade
    labels that fit its length."""
    if caption:
        fig.supxlabel(caption, fontsize=style.small * 0.9, color="#555555", x=0.01, ha="left")
    fig.get_layout_engine().execute(fig)  # type: ignore[union-attr]
    inches = fig.get_size_inches()
    for ax in fig.axes:
        box = ax.get_position()
        for axis, length, extent in (
            (ax.xaxis, box.width * inches[0], 3.2),  # a label's width, in font sizes
            (ax.yaxis, box.height * inches[1], 1.8),  # its height, with a gap
        ):
            if axis.get_scale() != "log":
                continue
            low, high = axis.get_view_interval()
            room = int(length * 72 // (extent * style.small))
            majors, minors = decade_ticks(math.log10(low), math.log10(high), room)
            axis.set_ticks([10.0**e for e in majors], [decade_tex(e) for e in majors])
            axis.set_ticks([10.0**m for m in minors], [""] * len(minors), minor=True)
