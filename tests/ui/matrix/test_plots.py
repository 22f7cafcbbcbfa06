"""The live plots: staggered redraws, decade-snapped axes, full-resolution redraws, decade
labels on log axes, and the welfare axis."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from rmviz.games import catalog_game
from rmviz.runner.record import record_run
from rmviz.runner.trace import TraceData
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.ui.common.plot_layout import LIVE_POINTS, live_points, mark_step
from rmviz.ui.matrix.plots import ConvergencePlots

AVERAGE_00, EXPLOITABILITY = Column("average", player=0, action=0), Column("exploitability")


def trace_of(iterations):
    solver = RegretMinimizer(catalog_game("rps-crash"), preset("rm"))
    trace = record_run(solver, iterations, points_per_decade=400)
    data = trace.data()
    return data.iterations, data.columns


def test_staggered_updates_alternate_rows_and_thin_the_points(qtbot):
    plots = ConvergencePlots()
    qtbot.addWidget(plots)
    plots.set_game(catalog_game("rps-crash"))
    iterations, columns = trace_of(100_000)
    assert iterations.size > LIVE_POINTS
    plots.update_from(iterations, columns, stagger=True)  # the strategy row first
    drawn = plots.curves[AVERAGE_00].getOriginalDataset()[0]
    assert len(drawn) <= LIVE_POINTS + 1
    np.testing.assert_array_equal(drawn, iterations[live_points(iterations)])
    assert drawn[0] == iterations[0] and drawn[-1] == 100_000  # the newest point is always drawn
    assert plots.curves[EXPLOITABILITY].getOriginalDataset()[0].size == 0
    plots.update_from(iterations, columns, stagger=True)  # then the others
    assert plots.curves[EXPLOITABILITY].getOriginalDataset()[0].size


@pytest.mark.parametrize("budget", [50, 300])
def test_live_points_keep_the_sparse_start_and_spread_the_rest_evenly_on_log_axes(budget):
    iterations, _ = trace_of(10**6)  # every iteration at first, then ~400 points a decade
    drawn = iterations[live_points(iterations, budget)]
    assert drawn.size <= budget + 1 and drawn[0] == iterations[0] and drawn[-1] == iterations[-1]
    assert np.all(np.diff(drawn) > 0)  # a subsequence of the trace, in order
    # every trace point farther than one mark (in log10 T) from its predecessor is drawn:
    # where the trace is sparser than the marks nothing is thinned
    step = mark_step(np.log10(iterations[-1] / iterations[0]), budget)
    assert step >= np.log10(iterations[-1] / iterations[0]) / (budget - 2)
    sparse = iterations[1:][np.diff(np.log10(iterations)) > step]
    assert set(sparse.tolist()) <= set(drawn.tolist())
    assert {1, 2, 3, 4, 5} <= set(drawn.tolist())  # the first iterations, each a visible vertex
    # where the trace is dense (400 points a decade), each decade gets its share of the marks
    per_decade = 1 / step
    for decade in (3, 4, 5):
        count = np.count_nonzero((drawn >= 10**decade) & (drawn < 10 ** (decade + 1)))
        assert abs(count - per_decade) <= 1.5
    assert live_points(iterations[:budget], budget) == slice(None)


def test_exports_draw_every_point_and_axes_end_at_the_data(qtbot):
    plots = ConvergencePlots(panels=("gaps",))
    qtbot.addWidget(plots)
    plots.set_game(catalog_game("rps-crash"))
    iterations, columns = trace_of(20_000)
    plots.update_from(iterations, columns)
    curve = plots.curves[EXPLOITABILITY]
    keep = columns[EXPLOITABILITY] > 0
    np.testing.assert_array_equal(curve.getOriginalDataset()[0], iterations[keep])
    plot, _ = plots.plot_items[0]
    (x0, x1), (y0, y1) = plot.vb.viewRange()
    # log10: from 1 to 20,000 rounded up to a tenth of a decade (4.4), padding 2%
    assert x0 < 0 < 4.4 < x1 < 4.4 + 0.1
    low = np.log10(columns[EXPLOITABILITY][keep].min())
    assert y0 <= np.floor(low) + 0.1 and y1 >= 0 and y1 - y0 >= 2  # two decades at least


def test_after_one_iteration_every_curve_shows_its_point_and_the_gap_axis_a_label(qtbot):
    plots = ConvergencePlots()
    qtbot.addWidget(plots)
    plots.set_game(catalog_game("rps-crash"))
    plots.resize(900, 500)
    plots.show()
    iterations, columns = trace_of(1)
    plots.update_from(iterations, columns)
    drawn = [curve for column, curve in plots.curves.items() if column in columns]
    assert len(drawn) > 10
    for curve in drawn:  # a line through one point draws nothing: a dot (a ring when faint)
        assert len(curve.xData) == 1 and curve.lone
        assert curve.dot.opts["pen"].color().alpha() == 255
    current = plots.curves[Column("current", player=0, action=0)]
    hollow = Qt.BrushStyle.NoBrush
    assert current.dot.opts["brush"].style() == hollow != plots.curves[AVERAGE_00].dot.opts["brush"].style()
    plot = next(plot for plot, log_y in plots.plot_items if log_y)
    (y0, y1) = plot.vb.viewRange()[1]
    assert y1 - y0 >= 2  # a decade's labels sit at the axis's ends, where pyqtgraph drops them
    axis = plot.getAxis("left")
    axis.tickValues(y0, y1, axis.height())
    assert any(y0 + 0.1 < decade < y1 - 0.1 for decade in axis.labelled)  # one label inside
    iterations, columns = trace_of(3)
    plots.update_from(iterations, columns)
    assert all(len(curve.xData) == 3 and not curve.lone for curve in drawn)


def test_log_axes_label_decades_only_and_never_overprint(qtbot):
    plots = ConvergencePlots(panels=("gaps",))
    qtbot.addWidget(plots)
    plots.set_game(catalog_game("rps-crash"))
    axis = plots.plot_items[0][0].getAxis("bottom")
    for size, low, high in ((600, 0.0, 3.3), (120, 0.0, 8.0), (60, -12.0, 0.0)):
        levels = axis.tickValues(low, high, size)
        strings = [axis.tickStrings(values, 1.0, spacing) for spacing, values in levels]
        labels = [s for level in strings for s in level if s]
        assert all(label == "1" or label.startswith("10") for label in labels), labels
        assert not any(strings[1])  # the minor level is unlabelled
        assert len(labels) * 8 * 96 / 72 * 3.2 <= max(size, 8 * 96 / 72 * 3.2)  # each label has room
    # a range within one decade (10^1.2 to 10^1.7): its first and last minor ticks are labelled
    levels = axis.tickValues(1.2, 1.7, 600)
    labels = [s for spacing, values in levels for s in axis.tickStrings(values, 1.0, spacing) if s]
    assert labels == ["2×10", "5×10"]


def test_welfare_axis_is_symmetric_and_ignores_rounding_noise(qtbot):
    plots = ConvergencePlots(panels=("welfare",))
    qtbot.addWidget(plots)
    plots.set_game(catalog_game("rps-crash"))
    iterations = np.array([1, 10, 100])
    plots.update_from(iterations, {Column("welfare"): np.array([1e-17, -2e-17, 0.0])})
    low, high = plots.welfare_plot.vb.viewRange()[1]
    assert low == pytest.approx(-0.2) and high == pytest.approx(0.2)  # a tenth of the payoffs' scale


def test_the_regret_plot_draws_three_players_and_says_their_line_styles(qtbot):
    """Player 3's regrets were left out and nothing said which player was dashed."""
    plots = ConvergencePlots(panels=("regrets",))
    qtbot.addWidget(plots)
    game = catalog_game("three-player-pennies")
    plots.set_game(game)
    regrets = {c for c in plots.curves if c.quantity == "regret"}
    assert {c.player for c in regrets} == {0, 1, 2}
    styles = {c.player: plots.curves[c].opts["pen"].style() for c in regrets}
    assert len(set(styles.values())) == 3  # one line style per player
    title = plots.plot_items[0][0].titleLabel.text
    assert all(name in title for name in game.player_names) and "- -" in title


