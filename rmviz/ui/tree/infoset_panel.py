"""Information sets: a list to find them, what one CFR iteration did at the chosen one, and
the average strategy of every one.

The list filters by player and searches by label. The table shows, per move of the chosen
information set J, the cumulative regret before the iteration R^{T-1}(J, m), the
counterfactual value v(J, m), the instantaneous regret r^T(J, m), the cumulative regret after
R^T(J, m), the strategy before (the one played at T) and after (regret matching on R^T), and
the average strategy; without a recorded iteration, the newest snapshot's cumulative regret,
current and average strategy. The explanation writes the formulas of CFR (Zinkevich et al.
2007, as a CFR lecture writes them) with this iteration's numbers:

    P(J | pi_-i) = sum_{h in J} P(h | pi_-i)
    v(J, m)      = sum_{h in J} P(h | pi_-i) U_i(pi | h m)
    r^T(J, m)    = v(J, m) - sum_a pi^T(J)(a) v(J, a)
                 = P(J | pi_-i) (U_i(<pi>_m^J | J) - U_i(pi | J))
    R^T(J, m)    = R^{T-1}(J, m) + r^T(J, m)     (CFR; CFR+ clips at 0, DCFR/linear weigh)
    pi^{T+1}(J)(m) = [R^T(J, m)]^+ / sum_a [R^T(J, a)]^+   (uniform if the sum is 0)
"""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rmviz.figures.layout import history
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.numbers import format_number
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.solver import IterationRecord, TreeSnapshot

COLUMNS = ("R before", "v(J,m)", "r (instant)", "R after", "strategy at T", "strategy at T+1", "average")


class InfosetList(QWidget):
    """Every information set, filtered by player and label; ``chosen`` carries its index."""

    chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player = QComboBox()
        self.search = QLineEdit()
        self.search.setPlaceholderText("search labels")
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["information set", "player", "moves"])
        self.list.setRootIsDecorated(False)
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
        self.list.clear()
        for j, label in enumerate(tree.infoset_label):
            player = int(tree.infoset_player[j])
            item = QTreeWidgetItem([label, game.player_names[player], str(int(tree.infoset_size[j]))])
            item.setData(0, Qt.ItemDataRole.UserRole, j)
            item.setData(1, Qt.ItemDataRole.UserRole, player)
            self.list.addTopLevelItem(item)
        self.list.resizeColumnToContents(0)

    def _filter(self) -> None:
        player, text = self.player.currentData(), self.search.text().strip().lower()
        for k in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(k)
            show = (player in (None, -1) or item.data(1, Qt.ItemDataRole.UserRole) == player) and (
                text in item.text(0).lower()
            )
            item.setHidden(not show)

    def visible_labels(self) -> list[str]:
        return [
            self.list.topLevelItem(k).text(0)
            for k in range(self.list.topLevelItemCount())
            if not self.list.topLevelItem(k).isHidden()
        ]

    def choose(self, infoset: int) -> None:
        for k in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(k)
            if item.data(0, Qt.ItemDataRole.UserRole) == infoset:
                self.list.setCurrentItem(item)
                return


