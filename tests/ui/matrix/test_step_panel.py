"""The Step tab: after Step 1 its tables hold the engine's numbers for that iteration."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from rmviz.cli import main
from rmviz.errors import ConfigError
from rmviz.games.generators import random_game
from rmviz.present.number_text import fraction
from rmviz.present.step_latex import math_number, step_tabular
from rmviz.present.step_text import TABLE_COLUMNS, format_step, table_rows
from rmviz.solvers.matrix.script import advance, parse_profile
from rmviz.ui.common.run_window import StartOptions
from tests.present.test_step_latex import body_rows
from tests.ui.matrix.conftest import iteration, make_window


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
    # heads typeset as the tree window's ("pi^t+1" read as pi^t plus one)
    heads = [panel.tables[0].horizontalHeaderItem(c).text() for c in range(panel.tables[0].columnCount())]
    assert heads == ["action", "πᵗ", "U(a)", "rᵗ(a)", "Rᵗ⁻¹(a)", "Rᵗ(a)", "πᵗ⁺¹", "π̄ᵗ"]
    text = panel.explanation.toPlainText()
    assert "r^t(a) = U(a) - u^t = (5/4, -5/4)" in text
    assert "pi^t+1(a) = [R^t(a)]_+ / (5/4) = (1, 0)" in text


def shown_iteration(panel, t):
    return panel.shown is not None and panel.shown.iteration == t


def cli_table(capsys, game, actions):
    """``rmviz step GAME --actions ACTIONS``: the text table of each iteration."""
    code = main(["step", game, "-n", str(actions.count(";") + 1), "--actions", actions])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out.split("\n\n")[1:]


def test_rock_then_paper_in_the_window_is_rmviz_steps_table(qtbot, tmp_path, capsys):
    """The teaching notebook's rounds picked in the Step tab: the same table, cell for cell,
    as ``rmviz step rps --actions "Rock,Paper;Paper,Paper"``."""
    window = make_window(qtbot, tmp_path, game="rps")
    try:
        window.panel.play.setCurrentText("sampled")
        panel = window.step_panel
        window.tabs.setCurrentWidget(panel)
        qtbot.waitUntil(lambda: panel.choices and panel.choices[0].isEnabled(), timeout=60_000)
        expected = cli_table(capsys, "rps", "Rock,Paper;Paper,Paper")
        for t, names in enumerate((["Rock", "Paper"], ["Paper", "Paper"]), start=1):
            panel.choose(names)
            panel.step_button.click()
            qtbot.waitUntil(lambda t=t: shown_iteration(panel, t), timeout=60_000)
            assert format_step(panel.shown) == expected[t - 1].strip("\n")
            # the cells on screen are the text table's cells
            assert panel.rows(0) == table_rows(panel.shown.players[0])
        assert panel.rows(0)[2] == ("Scissors", "2/3", "1", "1", "2", "3", "3/4", "0")
        assert panel.script == [["Rock", "Paper"], ["Paper", "Paper"]]
    finally:
        window.shutdown()


# The CFR lecture's regret matching in self-play on Battle of the Partners (the seed
# cfr-lecture.md): T, s^T, R_Cat^T, R_Dee^T, pi_Cat^{T+1}, pi_Dee^{T+1}, as the slide writes them
SELF_PLAY = [
    (1, ("Cinema", "Dancing"), ("0", "5"), ("5", "0"), ("0", "1"), ("1", "0")),
    (2, ("Dancing", "Cinema"), ("10", "5"), ("5", "10"), ("2/3", "1/3"), ("1/3", "2/3")),
    (3, ("Cinema", "Dancing"), ("10", "10"), ("10", "10"), ("1/2", "1/2"), ("1/2", "1/2")),
    (4, ("Dancing", "Dancing"), ("5", "10"), ("0", "10"), ("1/3", "2/3"), ("0", "1")),
    (5, ("Cinema", "Dancing"), ("5", "15"), ("5", "10"), ("1/4", "3/4"), ("1/3", "2/3")),
    (6, ("Dancing", "Dancing"), ("0", "15"), ("-5", "10"), ("0", "1"), ("0", "1")),
    (7, ("Dancing", "Dancing"), ("-5", "15"), ("-15", "10"), ("0", "1"), ("0", "1")),
]
# the lecture's table for Cat alone: T, s^T, R_Cat^T(Cinema), R_Cat^T(Dancing), pi_Cat^{T+1}
CAT_ALONE = [
    (1, ("Cinema", "Dancing"), ("0", "5"), ("0", "1")),
    (2, ("Dancing", "Cinema"), ("10", "5"), ("2/3", "1/3")),
    (3, ("Cinema", "Dancing"), ("10", "10"), ("1/2", "1/2")),
    (4, ("Cinema", "Cinema"), ("10", "0"), ("1", "0")),
    (5, ("Cinema", "Dancing"), ("10", "5"), ("2/3", "1/3")),
    (6, ("Cinema", "Cinema"), ("10", "-5"), ("1", "0")),
]


def sampled_step_tab(qtbot, window):
    """The Step tab of ``window``'s run in sampled play, its choices enabled."""
    window.panel.play.setCurrentText("sampled")
    window.tabs.setCurrentWidget(window.step_panel)
    qtbot.waitUntil(lambda: window.step_panel.choices[0].isEnabled(), timeout=60_000)
    return window.step_panel


