"""The *Step* tab of the matrix window: the numbers of the iteration just taken.

After Step (or whenever the run is paused), a table per player (the strategy played, the
utility of each action, the instantaneous and cumulative regrets before and after, the
regret-matched next strategy and the average) and the formulas of the current algorithm with
these numbers filled in (:mod:`rmviz.present.step_text`). The numbers come from a
:class:`~rmviz.solvers.matrix.explain.Replay` of the run's game and config, never from the
running solver's arrays.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rmviz.present.number_text import fraction
from rmviz.present.step_text import TABLE_COLUMNS, formulas, table_rows, weights_line
from rmviz.solvers.matrix.explain import IterationStep, Replay
from rmviz.solvers.protocol import Solver


class StepPanel(QWidget):
    """Tables and explanation of one iteration; ``step`` is the window's Step 1."""

    def __init__(self, step: Callable[[], None]) -> None:
        super().__init__()
        self._solver: Solver | None = None  # the run whose iterations are shown
        self._replay: Replay | None = None
        self.shown: IterationStep | None = None
        self.heading = QLabel("Press Step to run one iteration and see its numbers.")
        self.heading.setWordWrap(True)
        button = QPushButton("Step 1")
        button.clicked.connect(step)
        top = QHBoxLayout()
        top.addWidget(self.heading, stretch=1)
        top.addWidget(button)
        self.tables_box = QWidget()
        self.tables_layout = QVBoxLayout(self.tables_box)
        self.tables_layout.setContentsMargins(0, 0, 0, 0)
        self.tables_layout.addStretch()  # tables stay at the top, titles their own height
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.tables_box)
        self.explanation = QPlainTextEdit()
        self.explanation.setReadOnly(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(scroll, stretch=3)
        layout.addWidget(self.explanation, stretch=2)
        self.tables: list[QTableWidget] = []
        self.titles: list[QLabel] = []

    def update_from(self, solver: Solver, iteration: int, running: bool) -> None:
        """Show iteration ``iteration`` of ``solver``'s run (a matrix-game solver: only its
        immutable game and config are read) when paused."""
        if running:
            self.heading.setText("Running: pause or press Step to see an iteration's numbers.")
            return
        if solver is not self._solver:
            self._solver, self._replay, self.shown = solver, Replay(solver.game, solver.config), None
        if iteration < 1:
            self.heading.setText("Iteration 0: press Step to run one iteration and see its numbers.")
            self._show_tables(None)
            return
        if self.shown is not None and self.shown.iteration == iteration:
            return
        assert self._replay is not None
        self.shown = self._replay.explain(iteration)
        self._show(self.shown)

    def _show(self, step: IterationStep) -> None:
        self.heading.setText(
            f"<b>Iteration {step.iteration}</b> of {step.algorithm} ({step.play} play, "
            f"{step.updates} updates): {weights_line(step)}"
        )
        self._show_tables(step)
        text = []
        for i, player in enumerate(step.players):
            text.append(f"{player.name}:")
            text += ["  " + line for line in formulas(step, i)]
        self.explanation.setPlainText("\n".join(text))

    def _show_tables(self, step: IterationStep | None) -> None:
        players = step.players if step is not None else ()
        while len(self.tables) < len(players):
            title, table = QLabel(), QTableWidget()
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.verticalHeader().setVisible(False)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            self.tables_layout.insertWidget(self.tables_layout.count() - 1, title)
            self.tables_layout.insertWidget(self.tables_layout.count() - 1, table)
            self.titles.append(title)
            self.tables.append(table)
        for k, (title, table) in enumerate(zip(self.titles, self.tables, strict=True)):
            visible = k < len(players)
            title.setVisible(visible)
            table.setVisible(visible)
            if not visible:
                continue
            player = players[k]
            drawn = f", drew {player.actions[player.action]}" if player.action is not None else ""
            fixed = " (fixed)" if not player.learning else ""
            title.setText(f"<b>{player.name}</b>{fixed}: payoff u = {fraction(player.value)}{drawn}")
            rows = table_rows(player)
            table.setColumnCount(len(TABLE_COLUMNS))
            table.setHorizontalHeaderLabels(list(TABLE_COLUMNS))
            table.setRowCount(len(rows))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.setItem(r, c, QTableWidgetItem(cell))
            height = table.horizontalHeader().height() + sum(table.rowHeight(r) for r in range(len(rows)))
            table.setFixedHeight(height + 4)

    def cell(self, player: int, action: int, column: str) -> str:
        """The text of one cell (tests)."""
        item = self.tables[player].item(action, TABLE_COLUMNS.index(column))
        return item.text() if item is not None else ""
