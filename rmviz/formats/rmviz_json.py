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

Trees are read and written without recursion. Python's own JSON reader and writer recurse (three
JSON levels per move; they give up near 300 moves); deeper files are parsed by
:func:`_loads_deep`, and trees deeper than :data:`INDENTED_DEPTH` written, unindented, by
:func:`_dumps_deep`: both use explicit stacks.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from json.scanner import NUMBER_RE
from typing import Any

import numpy as np

from rmviz.errors import GameError, ReadError
from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame, Node
from rmviz.games.normal_form import PAYOFF_RULE, NormalFormGame, check_size
from rmviz.numbers import plain_zeros

FORMAT_NAME = "rmviz-game"
FORMAT_VERSION = 1
# rmviz's other JSON files, which hold a game but are not game files: what to do with them
OTHER_FORMATS = {
    "rmviz-session": "an rmviz session file, not a game file: open it in the app "
    "(rmviz FILE, or File > Open Session...)",
    "rmviz-run-data": 'an rmviz run data file, not a game file: its game is under "game" '
    "(rmviz.runner.record.read_run_game reads it)",
}


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


def _node_to_dict(root: Node) -> dict[str, Any]:
    top: dict[str, Any] = {}
    stack: list[tuple[Node, dict[str, Any]]] = [(root, top)]  # a node, the dict it fills
    while stack:
        node, data = stack.pop()
        data["kind"] = node.kind
        if node.label:
            data["label"] = node.label
        if node.kind == TERMINAL:
            data["payoffs"] = list(node.payoffs)
            continue
        if node.kind == DECISION:
            assert node.player is not None
            data["player"] = node.player + 1
            data["infoset"] = node.infoset
        data["moves"] = []
        for k, (move, child) in enumerate(zip(node.moves, node.children, strict=True)):
            below: dict[str, Any] = {}
            entry = {"move": move, **({"probability": node.probabilities[k]} if node.kind == CHANCE else {})}
            entry["node"] = below
            data["moves"].append(entry)
            stack.append((child, below))
    return top


def write_json(game: NormalFormGame | ExtensiveFormGame) -> str:
    """The game as rmviz JSON text (unindented for trees too deep for Python's json module)."""
    data = game_to_dict(game)
    deep = isinstance(game, ExtensiveFormGame) and _depth(game) > INDENTED_DEPTH
    return dumps_json(data, indent=None if deep else 1) + "\n"


def dumps_json(data: Any, indent: int | None = 1) -> str:
    """``data`` as JSON text: indented by ``indent``, or on one line (``None``); nested too
    deep for Python's json module (a game tree hundreds of moves deep), on one line by
    :func:`_dumps_deep`. Floats in their shortest round-trip form (``repr``: ``0.3``), a zero
    never as ``-0.0``; NaN and infinities are refused (``ValueError``), as JSON has none."""
    if indent is None:
        return _dumps_deep(data)
    try:
        return json.dumps(plain_zeros(data), indent=indent, allow_nan=False)
    except RecursionError:
        return _dumps_deep(data)


INDENTED_DEPTH = 100
"""Trees deeper than this many moves are written unindented (by :func:`_dumps_deep`)."""


def _depth(game: ExtensiveFormGame) -> int:
    assert game.root is not None
    deepest, stack = 0, [(0, game.root)]
    while stack:
        depth, node = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((depth + 1, child) for child in node.children)
    return deepest


class _Raw(str):
    """Text :func:`_dumps_deep` copies as it is (brackets, separators), unlike a string value."""


