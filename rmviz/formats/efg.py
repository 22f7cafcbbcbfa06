"""Gambit's extensive-form format (.efg), version 2.

Layout (Gambit manual, "The .efg file format"): a header
``EFG 2 R "title" { "Player 1" "Player 2" } "comment"`` and then the tree in prefix order,
one node per record::

    c "name" infoset ["infoset name" { "move" prob ... }] outcome ["name" { payoffs }]
    p "name" player infoset ["infoset name" { "move" ... }] outcome ["name" { payoffs }]
    t "name" outcome ["name" { payoffs }]

An information set's (or outcome's) description is given at its first occurrence only;
outcomes on non-terminal nodes add to every terminal below them; outcome 0 is "none".
Information sets follow Gambit's rules, as pygambit 16 reads files
(:meth:`_TreeReader._infoset`); chance probabilities are exact rationals, rescaled to sum to
1 (:meth:`_TreeReader._rescaled`). rmviz writes one outcome per terminal, chance
probabilities as exact rationals.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import BinaryIO, Literal

from rmviz.errors import GameError, ReadError
from rmviz.formats.efg_records import (
    Fallback,
    Progress,
    RecordReader,
    TooBig,
    information_set_labels,
    no_cycle_collection,
    read_records,
)
from rmviz.formats.files import MAX_FILE_BYTES, open_regular_file, read_text_file
from rmviz.formats.gambit_tokens import (
    Token,
    TokenStream,
    format_number,
    normalized_labels,
    quote,
    read_header,
)
from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame, Node

PROBABILITY_TOLERANCE = Fraction(1, 10**9)
"""How far from 1 the chance probabilities of a .efg file may sum (they are then rescaled)."""

INDENT_LEVELS = 32
""":func:`write_efg` indents nodes by their depth, up to this many levels (deep trees stay small)."""

CHUNK_BYTES = 1 << 22
""":func:`read_efg_file` reads and decodes a file this many bytes at a time."""

MAX_PENDING_CHARS = 1 << 26
"""Text :func:`read_efg_file` keeps waiting for the end of a record (a header, or records
not yet complete): past this many characters it stops streaming, and the file is read
whole instead (within :data:`~rmviz.formats.files.MAX_FILE_BYTES`)."""


def read_efg(text: str, filename: str = "<efg>", progress: Progress | None = None) -> ExtensiveFormGame:
    """Parse the text of a .efg file; problems are :class:`ReadError` naming the line.

    As Gambit (src/games/file.cc): numbers are read exactly; outcome 0 (no outcome) cannot be
    given a name or payoffs; an outcome given again must repeat its name and payoffs; repeated
    or empty player names and move labels of one node are made distinct (``x_1``, ``x_2``).

    The records are read by :mod:`rmviz.formats.efg_records` (regular expressions, many
    records at a time, into flat arrays); a file it does not read is read again token by
    token here, with an explicit stack (depth is limited by memory only), which names the
    line of the problem. ``progress(histories)`` is called at every 65,536 histories of the
    fast path; when it returns False the reading stops with
    :class:`~rmviz.errors.Cancelled`. A tree needing more than
    :func:`~rmviz.formats.efg_records.memory_limit` is refused (:class:`ReadError`).
    """
    stream = TokenStream(text, filename)
    title, players, precision = read_header(stream, "EFG", "2")
    if not players:
        raise stream.error(precision, "the game names no players")
    comment = ""
    token = stream.peek()
    if token is not None and token.kind == "string":
        comment = stream.next("a comment").text
    names = tuple(normalized_labels(players))
    start = stream.offset()
    try:
        fast = read_records(text, start, players, PROBABILITY_TOLERANCE, progress)
    except TooBig as error:
        raise ReadError(filename, str(error)) from None
    if fast is not None and fast[1] == len(text):
        try:
            return ExtensiveFormGame.from_flat(fast[0], names, title, comment)
        except GameError:
            pass  # the token reader refuses it too, naming the line where it can
    reader = _TreeReader(stream, players)
    root = reader.read()
    extra = stream.peek()
    if extra is not None:
        raise stream.error(extra, f"unexpected {extra.text!r} after the last node of the tree")
    reader.label_information_sets()
    try:
        return ExtensiveFormGame(root, names, title, comment)
    except GameError as error:
        raise ReadError(filename, str(error)) from None


def read_efg_file(
    path: str | Path,
    progress: Progress | None = None,
    *,
    chunk_bytes: int = CHUNK_BYTES,
    limit: int | None = None,
) -> ExtensiveFormGame:
    """Read a .efg file as a stream: ``chunk_bytes`` at a time, decoded (UTF-8, a byte-order
    mark allowed) as they come, the records read by
    :class:`~rmviz.formats.efg_records.RecordReader` and only the unread end of the last
    one kept for the next chunk. So memory is the tree's arrays, not the text, whatever the
    file's size; the tree may need at most ``limit`` bytes
    (:func:`~rmviz.formats.efg_records.memory_limit`, half the machine's memory, when
    None), a :class:`ReadError` past it.

    A file the streaming reader cannot read (records not spelled as rmviz and Gambit write
    them, a mistake anywhere, text that is not UTF-8) is read again whole, as
    :func:`read_efg` reads text, whose token reader names the line of a mistake: the same
    game, or the same message, as before streaming. That needs the whole text in memory,
    so only files up to :data:`~rmviz.formats.files.MAX_FILE_BYTES` are read again; a
    larger one is refused naming the line where streaming stopped."""
    filename = str(path)
    handle, size = open_regular_file(path)
    with handle, no_cycle_collection():
        try:
            result = _stream(handle, filename, progress, chunk_bytes, limit)
        except OSError as error:
            raise ReadError(filename, f"cannot read ({error.strerror or error})") from None
    if isinstance(result, ExtensiveFormGame):
        return result
    if size <= MAX_FILE_BYTES:
        return _read_whole(path, filename, progress)
    raise result


def _read_whole(path: str | Path, filename: str, progress: Progress | None) -> ExtensiveFormGame:
    """The file's whole text read by :func:`read_efg` (where streaming stopped)."""
    return read_efg(read_text_file(path), filename, progress)


