"""Plot titles (rmviz.ui.common.style): a plain title wider than its plot is drawn elided to
the plot's width, whole in the tooltip, and whole again once the plot is wide enough; a title
naming lines in colour (rich text) is left as laid out."""

from __future__ import annotations

import html

import pyqtgraph as pg

from rmviz.ui.common.plot_layout import PlotLayout
from rmviz.ui.common.style import style_plot

LONG = (
    "Player 1: average strategy at Current player: 0 | P0 hand: 1 2 3 4 5 6 | P0 action "
    "sequence: | Point card sequence: 6 | Win sequence: | Points: 0 0 | Terminal?: 0 & more"
)


def titled_plot(qtbot, title: str, width: int):
    view = PlotLayout()
    qtbot.addWidget(view)
    plot = view.addPlot(row=0, col=0)
    style_plot(plot, html.escape(title))
    view.resize(width, 200)
    view.show()
    qtbot.waitExposed(view)
    return view, plot.titleLabel


def drawn_width(label: pg.LabelItem) -> float:
    return label.itemRect().width()


def test_a_long_title_is_elided_to_its_plot_and_whole_in_the_tooltip(qtbot):
    view, label = titled_plot(qtbot, LONG, 420)
    qtbot.waitUntil(lambda: label.text.endswith("…"))
    assert drawn_width(label) <= label.width() + 1
    assert LONG.startswith(html.unescape(label.text[:-1]))
    assert label.toolTip() == LONG
    view.resize(4000, 200)
    qtbot.waitUntil(lambda: html.unescape(label.text) == LONG)
    assert label.toolTip() == ""


def test_a_short_or_rich_title_is_drawn_as_set(qtbot):
    _, short = titled_plot(qtbot, "distance to equilibrium", 420)
    assert html.unescape(short.text) == "distance to equilibrium" and short.toolTip() == ""
    view, rich = titled_plot(qtbot, "x", 300)
    coloured = '<span style="color:#1f77b4">' + "named " * 40 + "</span>"
    rich.setText(coloured)
    view.resize(301, 200)
    qtbot.waitUntil(lambda: rich.width() > 0)
    assert rich.text == coloured  # rich text is not cut
