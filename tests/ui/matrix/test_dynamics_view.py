"""The simplex view's *Dynamics*: the field of the run's dynamic under the paths, toggled in the
view, with the algorithm's steps beside the flow; kept in a session's view and in the figure
the window exports."""

from __future__ import annotations

import dataclasses

import numpy as np

from rmviz.present.dynamics import SIMPLEX_DIVISIONS, STEP_CHOICES, step_count

from .conftest import iteration, make_window

TRIANGLE_ARROWS = (SIMPLEX_DIVISIONS - 1) * (SIMPLEX_DIVISIONS - 2) // 2 - 1  # none at the centre


def _run(window, qtbot, count=200):
    window.run.step(count)
    qtbot.waitUntil(lambda: iteration(window) == count, timeout=60_000)
    window.run.redraw()


def test_the_toggle_draws_the_arrows_of_the_runs_dynamic(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps")
    try:
        controls, simplex = window.dashboard.field, window.simplex
        _run(window, qtbot)
        assert simplex.dynamic is not None and simplex.dynamic.name == "bnn"  # RM's
        assert controls.check.isEnabled() and "Brown-von Neumann-Nash" in controls.check.toolTip()
        assert "symmetric" in controls.check.toolTip()
        assert simplex.arrow_count() == 0
        controls.check.setChecked(True)
        qtbot.waitUntil(lambda: simplex.arrow_count() >= 2 * (TRIANGLE_ARROWS - 6), timeout=10_000)
        # under the paths
        items = simplex.fields[0][2]
        assert all(level.zValue() < 0 for level in items.levels)
        # the steps beside the flow, from the newest average strategy
        controls.slider.setValue(STEP_CHOICES.index(0.5) + 1)
        qtbot.waitUntil(lambda: items.steps.xData is not None and len(items.steps.xData) > 0, timeout=10_000)
        assert len(items.steps.xData) == step_count(0.5) + 1
        assert controls.step_label.text() == "steps: eta = 0.5"
        np.testing.assert_allclose(
            [items.flow.xData[0], items.flow.yData[0]], [items.steps.xData[0], items.steps.yData[0]]
        )
        path_end = window.simplex.paths[0][3].end.getData()
        start = [items.steps.xData[0], items.steps.yData[0]]
        np.testing.assert_allclose(start, np.ravel(path_end), atol=1e-3)
        # the session keeps it, the exported figure draws it
        view = window.view_state()
        assert view.dynamics and view.dynamics_step == 0.5
        assert window.figure_extras()["dynamics"] and window.figure_extras()["dynamics_step"] == 0.5
        controls.check.setChecked(False)
        qtbot.waitUntil(lambda: simplex.arrow_count() == 0, timeout=10_000)
        window.apply_view(dataclasses.replace(view, dynamics=True, dynamics_step=0.1))
        qtbot.waitUntil(lambda: simplex.arrow_count() > 0, timeout=10_000)
        assert controls.step() == 0.1
    finally:
        window.shutdown()


def test_hedge_draws_the_replicator_on_the_square_and_a_new_algorithm_its_own(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="matching-pennies")
    try:
        panel = window.panel
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("hedge"))
        _run(window, qtbot, 100)
        window.dashboard.field.set_state(True, None)
        simplex = window.simplex
        assert simplex.square and simplex.dynamic.name == "replicator"
        qtbot.waitUntil(lambda: simplex.arrow_count() > 80, timeout=10_000)
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("fictitious-play"))
        qtbot.waitUntil(lambda: simplex.dynamic.name == "best-response", timeout=10_000)
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("internal-rm"))
        qtbot.waitUntil(lambda: simplex.dynamic is None, timeout=10_000)
        assert not window.dashboard.field.check.isEnabled()
        qtbot.waitUntil(lambda: simplex.arrow_count() == 0, timeout=10_000)
        # a game with no triangle and no square (2x4 segments and a face) has nothing to draw
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("rm"))
        window.load_random("zero-sum", (5, 5))
        qtbot.waitUntil(lambda: simplex.dynamic is not None and not simplex.fields, timeout=10_000)
        qtbot.waitUntil(lambda: not window.dashboard.field.check.isEnabled(), timeout=10_000)
        assert "three actions only" in window.dashboard.field.check.toolTip()
    finally:
        window.shutdown()
