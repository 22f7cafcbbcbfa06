"""The matrix window's *Equilibria* tab: the CE checker and the game's exact references.

Type a joint distribution over action profiles (``2/9, 4/9, 1/9, 2/9``; or edit its cells,
or take the running solver's empirical joint distribution) and see every CE and CCE
constraint with its sum written out, its value, its slack and whether it holds, the CE and
CCE gaps, the payoffs and the welfare (:mod:`rmviz.solvers.matrix.correlated`, exact
fractions in games of moderate size). Below, the references: a two-player zero-sum game's
value and equilibrium (the star on the simplex), and the welfare-maximising CE and CCE by
linear programming, computed on a worker thread while the tab is shown so that the window
never waits for HiGHS.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from fractions import Fraction
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rmviz.errors import RmvizError
from rmviz.games.normal_form import NormalFormGame
from rmviz.present.correlated_text import RULES_HTML, check_html, constraint_rows, verdict
from rmviz.solvers.exact import Reference
from rmviz.solvers.matrix.correlated import (
    LP_MAX_PROFILES,
    CorrelatedOptimum,
    JointCheck,
    Kind,
    best_correlated,
    check_joint,
    joint_tokens,
    profile_label,
)
from rmviz.solvers.rational import format_number, parse_number, rational

VIOLATED = QColor("#fde0dc")  # a light red behind violated constraints
BINDING = QColor("#fff4d6")  # a light amber behind constraints that hold with equality
POLL_MS = 50
PROMPT = "Type a joint distribution and press Check (or Return), or edit its cells.<br>" + RULES_HTML


class JointModel(QAbstractTableModel):
    """The typed entries of the joint distribution: a grid (the row player's actions down,
    the column player's across) in two-player games, one row per profile otherwise. Cells
    show the entry typed; editing one emits ``edited`` with the new entries, or ``error``."""

    edited = Signal(list)
    error = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.game: NormalFormGame | None = None
        self.entries: list[str] = []
        self.check: JointCheck | None = None

    def set_game(self, game: NormalFormGame) -> None:
        self.beginResetModel()
        self.game = game
        if len(self.entries) != math.prod(game.num_actions):
            self.entries, self.check = [], None
        self.endResetModel()

    def set_entries(self, entries: list[str], check: JointCheck | None) -> None:
        self.beginResetModel()
        self.entries, self.check = entries, check
        self.endResetModel()

    @property
    def grid(self) -> bool:
        return self.game is not None and self.game.n_players == 2

    def index_of(self, row: int, column: int) -> int:
        """The entry (profile in table order) of a cell."""
        assert self.game is not None
        return row * self.game.num_actions[1] + column if self.grid else row

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.game is None:
            return 0
        return self.game.num_actions[0] if self.grid else math.prod(self.game.num_actions)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.game is None:
            return 0
        return self.game.num_actions[1] if self.grid else 1

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.game is None:
            return None
        k = self.index_of(index.row(), index.column())
        entry = self.entries[k] if self.entries else ""
        if role == Qt.ItemDataRole.EditRole:
            return entry
        if role == Qt.ItemDataRole.DisplayRole:
            return format_number(parse_number(entry, "")) if entry else ""
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            profile = np.unravel_index(k, self.game.num_actions)
            payoffs = ", ".join(f"{u:g}" for u in self.game.payoffs[(slice(None), *profile)])
            tip = f"{profile_label(self.game, profile)}: payoffs {payoffs}"
            if self.check is not None:
                tip += f"\np(s) = {format_number(self.check.joint[profile])}"
            return tip
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or self.game is None:
            return None
        if self.grid:
            player = 0 if orientation == Qt.Orientation.Vertical else 1
            return self.game.action_names[player][section]
        if orientation == Qt.Orientation.Vertical:
            return profile_label(self.game, np.unravel_index(section, self.game.num_actions))
        return "p(s)"

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: QModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or self.game is None:
            return False
        k = self.index_of(index.row(), index.column())
        text = str(value).strip()
        profile = profile_label(self.game, np.unravel_index(k, self.game.num_actions))
        try:
            if parse_number(text, profile) < 0:
                raise RmvizError(f"{profile}: probabilities cannot be negative")
        except RmvizError as error:
            self.error.emit(str(error))
            return False
        entries = list(self.entries) or ["0"] * math.prod(self.game.num_actions)
        entries[k] = text
        self.edited.emit(entries)
        return True


class ConstraintModel(QAbstractTableModel):
    """Every CE constraint, then every CCE constraint, of one check: who, the sum written
    out, its value, the slack and whether it holds (violated rows red, binding ones amber)."""

    HEADERS = ("", "player i", "advised b", "plays a'", "sum of p(s)·(u_i(a', s_-i) - u_i(s))")
    HEADERS += ("value", "slack", "status")

    def __init__(self) -> None:
        super().__init__()
        self.check: JointCheck | None = None
        self.rows: list[tuple[str, ...]] = []
        self.statuses: list[str] = []

    def set_check(self, check: JointCheck | None) -> None:
        self.beginResetModel()
        self.check = check
        self.rows, self.statuses = [], []
        if check is not None:
            for kind in ("CE", "CCE"):
                constraints = check.ce_constraints if kind == "CE" else check.cce_constraints
                self.rows += [(kind, *row) for row in constraint_rows(check, kind, times="·")]  # type: ignore[arg-type]
                self.statuses += [verdict(c) for c in constraints]
        self.endResetModel()

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self.rows[row][column]
        if role == Qt.ItemDataRole.BackgroundRole:
            status = self.statuses[row]
            return VIOLATED if status == "VIOLATED" else BINDING if status == "binds" else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= 5:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def cell(self, row: int, header: str) -> str:
        """The text of one cell (tests)."""
        return self.rows[row][self.HEADERS.index(header)]


def _best_both(game: NormalFormGame) -> dict[str, CorrelatedOptimum | str]:
    """The best CE and CCE (worker thread); a failure becomes its message."""
    optima: dict[str, CorrelatedOptimum | str] = {}
    for kind in ("CE", "CCE"):
        try:
            optima[kind] = best_correlated(game, kind)  # type: ignore[arg-type]
        except RmvizError as error:
            optima[kind] = str(error)
        except Exception as error:  # shown in the tab, never a crash
            optima[kind] = f"the linear programme failed unexpectedly: {type(error).__name__}: {error}"
    return optima


class EquilibriaPanel(QWidget):
    """The CE checker and the references of one game. ``run_joint`` returns the running
    solver's empirical joint distribution, or a sentence saying why there is none."""

    error = Signal(str)

    def __init__(self, run_joint: Callable[[], np.ndarray | str]) -> None:
        super().__init__()
        self.run_joint = run_joint
        self.game: NormalFormGame | None = None
        self.reference: Reference | None = None
        self.check: JointCheck | None = None
        self.optima: dict[str, CorrelatedOptimum | str] = {}
        self._optima_game: NormalFormGame | None = None
        self._active = False
        self._stopped = False
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rmviz-lp")
        self._future: Future[dict[str, CorrelatedOptimum | str]] | None = None
        self._future_game: NormalFormGame | None = None
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(POLL_MS)
        self._poll_timer.timeout.connect(self._poll)

        self.text = QLineEdit()
        self.text.setPlaceholderText(
            "one per profile in table order, e.g. 2/9, 4/9, 1/9, 2/9 (weights 2, 4, 1, 2 are normalised)"
        )
        self.text.returnPressed.connect(self.check_text)
        check_button = QPushButton("Check")
        check_button.clicked.connect(self.check_text)
        self.run_button = QPushButton("Use the current run's joint")
        self.run_button.clicked.connect(self.use_run_joint)
        uniform = QPushButton("Uniform")
        uniform.clicked.connect(self.use_uniform)
        typed = QHBoxLayout()
        label = QLabel("p(s):")
        label.setToolTip(
            "One probability per action profile, in the payoff table's order (the first player's "
            "action slowest), separated by commas or spaces"
        )
        typed.addWidget(label)
        typed.addWidget(self.text, stretch=1)
        typed.addWidget(check_button)
        typed.addWidget(uniform)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addStretch()

        self.summary = QLabel(PROMPT)
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary.setMinimumWidth(80)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.joint_model = JointModel()
        self.joint_model.edited.connect(self._cells_edited)
        self.joint_model.error.connect(self.error)
        self.joint_view = QTableView()
        self.joint_view.setModel(self.joint_model)
        self.joint_view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.constraint_model = ConstraintModel()
        self.constraints = QTableView()
        self.constraints.setModel(self.constraint_model)
        self.constraints.setWordWrap(False)
        self.constraints.verticalHeader().setVisible(False)
        header = self.constraints.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        top = QWidget()
        top_layout = QHBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.joint_view, stretch=2)
        top_layout.addWidget(self.summary, stretch=3)
        tables = QSplitter(Qt.Orientation.Vertical)
        tables.addWidget(top)
        tables.addWidget(self.constraints)
        tables.setSizes([150, 330])

        self.references = QLabel()
        self.references.setWordWrap(True)
        self.references.setTextFormat(Qt.TextFormat.RichText)
        self.references.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.references.setMinimumWidth(80)  # wraps: the window still fits small screens
        self.best_buttons = {kind: QPushButton(f"Check best {kind}") for kind in ("CE", "CCE")}
        for kind, button in self.best_buttons.items():
            button.setToolTip(f"Check the welfare-maximising {kind} the LP found")
            button.clicked.connect(lambda _=False, k=kind: self.use_optimum(k))
            button.setEnabled(False)
        box = QGroupBox("Exact references (LP, HiGHS)")
        box_layout = QHBoxLayout(box)
        box_layout.addWidget(self.references, stretch=1)
        best = QVBoxLayout()
        for button in self.best_buttons.values():
            best.addWidget(button)
        best.addStretch()
        box_layout.addLayout(best)

        layout = QVBoxLayout(self)
        layout.addLayout(typed)
        layout.addLayout(buttons)
        layout.addWidget(tables, stretch=1)
        layout.addWidget(box)

    # -- the game ----------------------------------------------------------------------------
    def set_game(self, game: NormalFormGame, reference: Reference) -> None:
        """Show ``game`` (after any edit): the joint typed stays and is checked again when it
        still has one entry per profile; the references are recomputed."""
        if game is self.game:
            return
        self.game, self.reference = game, reference
        self.joint_model.set_game(game)
        self.run_button.setEnabled(game.n_players == 2)
        self.run_button.setToolTip(
            "" if game.n_players == 2 else "runs track the joint distribution of two-player games only"
        )
        entries = self.joint_model.entries
        self.check = None
        if entries:
            try:
                self._show_check(check_joint(game, entries), entries)
            except RmvizError as error:
                self.summary.setText(f"The joint typed does not fit the edited game: {error}")
        else:
            self.constraint_model.set_check(None)
            self.summary.setText(PROMPT)
        self.optima, self._optima_game = {}, None
        self._show_references()
        self._refresh_optima()

    def set_active(self, active: bool) -> None:
        """The tab is shown (``active``): compute what it shows if the game changed meanwhile."""
        self._active = active
        self._refresh_optima()

    # -- the checker ---------------------------------------------------------------------------
    def check_text(self, text: str | None = None) -> bool:
        """Check the joint typed (or ``text``, which is then shown); an invalid one is
        refused with a message (``error``) and the check shown stays."""
        if text is not None:
            self.text.setText(text)
        if self.game is None:
            return False
        try:
            entries = joint_tokens(self.text.text())
            check = check_joint(self.game, entries)
        except RmvizError as error:
            self.error.emit(str(error))
            return False
        self._show_check(check, entries)
        return True

    def use_run_joint(self) -> bool:
        """Check the running solver's empirical joint distribution (its shortest exact decimals)."""
        joint = self.run_joint()
        if isinstance(joint, str):
            self.error.emit(joint)
            return False
        total = float(joint.sum())
        return self.check_text(", ".join(repr(float(p) / total) for p in joint.ravel()))

    def use_uniform(self) -> bool:
        if self.game is None:
            return False
        count = math.prod(self.game.num_actions)
        return self.check_text(", ".join([str(Fraction(1, count))] * count))

    def use_optimum(self, kind: str) -> bool:
        """Check the best CE or CCE the LP found."""
        optimum = self.optima.get(kind)
        if not isinstance(optimum, CorrelatedOptimum):
            return False
        values = optimum.joint.ravel()
        return self.check_text(", ".join(str(p) if optimum.exact else repr(float(p)) for p in values))

    def _cells_edited(self, entries: list[str]) -> None:
        self.check_text(", ".join(entries))

    def _show_check(self, check: JointCheck, entries: list[str]) -> None:
        self.check = check
        self.joint_model.set_entries(entries, check)
        self.constraint_model.set_check(check)
        self.summary.setText(check_html(check))

    # -- the references ------------------------------------------------------------------------
    def _refresh_optima(self) -> None:
        """Start the LPs for the game shown, on the worker, if the tab is shown and they are
        not there yet (one at a time: a game edited meanwhile is solved when this one ends)."""
        game = self.game
        if not self._active or self._stopped or game is None or self._optima_game is game:
            return
        profiles = math.prod(game.num_actions)
        if profiles > LP_MAX_PROFILES:
            note = (
                f"not computed: the linear programmes handle games of up to {LP_MAX_PROFILES:,} "
                f"action profiles, this one has {profiles:,}"
            )
            self.optima, self._optima_game = {"CE": note, "CCE": note}, game
            self._show_references()
            return
        if self._future is not None:
            return
        self._future, self._future_game = self._executor.submit(_best_both, game), game
        self._poll_timer.start()
        self._show_references()

    def _poll(self) -> None:
        if self._future is None or not self._future.done():
            return
        future, game = self._future, self._future_game
        self._future = self._future_game = None
        self._poll_timer.stop()
        if game is self.game:
            self.optima, self._optima_game = future.result(), game
            self._show_references()
        self._refresh_optima()

    @property
    def computing(self) -> bool:
        """Whether the LPs of a game are being solved."""
        return self._future is not None

    def _show_references(self) -> None:
        game, reference = self.game, self.reference
        if game is None or reference is None:
            return
        lines = []
        solution = reference.zero_sum
        if solution is not None:
            values = ", ".join(
                f"{name} {format_number(v)}"
                for name, v in zip(game.player_names, solution.values, strict=True)
            )
            how = "exact" if solution.exact else "HiGHS's floats"
            lines.append(f"<b>Zero-sum game: value</b> {values} ({how}).")
        elif reference.note:
            lines.append(f"<b>Zero-sum game</b>: {reference.note}.")
        if reference.equilibrium is not None:
            strategies = "; ".join(
                f"{name} ({', '.join(format_number(rational(p)) for p in strategy)})"
                for name, strategy in zip(game.player_names, reference.equilibrium, strict=True)
            )
            source = "the catalog's" if reference.source == "catalog" else "the LP's"
            lines.append(f"The star on the simplex: {source} equilibrium {strategies}.")
        for kind in ("CE", "CCE"):
            optimum = self.optima.get(kind)
            self.best_buttons[kind].setEnabled(isinstance(optimum, CorrelatedOptimum))
            if optimum is None:
                lines.append(f"<b>Best {kind}</b> (max welfare): computing..." if self.computing else "")
            elif isinstance(optimum, str):
                lines.append(f"<b>Best {kind}</b>: {optimum}.")
            else:
                lines.append(f"<b>Best {kind}</b> (max welfare): {self._optimum_text(optimum)}")
        self.references.setText("<br>".join(line for line in lines if line))

    def _optimum_text(self, optimum: CorrelatedOptimum) -> str:
        game = optimum.check.game
        support = [tuple(int(a) for a in s) for s in optimum.check.support]
        shown = ", ".join(f"{profile_label(game, s)} {format_number(optimum.joint[s])}" for s in support[:6])
        if len(support) > 6:
            shown += f", ... ({len(support) - 6} more)"
        how = "exact" if optimum.exact else "floats"
        return (
            f"welfare <b>{format_number(optimum.welfare)}</b> with {shown} ({how}, {optimum.seconds:.2f} s)."
        )

    def optimum(self, kind: Kind) -> CorrelatedOptimum | str | None:
        """The best ``kind`` computed for the game shown (a message if it was not), or None."""
        return self.optima.get(kind) if self._optima_game is self.game else None

    def stop(self) -> None:
        """Stop polling; an LP under way ends on its own (its result is dropped)."""
        self._stopped = True
        self._poll_timer.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)
