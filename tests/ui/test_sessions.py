"""Session files in the windows: File > Save Session... then reopening (File > Open, Open
Session..., a dropped file, ``rmviz FILE``) shows the same game, settings and view, re-runs
to the saved iteration in the worker thread and stays paused there, in the very same state."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from rmviz.formats import write_json
from rmviz.games import catalog_game
from rmviz.games.generators import random_game
from rmviz.games.trees import kuhn_poker, teaching_tree
from rmviz.runner.session import (
    MONTE_CARLO_NOTICE,
    SUFFIX,
    Session,
    View,
    read_session,
    session_to_dict,
    write_session,
)
from rmviz.solvers.registry import family_of
from rmviz.ui.app import MAX_REPLAY, read_argument, replay_problem
from rmviz.ui.tree.window import TreeWindow
from tests.runner.test_session import assert_same_snapshot, config_fields, saved_by_version_1
from tests.ui.matrix.conftest import make_window
from tests.ui.tree.conftest import make_tree_window


def choose(combo, data):
    combo.setCurrentIndex(combo.findData(data))


def run_until(window, qtbot, at_least):
    """Run, wait until the run passed ``at_least`` iterations, pause and wait until it stopped."""
    window.run.toggle()
    qtbot.waitUntil(lambda: window.run.thread.loop.latest()[1].iteration >= at_least, timeout=60_000)
    window.run.toggle()
    loop = window.run.thread.loop  # stopped, and where it stopped is published
    qtbot.waitUntil(
        lambda: not loop.busy and loop.latest()[1].iteration == loop.solver.iteration, timeout=60_000
    )


def caught_up(window, qtbot):
    qtbot.waitUntil(lambda: not window.sessions.catching_up(), timeout=120_000)
    return window.run.thread.loop.latest()[1]


def test_a_matrix_session_reopens_paused_at_the_same_iteration_in_the_same_state(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    game = random_game("general-sum", (5, 4), seed=8)
    assert window.show_game(game, "Random")
    panel = window.panel
    choose(panel.algorithm, "discounted-rm")
    panel.parameters["alpha"].setText("3")
    panel.parameters["alpha"].editingFinished.emit()
    panel.play.setCurrentText("sampled")  # the random stream must come back too
    panel.seed.setValue(9)
    panel.cadence.setCurrentIndex(0)
    window.dashboard.face_combos[0].corners[2].setCurrentIndex(4)
    face = window.simplex.faces[0]
    assert face == (0, 1, 4)
    run_until(window, qtbot, 3000)
    window.tabs.setCurrentWidget(window.step_panel)
    original = window.run.thread.loop.latest()[1]
    assert window.sessions.save(tmp_path / "lecture")  # the suffix is added
    path = tmp_path / f"lecture{SUFFIX}"
    assert path.exists() and not window.errors

    fresh = make_window(qtbot, tmp_path, game="rps")
    assert fresh.files.open(path)  # File > Open takes session files too
    snapshot = caught_up(fresh, qtbot)
    assert_same_snapshot(original, snapshot)
    assert not fresh.run.thread.loop.running and snapshot.iteration == original.iteration > 3000
    assert config_fields(fresh.run.thread.loop.solver.config) == config_fields(window.panel.config())
    assert fresh.panel.parameters["alpha"].text() == "3.0" and fresh.panel.play.currentText() == "sampled"
    assert fresh.panel.points_per_decade() == 50 and fresh.run.thread.loop.trace.points_per_decade == 50
    assert fresh.simplex.faces[0] == face and fresh.dashboard.face_combos[0].face() == face
    assert fresh.tabs.currentWidget() is fresh.step_panel
    assert fresh.document.game == game and not fresh.document.modified and fresh.document.path is None
    assert "Session restored at iteration" in fresh.statusBar().currentMessage()
    assert not fresh.errors
    fresh.document.undo()  # the open is one undoable edit
    assert fresh.document.game == catalog_game("rps")
    for shown in (window, fresh):
        shown.shutdown()


@pytest.mark.parametrize("family", ["matrix", "tree"])
def test_a_session_keeps_the_algorithms_checked_in_compare_mode(qtbot, tmp_path, family):
    if family == "matrix":
        window, chosen = make_window(qtbot, tmp_path, game="rps"), ["rm+", "predictive-rm+", "greedy-rm"]
    else:
        window, chosen = make_tree_window(qtbot, kuhn_poker()), ["cfr+", "dcfr", "mccfr-outcome"]
    window.tabs.setCurrentWidget(window.compare)
    window.compare.set_checked(chosen)
    assert set(window.compare.threads) == set(chosen)
    loops = {name: thread.loop for name, thread in window.compare.threads.items()}
    for name, loop in loops.items():
        loop.step(150 + 10 * len(name))  # each run its own iteration
    for loop in loops.values():
        qtbot.waitUntil(lambda loop=loop: not loop.busy, timeout=60_000)
    assert window.sessions.save(tmp_path / "compare") and not window.errors
    path = tmp_path / f"compare{SUFFIX}"
    assert read_session(path).view.compared == tuple(chosen)

    fresh = (
        make_window(qtbot, tmp_path, game="rps")
        if family == "matrix"
        else make_tree_window(qtbot, teaching_tree())
    )
    assert fresh.files.open(path)
    caught_up(fresh, qtbot)
    assert fresh.tabs.currentWidget() is fresh.compare
    assert fresh.compare.checked() == chosen and set(fresh.compare.threads) == set(chosen)
    for name, thread in fresh.compare.threads.items():  # each run is back where it was
        back, there = thread.loop.solver.checkpoint(), loops[name].solver.checkpoint()
        assert back.iteration == there.iteration == 150 + 10 * len(name)
        assert all(np.array_equal(back.arrays[key], array) for key, array in there.arrays.items())
        np.testing.assert_array_equal(thread.loop.trace.kept()[1], loops[name].trace.kept()[1])
    fresh.tabs.setCurrentWidget(fresh.run_tab)
    assert fresh.sessions.session().view.compared == tuple(chosen)  # kept while another tab is shown
    for shown in (window, fresh):
        shown.shutdown()


def test_a_tree_session_reopens_with_its_recorded_step_and_information_set(qtbot, tmp_path):
    window = make_tree_window(qtbot, kuhn_poker())
    choose(window.panel.algorithm, "mccfr-external")
    window.panel.seed.setValue(3)
    window.run.step(400)
    qtbot.waitUntil(lambda: window.run.thread.loop.latest()[1].iteration == 400, timeout=60_000)
    record = window.step_recorded()  # iteration 401, shown on the tree and in the panel
    window.infosets.choose(list(window.tree.infoset_label).index("Qpb"))
    window.side_tabs.setCurrentIndex(1)
    original = window.run.thread.loop.latest()[1]
    path = tmp_path / f"kuhn{SUFFIX}"
    assert window.sessions.save(path)

    fresh = make_tree_window(qtbot, teaching_tree())
    assert fresh.sessions.open(path)
    snapshot = caught_up(fresh, qtbot)
    assert_same_snapshot(original, snapshot)
    assert snapshot.iteration == 401 and not fresh.run.thread.loop.running
    assert fresh.record is not None and fresh.record.iteration == record.iteration
    np.testing.assert_array_equal(fresh.record.strategy_after, record.strategy_after)
    np.testing.assert_array_equal(fresh.record.cumulative_regret_before, record.cumulative_regret_before)
    assert fresh.tree.infoset_label[fresh.infoset] == "Qpb" and fresh.side_tabs.currentIndex() == 1
    assert fresh.panel.config().algorithm == "mccfr-external" and fresh.panel.seed.value() == 3
    assert not fresh.document.modified and not fresh.errors
    assert MONTE_CARLO_NOTICE not in fresh.statusBar().currentMessage()  # saved now: the same run
    for shown in (window, fresh):
        shown.shutdown()


def old_monte_carlo_session(path, iteration):
    """A session of external-sampling MCCFR on Kuhn poker as rmviz wrote it before the
    Monte-Carlo samples were drawn anew (version 1)."""
    game = kuhn_poker()
    saved_by_version_1(Session(game, family_of(game).config("mccfr-external", seed=4), iteration), path)


def test_an_old_monte_carlo_session_reopens_and_the_window_says_its_replay_is_a_new_run(qtbot, tmp_path):
    path = tmp_path / f"old{SUFFIX}"
    old_monte_carlo_session(path, 300)
    window = make_tree_window(qtbot, teaching_tree())
    assert window.sessions.open(path)  # opened, not refused
    bar = window.statusBar()
    qtbot.waitUntil(lambda: bar.currentMessage().startswith("Session restored"), timeout=120_000)
    assert bar.currentMessage() == f"Session restored at iteration 300; {MONTE_CARLO_NOTICE}"
    assert window.run.thread.loop.latest()[1].iteration == 300 and not window.errors
    assert window.panel.config().algorithm == "mccfr-external" and window.panel.seed.value() == 4
    window.shutdown()


def test_the_notice_stays_while_re_running_and_when_the_person_takes_over(qtbot, tmp_path):
    path = tmp_path / f"old{SUFFIX}"
    old_monte_carlo_session(path, 50_000_000)
    window = make_tree_window(qtbot, kuhn_poker())
    assert window.sessions.open(path)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: bar.currentMessage().startswith("Re-running the session"), timeout=120_000)
    assert bar.currentMessage().endswith(f"of 50,000,000…; {MONTE_CARLO_NOTICE}")
    window.run.toggle()  # Space: the person takes the run over before it got there
    assert not window.sessions.catching_up() and bar.currentMessage() == MONTE_CARLO_NOTICE
    window.run.toggle()
    loop = window.run.thread.loop  # stopped, and where it stopped is published
    qtbot.waitUntil(
        lambda: not loop.busy and loop.latest()[1].iteration == loop.solver.iteration, timeout=60_000
    )
    window.shutdown()


def test_rmviz_file_says_the_notice_in_one_line_on_stderr(tmp_path, capsys):
    path = tmp_path / f"old{SUFFIX}"
    old_monte_carlo_session(path, 30)
    game, session = read_argument(str(path))
    assert session is not None and session.game is game and session.notices == (MONTE_CARLO_NOTICE,)
    assert capsys.readouterr().err == f"rmviz: {path}: {MONTE_CARLO_NOTICE}\n"
    write_session(session, path)  # saved again by this rmviz: nothing to say
    read_argument(str(path))
    assert capsys.readouterr().err == ""


def test_a_session_of_the_other_family_opens_in_its_own_window(qtbot, tmp_path, registry):
    game = kuhn_poker()
    path = tmp_path / f"tree{SUFFIX}"
    write_session(Session(game, family_of(game).config("cfr+"), 25, view=View(infoset="Kb")), path)
    matrix = make_window(qtbot, tmp_path, opener=registry)
    before = matrix.document.game
    assert matrix.files.open(path)
    assert matrix.document.game is before and not matrix.errors  # the matrix stays
    (tree,) = registry.windows
    assert isinstance(tree, TreeWindow)
    snapshot = caught_up(tree, qtbot)
    assert snapshot.iteration == 25 and tree.panel.config().algorithm == "cfr+"
    assert tree.tree.infoset_label[tree.infoset] == "Kb" and not tree.document.modified
    twin = family_of(game).solver(game, family_of(game).config("cfr+"))
    twin.step(25)
    assert_same_snapshot(twin.snapshot(metrics=True), snapshot)
    matrix.shutdown()


def test_a_dropped_session_file_opens(qtbot, tmp_path):
    game = random_game("zero-sum", (3, 3), seed=1)
    path = tmp_path / f"dropped{SUFFIX}"
    write_session(Session(game, family_of(game).config("rm+", seed=2), 64), path)
    window = make_window(qtbot, tmp_path)
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(5, 5), Qt.DropAction.CopyAction, data, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier
    )
    window.dropEvent(event)
    assert caught_up(window, qtbot).iteration == 64 and window.document.game == game
    window.shutdown()


def test_a_bad_session_file_says_why_and_changes_nothing(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.document.set_payoffs([(0, 0)], [(1, 1)])  # an unsaved edit: not lost
    game, history = window.document.game, window.document.undo_text()
    path = tmp_path / f"bad{SUFFIX}"
    good = Session(window.document.game, window.panel.config(), 10)
    data = json.loads(json.dumps(session_to_dict(good)))
    data["run"]["iteration"] = -3
    path.write_text(json.dumps(data))
    assert not window.files.open(path)
    assert window.errors == [
        f"{path}: run.iteration must be a whole number from 0 to 9,007,199,254,740,992, not -3"
    ]
    # settings that do not fit the game: refused before anything changes, naming the file
    data["run"]["iteration"] = 10
    data["solver"]["options"]["start"] = {"0": [0.5, 0.25, 0.25]}  # three numbers, two actions
    path.write_text(json.dumps(data))
    panel_before = config_fields(window.panel.config())
    assert not window.sessions.open(path)
    assert window.errors[-1].startswith(f"{path}: ") and "starting strategy" in window.errors[-1]
    assert window.document.game is game and window.document.undo_text() == history
    assert window.document.modified and config_fields(window.panel.config()) == panel_before
    window.shutdown()


def test_re_running_to_a_large_iteration_leaves_the_window_responsive(qtbot, tmp_path):
    """The worker steps to the saved iteration; restore returns at once and the window keeps
    drawing (the status bar counts) while it does."""
    game = random_game("general-sum", (10, 10), seed=3)
    target = 2_000_000
    path = tmp_path / f"long{SUFFIX}"
    write_session(Session(game, family_of(game).config("rm"), target), path)
    window = make_window(qtbot, tmp_path)
    messages = []
    show = window.statusBar().showMessage
    window.statusBar().showMessage = lambda text, *rest: (messages.append(text), show(text, *rest))
    assert window.sessions.open(path)
    # returned before the run got there: the GUI thread did not step the solver (2,000,000
    # iterations of 10x10 take seconds in the worker)
    assert window.run.thread.loop.latest()[1].iteration < target
    snapshot = caught_up(window, qtbot)
    assert snapshot.iteration == target and not window.run.thread.loop.running
    counted = [m for m in messages if m.startswith("Re-running the session: iteration")]
    assert counted and counted[0].endswith(f"of {target:,}…")
    assert any(m.startswith("Session restored at iteration 2,000,000") for m in messages)
    window.shutdown()


def test_running_during_the_re_run_takes_over(qtbot, tmp_path):
    game = random_game("general-sum", (10, 10), seed=3)
    path = tmp_path / f"long{SUFFIX}"
    write_session(Session(game, family_of(game).config("rm"), 50_000_000), path)
    window = make_window(qtbot, tmp_path)
    assert window.sessions.open(path) and window.sessions.catching_up()
    window.run.toggle()  # Space: the person runs on from wherever the run is
    assert not window.sessions.catching_up() and window.run.thread.loop.running
    window.run.toggle()
    loop = window.run.thread.loop  # stopped, and where it stopped is published
    qtbot.waitUntil(
        lambda: not loop.busy and loop.latest()[1].iteration == loop.solver.iteration, timeout=60_000
    )
    assert window.run.thread.loop.latest()[1].iteration < 50_000_000
    window.shutdown()


@pytest.mark.parametrize("make", ["matrix", "tree"])
def test_saving_a_session_of_a_game_without_a_file_counts_as_saving_it(qtbot, tmp_path, make):
    window = make_window(qtbot, tmp_path) if make == "matrix" else make_tree_window(qtbot, kuhn_poker())
    window.set_game(window.document.game, "an edit")  # an unsaved edit (the same game again)
    assert window.document.modified and window.document.path is None
    assert window.sessions.save(tmp_path / "s")
    assert not window.document.modified
    assert read_session(tmp_path / f"s{SUFFIX}").game.title == window.document.game.title
    window.shutdown()


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_the_app_opens_a_session_file_from_the_command_line(tmp_path):
    game = random_game("general-sum", (3, 3), seed=5)
    path = tmp_path / f"cli{SUFFIX}"
    write_session(Session(game, family_of(game).config("rm+"), 1000), path)
    shot = tmp_path / "window.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "rmviz.cli", str(path), "--screenshot", str(shot), "--after", "0"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    assert shot.stat().st_size > 10_000
    path.write_text(write_json(game))  # a game file named as a session: refused in one line
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300, env=env)
    assert result.returncode == 2
    assert (
        result.stderr.strip() == f"rmviz: {path}: not an rmviz session file: its \"format\" is 'rmviz-game' "
        '(one is a JSON object {"format": "rmviz-session", "version": 3, ...})'
    )
    old_monte_carlo_session(path, 20)  # opens, and says on stderr that it replays a new run
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    assert f"rmviz: {path}: {MONTE_CARLO_NOTICE}\n" in result.stderr


def test_a_screenshot_waits_for_a_sessions_re_run_boundedly():
    """``rmviz SESSION --screenshot F`` waits for the re-run only while it would end within
    MAX_REPLAY seconds, estimated from its pace after two seconds."""
    assert "would take more than a century here" in replay_problem(10**6, 2**53, 3.0)  # no "about"
    assert replay_problem(0, 10**12, 1.0) is None  # too early to tell
    assert replay_problem(0, 10**12, 30.0) is None  # no pace yet: waits, up to the limit
    assert replay_problem(10**6, 10**9, 1.9) is None
    assert replay_problem(10**6, 10**8, 3.0) is None  # 300 s
    assert replay_problem(10**12, 10**12, MAX_REPLAY + 5) is None  # there: shoot
    message = replay_problem(2 * 10**6, 10**12, 3.0)
    assert message is not None and "iteration 1,000,000,000,000 would take about 17.4 days" in message
    assert "666,667 iterations per second" in message and "\n" not in message
    late = replay_problem(10, 10**9, MAX_REPLAY + 1)
    assert late is not None and "took more than 60 minutes" in late


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_a_screenshot_of_a_session_that_would_re_run_for_days_is_refused(tmp_path):
    game = random_game("general-sum", (3, 3), seed=5)
    path = tmp_path / f"days{SUFFIX}"
    write_session(Session(game, family_of(game).config("rm"), 10**12), path)
    shot = tmp_path / "window.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "rmviz.cli", str(path), "--screenshot", str(shot), "--after", "1"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300, env=env)
    assert result.returncode == 2 and not shot.exists()
    lines = [line for line in result.stderr.splitlines() if line.startswith("rmviz: ")]
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith(
        f"rmviz: {path}: re-running the session to iteration 1,000,000,000,000 would take"
    )


def starts(window):
    start = window.run.thread.loop.solver.config.start
    return None if start is None else {player: tuple(p) for player, p in start.items()}


def test_a_sessions_starting_strategy_stays_with_its_game(qtbot, tmp_path):
    """The session's starting strategy is shown in the Start row and runs: edits of the game
    keep it, opening a game of another shape drops it."""
    game = random_game("general-sum", (2, 3), seed=1)
    config = family_of(game).config("rm", start={1: [0.2, 0.3, 0.5]})
    path = tmp_path / f"start{SUFFIX}"
    write_session(Session(game, config, 5), path)
    window = make_window(qtbot, tmp_path)
    assert window.sessions.open(path)
    caught_up(window, qtbot)
    assert window.start_edit.text() == "; 0.2, 0.3, 0.5"
    assert starts(window) == {1: (0.2, 0.3, 0.5)}
    twin = family_of(game).solver(game, config)
    twin.step(5)
    assert_same_snapshot(twin.snapshot(metrics=True), window.run.thread.loop.latest()[1])
    window.document.set_payoffs([(0, 0)], [(3, 3)])
    assert starts(window) == {1: (0.2, 0.3, 0.5)}
    window.load_catalog("rps")  # three actions each: the start was for the other game
    assert not window.errors and window.run.thread.loop.solver.config.start is None
    window.shutdown()


def test_a_sessions_information_set_the_tree_lacks_is_said(qtbot, tmp_path):
    """It used to open silently on another information set."""
    game = teaching_tree()
    session = Session(game, family_of(game).config("cfr"), 2, view=View(infoset="ZZZ"))
    path = tmp_path / f"odd{SUFFIX}"
    write_session(session, path)
    window = make_tree_window(qtbot, teaching_tree())
    assert window.sessions.open(path)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: bar.currentMessage().startswith("Session restored"), timeout=120_000)
    assert "the tree has no information set 'ZZZ': showing '1'" in bar.currentMessage()
    window.shutdown()


class StepCounter:
    """Counts the iterations a solver steps (wrapping its ``step``)."""

    def __init__(self, solver):
        self.count, step = 0, solver.step

        def counted(iterations=1):
            self.count += iterations
            step(iterations)

        solver.step = counted


@pytest.mark.slow  # 11 s: ten million sampled iterations (.ci/run runs it)
def test_a_session_at_ten_million_iterations_reopens_without_re_running_and_goes_on_alike(qtbot, tmp_path):
    """The run itself is in the file: reopening steps nothing, the trace is there, and the
    reopened run goes on with the iterates the unsaved one has (sampled play: the random
    stream comes back too)."""
    window = make_window(qtbot, tmp_path, game="rps")
    choose(window.panel.algorithm, "rm+")
    window.panel.play.setCurrentText("sampled")
    loop = window.run.thread.loop
    window.run.step(10_000_000)
    qtbot.waitUntil(lambda: not loop.busy and loop.latest()[1].iteration == 10_000_000, timeout=120_000)
    path = tmp_path / f"long{SUFFIX}"
    assert window.sessions.save(path)
    assert read_session(path).saved.checkpoint.iteration == 10_000_000

    fresh = make_window(qtbot, tmp_path)
    original_new_solver = fresh.new_solver
    counters = []
    fresh.new_solver = lambda game: (
        solver := original_new_solver(game),
        counters.append(StepCounter(solver)),
    )[0]
    assert fresh.files.open(path)
    assert not fresh.sessions.catching_up()  # restored at once: no re-run
    reopened = fresh.run.thread.loop
    assert reopened.solver.iteration == 10_000_000 and sum(c.count for c in counters) == 0
    qtbot.waitUntil(lambda: reopened.latest()[1].iteration == 10_000_000, timeout=10_000)
    columns = loop.solver.columns
    saved_trace, restored_trace = loop.trace_data(columns), reopened.trace_data(columns)
    np.testing.assert_array_equal(saved_trace.iterations, restored_trace.iterations)
    for column in columns:
        np.testing.assert_array_equal(saved_trace.columns[column], restored_trace.columns[column])
    assert "Session restored at iteration 10,000,000" in fresh.statusBar().currentMessage()

    for shown in (window, fresh):  # both go on: the same iterates, the same trace
        shown.run.step(12_345)
    for shown in (loop, reopened):
        qtbot.waitUntil(lambda s=shown: not s.busy and s.latest()[1].iteration == 10_012_345, timeout=60_000)
    assert_same_snapshot(loop.latest()[1], reopened.latest()[1])
    assert loop.solver.checkpoint().rng == reopened.solver.checkpoint().rng
    np.testing.assert_array_equal(
        loop.trace_data(columns).iterations, reopened.trace_data(columns).iterations
    )
    for shown in (window, fresh):
        shown.shutdown()


def test_the_equilibria_tab_and_its_joint_come_back(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps")
    window.tabs.setCurrentWidget(window.equilibria)
    assert window.equilibria.check_text("1/9 " * 9)
    path = tmp_path / f"ce{SUFFIX}"
    assert window.sessions.save(path)
    assert read_session(path).view.joint == ", ".join(["1/9"] * 9)

    fresh = make_window(qtbot, tmp_path)
    assert fresh.files.open(path)
    assert fresh.tabs.currentWidget() is fresh.equilibria
    assert fresh.equilibria.joint_model.entries == ["1/9"] * 9 and fresh.equilibria.check is not None
    assert fresh.equilibria.summary.text() == window.equilibria.summary.text() and not fresh.errors
    for shown in (window, fresh):
        shown.shutdown()


def test_a_saved_run_that_does_not_fit_its_game_is_refused_and_changes_nothing(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps")
    window.run.step(50)
    loop = window.run.thread.loop
    qtbot.waitUntil(lambda: not loop.busy and loop.latest()[1].iteration == 50, timeout=60_000)
    data = session_to_dict(window.sessions.session())
    data["game"] = session_to_dict(Session(catalog_game("matching-pennies"), window.panel.config()))["game"]
    path = tmp_path / f"mismatch{SUFFIX}"
    path.write_text(json.dumps(data))
    fresh = make_window(qtbot, tmp_path)
    game = fresh.document.game
    assert not fresh.files.open(path)
    assert fresh.errors[-1].startswith(f"{path}: the saved solver state does not fit this game and algorithm")
    assert fresh.document.game is game and not fresh.document.modified
    for shown in (window, fresh):
        shown.shutdown()


def test_the_step_tabs_chosen_draws_come_back_and_explain_their_iterations(qtbot, tmp_path):
    """The lecture's self-play table, typed as a script and saved: reopened, the Step tab has
    the same script and explains every iteration as it ran (not with random draws)."""
    from tests.ui.matrix.test_step_panel import SELF_PLAY, sampled_step_tab, shown_iteration

    window = make_window(qtbot, tmp_path)
    panel = sampled_step_tab(qtbot, window)
    panel.script_edit.setText("; ".join(",".join(profile) for _, profile, *_ in SELF_PLAY))
    panel.play_button.click()
    qtbot.waitUntil(lambda: shown_iteration(panel, 7), timeout=60_000)
    solver = window.run.thread.loop.solver
    tables = {}
    for t in (3, 7):
        panel.update_from(solver, t, running=False)
        tables[t] = (panel.rows(0), panel.rows(1))
    path = tmp_path / f"self-play{SUFFIX}"
    assert window.sessions.save(path)
    assert [list(p) for p in read_session(path).view.script] == panel.script

    fresh = make_window(qtbot, tmp_path / "again", game="rps")
    assert fresh.files.open(path) and not fresh.errors
    assert fresh.tabs.currentWidget() is fresh.step_panel and fresh.step_panel.script == panel.script
    for t in (3, 7):
        fresh.step_panel.update_from(fresh.run.thread.loop.solver, t, running=False)
        assert (fresh.step_panel.rows(0), fresh.step_panel.rows(1)) == tables[t]
    for shown in (window, fresh):
        shown.shutdown()


@pytest.mark.slow  # 11 s: two Leduc tree views (.ci/run runs it)
def test_the_tree_view_comes_back_zoomed_centred_and_folded_as_it_was(qtbot, tmp_path):
    window = make_tree_window(qtbot, catalog_game("leduc"))
    view = window.view
    folded = next(
        h for h in range(1, view.tree.n_nodes) if view.tree.child_count[h] > 0 and h in view.positions
    )
    view.toggle(folded)  # the person folds a subtree...
    view.resetTransform()
    view.scale(0.8, 0.8)  # ...zooms (as the wheel does) and scrolls to a node
    view.zoomed = True
    view.centerOn(view.positions[folded])
    before = view.mapToScene(view.viewport().rect().center())
    path = tmp_path / f"leduc{SUFFIX}"
    assert window.sessions.save(path)
    shown = read_session(path).view.tree_view
    assert shown.zoomed and folded in shown.collapsed and shown.zoom == pytest.approx(0.8)

    fresh = make_tree_window(qtbot, kuhn_poker())
    fresh.resize(window.size())
    assert fresh.sessions.open(path) and not fresh.errors
    again = fresh.view
    assert folded in again.collapsed and folded in again.folded
    assert again.transform().m11() == pytest.approx(0.8) and again.zoomed
    centre = again.mapToScene(again.viewport().rect().center())
    assert abs(centre.x() - before.x()) <= 2 and abs(centre.y() - before.y()) <= 2
    for shown_window in (window, fresh):
        shown_window.shutdown()


def test_a_session_whose_trace_has_an_older_versions_columns_re_runs(qtbot, tmp_path):
    """A run saved before the last iterate's columns existed: its trace rows are narrower than
    the solver's columns now, so the window re-runs it (deterministic) and says why."""
    from rmviz.runner.record import record_traces
    from rmviz.runner.trace import SavedRun, Trace
    from rmviz.solvers.registry import make_solver

    game = catalog_game("rps")
    solver = make_solver(game, "rm+")
    shown = Trace(solver.columns, Session.points_per_decade)
    record_traces(solver, 300, [shown], lambda _: None)
    iterations, rows = shown.kept()
    old = [k for k, column in enumerate(solver.columns) if not column.quantity.startswith("last_")]
    saved = SavedRun(solver.checkpoint(), iterations, rows[:, old])
    path = tmp_path / f"old-trace{SUFFIX}"
    write_session(Session(game, solver.config, 300, saved=saved), path)
    window = make_window(qtbot, tmp_path)
    assert window.files.open(path)
    bar = window.statusBar()
    qtbot.waitUntil(lambda: bar.currentMessage().startswith("Session restored"), timeout=120_000)
    assert "its trace has the columns of another version: re-running it" in bar.currentMessage()
    assert caught_up(window, qtbot).iteration == 300 and not window.errors
    window.shutdown()


