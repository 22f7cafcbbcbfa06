"""The payoff-matrix editor: the table, its structure (actions, players, names), the zero-sum
toggle and, for three or more players, the slice selectors.

Every change goes through the :class:`~rmviz.document.GameDocument`, so it can be undone; a
refused change (an empty name, the last action of a player, a bad number) is reported on
``error`` and changes nothing. Spreadsheet keys: typing overwrites the selected cell, Enter,
Tab and the arrows move, Esc cancels, Ctrl+C / Ctrl+V copy and paste tab-separated blocks (a
block larger than the room left adds the rows and columns it needs, in the same undo step),
Delete sets the selected cells to 0. Right-click a header to rename, insert or remove an
action; double-click it to rename.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rmviz.document import GameDocument
from rmviz.errors import RmvizError
from rmviz.ui.matrix.payoff_model import PayoffTableModel


class MatrixEditor(QWidget):
    """Edits ``document``'s game; ``error`` carries a message for the person."""

    error = Signal(str)

    def __init__(self, document: GameDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.model = PayoffTableModel(document, self)
        self.model.edit_rejected.connect(self.error)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.horizontalHeader().setDefaultSectionSize(80)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ContiguousSelection)
        for header, vertical in ((self.table.horizontalHeader(), False), (self.table.verticalHeader(), True)):
            header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            header.customContextMenuRequested.connect(
                lambda point, h=header, v=vertical: self._header_menu(h.logicalIndexAt(point), v, h, point)
            )
            header.sectionDoubleClicked.connect(
                lambda section, v=vertical: self.ask_rename_action(v, section)
            )
        for keys, slot in (
            (QKeySequence.StandardKey.Copy, self.copy_selection),
            (QKeySequence.StandardKey.Paste, self.paste_clipboard),
            (QKeySequence.StandardKey.Delete, self.clear_selection),
        ):
            action = QAction(self.table)
            action.setShortcut(keys)
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            action.triggered.connect(slot)
            self.table.addAction(action)

        self.players_label = QLabel()
        self.players_label.setWordWrap(True)  # a long line would widen the editor past the plots
        self.zero_sum = QCheckBox("Zero-sum (one number fills both)")
        self.zero_sum.toggled.connect(lambda on: self.attempt(lambda: self.document.set_zero_sum(on)))
        self.slices = QWidget()
        self.slices.setLayout(QHBoxLayout())
        self.slices.layout().setContentsMargins(0, 0, 0, 0)
        structure = QHBoxLayout()
        self.structure_buttons: list[QPushButton] = []
        # short labels, so the editor fits beside the plots at 1024 pixels; the tooltips say more
        for text, tip, slot in (
            (
                "+ Row",
                "add an action of the row player",
                lambda: self.attempt(lambda: self.document.add_action(self.model.row_player)),
            ),
            (
                "+ Column",
                "add an action of the column player",
                lambda: self.attempt(lambda: self.document.add_action(self.model.column_player)),
            ),
            (
                "+ Player",
                "add a player (a new axis of the payoff table)",
                lambda: self.attempt(self.document.add_player),
            ),
            ("\u2212 Player", "remove a player, keeping one of its actions", self.ask_remove_player),
            ("Rename...", "rename a player", self.ask_rename_player),
        ):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.clicked.connect(slot)
            structure.addWidget(button)
            self.structure_buttons.append(button)
        structure.addStretch()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.players_label)
        layout.addWidget(self.table, stretch=1)
        layout.addLayout(structure)
        layout.addWidget(self.zero_sum)
        layout.addWidget(self.slices)
        document.subscribe(lambda _document: self.refresh())  # after the model's own
        self.refresh()

    def set_read_only(self, read_only: bool) -> None:
        """Show the game without letting it be edited (a tree's reduced strategic form)."""
        self.model.read_only = read_only
        triggers = QAbstractItemView.EditTrigger
        self.table.setEditTriggers(
            triggers.NoEditTriggers
            if read_only
            else triggers.DoubleClicked | triggers.EditKeyPressed | triggers.AnyKeyPressed
        )
        for widget in (*self.structure_buttons, self.zero_sum):
            widget.setEnabled(not read_only)

    # -- to override in tests ----------------------------------------------------------------
    def ask_text(self, title: str, label: str, text: str = "") -> str | None:
        """Ask the person for a line of text; None when cancelled."""
        value, ok = QInputDialog.getText(self, title, label, text=text)
        return value if ok else None

    def ask_item(self, title: str, label: str, items: list[str]) -> int | None:
        """Ask the person to pick one of ``items``; its index, or None when cancelled."""
        value, ok = QInputDialog.getItem(self, title, label, items, 0, False)
        return items.index(value) if ok else None

    # -- after every change of the document ----------------------------------------------------
    def refresh(self) -> None:
        """Re-read the game: players line, zero-sum box, slice selectors."""
        game = self.document.game
        row, column = self.model.row_player, self.model.column_player
        self.players_label.setText(
            f"rows: <b>{game.player_names[row]}</b> &nbsp; columns: <b>{game.player_names[column]}</b>"
            + ("" if game.n_players == 2 else " &nbsp; (one slice of the others' actions at a time)")
        )
        self.zero_sum.blockSignals(True)
        self.zero_sum.setChecked(self.document.zero_sum)
        self.zero_sum.setEnabled(game.n_players == 2)
        self.zero_sum.blockSignals(False)
        layout = self.slices.layout()
        while layout.count():
            layout.takeAt(0).widget().deleteLater()
        for player in range(2, game.n_players):
            combo = QComboBox()
            combo.addItems([f"{game.player_names[player]}: {a}" for a in game.action_names[player]])
            combo.setCurrentIndex(self.model.slice_profile[player])
            combo.currentIndexChanged.connect(lambda a, p=player: self.model.set_slice(p, a))
            layout.addWidget(combo)
        self.slices.setVisible(game.n_players > 2)

    # -- structure -------------------------------------------------------------------------------
    def attempt(self, change: Callable[[], object]) -> bool:
        try:
            change()
        except RmvizError as error:
            self.error.emit(str(error))
            return False
        return True

    def _player(self, vertical: bool) -> int:
        return self.model.row_player if vertical else self.model.column_player

    def _header_menu(self, section: int, vertical: bool, header: QWidget, point: QPoint) -> None:
        player = self._player(vertical)
        menu = QMenu(self)
        if section >= 0:
            menu.addAction("Rename...", lambda: self.ask_rename_action(vertical, section))
            menu.addAction(
                "Remove", lambda: self.attempt(lambda: self.document.remove_action(player, section))
            )
        menu.addAction("Add action", lambda: self.attempt(lambda: self.document.add_action(player)))
        menu.exec(header.mapToGlobal(point))

    def ask_rename_action(self, vertical: bool, section: int) -> None:
        player = self._player(vertical)
        old = self.document.game.action_names[player][section]
        name = self.ask_text("Rename action", f"New name for {old!r}:", old)
        if name is not None and name != old:
            self.attempt(lambda: self.document.rename_action(player, section, name))

    def ask_rename_player(self) -> None:
        names = list(self.document.game.player_names)
        player = self.ask_item("Rename player", "Player:", names) if len(names) > 2 else None
        if player is None and len(names) > 2:
            return
        for p in [player] if player is not None else range(len(names)):
            name = self.ask_text("Rename player", f"New name for {names[p]!r}:", names[p])
            if name is not None and name != names[p]:
                self.attempt(lambda p=p, name=name: self.document.rename_player(p, name))

    def ask_remove_player(self) -> None:
        game = self.document.game
        if game.n_players <= 2:
            self.error.emit("a game needs at least two players")
            return
        player = self.ask_item("Remove player", "Player to remove:", list(game.player_names))
        if player is not None:
            keep = self.model.slice_profile[player]
            self.attempt(lambda: self.document.remove_player(player, keep))

    # -- clipboard ---------------------------------------------------------------------------------
    def _selected_block(self) -> tuple[int, int, int, int] | None:
        indexes = self.table.selectionModel().selectedIndexes()
        if not indexes:
            return None
        rows = [i.row() for i in indexes]
        columns = [i.column() for i in indexes]
        return min(rows), min(columns), max(rows), max(columns)

    def copy_selection(self) -> None:
        """Copy the selected block as tab-separated text (what spreadsheets paste)."""
        block = self._selected_block()
        if block is None:
            return
        top, left, bottom, right = block
        lines = [
            "\t".join(self.model.data(self.model.index(r, c)) for c in range(left, right + 1))
            for r in range(top, bottom + 1)
        ]
        QGuiApplication.clipboard().setText("\n".join(lines) + "\n")

    def paste_clipboard(self) -> None:
        """Paste a tab-separated block at the selection's top-left cell (one undo step; the
        table grows to hold all of it)."""
        block = self._selected_block()
        top, left = (block[0], block[1]) if block else (0, 0)
        text = QGuiApplication.clipboard().text()
        if text.strip():
            self.model.paste(top, left, text)

    def clear_selection(self) -> None:
        block = self._selected_block()
        if block is not None:
            top, left, bottom, right = block
            zero = "0" if self.document.zero_sum else ", ".join(["0"] * self.document.game.n_players)
            cells = [(r, c, zero) for r in range(top, bottom + 1) for c in range(left, right + 1)]
            self.model.set_cells(cells, "Clear payoffs")
