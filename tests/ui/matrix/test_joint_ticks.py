"""The live joint heatmap labels every k-th action when not all names fit its size."""

from __future__ import annotations


def test_the_joint_view_thins_its_labels(qapp):
    from PySide6.QtGui import QFont, QFontMetricsF

    from rmviz.ui.matrix.joint import stride, thinned

    metrics = QFontMetricsF(QFont())
    names = [str(k + 1) for k in range(100)]
    assert stride(names[:3], 300, metrics, across=True) == 1
    k = stride(names, 200, metrics, across=False)
    assert k > 1 and k * 200 / 100 >= metrics.height()  # labels a line apart at least
    assert [text for _, text in thinned(names[:10], 5) if text] == ["5", "10"]


def test_a_joint_not_tracked_draws_no_action_ticks(qtbot):
    """An untracked joint (66 x 66 blotto) left an empty plot with stray action ticks under
    its "not tracked" title; its axes are hidden until a joint is drawn again."""
    import numpy as np

    from rmviz.games.generators import random_game
    from rmviz.ui.matrix.joint import JointView

    view = JointView()
    qtbot.addWidget(view)
    view.set_game(random_game("zero-sum", (3, 3), seed=1))
    view.update_from(None)
    assert "not tracked" in view.plot.titleLabel.text
    assert not any(view.plot.getAxis(side).isVisible() for side in ("left", "bottom"))
    view.update_from(np.full((3, 3), 1 / 9))
    assert all(view.plot.getAxis(side).isVisible() for side in ("left", "bottom"))
