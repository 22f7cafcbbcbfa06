"""The one figure registry: name -> builder per game family, used by the windows' *Export
figure*, ``rmviz export`` and the notebook API alike.

:func:`make_figure` draws a figure of a run (a matplotlib ``Figure``, no Qt and no pyplot:
it works headless and shows itself in a notebook); :func:`save_figure` writes it as PNG, SVG
or PDF (``tikz``: the game as a LaTeX document), atomically. matplotlib is imported only
when a figure is drawn, so the command line starts as fast as before.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rmviz.atomic import atomic_path, atomic_write_text
from rmviz.errors import ConfigError, RmvizError
from rmviz.figures import compare, matrix, tikz, tree
from rmviz.figures.canvas import Target, is_axes, one_panel
from rmviz.figures.run import RunData
from rmviz.figures.style import DEFAULT_STYLE, STYLES, Style, finish, finish_axes
from rmviz.present.definitions import FIGURE_NAMES
from rmviz.present.tree_labels import CM_PER_INCH, FRAME_WIDTH_CM
from rmviz.solvers.family import Family
from rmviz.solvers.registry import MATRIX, TREE, as_family

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Draw = Callable[[Target, RunData, Style], None]
IMAGE_SUFFIXES = (".png", ".svg", ".pdf")
DPI_RANGE = (10, 2400)
LEGIBLE_DPI = 72  # the lowest DPI a too-small size is told to try: the smallest text 7 pixels high


@dataclass(frozen=True)
class FigureKind:
    """One figure: what it shows, its builder for each family it applies to (keyed by the
    :class:`Family`; none: the TikZ document, written as text), its size relative to the
    style's one-panel size, and its fonts and lines relative to the style's (smaller in
    figures of many panels), and the smallest size it is drawn at, as a fraction of its
    default size (below it titles, labels and legends no longer fit beside the panels);
    ``fit``: the shape for a game's ``num_actions``, where its panels depend on the game."""

    name: str
    description: str
    draw: Mapping[Family, Draw | None]
    shape: tuple[float, float] = (1.0, 1.0)
    scale: float = 1.0
    minimum: float = 0.6
    frame: bool = False  # as wide as a beamer frame's text (FRAME_WIDTH_CM) by default, ``shape`` its aspect
    fit: Callable[[tuple[int, ...]], tuple[float, float]] | None = None

    def shape_for(self, game: Any = None) -> tuple[float, float]:
        """The shape for a run of ``game`` (None: the figure's own :attr:`shape`)."""
        return self.shape if game is None or self.fit is None else self.fit(tuple(game.num_actions))

    @property
    def suffixes(self) -> tuple[str, ...]:
        return (".tex",) if self.name == "tikz" else IMAGE_SUFFIXES


BOTH = (MATRIX, TREE)
FIGURES: dict[str, FigureKind] = {
    kind.name: kind
    for kind in (
        FigureKind(
            "strategies",
            "average and current strategies per player; trees: per information set",
            {MATRIX: matrix.draw_strategies, TREE: tree.draw_infoset_strategies},
            (1.3, 1.1),
            0.85,
        ),
        FigureKind(
            "gaps",
            "exploitability, CCE and CE gaps, regret bound (log-log)",
            dict.fromkeys(BOTH, matrix.draw_gaps),
        ),
        FigureKind("regrets", "average regret per action", {MATRIX: matrix.draw_regrets}),
        FigureKind("welfare", "social welfare of the empirical play", {MATRIX: matrix.draw_welfare}),
        FigureKind(
            "simplex",
            "strategy trajectories on the simplex, equilibrium starred",
            {MATRIX: matrix.draw_simplex},
            matrix.TRIANGLES_SHAPE,
            minimum=0.75,  # a 2x2 game's square panel and its axis titles collapsed at 0.6
            fit=matrix.simplex_shape,
        ),
        FigureKind("joint", "joint distribution of play (heatmap)", {MATRIX: matrix.draw_joint}, (0.8, 1.0)),
        FigureKind(
            "dashboard",
            "simplex, joint, strategies, gaps, regrets, welfare",
            {MATRIX: matrix.draw_dashboard},
            (1.45, 2.0),
            0.75,
            0.85,  # six panels: smaller, their titles and legends no longer fit
        ),
        FigureKind(
            "compare",
            "several algorithms' gaps overlaid",
            dict.fromkeys(BOTH, compare.draw_compare),
            (1.3, 0.9),
        ),
        FigureKind(
            "tree",
            "the game tree with the average strategy and its reach",
            {TREE: tree.draw_tree},
            (1.0, 0.75),  # 10.8 x 8.1 cm: a beamer frame's text area without a frame title
            0.6,  # a slide's text beside a whole tree: fonts of a beamer frame's, not a full page's
            frame=True,
        ),
        FigureKind("tikz", "the game as LaTeX: payoff table or TikZ tree (.tex)", dict.fromkeys(BOTH)),
    )
}
assert tuple(FIGURES) == FIGURE_NAMES, "definitions.FIGURE_NAMES lists the registry's figures"


