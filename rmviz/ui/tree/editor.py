"""The tree editor: the :class:`~rmviz.ui.tree.view.TreeView` with its edit menu.

Right-click a node to edit it: add, remove and rename moves, set a chance node's
probabilities or a terminal's payoffs, rename or join an information set, turn a node into
a decision node (in an information set of its own, or joining one of the player's sets
explicitly), a chance or a terminal node, label it. Every edit goes through the Qt-free
:class:`~rmviz.document.TreeDocument` (undo with Ctrl+Z); a refused one (probabilities that do
not sum to 1, an information set that breaks perfect recall...) changes nothing, and the
game model's message is shown in place above the tree until an edit succeeds.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QLabel, QMenu, QVBoxLayout, QWidget

from rmviz.document import TreeDocument
from rmviz.errors import RmvizError
from rmviz.numbers import format_number
from rmviz.ui.tree.view import TreeView


class TreeEditor(QWidget):
    """Edits ``document``'s tree through ``view``'s node menu; ``problem`` shows a refused
    edit."""

    def __init__(self, document: TreeDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.read_only = False
        self.view = TreeView()
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._node_menu)
        self.problem = QLabel()  # a refused edit, shown in place until the next edit succeeds
        self.problem.setStyleSheet("color: #b71c1c; background: #ffebee; padding: 4px")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.problem)
        layout.addWidget(self.view, stretch=1)

    def set_read_only(self, read_only: bool) -> None:
        """Show the tree without letting it be edited (the node menu only folds)."""
        self.read_only = read_only

    def ask_text(self, title: str, label: str, text: str = "") -> str | None:
        """Ask for a line of text (tests replace this method)."""
        value, ok = QInputDialog.getText(self, title, label, text=text)
        return value if ok else None

    def edit(self, change: Callable[[], object]) -> bool:
        """Apply a tree edit. A refused one (the game model's message: probabilities that do
        not sum to 1, a broken perfect recall, ...) is shown above the tree and changes
        nothing; the message stays until an edit succeeds."""
        try:
            if self.read_only:
                raise RmvizError("this tree is read-only")
            change()
        except (RmvizError, ValueError) as error:
            self.problem.setText(f"Edit refused: {error}")
            self.problem.show()
            return False
        self.problem.hide()
        return True

    def ask(self, apply: Callable[[str], object], title: str, label: str, text: str = "") -> None:
        """Ask for a line of text, then edit with it (nothing when cancelled)."""
        answer = self.ask_text(title, label, text)
        if answer is not None:
            self.edit(lambda: apply(answer))

    def _node_menu(self, point: object) -> None:
        item = self.view.itemAt(point)  # type: ignore[arg-type]
        if item is None or item.data(0) is None:
            return
        h = int(item.data(0))
        menu = QMenu(self)
        if not self.read_only:
            self._edit_actions(menu, h)
            menu.addSeparator()
        menu.addAction("Collapse / expand", lambda: self.view.toggle(h))
        menu.exec(self.view.mapToGlobal(point))  # type: ignore[arg-type]

    def _edit_actions(self, menu: QMenu, h: int) -> None:
        """The edits of node ``h`` that its kind allows."""
        tree, doc = self.view.tree, self.document
        assert tree is not None
        history = self.view.path(h)
        kind = int(tree.kind[h])
        if kind in (0, 1):
            menu.addAction(
                "Add move...", lambda: self.ask(lambda m: doc.add_move(history, m), "Add move", "Move:")
            )
            moves = doc.node(history).moves
            remove = menu.addMenu("Remove move")
            rename = menu.addMenu("Rename move")
            for move in moves:
                remove.addAction(move, lambda m=move: self.edit(lambda: doc.remove_move(history, m)))
                rename.addAction(
                    move,
                    lambda m=move: self.ask(
                        lambda new: doc.rename_move(history, m, new), "Rename move", f"{m} ->", m
                    ),
                )
        if kind == 0:
            current = ", ".join(format_number(p) for p in doc.node(history).probabilities)
            menu.addAction(
                "Set probabilities...",
                lambda: self.ask(
                    lambda text: doc.set_probabilities(history, parse_numbers(text)),
                    "Chance",
                    "Probabilities:",
                    current,
                ),
            )
        if kind == 1:
            player, label = int(tree.player[h]), tree.infoset_label[int(tree.node_infoset[h])]
            menu.addAction(
                "Rename information set...",
                lambda: self.ask(
                    lambda new: doc.rename_infoset(player, label, new),
                    "Information set",
                    f"{label} ->",
                    label,
                ),
            )
            menu.addAction(
                "Information set...",
                lambda: self.ask(
                    lambda label: doc.set_infoset(history, label),
                    "Information set",
                    "Label (an existing one joins it):",
                    tree.infoset_label[int(tree.node_infoset[h])],
                ),
            )
        if kind == 2:
            current = ", ".join(format_number(u) for u in doc.node(history).payoffs)
            menu.addAction(
                "Set payoffs...",
                lambda: self.ask(
                    lambda text: doc.set_payoffs(history, parse_numbers(text)), "Payoffs", "Payoffs:", current
                ),
            )
            for player, name in enumerate(doc.game.player_names):
                self._decision_menu(menu.addMenu(f"Make decision node of {name}"), history, player)
            menu.addAction("Make chance node", lambda: self.edit(lambda: doc.make_chance(history)))
        elif history:
            menu.addAction(
                "Make terminal (drop the subtree)", lambda: self.edit(lambda: doc.make_terminal(history))
            )
        menu.addAction(
            "Node label...",
            lambda: self.ask(
                lambda text: doc.set_label(history, text), "Node label", "Label:", doc.node(history).label
            ),
        )

    def _decision_menu(self, menu: QMenu, history: tuple[str, ...], player: int) -> None:
        """A new decision node of ``player`` at ``history``: in an information set of its own
        (a fresh label), or joining one of the player's sets explicitly (with its moves; the
        game model refuses what breaks perfect recall)."""
        doc = self.document
        fresh = doc.fresh_infoset()
        menu.addAction(
            f"New information set {fresh}", lambda: self.edit(lambda: doc.make_decision(history, player))
        )
        labels = doc.game.infosets[player]
        if not labels:
            return
        menu.addSeparator()
        if len(labels) <= JOIN_LISTED:
            for label in labels:
                moves = ", ".join(doc.game.infoset_moves[player, label])
                menu.addAction(
                    f"Join {label} ({moves})",
                    lambda label=label: self.edit(lambda: doc.join_decision(history, player, label)),
                )
        else:
            menu.addAction(
                "Join information set...",
                lambda: self.ask(
                    lambda label: doc.join_decision(history, player, label),
                    "Join information set",
                    f"Label (one of {', '.join(labels[:8])}, ...):",
                ),
            )


JOIN_LISTED = 12  # the information sets a player may join, listed by name up to this many


def parse_numbers(text: str) -> list[float]:
    """``"1/2, 0.25, 1/4"`` -> floats; a :class:`ValueError` names the bad entry."""
    values = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        try:
            if "/" in part:
                top, bottom = part.split("/")
                values.append(float(top) / float(bottom))
            else:
                values.append(float(part))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{part!r} is not a number") from None
    return values
