"""The game-tree window driven through its widgets (offscreen): the tree, its editor, the
information-set panel, the plots, compare mode, files and the windows it opens."""

from __future__ import annotations

import csv
import json
import threading
from types import SimpleNamespace

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

from rmviz.formats import write_json
from rmviz.games.trees import kuhn_poker, leduc_poker, teaching_tree
from rmviz.present.tree_labels import short_label
from rmviz.present.tree_layout import format_probability
from rmviz.runner.record import read_run_game
from rmviz.solvers.columns import Column
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver
from rmviz.ui.common.plot_layout import LIVE_POINTS, live_points
from rmviz.ui.matrix.window import MatrixWindow
from rmviz.ui.tree.editor import parse_numbers
from rmviz.ui.tree.view import BAR_PIXELS, BAR_WIDTH, CFV_KEY
from tests.solvers.tree.builders import long_label, long_labels
from tests.ui.tree.conftest import cell, clipped_cells, make_tree_window, rows_asked, shown_after


def test_kuhn_loads_and_draws_every_node(kuhn):
    tree = kuhn.tree
    assert len(kuhn.view.node_items) == tree.n_nodes == 58
    assert kuhn.infosets.list.topLevelItemCount() == 12
    terminal_texts = {item.text() for item in kuhn.view.scene().items() if hasattr(item, "text")}
    assert {"2, -2", "-1, 1", "J\n1/3", "Qpb"} <= terminal_texts


def test_labels_sit_on_a_backing_above_the_information_set_arcs(kuhn):
    """The dashed information-set arcs cross the tree; node labels and counterfactual
    values sit on light boxes above them, so no arc runs through their glyphs."""
    from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsRectItem, QGraphicsSimpleTextItem

    kuhn.step_recorded()
    items = kuhn.view.scene().items()
    arcs = [i for i in items if isinstance(i, QGraphicsPathItem) and i.pen().style() == Qt.PenStyle.DashLine]
    boxes = [i.sceneBoundingRect() for i in items if isinstance(i, QGraphicsRectItem) and i.zValue() == -0.5]
    labels = [
        *kuhn.view.cfv_labels.values(),
        *(i for i in items if isinstance(i, QGraphicsSimpleTextItem) and i.text() == "Qpb"),
    ]
    assert arcs and labels and max(a.zValue() for a in arcs) < -0.5 < min(t.zValue() for t in labels)
    for label in labels:
        assert any(box.contains(label.sceneBoundingRect()) for box in boxes), label.text()


def test_arcs_across_the_tree_are_drawn_for_the_chosen_information_set_only(kuhn):
    """Arcs between neighbours are always drawn; an arc crossing other nodes of its row
    (Kuhn's second player: Qp under J and under K) only while its set is the chosen one,
    which clicking a node of it makes it (Leduc's second level was a band of arcs)."""
    from PySide6.QtWidgets import QGraphicsPathItem

    view, tree = kuhn.view, kuhn.tree
    arcs = [
        i
        for i in view.scene().items()
        if isinstance(i, QGraphicsPathItem) and i.pen().style() == Qt.PenStyle.DashLine
    ]
    far = {item: infoset for infoset, items in view.far_arcs.items() for item in items}
    players = {int(tree.infoset_player[infoset]) for infoset in far.values()}
    assert players == {1} and 0 < len(far) < len(arcs)  # the far arcs: the second player's
    assert all(arc.isVisible() for arc in arcs if arc not in far)
    assert not any(arc.isVisible() for arc in far)  # the chosen set (J) has no far arc
    qp = next(
        h
        for h in range(tree.n_nodes)
        if tree.kind[h] == 1 and tree.infoset_label[tree.node_infoset[h]] == "Qp"
    )
    view.select(qp)  # a click: the window chooses its set
    chosen = int(tree.node_infoset[qp])
    assert kuhn.infoset == chosen
    shown = {infoset for infoset, items in view.far_arcs.items() for item in items if item.isVisible()}
    assert shown == {chosen}


def test_one_step_shows_the_numbers_step_recorded_returns(kuhn):
    twin = CFRSolver(kuhn_poker(), cfr_preset("cfr"))  # the same run, outside the window
    expected = twin.step_recorded()
    record = kuhn.step_recorded()
    np.testing.assert_allclose(record.cumulative_regret_after, expected.cumulative_regret_after)
    tree = kuhn.tree
    for label in ("Qpb", "Kb"):
        j = tree.infoset_label.index(label)
        kuhn.infosets.choose(j)
        first = int(tree.infoset_first_slot[j])
        player = int(tree.infoset_player[j])
        trace = next(t for t in expected.traversals if t.player in (None, player))
        for row in range(int(tree.infoset_size[j])):
            s = first + row
            assert cell(kuhn, row, 0) == pytest.approx(expected.cumulative_regret_before[s], abs=1e-4)
            assert cell(kuhn, row, 1) == pytest.approx(trace.counterfactual_values[s], rel=1e-3, abs=1e-4)
            assert cell(kuhn, row, 2) == pytest.approx(trace.instantaneous_regret[s], rel=1e-3, abs=1e-4)
            assert cell(kuhn, row, 3) == pytest.approx(
                expected.cumulative_regret_after[s], rel=1e-3, abs=1e-4
            )
            assert cell(kuhn, row, 5) == pytest.approx(expected.strategy_after[s], rel=1e-3, abs=1e-4)
        text = kuhn.detail.explain.toPlainText()
        assert f"Information set J = “{label}”" in text and "Regret matching" in text
    # every decision node shows its counterfactual value P(h | pi_-i) U_i(pi | h)
    assert kuhn.view.record is record
    trace = record.traversals[kuhn.view.traversal]  # the traversal of the chosen set's player
    h = int(np.flatnonzero(tree.kind == 1)[0])
    player = int(tree.player[h])
    others = [q for q in range(tree.n_players + 1) if q != player]
    labels = kuhn.view.cfv_labels
    assert sorted(labels) == np.flatnonzero(tree.kind == 1).tolist()
    assert labels[h].text() == f"{trace.reach[others, h].prod() * trace.values[player, h] + 0.0:.3g}"
    assert kuhn.view.note.text() == CFV_KEY  # the numbers keyed once, not "cfv=" at each node