def _dumps_deep(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"))`` with an explicit stack instead of recursion."""
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            parts.append(item)
        elif isinstance(item, dict) and item:
            parts.append("{")
            stack.append(_Raw("}"))
            for k, (key, entry) in reversed(list(enumerate(item.items()))):
                stack.append(entry)
                stack.append(_Raw(("," if k else "") + encode_basestring_ascii(str(key)) + ":"))
        elif isinstance(item, list) and item:
            parts.append("[")
            stack.append(_Raw("]"))
            for k, entry in reversed(list(enumerate(item))):
                stack.append(entry)
                if k:
                    stack.append(_Raw(","))
        elif isinstance(item, str):
            parts.append(encode_basestring_ascii(item))
        elif isinstance(item, float) and math.isfinite(item):
            parts.append(float.__repr__(item + 0.0))  # + 0.0: never -0.0 (rmviz.numbers)
        else:
            parts.append(json.dumps(item, allow_nan=False))
    return "".join(parts)


def read_json(text: str, filename: str = "<json>") -> NormalFormGame | ExtensiveFormGame:
    """Parse rmviz JSON; a :class:`~rmviz.errors.ReadError` says which field is wrong."""
    return game_from_dict(parse_json(text, filename), filename)


def parse_json(text: str, filename: str = "<json>", numbers: str = "payoffs") -> Any:
    """The JSON value of ``text`` (nested as deep as :data:`MAX_NESTING`; NaN and infinities
    refused, saying ``numbers`` must be finite); a :class:`~rmviz.errors.ReadError` naming
    ``filename`` and the line otherwise."""

    def reject(name: str) -> float:
        raise ValueError(f"{name} is not one of the {numbers}; {numbers} must be finite numbers")

    refuse = _reject_constant if numbers == "payoffs" else reject
    try:
        try:
            return json.loads(text, parse_constant=refuse)
        except RecursionError:
            return _loads_deep(text, refuse)
    except json.JSONDecodeError as error:
        raise ReadError(filename, f"not valid JSON ({error.msg})", error.lineno) from None
    except ValueError as error:
        field = NAMED_CONSTANT.search(text)  # the field that holds it, where it has a name
        if field is None or numbers == "payoffs":
            raise ReadError(filename, str(error)) from None
        line = text.count("\n", 0, field.start()) + 1
        reason = f"{field[1]} is {field[2]}; {numbers} must be finite numbers"
        raise ReadError(filename, reason, line) from None


# a named field whose value is one of the constants JSON parsers accept but JSON lacks
NAMED_CONSTANT = re.compile(r'"([^"\\]{1,80})"\s*:\s*(NaN|-?Infinity)\b')


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a payoff; payoffs must be finite numbers")


_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, pos: int) -> int:
    """The position of the first non-space character at or after ``pos``."""
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]  # it always matches


# the C string scanner json.loads uses (not in typeshed's stubs): (text, index after the
# opening quote) -> (the string, index after the closing quote)
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_WORDS = {"true": True, "false": False, "null": None}
_CONSTANTS = ("NaN", "-Infinity", "Infinity")


MAX_NESTING = 300_000
"""The deepest JSON :func:`_loads_deep` reads: a tree 100,000 moves deep (three levels a move)."""


def _loads_deep(text: str, reject_constant: Callable[[str], float] | None = None) -> Any:
    """``json.loads(text)`` (NaN and infinities refused) with an explicit stack instead of
    recursion; errors are :class:`json.JSONDecodeError` like ``json.loads``'s."""
    open_: list[tuple[list[Any] | dict[str, Any], str]] = []  # containers being filled, their key
    pos = _skip(text, 0)

    def fail(message: str) -> json.JSONDecodeError:
        return json.JSONDecodeError(message, text, pos)

    def key(at: int) -> tuple[str, int]:
        at = _skip(text, at)
        if not text.startswith('"', at):
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
        name, at = _scanstring(text, at + 1)
        at = _skip(text, at)
        if not text.startswith(":", at):
            raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
        return name, _skip(text, at + 1)

    while True:
        # a value starts at pos
        value: Any
        char = text[pos : pos + 1]
        after = _skip(text, pos + 1)
        if char == "{" and not text.startswith("}", after):
            name, pos = key(after)
            open_.append(({}, name))
            if len(open_) > MAX_NESTING:
                raise fail(f"nested more than {MAX_NESTING:,} levels deep")
            continue
        if char == "[" and not text.startswith("]", after):
            open_.append(([], ""))
            if len(open_) > MAX_NESTING:
                raise fail(f"nested more than {MAX_NESTING:,} levels deep")
            pos = after
            continue
        if char and char in "{[":
            value, pos = ({} if char == "{" else []), after + 1
        elif char == '"':
            value, pos = _scanstring(text, pos + 1)
        elif (word := next((w for w in _WORDS if text.startswith(w, pos)), None)) is not None:
            value, pos = _WORDS[word], pos + len(word)
        elif (constant := next((c for c in _CONSTANTS if text.startswith(c, pos)), None)) is not None:
            (reject_constant or _reject_constant)(constant)
        elif (number := NUMBER_RE.match(text, pos)) is not None:
            integer, fraction, exponent = number.groups()
            value = (
                float(integer + (fraction or "") + (exponent or "")) if fraction or exponent else int(integer)
            )
            pos = number.end()
        else:
            raise fail("Expecting value")
        # the value is complete: put it in its container, closing the containers it completes
        while True:
            pos = _skip(text, pos)
            if not open_:
                if pos != len(text):
                    raise fail("Extra data")
                return value
            container, name = open_[-1]
            if isinstance(container, dict):
                container[name] = value
            else:
                container.append(value)
            char = text[pos : pos + 1]
            if char == ",":
                if isinstance(container, dict):
                    name, pos = key(pos + 1)
                    open_[-1] = (container, name)
                else:
                    pos = _skip(text, pos + 1)
                break
            if char != ("}" if isinstance(container, dict) else "]"):
                raise fail("Expecting ',' delimiter")
            open_.pop()
            value, pos = container, pos + 1


