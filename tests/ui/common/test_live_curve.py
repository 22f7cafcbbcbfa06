"""Live curves stroked incrementally (rmviz.ui.common.live_curve) draw what a whole stroke
draws, and the live thinning keeps the points drawn from one redraw to the next."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage

from rmviz.games import catalog_game
from rmviz.runner.record import record_run
from rmviz.solvers.columns import Column
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.ui.common.live_curve import TAIL_POINTS, LiveCurve
from rmviz.ui.common.plot_layout import PlotLayout, live_points, mark_step
from rmviz.ui.common.style import pen
from rmviz.ui.matrix.plots import ConvergencePlots

AVERAGE_00 = Column("average", player=0, action=0)


def trace_of(game_id: str, iterations: int):
    solver = RegretMinimizer(catalog_game(game_id), preset("rm"))
    data = record_run(solver, iterations, points_per_decade=200).data()
    return data.iterations, data.columns


def pixels(widget) -> np.ndarray:
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    return rows[:, : image.width(), :3].astype(int)


def two_plots(qtbot, dash: str):
    """A growing curve and a plain one on two plots of the same size, log x as the live plots."""
    views = []
    for kind in (LiveCurve, pg.PlotDataItem):
        view = PlotLayout()
        qtbot.addWidget(view)
        view.resize(500, 300)
        plot = view.addPlot()
        plot.setLogMode(x=True, y=False)
        plot.setXRange(0, 5, padding=0)
        plot.setYRange(0, 1, padding=0)
        line = pen("#1f77b4", 2.0, dash)
        curve = LiveCurve(line, antialias=True) if kind is LiveCurve else kind(pen=line, antialias=True)
        plot.addItem(curve)
        view.show()
        views.append((view, curve))
    qtbot.waitExposed(views[1][0])
    return views


def differing(a: np.ndarray, b: np.ndarray) -> int:
    """Pixels whose colour differs by more than a faint shade."""
    return int(np.count_nonzero(np.abs(a - b).max(axis=2) > 40))


@pytest.mark.parametrize("dash", ["solid", "dashed"])
def test_a_growing_curve_draws_what_a_whole_stroke_draws(qtbot, dash):
    (grown, curve), (whole, plain) = two_plots(qtbot, dash)
    iterations, columns = trace_of("rps-crash", 100_000)
    values = columns[AVERAGE_00]
    strokes = []
    # a run goes on (the head is stroked again only after TAIL_POINTS points), then another
    # game's run of as many points, a rewind to an earlier iteration and a fresh run
    other_iterations, other_columns = trace_of("matching-pennies", 50_000)
    steps = [(iterations, values, n) for n in range(200, 200 + 2 * TAIL_POINTS + 5, 3)]
    others = other_columns[AVERAGE_00]
    edit = (other_iterations, others, steps[-1][2] + 3)  # every point changes, as many of them
    steps += [
        edit,
        (iterations, values, 150),
        (other_iterations, others, 180),
        (other_iterations, others, 183),
    ]
    for x, y, n in steps:
        drawn = live_points(x[:n])
        for shown in (curve, plain):
            shown.setData(x[:n][drawn], y[:n][drawn])
        np.testing.assert_array_equal(curve.getData()[0], plain.getData()[0])  # log10 T, as drawn
        assert differing(pixels(grown), pixels(whole)) <= 12  # the seam, a few pixels of shade
        strokes.append(curve.head_strokes)
    growing = np.diff(strokes[:-4])
    assert growing.sum() <= 2 + len(growing) // (TAIL_POINTS // 3)  # mostly the tail alone
    assert strokes[-1] > strokes[-4]  # after a rewind and a new run, a head of the new points


def test_the_live_plots_draw_the_trace_after_appends_a_rewind_and_an_edit(qtbot):
    plots = ConvergencePlots()
    qtbot.addWidget(plots)
    plots.resize(900, 500)
    plots.show()
    qtbot.waitExposed(plots)
    game = catalog_game("rps-crash")
    plots.set_game(game)
    iterations, columns = trace_of("rps-crash", 200_000)

    def draw(n: int) -> None:
        for _ in range(2):  # both rows, staggered as the window draws them
            plots.update_from(iterations[:n], {c: v[:n] for c, v in columns.items()}, stagger=True)
        plots.grab()  # painted: the heads are stroked

    def check(n: int) -> None:
        shown = iterations[:n][live_points(iterations[:n])]
        x, y = plots.curves[AVERAGE_00].getOriginalDataset()
        np.testing.assert_array_equal(x, shown)
        np.testing.assert_array_equal(y, columns[AVERAGE_00][:n][live_points(iterations[:n])])

    for n in range(600, 640, 4):
        draw(n)
        check(n)
    assert plots.curves[AVERAGE_00].head_strokes >= 1
    draw(400)  # a rewind (a session's run taken back)
    check(400)
    edited = catalog_game("rps-crash")
    plots.restart(edited)  # an edit of payoffs: the curves empty, the run starts again
    assert plots.curves[AVERAGE_00].getOriginalDataset()[0].size == 0
    draw(500)
    check(500)


def test_the_thinned_points_stay_put_as_the_trace_grows():
    iterations, _ = trace_of("rps-crash", 10**6)
    start = 400
    before = iterations[:start][live_points(iterations[:start])]
    for n in range(start + 1, iterations.size):
        now = iterations[:n][live_points(iterations[:n])]
        span = np.log10(iterations[n - 1] / iterations[0]), np.log10(iterations[n - 2] / iterations[0])
        if mark_step(span[0], 300) == mark_step(span[1], 300):  # the same grid: a curve grows at its end
            np.testing.assert_array_equal(now[: len(before) - 1], before[:-1])
        before = now


def test_a_live_curve_maps_log_axes_as_pyqtgraph_maps_a_plot_data_item(qtbot):
    """Log x and log y: a zero or negative value has no logarithm and is left out (a gap in
    the line, as a ``PlotDataItem`` draws it), the points given are kept as given, and a
    change of the plot's log mode maps them again."""
    view = PlotLayout()
    qtbot.addWidget(view)
    plot = view.addPlot()
    plot.setLogMode(x=True, y=True)
    live, plain = LiveCurve(pen("#1f77b4", 2.0, "solid")), pg.PlotDataItem(pen="#1f77b4")
    for curve in (live, plain):
        plot.addItem(curve)
    x = np.array([1.0, 10.0, 100.0, 1e3, 1e4, 1e5])
    y = np.array([0.5, 0.0, 1e-3, -2.0, 1e-5, 1e-6])
    for curve in (live, plain):
        curve.setData(x, y)
    for got, want in zip(live.getData(), plain.getData(), strict=True):
        np.testing.assert_array_equal(got, want)
    assert np.isnan(live.getData()[1][[1, 3]]).all() and live.opts["connect"] == "finite"
    for got, given in zip(live.getOriginalDataset(), (x, y), strict=True):
        np.testing.assert_array_equal(got, given)
    plot.setLogMode(x=True, y=False)
    for got, want in zip(live.getData(), plain.getData(), strict=True):
        np.testing.assert_array_equal(got, want)
    assert live.opts["connect"] == "all" and not live.lone
    live.setData(x[:1], y[:1])  # one point: a dot, in the line's colour
    assert live.lone and live.dot.opts["brush"].color() == live.opts["pen"].color()
    live.setData(x, y)
    assert not live.lone