def column_of(panel, player, name):
    return tuple(row[TABLE_COLUMNS.index(name)] for row in panel.rows(player))


def test_the_lectures_table_for_cat_picked_draw_by_draw(qtbot, tmp_path):
    """Each row of the lecture's table, the draws picked in the window: Cat's cumulative
    regrets and next strategy read exactly as the slide writes them."""
    window = make_window(qtbot, tmp_path)
    try:
        panel = sampled_step_tab(qtbot, window)
        for t, profile, regrets, next_strategy in CAT_ALONE:
            panel.choose(profile)
            panel.step_button.click()
            qtbot.waitUntil(lambda t=t: shown_iteration(panel, t), timeout=60_000)
            assert column_of(panel, 0, "R^t(a)") == regrets
            assert column_of(panel, 0, "pi^t+1") == next_strategy
    finally:
        window.shutdown()


def test_the_lectures_self_play_table_from_a_typed_script(qtbot, tmp_path):
    """The self-play table typed as one script: every iteration explained afterwards (the
    replay follows the script) has both players' numbers of the slide, and a second window
    given the script as a session would give it shows the same tables."""
    window = make_window(qtbot, tmp_path)
    try:
        panel = sampled_step_tab(qtbot, window)
        panel.script_edit.setText("; ".join(",".join(profile) for _, profile, *_ in SELF_PLAY))
        panel.play_button.click()
        qtbot.waitUntil(lambda: shown_iteration(panel, 7), timeout=60_000)
        solver = window.run.thread.loop.solver
        tables = {}
        for t, profile, cat, dee, cat_next, dee_next in SELF_PLAY:
            panel.update_from(solver, t, running=False)
            assert tuple(p.actions[p.action] for p in panel.shown.players) == profile
            assert (column_of(panel, 0, "R^t(a)"), column_of(panel, 1, "R^t(a)")) == (cat, dee)
            assert (column_of(panel, 0, "pi^t+1"), column_of(panel, 1, "pi^t+1")) == (cat_next, dee_next)
            tables[t] = (panel.rows(0), panel.rows(1))
        assert panel.script == [list(profile) for _, profile, *_ in SELF_PLAY]
        script = panel.script
    finally:
        window.shutdown()
    reopened = make_window(qtbot, tmp_path / "again")
    try:
        panel = sampled_step_tab(qtbot, reopened)
        loop = reopened.run.thread.loop
        loop.exclusive(lambda s: advance(s, 7, dict(enumerate(parse_script_rows(s.game, script), start=1))))
        panel.set_script(script)
        for t in (7, 3):
            panel.update_from(loop.solver, t, running=False)
            assert (panel.rows(0), panel.rows(1)) == tables[t]
        assert panel.script == script
        with pytest.raises(ConfigError, match="iteration 2: Dee has no action 'Opera'"):
            panel.set_script([["Cinema", "draw"], ["Dancing", "Opera"]])
    finally:
        reopened.shutdown()


def parse_script_rows(game, rows):
    return [parse_profile(game, names) for names in rows]