_BOM = codecs.BOM_UTF8


def _stream(
    handle: BinaryIO, filename: str, progress: Progress | None, chunk_bytes: int, limit: int | None
) -> ExtensiveFormGame | ReadError:
    """The game of a .efg file read a chunk at a time, or why streaming stopped (the
    message for a file too large to read again whole)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    text, position = "", 0
    lines = 0  # line breaks in the text already dropped
    decoded = 0  # bytes given to the decoder
    start: bytes | None = b""  # the file's first bytes, until a byte-order mark is ruled out
    header: tuple[str, list[str], str] | None = None
    reader: RecordReader | None = None
    while True:
        data = handle.read(chunk_bytes)
        final = not data
        if start is not None:  # a byte-order mark is skipped (as "utf-8-sig" does)
            start += data
            if len(start) < len(_BOM) and not final:
                continue
            data = start
            if start.startswith(_BOM):
                data, decoded = start[len(_BOM) :], len(_BOM)
            start = None
        held = len(decoder.getstate()[0])
        try:
            piece = decoder.decode(data, final)
        except UnicodeDecodeError as error:
            at = decoded - held + error.start
            return ReadError(filename, f"not a text file ({error.reason} at byte {at})")
        decoded += len(data)
        if position:
            lines += text.count("\n", 0, position)
            text = text[position:]
            position = 0
        text += piece
        if reader is None:
            found = _header(text, final)
            if found is None:
                if len(text) <= MAX_PENDING_CHARS:
                    continue
                found = False
            if found is False:
                return _stopped(filename, 1)
            title, players, comment, position = found
            header = (title, players, comment)
            reader = RecordReader(players, PROBABILITY_TOLERANCE, progress, limit)
        try:
            position = reader.feed(text, position, final)
        except Fallback:
            return _stopped(filename, lines + text.count("\n", 0, reader.at) + 1)
        except TooBig as error:
            raise ReadError(filename, str(error), lines + text.count("\n", 0, reader.at) + 1) from None
        if final:
            break
        if len(text) - position > MAX_PENDING_CHARS:
            return _stopped(filename, lines + text.count("\n", 0, position) + 1)
    assert header is not None
    try:
        flat = reader.finish()
    except Fallback:
        return _stopped(filename, lines + text.count("\n") + 1)
    title, players, comment = header
    try:
        return ExtensiveFormGame.from_flat(flat, tuple(normalized_labels(players)), title, comment)
    except GameError as error:
        return ReadError(filename, str(error))


def _header(text: str, final: bool) -> tuple[str, list[str], str, int] | Literal[False] | None:
    """The title, players and comment of a .efg file's header at the start of ``text``, and
    where the records begin; None when more text may complete it, False when it is not one
    the streaming reader reads (the token reader will say why)."""
    stream = TokenStream(text, "")
    try:
        title, players, _ = read_header(stream, "EFG", "2")
        token = stream.peek()
        if token is None:
            return False if final else None
        comment = stream.next("a comment").text if token.kind == "string" else ""
    except ReadError:  # a token cut off, or a mistake
        return False if final else None
    if not players:
        return False
    return title, players, comment, stream.offset()


def _stopped(filename: str, line: int) -> ReadError:
    """Why a file over :data:`~rmviz.formats.files.MAX_FILE_BYTES` is not read (a smaller one
    is read again whole, token by token, and the message names the mistake)."""
    limit = MAX_FILE_BYTES // 1024**2
    return ReadError(
        filename,
        f"a .efg file over {limit} MB is read in one pass, which reads records as rmviz and Gambit "
        f"write them, and stopped here (at a mistake, or a record written otherwise); smaller files "
        f"are read again token by token, which names the mistake",
        line,
    )


@dataclass(frozen=True)
class _Infoset:
    """An information set as its first definition gave it."""

    name: str
    moves: tuple[str, ...]
    probabilities: tuple[Fraction, ...]  # chance sets, rescaled to sum to exactly 1
    token: Token  # where it was defined (its line is counted for a message)


class _TreeReader:
    """Reads node records in prefix order with an explicit stack (no recursion limit)."""

    def __init__(self, stream: TokenStream, players: list[str]) -> None:
        self.stream = stream
        self.players = players
        self.n = len(players)
        self.infosets: dict[tuple[int, int], _Infoset] = {}  # (player, number); player 0 is chance
        self.named: dict[tuple[int, str], int] = {}  # (player, non-empty name) -> number
        self.outcomes: dict[int, tuple[str, tuple[float, ...], Token]] = {}  # name, payoffs, where
        self.decisions: list[tuple[Node, int, int]] = []  # node, player, infoset number

    def read(self) -> Node:
        stream = self.stream
        if stream.peek() is None:
            raise ReadError(stream.filename, "the file has a header but no tree")
        # each frame: [kind, fields, moves, probabilities, payoffs-so-far, children]
        stack: list[list] = []
        root: Node | None = None
        while True:
            frame = self._record(stack[-1][4] if stack else (0.0,) * self.n)
            stack.append(frame)
            while stack and len(stack[-1][5]) == len(stack[-1][2]):
                done = stack.pop()
                node = self._node(done)
                if not stack:
                    root = node
                    break
                stack[-1][5].append(node)
            if root is not None:
                return root

    def label_information_sets(self) -> None:
        """Give every decision node its set's label: the name, or ``#number`` when unnamed."""
        names = {key: entry.name for key, entry in self.infosets.items()}
        labels = information_set_labels(names, set(self.named))
        for node, player, number in self.decisions:
            node.infoset = labels[player, number]

    def _record(self, inherited: tuple[float, ...]) -> list:
        stream = self.stream
        token = stream.next("a node ('c', 'p' or 't')")
        if token.text not in ("c", "p", "t"):
            raise stream.error(token, f"expected a node type 'c', 'p' or 't', found {token.text[:40]!r}")
        label = stream.expect("string", "the node's name in quotes").text
        if token.text == "t":
            payoffs = self._outcome(token, inherited)
            return [TERMINAL, (label,), (), (), payoffs, []]
        player = 0
        if token.text == "p":
            number = stream.count("the player number")
            if not 1 <= number <= self.n:
                raise stream.error(token, f"player {number} does not exist; the game has {self.n} players")
            player = number
        infoset = stream.count("the information set number")
        entry = self._infoset(token, player, infoset)
        payoffs = self._outcome(token, inherited)
        kind = CHANCE if player == 0 else DECISION
        probabilities = tuple(float(p) for p in entry.probabilities)
        return [kind, (label, player, infoset), entry.moves, probabilities, payoffs, []]

    def _owner(self, player: int) -> str:
        return "chance" if player == 0 else f"player {player} ({self.players[player - 1]!r})"

    def _infoset(self, token: Token, player: int, number: int) -> _Infoset:
        """The information set ``(player, number)`` of the record at ``token``, by Gambit's
        rules (as pygambit 16 reads files): a number repeated later must repeat its name,
        moves (and chance probabilities) or give none; a player's *named* sets need different
        names (``"Infoset label must be unique for the player"``), while unnamed ones (``""``)
        may be many. A file breaking a rule is refused with a :class:`FormatError`, as Gambit
        refuses it. rmviz names information sets by label, so an unnamed set ``k`` is labelled
        ``#k``, primed if the player has a set named ``#k`` already
        (:meth:`label_information_sets`)."""
        stream = self.stream
        key = (player, number)
        known = self.infosets.get(key)
        following = stream.peek()
        if following is None or following.kind != "string":
            if known is None:
                raise stream.error(token, f"information set {number} is used before its moves are given")
            return known
        name = stream.next("the information set's name").text
        stream.expect("{", "'{' opening the moves")
        moves: list[str] = []
        probabilities: list[Fraction] = []
        while (item := stream.next("the end of the move list")).kind != "}":
            if item.kind != "string":
                raise stream.error(item, f"expected a move name in quotes, found {item.text[:40]!r}")
            moves.append(item.text)
            if player == 0:
                written = stream.peek()
                probability = stream.exact(f"the probability of chance move {item.text!r}")
                if not 0 <= probability <= 1:
                    assert written is not None
                    raise stream.error(
                        written,
                        f"chance move {item.text!r} has probability {written.text[:40]}, not in [0, 1]",
                    )
                probabilities.append(probability)
                following = stream.peek()
                if following is not None and following.kind == ",":
                    stream.next(",")
        if not moves:
            raise stream.error(token, f"information set {number} offers no moves")
        entry = _Infoset(name, tuple(normalized_labels(moves)), self._rescaled(token, probabilities), token)
        owner = self._owner(player)
        if known is not None:
            if known.name != name:
                raise stream.error(
                    token,
                    f"information set {number} of {owner} is named {name!r} here but {known.name!r} "
                    f"on line {stream.line(known.token)}; Gambit requires one name per information set",
                )
            if known.moves != entry.moves:
                raise stream.error(
                    token,
                    f"information set {number} of {owner} was defined with moves {list(known.moves)} "
                    f"on line {stream.line(known.token)}, here with {list(entry.moves)}",
                )
            if known.probabilities != entry.probabilities:
                raise stream.error(
                    token,
                    f"chance information set {number} has probabilities "
                    f"{[str(p) for p in entry.probabilities]} here but "
                    f"{[str(p) for p in known.probabilities]} on line {stream.line(known.token)}",
                )
            return known
        if name:
            other = self.named.setdefault((player, name), number)
            if other != number:
                raise stream.error(
                    token,
                    f"{owner} names information sets {other} and {number} both {name!r}; Gambit requires "
                    "a player's named information sets to have different names (unnamed ones may repeat)",
                )
        self.infosets[key] = entry
        return entry

    def _rescaled(self, token: Token, probabilities: list[Fraction]) -> tuple[Fraction, ...]:
        """Chance probabilities divided by their sum (exact), if that is within 1e-9 of 1.

        Probabilities are exact rationals (``0.1`` is 1/10). Gambit requires them to sum to
        exactly 1; rmviz also accepts sums within :data:`PROBABILITY_TOLERANCE` of 1, as
        OpenSpiel's exporter writes them (``0.3333333333333333`` three times), and the exact
        division makes them sum to 1 (``0.3333333333333333`` becomes 1/3)."""
        if not probabilities:
            return ()
        total = sum(probabilities, Fraction(0))
        if abs(total - 1) > PROBABILITY_TOLERANCE:
            raise self.stream.error(
                token,
                f"chance probabilities sum to {float(total)!r}, not 1; rmviz accepts sums within "
                f"{float(PROBABILITY_TOLERANCE):g} of 1 (and rescales them)",
            )
        return tuple(p / total for p in probabilities)

    def _outcome(self, token: Token, inherited: tuple[float, ...]) -> tuple[float, ...]:
        stream = self.stream
        number = stream.count("the outcome number")
        following = stream.peek()
        if following is not None and following.kind == "string":
            if number == 0:
                raise stream.error(
                    following, "outcome 0 means no outcome: it cannot be given a name or payoffs"
                )
            name = stream.next("the outcome's name").text
            stream.expect("{", "'{' opening the payoffs")
            values: list[float] = []
            while (item := stream.peek()) is not None and item.kind != "}":
                if item.kind == ",":
                    stream.next(",")
                    continue
                values.append(stream.payoff(f"payoff {len(values) + 1} of outcome {number}"))
            item = stream.next("'}' closing the payoffs")
            if len(values) != self.n:
                raise stream.error(
                    item,
                    f"outcome {number} has {len(values)} payoffs; {self.n} players need {self.n}",
                )
            own = tuple(values)
            known = self.outcomes.setdefault(number, (name, own, token))
            if known[:2] != (name, own):
                raise stream.error(
                    token,
                    f"outcome {number} is defined again as {name!r} {list(own)}, but as {known[0]!r} "
                    f"{list(known[1])} on line {stream.line(known[2])}; an outcome is defined once "
                    "(give this one another number)",
                )
        elif number == 0:
            own = (0.0,) * self.n
        elif number in self.outcomes:
            own = self.outcomes[number][1]
        else:
            raise stream.error(token, f"outcome {number} is used before its payoffs are given")
        return tuple(a + b for a, b in zip(inherited, own, strict=True))

    def _node(self, frame: list) -> Node:
        kind, fields, moves, probabilities, payoffs, children = frame
        if kind == TERMINAL:
            return Node(TERMINAL, payoffs=payoffs, label=fields[0])
        label, player, number = fields
        if kind == CHANCE:
            return Node(CHANCE, moves, tuple(children), probabilities=probabilities, label=label)
        node = Node(DECISION, moves, tuple(children), player=player - 1, infoset=f"#{number}", label=label)
        self.decisions.append((node, player, number))  # labelled once the whole file is read
        return node


