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
            return "\n".join(f"{name}: {v:g}" for name, v in zip(game.player_names, values, strict=True))
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

    def set_cells(self, cells: list[tuple[int, int, str]], description: str = "Edit payoff") -> bool:
        """Parse and apply several cells as one undo step; refuse all if one is invalid."""
        if self.read_only:
            self.edit_rejected.emit("this game is read-only (a tree's reduced strategic form): edit the tree")
            return False
        game = self.document.game
        profiles, values = [], []
        for row, column, text in cells:
            try:
                values.append(parse_cell(text, game.n_players, self.document.zero_sum))
            except GameError as error:
                row_name = game.action_names[self.row_player][row]
                name = f"{row_name} / {game.action_names[self.column_player][column]}"
                self.edit_rejected.emit(f"{name}: {error}")
                return False
            profiles.append(self.profile(row, column))
        self.document.set_payoffs(profiles, values, description)
        return True

    def paste(self, top: int, left: int, text: str) -> bool:
        """Paste a block copied from a spreadsheet (tab-separated rows) at (top, left)."""
        cells = []
        for r, line in enumerate(text.rstrip("\n").split("\n")):
            for c, cell in enumerate(line.split("\t")):
                row, column = top + r, left + c
                if row < self.rowCount() and column < self.columnCount() and cell.strip():
                    cells.append((row, column, cell))
        return bool(cells) and self.set_cells(cells, "Paste payoffs")