def test_counterfactual_values_never_cover_another_node_or_label(kuhn):
    """Kuhn's deepest decisions sit 1.5 columns from a terminal node: "cfv=-0.125" reached
    across its square, so there the number stood alone while others kept "cfv=" (one rule
    per row read as two). Every value is the number alone, keyed once in the view's note,
    and each is drawn: none covers another node or label."""
    from PySide6.QtWidgets import QGraphicsSimpleTextItem

    kuhn.step_recorded()
    view = kuhn.view
    cfv = set(view.cfv_labels.values())
    texts = [i for i in view.scene().items() if isinstance(i, QGraphicsSimpleTextItem) and i not in cfv]
    for h, label in view.cfv_labels.items():
        box = label.sceneBoundingRect()
        others = [item for node, item in view.node_items.items() if node != h]
        assert not any(box.intersects(item.sceneBoundingRect()) for item in others), label.text()
        assert not any(box.intersects(text.sceneBoundingRect()) for text in texts), label.text()
        float(label.text())  # the number alone
    assert len(view.cfv_labels) == int(np.sum(kuhn.tree.kind == 1))


def test_the_explanation_adds_up_on_the_teaching_tree(qtbot):
    window = make_tree_window(qtbot, teaching_tree())
    try:
        record = window.step_recorded()
        tree = window.tree
        j = tree.infoset_label.index("2X")
        window.infosets.choose(j)
        text = window.detail.explain.toPlainText()
        # player 2 sees [X, L] with probability 1/2 (chance) x P1's new strategy on L
        first = int(tree.infoset_first_slot[j])
        assert "P(J | π-i) = " in text
        regret = record.traversals[-1].instantaneous_regret[first]
        assert "r(J, A) = " in text and f"{regret:.4g}" in text
    finally:
        window.shutdown()


def test_an_edit_breaking_perfect_recall_is_refused_then_edits_undo(kuhn):
    before = kuhn.document.game
    assert not kuhn.attempt(lambda: kuhn.document.set_infoset(("J", "Q", "p", "b"), "J"))
    assert "forgets what they knew" in kuhn.errors[-1]
    assert kuhn.document.game is before and not kuhn.undo_action.isEnabled()
    assert kuhn.attempt(lambda: kuhn.document.set_payoffs(("J", "Q", "p", "p"), [5, -5]))
    assert kuhn.document.node(("J", "Q", "p", "p")).payoffs == (5.0, -5.0)
    assert kuhn.undo_action.isEnabled() and "*" in kuhn.windowTitle()
    kuhn.undo_action.trigger()
    assert kuhn.document.game is before
    assert len(kuhn.view.node_items) == 58  # redrawn on the restored game


def test_edits_from_the_dialogs_parse_fractions_and_refuse_bad_numbers(qtbot):
    window = make_tree_window(qtbot, teaching_tree())
    try:
        editor = window.editor
        editor.ask_text = lambda *_args: "1/3, 2/3"
        editor.ask(lambda text: window.document.set_probabilities((), parse_numbers(text)), "Chance", "p")
        assert window.document.node(()).probabilities == pytest.approx((1 / 3, 2 / 3))
        with pytest.raises(ValueError, match="'x' is not a number"):
            parse_numbers("1, x")
        editor.ask_text = lambda *_args: "0.5, 0.6"
        editor.ask(lambda text: window.document.set_probabilities((), parse_numbers(text)), "Chance", "p")
        assert "sum to 1.1" in editor.problem.text()  # shown above the tree
    finally:
        window.shutdown()


@pytest.mark.parametrize("figure", ["tree", "strategies", "gaps", "tikz"])
def test_export_the_tree_figures(kuhn, qtbot, tmp_path, figure):
    kuhn.run.step(20)
    # compiles first
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration == 20, timeout=60_000)
    path = tmp_path / (f"kuhn-{figure}.tex" if figure == "tikz" else f"kuhn-{figure}.svg")
    assert kuhn.export.figure(path, figure, size=(600, 400), dpi=60, style="paper"), kuhn.errors
    assert path.stat().st_size > 1000
    assert not kuhn.export.figure(tmp_path / "kuhn.svg", "joint")  # a matrix figure: says why
    assert "not drawn for tree games" in kuhn.errors[-1]


def test_export_run_data_from_the_file_menu(kuhn, qtbot, tmp_path, monkeypatch):
    """File > Export Run Data writes the tree run's trace (.json and .csv) with its game,
    configuration and seed; the last row is the snapshot of the iteration reached."""
    from PySide6.QtWidgets import QFileDialog

    kuhn.panel.seed.setValue(3)
    kuhn.run.step(40)
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration == 40, timeout=60_000)
    snapshot = kuhn.run.thread.loop.latest()[1]
    action = next(
        a for a in kuhn.menuBar().actions()[0].menu().actions() if a.text() == "Export Run &Data..."
    )
    for name in ("run.json", "run.csv"):
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, n=name: (str(tmp_path / n), ""))
        action.trigger()
        assert write_json(read_run_game(tmp_path / name)) == write_json(kuhn.document.game)
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["seed"] == 3 and data["config"]["algorithm"] == "cfr"
    trace = data["trace"]
    assert trace["iteration"][-1] == 40
    assert trace["exploitability"][-1] == snapshot.metrics.exploitability
    solver = kuhn.run.thread.loop.solver
    averages = [c for c in solver.columns if solver.column_name(c).startswith("average[")]
    assert [trace[solver.column_name(c)][-1] for c in averages] == snapshot.average_strategy.tolist()
    rows = list(csv.DictReader(line for line in (tmp_path / "run.csv").open() if not line.startswith("#")))
    # untracked columns (the last iterate's, off for trees) are NaN: null in JSON, nan in CSV
    np.testing.assert_array_equal(
        [float(rows[-1][name]) for name in trace if name != "iteration"],
        [np.nan if v[-1] is None else v[-1] for name, v in trace.items() if name != "iteration"],
    )
    assert trace["last_exploitability"][-1] is None


