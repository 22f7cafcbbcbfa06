"""Gambit's extensive-form format (.efg), version 2.

Layout (Gambit manual, "The .efg file format"): a header
``EFG 2 R "title" { "Player 1" "Player 2" } "comment"`` and then the tree in prefix order,
one node per record::

    c "name" infoset ["infoset name" { "move" prob ... }] outcome ["name" { payoffs }]
    p "name" player infoset ["infoset name" { "move" ... }] outcome ["name" { payoffs }]
    t "name" outcome ["name" { payoffs }]

An information set's (or outcome's) description is given at its first occurrence only;
outcomes on non-terminal nodes add to every terminal below them; outcome 0 is "none".
rmviz writes one outcome per terminal, chance probabilities as exact rationals.
"""

from __future__ import annotations

from fractions import Fraction

from rmviz.errors import FormatError, GameError
from rmviz.formats.gambit_tokens import Token, TokenStream, format_number, quote, read_header, tokenize
from rmviz.games.extensive_form import CHANCE, DECISION, ExtensiveFormGame, Node


def read_efg(text: str, filename: str = "<efg>") -> ExtensiveFormGame:
    """Parse the text of a .efg file; problems are :class:`FormatError` naming the line."""
    stream = TokenStream(tokenize(text, filename), filename)
    title, players, precision = read_header(stream, "EFG", "2")
    if not players:
        raise stream.error(precision, "the game names no players")
    comment = ""
    token = stream.peek()
    if token is not None and token.kind == "string":
        comment = stream.next("a comment").text
    reader = _TreeReader(stream, len(players))
    root = reader.read()
    extra = stream.peek()
    if extra is not None:
        raise stream.error(extra, f"unexpected {extra.text!r} after the last node of the tree")
    try:
        return ExtensiveFormGame(root, tuple(players), title, comment)
    except GameError as error:
        raise FormatError(f"{filename}: {error}") from None


class _TreeReader:
    """Reads node records in prefix order with an explicit stack (no recursion limit)."""

    def __init__(self, stream: TokenStream, n_players: int) -> None:
        self.stream = stream
        self.n = n_players
        self.infosets: dict[tuple[int, int], tuple[str, tuple[str, ...], tuple[float, ...]]] = {}
        self.outcomes: dict[int, tuple[float, ...]] = {}

    def read(self) -> Node:
        stream = self.stream
        if stream.peek() is None:
            raise FormatError(f"{stream.filename}: the file has a header but no tree")
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

    def _record(self, inherited: tuple[float, ...]) -> list:
        stream = self.stream
        token = stream.next("a node ('c', 'p' or 't')")
        if token.text not in ("c", "p", "t"):
            raise stream.error(token, f"expected a node type 'c', 'p' or 't', found {token.text!r}")
        label = stream.expect("string", "the node's name in quotes").text
        if token.text == "t":
            payoffs = self._outcome(token, inherited, required=True)
            return ["terminal", (label,), (), (), payoffs, []]
        player = 0
        if token.text == "p":
            number = self._integer("the player number")
            if not 1 <= number <= self.n:
                raise stream.error(token, f"player {number} does not exist; the game has {self.n} players")
            player = number
        infoset = self._integer("the information set number")
        name, moves, probabilities = self._infoset(token, player, infoset)
        payoffs = self._outcome(token, inherited, required=False)
        kind = CHANCE if player == 0 else DECISION
        return [kind, (label, player - 1, name or f"#{infoset}"), moves, probabilities, payoffs, []]

    def _infoset(
        self, token: Token, player: int, number: int
    ) -> tuple[str, tuple[str, ...], tuple[float, ...]]:
        stream = self.stream
        key = (player, number)
        following = stream.peek()
        if following is not None and following.kind == "string":
            name = stream.next("the information set's name").text
            stream.expect("{", "'{' opening the moves")
            moves: list[str] = []
            probabilities: list[Fraction] = []
            while (item := stream.next("the end of the move list")).kind != "}":
                if item.kind != "string":
                    raise stream.error(item, f"expected a move name in quotes, found {item.text!r}")
                moves.append(item.text)
                if player == 0:
                    value = stream.next(f"the probability of chance move {item.text!r}")
                    if value.kind != "number":
                        raise stream.error(
                            value,
                            f"expected the probability of {item.text!r}, found {value.text!r}",
                        )
                    probabilities.append(Fraction(value.text))
                    if stream.peek() is not None and stream.peek().kind == ",":
                        stream.next(",")
            if not moves:
                raise stream.error(token, f"information set {number} offers no moves")
            if player == 0 and sum(probabilities) != 1:
                raise stream.error(
                    token,
                    f"chance probabilities sum to {float(sum(probabilities)):.6g}; they must sum to 1",
                )
            entry = (name, tuple(moves), tuple(float(p) for p in probabilities))
            known = self.infosets.get(key)
            if known is not None and known[1] != entry[1]:
                raise stream.error(
                    token,
                    f"information set {number} was defined with moves {list(known[1])}, "
                    f"here with {list(entry[1])}",
                )
            self.infosets.setdefault(key, entry)
            return self.infosets[key]
        if key not in self.infosets:
            raise stream.error(token, f"information set {number} is used before its moves are given")
        return self.infosets[key]

    def _outcome(self, token: Token, inherited: tuple[float, ...], required: bool) -> tuple[float, ...]:
        stream = self.stream
        number = self._integer("the outcome number")
        following = stream.peek()
        if following is not None and following.kind == "string":
            stream.next("the outcome's name")
            stream.expect("{", "'{' opening the payoffs")
            values = []
            while (item := stream.next("the end of the payoffs")).kind != "}":
                if item.kind == ",":
                    continue
                if item.kind != "number":
                    raise stream.error(item, f"expected a payoff, found {item.text!r}")
                stream.pos -= 1
                values.append(stream.number("a payoff"))
            if len(values) != self.n:
                raise stream.error(
                    item,
                    f"outcome {number} has {len(values)} payoffs; {self.n} players need {self.n}",
                )
            if number != 0:
                self.outcomes.setdefault(number, tuple(values))
            own = tuple(values)
        elif number == 0:
            own = (0.0,) * self.n
        elif number in self.outcomes:
            own = self.outcomes[number]
        else:
            raise stream.error(token, f"outcome {number} is used before its payoffs are given")
        if required and number == 0:
            own = (0.0,) * self.n
        return tuple(a + b for a, b in zip(inherited, own, strict=True))

    def _integer(self, what: str) -> int:
        token = self.stream.next(what)
        if token.kind != "number" or not token.text.isdigit():
            raise self.stream.error(token, f"expected {what}, found {token.text!r}")
        return int(token.text)

    @staticmethod
    def _node(frame: list) -> Node:
        kind, fields, moves, probabilities, payoffs, children = frame
        if kind == "terminal":
            return Node("terminal", payoffs=payoffs, label=fields[0])
        label, player, name = fields
        if kind == CHANCE:
            return Node(CHANCE, moves, tuple(children), probabilities=probabilities, label=label)
        return Node(DECISION, moves, tuple(children), player=player, infoset=name, label=label)


