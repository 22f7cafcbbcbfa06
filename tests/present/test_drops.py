"""Where a curve of a log axis drops to exactly 0 (rmviz.present.panels.drops): the first
iteration of each run of zeros, marked at the axis's foot on paper and live alike
(tests/present/test_parity.py), the title saying what the mark means; nothing at iteration
0, which the log axis does not show, and nothing on other axes."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from rmviz.present.panels import ZERO_NOTE, drops, gap_panel, welfare_panel
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.registry import MATRIX
from rmviz.ui.common.panel_plot import PanelPlot
from rmviz.ui.common.plot_layout import PlotLayout

CCE = Column("cce_gap")


def table(iterations, values):
    return {
        None: TraceData(np.array(iterations, dtype=np.float64), {CCE: np.array(values, dtype=np.float64)})
    }


def test_each_run_of_zeros_is_marked_once_where_it_starts():
    panel = gap_panel(MATRIX, False)
    (line,) = [line for line in panel.lines if line.column == CCE]
    found = drops(panel, line, table([0, 1, 2, 3, 4, 5, 6, 8], [0, 0, 0.5, 0, 0, 0.2, 1e-300, 0]))
    np.testing.assert_array_equal(found, [1, 3, 8])  # 1e-300 is not 0; iteration 0 is not drawn
    assert not drops(panel, line, table([1, 2], [0.5, 0.25])).size
    welfare = welfare_panel(False)  # a linear axis draws its zeros
    assert not drops(
        welfare, welfare.lines[0], {None: TraceData(np.array([1.0]), {Column("welfare"): np.zeros(1)})}
    ).size


def test_live_marks_follow_the_run_and_go_with_it(qtbot):
    widget = PlotLayout()
    qtbot.addWidget(widget)
    panel = gap_panel(MATRIX, False)
    plot = PanelPlot(widget.ci, panel, 0, 0, legend=pg.LegendItem())
    plot.update(table([1, 2, 3], [0.5, 0.25, 0.1]))
    assert not plot._dropped() and ZERO_NOTE not in plot.plot.titleLabel.text
    plot.update(table([1, 2, 3, 4], [0.5, 0.25, 0.1, 0.0]))
    (line,) = [line for line in panel.lines if line.column == CCE]
    mark, at = plot.drops[line]
    assert list(at) == [4.0] and list(mark.xData) == [4.0]
    assert ZERO_NOTE in plot.plot.titleLabel.text
    plot.clear()  # a fresh run: no mark, no note
    assert mark.xData is None or not len(mark.xData)
    assert ZERO_NOTE not in plot.plot.titleLabel.text
