"""The look of exported figures: ``paper`` and ``slides`` styles (fonts, line widths, default
size), white background, vector text that every renderer reads, log axes with decade
labels only, the iteration axis ending at the data, and the caption line.

Builders draw with the style's numbers and call :func:`log_axis` for a log axis,
:func:`legend_below` for a legend (under the axes' x label: it never covers a curve),
:func:`category_ticks` for named ticks (every k-th name when not all fit) and
:func:`end_labels` for labels at the ends of curves (spread apart where curves meet). Once
the figure is laid out, :func:`finish` measures and places all of these and gives each log
axis the decade labels that fit its length (:func:`~rmviz.present.ticks.decade_ticks`), so
text never overprints at any size the figure accepts (:func:`minimum_size`).
"""

from __future__ import annotations

import contextlib
import math
import textwrap
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from rmviz.errors import ConfigError
from rmviz.present.definitions import CAPTION_SEPARATOR, FRAME_COLOUR, TEXT_COLOUR
from rmviz.present.ticks import CATEGORY_STRIDES, decade_tex, decade_ticks, every_kth

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.legend import Legend
    from matplotlib.text import Annotation, Text

GAP = 0.4  # space between neighbouring texts, in font sizes
# a layout within this of the one before, in fractions of the figure, has settled (constrained
# layout, run again on a figure it laid out, moves axes by ~1e-16; a pixel of the largest
# figure accepted is over 1e-5)
SETTLED = 1e-9


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


def legend_below(ax: Axes, **options: Any) -> Legend | None:
    """``ax``'s legend centred under its tick labels and x label, where it covers no data;
    :func:`finish` puts it just below them and gives it as many columns as fit the axes'
    width. ``None`` when nothing in ``ax`` is labelled."""
    if not ax.get_legend_handles_labels()[0]:
        return None
    legend = ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), **options)
    legend.set_gid("rmviz-below")
    legend.rmviz_options = options  # type: ignore[attr-defined]
    return legend


def category_ticks(ax: Axes, which: str, names: Sequence[str], rotation: float = 0.0) -> None:
    """Ticks at the centres of ``names`` cells (0.5, 1.5...) on ``which`` axis of ``ax``,
    labelled with the names; :func:`finish` keeps every k-th label, k the smallest that keeps
    neighbouring labels apart."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_ticks(np.arange(len(names)) + 0.5, list(names), rotation=rotation)
    axis.set_gid("rmviz-categories")
    setattr(axis, "rmviz_names", list(names))  # noqa: B010  # read back by thin_categories


def end_labels(ax: Axes, labels: Sequence[tuple[str, float, float, str]], font_size: float) -> None:
    """``(text, x, y, colour)`` labels just right of the points (x, y): the ends of curves.
    :func:`finish` moves them up or down (the least it can) so none overprints another."""
    for text, x, y, colour in labels:
        note = ax.annotate(
            text,
            (x, y),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
            color=colour,
            fontsize=font_size,
            annotation_clip=False,
        )
        note.set_gid("rmviz-end-label")


def overlapping(boxes: Sequence[Any], gap: float = 0.0) -> bool:
    """Whether any two of the display-space ``boxes`` (matplotlib ``Bbox``) come closer
    than ``gap`` pixels along both axes."""
    for a, b in ((boxes[i], boxes[j]) for i in range(len(boxes)) for j in range(i + 1, len(boxes))):
        if a.x0 < b.x1 + gap and b.x0 < a.x1 + gap and a.y0 < b.y1 + gap and b.y0 < a.y1 + gap:
            return True
    return False


def thin_categories(axis: Any, renderer: RendererBase, gap: float) -> None:
    """Label every k-th of the axis's category ticks, k the smallest with no two labels
    closer than ``gap`` pixels (k in 1, 2, 5, 10, 20, 50...)."""
    names: list[str] = axis.rmviz_names
    for stride in CATEGORY_STRIDES:
        shown = every_kth(len(names), stride)
        axis.set_ticks([k + 0.5 for k in shown], [names[k] for k in shown])
        labels = [t for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
        if len(labels) <= 1 or not overlapping([t.get_window_extent(renderer) for t in labels], gap):
            return


def place_legend(ax: Axes, legend: Legend, renderer: RendererBase) -> None:
    """Put a :func:`legend_below` legend just under the axes' x label and tick labels (an
    offset in points from the axes' bottom: it holds when the layout moves the axes), with
    as many columns as fit the axes' width."""
    from matplotlib.transforms import ScaledTranslation

    fig = cast("Figure", ax.get_figure(root=True))
    handles, labels = ax.get_legend_handles_labels()
    options = legend.rmviz_options  # type: ignore[attr-defined]
    width = ax.get_window_extent(renderer).width
    for columns in range(len(labels), 0, -1):  # a legend's columns are fixed when it is made
        legend = ax.legend(handles, labels, loc="upper center", ncols=columns, **options)
        if legend.get_window_extent(renderer).width <= width:
            break
    legend.set_gid("rmviz-below")
    legend.rmviz_options = options  # type: ignore[attr-defined]
    below = ax.get_window_extent(renderer).y0 - ax.xaxis.get_tightbbox(renderer).y0  # type: ignore[union-attr]
    points = max(0.0, below) * 72 / fig.dpi + 2
    shift = ScaledTranslation(0, -points / 72, fig.dpi_scale_trans)
    legend.set_bbox_to_anchor((0.5, 0.0), transform=ax.transAxes + shift)


