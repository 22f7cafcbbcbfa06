"""A decision node of 1,000 moves (issue 33): the tree window opened on it in minutes and
30,000 pixels tall, its information-set plot drawing 1,000 curves and keys and its table
as high as 1,000 rows. The plot draws the first ten moves and says so, as a player's
actions do; the table scrolls past twelve rows."""

from __future__ import annotations

import numpy as np

from rmviz.formats import read_efg
from rmviz.games import catalog_game
from rmviz.present.panels import MAX_ACTIONS
from rmviz.ui.common.run_window import StartOptions
from rmviz.ui.tree.infoset_panel import FITTED_ROWS
from tests.ui.tree.conftest import clipped_cells, make_tree_window, rows_asked, shown_after

MOVES = 1_000


def wide_game(count: int = MOVES):
    """A tree of one decision node of ``count`` moves, player 1's (``--wide`` of
    tests/benchmarks/gui_responsiveness.py)."""
    moves = " ".join(f'"m{k}"' for k in range(count))
    lines = ['EFG 2 R "wide" { "P1" "P2" }', '""', f'p "" 1 1 "" {{ {moves} }} 0']
    lines += [f't "" {k + 1} "" {{ {k % 7 - 3}, {3 - k % 7} }}' for k in range(count)]
    return read_efg("\n".join(lines) + "\n", "wide.efg")


def test_a_node_of_a_thousand_moves_opens_in_a_window_of_the_screens_size(qtbot):
    window = make_tree_window(qtbot, wide_game())
    try:
        window.resize(1280, 720)
        window.show()
        qtbot.waitUntil(lambda: window.plots.strategy is not None, timeout=60_000)
        strategy = window.plots.strategy
        assert len(strategy.curves) == MAX_ACTIONS
        assert f"(first {MAX_ACTIONS} of {MOVES:,} moves)" in strategy.plot.titleLabel.text
        table = window.detail.table
        assert table.rowCount() == MOVES  # every move's numbers, scrolled to
        assert table.height() <= (FITTED_ROWS + 2) * table.verticalHeader().sectionSize(0) + 40
        assert window.minimumSizeHint().height() <= 720 and not window.errors
    finally:
        window.shutdown()


def test_the_information_set_a_tree_opens_on_is_scrolled_to_in_the_list(qtbot):
    window = make_tree_window(qtbot, catalog_game("leduc"))
    try:
        window.start(StartOptions(size=(1280, 720)))  # as rmviz leduc --size 1280x720 opens it
        listed = window.infosets.list
        qtbot.waitUntil(lambda: listed.currentItem() is not None, timeout=60_000)
        item = listed.currentItem()  # Leduc opens on Qs:, far down the list
        assert listed.indexOfTopLevelItem(item) > 20
        shown = lambda: listed.viewport().rect().intersects(listed.visualItemRect(item))  # noqa: E731
        qtbot.waitUntil(shown, timeout=10_000)
    finally:
        window.shutdown()


def test_a_wide_sets_plot_draws_the_moves_played_as_its_figure_does(qtbot):
    """The plot drew m0 to m9, which lose: once the run has a point it draws the ten moves
    most played (CFR plays the 143 moves paying 3, m6, m13, ..., alike: the first ten of
    them), their curves from their own columns, named in its legend, as the figure does."""
    from rmviz.figures.registry import make_figure

    window = make_tree_window(qtbot, wide_game())
    try:
        window.show()
        qtbot.waitUntil(lambda: window.plots.strategy is not None, timeout=60_000)
        window.run.step(100)
        qtbot.waitUntil(lambda: window.run.thread.loop.latest()[1].iteration == 100, timeout=60_000)
        window.run.redraw(force=True)
        strategy = window.plots.strategy
        played = [f"m{k}" for k in range(6, 76, 7)]
        assert [line.label for line in strategy.curves] == played
        assert f"({MAX_ACTIONS} most played of {MOVES:,})" in strategy.panel.title
        reference = window.plots.reference  # the LP's equilibrium: dashed levels, moved too
        assert reference is not None and len(strategy.levels) == MAX_ACTIONS
        first = int(window.tree.infoset_first_slot[window.infoset])
        assert [level.value() for level in strategy.levels] == [reference[first + k] for k in range(6, 76, 7)]
        assert [label.text for _, label in strategy.legend.items] == played
        columns = window.run.thread.loop.trace_data(window.plots.columns()).columns
        for line, curve in strategy.curves.items():
            drawn = curve.getOriginalDataset()[1]
            np.testing.assert_array_equal(drawn, columns[line.column][-len(drawn) :])
            assert drawn[-1] > 0.006  # 1/143 each
        figure = make_figure("strategies", window.export.run_data(), style="paper")
        (ax,) = [ax for ax in figure.axes if ax.get_legend() is not None or ax.get_lines()][:1]
        assert f"({MAX_ACTIONS} most played of {MOVES:,})" in ax.get_title()
        assert not window.errors
    finally:
        window.shutdown()


