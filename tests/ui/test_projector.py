"""Both windows on a projector (issue 12): they open at a size that fits the screen, fit
1280x720 and 1024x768 in and out of presentation mode with nothing clipped, F5 while paused
keeps every plot drawn, Esc leaves presentation mode, the text size (Ctrl+= / Ctrl+- /
Ctrl+0) reaches plots, tables and explanations, and Reset leaves iteration 0, paused."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QApplication, QWidget

from rmviz.games.trees import kuhn_poker
from rmviz.solvers.columns import Column
from rmviz.ui.common.presentation import MINIMUM_SIZE
from rmviz.ui.common.run_window import RunWindow, StartOptions
from tests.ui.matrix.conftest import iteration, make_window
from tests.ui.tree.conftest import make_tree_window

SCREENS = (QSize(1280, 720), QSize(1024, 768))


@pytest.fixture(params=["matrix", "tree"])
def any_window(request, qtbot, tmp_path):
    if request.param == "matrix":
        shown = make_window(qtbot, tmp_path, game="rps-crash")
    else:
        shown = make_tree_window(qtbot, kuhn_poker())
    shown.show()
    yield shown
    shown.shutdown()


def inside(widget: QWidget, window: RunWindow) -> bool:
    """Whether ``widget`` is shown, whole, inside the window."""
    corner = widget.mapTo(window, QPoint(0, 0))
    return widget.isVisible() and window.rect().contains(QRect(corner, widget.size()))


def clipped_plots(layout) -> list:
    """The plots of a pyqtgraph layout that lie partly outside what its view shows (a plot
    squeezed past the right edge is clipped), as rectangles; the view's rectangle last."""
    shown = layout.mapToScene(layout.viewport().rect()).boundingRect().adjusted(-1, -1, 1, 1)
    items = [item for item in layout.scene().items() if type(item).__name__ == "PlotItem"]
    assert items
    outside = [item.sceneBoundingRect() for item in items if not shown.contains(item.sceneBoundingRect())]
    return outside and [*outside, shown]


def settle(qtbot) -> None:
    QApplication.processEvents()
    qtbot.wait(50)


def wait_drawn(window, qtbot) -> None:
    """Wait until the window has drawn the paused run's newest snapshot."""
    qtbot.waitUntil(window.run.drawn, timeout=60_000)


# -- sizes ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s.width()}x{s.height()}")
def test_the_window_fits_the_screen_with_its_run_controls_visible(any_window, qtbot, screen):
    window = any_window
    window.presentation.fit_to_screen(QSize(1480, 900), QRect(QPoint(0, 0), screen))
    settle(qtbot)
    assert window.width() <= screen.width() and window.height() <= screen.height()
    assert window.minimumSizeHint().boundedTo(screen) == window.minimumSizeHint()
    assert inside(window.controls.run_button, window) and inside(window.controls, window)
    for presentation in (True, False):
        window.presentation.fixed_size = screen  # as --size: presentation mode keeps this size
        window.presentation.set(presentation)
        settle(qtbot)
        assert window.size() == screen
        assert inside(window.tabs, window) and inside(window.statusBar(), window)
        assert not clipped_plots(window.plots)


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s.width()}x{s.height()}")
def test_every_algorithms_description_is_shown_whole(any_window, qtbot, screen):
    """The line under the Algorithm box gets the height its wrapped text needs (a three-line
    Monte-Carlo CFR description was once clipped to two)."""
    window = any_window
    window.presentation.fit_to_screen(QSize(1480, 900), QRect(QPoint(0, 0), screen))
    panel, label = window.panel, window.panel.description
    for name in window.family.presets:
        panel.algorithm.setCurrentIndex(panel.algorithm.findData(name))
        # the layout settles in posted events: wait for it, then the text must fit
        qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()), timeout=10_000)
        assert label.text() and inside(label, window), name


def test_a_small_screen_gets_the_whole_screen_a_large_one_the_preferred_size(any_window):
    window = any_window
    window.presentation.fit_to_screen(QSize(1480, 900), QRect(0, 0, 960, 540))  # 1920x1080 at 200%
    assert window.width() <= 960 and window.height() <= 540
    window.presentation.fit_to_screen(QSize(1480, 900), QRect(0, 0, 2560, 1440))
    assert window.size() == QSize(1480, 900)
    window.presentation.fit_to_screen(QSize(100, 100), QRect(0, 0, 2560, 1440))
    assert window.size() == MINIMUM_SIZE