def _probability(value: float) -> Fraction:
    fraction = Fraction(value).limit_denominator(1_000_000)
    return fraction if float(fraction) == value else Fraction(value)


def write_efg(game: ExtensiveFormGame) -> str:
    """The game as .efg text; every chance node gets its own information set.

    Nodes are indented by depth up to :data:`INDENT_LEVELS` levels (Gambit ignores the spaces).
    """
    infoset_number: dict[tuple[int, str], int] = {}
    for p, labels in enumerate(game.infosets):
        for k, label in enumerate(labels):
            infoset_number[(p, label)] = k + 1
    players = " ".join(quote(p, "the player name") for p in game.player_names)
    title = quote(game.title, "the title", label=False)
    lines = [f"EFG 2 R {title} {{ {players} }}", quote(game.description, "the description", label=False), ""]
    defined: set[tuple[int, str]] = set()
    chance_sets = outcomes = 0
    assert game.root is not None
    stack: list[tuple[int, Node]] = [(0, game.root)]  # prefix order, as Gambit reads it
    while stack:
        depth, node = stack.pop()
        stack.extend((depth + 1, child) for child in reversed(node.children))
        indent = "  " * min(depth, INDENT_LEVELS)
        if node.kind == TERMINAL:
            outcomes += 1
            payoffs = ", ".join(format_number(u) for u in node.payoffs)
            lines.append(f'{indent}t {quote(node.label, "the node label")} {outcomes} "" {{ {payoffs} }}')
        elif node.kind == CHANCE:
            chance_sets += 1
            fractions = [_probability(p) for p in node.probabilities]
            fractions[-1] = 1 - sum(fractions[:-1], Fraction(0))  # exactly 1 in rationals, as Gambit requires
            moves = " ".join(
                f"{quote(m, 'the chance move')} {_format_fraction(q)}"
                for m, q in zip(node.moves, fractions, strict=True)
            )
            lines.append(f'{indent}c {quote(node.label, "the node label")} {chance_sets} "" {{ {moves} }} 0')
        else:
            assert node.player is not None and node.infoset is not None
            key = (node.player, node.infoset)
            head = f"{indent}p {quote(node.label, 'the node label')} {node.player + 1} {infoset_number[key]}"
            if key in defined:
                lines.append(f"{head} 0")
            else:
                defined.add(key)
                moves = " ".join(
                    quote(m, f"the move of information set {node.infoset!r}") for m in node.moves
                )
                lines.append(f"{head} {quote(node.infoset, 'the information set')} {{ {moves} }} 0")
    return "\n".join(lines) + "\n"


def _format_fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


__all__ = ["format_number", "read_efg", "read_efg_file", "write_efg"]