def _json_type(data: Any) -> str:
    """JSON's name for the type of a parsed value (an array, a string...)."""
    names = {
        list: "array",
        str: "string",
        bool: "boolean",
        type(None): "null",
        int: "number",
        float: "number",
    }
    return names.get(type(data), type(data).__name__)


def _short_repr(value: Any) -> str:
    """``repr(value)``, cut to 40 characters."""
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def check_header(data: Any, filename: str, name: str, versions: int | range, what: str) -> int:
    """The ``"version"`` of a file whose ``"format"`` is ``name``; refuse, naming ``filename``,
    any other file or a version not in ``versions`` (one version, or the range of those this
    rmviz reads: sessions read every version up to the one they write). The header every rmviz
    JSON file starts with; ``what``: "game", "session"."""
    readable = range(versions, versions + 1) if isinstance(versions, int) else versions
    if not isinstance(data, dict) or data.get("format") != name:
        if not isinstance(data, dict):
            why = f"its top level is a JSON {_json_type(data)}, not an object"
        elif "format" not in data:
            why = 'it has no "format"'
        else:
            why = f'its "format" is {_short_repr(data["format"])}'
        start = f'{{"format": "{name}", "version": {readable[-1]}, ...}}'
        raise ReadError(filename, f"not an rmviz {what} file: {why} (one is a JSON object {start})")
    found = data.get("version")
    if not isinstance(found, int | float) or found not in readable:
        shown = _short_repr(found)
        known = f"version {readable[0]}"
        if len(readable) > 1:
            known = f"versions {readable[0]} to {readable[-1]}"
        raise ReadError(
            filename,
            f"rmviz {what} format version {shown} is not supported; this rmviz reads {known}",
        )
    return int(found)


def game_from_dict(data: Any, filename: str = "<json>") -> NormalFormGame | ExtensiveFormGame:
    """The game described by a dictionary in rmviz JSON form."""
    if isinstance(data, dict) and isinstance(data.get("format"), str) and data["format"] in OTHER_FORMATS:
        raise ReadError(filename, OTHER_FORMATS[data["format"]])
    check_header(data, filename, FORMAT_NAME, FORMAT_VERSION, "game")
    kind = data.get("kind", "normal-form")
    if kind == "extensive-form":
        return _tree_from_dict(data, filename)
    if kind != "normal-form":
        raise ReadError(filename, f"unknown game kind {kind!r}; rmviz reads normal-form and extensive-form")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise ReadError(filename, '"players" must be a list of {"name", "actions"} objects')
    names = [
        _text(p.get("name", f"Player {i + 1}"), f"the name of player {i + 1}", filename)
        for i, p in enumerate(players)
    ]
    actions = []
    for i, player in enumerate(players):
        listed = player.get("actions")
        if not isinstance(listed, list):
            raise ReadError(filename, f'player {i + 1} has no "actions" list')
        actions.append(tuple(_text(a, f"an action name of player {i + 1}", filename) for a in listed))
    try:
        check_size([len(a) for a in actions], len(players))
    except GameError as error:
        raise ReadError(filename, str(error)) from None
    try:
        payoffs = np.array(data.get("payoffs"), dtype=np.float64)
    except OverflowError:
        raise ReadError(filename, f"a payoff is too large for a float; {PAYOFF_RULE}") from None
    except (TypeError, ValueError):
        raise ReadError(
            filename, '"payoffs" must be nested lists of numbers of shape (players, |A_1|, ...)'
        ) from None
    expected = (len(players), *(len(a) for a in actions))
    if payoffs.shape != expected:
        raise ReadError(
            filename,
            f'"payoffs" has shape {payoffs.shape}, but the players and actions listed need shape {expected}',
        )
    try:
        return NormalFormGame(
            payoffs,
            tuple(names),
            tuple(actions),
            _text(data.get("title", "Untitled game"), "the title", filename),
            _text(data.get("description", ""), "the description", filename),
        )
    except GameError as error:
        raise ReadError(filename, str(error)) from None


