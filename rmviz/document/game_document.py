"""A normal-form game being edited, with an undo/redo history (no Qt).

Payoff edits store only the cells they change (cheap for large games); structural edits
(actions, players, names, the zero-sum toggle) store the games before and after. The undo
machinery is :class:`~rmviz.document.history.EditHistory`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rmviz.document.history import EditHistory
from rmviz.errors import GameError
from rmviz.games.normal_form import MAX_PLAYERS, NormalFormGame, check_size


@dataclass(frozen=True)
class _PayoffEdit:
    description: str
    cells: tuple[tuple[int, ...], ...]  # action profiles
    before: np.ndarray  # (len(cells), n_players)
    after: np.ndarray

    def apply(self, document: GameDocument, forward: bool) -> None:
        payoffs = document.game.payoffs.copy()
        values = self.after if forward else self.before
        for profile, row in zip(self.cells, values, strict=True):
            index: tuple[Any, ...] = (slice(None), *profile)
            payoffs[index] = row
        document.game = document.game.with_payoffs(payoffs)


@dataclass(frozen=True)
class _Replace:
    description: str
    before: NormalFormGame
    after: NormalFormGame
    zero_sum_before: bool
    zero_sum_after: bool

    def apply(self, document: GameDocument, forward: bool) -> None:
        document.game = self.after if forward else self.before
        document.zero_sum = self.zero_sum_after if forward else self.zero_sum_before


class GameDocument(EditHistory):
    """The game on screen: edits, undo/redo, file path, modified flag, subscribers."""

    def __init__(self, game: NormalFormGame, path: Path | None = None) -> None:
        super().__init__(path)
        self.game = game
        self.zero_sum = game.n_players == 2 and game.is_zero_sum()

    # -- edits -----------------------------------------------------------------------------
    def set_payoffs(
        self,
        cells: Sequence[tuple[int, ...]],
        values: Sequence[Sequence[float]],
        description: str = "Edit payoffs",
    ) -> None:
        """Set every player's payoff at each profile in ``cells`` (one undo step)."""
        after = _checked(self.game, cells, values)
        before = np.array([self.game.payoff_at(p) for p in cells])
        if np.array_equal(before, after):
            return
        self._push(_PayoffEdit(description, tuple(tuple(p) for p in cells), before, after))

    def grow_and_set(
        self,
        extra: dict[int, int],
        cells: Sequence[tuple[int, ...]],
        values: Sequence[Sequence[float]],
        description: str = "Paste payoffs",
    ) -> None:
        """Add ``extra[player]`` actions to each player named (zero payoffs, named
        ``Action k``), then set every player's payoff at each profile in ``cells`` of the
        grown game: one undo step (a pasted block larger than the room left)."""
        if not any(extra.values()):
            self.set_payoffs(cells, values, description)
            return
        game = self.game
        for player, count in extra.items():
            game = _with_actions(game, player, count)
        after = _checked(game, cells, values)
        payoffs = game.payoffs.copy()
        for profile, row in zip(cells, after, strict=True):
            index: tuple[Any, ...] = (slice(None), *profile)
            payoffs[index] = row
        self.replace_game(game.with_payoffs(payoffs), description)

    def replace_game(self, game: NormalFormGame, description: str, zero_sum: bool | None = None) -> None:
        """Replace the whole game (structural edits, loading a catalog game) as one undo step."""
        zero_sum_after = self.zero_sum if zero_sum is None else zero_sum
        self._push(_Replace(description, self.game, game, self.zero_sum, zero_sum_after))

    def rename_player(self, player: int, name: str) -> None:
        names = list(self.game.player_names)
        names[player] = _clean(name, "a player name")
        self.replace_game(
            self._rebuild(player_names=tuple(names)), f"Rename {self.game.player_names[player]}"
        )

    def rename_action(self, player: int, action: int, name: str) -> None:
        actions = [list(a) for a in self.game.action_names]
        old = actions[player][action]
        actions[player][action] = _clean(name, "an action name")
        self.replace_game(self._rebuild(action_names=tuple(tuple(a) for a in actions)), f"Rename {old}")

    def add_action(self, player: int, name: str | None = None) -> None:
        """Append an action for ``player`` with zero payoffs."""
        game = _with_actions(self.game, player, 1, name)
        self.replace_game(game, f"Add action {game.action_names[player][-1]}")

    def remove_action(self, player: int, action: int) -> None:
        game = self.game
        if game.num_actions[player] <= 1:
            raise GameError(f"{game.player_names[player]!r} needs at least one action")
        actions = [list(a) for a in game.action_names]
        removed = actions[player].pop(action)
        payoffs = np.delete(game.payoffs, action, axis=player + 1)
        self.replace_game(
            self._rebuild(payoffs=payoffs, action_names=tuple(tuple(a) for a in actions)),
            f"Remove action {removed}",
        )

    def add_player(self, name: str | None = None) -> None:
        """Add a player with one action and zero payoffs; everyone else's payoffs are kept."""
        game = self.game
        if game.n_players >= MAX_PLAYERS:
            raise GameError(f"rmviz edits games of at most {MAX_PLAYERS} players")
        taken = set(game.player_names)
        name = _clean(
            name or next(f"Player {k}" for k in range(game.n_players + 1, 100) if f"Player {k}" not in taken),
            "a player name",
        )
        payoffs = np.concatenate([game.payoffs[..., np.newaxis], np.zeros((1, *game.num_actions, 1))], axis=0)
        self.replace_game(
            NormalFormGame(
                payoffs,
                (*game.player_names, name),
                (*game.action_names, ("Action 1",)),
                game.title,
                game.description,
            ),
            f"Add player {name}",
            zero_sum=False,
        )

    def remove_player(self, player: int, keep_action: int = 0) -> None:
        """Remove ``player``, keeping the payoffs of the others where it plays ``keep_action``."""
        game = self.game
        if game.n_players <= 2:
            raise GameError("a game needs at least two players")
        payoffs = np.delete(np.take(game.payoffs, keep_action, axis=player + 1), player, axis=0)
        names = game.player_names[:player] + game.player_names[player + 1 :]
        actions = game.action_names[:player] + game.action_names[player + 1 :]
        self.replace_game(
            NormalFormGame(payoffs, names, actions, game.title, game.description),
            f"Remove player {game.player_names[player]}",
            zero_sum=len(names) == 2 and bool(np.allclose(payoffs[0], -payoffs[1])),
        )

    def set_zero_sum(self, on: bool) -> None:
        """Zero-sum mode (two players): the column player's payoffs become the negated row's."""
        if on == self.zero_sum:
            return
        if on and self.game.n_players != 2:
            raise GameError("zero-sum editing is for two-player games")
        game = self.game
        if on:
            payoffs = game.payoffs.copy()
            payoffs[1] = -payoffs[0]
            game = game.with_payoffs(payoffs)
        self.replace_game(game, "Zero-sum on" if on else "Zero-sum off", zero_sum=on)

    def _rebuild(
        self,
        payoffs: np.ndarray | None = None,
        player_names: tuple[str, ...] | None = None,
        action_names: tuple[tuple[str, ...], ...] | None = None,
    ) -> NormalFormGame:
        game = self.game
        return NormalFormGame(
            game.payoffs if payoffs is None else payoffs,
            game.player_names if player_names is None else player_names,
            game.action_names if action_names is None else action_names,
            game.title,
            game.description,
        )