def test_three_players_fit_and_going_back_fits_again(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.show()
    window.start(StartOptions(presentation=True, size=(1280, 720)))
    for game in ("three-player-pennies", "battle-of-partners", "rps-crash"):
        window.load_catalog(game)
        settle(qtbot)
        assert window.size() == QSize(1280, 720)
        assert not clipped_plots(window.plots) and not clipped_plots(window.simplex), game
    window.shutdown()


# -- presentation mode ------------------------------------------------------------------------------
def test_f5_while_paused_keeps_every_plot_drawn(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps-crash")
    window.show()
    window.run.step(300)
    qtbot.waitUntil(lambda: iteration(window) == 300, timeout=60_000)
    wait_drawn(window, qtbot)
    strategy, gap = Column("average", player=0, action=0), Column("exploitability")
    for _ in range(2):  # in, then out again
        window.presentation.action.trigger()
        settle(qtbot)
        assert not window.run.thread.loop.running and iteration(window) == 300
        for column in (strategy, gap, Column("regret", player=1, action=2), Column("welfare")):
            curve = window.plots.curves[column]
            assert curve.isVisible() and len(curve.xData) > 5, column
    window.shutdown()


def test_f5_and_esc_in_both_windows(any_window, qtbot):
    window = any_window
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=60_000)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert window.presentation.on and window.presentation.action.isChecked()
    assert not window.left.isVisibleTo(window)  # the solver panel hides in both
    light = window.palette().color(window.palette().ColorRole.Window).lightness()
    assert light > 200  # the light theme, whatever the desktop's
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.presentation.on and not window.isFullScreen()
    assert window.left.isVisibleTo(window) and not window.presentation.leave_action.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_F5)
    qtbot.keyClick(window, Qt.Key.Key_F5)  # F5 toggles
    assert not window.presentation.on


# -- the text size ----------------------------------------------------------------------------------
def plot_points(window) -> float:
    plot = window.plots.plot_items[0][0] if hasattr(window.plots, "plot_items") else window.plots.gap_plot
    return plot.getAxis("bottom").style["tickFont"].pointSizeF()


def table_points(window) -> float:
    table = window.editor.table if hasattr(window.editor, "table") else window.detail.table
    return table.font().pointSizeF()


def test_the_text_size_reaches_plots_tables_and_explanations(any_window, qtbot):
    window = any_window
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=60_000)
    before = (plot_points(window), table_points(window), window.font().pointSizeF())
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    bigger = (plot_points(window), table_points(window), window.font().pointSizeF())
    assert all(b > a * 1.25 for a, b in zip(before, bigger, strict=True)), (before, bigger)
    if hasattr(window, "detail"):  # the tree window's explanation follows the window's font
        assert window.detail.explain.font().pointSizeF() == pytest.approx(bigger[2])
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert table_points(window) < bigger[1]
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert (plot_points(window), table_points(window)) == pytest.approx(before[:2])


# -- reset ------------------------------------------------------------------------------------------
def test_reset_leaves_iteration_0_paused_and_edits_keep_the_run_paused(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, autorun=True)
    qtbot.waitUntil(lambda: iteration(window) > 0, timeout=60_000)
    window.run.reset()
    assert not window.run.thread.loop.running and iteration(window) == 0
    wait_drawn(window, qtbot)
    assert window.iteration_label.text() == "iteration 0" and window.rate_label.text() == "paused"
    assert window.run_button.text() == "Run"
    window.model.setData(window.model.index(0, 1), "3, 4")  # an edit while paused
    window.load_catalog("rps")  # a catalog game while paused
    assert not window.run.thread.loop.running and iteration(window) == 0
    window.run.toggle()
    window.load_catalog("rps-crash")  # while running: the fresh run runs on
    assert window.run.thread.loop.running
    window.shutdown()


def test_reset_in_the_tree_window_is_iteration_0_paused(qtbot):
    window = make_tree_window(qtbot, kuhn_poker())
    window.run.toggle()
    qtbot.waitUntil(lambda: window.run.thread.loop.latest()[1].iteration > 0, timeout=60_000)
    window.run.reset()
    assert not window.run.thread.loop.running and window.run.thread.loop.latest()[1].iteration == 0
    wait_drawn(window, qtbot)
    assert window.status.text().startswith("iteration 0") and "paused" in window.status.text()
    window.shutdown()


def test_the_size_option_sets_the_window_size(any_window, qtbot):
    any_window.start(StartOptions(presentation=True, size=(1024, 768)))
    settle(qtbot)
    assert any_window.size() == QSize(1024, 768) and not any_window.isFullScreen()
