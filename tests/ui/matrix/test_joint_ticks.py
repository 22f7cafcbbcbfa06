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
