"""rmviz's own JSON format for games (versioned).

Example::

    {
      "format": "rmviz-game", "version": 1, "kind": "normal-form",
      "title": "Battle of the Partners", "description": "...",
      "players": [{"name": "Cat", "actions": ["Cinema", "Dancing"]},
                  {"name": "Dee", "actions": ["Cinema", "Dancing"]}],
      "payoffs": [[[10, 2], [0, 7]], [[7, 2], [0, 10]]]
    }

``payoffs`` is the tensor of shape ``(players, |A_1|, ..., |A_n|)`` as nested lists.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from rmviz.errors import FormatError, GameError
from rmviz.games.normal_form import NormalFormGame

FORMAT_NAME = "rmviz-game"
FORMAT_VERSION = 1


def game_to_dict(game: NormalFormGame) -> dict[str, Any]:
    """The JSON-ready dictionary of ``game``."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "kind": "normal-form",
        "title": game.title,
        "description": game.description,
        "players": [
            {"name": name, "actions": list(actions)}
            for name, actions in zip(game.player_names, game.action_names, strict=True)
        ],
        "payoffs": game.payoffs.tolist(),
    }


def write_json(game: NormalFormGame) -> str:
    """The game as rmviz JSON text."""
    return json.dumps(game_to_dict(game), indent=1) + "\n"


def read_json(text: str, filename: str = "<json>") -> NormalFormGame:
    """Parse rmviz JSON; a :class:`FormatError` says which field is wrong."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise FormatError(f"{filename}, line {error.lineno}: not valid JSON ({error.msg})") from None
    except ValueError as error:
        raise FormatError(f"{filename}: {error}") from None
    return game_from_dict(data, filename)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a payoff; payoffs must be finite numbers")


def game_from_dict(data: Any, filename: str = "<json>") -> NormalFormGame:
    """The game described by a dictionary in rmviz JSON form."""
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise FormatError(f'{filename}: not an rmviz game file (its "format" is not {FORMAT_NAME!r})')
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise FormatError(
            f"{filename}: rmviz game format version {version!r} is not supported; "
            f"this rmviz reads version {FORMAT_VERSION}"
        )
    kind = data.get("kind", "normal-form")
    if kind != "normal-form":
        raise FormatError(f"{filename}: games of kind {kind!r} are not supported yet")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise FormatError(f'{filename}: "players" must be a list of {{"name", "actions"}} objects')
    names = [str(p.get("name", f"Player {i + 1}")) for i, p in enumerate(players)]
    actions = []
    for i, player in enumerate(players):
        listed = player.get("actions")
        if not isinstance(listed, list):
            raise FormatError(f'{filename}: player {i + 1} has no "actions" list')
        actions.append(tuple(str(a) for a in listed))
    try:
        payoffs = np.array(data.get("payoffs"), dtype=np.float64)
    except (TypeError, ValueError):
        raise FormatError(
            f'{filename}: "payoffs" must be nested lists of numbers of shape (players, |A_1|, ...)'
        ) from None
    expected = (len(players), *(len(a) for a in actions))
    if payoffs.shape != expected:
        raise FormatError(
            f'{filename}: "payoffs" has shape {payoffs.shape}, but the players and actions '
            f"listed need shape {expected}"
        )
    try:
        return NormalFormGame(
            payoffs,
            tuple(names),
            tuple(actions),
            str(data.get("title", "Untitled game")),
            str(data.get("description", "")),
        )
    except GameError as error:
        raise FormatError(f"{filename}: {error}") from None


__all__ = ["game_from_dict", "game_to_dict", "read_json", "write_json"]
