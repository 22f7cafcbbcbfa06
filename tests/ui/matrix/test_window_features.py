"""The matrix window: editing structure, solver parameters, export, compare, presentation,
recent files."""

from __future__ import annotations

import csv
import json
import time

import numpy as np
import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication, QPalette

from rmviz.games import catalog_game
from rmviz.present.simplex import FADE_STEPS, project
from rmviz.runner.record import read_run_game
from rmviz.solvers.columns import Column
from rmviz.ui.common.plot_layout import LIVE_POINTS, live_points
from rmviz.ui.common.presentation import PRESENTATION_PLOTS, PRESENTATION_TEXT
from tests.ui.matrix.conftest import iteration

AVERAGE_00 = Column("average", player=0, action=0)


# -- the matrix editor's structure ---------------------------------------------------------------
def test_add_rename_and_remove_actions_through_the_editor(window):
    editor = window.editor
    editor.ask_text = lambda *_args: "Opera"
    editor.attempt(lambda: window.document.add_action(0))
    assert window.model.rowCount() == 3
    editor.ask_rename_action(True, 2)
    assert window.document.game.action_names[0] == ("Cinema", "Dancing", "Opera")
    assert window.model.headerData(2, Qt.Orientation.Vertical) == "Opera"
    editor.attempt(lambda: window.document.remove_action(1, 0))
    assert window.document.game.num_actions == (3, 1)
    editor.attempt(lambda: window.document.remove_action(1, 0))  # the last one is refused
    assert "needs at least one action" in window.errors[-1]
    for _ in range(3):
        window.document.undo()
    assert window.document.game == catalog_game("battle-of-partners")


