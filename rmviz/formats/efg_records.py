"""The fast path of the .efg reader: one regular expression per node record, straight into
flat arrays (:class:`~rmviz.games.flat_tree.FlatTreeBuilder`), no token objects and no node
objects.

A record (Gambit manual, "The .efg file format")::

    c "name" infoset ["infoset name" { "move" prob ... }] outcome ["name" { payoffs }]
    p "name" player infoset ["infoset name" { "move" ... }] outcome ["name" { payoffs }]
    t "name" outcome ["name" { payoffs }]

is matched whole by :data:`_RECORD` (its strings, numbers and separators spelled as
:mod:`rmviz.formats.gambit_tokens` spells tokens, so a match splits the text into the same
tokens the tokenizer would), and read with the rules of :mod:`rmviz.formats.efg` (the same
helpers: exact chance probabilities rescaled to sum to 1, payoffs as :meth:`TokenStream.payoff`
reads them, outcomes added down the tree, Gambit's information-set numbering and labels).

Anything else (a record the expressions do not match, a rule broken, a number that needs
the exact reading's checks) makes :func:`read_records` return None, and the reader starts
over with the token-by-token reader, whose message names the line. So this path only ever
reads files the token reader reads, into the same game, and never explains a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from rmviz.errors import Cancelled, GameError
from rmviz.formats.gambit_tokens import (
    _SHORT_DECIMAL,
    MAX_NUMBER_LENGTH,
    normalized_labels,
    parse_number,
    to_float,
    unescape,
)
from rmviz.games.flat_tree import FlatTree, FlatTreeBuilder
from rmviz.games.normal_form import MAX_PAYOFF, check_payoff

PROGRESS_EVERY = 1 << 16  # records between two progress calls
PAYOFF_CACHE = 1 << 16  # distinct payoff lists remembered (files repeat a few; random ones never)
Progress = Callable[[int], bool]


# a Gambit string: to the first quote not preceded by a backslash (gambit_tokens._TOKEN);
# written so that no match can run past such a quote, whatever follows
_STRING = r'"([^"\\]*(?:\\+[^\\][^"\\]*)*)"'
_NUMBER = r'[+-]?(?:\d+/\d+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?![^\s{},"])'
_COUNT = r'(\d{1,18})(?![^\s{},"])'
# payoffs: numbers and commas; each word is then read as a number (_payoffs)
_OUTCOME = rf"\s*{_COUNT}(?:\s*{_STRING}\s*\{{([^{{}}\"]*)\}})?\s*"
_QUOTED = _STRING.replace("(", "(?:", 1)
_CHANCE_MOVES = rf"((?:\s*{_QUOTED}\s*{_NUMBER}\s*,?)*)"
_DECISION_MOVES = rf"((?:\s*{_QUOTED})*)"
_RECORD = {
    "c": re.compile(
        rf'c(?![^\s{{}},"])\s*{_STRING}\s*{_COUNT}(?:\s*{_STRING}\s*\{{{_CHANCE_MOVES}\s*\}})?{_OUTCOME}'
    ),
    "p": re.compile(
        rf'p(?![^\s{{}},"])\s*{_STRING}\s*{_COUNT}\s*{_COUNT}(?:\s*{_STRING}\s*\{{{_DECISION_MOVES}\s*\}})?{_OUTCOME}'
    ),
    "t": re.compile(rf't(?![^\s{{}},"])\s*{_STRING}{_OUTCOME}'),
}
# the same records as rmviz and Gambit write them (one space between tokens, plain strings):
# the same groups, matched about 20% faster; anything else goes to _RECORD
_RIGID = {
    "p": re.compile(
        r'p "([^"\\]*)" (\d{1,18}) (\d{1,18})(?: "([^"\\]*)" \{((?: "[^"\\]*")*) \})? (\d{1,18})'
        r'(?: "([^"\\]*)" \{([^{}"]*)\})?(?:\s+|\Z)'
    ),
    "t": re.compile(r't "([^"\\]*)" (\d{1,18})(?: "([^"\\]*)" \{([^{}"]*)\})?(?:\s+|\Z)'),
}
_NOT_PAYOFFS = re.compile(r"[^0-9+\-.eE/,\s]")  # what no number or separator holds
_STRINGS = re.compile(_STRING)
_CHANCE_PAIRS = re.compile(rf"{_STRING}\s*({_NUMBER})")
_NUMBERS = re.compile(_NUMBER)
_SPACE = re.compile(r"\s*")


_Infoset = tuple[str, tuple[str, ...], tuple[float, ...], tuple[Fraction, ...]]


class _Fallback(Exception):
    """The fast path cannot read this; the token reader will."""


def read_records(
    text: str, start: int, players: list[str], tolerance: Fraction, progress: Progress | None = None
) -> tuple[FlatTree, int] | None:
    """The tree whose records begin at ``text[start:]`` as flat arrays, and where the records
    end; None when the token reader must read it (see the module docstring)."""
    try:
        return _Records(text, players, tolerance, progress).read(start)
    except _Fallback:
        return None


class _Records:
    def __init__(self, text: str, players: list[str], tolerance: Fraction, progress: Progress | None) -> None:
        self.text = text
        self.n = len(players)
        self.tolerance = tolerance
        self.progress = progress
        self.builder = FlatTreeBuilder(self.n)
        self.zeros = (0.0,) * self.n
        # (player, number) -> (name, moves, probabilities, exact probabilities); player 0 is
        # chance; numbers are kept as written (canonical: no leading zero, see _number)
        self.infosets: dict[tuple[int, str], _Infoset] = {}
        self.named: dict[tuple[int, str], str] = {}
        self.outcomes: dict[str, tuple[str, tuple[float, ...]]] = {}  # number -> name, payoffs
        self.payoffs: dict[str, tuple[float, ...]] = {}  # payoff list as written -> values
        self.bodies: dict[
            tuple[int, str], tuple[tuple[str, ...], tuple[float, ...], tuple[Fraction, ...]]
        ] = {}
        self.above: dict[int, tuple[float, ...]] = {}  # non-zero outcomes of inner nodes

    def read(self, start: int) -> tuple[FlatTree, int]:
        """The records one by one: the common ones (no definition, or an outcome's) inline."""
        text, builder, records, rigid, zeros, n = self.text, self.builder, _RECORD, _RIGID, self.zeros, self.n
        infosets, outcomes, above = self.infosets, self.outcomes, self.above
        terminal_node, chance, decision_at = builder.terminal_node, builder.chance, builder.decision_at
        ids: dict[tuple[int, str], int] = {}  # (player, number) -> the builder's information set
        progress = self.progress
        position = _SPACE.match(text, start).end()  # type: ignore[union-attr]
        count = 0
        while not builder.complete:
            kind = text[position : position + 1]
            pattern = rigid.get(kind)
            match = pattern.match(text, position) if pattern is not None else None
            if match is None:
                pattern = records.get(kind)
                match = pattern.match(text, position) if pattern is not None else None
                if match is None:
                    raise _Fallback
            position = match.end()
            count += 1
            if progress is not None and not count % PROGRESS_EVERY and not progress(count):
                raise Cancelled(f"stopped after {count:,} histories")
            if kind == "t":
                name, number, outcome_name, body = match.groups()
            elif kind == "p":
                name, player_text, infoset, infoset_name, moves_body, number, outcome_name, body = (
                    match.groups()
                )
            else:
                name, infoset, infoset_name, moves_body, number, outcome_name, body = match.groups()
            if "\\" in name:
                name = unescape(name)
            # the outcome: none, one given before, or defined here
            if number == "0":
                if outcome_name is not None:
                    raise _Fallback  # outcome 0 cannot be defined
                own = zeros
            elif outcome_name is not None:
                own = self._outcome(number, outcome_name, body)
            else:
                known = outcomes.get(number)
                if known is None:
                    raise _Fallback
                own = known[1]
            if kind == "t":
                terminal_node(own, name)
                continue
            player = int(player_text) if kind == "p" else 0
            if kind == "p" and not 1 <= player <= n:
                raise _Fallback
            key = (player, infoset)
            if infoset_name is None:
                entry = infosets.get(key)
                if entry is None:
                    raise _Fallback
            else:
                entry = self._infoset(player, _number(infoset), infoset_name, moves_body)
            if player:
                info = ids.get(key)
                if info is None:
                    info = ids[key] = builder.infoset(player - 1, infoset, entry[1])
                node = decision_at(info, entry[1], name)
            else:
                node = chance(entry[1], entry[2], name)
            if own is not zeros and any(own):
                above[node] = own
        flat = builder.finish(self._labels())
        if above:
            self._add_outcomes_above(flat)
        return flat, position

    def _add_outcomes_above(self, flat: FlatTree) -> None:
        """Outcomes of inner nodes add to every terminal below them, in the order the token
        reader adds them (from the root down, then the terminal's own)."""
        above, zeros = self.above, self.zeros
        parents, terminals = flat.parent.tolist(), flat.terminal.tolist()
        totals: dict[int, tuple[float, ...]] = {}
        for node, parent in enumerate(parents):
            inherited = totals.get(parent) if parent >= 0 else None
            own = above.get(node)
            if inherited is None and own is None:
                continue
            if terminals[node] >= 0:
                if inherited is not None:
                    row = terminals[node]
                    flat.payoffs[row] = [
                        a + b for a, b in zip(inherited, flat.payoffs[row].tolist(), strict=True)
                    ]
            else:
                totals[node] = tuple(a + b for a, b in zip(inherited or zeros, own or zeros, strict=True))
        flat.payoffs[...] += 0.0  # no -0.0

    def _infoset(self, player: int, number: str, name: str, body: str) -> _Infoset:
        """An information set defined (again) here, checked as the token reader checks it."""
        key = (player, number)
        known = self.infosets.get(key)
        name = _unquoted(name)
        parsed = self.bodies.get((player, body))
        if parsed is None:
            parsed = self.bodies[(player, body)] = self._moves(player, body)
        entry = (name, *parsed)
        if known is not None:
            if known != entry:
                raise _Fallback
            return known
        if name and self.named.setdefault((player, name), number) != number:
            raise _Fallback
        self.infosets[key] = entry
        return entry

    def _moves(
        self, player: int, body: str
    ) -> tuple[tuple[str, ...], tuple[float, ...], tuple[Fraction, ...]]:
        """A move list's labels (made distinct as Gambit does), and for chance the
        probabilities rescaled to sum to 1, as floats and exactly (compared exactly)."""
        if player:
            labels = [_unquoted(m) for m in _STRINGS.findall(body)]
            if not labels:
                raise _Fallback
            return tuple(normalized_labels(labels)), (), ()
        pairs = _CHANCE_PAIRS.findall(body)
        if not pairs:
            raise _Fallback
        exact: list[Fraction] = []
        for _, word in pairs:
            try:
                value = parse_number(word)
            except ValueError:
                raise _Fallback from None
            if not 0 <= value <= 1:
                raise _Fallback
            exact.append(value)
        total = sum(exact, Fraction(0))
        if abs(total - 1) > self.tolerance:
            raise _Fallback
        moves = tuple(normalized_labels([_unquoted(m) for m, _ in pairs]))
        rescaled = tuple(p / total for p in exact)
        return moves, tuple(float(p) for p in rescaled), rescaled

    def _outcome(self, number: str, name: str, body: str) -> tuple[float, ...]:
        """An outcome defined here (not outcome 0): its payoffs, read as the token reader
        reads them; defined again, it must repeat its name and payoffs."""
        values = self.payoffs.get(body)
        if values is None:
            values = _payoffs(body)
            if len(values) != self.n:
                raise _Fallback
            if len(self.payoffs) < PAYOFF_CACHE:
                self.payoffs[body] = values
        if number[0] == "0":  # a leading zero: see _number
            raise _Fallback
        entry = (name, values)
        known = self.outcomes.setdefault(number, entry)
        if known is not entry and (_unquoted(known[0]), known[1]) != (_unquoted(name), values):
            raise _Fallback
        return values

    def _labels(self) -> list[str]:
        """Each information set's label (:func:`information_set_labels`), in the builder's order."""
        names = {(player, int(number)): entry[0] for (player, number), entry in self.infosets.items()}
        labels = information_set_labels(names, set(self.named))
        return [labels[(player + 1, int(number))] for player, number in self.builder.infoset_ids]  # type: ignore[call-overload]


def _number(written: str) -> str:
    """An information set's or outcome's number as written, when that is how it is known:
    ``07`` and ``7`` are one number to the token reader, so a leading zero goes to it."""
    if written[0] == "0" and written != "0":
        raise _Fallback
    return written


def _unquoted(raw: str) -> str:
    return unescape(raw) if "\\" in raw else raw


def _payoffs(body: str) -> tuple[float, ...]:
    """The payoffs between an outcome's braces. The body holds only digits, signs, points,
    exponents, slashes, commas and spaces (``_NOT_PAYOFFS``), so ``float`` reads what the
    tokenizer reads as a number (correctly rounded, as the exact reading rounds) and refuses
    the rest. Payoffs out of range pass here: the game's validation refuses them, and the
    token reader then names the line. Rationals and bodies longer than
    :data:`MAX_NUMBER_LENGTH` are read number by number (:func:`_payoff`)."""
    if _NOT_PAYOFFS.search(body):
        raise _Fallback
    words = body.replace(",", " ").split()
    if "/" in body or len(body) > MAX_NUMBER_LENGTH:
        return tuple([_payoff(word) for word in words])
    try:
        return tuple(map(float, words))
    except ValueError:
        raise _Fallback from None


def _payoff(word: str) -> float:
    """A payoff as :meth:`TokenStream.payoff` reads it; refusals go to the token reader.
    ``word`` holds only digits, signs, points, exponents and slashes (``_NOT_PAYOFFS``), so
    ``float`` reads what the tokenizer reads as a number, and refuses the rest."""
    if len(word) <= _SHORT_DECIMAL and "/" not in word:
        try:
            number = float(word)
        except ValueError:
            raise _Fallback from None
        if abs(number) <= MAX_PAYOFF:
            return number
    if len(word) > MAX_NUMBER_LENGTH:
        raise _Fallback
    try:
        number = to_float(parse_number(word), word)
        check_payoff(number, "a payoff")
    except (ValueError, GameError):
        raise _Fallback from None
    return number


def information_set_labels(
    names: dict[tuple[int, int], str], taken: set[tuple[int, str]]
) -> dict[tuple[int, int], str]:
    """The label of each decision information set ``(player, number)`` (player 0, chance,
    gets none): its name, or ``#number`` when unnamed, primed (``#k'``) while the player has a
    set of that name. ``taken``: the named sets' ``(player, name)``."""
    labels: dict[tuple[int, int], str] = {}
    taken = set(taken)
    for key in sorted(names):
        player, number = key
        name = names[key]
        if player == 0:
            continue
        if not name:
            name = f"#{number}"
            while (player, name) in taken:
                name += "'"
            taken.add((player, name))
        labels[key] = name
    return labels