def figures_of(family: Family | str) -> list[str]:
    """The figures a run of ``family`` (or the family it names) can be drawn as."""
    family = as_family(family)
    return [name for name, kind in FIGURES.items() if family in kind.draw]


def default_figure(family: Family | str) -> str:
    """The figure ``rmviz export`` draws unless told: the dashboard where ``family`` has one
    (matrix games), else the information sets' strategies (trees)."""
    return "dashboard" if "dashboard" in figures_of(family) else "strategies"


def figure_kind(name: str, family: Family | str) -> FigureKind:
    """The figure ``name``, checked to apply to ``family`` (or the family it names)."""
    family = as_family(family)
    kind = FIGURES.get(name)
    if kind is None:
        raise ConfigError(f"no figure {name!r}; choose one of {', '.join(FIGURES)}")
    if family not in kind.draw:
        raise ConfigError(
            f"the {name} figure is not drawn for {family.name} games; choose {', '.join(figures_of(family))}"
        )
    return kind


def default_size(
    name: str, style: str = DEFAULT_STYLE, width: float | None = None, game: Any = None
) -> tuple[float, float]:
    """The figure's size in inches in ``style``, fitted to a run of ``game`` where its panels
    depend on it (:attr:`FigureKind.fit`: the simplex); a figure that fits a frame (the
    tree) is ``width`` inches wide, by default :func:`frame_width`."""
    kind = FIGURES[name]
    shape = kind.shape_for(game)
    if kind.frame:
        across = frame_width() if width is None else width
        return across, across * shape[1] / shape[0]
    wide, high = STYLES[style].size
    return wide * shape[0], high * shape[1]


def sized_by_width(name: str) -> bool:
    """Whether ``--width`` (an exported figure's width as a length) sizes figure ``name``: a
    figure that fits a frame (the tree) and the TikZ picture; the others take a size."""
    return name == "tikz" or FIGURES[name].frame


def frame_width() -> float:
    """A beamer frame's text width in inches, the tree figures' and TikZ's default width."""
    return FRAME_WIDTH_CM / CM_PER_INCH


def minimum_size(name: str, style: str = DEFAULT_STYLE, game: Any = None) -> tuple[float, float]:
    """The smallest size in inches figure ``name`` of a run of ``game`` is drawn at in ``style``."""
    width, height = default_size(name, style, game=game)
    fraction = FIGURES[name].minimum
    return width * fraction, height * fraction


def check_size(
    name: str, style: str, size: tuple[float, float] | None, dpi: int = 150, game: Any = None
) -> None:
    """Refuse a ``size`` (inches) smaller than :func:`minimum_size`, in one line that gives
    the smallest size in pixels at ``dpi`` and the highest DPI at which these pixels fit."""
    if size is None or name == "tikz" or style not in STYLES:
        return
    low = minimum_size(name, style, game)
    if size[0] < low[0] - 1e-9 or size[1] < low[1] - 1e-9:
        pixels = f"{math.ceil(low[0] * dpi)}x{math.ceil(low[1] * dpi)} pixels at {dpi} DPI"
        fitting = math.floor(min(size[0] / low[0], size[1] / low[1]) * dpi)  # the same pixels, more inches
        # a lower DPI draws these pixels with text too small to read below LEGIBLE_DPI
        lower = f", or these pixels at {fitting} DPI or lower" if fitting >= LEGIBLE_DPI else ""
        raise ConfigError(
            f"{size[0] * dpi:.0f}x{size[1] * dpi:.0f} pixels is too small for the {name} figure in "
            f"the {style} style: at least {pixels} ({low[0]:.1f} x {low[1]:.1f} inches){lower}"
        )


