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

A game tree is ``"kind": "extensive-form"`` with ``"players"`` a list of names and a nested
``"root"`` node: ``{"kind": "chance", "moves": [{"move": "X", "probability": 0.5, "node":
{...}}, ...]}``, ``{"kind": "decision", "player": 1, "infoset": "1", "moves": [{"move": "L",
"node": {...}}, ...]}`` (players numbered from 1) or ``{"kind": "terminal", "payoffs": [1,
-1]}``; any node may have a ``"label"``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from rmviz.errors import FormatError, GameError
from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame, Node
from rmviz.games.normal_form import NormalFormGame

FORMAT_NAME = "rmviz-game"
FORMAT_VERSION = 1


def game_to_dict(game: NormalFormGame | ExtensiveFormGame) -> dict[str, Any]:
    """The JSON-ready dictionary of ``game``."""
    if isinstance(game, ExtensiveFormGame):
        assert game.root is not None
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "kind": "extensive-form",
            "title": game.title,
            "description": game.description,
            "players": list(game.player_names),
            "root": _node_to_dict(game.root),
        }
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


def _node_to_dict(node: Node) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": node.kind}
    if node.label:
        data["label"] = node.label
    if node.kind == TERMINAL:
        data["payoffs"] = list(node.payoffs)
        return data
    if node.kind == DECISION:
        assert node.player is not None
        data["player"] = node.player + 1
        data["infoset"] = node.infoset
    data["moves"] = [
        {
            "move": move,
            **({"probability": node.probabilities[k]} if node.kind == CHANCE else {}),
            "node": _node_to_dict(child),
        }
        for k, (move, child) in enumerate(zip(node.moves, node.children, strict=True))
    ]
    return data


def write_json(game: NormalFormGame | ExtensiveFormGame) -> str:
    """The game as rmviz JSON text."""
    return json.dumps(game_to_dict(game), indent=1) + "\n"


def read_json(text: str, filename: str = "<json>") -> NormalFormGame | ExtensiveFormGame:
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


def game_from_dict(data: Any, filename: str = "<json>") -> NormalFormGame | ExtensiveFormGame:
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
    if kind == "extensive-form":
        return _tree_from_dict(data, filename)
    if kind != "normal-form":
        raise FormatError(
            f"{filename}: unknown game kind {kind!r}; rmviz reads normal-form and extensive-form"
        )
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


def _tree_from_dict(data: dict[str, Any], filename: str) -> ExtensiveFormGame:
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise FormatError(f'{filename}: "players" must be a list of player names')
    n = len(players)

    def node(value: Any, where: str) -> Node:
        if not isinstance(value, dict):
            raise FormatError(f"{filename}: the node at {where} must be an object")
        kind, label = value.get("kind"), str(value.get("label", ""))
        try:
            if kind == TERMINAL:
                return Node(TERMINAL, payoffs=tuple(float(u) for u in value.get("payoffs", ())), label=label)
            moves = value.get("moves")
            if kind not in (CHANCE, DECISION) or not isinstance(moves, list):
                raise FormatError(
                    f'{filename}: the node at {where} needs "kind" terminal, chance or decision, '
                    'and a "moves" list'
                )
            names = tuple(str(m.get("move")) for m in moves)
            children = tuple(
                node(m.get("node"), f"{where} > {name}") for m, name in zip(moves, names, strict=True)
            )
            if kind == CHANCE:
                probabilities = tuple(float(m.get("probability")) for m in moves)
                return Node(CHANCE, names, children, probabilities=probabilities, label=label)
            player = int(value.get("player")) - 1
            if not 0 <= player < n:
                raise FormatError(
                    f"{filename}: the node at {where} belongs to player {player + 1}; players are 1..{n}"
                )
            return Node(
                DECISION, names, children, player=player, infoset=str(value.get("infoset", "")), label=label
            )
        except (TypeError, ValueError, AttributeError):
            raise FormatError(f"{filename}: the node at {where} has a malformed field") from None

    try:
        return ExtensiveFormGame(
            node(data.get("root"), "the root"),
            tuple(str(p) for p in players),
            str(data.get("title", "Untitled game")),
            str(data.get("description", "")),
        )
    except GameError as error:
        raise FormatError(f"{filename}: {error}") from None


__all__ = ["game_from_dict", "game_to_dict", "read_json", "write_json"]