def test_a_lone_point_that_is_not_a_number_gets_no_dot(qtbot):
    """pyqtgraph's scatter warned "All-NaN slice" when asked to mark a NaN (a face of the
    simplex the strategy puts no mass on, a welfare not defined)."""
    import pyqtgraph as pg

    from rmviz.ui.common.live_curve import LiveCurve
    from rmviz.ui.matrix.simplex import FadingPath

    plot = pg.PlotItem()
    curve = LiveCurve(pg.mkPen("#0072B2"))
    plot.addItem(curve)
    curve.setData(np.array([1.0]), np.array([np.nan]))
    assert not curve.lone
    curve.setData(np.array([1.0]), np.array([0.5]))
    assert curve.lone
    path = FadingPath(plot, "#0072B2", 2.0)
    path.setData(np.array([0.1, 0.2, np.nan]), np.array([0.3, 0.4, np.nan]))
    np.testing.assert_array_equal(np.ravel(path.end.getData()), [0.2, 0.4])


def test_a_big_games_plots_draw_the_actions_played_and_follow_the_run(qtbot):
    """Live, as on paper (tests/present/test_shown_actions.py): the strategy and regret plots
    of a 15x15 game draw the ten actions each player plays most at the trace's last point,
    the title naming the most played first, and draw others when that changes, each curve
    from its own action's column. The choice reads the newest point alone: the columns drawn
    are the ten's, not all fifteen (a 200x200 game's 400 columns were copied at each redraw)."""
    from rmviz.loading import load_with_progress
    from rmviz.present.panels import last_averages, shown_actions

    game = load_with_progress("random:zero-sum:15x15")
    trace = record_run(RegretMinimizer(game, preset("rm")), 1000, points_per_decade=50).data()
    plots = ConvergencePlots()
    qtbot.addWidget(plots)
    plots.set_game(game)
    every = {Column("average", player=1, action=a) for a in range(15)}
    assert every <= set(plots.chosen_from()) and not every <= set(plots.columns())  # drawn: ten
    strategies = list(plots.rows[0])
    assert all(plot.plot.toolTip().endswith("(first 10 of 15 actions)") for plot in strategies)
    regrets = next(plot for plot in plots.rows[1] if plot.panel.name == "regrets")
    for points in (trace.iterations.size, 1):  # the whole run, then its first point (uniform)
        iterations = trace.iterations[:points]
        columns = {c: v[:points] for c, v in trace.columns.items()}
        plots.choose(TraceData(iterations[-1:], {c: v[-1:] for c, v in columns.items()}))  # the newest point
        plots.update_from(iterations, columns)
        shown = [shown_actions(15, a) for a in last_averages(columns, [15, 15])]
        assert (shown[0] == tuple(range(10))) == (points == 1)
        for i, plot in enumerate(strategies):
            assert plot.plot.toolTip().endswith("(10 most played of 15)")
            drawn = [line.column.action for line in plot.curves if line.column.quantity == "average"]
            assert drawn == list(shown[i])
            title = plot.plot.titleLabel.text
            named = [title.index(f"&nbsp;{game.action_names[i][a]}</span>") for a in shown[i][:6]]
            assert named == sorted(named) and title.endswith("+4 more")
        for i in range(2):
            drawn = [line.column.action for line in regrets.curves if line.column.player == i]
            assert drawn == sorted(shown[i])
        for plot in (*strategies, regrets):
            for line, curve in plot.curves.items():
                np.testing.assert_array_equal(curve.getOriginalDataset()[1], columns[line.column])
                assert plots.curves[line.column] is curve