def test_run_reaches_the_kuhn_value(kuhn, qtbot):
    kuhn.run.toggle()
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration > 20_000, timeout=60_000)
    kuhn.run.toggle()
    kuhn.run.redraw(force=True)
    snapshot = kuhn.run.thread.loop.latest()[1]
    assert snapshot.metrics.value[0] == pytest.approx(-1 / 18, abs=2e-3)
    assert "exploitability" in kuhn.status.text()
    x, _ = kuhn.plots.gap_curve.getData()
    assert len(x) > 100
    loop = kuhn.run.thread.loop  # paused: the worker publishes where it stopped, then the trace stays
    # the chunk in flight ends first (on a busy machine latest() could equal solver.iteration
    # while the worker still stepped a chunk that then added trace points after the redraw)
    loop.exclusive(lambda solver: None)
    qtbot.waitUntil(lambda: loop.latest()[1].iteration == loop.solver.iteration, timeout=60_000)
    kuhn.run.redraw(force=True)
    iterations = loop.trace_data(kuhn.plots.columns()).iterations
    assert iterations.size > LIVE_POINTS and len(x) <= LIVE_POINTS + 1  # thinned over log T
    drawn = kuhn.plots.gap_curve.getOriginalDataset()[0]  # getData gives log10 T on these axes
    assert np.isin(drawn, iterations[live_points(iterations)]).all() and drawn[0] == iterations[0]


def test_leduc_starts_collapsed_and_the_infoset_list_filters(qtbot):
    window = make_tree_window(qtbot, leduc_poker())
    try:
        assert window.tree.n_nodes == 9457
        assert 0 < len(window.view.node_items) < 200  # collapsed beyond depth 3
        window.infosets.player.setCurrentIndex(2)  # the second player only
        window.infosets.search.setText("K")
        labels = window.infosets.visible_labels()
        assert labels and all("k" in label.lower() for label in labels)
        players = {
            window.infosets.list.topLevelItem(k).text(1)
            for k in range(window.infosets.list.topLevelItemCount())
            if not window.infosets.list.topLevelItem(k).isHidden()
        }
        assert players == {window.document.game.player_names[1]}
        # only the rows that change are shown or hidden: each filter in turn, after any other,
        # shows exactly its sets
        tree = window.tree
        for player, text in ((1, "k"), (0, ""), (1, ""), (0, "qs:r"), (1, "zz"), (0, "K")):
            window.infosets.player.setCurrentIndex(player)  # 0: all players, 1: the first
            window.infosets.search.setText(text)
            expected = [
                label
                for j, label in enumerate(tree.infoset_label)
                if (player == 0 or tree.infoset_player[j] == 0) and text.lower() in label.lower()
            ]
            assert window.infosets.visible_labels() == expected, (player, text)
        # rows of one line, laid out as such: Qt then lays out the rows in view only (Liar's
        # Dice's 24,576 sets: choosing one took 424 ms in setCurrentItem alone)
        listed = window.infosets.list
        assert listed.uniformRowHeights()
        window.infosets.player.setCurrentIndex(0)
        window.infosets.search.setText("")
        heights = {listed.visualItemRect(listed.topLevelItem(k)).height() for k in range(40)}
        assert (
            len(heights) == 1
            and min(heights) > 0
            and all("\n" not in label for label in window.tree.infoset_label)
        )
    finally:
        window.shutdown()


def test_keyboard_navigation_and_collapse(kuhn):
    view = kuhn.view
    view.select(0)
    view.setFocus()
    for key, expected in ((Qt.Key.Key_Down, 1), (Qt.Key.Key_Right, 2), (Qt.Key.Key_Up, 0)):
        view.keyPressEvent(QKeyEvent(QKeyEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier))
        assert view.selected == expected
    view.toggle(1)
    assert len(view.node_items) < 58
    view.toggle(1)
    assert len(view.node_items) == 58


def test_animation_walks_the_traversal(kuhn, qtbot):
    kuhn.step_recorded()
    kuhn.animation_speed.setCurrentText("fast")
    kuhn.animate()
    seen = set()

    def walked():
        seen.add(kuhn.view.highlighted)
        return len(seen) > 5 and "visiting" in kuhn.status.text() and "reach" in kuhn.status.text()

    # the status line tells where the walk is, and the redraw timer leaves it to the walk
    qtbot.waitUntil(walked, timeout=60_000)


def test_the_reduced_strategic_form_opens_read_only_and_solves(qtbot, registry):
    kuhn = make_tree_window(qtbot, kuhn_poker(), opener=registry)
    matrix = kuhn.show_reduced_form()
    assert isinstance(matrix, MatrixWindow) and registry.windows == [matrix]
    matrix.show_error = kuhn.errors.append
    assert matrix.document.game.num_actions == (27, 64)
    assert "read-only" in matrix.game_label.text()
    assert not matrix.model.setData(matrix.model.index(0, 0), "1, 1")
    assert "read-only" in kuhn.errors[-1]
    assert not matrix.editor.structure_buttons[0].isEnabled()
    assert matrix.run.thread.loop.running  # solving from the start, as the matrix window does
    qtbot.waitUntil(lambda: matrix.run.thread.loop.latest()[1].iteration > 2000, timeout=60_000)
    matrix.run.toggle()
    assert matrix.run.thread.loop.latest()[1].metrics.exploitability < 0.05
    kuhn.shutdown()


@pytest.mark.parametrize("name", ["kuhn_poker.efg", "one_card_poker.efg"])
def test_the_reference_trees_open_save_and_reopen(kuhn, reference_games, tmp_path, name):
    assert kuhn.files.open(reference_games / name)
    assert not kuhn.errors and not kuhn.document.modified
    nodes = kuhn.tree.n_nodes
    assert len(kuhn.view.node_items) == nodes
    for suffix in (".efg", ".json"):
        assert kuhn.files.save(tmp_path / f"copy{suffix}")
        assert kuhn.files.open(tmp_path / f"copy{suffix}")
        assert kuhn.tree.n_nodes == nodes
    kuhn.step_recorded()  # and CFR runs on it
    assert kuhn.record.iteration == 1


def test_a_matrix_file_is_refused_by_the_tree_window(kuhn, reference_games):
    before = kuhn.document.game  # a window without an opener shows its own family only
    assert not kuhn.files.open(reference_games / "rps.nfg")
    assert "a matrix game" in kuhn.errors[-1] and kuhn.document.game is before


def test_a_matrix_file_opens_in_a_matrix_window_through_the_registry(qtbot, registry, reference_games):
    window = make_tree_window(qtbot, kuhn_poker(), opener=registry)
    before = window.document.game
    assert window.files.open(reference_games / "rps.nfg")
    assert window.document.game is before and not window.errors  # the tree stays
    (matrix,) = registry.windows
    assert isinstance(matrix, MatrixWindow) and matrix.document.game.num_actions == (3, 3)
    assert matrix.document.path == reference_games / "rps.nfg" and not matrix.document.modified
    window.shutdown()


