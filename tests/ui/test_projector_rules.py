"""The projector rules of issue 29, in both windows (a matrix game, rps-crash, and Kuhn poker)
at 1024x768, 1280x720 and 1920x1080, in normal and presentation mode, after a few hundred
iterations: every probability axis of the Run tab labels 0, 0.5 and 1; every log y axis labels
at least two decades; no status-bar label is cut (its text fits, or shows elided with the whole
text as its tooltip).

What a plot's axis draws is read from pyqtgraph itself: :meth:`AxisItem.generateDrawSpecs`,
on a painter with the axis's tick font as :meth:`AxisItem.paint` makes, returns the labels it
will draw, after it has dropped those that would be cut at the axis's ends. The windows are
built once for the module (one of each) and moved between sizes and modes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings, QSize
from PySide6.QtGui import QPainter, QPicture
from PySide6.QtWidgets import QApplication, QLabel

from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker
from rmviz.present.ticks import decade_label
from rmviz.ui.common.run_control import shown_text
from rmviz.ui.matrix.window import MatrixWindow
from rmviz.ui.tree.window import TreeWindow

WINDOWS = ("matrix", "tree")
SIZES = ((1024, 768), (1280, 720), (1920, 1080))
MODES = ("normal", "presentation")
STEPS = 300
CASES = [(w, s, m) for w in WINDOWS for s in SIZES for m in MODES]
IDS = [f"{w}-{s[0]}x{s[1]}-{m}" for w, s, m in CASES]
DECADES = {decade_label(e): e for e in range(-30, 31)}


@pytest.fixture(scope="module")
def windows(qapp, tmp_path_factory):
    """One window of each kind, stepped :data:`STEPS` iterations, paused; their settings and
    autosaves in a folder of the module's own."""
    folder = tmp_path_factory.mktemp("projector_rules")
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.NativeFormat, scope, str(folder / scope.name))
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder / scope.name))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("rmviz.ui.common.recovery.default_folder", lambda: folder / "autosave")
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        built = {
            "matrix": MatrixWindow(catalog_game("rps-crash"), settings=settings),
            "tree": TreeWindow(kuhn_poker()),
        }
        for window in built.values():
            window.errors = []
            window.show_error = window.errors.append
            window.confirm_discard = lambda: True
            window.show()
            window.run.step(STEPS)
        yield built
        for window in built.values():
            window.shutdown()
            window.close()
            window.deleteLater()
        QApplication.processEvents()


def shown(windows, qtbot, kind: str, size: tuple[int, int], mode: str):
    """The window of ``kind`` at ``size`` in ``mode``, its run (paused after :data:`STEPS`) drawn
    at that size and its layout settled."""
    window = windows[kind]
    loop = window.run.thread.loop
    qtbot.waitUntil(lambda: loop.latest()[1].iteration >= STEPS and not loop.running, timeout=60_000)
    window.presentation.keep_size(QSize(*size))
    window.presentation.set(mode == "presentation")
    window.tabs.setCurrentIndex(0)  # the Run tab (the tree window's Tree tab)
    qtbot.waitUntil(lambda: window.size() == QSize(*size), timeout=10_000)
    for _ in range(2):  # the matrix dashboard draws its two rows of plots in turn
        window.run.redraw(force=True)
        QApplication.processEvents()
    qtbot.waitUntil(window.run.drawn, timeout=10_000)
    QApplication.processEvents()
    assert not window.errors
    return window


def panel_plots(window) -> list:
    """The live plots (:class:`~rmviz.ui.common.panel_plot.PanelPlot`) of the Run tab."""
    if isinstance(window, MatrixWindow):
        found = [plot for row in window.plots.rows for plot in row]
    else:
        found = [plot for plot in (window.plots.gaps, window.plots.strategy) if plot is not None]
    assert found
    return found


def drawn_labels(axis) -> list[str]:
    """The tick labels ``axis`` draws at its present size and range, as its ``paint`` would."""
    picture = QPicture()
    painter = QPainter(picture)
    if axis.style["tickFont"]:
        painter.setFont(axis.style["tickFont"])
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _, _, text in texts]


@pytest.mark.parametrize(("kind", "size", "mode"), CASES, ids=IDS)
def test_probability_axes_label_0_half_and_1(windows, qtbot, kind, size, mode):
    window = shown(windows, qtbot, kind, size, mode)
    checked = 0
    for plot in panel_plots(window):
        if plot.panel.y.scale == "probability":
            labels = drawn_labels(plot.plot.getAxis("left"))
            assert {"0", "0.5", "1"} <= set(labels), (plot.panel.title, labels)
            checked += 1
    assert checked >= 1


@pytest.mark.parametrize(("kind", "size", "mode"), CASES, ids=IDS)
def test_log_axes_label_two_decades(windows, qtbot, kind, size, mode):
    window = shown(windows, qtbot, kind, size, mode)
    checked = 0
    for plot in panel_plots(window):
        if plot.panel.y.scale == "log":
            axis = plot.plot.getAxis("left")
            labels = drawn_labels(axis)  # lays the ticks out: axis.labelled is this layout's
            low, high = plot.plot.vb.viewRange()[1]
            labelled = {e for e in axis.labelled if low <= e <= high}
            drawn = {DECADES[text] for text in labels if text in DECADES}
            assert len(drawn) >= 2 and drawn <= labelled, (plot.panel.title, labels, (low, high))
            checked += 1
    assert checked >= 1


LONG = {"iteration": "iteration 123,456,789,012", "rate": "317,735,123 it/s"}


def cut_labels(window) -> list[str]:
    """The status bar's visible labels whose text does not fit and is not elided with the
    whole text as its tooltip, or which lie partly outside the window."""
    bad = []
    for label in window.statusBar().findChildren(QLabel):
        if not label.isVisible():
            continue
        corner = label.mapTo(window, QPoint(0, 0))
        if not window.rect().contains(QRect(corner, label.size())):
            bad.append(f"outside: {label.text()!r}")
        text, visible = label.text(), shown_text(label)
        fits = label.fontMetrics().horizontalAdvance(visible) <= label.contentsRect().width()
        if not fits or (visible != text and (not visible.endswith("…") or label.toolTip() != text)):
            bad.append(f"cut: {text!r} as {visible!r} in {label.contentsRect().width()} px")
    return bad


@pytest.mark.parametrize(("kind", "size", "mode"), CASES, ids=IDS)
def test_the_status_bar_elides_and_never_cuts(windows, qtbot, kind, size, mode):
    window = shown(windows, qtbot, kind, size, mode)
    labels = [label for label in window.statusBar().findChildren(QLabel) if label.isVisible()]
    assert labels and all(label.text() for label in labels)
    assert not cut_labels(window)
    # the widest texts they show: an iteration count and a rate in the hundreds of millions
    before = [label.text() for label in labels]
    try:
        for label in labels:
            label.setText("   ".join([label.text(), *LONG.values()] * 4))
        QApplication.processEvents()
        assert not cut_labels(window)
        painted = [shown_text(label) for label in labels]
        assert any(text.endswith("…") for text in painted), painted
    finally:
        for label, text in zip(labels, before, strict=True):
            label.setText(text)
        QApplication.processEvents()
