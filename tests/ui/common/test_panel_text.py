"""What live plots say beside their curves. Titles (rmviz.ui.common.style): a plain title wider
than its plot is drawn elided to the plot's width, whole in the tooltip, and whole again once
the plot is wide enough; a title naming lines in colour (rich text) is not cut, but drawn
smaller where it is wider than its plot. A
panel's ``empty`` text (rmviz.ui.common.panel_plot): shown while a run has points and none of
the panel's lines drew any, as the figures show it (a big tree's untraced strategies)."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg

from rmviz.present.panels import NOT_TRACED, infoset_panel
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import MAX_TRACED_SLOTS
from rmviz.solvers.tree.compiled_tree import compile_tree
from rmviz.ui.common.panel_plot import LEGEND_BACKING, PanelPlot
from rmviz.ui.common.plot_layout import PlotLayout
from rmviz.ui.common.style import style_plot
from tests.solvers.tree.builders import binary_tree

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


def test_a_title_a_little_too_wide_is_drawn_whole_and_smaller(qtbot):
    """A plain title up to 1 / SMALLEST_TITLE times its plot's width is drawn whole, scaled
    about its centre, not elided (the tree window's compare panels cut "exploitability");
    one still too wide is elided, and drawn whole at its size again once there is room."""
    from rmviz.ui.common.style import SMALLEST_TITLE

    title = "exploitability"
    view, label = titled_plot(qtbot, title, 600)
    qtbot.waitUntil(lambda: label.width() > 0)
    natural = label.item.boundingRect().width()
    assert label.item.scale() == 1.0 and natural < label.width()
    view.resize(round(view.width() - (label.width() - 0.85 * natural)), 200)
    qtbot.waitUntil(lambda: label.item.scale() < 1.0)
    assert label.text == title and label.toolTip() == ""
    assert drawn_width(label) <= label.width() + 1 and label.item.scale() >= SMALLEST_TITLE
    view.resize(round(view.width() - label.width() + 0.4 * natural), 200)
    qtbot.waitUntil(lambda: label.text.endswith("…"))
    assert label.item.scale() >= SMALLEST_TITLE and label.toolTip() == title
    assert drawn_width(label) <= label.width() + 1
    # centred still: the text changed while it was scaled (it was drawn off to the right)
    assert abs(label.itemRect().center().x() - label.rect().center().x()) <= 1
    view.resize(600, 200)
    qtbot.waitUntil(lambda: label.text == title and label.item.scale() == 1.0)


def test_a_short_or_rich_title_is_drawn_as_set(qtbot):
    _, short = titled_plot(qtbot, "distance to equilibrium", 420)
    assert html.unescape(short.text) == "distance to equilibrium" and short.toolTip() == ""
    view, rich = titled_plot(qtbot, "x", 300)
    coloured = '<span style="color:#1f77b4">' + "named " * 40 + "</span>"
    rich.setText(coloured)
    view.resize(301, 200)
    qtbot.waitUntil(lambda: rich.width() > 0)
    assert rich.text == coloured  # rich text is not cut


def test_a_rich_title_wider_than_its_plot_is_drawn_smaller(qtbot):
    """A title naming the lines in colour (the gaps' legend) is not cut: wider than its plot
    it is drawn smaller, about its centre, down to SMALLEST_TITLE of its size, and at its
    size again once the plot is wide enough."""
    from rmviz.ui.common.style import SMALLEST_TITLE

    view, rich = titled_plot(qtbot, "x", 600)
    rich.setText('<span style="color:#1f77b4">' + "named " * 12 + "</span>")
    view.resize(380, 200)
    qtbot.waitUntil(lambda: rich.item.scale() < 1.0)
    drawn = rich.item.mapRectToParent(rich.item.boundingRect()).width()
    assert drawn <= rich.width() + 1 or rich.item.scale() == SMALLEST_TITLE
    assert rich.item.scale() >= SMALLEST_TITLE
    view.resize(4000, 200)
    qtbot.waitUntil(lambda: rich.item.scale() == 1.0)


def test_an_untraced_strategy_panel_says_so_while_nothing_is_drawn(qtbot):
    """A tree of more than MAX_TRACED_SLOTS moves traces the moves of the information sets
    nearest the root only: another set's panel says so in the middle (the text the figures
    draw), and a traced set's panel, drawn, says nothing."""
    big, small = compile_tree(binary_tree(11, perfect=True)), compile_tree(binary_tree(3))
    assert big.n_slots > MAX_TRACED_SLOTS >= small.n_slots
    players = ("Player 1", "Player 2")
    far = int(np.flatnonzero(~big.traced_infoset)[0])
    assert infoset_panel(big, far, players).empty == NOT_TRACED
    assert infoset_panel(big, 0, players).empty == infoset_panel(small, 0, players).empty == ""
    view = PlotLayout()
    qtbot.addWidget(view)
    untraced = PanelPlot(view.ci, infoset_panel(big, far, players), 0, 0)
    iterations = np.arange(1, 11)
    untraced.update({None: TraceData(iterations, {})}, lines=[])
    assert untraced.note is not None and untraced.note.isVisible()
    assert "not traced" in untraced.note.text
    untraced.clear()
    assert not untraced.note.isVisible()
    panel = infoset_panel(small, 0, players)
    traced = PanelPlot(view.ci, panel, 0, 1)
    columns = {line.column: np.full(iterations.size, 0.5) for line in panel.lines}
    traced.update({None: TraceData(iterations, columns)})
    assert traced.note is None


def test_a_title_names_only_the_lines_a_run_draws(qtbot):
    """Lines named in the title (a short window's key) are those the run has drawn points
    of, once it has any: a big tree's correlation gaps, not tracked, were named and never
    drawn (the figures' legends name only what they draw). A fresh run names them all again."""
    from rmviz.present.panels import gap_panel
    from rmviz.solvers.registry import TREE

    panel = gap_panel(TREE, False, last=False)
    view = PlotLayout()
    qtbot.addWidget(view)
    plot = PanelPlot(view.ci, panel, 0, 0, key="names")
    assert "EFCE gap" in plot.plot.titleLabel.whole_title
    iterations = np.arange(1, 11)
    columns = {line.column: np.full(iterations.size, np.nan) for line in panel.lines}
    tracked = next(line for line in panel.lines if line.column.quantity == "exploitability")
    columns[tracked.column] = 1.0 / iterations
    plot.update({None: TraceData(iterations, columns)})
    title = plot.plot.titleLabel.whole_title
    assert "exploitability" in title and "EFCE gap" not in title and "EFCCE gap" not in title
    plot.clear()
    assert "EFCE gap" in plot.plot.titleLabel.whole_title


def test_a_short_plot_lays_its_legend_out_in_columns(qtbot):
    """A panel keyed at its lines' ends draws pyqtgraph's legend in the plot: in a short plot
    its entries take as many columns as they need to fit (goofspiel's six bids showed three
    in a plot 100 pixels high), one column again when tall; on a white backing."""
    from rmviz.games.extensive_form import ExtensiveFormGame, decision, terminal

    moves = [(f"Bid: {k}", terminal(k, -k)) for k in range(6)]
    tree = compile_tree(ExtensiveFormGame(decision(0, "bids", moves), ("A", "B"), "bids"))
    view = PlotLayout()
    qtbot.addWidget(view)
    plot = PanelPlot(view.ci, infoset_panel(tree, 0, ("A", "B")), 0, 0)
    assert plot.legend is not None and len(plot.legend.items) == 6
    # on a white backing: a curve under an entry passes under it (Kuhn's "b" sat on p's curve)
    assert pg.mkBrush(plot.legend.opts["brush"]).color().getRgb() == LEGEND_BACKING
    view.resize(600, 150)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: plot.legend.columnCount > 1)
    assert plot.legend.boundingRect().height() <= plot.plot.vb.height()
    view.resize(600, 700)
    qtbot.waitUntil(lambda: plot.legend.columnCount == 1)