def test_algorithm_parameters_reach_the_tree_solver(kuhn):
    panel = kuhn.panel
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("dcfr"))
    assert panel.parameters["alpha"].isVisibleTo(kuhn) and "inertia" not in panel.parameters
    panel.parameters["alpha"].setText("2.5")
    panel.parameters["alpha"].editingFinished.emit()
    config = kuhn.run.thread.loop.solver.config
    assert config.weighting == "discounted" and config.alpha == 2.5
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("mccfr-external"))
    assert panel.updates.currentText() == "alternating" and not panel.updates.isEnabled()
    assert kuhn.run.thread.loop.solver.config.sampling == "external"
    panel.seed.setValue(5)
    assert kuhn.run.thread.loop.solver.seed == 5


def test_compare_cfr_variants_on_the_tree(kuhn, qtbot):
    kuhn.tabs.setCurrentWidget(kuhn.compare)
    kuhn.compare.set_checked(["cfr", "cfr+", "mccfr-external"])
    kuhn.run.toggle()
    qtbot.waitUntil(
        lambda: all(t.loop.latest()[1].iteration > 300 for t in kuhn.compare.threads.values()), timeout=60_000
    )
    kuhn.run.redraw()
    for name in ("cfr", "cfr+", "mccfr-external"):
        curve = kuhn.compare.curves[Column("exploitability"), name]
        assert len(curve.xData) > 10 and np.all(curve.getOriginalDataset()[1] > 0)
    assert kuhn.status.text().startswith("iteration cfr ") and ", cfr+ " in kuhn.status.text()
    # Monte-Carlo CFR tracks no correlation gap: said beside the list, not a curve left out
    assert len(kuhn.compare.curves[Column("cce_gap"), "cfr"].xData) > 10
    assert kuhn.compare.curves[Column("cce_gap"), "mccfr-external"].getOriginalDataset()[0].size == 0
    assert "mccfr-external: not tracked: CCE gap, EFCE gap" in kuhn.compare.status.text()
    # the list is the key: each running algorithm's item in its curves' colour
    listed = kuhn.compare.algorithms
    items = {listed.item(k).text(): listed.item(k) for k in range(listed.count())}
    for name in ("cfr", "mccfr-external"):
        pen = kuhn.compare.curves[Column("exploitability"), name].opts["pen"]
        swatch = items[name].icon().pixmap(8, 8).toImage().pixelColor(4, 4)
        assert swatch.name() == pen.color().name()
    assert items["linear-cfr"].icon().pixmap(8, 8).toImage().pixelColor(4, 4).alpha() == 0
    kuhn.tabs.setCurrentWidget(kuhn.editor)
    assert not kuhn.compare.running


def test_the_average_strategy_table_lists_every_information_set(kuhn, qtbot):
    kuhn.run.step(500)
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration == 500, timeout=60_000)
    kuhn.side_tabs.setCurrentWidget(kuhn.average_table)
    table = kuhn.average_table
    assert table.rowCount() == 12
    average = kuhn.run.thread.loop.latest()[1].average_strategy
    tree = kuhn.tree
    j = tree.infoset_label.index("Qpb")
    first = int(tree.infoset_first_slot[j])
    assert table.text(j, 2) == f"{tree.slot_move[first]}  {average[first]:.3f}"


def test_the_average_strategy_table_writes_only_the_rows_in_view(qtbot, monkeypatch):
    """Written whole at each redraw, Liar's Dice's 24,576 sets took 390 ms a redraw: the table
    writes the rows the view asks for (Leduc: its 936 sets, about 20 in view)."""
    from rmviz.ui.tree.infoset_panel import StrategyModel

    asked = rows_asked(monkeypatch, StrategyModel)
    window = make_tree_window(qtbot, leduc_poker())
    try:
        loop = shown_after(qtbot, window, 20)
        window.side_tabs.setCurrentWidget(window.average_table)
        asked.clear()
        window.run.redraw(force=True)
        table = window.average_table
        table.viewport().repaint()
        assert asked and len(asked) < 60, len(asked)  # the rows in view, not 936
        tree, average = window.tree, loop.latest()[1].average_strategy
        j = tree.n_infosets - 1  # the last set's numbers are there to scroll to
        first = int(tree.infoset_first_slot[j])
        assert table.text(j, 0) == tree.infoset_label[j]
        assert table.text(j, 2) == f"{tree.slot_move[first]}  {average[first]:.3f}"
        # one line a row, every column as wide as its cells in view: Leduc's fits the panel
        # at 1280x720 (each column was 100 pixels: "move 2" cut, "move 3" scrolled to)
        assert not clipped_cells(table)
        assert table.horizontalHeader().length() <= table.viewport().width()
        # a long label is cut in its cell and the list, whole in their tooltips
        model = table.table_model
        assert model.data(model.index(j, 0), Qt.ItemDataRole.ToolTipRole) == tree.infoset_label[j]
        listed = window.infosets.list
        assert listed.topLevelItem(j).toolTip(0) == tree.infoset_label[j]
        assert not window.errors
    finally:
        window.shutdown()


def test_choosing_an_information_set_shows_its_players_traversal(qtbot):
    window = make_tree_window(qtbot, teaching_tree())  # CFR alternates: one traversal per player
    try:
        record = window.step_recorded()
        assert [t.player for t in record.traversals] == [0, 1]
        tree = window.tree
        window.infosets.choose(tree.infoset_label.index("2X"))
        assert window.view.traversal == 1 and window.traversal.currentIndex() == 1
        window.infosets.choose(tree.infoset_label.index("1"))
        assert window.view.traversal == 0
    finally:
        window.shutdown()


