"""Gambit's normal-form format (.nfg), version 1: both the payoff and the outcome form.

Layout (Gambit manual, "The .nfg file format")::

    NFG 1 R "title" { "Player 1" "Player 2" } { 3 2 }          # counts, or
    NFG 1 R "title" { "P1" "P2" } { { "a" "b" "c" } { "x" "y" } }  # strategy labels
    "optional comment"
    payoff form:  u_1(s) u_2(s) ... for every profile s, player 1's strategy varying fastest
    outcome form: { { "name" u_1, u_2 } ... } then one outcome number per profile
                  (0 = the null outcome, zero for everybody)

rmviz writes the payoff form with strategy labels; pygambit reads it unchanged.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from rmviz.errors import GameError, ReadError
from rmviz.formats.gambit_tokens import (
    TokenStream,
    format_number,
    normalized_labels,
    quote,
    read_header,
)
from rmviz.games.normal_form import MAX_PAYOFF, MAX_PLAYERS, MIN_PLAYERS, NormalFormGame, check_size


def read_nfg(text: str, filename: str = "<nfg>") -> NormalFormGame:
    """Parse the text of a .nfg file; every problem is a :class:`ReadError` naming the line.

    Sizes declared in the header are checked against the memory budget (and the body against
    them) before anything is allocated; numbers are read exactly, as Gambit reads them, and
    must be finite payoffs within the range games accept; repeated or empty player and
    strategy names are made distinct as Gambit makes them (``x_1``, ``x_2``).
    """
    stream = TokenStream(text, filename)
    title, players, precision = read_header(stream, "NFG", "1")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise stream.error(
            precision, f"the game lists {len(players)} player(s); rmviz reads {MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    shape, labels = _read_strategies(stream, len(players))
    comment = ""
    token = stream.peek()
    if token is not None and token.kind == "string":
        comment = stream.next("a comment").text
    token = stream.peek()
    if token is not None and token.kind == "{":
        payoffs = _read_outcome_form(stream, len(players), shape)
    else:
        payoffs = _read_payoff_form(stream, len(players), shape)
    extra = stream.peek()
    if extra is not None:
        raise stream.error(extra, f"unexpected {extra.text[:40]!r} after the last payoff")
    actions = tuple(tuple(normalized_labels(names)) for names in labels) or tuple(
        tuple(str(a + 1) for a in range(k)) for k in shape
    )  # named once the body has shown the sizes are real
    try:
        return NormalFormGame(
            payoffs, tuple(normalized_labels(players)), actions, title or Path(filename).stem, comment
        )
    except GameError as error:
        raise ReadError(filename, str(error)) from None


def _read_strategies(stream: TokenStream, n: int) -> tuple[tuple[int, ...], list[list[str]]]:
    """The number of strategies of each player, and their labels if the file gives them."""
    opening = stream.expect("{", "'{' opening the strategies")
    token = stream.peek()
    if token is not None and token.kind == "{":
        labels: list[list[str]] = []
        while (token := stream.peek()) is not None and token.kind == "{":
            labels.append(stream.strings_in_braces(f"the strategies of player {len(labels) + 1}"))
        stream.expect("}", "'}' closing the strategy lists")
        counts = [len(names) for names in labels]
    else:
        counts = []
        while (token := stream.peek()) is not None and token.kind != "}":
            counts.append(stream.count("a number of strategies", at_least=1))
        stream.expect("}", "'}' closing the strategy counts")
        labels = []
    if len(counts) != n:
        raise stream.error(
            opening, f"strategies are given for {len(counts)} players, but {n} players are named"
        )
    if 0 in counts:
        raise stream.error(opening, f"player {counts.index(0) + 1} has no strategies")
    try:
        check_size(counts, n)  # before any per-strategy name exists
    except GameError as error:
        raise stream.error(opening, str(error)) from None
    return tuple(counts), labels


def _profiles_player1_fastest(rows: np.ndarray, n: int, shape: tuple[int, ...]) -> np.ndarray:
    """Rows of ``(u_1..u_n)`` listed with player 1 varying fastest, as a ``(n, *shape)`` tensor.

    "First index varies fastest" is Fortran order.
    """
    return np.stack([rows[:, i].reshape(shape, order="F") for i in range(n)])


def _read_payoff_form(stream: TokenStream, n: int, shape: tuple[int, ...]) -> np.ndarray:
    count = math.prod(shape) * n
    words = stream.rest().split()
    values = _fast_payoffs(words) if len(words) == count else None
    if values is not None:
        stream.skip_rest()
    else:  # rationals, a mistake, or a wrong count: read each exactly, so a message names the line
        read: list[float] = []
        for k in range(count):
            token = stream.peek()
            if token is None or token.kind != "number":
                profile, player = divmod(k, n)
                where = f"found {token.text[:40]!r}" if token is not None else "the file ends"
                raise stream.error(
                    token or stream.last,
                    f"expected {count} payoffs ({n} per profile), {where} at payoff {k + 1} "
                    f"(player {player + 1} of profile {profile + 1})",
                )
            read.append(stream.payoff(f"payoff {k + 1}"))
        values = np.array(read)
    return _profiles_player1_fastest(values.reshape(-1, n), n, shape)


def _fast_payoffs(words: list[str]) -> np.ndarray | None:
    """Decimal payoffs converted in one pass (``float`` rounds correctly, as reading exactly and
    then rounding would), or ``None`` when a word needs the exact reader: a rational such as
    1/3, a word ``float`` reads but Gambit does not (``inf``, ``1_0``, non-ASCII digits), or a
    payoff out of range."""
    if not all(word.isascii() and "_" not in word for word in words):
        return None
    try:
        values = np.fromiter(map(float, words), dtype=np.float64, count=len(words))
    except ValueError:
        return None
    with np.errstate(invalid="ignore"):
        in_range = np.abs(values) <= MAX_PAYOFF
    return values if bool(in_range.all()) else None


def _read_outcome_form(stream: TokenStream, n: int, shape: tuple[int, ...]) -> np.ndarray:
    stream.expect("{", "'{' opening the outcomes")
    outcomes = [np.zeros(n)]  # outcome 0: the null outcome
    while (token := stream.peek()) is not None and token.kind == "{":
        stream.next("'{'")
        stream.expect("string", "the outcome's name in quotes")
        values = []
        while (token := stream.peek()) is not None and token.kind != "}":
            if token.kind == ",":
                stream.next(",")
                continue
            values.append(stream.payoff(f"a payoff of outcome {len(outcomes)}"))
        token = stream.next("'}' closing an outcome")
        if len(values) != n:
            raise stream.error(
                token, f"outcome {len(outcomes)} has {len(values)} payoffs; {n} players need {n}"
            )
        outcomes.append(np.array(values))
    stream.expect("}", "'}' closing the outcomes")
    table = np.array(outcomes)
    count = math.prod(shape)
    left = len(stream.rest().split())
    if left < count:
        raise stream.error(
            stream.last, f"expected {count} outcome numbers, one per profile; the file has {left}"
        )
    indices = np.empty(count, dtype=np.int64)
    for k in range(count):
        token = stream.peek()
        index = stream.count(f"the outcome number of profile {k + 1}")
        if index >= len(table):
            assert token is not None
            raise stream.error(
                token,
                f"profile {k + 1} names outcome {index}, but only {len(table) - 1} are defined",
            )
        indices[k] = index
    return _profiles_player1_fastest(table[indices], n, shape)


def write_nfg(game: NormalFormGame) -> str:
    """The game as .nfg text in the payoff form, with player and strategy names."""
    n = game.n_players
    players = " ".join(quote(p, "the player name") for p in game.player_names)
    strategies = " ".join(
        "{ " + " ".join(quote(a, f"the strategy name of {p!r}") for a in names) + " }"
        for p, names in zip(game.player_names, game.action_names, strict=True)
    )
    # Rows of (u_1..u_n), one per profile with player 1 varying fastest (Fortran order).
    rows = np.stack([game.payoffs[i].ravel(order="F") for i in range(n)], axis=1)
    lines = [
        f"NFG 1 R {quote(game.title, 'the title', label=False)} {{ {players} }}",
        f"{{ {strategies} }}",
        quote(game.description, "the description", label=False),
        "",
    ]
    lines += [" ".join(format_number(float(v)) for v in row) for row in rows]
    return "\n".join(lines) + "\n"