def test_a_session_keeps_whether_the_run_tracked_the_last_iterate(qtbot, tmp_path):
    """The tree window's View > Last iterate (off by default on trees) comes back with the
    session, in the solver, the menu and the gap plot; rmviz solve --last-iterate
    --save-session says so too."""
    from rmviz import cli

    window = make_tree_window(qtbot, kuhn_poker())
    window.last_action.trigger()  # on: a fresh run that tracks it
    qtbot.waitUntil(lambda: window.run.thread is not None and window.run.thread.loop.solver.last_iterate)
    path = tmp_path / f"tracked{SUFFIX}"
    assert window.sessions.save(path)
    assert json.loads(path.read_text())["view"]["last_iterate"] is True

    fresh = make_tree_window(qtbot, teaching_tree())
    assert fresh.sessions.open(path)
    qtbot.waitUntil(lambda: fresh.run.thread is not None and fresh.run.thread.loop.solver.last_iterate)
    assert fresh.last_action.isChecked() and fresh.plots.last and fresh.last_iterate is True
    solved = tmp_path / "solved"
    assert (
        cli.main(
            ["solve", "kuhn", "-a", "pcfr+", "-n", "20", "--last-iterate", "--save-session", str(solved)]
        )
        == 0
    )
    assert json.loads(next(tmp_path.glob("solved*")).read_text())["view"]["last_iterate"] is True
    for shown in (window, fresh):
        shown.shutdown()