def spread_labels(notes: list[Annotation], renderer: RendererBase, gap: float) -> None:
    """Move the end labels of one axes vertically (in points) so that none overlaps the
    next: sorted by where their curves end, each pushed at least a label's height from the
    previous, then the whole run centred back on the curves' ends."""
    fig = cast("Figure", notes[0].get_figure(root=True))
    scale = 72 / fig.dpi  # pixels -> points
    ends = [note.get_transform().transform(note.xy)[1] * scale for note in notes]
    order = sorted(range(len(notes)), key=lambda k: ends[k])
    heights = [notes[k].get_window_extent(renderer).height * scale + gap * scale for k in order]
    wanted = [ends[k] for k in order]
    placed = list(wanted)
    for j in range(1, len(placed)):
        placed[j] = max(placed[j], placed[j - 1] + (heights[j - 1] + heights[j]) / 2)
    # clusters pushed up move down again by half their push, so they stay centred on the data
    start = 0
    for j in range(1, len(placed) + 1):
        if j == len(placed) or placed[j] > placed[j - 1] + (heights[j - 1] + heights[j]) / 2 + 1e-6:
            drift = sum(p - w for p, w in zip(placed[start:j], wanted[start:j], strict=True)) / (j - start)
            for m in range(start, j):
                placed[m] -= drift
            start = j
    # none below the axes (where the x tick labels are): the lowest lifted, the rest pushed up
    bottom = notes[0].axes.get_window_extent(renderer).y0 * scale if notes[0].axes else -math.inf
    placed[0] = max(placed[0], bottom + heights[0] / 2)
    for j in range(1, len(placed)):
        placed[j] = max(placed[j], placed[j - 1] + (heights[j - 1] + heights[j]) / 2)
    for k, y in zip(order, placed, strict=True):
        notes[k].xyann = (3, y - ends[k])


PAGE_SHARE = 0.94  # of the page's width, at most, an axes title spans


def wrap_to(text: Text, width: float, renderer: RendererBase) -> None:
    """Break ``text`` (a title, an axis label, the caption) into lines no longer than
    ``width`` pixels: each of its lines on its own (a title broken by hand, too narrow,
    ran off the page), at the caption's separators first (the "·" dropped where a line
    breaks), else at spaces; its words as they were when they fit. A text given
    ``rmviz_lines`` keeps that many lines at most, the last ending in "…" (a panel titled
    by an OpenSpiel information set's 120 characters took six lines of a small panel)."""
    words = getattr(text, "rmviz_words", None) or text.get_text()
    text.rmviz_words = words  # type: ignore[attr-defined]
    text.set_text(words)
    if "$" in words:
        return  # mathtext is left as it is
    extent = text.get_window_extent(renderer)
    long = extent.height if text.get_rotation() % 180 else extent.width
    if long > width > 0:
        longest = max(len(line) for line in words.split("\n"))
        lines = wrapped(words, max(8, int(0.9 * longest * width / long)))  # glyphs vary
        most = getattr(text, "rmviz_lines", len(lines))
        if len(lines) > most:
            lines = [*lines[: most - 1], lines[most - 1].rstrip(" |,;") + "…"]
        text.set_text("\n".join(lines))


def wrapped(text: str, chars: int) -> list[str]:
    """``text`` in lines of at most ``chars`` characters (:func:`wrap_to`)."""
    lines: list[str] = []
    for line in text.split("\n"):
        current = ""
        for part in line.split(CAPTION_SEPARATOR):
            joined = f"{current}{CAPTION_SEPARATOR}{part}" if current else part
            if current and len(joined) > chars:
                lines += textwrap.wrap(current, chars) or [""]
                current = part
            else:
                current = joined
        lines += textwrap.wrap(current, chars) or [""]
    return lines


def text_gap(style: Style, fig: Figure) -> float:
    return GAP * style.small * fig.dpi / 72


def arrange(fig: Figure, style: Style) -> None:
    """One pass of the placements that depend on the layout (see the module docstring)."""
    renderer = fig._get_renderer()  # type: ignore[attr-defined]  # what the layout engine measures with
    gap = text_gap(style, fig)
    subfigures: list[Any] = [fig]
    for sub in subfigures:  # the list grows as it is walked: every nested subfigure
        subfigures.extend(sub.subfigs)
    for sub in subfigures:
        for label in (sub._suptitle, sub._supxlabel):
            if label is not None:
                wrap_to(label, sub.bbox.width * 0.98, renderer)
    for ax in fig.axes:
        arrange_axes(ax, renderer, gap)


