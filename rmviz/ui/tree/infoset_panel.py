"""Information sets: a list to find them, what one CFR iteration did at the chosen one, and
the average strategy of every one.

The list filters by player and searches by label. The table shows, per move of the chosen
information set J, the cumulative regret before the iteration R^{T-1}(J, m), the
counterfactual value v(J, m), the instantaneous regret r^T(J, m), the cumulative regret after
R^T(J, m), the strategy played at T and the regret-matched one for T+1, and the average
strategy after T; without a recorded iteration, the newest snapshot's cumulative regret,
current and average strategy. Below it the formulas of the run's algorithm with this
iteration's numbers: :mod:`rmviz.solvers.tree.explain` computes them and
:mod:`rmviz.present.tree_explain` writes them (the one place the formulas are written,
shared with the command line and the tests).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTableView,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.numbers import format_number
from rmviz.present.tree_explain import explanation_html, heading
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.explain import explain_infoset
from rmviz.solvers.tree.solver import IterationRecord, TreeSnapshot

# (header, what it is): the lecture's symbols keep the columns narrow on a projector
COLUMNS = (
    ("R\u1d40\u207b\u00b9", "cumulative regret before the iteration, R^{T-1}(J, m)"),
    ("v(J,m)", "counterfactual value v(J, m)"),
    ("r\u1d40", "instantaneous regret r^T(J, m)"),
    ("R\u1d40", "cumulative regret after the iteration, R^T(J, m)"),
    ("\u03c0\u1d40", "strategy played at iteration T"),
    ("\u03c0\u1d40\u207a\u00b9", "regret-matched strategy for iteration T+1"),
    ("\u03c0\u0304\u1d40", "average strategy after iteration T"),
)
LABEL_CHARACTERS = 28  # the information-set list's label column, and any table column, at most this wide


def label_width(widget: QWidget) -> int:
    """:data:`LABEL_CHARACTERS` in ``widget``'s font, in pixels."""
    return LABEL_CHARACTERS * widget.fontMetrics().averageCharWidth()


class InfosetList(QWidget):
    """Every information set, filtered by player and label; ``chosen`` carries its index."""

    chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player = QComboBox()
        self.search = QLineEdit()
        self.search.setPlaceholderText("search labels")
        self.list = QTreeWidget()
        # each set's row, its label lowercased and its player, and whether it is hidden (_filter)
        self.items: list[QTreeWidgetItem] = []
        self.rows: list[tuple[str, int]] = []
        self.hidden = np.zeros(0, dtype=bool)
        self.list.setHeaderLabels(["information set", "player", "moves"])
        self.list.setRootIsDecorated(False)
        # one line a row: Qt then lays out the rows in view only (Liar's Dice's 24,576 sets:
        # choosing one took 424 ms in setCurrentItem alone)
        self.list.setUniformRowHeights(True)
        self.list.currentItemChanged.connect(
            lambda item, _old: (
                item is not None and self.chosen.emit(int(item.data(0, Qt.ItemDataRole.UserRole)))
            )
        )
        self.player.currentIndexChanged.connect(self._filter)
        self.search.textChanged.connect(self._filter)
        row = QHBoxLayout()
        row.addWidget(self.player)
        row.addWidget(self.search, stretch=1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.list)

    def set_game(self, game: ExtensiveFormGame, tree: CompiledTree) -> None:
        self.player.blockSignals(True)
        self.player.clear()
        self.player.addItem("all players", -1)
        for i, name in enumerate(game.player_names):
            self.player.addItem(name, i)
        self.player.blockSignals(False)
        # quietly: clearing moves the current item down the list one item at a time, and each
        # move chose that set (Liar's Dice's 24,576 sets redrew the tree until it hung, after
        # every --screenshot); the window chooses the set once, after this
        self.list.blockSignals(True)
        self.list.clear()
        self.items, self.rows = [], []
        for j, label in enumerate(tree.infoset_label):
            player = int(tree.infoset_player[j])
            item = QTreeWidgetItem([label, game.player_names[player], str(int(tree.infoset_size[j]))])
            item.setData(0, Qt.ItemDataRole.UserRole, j)
            item.setData(1, Qt.ItemDataRole.UserRole, player)
            item.setToolTip(0, label)  # whole: a long one is cut in the list
            self.list.addTopLevelItem(item)
            self.items.append(item)
            self.rows.append((label.lower(), player))
        self.hidden = np.zeros(len(self.items), dtype=bool)
        self.list.blockSignals(False)
        for column in range(3):  # the player's and moves' columns too: "moves" was cut at Leduc's
            self.list.resizeColumnToContents(column)
        # a label column as wide as OpenSpiel's 120-character labels pushed the player and
        # moves off the list: at most LABEL_CHARACTERS wide, the rest cut ("…"), the side
        # panel naming the chosen set whole
        self.list.setColumnWidth(0, min(self.list.columnWidth(0), label_width(self.list)))

    def _filter(self) -> None:
        """Show the sets of the chosen player whose labels hold the search text; only the rows
        that change are shown or hidden (Liar's Dice's 24,576 sets, every row set each
        keystroke: 90-120 ms)."""
        player, text = self.player.currentData(), self.search.text().strip().lower()
        every = player in (None, -1)
        hidden = np.fromiter(
            (not ((every or owner == player) and text in label) for label, owner in self.rows),
            dtype=bool,
            count=len(self.rows),
        )
        for k in np.flatnonzero(hidden != self.hidden).tolist():
            self.items[k].setHidden(bool(hidden[k]))
        self.hidden = hidden

    def visible_labels(self) -> list[str]:
        return [
            self.list.topLevelItem(k).text(0)
            for k in range(self.list.topLevelItemCount())
            if not self.list.topLevelItem(k).isHidden()
        ]

    def _scroll_to_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.list.scrollToItem(item, CENTRE)
            # labels read from their start: centring scrolled a long one's (OpenSpiel's
            # 120-character strings) middle into view, and every row's with it
            self.list.horizontalScrollBar().setValue(0)

    def choose(self, infoset: int) -> None:
        """Select ``infoset`` and scroll the list to it (a tree opens on a set far down:
        Leduc's ``Qs:``)."""
        for k in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(k)
            if item.data(0, Qt.ItemDataRole.UserRole) == infoset:
                self.list.setCurrentItem(item)
                # once laid out: a list not shown yet (the window opening) keeps no scroll
                QTimer.singleShot(0, self.list, self._scroll_to_current)  # dropped with the list
                return


