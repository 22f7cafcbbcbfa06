"""The matrix window's *Start* row: each player's strategy at iteration 1, typed.

One line, a strategy per player separated by ``;`` (``0.5, 0.5; 1/3, 1/3, 1/3``); a blank
part leaves that player at the game's default start (uniform, or the catalog's documented
start of a game whose uniform profile is its equilibrium). The placeholder shows the
default, naming where it comes from ("the catalog's start for rps: 1/2, 1/4, 1/4; ...");
the simplex's rings set the same text when dragged (:meth:`StartEdit.set_players`).
Read and checked by :func:`rmviz.solvers.matrix.start.parse_start`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from PySide6.QtWidgets import QLineEdit, QWidget

from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.start import default_start_note, parse_start, rounded, start_text, validated_start


class StartEdit(QLineEdit):
    """The starting strategies of the runs on :attr:`game` (set with :meth:`set_game`)."""

    def __init__(self, game: NormalFormGame, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolTip(
            "each player's strategy at iteration 1, ';' between players, e.g. 0.5, 0.5; 1/3, 1/3, 1/3 "
            "(blank: the default shown); or drag a ring on the simplex"
        )
        self.game = game
        self.set_game(game)

    def set_game(self, game: NormalFormGame) -> None:
        """Starts for ``game``: kept while the players' action counts are the same, cleared
        otherwise (a start of another shape is no strategy)."""
        if game.num_actions != self.game.num_actions:
            self.clear()
        self.game = game
        default = validated_start(game, None, {})
        uniform = all(np.allclose(p, 1.0 / p.size) for p in default.values())
        note = default_start_note(game)
        self.setPlaceholderText(
            "uniform"
            if uniform
            else f"default: {note}"
            if note is not None
            else f"default {start_text({i: p.round(4) for i, p in default.items()}, game.n_players)}"
        )

    def start(self) -> dict[int, list[float]] | None:
        """The typed start, checked against the game (ConfigError); None: the default."""
        return parse_start(self.text(), self.game)

    def show_start(self, start: Mapping[int, Sequence[float]] | None) -> None:
        """Show a saved start (None: blank, the default) without checking it."""
        self.setText("" if not start else start_text(start, self.game.n_players))

    def set_players(self, strategies: Mapping[int, Sequence[float]]) -> None:
        """Set the given players' starts (rounded to hundredths), keeping the others' text."""
        parts = self.text().split(";") + [""] * self.game.n_players
        for player, strategy in strategies.items():
            parts[player] = ", ".join(f"{p:g}" for p in rounded(strategy))
        parts = [part.strip() for part in parts[: self.game.n_players]]
        while parts and not parts[-1]:
            parts.pop()
        self.setText("; ".join(parts))