def test_a_wide_sets_table_writes_only_the_rows_in_view(qtbot, monkeypatch):
    """A redraw made 7,000 table items for the 1,000 moves (136 ms of a 173 ms redraw, a
    window p99 of 198 ms while CFR ran): the table now writes the numbers the view asks for,
    the rows in view, and they are the newest snapshot's, scrolled to any move."""
    from rmviz.ui.tree.infoset_panel import InfosetNumbers

    asked = rows_asked(monkeypatch, InfosetNumbers)
    window = make_tree_window(qtbot, wide_game())
    try:
        loop = shown_after(qtbot, window, 50)
        asked.clear()
        window.run.redraw(force=True)
        table = window.detail.table
        table.viewport().repaint()
        assert asked and len(asked) <= FITTED_ROWS + 2  # the rows in view, not 1,000
        first = int(window.tree.infoset_first_slot[window.infoset])
        average = loop.latest()[1].average_strategy
        for row in (0, 500, MOVES - 1):  # every move's numbers are there to scroll to
            assert table.text(row, 6) == f"{average[first + row]:.4g}"
        table.scrollToBottom()
        table.viewport().repaint()
        assert MOVES - 1 in asked and not window.errors
    finally:
        window.shutdown()


def test_the_tables_columns_fit_the_rows_scrolled_into_view(qtbot):
    """The columns fit the numbers in view: scrolled to the last moves of a paused run (no
    redraw), whose numbers are wider than the first ones', they widen instead of eliding."""
    moves = " ".join(f'"m{k}"' for k in range(MOVES))
    lines = ['EFG 2 R "late" { "P1" "P2" }', '""', f'p "" 1 1 "" {{ {moves} }} 0']
    lines += [f't "" {k + 1} "" {{ {-k * 1.2345e-3 if k > 900 else 1}, 0 }}' for k in range(MOVES)]
    window = make_tree_window(qtbot, read_efg("\n".join(lines) + "\n", "late.efg"))
    try:
        shown_after(qtbot, window, 3)
        window.run.redraw(force=True)
        table = window.detail.table
        assert not clipped_cells(table)
        table.scrollToBottom()
        qtbot.waitUntil(lambda: table.rowAt(0) > 900, timeout=10_000)
        assert not clipped_cells(table) and not window.errors
    finally:
        window.shutdown()


def test_a_wide_node_is_drawn_once_as_its_window_opens_and_runs(qtbot, monkeypatch):
    """The scene of 1,000 edges was drawn three times: as the window opened, again when the
    run's first strategies came (to add the bars, 0.3-0.7 s) and again at *Run* (clearing a
    record none had shown). The bars are now added to the scene drawn, and widened as the
    run goes, each to its probability."""
    from rmviz.ui.tree.view import BAR_PIXELS, BAR_WIDTH, TreeView

    built = []
    rebuild = TreeView.rebuild
    monkeypatch.setattr(TreeView, "rebuild", lambda view: (built.append(1), rebuild(view)))
    window = make_tree_window(qtbot, wide_game())
    try:
        loop = shown_after(qtbot, window, 20)
        window.run.redraw(force=True)
        window.run.toggle()  # Run
        qtbot.waitUntil(lambda: loop.latest()[1].iteration > 200, timeout=60_000)
        window.run.toggle()
        loop.exclusive(lambda solver: None)  # the chunk in flight ends and is published first
        qtbot.waitUntil(lambda: loop.latest()[1].iteration == loop.solver.iteration, timeout=60_000)
        window.run.redraw(force=True)
        assert len(built) == 1
        view = window.view
        assert len(view.bars) == 2 * MOVES  # current and average of each move
        snapshot = loop.latest()[1]
        quarter = BAR_PIXELS / view.transform().m11()
        for bar, row, slot in view.bars:
            expected = (snapshot.current_strategy, snapshot.average_strategy)[row][slot]
            assert abs(bar.rect().width() - BAR_WIDTH * view.spread * expected) <= quarter
    finally:
        window.shutdown()