FITTED_ROWS = 12  # moves the table shows without scrolling
FITTED = QHeaderView.ResizeMode.ResizeToContents  # the tables' columns
MEASURED_ROWS = 0  # Qt's resize precision: the columns fit the cells in view (1,000 rows: 25 ms)
TABLE_SHARE = 0.3  # of the window's height, at most, so the plots below keep theirs
CENTRE = QAbstractItemView.ScrollHint.PositionAtCenter
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
Index = QModelIndex | QPersistentModelIndex


class InfosetNumbers(QAbstractTableModel):
    """The chosen set's numbers: a row per move, a column per :data:`COLUMNS` entry, each
    written (``.4g``) when the view asks for it, so a redraw costs the rows in view: a set of
    1,000 moves made 7,000 table items a redraw (136 ms of a 173 ms redraw)."""

    def __init__(self) -> None:
        super().__init__()
        self.moves: list[str] = []
        self.values = np.empty((0, len(COLUMNS)))

    def show(self, moves: list[str], values: np.ndarray) -> None:
        """Show ``values`` (moves x columns; NaN: blank) for ``moves``."""
        if moves != self.moves:
            self.beginResetModel()
            self.moves, self.values = moves, values
            self.endResetModel()
        elif len(moves):
            self.values = values
            self.dataChanged.emit(self.index(0, 0), self.index(len(moves) - 1, len(COLUMNS) - 1))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.moves)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            value = self.values[index.row(), index.column()]
            return "" if np.isnan(value) else format_number(value, ".4g")
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(NUMBER_ALIGNMENT.value)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return self.moves[section] if role == Qt.ItemDataRole.DisplayRole else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return COLUMNS[section][role == Qt.ItemDataRole.ToolTipRole]
        return None


class ModelTable(QTableView):
    """A read-only view of ``model`` (a table model that writes its cells when asked): one
    line a row, columns as wide as the cells in view and their headers at any text size (at
    most :data:`LABEL_CHARACTERS`, the rest cut with "…"; scrolled sideways if need be)."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.table_model = model
        self.setModel(model)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)  # Liar's Dice's labels took two lines, cut alike
        header = self.horizontalHeader()
        header.setSectionResizeMode(FITTED)
        header.setResizeContentsPrecision(MEASURED_ROWS)
        header.setMaximumSectionSize(label_width(self))
        # fitted to the rows in view: again when others scroll into view (paused: no redraw)
        self.verticalScrollBar().valueChanged.connect(lambda _: header.resizeSections(FITTED))

    def rowCount(self) -> int:
        return int(self.table_model.rowCount())

    def text(self, row: int, column: int) -> str:
        """The cell's text, as shown."""
        return str(self.table_model.data(self.table_model.index(row, column)))


