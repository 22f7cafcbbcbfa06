"""The matrix window driven through its real widgets with pytest-qt (offscreen)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from rmviz.games import catalog_game
from rmviz.solvers.columns import Column
from rmviz.ui.tree.window import TreeWindow
from tests.ui.matrix.conftest import iteration, make_window

AVERAGE_00 = Column("average", player=0, action=0)


def test_edit_a_payoff_in_the_table_and_undo_it(window, qtbot):
    model = window.model
    index = model.index(0, 1)  # Cinema / Dancing
    assert model.data(index) == "2, 2"
    assert model.setData(index, "3, 4")
    assert window.document.game.payoffs[:, 0, 1].tolist() == [3, 4]
    assert "modified" in window.game_label.text()
    window.undo_action.trigger()
    assert window.document.game.payoffs[:, 0, 1].tolist() == [2, 2]
    assert model.data(index) == "2, 2"


def test_an_invalid_entry_is_refused_in_place(window):
    before = window.document.game
    assert not window.model.setData(window.model.index(1, 1), "seven")
    assert window.document.game is before
    assert "'seven' is not a number" in window.errors[-1]


def test_paste_a_block_from_a_spreadsheet(window):
    assert window.model.paste(0, 0, "1, 1\t2, 2\n3, 3\t4, 4\n")
    np.testing.assert_array_equal(window.document.game.payoffs[0], [[1, 2], [3, 4]])
    window.document.undo()  # one undo step for the whole block
    np.testing.assert_array_equal(window.document.game.payoffs[0], [[10, 2], [0, 7]])


def test_step_exactly_one_iteration_then_run_and_pause(window, qtbot):
    window.run.step(1)
    qtbot.waitUntil(lambda: iteration(window) == 1, timeout=60_000)
    window.run.toggle()
    assert window.run_button.text() == "Pause"
    qtbot.waitUntil(lambda: iteration(window) > 1000, timeout=60_000)
    window.run.toggle()
    assert window.run_button.text() == "Run"
    # the chunk in flight when Pause was pressed ends, then nothing more runs
    solver, seen = window.run.thread.loop.solver, []
    qtbot.waitUntil(lambda: seen.append(solver.iteration) or seen[-10:] == [seen[-1]] * 10, timeout=60_000)
    paused_at = window.run.thread.loop.solver.iteration
    qtbot.wait(100)
    assert window.run.thread.loop.solver.iteration == paused_at
    assert window.run_button.text() == "Run"


def test_snapshots_reach_the_plots_and_the_simplex(window, qtbot):
    window.run.step(500)
    qtbot.waitUntil(lambda: iteration(window) == 500, timeout=60_000)
    # the redraw timer draws the last snapshot (an earlier one may be drawn first)
    qtbot.waitUntil(
        lambda: (
            window.iteration_label.text() == "iteration 500"
            and len(window.plots.curves[AVERAGE_00].getOriginalDataset()[0]) > 20
        ),
        timeout=60_000,
    )
    assert window.iteration_label.text() == "iteration 500"
    x, y = window.simplex.paths[0][3].getData()  # 2x2 game: the (p, q) square
    assert len(x) > 20 and 0 <= x.min() and x.max() <= 1 and 0 <= y.min() and y.max() <= 1


def test_editing_while_running_restarts_cleanly(window, qtbot):
    window.run.toggle()
    qtbot.waitUntil(lambda: iteration(window) > 100, timeout=60_000)
    old = window.run.thread
    window.model.setData(window.model.index(0, 0), "11, 8")
    assert window.run.thread is not old and not old.is_alive()
    assert window.run.thread.loop.solver.game.payoffs[0, 0, 0] == 11


def test_a_bad_file_dropped_on_the_window_keeps_the_game(window, tmp_path):
    bad = tmp_path / "broken.nfg"
    bad.write_text('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 2 3\n')
    before = window.document.game
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(bad))])
    event = QDropEvent(
        QPoint(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert "broken.nfg, line 2" in window.errors[-1]
    assert window.document.game is before


def test_open_and_save_round_trip(window, tmp_path):
    path = tmp_path / "partners.nfg"
    assert window.files.save(path)
    assert not window.document.modified
    window.load_catalog("rps")
    assert window.document.game.num_actions == (3, 3)
    assert window.files.open(path)
    assert window.document.game == catalog_game("battle-of-partners")


def test_closing_during_a_run_stops_the_thread(qtbot, tmp_path):
    shown = make_window(qtbot, tmp_path, "rps-crash", autorun=True)
    qtbot.waitUntil(lambda: iteration(shown) > 1000, timeout=60_000)
    thread = shown.run.thread
    assert shown.close()
    assert shown.run.thread is None and not thread.is_alive()


def test_unsaved_changes_are_confirmed_before_closing(window):
    window.model.setData(window.model.index(0, 0), "1, 1")
    window.confirm_discard = lambda: False
    assert not window.close()
    assert window.run.thread is not None  # still running the window
    window.confirm_discard = lambda: True
    assert window.close()


def test_three_player_games_show_one_slice_at_a_time(window):
    window.load_catalog("three-player-pennies")
    assert window.editor.slices.isVisibleTo(window)
    assert window.model.rowCount() == 2 and window.model.columnCount() == 2
    window.model.set_slice(2, 1)
    assert window.model.profile(0, 1) == (0, 1, 1)


def test_a_game_tree_file_opens_in_a_tree_window(qtbot, tmp_path, registry):
    from rmviz.formats import write_game_file
    from rmviz.games.trees import kuhn_poker

    window = make_window(qtbot, tmp_path, opener=registry)
    path = tmp_path / "kuhn.efg"
    write_game_file(kuhn_poker(), path)
    before = window.document.game
    assert window.files.open(path)
    assert window.document.game is before  # the matrix stays
    (tree_window,) = registry.windows  # opened by the app's registry, which owns it
    assert isinstance(tree_window, TreeWindow) and tree_window.document.path == path
    assert tree_window.tree.n_nodes == 58
    assert str(path.resolve()) in window.recent_files()
    window.shutdown()


def test_without_an_opener_a_game_tree_file_is_refused(window, tmp_path):
    from rmviz.formats import write_game_file
    from rmviz.games.trees import kuhn_poker

    path = tmp_path / "kuhn.efg"
    write_game_file(kuhn_poker(), path)
    before = window.document.game
    assert not window.files.open(path)
    assert "a tree game" in window.errors[-1] and window.document.game is before


def test_payoff_edits_keep_the_views_and_start_them_afresh(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps")
    window.run.step(300)
    qtbot.waitUntil(lambda: window.plots.curves[AVERAGE_00].getOriginalDataset()[0].size > 0, timeout=60_000)
    items = (window.plots.plot_items, window.simplex.paths, window.joint.image)
    assert window.simplex.stars[0][2].getData()[0].size == 1  # the catalog's equilibrium, starred

    window.model.setData(window.model.index(0, 1), "-2, 2")  # same shape: nothing rebuilt
    assert (window.plots.plot_items, window.simplex.paths, window.joint.image) == items
    assert window.plots.curves[AVERAGE_00].getOriginalDataset()[0].size == 0  # the old run's curves are gone
    assert window.simplex.paths[0][3].getData()[0].size == 0
    assert window.joint.image.image.max() == 0 and window.joint.labels[0][0].textItem.toPlainText() == ""
    assert window.dashboard.plots.game is window.document.game
    window.run.step(50)
    qtbot.waitUntil(lambda: iteration(window) == 50, timeout=60_000)
    qtbot.waitUntil(lambda: window.plots.curves[AVERAGE_00].getOriginalDataset()[0].size > 0, timeout=60_000)
    assert window.plots.curves[AVERAGE_00].getOriginalDataset()[0].max() <= 50  # drawn from the new run only

    window.document.undo()  # the catalog game again: its star is back, still nothing rebuilt
    assert window.simplex.stars[0][2].getData()[0].size == 1
    window.document.rename_action(0, 0, "Stone")  # a name drawn in the views: rebuilt
    assert window.plots.plot_items is not items[0]
    assert window.simplex.paths is not items[1]
    window.shutdown()


def test_type_a_starting_strategy_and_the_run_starts_there(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="rps")
    start = "default: the catalog's start for rps: 1/2, 1/4, 1/4; 1/4, 1/2, 1/4"  # named (issue 29)
    assert window.start_edit.placeholderText() == start
    window.start_edit.setText("1, 0, 0; 0, 0, 1")
    window.start_edit.editingFinished.emit()
    qtbot.waitUntil(lambda: window.run.thread.loop.solver.config.start is not None, timeout=60_000)
    solver = window.run.thread.loop.solver
    assert np.array_equal(solver.start[0], [1, 0, 0]) and np.array_equal(solver.start[1], [0, 0, 1])
    ring = window.simplex.rings[0][2]  # at Rock, the triangle's first corner
    assert (ring.pos().x(), ring.pos().y()) == (0.0, 0.0)
    window.run.step(1)
    qtbot.waitUntil(lambda: iteration(window) == 1, timeout=60_000)
    assert np.allclose(window.run.thread.loop.latest()[1].average_strategy[0], [1, 0, 0])

    before = window.run.thread
    window.start_edit.setText("1, 0")  # no strategy of Rock-Paper-Scissors: refused, run kept
    window.start_edit.editingFinished.emit()
    assert "needs 3 probabilities" in window.panel.problem.text()
    assert window.run.thread is before

    window.document.add_action(0)  # another shape: the start is cleared
    assert window.start_edit.text() == "" and window.run.thread.loop.solver.config.start is None
    window.shutdown()


def test_drag_the_starting_ring_on_the_simplex(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, game="battle-of-partners")
    ring = window.simplex.rings[0][2]  # 2x2: one ring on the (p, q) square
    ring.setPos(0.9, 0.2)
    ring.sigPositionChangeFinished.emit(ring)
    assert window.start_edit.text() == "0.9, 0.1; 0.2, 0.8"
    qtbot.waitUntil(lambda: window.run.thread.loop.solver.config.start is not None, timeout=60_000)
    assert np.allclose(window.run.thread.loop.solver.start[1], [0.2, 0.8])

    window.load_catalog("shapley")  # 3x3: a ring per player on its triangle
    ring = window.simplex.rings[1][2]
    ring.setPos(0.5, 0.0)  # the middle of the bottom edge: half the first two actions
    ring.sigPositionChangeFinished.emit(ring)
    assert window.start_edit.text() == "; 0.5, 0.5, 0"
    qtbot.waitUntil(
        lambda: window.run.thread.loop.solver.config.start == {1: [0.5, 0.5, 0.0]}, timeout=60_000
    )
    window.shutdown()


def test_a_two_action_players_segment_is_the_triangles_bottom_edge(qtbot, tmp_path):
    """The row player's segment of a 2x3 game puts its first action on the left, as the
    column player's triangle beside it does (its bottom edge, first action bottom left); a
    ring dragged along it starts there."""
    from pyqtgraph import TextItem

    window = make_window(qtbot, tmp_path)
    window.load_random("general-sum", (2, 3))
    (ring,) = [ring for kind, _, ring in window.simplex.rings if kind == "segment"]
    names = window.simplex.game.action_names[0]
    labels = {
        item.textItem.toPlainText(): item.pos().x()
        for item in ring.parentItem().childItems()
        if isinstance(item, TextItem)
    }
    assert (
        set(labels) == set(names[:2]) and labels[names[0]] < 0.0 < 1.0 < labels[names[1]]
    )  # beside its ends
    ring.setPos(0.2, 0.0)
    ring.sigPositionChangeFinished.emit(ring)
    qtbot.waitUntil(lambda: window.run.thread.loop.solver.config.start == {0: [0.8, 0.2]}, timeout=60_000)
    window.shutdown()
