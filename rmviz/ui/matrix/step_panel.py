"""The *Step* tab of the matrix window: the numbers of the iteration just taken, and steps
whose draws a person chooses.

After Step (or whenever the run is paused), a table per player (the strategy played, the
utility of each action, the instantaneous and cumulative regrets before and after, the
regret-matched next strategy and the average) and the formulas of the current algorithm with
these numbers filled in (:mod:`rmviz.present.step_text`); *Copy as LaTeX* puts the table on
the clipboard as a booktabs tabular (:mod:`rmviz.present.step_latex`). The numbers come from
a :class:`~rmviz.solvers.matrix.explain.Replay` of the run's game, config and script, never
from the running solver's arrays.

In sampled play each player's next action can be picked or typed (or left to ``draw``), and
*Play script* steps through ``rmviz step --actions`` text: one parser and one mechanism
(:mod:`rmviz.solvers.matrix.script`), so the window and the command line give the same table.
:attr:`StepPanel.script` is the run's script as plain data for session files.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rmviz.errors import ConfigError, RmvizError
from rmviz.games.normal_form import NormalFormGame
from rmviz.present.number_text import fraction
from rmviz.present.step_latex import step_tabular
from rmviz.present.step_text import (
    TABLE_COLUMNS,
    formulas,
    table_headers,
    table_rows,
    typeset_header,
    weights_line,
)
from rmviz.solvers.matrix.explain import IterationStep, Replay
from rmviz.solvers.matrix.script import (
    DRAW,
    Profile,
    parse_profile,
    parse_script,
    profile_names,
    script_text,
    scripted,
    step_scripted,
)
from rmviz.solvers.protocol import Solver

NEEDS_SAMPLED = (
    "Choosing each iteration's draws (as rmviz step --actions) needs sampled play with "
    "simultaneous updates: Play and Updates on the Solver panel (hidden in presentation mode: F5 leaves it)."
)


class StepPanel(QWidget):
    """Tables and explanation of one iteration, and the next iteration's chosen draws
    (see the module docstring); ``window`` is the matrix window (its run and messages)."""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.window = window
        self._solver: Solver | None = None  # the run whose iterations are shown
        self._replay: Replay | None = None
        self._game: NormalFormGame | None = None
        self._script: dict[int, Profile] = {}  # the run's scripted iterations
        self.shown: IterationStep | None = None
        self.heading = QLabel("Press Step to run one iteration and see its numbers.")
        self.heading.setWordWrap(True)
        self.step_button = QPushButton("Step 1")
        self.step_button.setToolTip("one iteration, drawing the actions chosen below")
        self.step_button.clicked.connect(self.step_chosen)
        self.latex_button = QPushButton("Copy as LaTeX")
        self.latex_button.setToolTip("the tables as a booktabs tabular (\\usepackage{booktabs})")
        self.latex_button.clicked.connect(self.copy_latex)
        self.latex_button.setEnabled(False)  # until an iteration's tables are shown
        top = QHBoxLayout()
        top.addWidget(self.heading, stretch=1)
        top.addWidget(self.step_button)
        top.addWidget(self.latex_button)
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
        layout.addLayout(self._script_row())
        layout.addWidget(scroll, stretch=3)
        layout.addWidget(self.explanation, stretch=2)
        self.tables: list[QTableWidget] = []
        self.titles: list[QLabel] = []

    def _script_row(self) -> QHBoxLayout:
        """Each player's next action (picked or typed, or ``draw``), and below a script to
        play (two lines, so the window keeps 1024 pixels); outside sampled play, one line
        saying what choosing needs."""
        self.choices: list[QComboBox] = []
        self.choice_labels: list[QLabel] = []
        self.choices_row = QHBoxLayout()
        self.choices_row.addWidget(QLabel("Next draws:"))
        self.choices_row.addStretch()
        self.script_edit = QLineEdit()
        self.script_edit.setToolTip("one iteration's actions per ';', a player's per ','; Enter plays it")
        self.script_edit.setMinimumWidth(80)
        self.script_edit.returnPressed.connect(self.play_script)
        play = self.play_button = QPushButton("Play script")
        play.clicked.connect(self.play_script)
        script_row = QHBoxLayout()
        script_row.addWidget(QLabel("Script:"))
        script_row.addWidget(self.script_edit, stretch=1)
        script_row.addWidget(play)
        self.chooser = QWidget()
        rows = QVBoxLayout(self.chooser)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.addLayout(self.choices_row)
        rows.addLayout(script_row)
        self.hint = QLabel(NEEDS_SAMPLED)
        self.hint.setWordWrap(True)
        self.choice_line = QHBoxLayout()
        self.choice_line.addWidget(self.chooser, stretch=1)
        self.choice_line.addWidget(self.hint, stretch=1)
        return self.choice_line

    # -- the run -----------------------------------------------------------------------------
    def run_started(self, solver: Solver) -> None:
        """A fresh run (paused at iteration 0): no iteration is scripted yet."""
        self._solver, self._replay, self.shown = solver, None, None
        self.latex_button.setEnabled(False)
        self._script = {}
        self._set_game(solver.game)
        config: Any = solver.config
        can_choose = config.play == "sampled" and config.updates == "simultaneous"
        self.chooser.setEnabled(can_choose)
        self.chooser.setVisible(can_choose)
        self.hint.setVisible(not can_choose)
        self.choice_line.invalidate()  # on a hidden tab Qt keeps the old minimum width
        self._note_script()

    def _set_game(self, game: NormalFormGame) -> None:
        """One editable choice per player: ``draw`` or an action (kept while the names are)."""
        names = (game.player_names, game.action_names)
        if self._game is not None and (self._game.player_names, self._game.action_names) == names:
            self._game = game
            return
        self._game = game
        example = [(0,) * game.n_players, (min(1, game.num_actions[0] - 1),) + (None,) * (game.n_players - 1)]
        self.script_edit.setPlaceholderText(
            script_text(game, example).replace(";", "; ") + "  (as rmviz step --actions)"
        )
        for widget in (*self.choices, *self.choice_labels):
            self.choices_row.removeWidget(widget)
            widget.deleteLater()
        self.choices.clear()
        self.choice_labels.clear()
        for name, actions in zip(game.player_names, game.action_names, strict=True):
            label, choice = QLabel(name), QComboBox()
            choice.setEditable(True)
            choice.addItems([DRAW, *actions])
            choice.setMinimumContentsLength(min(max(4, *map(len, actions)), 8))  # "Scissors" whole
            choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.choices_row.insertWidget(self.choices_row.count() - 1, label)
            self.choices_row.insertWidget(self.choices_row.count() - 1, choice)
            self.choice_labels.append(label)
            self.choices.append(choice)

    def chosen(self) -> Profile:
        """The next iteration's choices as typed or picked (a :class:`ConfigError` if one
        names no action)."""
        assert self._game is not None
        return parse_profile(self._game, [choice.currentText() for choice in self.choices])

    def choose(self, names: Sequence[str]) -> None:
        """Pick or type each player's next action (tests; ``draw`` leaves it to chance)."""
        for choice, name in zip(self.choices, names, strict=True):
            choice.setEditText(name)

    def step_chosen(self) -> None:
        """*Step 1*: one iteration drawing the chosen actions (a plain step if none is, or
        outside sampled play)."""
        if not self.chooser.isEnabled():
            self.window.run.step(1)
            return
        try:
            profile = self.chosen()
        except ConfigError as error:
            self.window.show_error(str(error))
            return
        if not scripted(profile):
            self.window.run.step(1)
            return
        self.step_profiles([profile])

    def play_script(self) -> None:
        """*Play script*: one iteration per profile of the script text."""
        assert self._game is not None
        try:
            script = parse_script(self._game, self.script_edit.text())
        except ConfigError as error:
            self.window.show_error(f"Script, {error}")
            return
        self.step_profiles(script)

    def step_profiles(self, profiles: Sequence[Profile]) -> int:
        """Run one iteration per profile, paused, on the window's thread while the run's
        worker waits; stops at the first that cannot be drawn and says why. Returns how many
        ran."""
        run = self.window.run
        if run.thread is None:
            return 0
        self.window.sessions.cancel_catch_up()
        loop = run.thread.loop
        loop.pause()
        self.window.before_stepping()
        for k, profile in enumerate(profiles):
            try:
                t = loop.exclusive(lambda solver, p=profile: _step(solver, p))
            except RmvizError as error:
                where = f"iteration {k + 1} of the script: " if len(profiles) > 1 else ""
                self.window.show_error(f"{where}{error}")
                run.update_buttons()
                return k
            self._record(t, profile)
        run.update_buttons()
        return len(profiles)

    def _record(self, t: int, profile: Profile) -> None:
        """Iteration ``t`` drew ``profile``."""
        if scripted(profile):
            self._script[t] = profile
            if self._replay is not None:
                self._replay.script[t] = profile
        self._note_script()

    def _note_script(self) -> None:
        """The run's script so far, as ``--actions`` text, in the script field's tooltip."""
        text = script_text(self._game, self.profiles()) if self._game is not None else ""
        self.play_button.setToolTip(f"this run so far: --actions {text!r}" if text else "")

    # -- the script as plain data (session files) ------------------------------------------
    def profiles(self) -> list[Profile]:
        """Iterations 1 to the last scripted one, ``None`` for a player who drew."""
        assert self._game is not None
        last = max(self._script, default=0)
        drawn: Profile = (None,) * self._game.n_players
        return [self._script.get(t, drawn) for t in range(1, last + 1)]

    @property
    def script(self) -> list[list[str]]:
        """The run's draws from iteration 1 to the last chosen one: per iteration each
        player's action name, or ``"draw"`` where it was left to chance."""
        if self._game is None:
            return []
        return [profile_names(self._game, profile) for profile in self.profiles()]

    def set_script(self, script: Sequence[Sequence[str]]) -> None:
        """Say which iterations of the run (already restored, the same game) drew what, as
        :attr:`script` gave it; the tables then explain them as they ran. A
        :class:`ConfigError` when a name fits no action of the game."""
        assert self._game is not None
        parsed = {}
        for t, names in enumerate(script, start=1):
            try:
                parsed[t] = parse_profile(self._game, list(names))
            except ConfigError as error:
                raise ConfigError(f"the Step tab's script, iteration {t}: {error}") from None
        self._script = {t: p for t, p in parsed.items() if scripted(p)}
        self._replay, self.shown = None, None
        self._note_script()

    # -- showing an iteration ----------------------------------------------------------------
    def update_from(self, solver: Solver, iteration: int, running: bool) -> None:
        """Show iteration ``iteration`` of ``solver``'s run (a matrix-game solver: only its
        immutable game and config are read) when paused."""
        if running:
            self.heading.setText("Running: pause or press Step to see an iteration's numbers.")
            return
        if solver is not self._solver:
            self.run_started(solver)
        if iteration < 1:
            self.heading.setText("Iteration 0: press Step to run one iteration and see its numbers.")
            self.shown = None
            self._show_tables(None)
            return
        if self.shown is not None and self.shown.iteration == iteration:
            return
        if self._replay is None:
            self._replay = Replay(solver.game, solver.config, self._script)
        try:
            self.shown = self._replay.explain(iteration)
        except RmvizError as error:
            self._replay, self.shown = None, None
            self.heading.setText(f"Iteration {iteration} cannot be explained: {error}")
            self.latex_button.setEnabled(False)
            return
        self._show(self.shown)

    def copy_latex(self) -> str:
        """*Copy as LaTeX*: the shown iteration's tables on the clipboard (returned too)."""
        text = step_tabular(self.shown) if self.shown is not None else ""
        if text:
            QGuiApplication.clipboard().setText(text)
        return text

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
        self.latex_button.setEnabled(step is not None)  # nothing to copy before an iteration
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
            table.setHorizontalHeaderLabels([typeset_header(name) for name in table_headers(player)])
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

    def rows(self, player: int) -> list[tuple[str, ...]]:
        """Every cell of a player's table, row by row (tests)."""
        table = self.tables[player]
        return [
            tuple(table.item(r, c).text() for c in range(table.columnCount()))
            for r in range(table.rowCount())
        ]


def _step(solver: Any, profile: Profile) -> int:
    """Iteration ``t`` of ``solver``, drawing ``profile``; returns ``t``."""
    step_scripted(solver, profile)
    return int(solver.iteration)