def _text(value: Any, what: str, filename: str) -> str:
    """A name or text field, which JSON must give as a string."""
    if not isinstance(value, str):
        raise ReadError(filename, f"{what} must be a string in quotes, not {json.dumps(value)[:40]}")
    return value


def _number(value: Any, what: str) -> float:
    """A JSON number as a float; booleans, strings and integers too large for a float refused."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} must be a number, not {json.dumps(value)[:40]}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{what} is too large for a float; {PAYOFF_RULE}") from None


def _tree_from_dict(data: dict[str, Any], filename: str) -> ExtensiveFormGame:
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise ReadError(filename, '"players" must be a list of player names')
    n = len(players)
    steps: list[tuple[int, str]] = [(0, "")]  # per node met: its parent's index, its move

    def where(at: int) -> str:
        names = []
        while at:
            at, name = steps[at]
            names.append(name)
        names.reverse()
        if len(names) > 2 * _SHOWN:
            return (
                f"the root > {' > '.join(names[:_SHOWN])} ... ({len(names) - 2 * _SHOWN} more) ... "
                f"{' > '.join(names[-_SHOWN:])}"
            )
        return " > ".join(["the root", *names])

    def node(value: Any, at: int) -> tuple[Node, list[tuple[str, Any]]]:
        """The node (children to come) and its (move name, child value) pairs."""
        if not isinstance(value, dict):
            raise ReadError(filename, f"the node at {where(at)} must be an object")
        kind = value.get("kind")
        try:
            label = _text(value.get("label", ""), "its label", filename)
            if kind == TERMINAL:
                payoffs = value.get("payoffs", ())
                if not isinstance(payoffs, list):
                    raise ValueError('"payoffs" must be a list of numbers')
                return Node(TERMINAL, payoffs=tuple(_number(u, "a payoff") for u in payoffs), label=label), []
            moves = value.get("moves")
            if kind not in (CHANCE, DECISION) or not isinstance(moves, list):
                raise ValueError('it needs "kind" terminal, chance or decision, and a "moves" list')
            if not all(isinstance(m, dict) for m in moves):
                raise ValueError('each of its "moves" must be an object {"move", "node"}')
            names = tuple(_text(m.get("move"), "a move name", filename) for m in moves)
            below = [(name, m.get("node")) for m, name in zip(moves, names, strict=True)]
            if kind == CHANCE:
                probabilities = tuple(_number(m.get("probability"), "a probability") for m in moves)
                return Node(CHANCE, names, probabilities=probabilities, label=label), below
            player = value.get("player")
            if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= n:
                raise ValueError(f"its player is {json.dumps(player)[:40]}; players are 1..{n}")
            infoset = _text(value.get("infoset", ""), "its information set", filename)
            return Node(DECISION, names, player=player - 1, infoset=infoset, label=label), below
        except ReadError as error:
            raise ReadError(filename, f"the node at {where(at)}: {error.reason}") from None
        except ValueError as error:
            raise ReadError(filename, f"the node at {where(at)}: {error}") from None

    # depth first with an explicit stack; a node's children are attached once all are built
    root: list[Node] = []
    families: list[tuple[Node, list[Node]]] = []
    stack: list[tuple[Any, int, list[Node]]] = [(data.get("root"), 0, root)]
    while stack:
        value, at, siblings = stack.pop()
        built, below = node(value, at)
        siblings.append(built)
        if below:
            children: list[Node] = []
            families.append((built, children))
            for name, child in reversed(below):
                steps.append((at, name))
                stack.append((child, len(steps) - 1, children))
    for built, children in families:
        built.children = tuple(children)
    try:
        return ExtensiveFormGame(
            root[0],
            tuple(_text(p, "a player name", filename) for p in players),
            _text(data.get("title", "Untitled game"), "the title", filename),
            _text(data.get("description", ""), "the description", filename),
        )
    except GameError as error:
        raise ReadError(filename, str(error)) from None


_SHOWN = 12  # moves shown at each end of a long history in messages


__all__ = ["dumps_json", "game_from_dict", "game_to_dict", "parse_json", "read_json", "write_json"]
