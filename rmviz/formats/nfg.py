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

from pathlib import Path

import numpy as np

from rmviz.errors import FormatError, GameError
from rmviz.formats.gambit_tokens import TokenStream, format_number, quote, read_header, tokenize
from rmviz.games.normal_form import NormalFormGame, check_size


def read_nfg(text: str, filename: str = "<nfg>") -> NormalFormGame:
    """Parse the text of a .nfg file; every problem is a :class:`FormatError` naming the line."""
    stream = TokenStream(tokenize(text, filename), filename)
    title, players, precision = read_header(stream, "NFG", "1")
    if len(players) < 2:
        raise stream.error(precision, f"the game lists {len(players)} player(s); rmviz needs at least 2")
    shape, actions = _read_strategies(stream, len(players))
    try:
        check_size(shape, len(players))
    except GameError as error:
        raise FormatError(f"{filename}: {error}") from None
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
        raise stream.error(extra, f"unexpected {extra.text!r} after the last payoff")
    try:
        return NormalFormGame(payoffs, tuple(players), actions, title or Path(filename).stem, comment)
    except GameError as error:
        raise FormatError(f"{filename}: {error}") from None


def _read_strategies(stream: TokenStream, n: int) -> tuple[tuple[int, ...], tuple[tuple[str, ...], ...]]:
    opening = stream.expect("{", "'{' opening the strategies")
    token = stream.peek()
    if token is not None and token.kind == "{":
        stream.pos -= 1
        labels: list[list[str]] = []
        stream.expect("{", "'{'")
        while (token := stream.peek()) is not None and token.kind == "{":
            labels.append(stream.strings_in_braces(f"the strategies of player {len(labels) + 1}"))
        stream.expect("}", "'}' closing the strategy lists")
        if len(labels) != n:
            raise stream.error(
                opening, f"strategy lists for {len(labels)} players, but {n} players are named"
            )
        for i, names in enumerate(labels):
            if not names:
                raise stream.error(opening, f"player {i + 1} has no strategies")
        return tuple(len(s) for s in labels), tuple(tuple(s) for s in labels)
    counts: list[int] = []
    while (token := stream.next("'}' closing the strategy counts")).kind != "}":
        if token.kind != "number" or not token.text.isdigit() or int(token.text) < 1:
            raise stream.error(token, f"expected a positive number of strategies, found {token.text!r}")
        counts.append(int(token.text))
    if len(counts) != n:
        raise stream.error(opening, f"strategy counts for {len(counts)} players, but {n} players are named")
    return tuple(counts), tuple(tuple(str(a + 1) for a in range(k)) for k in counts)


def _profiles_player1_fastest(rows: np.ndarray, n: int, shape: tuple[int, ...]) -> np.ndarray:
    """Rows of ``(u_1..u_n)`` listed with player 1 varying fastest, as a ``(n, *shape)`` tensor.

    "First index varies fastest" is Fortran order.
    """
    return np.stack([rows[:, i].reshape(shape, order="F") for i in range(n)])


def _read_payoff_form(stream: TokenStream, n: int, shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape)) * n
    values = np.empty(count)
    for k in range(count):
        token = stream.peek()
        if token is None or token.kind != "number":
            profile, player = divmod(k, n)
            where = f"found {token.text!r}" if token is not None else "the file ends"
            anchor = token or stream.tokens[-1]
            raise stream.error(
                anchor,
                f"expected {count} payoffs ({n} per profile), {where} at payoff {k + 1} "
                f"(player {player + 1} of profile {profile + 1})",
            )
        values[k] = stream.number("a payoff")
    return _profiles_player1_fastest(values.reshape(-1, n), n, shape)


def _read_outcome_form(stream: TokenStream, n: int, shape: tuple[int, ...]) -> np.ndarray:
    stream.expect("{", "'{' opening the outcomes")
    outcomes = [np.zeros(n)]  # outcome 0: the null outcome
    while (token := stream.peek()) is not None and token.kind == "{":
        stream.next("'{'")
        stream.expect("string", "the outcome's name in quotes")
        values = []
        while (token := stream.next("'}' closing an outcome")).kind != "}":
            if token.kind == ",":
                continue
            if token.kind != "number":
                raise stream.error(
                    token, f"expected a payoff in outcome {len(outcomes)}, found {token.text!r}"
                )
            stream.pos -= 1
            values.append(stream.number("a payoff"))
        if len(values) != n:
            raise stream.error(
                token, f"outcome {len(outcomes)} has {len(values)} payoffs; {n} players need {n}"
            )
        outcomes.append(np.array(values))
    stream.expect("}", "'}' closing the outcomes")
    table = np.array(outcomes)
    count = int(np.prod(shape))
    indices = np.empty(count, dtype=np.int64)
    for k in range(count):
        token = stream.next(f"{count} outcome numbers, one per profile")
        if token.kind != "number" or not token.text.isdigit():
            raise stream.error(token, f"expected an outcome number for profile {k + 1}, found {token.text!r}")
        index = int(token.text)
        if index >= len(table):
            raise stream.error(
                token,
                f"profile {k + 1} names outcome {index}, but only {len(table) - 1} are defined",
            )
        indices[k] = index
    return _profiles_player1_fastest(table[indices], n, shape)


def write_nfg(game: NormalFormGame) -> str:
    """The game as .nfg text in the payoff form, with player and strategy names."""
    n = game.n_players
    players = " ".join(quote(p) for p in game.player_names)
    strategies = " ".join("{ " + " ".join(quote(a) for a in names) + " }" for names in game.action_names)
    # Rows of (u_1..u_n), one per profile with player 1 varying fastest (Fortran order).
    rows = np.stack([game.payoffs[i].ravel(order="F") for i in range(n)], axis=1)
    lines = [
        f"NFG 1 R {quote(game.title)} {{ {players} }}",
        f"{{ {strategies} }}",
        quote(game.description),
        "",
    ]
    lines += [" ".join(format_number(float(v)) for v in row) for row in rows]
    return "\n".join(lines) + "\n"