def test_long_information_set_labels_are_shortened_and_listed_from_their_start(qtbot):
    """OpenSpiel's information-state strings run to 120 characters: where one whole would
    run into a neighbour, the tree shows it shortened (or not at all: the tooltip and the
    side panel have it whole), and the list, scrolled to the chosen set, reads each label
    from its start."""
    names = [long_label(k) for k in range(4)]
    game = long_labels(len(names))
    window = make_tree_window(qtbot, game)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    labels = [
        item
        for item in window.view.scene().items()
        if hasattr(item, "text") and item.text().startswith("Current player")
    ]
    assert labels and all(item.text() in names or item.text() in map(short_label, names) for item in labels)
    assert sum(item.text() in names for item in labels) < len(names)  # 92 pixels apart: not all whole
    boxes = [item.sceneBoundingRect() for item in labels]
    assert not any(a.intersects(b) for k, a in enumerate(boxes) for b in boxes[k + 1 :])  # no overlap
    tree = window.tree
    window.infosets.choose(tree.infoset_label.index(names[3]))
    bar = window.infosets.list.horizontalScrollBar()
    qtbot.waitUntil(lambda: window.infosets.list.currentItem() is not None and bar.maximum() > 0)
    qtbot.wait(50)  # the list scrolls to the chosen set after one pass of the event loop
    assert bar.value() == 0
    window.shutdown()


def test_closing_with_unsaved_edits_asks_first(kuhn):
    kuhn.attempt(lambda: kuhn.document.set_payoffs(("J", "Q", "p", "p"), [5, -5]))
    kuhn.confirm_discard = lambda: False
    assert not kuhn.close() and kuhn.run.thread is not None
    kuhn.confirm_discard = lambda: True
    assert kuhn.close() and kuhn.run.thread is None


def test_strategy_bars_update_in_place_while_running(kuhn):
    snapshot = kuhn.run.thread.loop.latest()[1]
    kuhn.view.show_strategies(snapshot.current_strategy, snapshot.average_strategy)
    items = [bar for bar, _, _ in kuhn.view.bars]
    shifted = np.roll(snapshot.current_strategy, 1)
    kuhn.view.show_strategies(shifted, snapshot.average_strategy)
    assert [bar for bar, _, _ in kuhn.view.bars] == items  # the same items, new widths
    quarter = BAR_PIXELS / kuhn.view.transform().m11()  # a quarter pixel on screen
    for bar, row, slot in kuhn.view.bars:
        expected = (shifted, snapshot.average_strategy)[row][slot]
        assert abs(bar.rect().width() - BAR_WIDTH * expected) <= quarter


def test_bars_are_set_again_where_they_move_a_quarter_pixel_at_any_zoom(kuhn, monkeypatch):
    """A running tree's bars are set again where they are off by more than a quarter pixel at
    the view's zoom, no others (a 1,000-move node's average strategy moves every bar a little
    at every redraw: 2,000 bars set took 6 ms); zooming in sets them to a quarter pixel of
    the new zoom."""
    from PySide6.QtWidgets import QGraphicsRectItem

    snapshot = kuhn.run.thread.loop.latest()[1]
    current, average = snapshot.current_strategy, snapshot.average_strategy
    view = kuhn.view
    view.strategies = (current, average)
    view.rebuild()  # every bar exact
    set_again = []
    plain = QGraphicsRectItem.setRect
    monkeypatch.setattr(QGraphicsRectItem, "setRect", lambda bar, *a: (set_again.append(bar), plain(bar, *a)))
    quarter = BAR_PIXELS / view.transform().m11()
    nudged = average + np.where(np.arange(average.size) % 2, 0.6, 2.0) * quarter / BAR_WIDTH
    view.show_strategies(current, nudged)
    moved = {bar for bar, row, slot in view.bars if row == 1 and slot % 2 == 0}
    assert set(set_again) == moved  # the odd slots moved 0.6 of the tolerance: left
    for bar, row, slot in view.bars:
        assert abs(bar.rect().width() - BAR_WIDTH * (current, nudged)[row][slot]) <= quarter
    set_again.clear()
    for _ in range(5):  # zoomed in 1.15^5 = 2x: the ones left are off by 1.2 quarter pixels
        view.wheelEvent(SimpleNamespace(angleDelta=lambda: SimpleNamespace(y=lambda: 120)))
    assert {bar for bar, row, slot in view.bars if row == 1 and slot % 2} <= set(set_again)
    quarter = BAR_PIXELS / view.transform().m11()
    for bar, row, slot in view.bars:
        assert abs(bar.rect().width() - BAR_WIDTH * (current, nudged)[row][slot]) <= quarter


def test_running_after_a_step_drops_the_stale_iteration_numbers(kuhn, qtbot):
    kuhn.step_recorded()
    assert kuhn.view.cfv_labels and kuhn.view.note.text() == CFV_KEY
    kuhn.run.toggle()
    assert kuhn.view.record is None and kuhn.view.note.isHidden()
    assert not kuhn.view.cfv_labels
    kuhn.run.toggle()


def test_a_refused_edit_from_the_menu_is_shown_in_place(kuhn):
    before, editor = kuhn.document.game, kuhn.editor
    assert not editor.edit(lambda: kuhn.document.set_infoset(("J", "Q", "p", "b"), "J"))
    assert editor.problem.isVisibleTo(kuhn) and "forgets what they knew" in editor.problem.text()
    assert kuhn.document.game is before and not kuhn.errors  # no dialog for an edit
    assert editor.edit(lambda: kuhn.document.set_payoffs(("J", "Q", "p", "p"), [3, -3]))
    assert not editor.problem.isVisibleTo(kuhn)


def test_the_information_set_panel_shows_the_newest_snapshot(kuhn, qtbot):
    kuhn.infosets.choose(kuhn.tree.infoset_label.index("Qpb"))
    kuhn.run.toggle()
    loop = kuhn.run.thread.loop
    qtbot.waitUntil(lambda: loop.latest()[1].iteration > 2000, timeout=60_000)
    kuhn.run.toggle()
    first = int(kuhn.tree.infoset_first_slot[kuhn.infoset])
    moves = range(int(kuhn.tree.infoset_size[kuhn.infoset]))

    def shows_the_newest_snapshot():
        snapshot = loop.latest()[1]
        shown = [[kuhn.detail.table.text(row, column) for column in (3, 5, 6)] for row in moves]
        expected = [
            [
                f"{values[first + row]:.4g}"
                for values in (
                    snapshot.cumulative_regret,
                    snapshot.current_strategy,
                    snapshot.average_strategy,
                )
            ]
            for row in moves
        ]
        return shown == expected and f"iteration {snapshot.iteration:,} " in kuhn.status.text()

    # paused: the redraw timer shows the state the run stopped at (R after, strategy at T+1
    # and the average are the snapshot's cumulative regret, current and average strategy)
    qtbot.waitUntil(shows_the_newest_snapshot, timeout=60_000)
    assert not loop.running and loop.latest()[1].iteration > 2000