def test_a_note_in_a_narrow_panel_fits_its_width(qtbot):
    """The distances of a run that starts at an equilibrium are all 0: the panel says so in
    its middle, and at 1280x720 (a panel ~220 pixels wide) the lines ran past its left edge
    ("ery distance is 0 at every iteration record"). The note now fits the plot's width."""
    from rmviz.present.panels import NO_GAPS, gap_panel
    from rmviz.solvers.registry import MATRIX

    view = PlotLayout()
    qtbot.addWidget(view)
    panel = gap_panel(MATRIX, True, True)
    assert panel.empty == NO_GAPS
    plot = PanelPlot(view.ci, panel, 0, 0, scale=1.5)
    columns = {line.column: np.zeros(10) for line in panel.lines}
    plot.update({None: TraceData(np.arange(1, 11), columns)})
    assert plot.note is not None and plot.note.isVisible()
    for width in (200, 900):
        view.resize(width, 300)
        view.show()
        qtbot.waitUntil(lambda w=width: abs(plot.plot.vb.width() - (w - 60)) < 60)
        box = plot.note.item.mapRectToScene(plot.note.item.boundingRect())
        room = plot.plot.vb.sceneBoundingRect()
        assert room.left() - 1 <= box.left() and box.right() <= room.right() + 1, (width, box, room)
    assert plot.note.item.scale() == 1.0  # room enough: its own size
