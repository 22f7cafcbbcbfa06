"""EFR in the tree window: chosen in the solver panel it runs, and *Step 1* (a CFR record)
is refused in one line instead of failing."""

from __future__ import annotations

from rmviz.games.trees import kuhn_poker
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.efr import EFRSolver
from tests.ui.tree.conftest import make_tree_window


def test_the_panel_runs_efr_and_step_one_says_why_it_does_not_record(qtbot):
    window = make_tree_window(qtbot, kuhn_poker())
    try:
        panel = window.panel
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("efr"))

        def running_efr() -> bool:
            thread = window.run.thread
            return thread is not None and isinstance(thread.loop.solver, EFRSolver)

        qtbot.waitUntil(running_efr, timeout=10_000)
        assert window.step_recorded() is None
        assert len(window.errors) == 1 and "\n" not in window.errors[0] and "EFR" in window.errors[0]
    finally:
        window.shutdown()


def test_the_deviations_row_shows_for_efr_only_and_sets_the_run(qtbot):
    window = make_tree_window(qtbot, kuhn_poker())
    try:
        panel = window.panel
        assert not panel.deviations.isVisibleTo(panel) and panel.config().deviations is None
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("efr"))
        assert panel.deviations.isVisibleTo(panel) and panel.deviations.currentText() == "causal"
        panel.deviations.setCurrentText("informed-cf")

        def running(deviations: str) -> bool:
            thread = window.run.thread
            return thread is not None and thread.loop.solver.config.deviations == deviations

        qtbot.waitUntil(lambda: running("informed-cf"), timeout=10_000)
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("cfr"))  # no deviations carried
        qtbot.waitUntil(lambda: running(None) and window.run.thread.loop.solver.config.algorithm == "cfr")
        assert not window.errors and panel.problem.text() == ""
        panel.set_config(cfr_preset("efr", deviations="blind-action"))
        assert (
            panel.deviations.currentText() == "blind-action" and panel.config().deviations == "blind-action"
        )
    finally:
        window.shutdown()