def test_the_window_never_reads_the_running_solver(kuhn, qtbot):
    """The compiled kernel mutates the solver's arrays without the GIL: the GUI thread reads
    snapshots, which the worker takes."""
    solver = kuhn.run.thread.loop.solver
    on_gui_thread = []
    average_strategy = solver.average_strategy

    def watched():
        on_gui_thread.append(threading.current_thread() is threading.main_thread())
        return average_strategy()

    solver.average_strategy = watched
    kuhn.run.toggle()
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration > 2000, timeout=60_000)
    for label in ("Qpb", "Kb"):
        kuhn.infosets.choose(kuhn.tree.infoset_label.index(label))
        kuhn.side_tabs.setCurrentWidget(kuhn.average_table)
        kuhn.run.redraw(force=True)
    kuhn.run.toggle()
    assert on_gui_thread and not any(on_gui_thread)


def test_an_openspiel_game_opens_from_the_game_menu(kuhn, monkeypatch):
    """Game > OpenSpiel game...: a searchable list of the games the walker takes; the chosen
    game (with parameters) replaces the tree; a bad one says why and keeps the game."""
    pytest.importorskip("pyspiel")
    from PySide6.QtWidgets import QInputDialog

    offered = []

    def choose(_parent, _title, _label, names, _current, _editable):
        offered.extend(names)
        return "kuhn_poker(players=3)", True

    monkeypatch.setattr(QInputDialog, "getItem", choose)
    kuhn.files.openspiel_dialog()
    assert {"kuhn_poker", "leduc_poker", "liars_dice"} <= set(offered)
    assert "backgammon" not in offered  # sampled chance: cannot be a tree with probabilities
    assert kuhn.document.game.n_players == 3 and kuhn.document.can_undo()
    game = kuhn.document.game
    assert not kuhn.files.open_spec("openspiel:no_such_game")
    assert "OpenSpiel has no game 'no_such_game'" in kuhn.errors[-1]
    assert kuhn.document.game is game


def test_a_one_shot_openspiel_game_opens_in_a_matrix_window(qtbot, registry, monkeypatch):
    """OpenSpiel's matrix games are matrix games: chosen from the tree window's menu, the game
    opens in a matrix window and the tree stays."""
    pytest.importorskip("pyspiel")
    from PySide6.QtWidgets import QInputDialog

    window = make_tree_window(qtbot, kuhn_poker(), opener=registry)
    before = window.document.game
    monkeypatch.setattr(QInputDialog, "getItem", lambda *_args: ("matrix_shapleys_game", True))
    window.files.openspiel_dialog()
    assert window.document.game is before and not window.errors
    (matrix,) = registry.windows
    assert isinstance(matrix, MatrixWindow) and matrix.document.game.title == "Shapley's Game (OpenSpiel)"
    assert matrix.document.game.action_names[0] == ("Rock", "Paper", "Scissors")
    window.shutdown()


# -- issue 12: editing defects, the explanation of every algorithm ---------------------------------
def menu_action(menu, text):
    """The action of ``menu`` (or its submenus) whose text starts with ``text``."""
    for action in menu.actions():
        if action.menu() is not None:
            found = menu_action(action.menu(), text)
            if found is not None:
                return found
        elif action.text().startswith(text):
            return action
    return None


def test_new_decision_nodes_get_their_own_information_sets_unless_joined(qtbot):
    from PySide6.QtWidgets import QMenu

    window = make_tree_window(qtbot, teaching_tree())
    try:
        editor, document = window.editor, window.document

        def make(history, text):
            menu = QMenu()
            h = next(h for h in range(window.tree.n_nodes) if window.view.path(h) == history)
            editor._edit_actions(menu, h)
            action = menu_action(menu, text)
            assert action is not None, [a.text() for a in menu.actions()]
            action.trigger()

        make(("X", "L", "A"), "New information set J1")
        make(("X", "L", "B"), "New information set J2")  # not silently in J1
        assert document.node(("X", "L", "A")).infoset == "J1"
        assert document.node(("X", "L", "B")).infoset == "J2"
        assert document.node(("X", "L", "A")).moves == ("a", "b")
        assert document.node(("X", "L", "B")).moves == ("c", "d")  # fresh moves too
        assert {"J1", "J2"} <= set(window.tree.infoset_label)  # the run restarted on the edit
        assert window.infosets.list.topLevelItemCount() == 5
        # joining is explicit, with the set's moves: [X,R,A] follows player 1's R, J1 its L;
        # [Y,L,C] follows L too (player 1 sees neither chance nor player 2)
        make(("X", "R", "A"), "Join J1 (a, b)")
        assert "forgets what they knew" in editor.problem.text()
        make(("Y", "L", "C"), "Join J1 (a, b)")
        assert document.node(("Y", "L", "C")).infoset == "J1"
        assert document.node(("Y", "L", "C")).moves == ("a", "b")
        assert not editor.problem.isVisibleTo(window)
        j = window.tree.infoset_label.index("J1")
        assert (window.tree.node_infoset == j).sum() == 2
    finally:
        window.shutdown()


def test_an_edit_clears_the_previous_games_curves_and_numbers(kuhn, qtbot):
    tree = kuhn.tree
    kuhn.infosets.choose(tree.infoset_label.index("Qpb"))
    kuhn.run.step(200)
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration == 200, timeout=60_000)
    kuhn.run.redraw(force=True)
    curves = [kuhn.plots.gap_curve, *kuhn.plots.strategy_curves.values()]
    assert all(len(curve.xData) > 5 for curve in curves)
    kuhn.side_tabs.setCurrentWidget(kuhn.average_table)
    assert cell(kuhn, 0, 3) != 0  # the cumulative regret after 200 iterations
    assert kuhn.attempt(lambda: kuhn.document.set_payoffs(("J", "Q", "p", "p"), [5, -5]))
    qtbot.waitUntil(kuhn.run.drawn, timeout=60_000)
    assert kuhn.run.thread.loop.latest()[1].iteration == 0  # the fresh run, paused
    for curve in [kuhn.plots.gap_curve, *kuhn.plots.strategy_curves.values()]:
        assert len(curve.getOriginalDataset()[0]) <= 1
    assert [cell(kuhn, row, 3) for row in range(2)] == [0, 0]  # R of the fresh run
    assert [cell(kuhn, row, 6) for row in range(2)] == [0.5, 0.5]  # its (uniform) average
    table = kuhn.average_table
    assert table.rowCount() == 12 and all(table.text(j, 2).endswith("0.500") for j in range(12))


