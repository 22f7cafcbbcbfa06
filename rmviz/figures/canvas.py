"""Where a builder draws: a figure or subfigure of its own (:func:`~.registry.make_figure`), or
the caller's (``fig=``, a Figure or SubFigure; ``ax=``, one Axes: ``Result.plot(ax=...)``).

Builders ask for their axes here: :func:`panels` gives a grid of new axes in a figure, or
the given Axes when the figure is one panel, and refuses an Axes for a figure of several
panels in one line that says what it draws and to pass ``fig=``. :func:`figure_of` is the
figure a builder may title (``None`` on a given Axes: the caller's figure is left alone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

import numpy as np

from rmviz.errors import ConfigError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import FigureBase

Target = Union["FigureBase", "Axes"]


def is_axes(target: Target) -> bool:
    from matplotlib.axes import Axes

    return isinstance(target, Axes)


def figure_of(target: Target) -> FigureBase | None:
    """The figure (or subfigure) a builder draws into, ``None`` when it was given an Axes."""
    return None if is_axes(target) else target  # type: ignore[return-value]


def panels(target: Target, rows: int, columns: int, name: str, what: str, **options: Any) -> np.ndarray:
    """``rows`` x ``columns`` new axes of ``target`` (a flat array), or the given Axes when
    the figure is one panel; ``name`` and ``what`` say what a refused Axes misses."""
    if is_axes(target):
        if rows * columns == 1:
            return np.array([target], dtype=object)
        raise ConfigError(
            f"the {name} figure draws {rows * columns} panels ({what}): pass fig= (a Figure), not ax="
        )
    made = target.subplots(rows, columns, squeeze=False, **options)  # type: ignore[union-attr]
    return np.asarray(made, dtype=object).ravel()


def one_panel(target: Target) -> Axes:
    """The one Axes of a one-panel figure: the given Axes, or a new one."""
    return panels(target, 1, 1, "", "")[0]


def whole_figure(target: Target, name: str, what: str) -> FigureBase:
    """``target`` as a figure: figures laid out in subfigures refuse an Axes."""
    fig = figure_of(target)
    if fig is None:
        raise ConfigError(f"the {name} figure draws {what}: pass fig= (a Figure), not ax=")
    return fig
