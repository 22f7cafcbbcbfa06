"""Action names of any length: drawn cut to NAME_CHARS characters (present.definitions
.shown_names), whole in the editor and the choosers' tooltips. A window of six face
choosers of 30-character names was 2,053 pixels wide at --size 1280x720, OpenSpiel's
normal-form Kuhn poker's 5,011; its figures were refused as too small for their panels."""

from __future__ import annotations

import numpy as np
import pytest

import rmviz
from rmviz.figures import record
from rmviz.figures.registry import make_figure
from rmviz.present.definitions import NAME_CHARS, shown_names
from rmviz.ui.matrix.window import MatrixWindow

LONG = tuple(f"strategy number {k} with a rather long descriptive name" for k in range(5))


def long_named_game():
    rng = np.random.default_rng(0)
    payoffs = rng.integers(-3, 4, (5, 5)).astype(float)
    return rmviz.game(payoffs, -payoffs, actions=[LONG, LONG], title="long names")


def test_names_are_cut_in_the_middle_and_stay_distinct():
    assert shown_names(("Rock", "Paper")) == ("Rock", "Paper")  # short ones as they are
    assert shown_names(("a  b\n c",)) == ("a b c",)  # white space made one space
    cut = shown_names(("abcdefghijklmnopqrstuvwxyz",))
    assert len(cut[0]) == NAME_CHARS and cut[0].startswith("abcdefg") and cut[0].endswith("tuvwxyz")
    shown = shown_names(LONG)
    assert len(set(shown)) == len(LONG)  # the cut alike: each starts with its number
    assert [s.split(":")[0] for s in shown] == ["1", "2", "3", "4", "5"]
    assert all(len(s.split(": ", 1)[1]) <= NAME_CHARS for s in shown)


def test_a_window_of_long_names_keeps_its_size(qtbot, tmp_path):
    from PySide6.QtCore import QSettings, Qt

    window = MatrixWindow(
        long_named_game(), settings=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    )
    window.confirm_discard = lambda: True
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitUntil(lambda: window.isVisible())
    assert window.minimumSizeHint().width() <= 1280 and window.width() == 1280
    selector = window.dashboard.face_combos[0]
    combo = selector.corners[0]
    assert combo.itemText(0) == shown_names(LONG)[0]
    assert combo.itemData(0, Qt.ItemDataRole.ToolTipRole) == LONG[0]  # the whole name on hover
    window.shutdown()


@pytest.mark.parametrize("name", ["strategies", "simplex", "dashboard", "regrets"])
def test_figures_of_long_names_are_drawn(name):
    fig = make_figure(name, record(long_named_game(), "rm", iterations=50))
    texts = [t.get_text() for ax in fig.axes for t in ax.texts] + [
        t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()
    ]
    assert not any(whole in text for text in texts for whole in LONG)