def arrange_axes(ax: Axes, renderer: RendererBase, gap: float, below: bool = True) -> None:
    """:func:`arrange` for one Axes; ``below=False`` (a caller's figure, laid out as it
    chooses): legends inside the axes where they cover the least, not under them."""
    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_gid() == "rmviz-categories":
            thin_categories(axis, renderer, gap)
    legend = ax.get_legend()
    if legend is not None and legend.get_gid() == "rmviz-below":
        if below:
            place_legend(ax, legend, renderer)
        else:
            handles, labels = ax.get_legend_handles_labels()
            options = legend.rmviz_options  # type: ignore[attr-defined]
            ax.legend(handles, labels, loc="best", **options)
    box = ax.get_window_extent(renderer)
    # and clear of the page's edges: a tree's axes span the page (OpenSpiel's Leduc's title
    # touched both of its edges)
    wrap_to(ax.title, min(box.width, PAGE_SHARE * ax.figure.bbox.width), renderer)
    wrap_to(ax.yaxis.label, box.height, renderer)
    cells = [t for t in ax.texts if t.get_gid() == "rmviz-cell"]
    for cell in cells:
        cell.set_visible(True)
    if cells and overlapping([t.get_window_extent(renderer) for t in cells], 0.5 * gap):
        for cell in cells:  # numbers that run together say nothing: the colour bar does
            cell.set_visible(False)
    notes = [t for t in ax.texts if t.get_gid() == "rmviz-end-label"]
    if len(notes) > 1:
        spread_labels(cast("list[Annotation]", notes), renderer, 0.1 * gap)


def lay_out(fig: Figure) -> None:
    """Run the constrained layout; a figure too small for it is an error, not a warning."""
    engine = fig.get_layout_engine()
    if engine is None:  # a caller's figure without a layout engine: as its author placed it
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="constrained_layout not applied")
        try:
            engine.execute(fig)
        except UserWarning as warning:
            raise ConfigError(
                f"the figure is too small for its panels at {fig.get_figwidth():.2g} x "
                f"{fig.get_figheight():.2g} inches: make it larger"
            ) from warning


CAPTION_COLOUR = "#555555"  # the caption under a figure, and notes on what it leaves out


def finish(fig: Figure, style: Style, caption: str | None) -> None:
    """Lay ``fig`` out with ``caption`` under it, tick every log axis with the decade labels
    that fit its length and place what depends on the layout (legends under their axes,
    category tick labels, end labels); twice, the second pass measuring the layout that the
    first made room for; then the decades again and a last layout, as savefig will run it
    (a layout that the last labels collapse is an error too).

    A layout that leaves every axes and subfigure where the one before put it (to
    :data:`SETTLED`) ends the passes early: what they place is measured from those positions
    alone, so the passes left would place it again where it is (the same figure to
    rounding: pixels within a level of anti-aliasing; most figures settle after two or
    three of the four layouts)."""
    if caption:
        fig.supxlabel(caption, fontsize=style.small * 0.9, color=CAPTION_COLOUR, x=0.01, ha="left")
    placed = None
    for arranged in (True, True, False):
        lay_out(fig)
        now = positions(fig)
        if placed is not None and np.allclose(now, placed, rtol=0, atol=SETTLED):
            return
        placed = now
        decades(fig, style)
        if arranged:
            arrange(fig, style)
    lay_out(fig)


def positions(fig: Figure) -> np.ndarray:
    """Where the layout put each axes and subfigure of ``fig``: their bounds in fractions of
    the figure, one row each."""
    subfigures: list[Any] = list(fig.subfigs)
    for sub in subfigures:
        subfigures.extend(sub.subfigs)
    boxes = [ax.get_position() for ax in fig.axes] + [
        sub.bbox.transformed(fig.transFigure.inverted()) for sub in subfigures
    ]
    return np.array([box.bounds for box in boxes]).reshape(-1, 4)


def decades(fig: Figure, style: Style) -> None:
    """Every log axis's decade labels, as many as fit its length."""
    for ax in fig.axes:
        axes_decades(ax, style)


def axes_decades(ax: Axes, style: Style) -> None:
    """:func:`decades` for one Axes."""
    inches = cast("Figure", ax.get_figure(root=True)).get_size_inches()
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


def finish_axes(axes: Sequence[Axes], style: Style) -> None:
    """Finish axes drawn into a caller's figure (``ax=``, ``fig=``): decade labels, category
    labels, end labels and legends inside the axes; the figure's layout, caption and other
    axes are left as they are."""
    if not axes:
        return
    fig = cast("Figure", axes[0].get_figure(root=True))
    renderer = fig._get_renderer()  # type: ignore[attr-defined]
    engine = fig.get_layout_engine()
    if engine is not None:  # measure where the caller's layout puts the axes, as it will draw them
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="constrained_layout not applied")
            engine.execute(fig)
    for ax in axes:
        axes_decades(ax, style)
        arrange_axes(ax, renderer, text_gap(style, fig), below=False)