def test_a_dragged_split_outlives_edits_that_rebuild_the_views(window, qtbot):
    """The strategy views' share of the height is set when their kind changes (segments for
    three players of two actions, a square or triangles otherwise), not on every rebuild."""
    window.resize(1280, 720)
    window.show()
    window.show_game(catalog_game("rps"), "RPS")
    dashboard = window.dashboard
    qtbot.waitUntil(lambda: sum(dashboard.sizes()) > 0)
    total = sum(dashboard.sizes())
    dashboard.setSizes([total // 2, total - total // 2])
    dragged = dashboard.sizes()
    window.editor.attempt(lambda: window.document.add_action(0))  # rebuilt: a new action
    assert window.dashboard.simplex.columns() and dashboard.sizes() == dragged
    window.show_game(catalog_game("three-player-pennies"), "Pennies")  # segments: less height
    assert dashboard.sizes()[0] < dragged[0]


def test_add_and_remove_a_player_keeps_the_others_payoffs(window):
    before = window.document.game
    window.editor.attempt(window.document.add_player)
    game = window.document.game
    assert game.n_players == 3 and game.num_actions == (2, 2, 1)
    np.testing.assert_array_equal(game.payoffs[:2, :, :, 0], before.payoffs)
    assert window.editor.slices.isVisibleTo(window)
    window.editor.ask_item = lambda *_args: 2
    window.editor.ask_remove_player()
    assert window.document.game == before
    window.editor.ask_remove_player()  # two players left: refused
    assert "at least two players" in window.errors[-1]


def test_rename_a_player_and_refuse_an_empty_name(window):
    window.editor.ask_text = lambda _title, label, _text: "Alice" if "Cat" in label else " "
    window.editor.ask_rename_player()
    assert window.document.game.player_names == ("Alice", "Dee")
    assert "cannot be empty" in window.errors[-1]


def test_copy_paste_and_delete_with_the_keyboard(window, qtbot):
    table = window.editor.table
    selection = table.selectionModel()
    selection.select(window.model.index(0, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    selection.select(window.model.index(0, 1), QItemSelectionModel.SelectionFlag.Select)
    window.editor.copy_selection()
    assert QGuiApplication.clipboard().text() == "10, 7\t2, 2\n"
    selection.select(window.model.index(1, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    window.editor.paste_clipboard()
    np.testing.assert_array_equal(window.document.game.payoffs[:, 1, :], [[10, 2], [7, 2]])
    selection.select(window.model.index(1, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    window.editor.clear_selection()
    assert window.document.game.payoffs[:, 1, 0].tolist() == [0, 0]
    window.document.undo()
    window.document.undo()
    assert window.document.game == catalog_game("battle-of-partners")


# -- the solver panel ----------------------------------------------------------------------------
def test_parameters_reach_the_solver_and_bad_ones_are_refused(window):
    panel = window.panel
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("discounted-rm"))
    assert panel.parameters["alpha"].isVisibleTo(window)
    assert not panel.parameters["inertia"].isVisibleTo(window)
    panel.parameters["alpha"].setText("3")
    panel.parameters["alpha"].editingFinished.emit()
    assert window.run.thread.loop.solver.config.alpha == 3.0
    panel.parameters["gamma"].setText("two")
    panel.parameters["gamma"].editingFinished.emit()
    assert "'two' is not a number" in panel.problem.text()
    assert window.run.thread.loop.solver.config.alpha == 3.0  # the last valid run goes on
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("greedy-rm"))
    assert not panel.updates.isEnabled() and panel.updates.currentText() == "simultaneous"
    assert panel.config().weighting == "greedy"


def test_speed_limit_slows_the_run(window, qtbot):
    window.panel.speed.setCurrentIndex(window.panel.speed.findText("100 it/s"))
    started = time.perf_counter()
    window.run.toggle()
    qtbot.waitUntil(lambda: iteration(window) >= 10, timeout=60_000)
    qtbot.wait(300)
    # at most 100 iterations a second (and a chunk of a frame), however long it took
    assert 10 <= iteration(window) <= 100 * (time.perf_counter() - started) + 10


def test_metric_cadence_sets_the_trace_grid(window):
    window.panel.cadence.setCurrentIndex(0)
    assert window.run.thread.loop.trace.points_per_decade == 50


# -- views ---------------------------------------------------------------------------------------
def test_joint_heatmap_shows_the_snapshot_joint(window, qtbot):
    window.run.step(300)
    qtbot.waitUntil(lambda: iteration(window) == 300, timeout=60_000)
    window.run.redraw()
    joint = window.run.thread.loop.latest()[1].joint
    shown = window.joint.image.image.T  # drawn transposed (x = column action)
    np.testing.assert_allclose(shown, joint / joint.sum())
    assert window.joint.labels[0][0].toPlainText() == f"{joint[0, 0] / joint.sum():.2f}"


def test_the_average_path_fades_from_old_to_new(window, qtbot):
    window.load_catalog("rps")
    window.run.step(3000)
    qtbot.waitUntil(lambda: iteration(window) == 3000, timeout=60_000)
    window.run.redraw()
    path = window.simplex.paths[0][3]
    alphas = [piece.opts["pen"].color().alpha() for piece in path.pieces]
    assert alphas == sorted(alphas) and alphas[0] < 150 and alphas[-1] == 255
    # the pieces split the whole path where the exported figure's do (equal shares of the
    # trace) and join; the live view draws the trace's points thinned evenly over log T
    average = [Column("average", player=0, action=a) for a in range(3)]
    trace = window.run.thread.loop.trace_data(average)
    iterations, columns = trace.iterations, trace.columns
    points = project(3, np.column_stack([columns[c] for c in average]))
    assert len(points) > LIVE_POINTS
    ends = np.linspace(0, len(points), FADE_STEPS + 1).astype(int)[1:] - 1
    for piece, end in zip(path.pieces, ends, strict=True):
        np.testing.assert_array_equal(piece.getData()[0][-1], points[end, 0])
    drawn = np.union1d(np.arange(len(points))[live_points(iterations)], ends)
    x, y = path.getData()
    np.testing.assert_array_equal(np.column_stack([x, y]), points[drawn])
    np.testing.assert_array_equal(np.ravel(path.end.getData()), points[-1])  # a dot where it ends


def test_simplex_face_for_more_than_three_actions(window, qtbot):
    window.load_random("zero-sum", (5, 5))
    assert window.dashboard.faces.isVisibleTo(window)
    selector = window.dashboard.faces.layout().itemAt(0).widget()
    for corner, action in enumerate((1, 3, 4)):
        selector.corners[corner].setCurrentIndex(action)
    assert window.simplex.face(0) == (1, 3, 4)
    assert Column("average", player=0, action=4) in window.simplex.columns()
    selector.corners[0].setCurrentIndex(4)  # shown at corner 3: the two corners swap
    assert window.simplex.face(0) == (4, 3, 1) == selector.face()
    assert [combo.currentIndex() for combo in selector.corners] == [4, 3, 1]


def test_any_action_of_a_large_game_can_be_a_corner(window, qtbot):
    """The faces offered used to stop at the tenth action: a 30x30 game's equilibrium
    support could not be drawn."""
    window.load_random("zero-sum", (30, 30))
    selector = window.dashboard.face_combos[1]
    assert all(combo.count() == 30 for combo in selector.corners)
    selector.corners[1].setCurrentIndex(29)
    assert window.simplex.face(1) == (0, 29, 2)
    window.dashboard.set_faces({1: (27, 28, 29)})  # a session's faces come back
    assert window.simplex.face(1) == (27, 28, 29) and selector.face() == (27, 28, 29)


def test_a_big_games_simplex_draws_the_most_played_face_until_one_is_chosen(window, qtbot, tmp_path):
    """A 15x15 game's simplices drew actions 1, 2 and 3, which its equilibrium does not play:
    each player's face now follows the three actions most played (as the exported figure's
    does), shown in the selectors, until the person picks one."""
    window.load_random("zero-sum", (15, 15))
    assert window.simplex.face(0) == (0, 1, 2)  # no point yet
    window.run.step(2000)
    qtbot.waitUntil(lambda: iteration(window) == 2000, timeout=60_000)
    window.run.redraw()
    average = window.run.thread.loop.latest()[1].average_strategy
    for player in (0, 1):
        p = np.asarray(average[player])
        ranked = np.argsort(-p, kind="stable")
        assert p[ranked[2]] - p[ranked[3]] > 0.02  # no near tie: the three most played are clear
        face = tuple(sorted(ranked[:3].tolist()))
        assert window.simplex.face(player) == face == window.dashboard.face_combos[player].face()
        assert [combo.currentIndex() for combo in window.dashboard.face_combos[player].corners] == list(face)
    assert window.figure_extras()["faces"] == {}  # followed, not chosen
    names = window.document.game.action_names[0]
    figure = tmp_path / "simplex.svg"
    assert window.export.figure(figure, "simplex", size=(1000, 600), style="paper")
    title = f"(face {', '.join(names[a] for a in window.simplex.face(0))} of 15)"
    assert title in figure.read_text()
    window.dashboard.face_combos[0].corners[0].setCurrentIndex(14)  # the person picks one
    window.run.step(500)
    qtbot.waitUntil(lambda: iteration(window) == 2500, timeout=60_000)
    window.run.redraw()
    assert window.simplex.face(0)[0] == 14 and window.figure_extras()["faces"][0] == window.simplex.face(0)


def test_a_followed_face_is_named_anew_in_place_from_the_newest_point(window):
    """A face that follows the run is drawn again in place when the most played change: the
    same plots and paths (rebuilding a 200-action game's panels took ~150 ms, at most
    redraws early in a run), the title and the corners naming the new face, the star moved
    onto it; the choice reads the trace's newest point alone."""
    from rmviz.runner.trace import TraceData

    window.load_random("zero-sum", (6, 6))
    simplex = window.simplex
    plots, paths = [item for item, _ in simplex.corners.values()], list(simplex.paths)
    assert simplex.face(0) == (0, 1, 2) and set(simplex.corners) == {0, 1}
    newest = {column: np.array([0.0]) for column in simplex.chosen_from()}
    for a, p in ((5, 0.5), (3, 0.3), (4, 0.2)):
        newest[Column("average", player=0, action=a)] = np.array([p])
    simplex.set_equilibrium(((0, 0, 0, 0.2, 0.3, 0.5), (1, 0, 0, 0, 0, 0)))
    simplex.choose(TraceData(np.array([7]), newest).columns)
    assert simplex.face(0) == (3, 4, 5) and simplex.face(1) == (0, 1, 2)  # player 2: ties by index
    assert [item for item, _ in simplex.corners.values()] == plots and simplex.paths == paths
    names = window.document.game.action_names[0]
    plot, corners = simplex.corners[0]
    assert f"(face {names[3]}, {names[4]}, {names[5]} of 6)" in plot.titleLabel.text
    assert [text.toPlainText() for text in corners] == [names[3], names[4], names[5]]
    star = next(item for _kind, player, item in simplex.stars if player == 0)
    np.testing.assert_allclose(np.ravel(star.getData()), project(3, np.array([[0.2, 0.3, 0.5]]))[0])
    assert Column("average", player=0, action=5) in simplex.columns()
    assert Column("average", player=0, action=0) not in simplex.columns()  # the old face's


def test_compare_mode_runs_every_checked_algorithm(window, qtbot):
    window.tabs.setCurrentWidget(window.compare)
    window.compare.set_checked(["rm", "rm+", "greedy-rm"])
    window.run.toggle()  # Space runs the visible tab
    assert set(window.compare.threads) == {"rm", "rm+", "greedy-rm"}
    qtbot.waitUntil(
        lambda: all(t.loop.latest()[1].iteration > 200 for t in window.compare.threads.values()),
        timeout=60_000,
    )
    window.run.redraw()
    for name in ("rm", "rm+", "greedy-rm"):
        curve = window.compare.curves[Column("exploitability"), name]
        assert len(curve.xData) > 10 and np.all(curve.getOriginalDataset()[1] > 0)
    assert window.run.thread.loop.running is False  # the single run waits while comparing
    window.tabs.setCurrentWidget(window.dashboard)
    assert not window.compare.running


def test_presentation_mode_scales_and_comes_back(window):
    font = window.font().pointSizeF()
    window.presentation.toggle()
    assert window.plots.scale == PRESENTATION_PLOTS and window.simplex.scale == PRESENTATION_PLOTS
    assert window.font().pointSizeF() == pytest.approx(PRESENTATION_TEXT * font)
    assert QGuiApplication.font().pointSizeF() == pytest.approx(font)  # this window only
    pen = window.plots.curves[AVERAGE_00].opts["pen"]
    assert pen.widthF() == pytest.approx(2 * PRESENTATION_PLOTS)
    palette = window.palette()
    assert palette.color(QPalette.ColorRole.Window).lightness() > 200  # light theme
    assert not window.left.isVisibleTo(window)  # the plots alone
    window.presentation.toggle()
    assert window.plots.scale == 1.0 and window.font().pointSizeF() == pytest.approx(font)
    assert window.left.isVisibleTo(window)


# -- export ----------------------------------------------------------------------------------------
@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_export_writes_every_figure_and_says_why_when_it_cannot(window, qtbot, tmp_path):
    from PIL import Image

    from rmviz.figures import figures_of
    from tests.figures.test_figures import small_size

    window.run.step(300)
    qtbot.waitUntil(lambda: iteration(window) == 300, timeout=60_000)
    assert not window.export.figure(tmp_path / "compare.png", "compare")
    assert "run the algorithms in compare mode first" in window.errors.pop()
    window.compare.toggle_run()
    qtbot.waitUntil(lambda: all(t.loop.latest()[1].iteration > 50 for t in window.compare.threads.values()))
    window.compare.toggle_run()
    for figure in figures_of("matrix"):
        path = tmp_path / (f"{figure}.tex" if figure == "tikz" else f"{figure}.png")
        size = (480, 300) if figure == "tikz" else small_size(figure)  # 480x300 at 60 DPI, or the least
        assert window.export.figure(path, figure, size=size, dpi=60, style="paper"), window.errors
        if figure != "tikz":
            assert Image.open(path).size == size
    assert "\\cellcolor" in (tmp_path / "tikz.tex").read_text()  # battle of partners' equilibrium
    assert not window.export.figure(tmp_path / "figure.gif", "gaps")
    assert "gaps figure was not written to figure.gif" in window.errors[-1]
    assert "written as .png or .svg or .pdf" in window.errors[-1]
    assert not window.export.figure(tmp_path / "missing" / "gaps.svg", "gaps")
    assert "does not exist" in window.errors[-1]


def test_the_export_dialog_asks_and_writes(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QDialog, QFileDialog

    from rmviz.figures.registry import default_size
    from rmviz.figures.style import DEFAULT_STYLE

    target = tmp_path / "simplex.svg"
    offered: list[tuple[int, int]] = []
    monkeypatch.setattr(QDialog, "exec", lambda dialog: _choose(dialog, "simplex", offered))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: (str(target), "SVG (*.svg)"))
    window.run.step(100)
    qtbot.waitUntil(lambda: iteration(window) == 100, timeout=60_000)
    window.export.figure_dialog()
    assert not window.errors, window.errors
    qtbot.waitUntil(target.exists, timeout=60_000)
    assert "<svg" in target.read_text() and not window.errors
    # the size offered is the one rmviz export draws for this game: a 2x2 game's one square
    fitted = default_size("simplex", DEFAULT_STYLE, game=window.document.game)
    assert offered == [(round(fitted[0] * 150), round(fitted[1] * 150))]
    assert fitted[0] < default_size("simplex", DEFAULT_STYLE)[0] / 2


def _choose(dialog, figure, offered=None):
    """Pick ``figure`` in the export dialog, as a person would, and accept it; the default
    size filled in (pixels at 150 DPI) is added to ``offered``."""
    from PySide6.QtWidgets import QComboBox, QDialog, QSpinBox

    combo = dialog.findChildren(QComboBox)[0]
    combo.setCurrentText(figure)
    width = dialog.findChildren(QSpinBox)[0]
    assert width.value() > 100  # the figure's default size, filled in
    if offered is not None:
        offered.append((width.value(), dialog.findChildren(QSpinBox)[1].value()))
    width.setValue(500)
    dialog.findChildren(QSpinBox)[1].setValue(300)
    # below the figure's smallest legible size: the boxes keep that size (the export refuses less)
    assert width.value() > 500 and dialog.findChildren(QSpinBox)[1].value() > 300
    return QDialog.DialogCode.Accepted


def test_export_run_data_with_config_and_seed(window, qtbot, tmp_path):
    window.panel.seed.setValue(7)
    window.run.step(1000)
    qtbot.waitUntil(lambda: iteration(window) == 1000, timeout=60_000)
    assert window.export.data(tmp_path / "run.json")
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["seed"] == 7 and data["config"]["algorithm"] == "rm"
    assert data["trace"]["iteration"][-1] == 1000
    assert "average[Cat][Cinema]" in data["trace"]
    assert window.export.data(tmp_path / "run.csv")
    lines = (tmp_path / "run.csv").read_text().splitlines()
    assert lines[0] == '# format: "rmviz-run-data"' and any(line.startswith("# seed: 7") for line in lines)
    for name in ("run.json", "run.csv"):  # self-contained: the game itself is in the file
        assert read_run_game(tmp_path / name) == window.document.game
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    assert rows[-1]["iteration"] == "1000"
    assert float(rows[-1]["exploitability"]) == pytest.approx(data["trace"]["exploitability"][-1])


# -- files ----------------------------------------------------------------------------------------
def test_open_recent_lists_opened_and_saved_files(window, tmp_path):
    path = tmp_path / "partners.json"
    assert window.files.save(path)
    window.load_catalog("rps")
    assert window.recent_files() == [str(path.resolve())]
    window._fill_recent()
    action = window.recent_menu.actions()[0]
    assert action.text() == str(path.resolve())
    action.trigger()
    assert window.document.game == catalog_game("battle-of-partners")
    assert not window.document.modified


def test_players_past_the_third_are_named_as_not_drawn(window):
    window.load_random("general-sum", (2, 2, 2, 2, 2))
    note = window.dashboard.unseen
    assert note.isVisibleTo(window)
    assert "first 3 of 5 players" in note.text() and "Player 4, Player 5" in note.text()
    window.load_catalog("rps")
    assert not note.isVisibleTo(window)


@pytest.mark.parametrize("steps", [0, 4])
def test_the_compare_list_shows_every_name_whole_at_any_text_size(window, qtbot, steps):
    """The algorithm list was 190 pixels at most: "greedy-internal-rm" and "optimistic-hedge"
    were cut under a horizontal scroll bar in presentation mode. It is as wide as its longest
    name, at the normal text size and four Ctrl+= up."""
    window.resize(1280, 720)
    window.show()
    window.tabs.setCurrentWidget(window.compare)
    window.presentation.set_text_steps(steps)
    listed = window.compare.algorithms
    qtbot.waitUntil(lambda: listed.isVisible() and listed.viewport().width() > 0)
    widest = max(listed.visualItemRect(listed.item(k)).width() for k in range(listed.count()))
    needed = max(listed.sizeHintForColumn(0), widest)
    qtbot.waitUntil(lambda: listed.viewport().width() >= needed)
    assert not listed.horizontalScrollBar().isVisible()