class InfosetDetail(QWidget):
    """The chosen information set's numbers (table) and the formulas filled in (text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.explain = QTextBrowser()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, stretch=2)
        layout.addWidget(self.explain, stretch=3)

    def display(
        self,
        game: ExtensiveFormGame,
        tree: CompiledTree,
        infoset: int,
        snapshot: TreeSnapshot,
        record: IterationRecord | None,
    ) -> None:
        """Show ``infoset``: ``snapshot`` is the newest state (strategies and regrets per
        slot); ``record`` the last recorded iteration (None: only the snapshot is shown)."""
        first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
        slots = range(first, first + size)
        numbers = explained(game, tree, infoset, record) if record is not None else None
        self.table.setRowCount(size)
        self.table.setVerticalHeaderLabels([tree.slot_move[s] for s in slots])
        for row, s in enumerate(slots):
            if record is not None:
                values = (
                    record.cumulative_regret_before[s],
                    numbers["cfv"][row],
                    numbers["regret"][row],
                    record.cumulative_regret_after[s],
                    record.strategy_before[s],
                    record.strategy_after[s],
                    snapshot.average_strategy[s],
                )
            else:
                values = (
                    np.nan,
                    np.nan,
                    np.nan,
                    snapshot.cumulative_regret[s],
                    np.nan,
                    snapshot.current_strategy[s],
                    snapshot.average_strategy[s],
                )
            for column, value in enumerate(values):
                item = QTableWidgetItem("" if np.isnan(value) else format_number(value, ".4g"))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        self.explain.setHtml(explanation_html(game, tree, infoset, record, numbers))


class StrategyTable(QTableWidget):
    """The average (or any) behaviour strategy of every information set: one row each, the
    moves with their probabilities across."""

    def set_strategy(self, game: ExtensiveFormGame, tree: CompiledTree, strategy: np.ndarray) -> None:
        width = int(tree.infoset_size.max()) if tree.n_infosets else 0
        self.setColumnCount(2 + width)
        self.setHorizontalHeaderLabels(
            ["information set", "player", *[f"move {k + 1}" for k in range(width)]]
        )
        self.setRowCount(tree.n_infosets)
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for j in range(tree.n_infosets):
            first, size = int(tree.infoset_first_slot[j]), int(tree.infoset_size[j])
            cells = [tree.infoset_label[j], game.player_names[int(tree.infoset_player[j])]]
            slots = range(first, first + size)
            cells += [f"{tree.slot_move[s]}  {format_number(strategy[s], '.3f')}" for s in slots]
            for column, text in enumerate(cells):
                item = self.item(j, column)
                if item is None:
                    self.setItem(j, column, QTableWidgetItem(text))
                elif item.text() != text:
                    item.setText(text)


def explained(game: ExtensiveFormGame, tree: CompiledTree, infoset: int, record: IterationRecord) -> dict:
    """The lecture's quantities at ``infoset`` in ``record``'s traversal of its player:
    the histories with their reach P(h | pi_-i) and child values, P(J | pi_-i), v(J, m),
    U(pi | J), U(<pi>_m | J) and r^T(J, m)."""
    player = int(tree.infoset_player[infoset])
    trace = next(t for t in record.traversals if t.player in (None, player))
    others = [q for q in range(tree.n_players + 1) if q != player]
    first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
    histories = np.flatnonzero(tree.node_infoset == infoset)
    reach = trace.reach[others][:, histories].prod(axis=0)
    child_values = np.array(
        [[trace.values[player, tree.child_start[h] + k] for k in range(size)] for h in histories]
    )  # (histories, moves)
    sigma = record.strategy_before[first : first + size]
    cfv = trace.counterfactual_values[first : first + size]
    total = float(reach.sum())
    return {
        "player": player,
        "histories": histories,
        "reach": reach,
        "child_values": child_values,
        "reach_total": total,
        "cfv": cfv,
        "sigma": sigma,
        "value": float(sigma @ cfv),
        "regret": trace.instantaneous_regret[first : first + size],
    }


def _number(x: float) -> str:
    return format_number(x, ".4g")


def explanation_html(
    game: ExtensiveFormGame,
    tree: CompiledTree,
    infoset: int,
    record: IterationRecord | None,
    numbers: dict | None,
) -> str:
    player = int(tree.infoset_player[infoset])
    label = html.escape(tree.infoset_label[infoset])
    name = html.escape(game.player_names[player])
    first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
    moves = [html.escape(tree.slot_move[s]) for s in range(first, first + size)]
    head = f"<h3>Information set J = {label} of {name} (i = {player + 1})</h3>"
    if record is None or numbers is None:
        return head + "<p>Step one iteration (Step 1) to see this information set's update explained.</p>"
    t = record.iteration
    rows = []
    for k, h in enumerate(numbers["histories"]):
        values = ", ".join(
            f"U<sub>i</sub>(&pi; | h {m}) = {_number(v)}"
            for m, v in zip(moves, numbers["child_values"][k], strict=True)
        )
        path = " &gt; ".join(html.escape(m) for m in history(tree, int(h))) or "(root)"
        rows.append(
            f"<li>h = [{path}]: P(h | &pi;<sub>-i</sub>) = {_number(numbers['reach'][k])}; {values}</li>"
        )
    parts = [
        head,
        f"<p>Iteration T = {t}. Histories in J, with the probability that the others and chance "
        f"reach them and the value of each move below:</p><ul>{''.join(rows)}</ul>",
        "<p><b>Reach</b> P(J | &pi;<sub>-i</sub>) = &Sigma;<sub>h&isin;J</sub> P(h | &pi;<sub>-i</sub>) = "
        + " + ".join(_number(r) for r in numbers["reach"])
        + f" = {_number(numbers['reach_total'])}</p>",
        "<p><b>Counterfactual values</b> v(J, m) = &Sigma;<sub>h&isin;J</sub> P(h | &pi;<sub>-i</sub>) "
        "U<sub>i</sub>(&pi; | h m):<br>"
        + "<br>".join(f"v(J, {m}) = {_number(v)}" for m, v in zip(moves, numbers["cfv"], strict=True))
        + "</p>",
        "<p><b>Value of J</b> &Sigma;<sub>a</sub> &pi;<sup>T</sup>(J)(a) v(J, a) = "
        + " + ".join(
            f"{_number(s)}&middot;{_number(v)}" for s, v in zip(numbers["sigma"], numbers["cfv"], strict=True)
        )
        + f" = {_number(numbers['value'])}"
        + (
            "; per unit of reach U<sub>i</sub>(&pi; | J) = "
            + _number(numbers["value"] / numbers["reach_total"])
            if numbers["reach_total"] > 0
            else ""
        )
        + "</p>",
        "<p><b>Instantaneous regret</b> r<sup>T</sup>(J, m) = v(J, m) &minus; &Sigma;<sub>a</sub> "
        "&pi;<sup>T</sup>(J)(a) v(J, a) = P(J | &pi;<sub>-i</sub>) "
        "(U<sub>i</sub>(&lang;&pi;&rang;<sub>m</sub> | J) &minus; U<sub>i</sub>(&pi; | J)):<br>"
        + "<br>".join(
            f"r(J, {m}) = {_number(v)} &minus; {_number(numbers['value'])} = {_number(r)}"
            for m, v, r in zip(moves, numbers["cfv"], numbers["regret"], strict=True)
        )
        + "</p>",
        "<p><b>Cumulative regret</b> R<sup>T</sup>(J, m) = R<sup>T-1</sup>(J, m) + r<sup>T</sup>(J, m) "
        "(CFR; CFR+ clips at 0, linear and discounted CFR weigh both terms):<br>"
        + "<br>".join(
            f"R(J, {m}): {_number(record.cumulative_regret_before[s])} &rarr; "
            f"{_number(record.cumulative_regret_after[s])}"
            for m, s in zip(moves, range(first, first + size), strict=True)
        )
        + "</p>",
    ]
    after = record.cumulative_regret_after[first : first + size]
    positive = np.maximum(after, 0.0)
    if positive.sum() > 0:
        matched = " , ".join(
            f"&pi;(J)({m}) = {_number(p)} / {_number(positive.sum())} = {_number(p / positive.sum())}"
            for m, p in zip(moves, positive, strict=True)
        )
    else:
        matched = f"no positive regret: uniform, 1/{size} each"
    parts.append(
        "<p><b>Regret matching</b> &pi;<sup>T+1</sup>(J)(m) = [R<sup>T</sup>(J, m)]<sup>+</sup> / "
        f"&Sigma;<sub>a</sub> [R<sup>T</sup>(J, a)]<sup>+</sup>: {matched}</p>"
    )
    return "".join(parts)