def make_figure(
    name: str,
    run: RunData,
    style: str = DEFAULT_STYLE,
    size: tuple[float, float] | None = None,
    width: float | None = None,
) -> Figure:
    """Figure ``name`` of ``run`` in ``style`` (``paper`` or ``slides``), ``size`` inches
    (default: :func:`default_size`, ``width`` inches wide for the tree), captioned with the
    game, algorithm, T and play mode: a :class:`~.display.NotebookFigure` (a matplotlib
    Figure that a notebook shows as an image)."""
    from rmviz.figures.display import NotebookFigure

    draw, look = builder(name, run, style)
    size = size or default_size(name, style, width, run.game)
    check_size(name, style, size, game=run.game)
    with look.context():
        fig = NotebookFigure(figsize=size, layout="constrained")
        fig.set_label(f"{run.game.title}: {name}")
        draw(fig, run, look)
        finish(fig, look, run.caption())
    return fig


def builder(name: str, run: RunData, style: str) -> tuple[Draw, Style]:
    """Figure ``name``'s builder for ``run``'s family and its look in ``style``."""
    kind = figure_kind(name, run.family)
    draw = kind.draw[run.family]
    if draw is None:
        raise ConfigError(f"the {name} figure is a LaTeX document: write it with save_figure to a .tex file")
    if style not in STYLES:
        raise ConfigError(f"no style {style!r}; choose one of {', '.join(STYLES)}")
    return draw, STYLES[style].scaled(kind.scale)


def draw_figure(name: str, run: RunData, target: Target, style: str = "paper") -> Target:
    """Draw figure ``name`` of ``run`` on the caller's ``target`` and return it: an Axes
    (one-panel figures; the others refuse it in one line) or a Figure or SubFigure (new
    axes in it). The caller's figure keeps its layout and gets no caption; legends go inside
    the axes."""
    draw, look = builder(name, run, style)
    root = target.get_figure(root=True)
    if root is None:
        raise ConfigError("the Axes or SubFigure given belongs to no figure")
    before = set(root.axes)
    with look.context():
        draw(target, run, look)
        drawn = [ax for ax in root.axes if ax not in before]
        given = one_panel(target) if is_axes(target) else None  # the Axes itself
        if given is not None and given not in drawn:
            drawn.insert(0, given)
        finish_axes(drawn, look)
    return target


def check_target(
    name: str,
    family: Family | str,
    path: str | Path,
    dpi: int = 150,
    style: str = DEFAULT_STYLE,
    size: tuple[float, float] | None = None,
    game: Any = None,
) -> Path:
    """``path`` as a :class:`Path` once it can take figure ``name`` of a ``family`` run (of
    ``game``) at ``dpi`` and ``size`` inches (its suffix, its folder, the size), so a long
    run is not made for nothing."""
    path = Path(path)
    kind = figure_kind(name, family)
    if path.suffix.lower() not in kind.suffixes:
        raise RmvizError(f"{path.name}: the {name} figure is written as {' or '.join(kind.suffixes)}")
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise RmvizError(f"a DPI of {dpi} is outside {DPI_RANGE[0]}-{DPI_RANGE[1]}")
    check_size(name, style, size, dpi, game)
    if not path.parent.is_dir():
        raise RmvizError(f"cannot write {path}: the folder {path.parent} does not exist")
    return path


def save_figure(
    name: str,
    run: RunData,
    path: str | Path,
    style: str = DEFAULT_STYLE,
    size: tuple[float, float] | None = None,
    dpi: int = 150,
    width: float | None = None,
) -> Path:
    """Write figure ``name`` of ``run`` to ``path`` (.png, .svg or .pdf; ``tikz``: .tex) and
    return the path; a PNG is ``size`` x ``dpi`` pixels with the DPI recorded in it. The
    tree figure and the TikZ tree are ``width`` inches wide at most (default
    :func:`frame_width`)."""
    path = check_target(name, run.family, path, dpi, style, size, run.game)
    if name == "tikz":
        inches = frame_width() if width is None else width
        atomic_write_text(path, tikz.game_document(run.game, run, inches * CM_PER_INCH))
        return path
    return write_figure(make_figure(name, run, style, size, width), path, style, dpi)


def write_figure(fig: Figure, path: str | Path, style: str = DEFAULT_STYLE, dpi: int = 150) -> Path:
    """Write a figure of :func:`make_figure` to ``path`` (.png, .svg or .pdf) atomically."""
    path = Path(path)
    metadata = {"Title": fig.get_label() or "rmviz figure", "Creator": "rmviz"}
    with STYLES[style].context(), atomic_path(path) as temporary, warnings.catch_warnings():
        # make_figure laid the figure out: the layout that savefig runs again fits as well
        warnings.filterwarnings("ignore", message="constrained_layout not applied")
        fig.savefig(temporary, format=path.suffix.lower()[1:], dpi=dpi, metadata=metadata)
    return path
