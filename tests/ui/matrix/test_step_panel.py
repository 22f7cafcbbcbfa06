"""The Step tab: after Step 1 its tables hold the engine's numbers for that iteration."""

from __future__ import annotations

import numpy as np

from rmviz.present.number_text import fraction
from tests.ui.matrix.conftest import iteration


def test_step_once_shows_the_engines_numbers(window, qtbot):
    window.tabs.setCurrentWidget(window.step_panel)
    window.run.step(1)
    qtbot.waitUntil(lambda: iteration(window) == 1, timeout=60_000)
    panel = window.step_panel
    qtbot.waitUntil(lambda: panel.shown is not None and panel.shown.iteration == 1, timeout=60_000)
    snapshot = window.run.thread.loop.latest()[1]
    game = window.document.game
    for i, actions in enumerate(game.action_names):
        for a in range(len(actions)):
            assert panel.cell(i, a, "pi^t+1") == fraction(snapshot.current_strategy[i][a])
            assert panel.cell(i, a, "R^t(a)") == fraction(snapshot.cumulative_regret[i][a])
            assert panel.cell(i, a, "average") == fraction(snapshot.average_strategy[i][a])
    # Battle of the Partners from uniform: Cat's U = (6, 3.5), u = 4.75, r = (1.25, -1.25)
    assert [panel.cell(0, a, "U(a)") for a in range(2)] == ["6", "7/2"]
    assert [panel.cell(0, a, "r^t(a)") for a in range(2)] == ["5/4", "-5/4"]
    np.testing.assert_allclose(snapshot.current_strategy[0], [1.0, 0.0])
    text = panel.explanation.toPlainText()
    assert "r^t(a) = U(a) - u^t = (5/4, -5/4)" in text
    assert "pi^t+1(a) = [R^t(a)]_+ / 5/4 = (1, 0)" in text
