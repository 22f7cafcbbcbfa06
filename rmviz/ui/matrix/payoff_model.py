"""The payoff-matrix editor's model: a 2-D slice of the game's payoff tensor as a table.

Rows are the row player's actions, columns the column player's; with more players, the
other players' actions are fixed by ``slice_profile`` (one slice shown at a time). Cells
show every player's payoff (``"10, 7"``), or the row player's alone in a zero-sum game;
edits go through the :class:`~rmviz.document.GameDocument`, so they can be undone, and an
invalid entry is refused with a message (``edit_rejected``) without changing anything.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from rmviz.document import GameDocument, format_cell, parse_cell
from rmviz.errors import GameError
from rmviz.numbers import format_number


class PayoffTableModel(QAbstractTableModel):
    """A table over ``document.game``; ``row_player``/``column_player`` choose the axes."""

    edit_rejected = Signal(str)

    def __init__(self, document: GameDocument, parent: Any = None) -> None:
        super().__init__(parent)
        self.document = document
        self.row_player, self.column_player = 0, 1
        self.read_only = False
        self.slice_profile: list[int] = [0] * document.game.n_players
        document.subscribe(lambda _document: self.refresh())

    def refresh(self) -> None:
        """Re-read the document (after an edit, undo, or a new game)."""
        game = self.document.game
        if len(self.slice_profile) != game.n_players:
            self.slice_profile = [0] * game.n_players
        self.slice_profile = [
            min(a, k - 1) for a, k in zip(self.slice_profile, game.num_actions, strict=True)
        ]
        self.beginResetModel()
        self.endResetModel()

    def set_slice(self, player: int, action: int) -> None:
        self.slice_profile[player] = action
        self.refresh()

    def profile(self, row: int, column: int) -> tuple[int, ...]:
        profile = list(self.slice_profile)
        profile[self.row_player], profile[self.column_player] = row, column
        return tuple(profile)

    # -- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.document.game.num_actions[self.row_player]

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.document.game.num_actions[self.column_player]

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        game = self.document.game
        values = tuple(
            float(v) for v in game.payoffs[(slice(None), *self.profile(index.row(), index.column()))]
        )
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return format_cell(values, self.document.zero_sum)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            names = game.player_names
            return "\n".join(f"{name}: {format_number(v)}" for name, v in zip(names, values, strict=True))
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        game = self.document.game
        player = self.row_player if orientation == Qt.Orientation.Vertical else self.column_player
        return game.action_names[player][section]

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return flags if self.read_only else flags | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: QModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        return self.set_cells([(index.row(), index.column(), str(value))])

    def set_cells(
        self,
        cells: list[tuple[int, int, str]],
        description: str = "Edit payoff",
        grow: tuple[int, int] = (0, 0),
    ) -> bool:
        """Parse and apply several cells as one undo step; refuse all if one is invalid.
        ``grow``: rows and columns to add first (actions of the row and column players), in
        the same undo step; ``cells`` may lie in them."""
        if self.read_only:
            self.edit_rejected.emit("this game is read-only (a tree's reduced strategic form): edit the tree")
            return False
        game = self.document.game
        rows = [*game.action_names[self.row_player], *("new row",) * grow[0]]
        columns = [*game.action_names[self.column_player], *("new column",) * grow[1]]
        profiles, values = [], []
        for row, column, text in cells:
            try:
                values.append(parse_cell(text, game.n_players, self.document.zero_sum))
            except GameError as error:
                self.edit_rejected.emit(f"{rows[row]} / {columns[column]}: {error}")
                return False
            profiles.append(self.profile(row, column))
        try:
            if any(grow):
                extra = {self.row_player: grow[0], self.column_player: grow[1]}
                self.document.grow_and_set(extra, profiles, values, description)
            else:
                self.document.set_payoffs(profiles, values, description)
        except GameError as error:  # a block too large for memory
            self.edit_rejected.emit(str(error))
            return False
        return True

    def paste(self, top: int, left: int, text: str) -> bool:
        """Paste a block copied from a spreadsheet (tab-separated rows) at (top, left). A
        block that reaches past the table's last row or column adds the actions it needs
        (zero payoffs, named ``Action k``) to the row and column players, in the same undo
        step as the payoffs, so nothing pasted is dropped. Blank cells are left as they are
        (trailing ones add nothing)."""
        cells = []
        for r, line in enumerate(text.rstrip("\n").split("\n")):
            for c, cell in enumerate(line.rstrip("\r").split("\t")):
                if cell.strip():
                    cells.append((top + r, left + c, cell))
        if not cells:
            return False
        grow = (
            max(0, max(row for row, _, _ in cells) + 1 - self.rowCount()),
            max(0, max(column for _, column, _ in cells) + 1 - self.columnCount()),
        )
        added = [
            f"{k} {what}{'s' if k > 1 else ''}" for k, what in zip(grow, ("row", "column"), strict=True) if k
        ]
        description = "Paste payoffs" + (f" (adds {' and '.join(added)})" if added else "")
        return self.set_cells(cells, description, grow)