class InfosetDetail(QWidget):
    """The chosen information set's numbers (table) and the formulas filled in (text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = ModelTable(InfosetNumbers())
        self.explain = QTextBrowser()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, stretch=2)
        layout.addWidget(self.explain, stretch=3)

    def display(
        self,
        game: ExtensiveFormGame,
        tree: CompiledTree,
        config: CFRConfig,
        infoset: int,
        snapshot: TreeSnapshot,
        record: IterationRecord | None,
    ) -> None:
        """Show ``infoset``: ``snapshot`` is the newest state (strategies and regrets per
        slot); ``record`` the last recorded iteration of a run of ``config`` (None: only the
        snapshot is shown)."""
        first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
        slots = slice(first, first + size)
        if record is not None:
            step = explain_infoset(tree, config, game.player_names, record, infoset)
            columns = [
                step.regret_before,
                step.cfv,
                step.regret,
                step.regret_after,
                step.strategy,
                step.next_strategy,
                step.average_after,
            ]
            self.explain.setHtml(explanation_html(step))
        else:
            blank = np.full(size, np.nan)
            columns = [
                blank,
                blank,
                blank,
                snapshot.cumulative_regret[slots],
                blank,
                snapshot.current_strategy[slots],
                snapshot.average_strategy[slots],
            ]
            self.explain.setHtml(waiting_html(game, tree, infoset))
        self.table.table_model.show(list(tree.slot_move[slots]), np.column_stack(columns))
        self.fit_table()

    def clear(self) -> None:
        """Nothing shown (a new run, before its first snapshot is drawn)."""
        self.table.table_model.show([], np.empty((0, len(COLUMNS))))
        self.explain.clear()

    def fit_table(self) -> None:
        """The table as high as its rows (at the current font), so the explanation below gets
        the rest of the panel; at most :data:`FITTED_ROWS` rows high and at most
        :data:`TABLE_SHARE` of the window's height, the others scrolled to (a node of 1,000
        moves made the window 30,000 pixels tall; Liar's Dice's 12 moves in presentation
        mode at 1280x720 left the plots below 60 pixels)."""
        table = self.table
        height = table.horizontalHeader().sizeHint().height() + 2 * table.frameWidth()
        if table.horizontalHeader().length() > table.viewport().width():  # scrolls sideways
            height += table.horizontalScrollBar().sizeHint().height()
        header, room = table.verticalHeader(), TABLE_SHARE * self.window().height()
        for row in range(min(table.rowCount(), FITTED_ROWS)):
            if row and height + header.sectionSize(row) > room:  # one row at least
                break
            height += header.sectionSize(row)
        table.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_table()  # narrower: the rows may need room for a scroll bar


def waiting_html(game: ExtensiveFormGame, tree: CompiledTree, infoset: int) -> str:
    """The explanation before any recorded iteration."""
    player = int(tree.infoset_player[infoset])
    head = heading(tree.infoset_label[infoset], game.player_names[player], player)
    return (
        f"<h3>{head}</h3><p>Step one iteration (Step 1) to see this information set's update explained.</p>"
    )


class StrategyModel(QAbstractTableModel):
    """The average (or any) behaviour strategy of every information set: one row each (its
    label, its player, then ``move  probability`` across), written when the view asks for a
    cell: the rows in view. Liar's Dice's 24,576 sets took 390 ms a redraw written whole."""

    def __init__(self) -> None:
        super().__init__()
        self.names: tuple[str, ...] = ()
        self.tree: CompiledTree | None = None
        self.strategy = np.empty(0)

    def show(self, game: ExtensiveFormGame | None, tree: CompiledTree | None, strategy: np.ndarray) -> None:
        """Show ``strategy`` (per slot) of ``tree`` (None: nothing)."""
        if tree is not self.tree:
            self.beginResetModel()
            self.names = () if game is None else tuple(game.player_names)
            self.tree, self.strategy = tree, strategy
            self.endResetModel()
        elif self.rowCount():
            self.strategy = strategy
            self.dataChanged.emit(self.index(0, 2), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() or self.tree is None else self.tree.n_infosets

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        tree = self.tree
        return (
            0 if parent.isValid() or tree is None or not tree.n_infosets else 2 + int(tree.infoset_size.max())
        )

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        tree = self.tree
        j, column = index.row(), index.column()
        if tree is not None and role == Qt.ItemDataRole.ToolTipRole and column == 0:
            return tree.infoset_label[j]  # whole: a long one is cut in its cell
        if role != Qt.ItemDataRole.DisplayRole or tree is None:
            return None
        if column == 0:
            return tree.infoset_label[j]
        if column == 1:
            return self.names[int(tree.infoset_player[j])]
        move = column - 2
        if move >= tree.infoset_size[j]:
            return ""
        slot = int(tree.infoset_first_slot[j]) + move
        return f"{tree.slot_move[slot]}  {format_number(self.strategy[slot], '.3f')}"

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Vertical:
            return section + 1
        return ("information set", "player")[section] if section < 2 else f"move {section - 1}"


class StrategyTable(ModelTable):
    """The view of a :class:`StrategyModel`."""

    def __init__(self) -> None:
        super().__init__(StrategyModel())

    def set_strategy(self, game: ExtensiveFormGame, tree: CompiledTree, strategy: np.ndarray) -> None:
        self.table_model.show(game, tree, strategy)

    def clear(self) -> None:
        """No strategy shown (a new game, before its run's first snapshot)."""
        self.table_model.show(None, None, np.empty(0))