def _probability(value: float) -> Fraction:
    fraction = Fraction(value).limit_denominator(1_000_000)
    return fraction if float(fraction) == value else Fraction(value)


def write_efg(game: ExtensiveFormGame) -> str:
    """The game as .efg text; every chance node gets its own information set."""
    infoset_number: dict[tuple[int, str], int] = {}
    for p, labels in enumerate(game.infosets):
        for k, label in enumerate(labels):
            infoset_number[(p, label)] = k + 1
    players = " ".join(quote(p) for p in game.player_names)
    lines = [f"EFG 2 R {quote(game.title)} {{ {players} }}", quote(game.description), ""]
    defined: set[tuple[int, str]] = set()
    chance_sets = outcomes = 0
    for path, node in game.nodes():
        indent = "  " * len(path)
        if node.kind == "terminal":
            outcomes += 1
            payoffs = ", ".join(format_number(u) for u in node.payoffs)
            lines.append(f'{indent}t {quote(node.label)} {outcomes} "" {{ {payoffs} }}')
        elif node.kind == CHANCE:
            chance_sets += 1
            fractions = [_probability(p) for p in node.probabilities]
            fractions[-1] = 1 - sum(fractions[:-1])  # exactly 1 in rationals, as Gambit requires
            moves = " ".join(
                f"{quote(m)} {_format_fraction(q)}" for m, q in zip(node.moves, fractions, strict=True)
            )
            lines.append(f'{indent}c {quote(node.label)} {chance_sets} "" {{ {moves} }} 0')
        else:
            assert node.player is not None and node.infoset is not None
            key = (node.player, node.infoset)
            head = f"{indent}p {quote(node.label)} {node.player + 1} {infoset_number[key]}"
            if key in defined:
                lines.append(f"{head} 0")
            else:
                defined.add(key)
                moves = " ".join(quote(m) for m in node.moves)
                lines.append(f"{head} {quote(node.infoset)} {{ {moves} }} 0")
    return "\n".join(lines) + "\n"


def _format_fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


__all__ = ["format_number", "read_efg", "write_efg"]