@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr", "linear-cfr", "greedy-cfr", "mccfr-external"])
def test_the_panel_explains_each_algorithm_with_the_solvers_numbers(qtbot, algorithm):
    from rmviz.present.tree_explain import explanation_html
    from rmviz.solvers.tree.explain import explain_infoset

    window = make_tree_window(qtbot, teaching_tree())
    try:
        panel = window.panel
        panel.algorithm.setCurrentIndex(panel.algorithm.findData(algorithm))
        twin = CFRSolver(teaching_tree(), window.run.thread.loop.solver.config)  # the same run, outside
        tree = window.tree
        for _ in range(3):
            record = window.step_recorded()
            expected = twin.step_recorded()
            for label in ("1", "2X"):
                j = tree.infoset_label.index(label)
                window.infosets.choose(j)
                step = explain_infoset(tree, twin.config, twin.game.player_names, expected, j)
                assert window.detail.explain.toHtml().count("Cumulative regret") == 1
                shown = window.detail.explain.toPlainText()
                expected_text = shown_text(explanation_html(step))
                assert shown == expected_text
                for row in range(int(tree.infoset_size[j])):
                    assert cell(window, row, 3) == pytest.approx(step.regret_after[row], rel=1e-3, abs=1e-4)
                    assert cell(window, row, 6) == pytest.approx(step.average_after[row], rel=1e-3, abs=1e-4)
        assert record.iteration == 3
    finally:
        window.shutdown()


def shown_text(page: str) -> str:
    """What a QTextBrowser shows of ``page``."""
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setHtml(page)
    return document.toPlainText()


def test_move_labels_clear_every_edge_however_thick(qtbot):
    """Edges widen with the reach once a step is shown: a move label centred on its edge's
    midpoint was struck through ("Y (1/2)" on the teaching tree)."""
    from PySide6.QtWidgets import QGraphicsLineItem

    window = make_tree_window(qtbot, teaching_tree())
    try:
        window.step_recorded()
        view, tree = window.view, window.tree
        items = view.scene().items()
        edges = [i for i in items if isinstance(i, QGraphicsLineItem)]
        assert max(edge.pen().widthF() for edge in edges) > 4  # thick: reached with probability 1/2
        moves = {tree.move_label[h] for h in range(1, tree.n_nodes)}
        labels = [i for i in items if hasattr(i, "text") and i.text().split("\n")[0] in moves]
        assert len(labels) == tree.n_nodes - 1
        for label in labels:
            box = label.sceneBoundingRect()
            for edge in edges:
                assert not edge.mapToScene(edge.shape()).intersects(box), label.text()
    finally:
        window.shutdown()


def test_a_chance_label_too_tall_for_its_edge_keeps_its_probability_on_one_line(qtbot):
    """External-sampling MCCFR's sampled deal draws its edge thick, and the root's short edge
    had no room for "Q" over "1/3": it read "Q". A label tries one line ("Q 1/3") before the
    move alone, as the figures do; every chance edge of Kuhn shows its probability."""
    window = make_tree_window(qtbot, kuhn_poker())
    try:
        panel = window.panel
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("mccfr-external"))
        window.resize(1280, 720)
        window.show()
        qtbot.waitExposed(window)
        window.view.set_text_scale(1.5)  # presentation mode's (a deck's slide)
        for _ in range(30):  # deals: each one thickens another chance edge
            window.step_recorded()
            view, tree = window.view, window.tree
            texts = {i.text() for i in view.scene().items() if hasattr(i, "text")}
            for h in range(1, tree.n_nodes):
                if tree.kind[int(tree.parent[h])] == 0:  # a chance move: its probability shown
                    move, chance = tree.move_label[h], format_probability(float(tree.chance_probability[h]))
                    assert {f"{move}\n{chance}", f"{move} {chance}"} & texts, (move, chance)
    finally:
        window.shutdown()


def test_starting_with_steps_records_and_traces_each_but_draws_the_last(kuhn):
    """--steps N steps N iterations, traces each and shows the last one recorded (drawing
    every one on the tree took Leduc 35 s for 100)."""
    from rmviz.ui.common.run_window import StartOptions

    twin = CFRSolver(kuhn_poker(), cfr_preset("cfr"))
    for _ in range(4):
        twin.step(1)
    expected = twin.step_recorded()
    kuhn.start(StartOptions(steps=5))
    assert kuhn.run.thread.loop.solver.iteration == 5 and kuhn.view.record is kuhn.record
    np.testing.assert_array_equal(kuhn.record.strategy_after, expected.strategy_after)
    np.testing.assert_array_equal(kuhn.record.cumulative_regret_after, expected.cumulative_regret_after)
    iterations = kuhn.run.thread.loop.trace_data(()).iterations
    assert iterations.tolist() == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("build", [kuhn_poker, leduc_poker, teaching_tree])
def test_no_label_covers_another_or_a_node(qtbot, build):
    """Leduc's chance fans ran their labels together ("Jh (1/5)Qs (1/5)") and its cfv numbers
    under the next node: a label that would cover another or a node is shortened or left out."""
    from PySide6.QtWidgets import QGraphicsSimpleTextItem

    window = make_tree_window(qtbot, build())
    try:
        window.step_recorded()
        view = window.view
        texts = [
            i.sceneBoundingRect() for i in view.scene().items() if isinstance(i, QGraphicsSimpleTextItem)
        ]
        nodes = [item.sceneBoundingRect() for item in view.node_items.values()]
        texts.sort(key=lambda r: r.left())
        for k, rect in enumerate(texts):  # sweep: only the rectangles starting before its right
            for other in texts[k + 1 :]:
                if other.left() >= rect.right():
                    break
                assert not rect.intersects(other), (rect, other)
            assert not any(rect.intersects(node) for node in nodes), rect
        assert view.cfv_labels  # the numbers that fit are shown
    finally:
        window.shutdown()