def _with_actions(game: NormalFormGame, player: int, count: int, name: str | None = None) -> NormalFormGame:
    """``game`` with ``count`` more actions of ``player``, zero payoffs, named ``name`` (one
    action) or ``Action k`` from k = the player's number of actions + 1, skipping names taken."""
    shape = list(game.num_actions)
    shape[player] += count
    check_size(shape, game.n_players)  # a paste of millions of rows is refused, not allocated
    actions = [list(a) for a in game.action_names]
    if name is not None:
        actions[player].append(_clean(name, "an action name"))
    else:
        taken = set(actions[player])
        free = (f"Action {k}" for k in itertools.count(len(taken) + 1) if f"Action {k}" not in taken)
        actions[player].extend(itertools.islice(free, count))
    pad = [(0, 0)] * (game.n_players + 1)
    pad[player + 1] = (0, count)
    return NormalFormGame(
        np.pad(game.payoffs, pad),
        game.player_names,
        tuple(tuple(a) for a in actions),
        game.title,
        game.description,
    )


def _checked(
    game: NormalFormGame, cells: Sequence[tuple[int, ...]], values: Sequence[Sequence[float]]
) -> np.ndarray:
    """``values`` as a ``(len(cells), n_players)`` array, after checking that they are finite
    and that every profile in ``cells`` is one of ``game``'s."""
    n = game.n_players
    after = np.array(values, dtype=np.float64).reshape(len(cells), n)
    if not np.all(np.isfinite(after)):
        raise GameError("payoffs must be finite numbers")
    for profile in cells:
        if len(profile) != n or any(not 0 <= a < k for a, k in zip(profile, game.num_actions, strict=True)):
            raise GameError(f"profile {profile} is outside the {game.shape_label} game")
    return after


def _clean(name: str, what: str) -> str:
    name = name.strip()
    if not name:
        raise GameError(f"{what} cannot be empty")
    return name