def test_copy_as_latex_puts_the_shown_tables_on_the_clipboard(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    try:
        panel = sampled_step_tab(qtbot, window)
        panel.choose(["Cinema", "draw"])
        panel.step_button.click()
        qtbot.waitUntil(lambda: shown_iteration(panel, 1), timeout=60_000)
        panel.latex_button.click()
        text = QGuiApplication.clipboard().text()
        assert text == step_tabular(panel.shown)
        rows = body_rows(text)
        assert len(rows) == 1 + 2 + 2  # the header, then each player's actions
        assert rows[1][0] == "Cinema" and rows[1][1:] == [f"${math_number(c)}$" for c in panel.rows(0)[0][1:]]
    finally:
        window.shutdown()


def test_choosing_needs_sampled_play_and_a_possible_action(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    try:
        panel = window.step_panel
        window.tabs.setCurrentWidget(panel)
        assert not panel.chooser.isVisibleTo(panel) and panel.hint.isVisibleTo(panel)
        panel = sampled_step_tab(qtbot, window)
        assert panel.chooser.isVisibleTo(panel) and not panel.hint.isVisibleTo(panel)
        panel.choose(["Cinema", "Dancing"])
        panel.step_button.click()
        panel.choose(["Cinema", "Tango"])
        panel.step_button.click()
        assert window.errors[-1].startswith("Dee has no action 'Tango'")
        panel.choose(["Cinema", "Dancing"])  # Cat's regret matching moved to Dancing
        panel.step_button.click()
        assert "Cat cannot play action 1" in window.errors[-1]
        assert iteration(window) == 1 and panel.script == [["Cinema", "Dancing"]]
    finally:
        window.shutdown()


def inside_window(widget, window) -> bool:
    """Whether ``widget`` is shown whole within ``window``."""
    corner = widget.mapTo(window, QPoint(0, 0))
    return widget.isVisible() and window.rect().contains(QRect(corner, widget.size()))


FOUR_PLAYERS = random_game("general-sum", (2, 2, 2, 2))


@pytest.mark.parametrize(
    ("size", "games"),
    [
        ((1280, 720), ("battle-of-partners", "three-player-pennies", FOUR_PLAYERS)),
        ((1024, 768), ("rps", "three-player-pennies")),
    ],
    ids=["1280x720", "1024x768"],
)
@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_the_choices_fit_a_projector(qtbot, tmp_path, presentation, size, games):
    """Sampled play on the Step tab: the window keeps its size and every choice, the
    script field and its button are whole on screen (three players once pushed the window
    to 1283 pixels at 1280x720; RPS's choices beside the script asked for 1044 pixels)."""
    window = make_window(qtbot, tmp_path)
    try:
        window.show()
        window.start(StartOptions(presentation=presentation, size=size))
        window.tabs.setCurrentWidget(window.step_panel)
        for game in games:
            if isinstance(game, str):
                window.load_catalog(game)
            else:
                window.show_game(game, "four players")
            panel = sampled_step_tab(qtbot, window)
            n = window.document.game.n_players
            qtbot.waitUntil(lambda p=panel, n=n: len(p.choices) == n, timeout=60_000)
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the layouts settle
            assert window.minimumSizeHint().width() <= size[0]
            widgets = [*panel.choices, *panel.choice_labels, panel.script_edit, panel.play_button]
            qtbot.waitUntil(lambda w=widgets: all(inside_window(x, window) for x in w), timeout=10_000)
            assert window.size() == QSize(*size)
    finally:
        window.shutdown()


def test_ctrl_1_on_the_step_tab_draws_the_chosen_actions(qtbot, tmp_path):
    """The window's Step 1 (Ctrl+1, the run controls' button) uses the Step tab's choices
    while that tab is shown, as its own button does; elsewhere it steps as before."""
    window = make_window(qtbot, tmp_path)
    try:
        panel = sampled_step_tab(qtbot, window)
        panel.choose(["Dancing", "Cinema"])
        window.controls.step_one_button.click()
        qtbot.waitUntil(lambda: shown_iteration(panel, 1), timeout=60_000)
        assert [p.actions[p.action] for p in panel.shown.players] == ["Dancing", "Cinema"]
        window.tabs.setCurrentWidget(window.dashboard)
        window.step_one()
        qtbot.waitUntil(lambda: iteration(window) == 2, timeout=60_000)
        assert panel.script == [["Dancing", "Cinema"]]
    finally:
        window.shutdown()


def test_renamed_players_and_actions_are_the_choices_names(qtbot, tmp_path):
    """An edit restarts the run: the script is forgotten, and renamed players and actions
    are what the choices offer and the script reads."""
    window = make_window(qtbot, tmp_path)
    try:
        panel = sampled_step_tab(qtbot, window)
        panel.choose(["Cinema", "Dancing"])
        panel.step_button.click()
        assert panel.script == [["Cinema", "Dancing"]]
        window.document.rename_player(0, "Ann")
        qtbot.waitUntil(
            lambda: [label.text() for label in panel.choice_labels] == ["Ann", "Dee"], timeout=10_000
        )
        assert panel.script == []
        window.document.rename_action(1, 0, "Opera")
        qtbot.waitUntil(lambda: panel.choices[1].itemText(1) == "Opera", timeout=10_000)
        panel.choose(["draw", "Opera"])
        panel.step_button.click()
        assert panel.script == [["draw", "Opera"]]
    finally:
        window.shutdown()


def test_copy_as_latex_waits_for_an_iteration_to_copy(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    try:
        panel = sampled_step_tab(qtbot, window)
        assert not panel.latex_button.isEnabled()  # iteration 0: no table yet
        panel.step_button.click()
        qtbot.waitUntil(lambda: shown_iteration(panel, 1), timeout=60_000)
        assert panel.latex_button.isEnabled()
    finally:
        window.shutdown()