def test_view_last_iterate_draws_the_current_strategys_exploitability(kuhn, qtbot):
    from rmviz.present.panels import LAST_LABEL

    last = Column("last_exploitability")
    assert not kuhn.plots.last and not kuhn.run.thread.loop.solver.last_iterate  # off by default
    kuhn.last_action.trigger()  # View > Last iterate's exploitability too
    assert kuhn.last_action.isChecked() and kuhn.run.thread.loop.solver.last_iterate
    assert LAST_LABEL in kuhn.plots.gap_plot.titleLabel.text  # keyed in the title, once
    assert last in kuhn.plots.columns()
    kuhn.run.step(300)
    loop = kuhn.run.thread.loop
    qtbot.waitUntil(lambda: not loop.busy and loop.latest()[1].iteration == 300, timeout=60_000)
    kuhn.run.redraw(force=True)
    curve = next(c for line, c in kuhn.plots.gaps.curves.items() if line.column == last)
    assert len(curve.xData) > 10
    values = loop.trace_data([last]).columns[last]
    assert np.isfinite(values).all() and values[-1] == loop.latest()[1].metrics.last_exploitability
    kuhn.last_action.trigger()  # off again: a fresh run without it
    assert (
        not kuhn.run.thread.loop.solver.last_iterate and LAST_LABEL not in kuhn.plots.gap_plot.titleLabel.text
    )


def test_the_list_keeps_the_player_column_beside_long_labels(qtbot):
    """OpenSpiel's 120-character labels made the label column so wide that the player and
    moves columns were off the list; it is now at most LABEL_CHARACTERS wide."""
    from rmviz.ui.tree.infoset_panel import LABEL_CHARACTERS

    window = make_tree_window(qtbot, long_labels(2))
    listed = window.infosets.list
    assert listed.columnWidth(0) <= LABEL_CHARACTERS * listed.fontMetrics().averageCharWidth()
    short = make_tree_window(qtbot, kuhn_poker()).infosets.list
    assert (
        short.columnWidth(0) < LABEL_CHARACTERS * short.fontMetrics().averageCharWidth()
    )  # as wide as its labels
    window.shutdown()


def test_saving_keeps_the_run_and_an_edit_restarts_it(kuhn, qtbot, tmp_path):
    """Saving only marks the title (as in the matrix window): it restarted the tree's run,
    and quitting after --screenshot re-ran the whole game."""
    kuhn.run.step(20)
    qtbot.waitUntil(lambda: kuhn.run.thread.loop.latest()[1].iteration == 20, timeout=60_000)
    thread = kuhn.run.thread
    kuhn.document.mark_saved(tmp_path / "kuhn.efg")
    assert kuhn.run.thread is thread and thread.loop.solver.iteration == 20
    kuhn.document.replace_game(teaching_tree(), "another tree")
    assert kuhn.run.thread is not thread and kuhn.run.thread.loop.solver.iteration == 0


def test_a_fresh_run_chooses_its_information_set_once(qtbot):
    """The list is refilled quietly: clearing it moved the current item down one set at a
    time, each move choosing that set and redrawing the tree (Liar's Dice's 24,576 sets
    hung the window at every restart)."""
    window = make_tree_window(qtbot, leduc_poker())
    try:
        window.infosets.choose(window.tree.n_infosets - 1)  # the last: clearing passes them all
        chosen = []
        show = window.view.show_infoset
        window.view.show_infoset = lambda infoset: (chosen.append(infoset), show(infoset))
        window.run.restart()
        assert chosen == [window.infoset]
    finally:
        window.shutdown()


def test_the_folded_tree_note_stays_whole_in_view_while_scrolling(qtbot, qtlog):
    """Leduc's "showing 97 of 9,457 nodes" note sat above the root in the scene: at 1280x720
    it ran past the view's right edge and scrolled away. It is over the view's top edge,
    wrapped to its width, wherever the view is scrolled; a tree drawn whole has none."""
    window = make_tree_window(qtbot, leduc_poker())
    try:
        window.resize(1280, 720)
        window.show()
        qtbot.waitExposed(window)
        view, note = window.view, window.view.note
        shown = view.viewport().geometry()

        def whole() -> None:
            assert note.isVisible() and note.text().startswith("showing ")
            assert shown.contains(note.geometry()), (note.geometry(), shown)
            assert note.height() >= note.heightForWidth(note.width())  # every line of it

        whole()
        for bar in (view.horizontalScrollBar(), view.verticalScrollBar()):
            bar.setValue(bar.maximum())
        whole()
        view.resize(360, view.height())  # narrow: wrapped, still inside
        shown = view.viewport().geometry()
        whole()
        assert note.height() > note.fontMetrics().height() * 1.5  # over two lines at least
    finally:
        window.shutdown()
    kuhn = make_tree_window(qtbot, kuhn_poker())
    try:
        kuhn.resize(1280, 720)
        kuhn.show()
        qtbot.waitExposed(kuhn)
        assert kuhn.view.note.isHidden()
    finally:
        kuhn.shutdown()
    # the hidden note is not sized (an empty label's height for a width is -1: Qt warned)
    assert [r.message for r in qtlog.records if "Negative sizes" in r.message] == []


def test_the_compare_tab_takes_the_side_panels_room_and_gives_it_back(kuhn, qtbot):
    """At 1280x720 the compare tab's three plots were ~120 pixels wide beside the
    information-set panel and over the bottom plots, which show the window's own run: on
    the compare tab those are hidden and their room is the plots'; the Tree tab has them
    back at the sizes it had."""
    kuhn.resize(1280, 720)
    kuhn.show()
    qtbot.waitExposed(kuhn)
    tree_sizes = kuhn.centre.sizes()
    tabs_width = kuhn.tabs.width()
    kuhn.tabs.setCurrentWidget(kuhn.compare)
    qtbot.waitUntil(lambda: kuhn.tabs.width() >= tabs_width + tree_sizes[2])
    assert kuhn.side_tabs.isHidden() and kuhn.plots.isHidden()
    assert kuhn.centre.sizes()[0] == tree_sizes[0]  # the solver panel keeps its width
    kuhn.tabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: kuhn.side_tabs.isVisible() and kuhn.plots.isVisible())
    assert kuhn.centre.sizes() == tree_sizes
