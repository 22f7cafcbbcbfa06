"""The Equilibria tab: type a joint and see every constraint's numbers, take the run's
joint, the best CE/CCE from the LP, and the star after edits of a zero-sum game."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from PySide6.QtCore import Qt

from rmviz.games import catalog_game, random_game
from rmviz.games.catalog import CATALOG
from rmviz.present.simplex import project
from rmviz.solvers.exact import zero_sum_solution
from rmviz.solvers.matrix.correlated import CorrelatedOptimum
from rmviz.solvers.regret_matching import TIE_TOLERANCE
from tests.ui.matrix.conftest import iteration, make_window

SUM = "sum of p(s)·(u_i(a', s_-i) - u_i(s))"


@pytest.fixture
def panel(window):
    window.tabs.setCurrentWidget(window.equilibria)
    return window.equilibria


def test_type_the_lectures_joint_and_see_every_constraint(window, panel, qtbot):
    qtbot.keyClicks(panel.text, "2/9, 4/9, 1/9, 2/9")
    qtbot.keyClick(panel.text, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.check is not None, timeout=60_000)
    rows = panel.constraint_model
    assert rows.rowCount() == 8  # 4 CE (player, advice, deviation) and 4 CCE (player, deviation)
    assert [rows.cell(0, h) for h in ("", "player i", "advised b", "plays a'")] == [
        "CE",
        "Cat",
        "Cinema",
        "Dancing",
    ]
    assert rows.cell(0, SUM) == "2/9·(0 - 10) + 4/9·(7 - 2)"  # the lecture's -20/9 + 20/9
    assert rows.cell(3, SUM) == "4/9·(7 - 2) + 2/9·(0 - 10)"  # Dee advised Dancing
    assert all(rows.cell(r, "value") == "0" and rows.cell(r, "status") == "binds" for r in range(8))
    assert rows.cell(4, "advised b") == "any"
    summary = panel.summary.text()
    assert "CE gap 0</b>: a correlated equilibrium" in summary
    assert "Cat 14/3, Dee 14/3; welfare <b>28/3</b> (exact fractions)" in summary
    joint = panel.joint_model
    assert [joint.index(r, c).data() for r in range(2) for c in range(2)] == ["2/9", "4/9", "1/9", "2/9"]


def test_a_violated_constraint_and_its_slack(panel):
    assert panel.check_text("1/4, 1/4, 1/4, 1/4")
    values = {(c.player, c.recommended, c.deviation): c.value for c in panel.check.ce_constraints}
    # Cat advised Cinema: 1/4 (0 - 10) + 1/4 (7 - 2) = -5/4; advised Dancing: 1/4 (10 - 0) + 1/4 (2 - 7) = 5/4
    assert values[(0, 0, 1)] == F(-5, 4) and values[(0, 1, 0)] == F(5, 4)
    rows = panel.constraint_model
    assert [rows.cell(1, h) for h in ("value", "slack", "status")] == ["5/4", "-5/4", "VIOLATED"]
    assert [rows.cell(0, h) for h in ("value", "slack", "status")] == ["-5/4", "5/4", "holds"]
    assert "CE gap 5/4</b>: <b>not</b> a correlated equilibrium" in panel.summary.text()


def test_a_bad_joint_is_refused_and_the_check_shown_stays(window, panel):
    assert panel.check_text("2/9, 4/9, 1/9, 2/9")
    shown = panel.check
    assert not panel.check_text("2/9, 4/9, oops, 2/9")
    assert window.errors[-1] == "entry 3 ('oops') is not a number: write decimals or fractions such as 2/9"
    assert not panel.check_text("1/2, 1/2")
    assert "has 4 entries" in window.errors[-1]
    assert panel.check is shown and panel.constraint_model.cell(0, "value") == "0"
    assert panel.text.text() == "1/2, 1/2"  # what was typed stays, to be corrected


def test_editing_a_cell_checks_again(window, panel):
    assert panel.check_text("1/2 0 0 1/2")
    model = panel.joint_model
    assert model.setData(model.index(0, 1), "1/2")
    assert panel.text.text() == "1/2, 1/2, 0, 1/2"
    assert panel.check.total == F(3, 2) and list(panel.check.joint.ravel()) == [F(1, 3), F(1, 3), 0, F(1, 3)]
    assert "The entries sum to 3/2" in panel.summary.text()
    assert not model.setData(model.index(1, 0), "-1")
    assert "probabilities cannot be negative" in window.errors[-1]
    assert panel.text.text() == "1/2, 1/2, 0, 1/2"


def test_use_the_current_runs_joint(window, panel, qtbot):
    panel.run_button.click()
    assert window.errors[-1] == "the run has not played yet: press Step or Run first"
    window.run.step(300)
    qtbot.waitUntil(lambda: iteration(window) == 300, timeout=60_000)
    panel.run_button.click()
    snapshot = window.run.thread.loop.latest()[1]
    check = panel.check
    assert check is not None and check.exact
    expected = snapshot.joint / snapshot.joint.sum()
    np.testing.assert_allclose(check.joint.astype(float), expected, rtol=0, atol=1e-15)
    # the run's accumulators drop the regret of two actions within TIE_TOLERANCE x max |u| of a
    # tie (rmviz.solvers.matrix.kernels.tie_bounds), the exact check from the joint keeps it:
    # they may part by that much (here 1.3e-12: battle of partners near its mixed equilibrium)
    tie = TIE_TOLERANCE * float(np.abs(window.document.game.payoffs).max())
    assert float(check.ce_gap) == pytest.approx(snapshot.metrics.ce_gap, abs=tie)
    assert float(check.cce_gap) == pytest.approx(snapshot.metrics.cce_gap, abs=tie)
    assert float(check.welfare) == pytest.approx(snapshot.metrics.welfare, abs=1e-12)


def test_the_best_ce_and_cce_from_the_lp(window, panel, qtbot):
    qtbot.waitUntil(lambda: isinstance(panel.optimum("CCE"), CorrelatedOptimum), timeout=60_000)
    best = panel.optimum("CE")
    assert best.exact and best.welfare == 17  # (Cinema, Cinema): 10 + 7
    assert "<b>Best CE</b> (max welfare): welfare <b>17</b>" in panel.references.text()
    assert "the catalog's equilibrium Cat (2/3, 1/3); Dee (1/3, 2/3)" in panel.references.text()
    panel.best_buttons["CE"].click()
    assert panel.check.is_ce and panel.check.welfare == 17


def test_the_lps_wait_for_the_tab(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    panel = window.equilibria
    assert panel.optimum("CE") is None and not panel.computing  # not shown: nothing computed
    window.tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: isinstance(panel.optimum("CE"), CorrelatedOptimum), timeout=60_000)
    window.load_catalog("traffic-lights")  # a new game while shown: solved again
    qtbot.waitUntil(lambda: isinstance(panel.optimum("CE"), CorrelatedOptimum), timeout=60_000)
    assert panel.optimum("CE").welfare == 1 and panel.optimum("CE").check.game is window.document.game
    window.shutdown()


def test_the_star_follows_edits_of_a_zero_sum_game(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps-crash")
    window.tabs.setCurrentWidget(window.equilibria)
    assert window.simplex.equilibrium == CATALOG["rps-crash"].equilibrium
    window.document.set_payoffs([(0, 1)], [(-3.0, 3.0)])  # Rock against Paper: -1 -> -3
    game = window.document.game
    expected = zero_sum_solution(game).equilibrium
    qtbot.waitUntil(lambda: window.simplex.equilibrium == expected, timeout=60_000)
    assert expected == ((1 / 6, 1 / 2, 1 / 3), (1 / 4, 1 / 3, 5 / 12))  # by hand, value -1/6
    for player, (x, y) in enumerate(window.simplex.star_points()):
        point = project(3, np.array([expected[player]]))
        np.testing.assert_allclose(np.column_stack([x, y]), point, atol=1e-15)
    text = window.equilibria.references.text()
    assert "value</b> Row -1/6, Column 1/6 (exact)" in text
    assert "the LP's equilibrium Row (1/6, 1/2, 1/3); Column (1/4, 1/3, 5/12)" in text
    window.document.set_zero_sum(False)  # the same game, the plots rebuilt: the star stays
    assert window.document.game is game and window.simplex.equilibrium == expected
    assert all(x.size == 1 for x, _ in window.simplex.star_points())
    window.document.undo()
    window.document.undo()
    qtbot.waitUntil(lambda: window.simplex.equilibrium == CATALOG["rps-crash"].equilibrium, timeout=60_000)
    window.shutdown()


def test_an_edited_general_sum_game_has_no_star_and_keeps_the_joint(window, panel, qtbot):
    assert panel.check_text("2/9, 4/9, 1/9, 2/9")
    assert all(x.size == 1 for x, _ in window.simplex.star_points())
    window.document.set_payoffs([(0, 0)], [(12.0, 7.0)])  # Cat likes the cinema more
    qtbot.waitUntil(lambda: window.simplex.equilibrium is None, timeout=60_000)
    assert all(x.size == 0 for x, _ in window.simplex.star_points())
    # the typed joint is checked against the edited payoffs: Cat advised Cinema,
    # 2/9 (0 - 12) + 4/9 (7 - 2) = -24/9 + 20/9 = -4/9
    assert panel.check.game is window.document.game
    assert panel.constraint_model.cell(0, "value") == "-4/9"


def test_three_players_list_the_profiles(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="three-player-pennies")
    panel = window.equilibria
    window.tabs.setCurrentWidget(panel)
    assert not panel.run_button.isEnabled()
    assert panel.joint_model.rowCount() == 8 and panel.joint_model.columnCount() == 1
    assert panel.joint_model.headerData(1, Qt.Orientation.Vertical) == "(Heads, Heads, Tails)"
    assert panel.use_uniform() and panel.check.joint[0, 0, 0] == F(1, 8)
    assert panel.constraint_model.rowCount() == 3 * 2 + 3 * 2
    window.shutdown()


def test_games_too_large_for_the_lp_say_so(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.tabs.setCurrentWidget(window.equilibria)
    window.show_game(random_game("general-sum", (70, 70), seed=1), "Random")
    text = window.equilibria.references.text()
    assert "not computed: the linear programmes handle games of up to 4,096 action profiles" in text
    assert not window.equilibria.best_buttons["CE"].isEnabled()
    window.shutdown()


def test_catalog_general_sum_game_keeps_its_star(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="traffic-lights")
    assert window.simplex.equilibrium == CATALOG["traffic-lights"].equilibrium
    window.load_catalog("rps")
    assert window.simplex.equilibrium == CATALOG["rps"].equilibrium
    window.shutdown()
    assert catalog_game("rps") == window.document.game
