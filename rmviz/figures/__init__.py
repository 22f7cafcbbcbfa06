"""Figures for slides and papers, rendered by matplotlib from a run's trace, without Qt.

One registry (:mod:`.registry`) maps each figure's name to its builder for each game family;
the windows' *Export figure*, ``rmviz export`` and notebooks all go through it. In a
notebook::

    from rmviz.figures import record, make_figure, save_figure
    from rmviz.games.catalog import catalog_game

    run = record(catalog_game("rps-crash"), "rm", iterations=2000)
    make_figure("gaps", run, style="paper")          # shows itself in Jupyter
    save_figure("simplex", run, "simplex.pdf", style="slides")
    save_figure("tikz", run, "rps.tex")               # the payoff table for LaTeX

Modules: :mod:`.definitions` (colours, labels, titles shared with the live plots),
:mod:`.ticks` (decade ticks of log axes, also used live), :mod:`.layout` (the game-tree
layout the window, the tree figure and TikZ share), :mod:`.run` (what a figure is drawn
from), :mod:`.style` (paper and slides), :mod:`.matrix`, :mod:`.tree` and :mod:`.compare`
(builders), :mod:`.canvas` (a new figure's axes or the caller's ``ax=``/``fig=``),
:mod:`.display` (figures shown inline in notebooks), :mod:`.tikz` (LaTeX), :mod:`.registry`.
matplotlib is imported only when a figure is drawn.
"""

from rmviz.figures.registry import FIGURES, default_size, figures_of, make_figure, save_figure
from rmviz.figures.run import RunData, record, record_comparison
from rmviz.runner.trace import TraceData

__all__ = [
    "FIGURES",
    "RunData",
    "TraceData",
    "default_size",
    "figures_of",
    "make_figure",
    "record",
    "record_comparison",
    "save_figure",
]
