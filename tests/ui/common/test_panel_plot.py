"""A live panel's curves across a change of the actions it draws (``PanelPlot.retarget``); its
legend's hover text."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest

from rmviz.present.definitions import REFERENCE, gap_curves
from rmviz.present.panels import LAST_KEY, gap_panel, strategy_panel
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.registry import MATRIX, TREE
from rmviz.ui.common.panel_plot import PanelPlot, line_pen
from rmviz.ui.common.plot_layout import PlotLayout

ACTIONS = [f"a{k}" for k in range(15)]


def trace(points: int = 60) -> TraceData:
    """Every column of a 15-action player's strategies, action k's average k / 105."""
    iterations = np.arange(1, points + 1)
    columns = {
        Column(quantity, player=0, action=k): np.full(points, k / 105)
        for quantity in ("average", "current")
        for k in range(15)
    }
    return TraceData(iterations, columns)


def test_a_retargeted_plot_keeps_each_curve_on_the_column_it_still_draws(qtbot):
    """Of a 15-action player's ten most played, one leaves and another comes in first: the nine
    kept keep their curves (their points and strokes: one new action restroked every curve
    of three plots at about every redraw of a 200x200 game), the newcomer takes the freed
    curve of its kind, every curve has its line's pen, and later lines lie over earlier
    ones as on paper."""
    layout = PlotLayout()
    qtbot.addWidget(layout)
    before = np.arange(15) / 105  # a5..a14 most played
    plot = PanelPlot(layout.ci, strategy_panel(0, "P1", ACTIONS, before), 0, 0)
    plot.update({None: trace()})
    old = {line.column: (curve, curve.getOriginalDataset()[0]) for line, curve in plot.curves.items()}
    after = before.copy()
    after[2] = 0.2  # a2 comes in first, a5 (tenth) leaves: the other nine move down one place
    panel = strategy_panel(0, "P1", ACTIONS, after)
    plot.retarget(panel)
    assert list(plot.curves) == list(panel.lines)
    for k, (line, curve) in enumerate(plot.curves.items()):
        if line.column.action != 2:
            kept, points = old[line.column]
            assert curve is kept and np.array_equal(curve.getOriginalDataset()[0], points)  # untouched
        else:
            assert curve is old[Column(line.column.quantity, player=0, action=5)][0]  # a5's, freed
        assert curve.opts["pen"] == line_pen(line, 1.0)
        assert curve.opts["antialias"] == (line.alpha == 1.0)
        assert curve.zValue() == k * 1e-3
    plot.update({None: trace()})
    for line, curve in plot.curves.items():
        np.testing.assert_array_equal(curve.getOriginalDataset()[1], trace().columns[line.column])


def test_the_right_click_menu_keeps_the_views_entries_but_not_plot_options(qtbot):
    """pyqtgraph's *Plot Options* (log, FFT, derivative, downsampling, alpha) redrew a panel
    against its definition, and a live curve takes none of them: FFT raised in the slot."""
    layout = PlotLayout()
    qtbot.addWidget(layout)
    plot = PanelPlot(layout.ci, strategy_panel(0, "P1", ACTIONS, np.arange(15) / 105), 0, 0)
    plot.update({None: trace()})
    assert plot.plot.getContextMenus(None) is None  # no Plot Options
    assert plot.plot.vb.menuEnabled()  # View All, the axes, Export...
    menu = plot.plot.vb.getMenu(None)
    assert "View All" in [action.text() for action in menu.actions()]


@pytest.mark.parametrize("family", [MATRIX, TREE], ids=["matrix", "tree"])
@pytest.mark.parametrize("zero_sum", [False, True])
def test_every_distance_in_a_live_legend_says_what_it_is_on_hover(qtbot, family, zero_sum):
    """The gaps' legend (below the plots, the matrix window's; its own, the compare tab's
    key "ends") names each distance and, on hover, its definition: the one said with its
    curve (``Curve.meaning``), so a CE gap below the CCE gap is explained where it shows. Keyed
    in the title instead (the tree window; a short matrix window), the plot says them all."""
    layout = PlotLayout()
    qtbot.addWidget(layout)
    panel = gap_panel(family, zero_sum)
    legend = pg.LegendItem()
    layout.ci.addItem(legend, row=1, col=0)
    PanelPlot(layout.ci, panel, 0, 0, legend=legend)
    meanings = {line.label: line.meaning for line in panel.lines if line.legend}
    meanings |= {key.label: key.meaning for key in panel.keys}
    meanings[REFERENCE.label] = REFERENCE.meaning
    shown = {label.text: (sample.toolTip(), label.toolTip()) for sample, label in legend.items}
    assert set(shown) == set(meanings)
    for name, meaning in meanings.items():
        assert len(meaning) > 40 and shown[name] == (meaning, meaning), name
    curves = gap_curves(family, zero_sum)
    assert all(meanings[curve.label] == curve.meaning for curve in curves.values())
    if family is MATRIX:  # the classroom question: why the CE gap may lie below the CCE gap
        assert "below the CCE gap" in meanings["CE gap"]
    titled = PanelPlot(layout.ci, panel, 2, 0, key="names")  # a short window keys them in the title
    hover = titled.plot.toolTip().splitlines()
    assert hover[0] == panel.title
    assert set(hover[1:]) == {
        f"{name}: {meaning}" for name, meaning in meanings.items() if name != LAST_KEY.label
    }
