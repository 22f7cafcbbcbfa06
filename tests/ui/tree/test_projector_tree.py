"""The tree window on a projector (issue 12): in presentation mode at 1280x720 and 1024x768,
Kuhn poker and the teaching tree show the chosen information set's table whole, the tree's
labels at a legible size with the chosen set in view, and plots tall enough for their axis
labels; the text size reaches the tree; F toggles the whole tree."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetricsF

from rmviz.games.trees import kuhn_poker, teaching_tree
from rmviz.ui.common.run_window import StartOptions
from rmviz.ui.tree.view import LEGIBLE_POINTS, TEXT_POINTS
from tests.ui.test_projector import clipped_plots, settle
from tests.ui.tree.conftest import make_tree_window

GAMES = {"kuhn": (kuhn_poker, "Qpb"), "teaching-tree": (teaching_tree, "2X")}
SCREENS = ((1280, 720), (1024, 768))


def label_points(window) -> float:
    """The size the tree's labels show at on screen, in points."""
    view = window.view
    return view.transform().m11() * TEXT_POINTS * view.text_scale


def in_view(window, h: int) -> bool:
    view = window.view
    return view.mapToScene(view.viewport().rect()).boundingRect().contains(view.positions[h])


@pytest.fixture(params=list(GAMES))
def presented(request, qtbot):
    """A tree window after one recorded iteration, with the lecture's information set chosen."""
    build, label = GAMES[request.param]
    window = make_tree_window(qtbot, build())
    window.show()
    window.start(StartOptions(steps=1, infoset=label))
    yield window, request.param
    window.shutdown()


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_presentation_mode_shows_table_tree_and_plots_legibly(presented, qtbot, screen):
    window, game = presented
    window.start(StartOptions(presentation=True, size=screen))
    settle(qtbot)
    assert window.size() == QSize(*screen)
    # the table: every column and row, no scrolling
    table = window.detail.table
    assert table.horizontalHeader().length() <= table.viewport().width()
    assert table.verticalHeader().length() <= table.viewport().height()
    assert not table.horizontalScrollBar().isVisible() and not table.verticalScrollBar().isVisible()
    # the tree: labels at least 7 pt x sqrt(text scale) on screen, the chosen set in view
    scale = window.presentation.text_scale()
    assert label_points(window) >= LEGIBLE_POINTS * scale**0.5 - 1e-6
    nodes = [h for h in window.view.positions if window.tree.node_infoset[h] == window.infoset]
    assert any(in_view(window, h) for h in nodes)
    if game == "teaching-tree":  # small enough to be seen whole
        view = window.view
        shown = view.mapToScene(view.viewport().rect()).boundingRect().adjusted(-1, -1, 1, 1)
        assert shown.contains(view.scene().itemsBoundingRect())
    # the plots: none clipped, each tall enough for 0, 0.5 and 1 on its axis
    assert not clipped_plots(window.plots)
    for plot in (window.plots.gap_plot, window.plots.strategy_plot):
        font = plot.getAxis("left").style["tickFont"]
        assert plot.getViewBox().height() >= 5 * QFontMetricsF(font).height()
    window.presentation.leave()
    settle(qtbot)
    assert not window.presentation.on and window.left.isVisible()


def test_the_text_size_reaches_the_tree(qtbot):
    window = make_tree_window(qtbot, teaching_tree())
    window.show()
    window.start(StartOptions(presentation=True, size=(1280, 720)))
    settle(qtbot)
    before = label_points(window)
    window.presentation.set_text_steps(2)
    settle(qtbot)
    assert window.view.text_scale == pytest.approx(window.presentation.text_scale())
    # two steps: the labels grow 1.15^2 in the scene, the spacing 1.15, so with the whole
    # tree in view they read about 1.15 times larger
    assert label_points(window) > before * 1.05
    window.presentation.set_text_steps(0)
    settle(qtbot)
    assert label_points(window) == pytest.approx(before)
    window.shutdown()


def test_f_toggles_the_whole_tree(qtbot):
    window = make_tree_window(qtbot, kuhn_poker())
    window.show()
    window.start(StartOptions(presentation=True, size=(1024, 768)))
    settle(qtbot)
    view = window.view
    legible = label_points(window)
    assert view.horizontalScrollBar().maximum() > 0  # Kuhn does not fit legibly: it scrolls
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F)
    shown = view.mapToScene(view.viewport().rect()).boundingRect().adjusted(-1, -1, 1, 1)
    assert shown.contains(view.scene().itemsBoundingRect()) and label_points(window) < legible
    qtbot.keyClick(view, Qt.Key.Key_F)
    assert label_points(window) == pytest.approx(legible)
    window.shutdown()


@pytest.mark.parametrize("screen", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_kuhn_opens_with_the_root_and_the_chosen_set_in_view(qtbot, screen):
    """Kuhn opened on its first information set (at the far left) showed no root at 1280x720:
    the view now goes as near the root as keeping the set in view allows."""
    window = make_tree_window(qtbot, kuhn_poker())
    window.show()
    window.start(StartOptions(size=screen))
    settle(qtbot)
    nodes = [h for h in window.view.positions if window.tree.node_infoset[h] == window.infoset]
    assert any(in_view(window, h) for h in nodes)
    assert in_view(window, 0)
    window.shutdown()


def test_a_size_given_on_the_command_line_wins_over_a_sessions_full_screen(qtbot):
    """A session saved in presentation mode reopens full screen; --size must still give the
    screenshot that size (it came out 860x800, the offscreen screen's)."""
    window = make_tree_window(qtbot, teaching_tree())
    window.show()
    window.presentation.set(True)  # as a reopened session's view does, before start()
    window.start(StartOptions(size=(1280, 720)))
    settle(qtbot)
    assert not window.isFullScreen() and window.size() == QSize(1280, 720)
    window.shutdown()


def test_a_status_message_hides_the_status_line_and_gives_it_back(qtbot):
    """A message shown while the window is hidden (a reopened session, before the window
    shows) left Qt's status line visible under it: the two overprinted."""
    window = make_tree_window(qtbot, teaching_tree())
    window.statusBar().showMessage("Session restored at iteration 3")
    window.show()
    assert not window.status.isVisible()
    window.statusBar().clearMessage()
    assert window.status.isVisible()
    window.shutdown()


def test_the_gap_axis_always_shows_a_decade(qtbot):
    """0.125 -> 0.375 -> 0.204 (the teaching tree's first iterations) showed no number."""
    window = make_tree_window(qtbot, teaching_tree())
    window.show()
    window.start(StartOptions(steps=3, size=(1280, 720)))
    settle(qtbot)
    window.run.redraw(force=True)
    plot = window.plots.gap_plot
    low, high = plot.vb.viewRange()[1]
    assert high - low >= 2
    axis = plot.getAxis("left")
    axis.tickValues(low, high, axis.height())
    assert any(low + 0.1 < decade < high - 0.1 for decade in axis.labelled)
    window.shutdown()
