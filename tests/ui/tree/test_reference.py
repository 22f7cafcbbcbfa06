"""The tree window's exact reference: the sequence-form LP of a zero-sum tree, solved off the
GUI thread, drawn as dashed levels on the information set's plot (and in its exported
figure), its value in the status line; none for a general-sum tree."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games.catalog import catalog_game
from rmviz.solvers.tree.compiled_tree import TreePasses
from tests.ui.tree.conftest import make_tree_window


def _levels(window):
    return [line.value() for line in window.plots.strategy.levels]


def test_kuhn_draws_the_lp_equilibrium_and_its_value(kuhn, qtbot):
    qtbot.waitUntil(lambda: kuhn.reference.solution is not None, timeout=60_000)
    solution = kuhn.reference.solution
    tree = kuhn.tree
    assert solution.value == pytest.approx(-1 / 18, abs=1e-9)
    nash_conv, _ = TreePasses(tree).nash_conv(solution.strategy)  # an equilibrium, by exact BRs
    assert nash_conv <= 1e-9
    qb = tree.infoset_label.index("Qb")
    kuhn.choose_infoset(qb)
    first = int(tree.infoset_first_slot[qb])
    assert _levels(kuhn) == pytest.approx(solution.strategy[first : first + 2].tolist())
    assert _levels(kuhn) == pytest.approx([2 / 3, 1 / 3], abs=1e-9)  # player 2 calls a queen 1/3
    assert "dashed: nearest equilibrium" in kuhn.plots.strategy.panel.title
    kuhn.run.step(5)
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration == 5, timeout=60_000)
    kuhn.run.redraw(force=True)
    assert "(LP -0.05556)" in kuhn.status.text()


def test_the_exported_strategies_figure_draws_the_same_levels(kuhn, qtbot, tmp_path):
    from matplotlib.lines import Line2D

    from rmviz.figures.registry import make_figure
    from rmviz.figures.tree import shown_infosets

    qtbot.waitUntil(lambda: kuhn.reference.solution is not None, timeout=60_000)
    kuhn.run.step(10)
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration == 10, timeout=60_000)
    average = kuhn.run.thread.loop.latest()[1].average_strategy

    def follows():  # the window solves again for the run's average (FOLLOW_EVERY apart)
        kuhn.run.redraw(force=True)
        return kuhn.reference.near is not None and np.array_equal(kuhn.reference.near, average)

    qtbot.waitUntil(lambda: follows() and kuhn.reference._future is None, timeout=60_000)
    figure = make_figure("strategies", kuhn.export.run_data(), style="paper")
    strategy = kuhn.reference.solution.strategy
    tree = kuhn.tree
    for ax, infoset in zip(figure.axes, shown_infosets(tree), strict=False):  # the figure's order
        assert "dashed: nearest equilibrium" in ax.get_title()
        first = int(tree.infoset_first_slot[infoset])
        flat = [
            line.get_ydata()[0]
            for line in ax.get_lines()
            if isinstance(line, Line2D)
            and len(set(np.atleast_1d(line.get_ydata()))) == 1
            and line.get_linestyle() == "--"
        ]
        assert flat == pytest.approx(strategy[first : first + 2].tolist())


def test_a_general_sum_tree_has_no_reference(qtbot):
    window = make_tree_window(qtbot, catalog_game("signaling"))
    try:
        qtbot.waitUntil(
            lambda: window.reference.game is window.document.game and window.reference._future is None
        )
        assert window.reference.solution is None
        assert _levels(window) == [] and "dashed" not in window.plots.strategy.panel.title
    finally:
        window.shutdown()


def test_a_game_shown_while_the_lp_runs_is_solved_next(qtbot):
    """One LP at a time: the second game waits for the first's, whose result is dropped."""
    from PySide6.QtCore import QObject

    from rmviz.solvers.tree.compiled_tree import compile_tree
    from rmviz.ui.tree.reference import TreeReference

    parent = QObject()
    ready = []
    reference = TreeReference(parent, ready.append)
    try:
        first, second = catalog_game("kuhn"), catalog_game("teaching-tree")
        reference.start(first, compile_tree(first))
        reference.start(second, compile_tree(second))
        qtbot.waitUntil(lambda: bool(ready), timeout=60_000)
        assert len(ready) == 1 and reference.game is second
        assert ready[0].value == pytest.approx(0.25) and reference.value_text(second) == " (LP 0.25)"
        assert reference.value_text(first) == ""
        reference.start(second, compile_tree(second))  # the game solved: nothing to do
        assert reference.solution is ready[0]
    finally:
        reference.shutdown()


def test_a_paused_run_s_levels_are_the_equilibrium_nearest_its_own_average(kuhn, qtbot):
    """A trial's deck slides and `--steps 50` pictures drew the equilibrium nearest an
    earlier average (K: b 0.75 beside an average of 0.60): the solve for the newest average
    was skipped while the solves rested, and a paused run draws no more. The newest average
    asked for is kept and solved once they have rested; a picture waits for it."""
    from rmviz.solvers.tree.sequence_lp import drawn_reference

    qtbot.waitUntil(lambda: kuhn.reference.solution is not None, timeout=60_000)
    for steps in (50, 7):  # the second straight after the first: its solve must wait its turn
        kuhn.run.step(steps)
        qtbot.waitUntil(lambda: not kuhn.run.thread.loop.busy, timeout=60_000)
        kuhn.run.redraw(force=True)
        assert kuhn.run.preparing()  # a picture now would show the older average's levels
        qtbot.waitUntil(lambda: not kuhn.run.preparing(), timeout=60_000)
        average = kuhn.run.thread.loop.latest()[1].average_strategy
        expected = drawn_reference(kuhn.document.game, kuhn.tree, average).strategy
        assert np.array_equal(kuhn.reference.near, average)
        assert kuhn.plots.reference == pytest.approx(expected, abs=1e-3)  # redrawn past LEVEL_MOVE
    assert kuhn.run.thread.loop.latest()[1].iteration == 57
