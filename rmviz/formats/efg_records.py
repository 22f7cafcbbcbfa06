"""The fast path of the .efg reader: node records read by regular expressions, many at a
time, straight into flat arrays (:class:`~rmviz.games.flat_tree.FlatTreeBuilder`); the text
may come in pieces (a file read as a stream).

Records (Gambit manual, "The .efg file format") written the common way (``p`` and ``t``
records, one space between tokens, strings without backslashes) are matched by
:data:`_BULK`, a few MB of whole lines at a time, and read column by column
(:meth:`RecordReader._bulk`); the rest is read record by record (:data:`_RECORD`,
:meth:`RecordReader._record`). Both expressions split the text into the tokens of
:mod:`rmviz.formats.gambit_tokens` and read them with the rules of
:mod:`rmviz.formats.efg`. Anything else raises :class:`Fallback`, and the reader starts
over token by token, whose message names the line: this path only reads files the token
reader reads, into the same game, and never explains a refusal.
"""

from __future__ import annotations

import gc
import os
import re
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import compress, count, repeat
from operator import gt, is_not, not_
from typing import Any

import numpy as np

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

PROGRESS_EVERY = 1 << 16  # histories between two progress calls (called at each multiple)
PAYOFF_CACHE = 1 << 16  # distinct payoff lists remembered (files repeat a few; random ones never)
REGION_CHARS = 1 << 22  # text split into records at once, at most (whole lines)
MIN_REGION = 1 << 12  # ... at least, after a region stopped early
BYTES_PER_HISTORY = 256
"""What one history costs once read and compiled for the solvers, about (the flat arrays,
the compiled tree and the work arrays between them; measured at the peak: 180-290 bytes a
history on trees of 0.3 to 17 million histories, docs/performance.md). The memory limit is
counted in these."""
MEMORY_SHARE = 2
"""A file's tree may use at most 1/MEMORY_SHARE of the machine's memory (:func:`memory_limit`)."""
Progress = Callable[[int], bool]


def memory_limit() -> int:
    """The bytes a tree read from a file may need (histories times :data:`BYTES_PER_HISTORY`,
    plus the text kept: names and labels): half the machine's physical memory (8 GB where
    the system does not say)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows)
        total = 16 * 1024**3
    return int(total) // MEMORY_SHARE


# a Gambit string: to the first quote not preceded by a backslash (gambit_tokens._TOKEN);
# written so that no match can run past such a quote, whatever follows
_STRING = r'"([^"\\]*(?:\\+[^\\][^"\\]*)*)"'
_NUMBER = r'[+-]?(?:[0-9]+/[0-9]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)(?![^\s{},"])'
_COUNT = r'([0-9]{1,18})(?![^\s{},"])'
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
# ``p`` and ``t`` records as rmviz, Gambit and OpenSpiel write them (one space between
# tokens, or more inside braces; plain strings, ASCII digits), each followed by a space or
# the end. Quantifiers are possessive (``*+``: nothing they take is given back, which no
# match here needs, and the engine then keeps no backtracking state). Groups: 1 "p" (None for
# "t"), 2 name, 3 player, 4 information set, 5 its name and 6 its moves (None unless
# defined), 7 outcome, 8 its name and 9 its payoffs (None unless defined).
_BULK = re.compile(
    r'\s*+(?:(p)|t) "([^"\\]*+)"'
    r'(?(1) ([0-9]{1,18}+) ([0-9]{1,18}+)(?: "([^"\\]*+)" \{((?: ++"[^"\\]*+")*+) ++\})?)'
    r' ([0-9]{1,18}+)(?: "([^"\\]*+)" \{([^{}"]*+)\})?(?=\s|\Z)'
)
_FIELDS = 10  # what _BULK.split gives for a record: the text before it, then its 9 groups
_NOT_PAYOFFS = re.compile(r"[^0-9+\-.eE/,\s]")  # what no number or separator holds
# what ``float`` reads in ASCII text besides the tokenizer's decimal numbers ("inf", "nan",
# "infinity", "1_000"), and rationals, which need the exact reading
_NOT_FLOAT_LETTERS = "_iInNaAfFtTyY/"
_STRINGS = re.compile(_STRING)
_CHANCE_PAIRS = re.compile(rf"{_STRING}\s*({_NUMBER})")
_NUMBERS = re.compile(_NUMBER)
_SPACE = re.compile(r"\s*")
_RECORD_START = frozenset("cpt")
_LINE_START = re.compile(r'[ \t]*[cpt][ "]')  # a line that begins a record
_NEXT_LINE_START = re.compile(r'\n(?=[ \t]*[cpt][ "])')


_Infoset = tuple[str, tuple[str, ...], tuple[float, ...], tuple[Fraction, ...]]


class Fallback(Exception):
    """The fast path cannot read this; the token reader will (and its message names the
    line): a record the expressions do not match, a rule broken, a number that needs the
    exact reading's checks."""


class TooBig(Exception):
    """The tree needs more memory than :func:`memory_limit` allows (not read any further)."""

    def __init__(self, histories: int, limit: int) -> None:
        super().__init__(
            f"the tree needs more memory than rmviz gives a file's tree ({limit / 1024**2:,.0f} MB, "
            f"half of this machine's memory, at about {BYTES_PER_HISTORY} bytes a history): "
            f"reading stopped after {histories:,} histories"
        )


def read_records(
    text: str,
    start: int,
    players: list[str],
    tolerance: Fraction,
    progress: Progress | None = None,
    limit: int | None = None,
) -> tuple[FlatTree, int] | None:
    """The tree whose records begin at ``text[start:]`` as flat arrays, and where the records
    end (the end of the text: only spaces may follow them); None when the token reader must
    read it (see the module docstring). :class:`TooBig` past ``limit`` bytes."""
    reader = RecordReader(players, tolerance, progress, limit)
    try:
        with no_cycle_collection():
            reader.feed(text, start, final=True)
            return reader.finish(), len(text)
    except Fallback:
        return None


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused (as it was again after): reading makes and drops
    millions of small objects (a region's fields, the tuples of information-set keys) and
    no reference cycles, and the collector's passes over them cost about a tenth of the
    reading time. The pause is process-wide: other threads' cycles wait for it to end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class RecordReader:
    """Reads node records into a :class:`FlatTreeBuilder` as text arrives (:meth:`feed`),
    then gives the tree (:meth:`finish`). Raises :class:`Fallback` where the token reader
    must read the file, :class:`TooBig` past ``limit`` bytes (:func:`memory_limit` when
    None), :class:`~rmviz.errors.Cancelled` when ``progress`` says stop.

    Both ways of reading (:meth:`_bulk`, :meth:`_record`) use the rules and helpers of
    :mod:`rmviz.formats.efg`: exact chance probabilities rescaled to sum to 1, payoffs as
    :meth:`TokenStream.payoff` reads them, outcomes added down the tree, Gambit's
    information-set numbering and labels."""

    def __init__(
        self, players: list[str], tolerance: Fraction, progress: Progress | None, limit: int | None = None
    ) -> None:
        self.n = len(players)
        self.tolerance = tolerance
        self.progress = progress
        self.every = PROGRESS_EVERY
        self.next_report = self.every
        self.limit = memory_limit() if limit is None else limit
        self.kept = 0  # bytes of text kept (names, labels), about
        self.histories = 0
        self.at = 0  # where in the text fed last the record being read begins (for messages)
        self.failed = 0  # records of a region read before the one that stopped the reading
        self.region = REGION_CHARS
        self.builder = FlatTreeBuilder(self.n)
        self.zeros = (0.0,) * self.n
        self.player_texts = frozenset(str(p) for p in range(1, self.n + 1))
        # (player, number) -> (name, moves, probabilities, exact probabilities); player 0 is
        # chance; numbers are kept as written (canonical: no leading zero, see _number)
        self.infosets: dict[tuple[int, str], _Infoset] = {}
        self.named: dict[tuple[int, str], str] = {}
        # ("player", "number") as written -> the builder's information set
        self.ids: dict[tuple[str, str], int] = {}
        self.bodies: dict[
            tuple[int, str], tuple[tuple[str, ...], tuple[float, ...], tuple[Fraction, ...]]
        ] = {}
        # outcomes by number: the payoff row of the terminal that defined it (>= 0), or
        # -1 - k for the k-th outcome defined above the leaves (self.inner); outcomes 1..k
        # defined in order (as rmviz writes them) in an array, the others in a dict
        self.in_order = array("i")
        self.out_of_order: dict[int, int] = {}
        self.inner: list[tuple[float, ...]] = []
        self.outcome_names: dict[int, str] = {}  # names that are not empty
        self.payoffs: dict[str, tuple[float, ...]] = {}  # payoff list as written -> values
        self.above: dict[int, tuple[float, ...]] = {}  # non-zero outcomes of inner nodes

    def feed(self, text: str, position: int, final: bool) -> int:
        """Read the records of ``text[position:]`` that more text cannot change (all of them
        when ``final``: no text follows); returns where the rest begins (the caller keeps
        it and feeds it again with the next piece appended). Regions end before a line that
        begins a record (:meth:`_cut`), and a record read alone must be followed by the first
        letter of the next record too: an outcome's definition on the next line, or a string
        still open, is never cut off."""
        builder, space, size = self.builder, _SPACE, len(text)
        while True:
            position = space.match(text, position).end()  # type: ignore[union-attr]
            self.at = position
            if position == size:
                return position
            if builder.complete:
                raise Fallback  # text after the last node: the token reader names it
            cut = self._cut(text, position, final)
            if cut > position:
                read = self._region(text, position, cut)
                if read > position:
                    position = read
                    continue
            # one record of another spelling (or cut off by the end of the text so far)
            kind = text[position]
            pattern = _RECORD.get(kind)
            match = pattern.match(text, position) if pattern is not None else None
            if match is None:
                if final:
                    raise Fallback
                return position
            end = match.end()
            if not final and (end == size or text[end] not in _RECORD_START):
                return position  # its end may change with the text that follows
            self._record(kind, *_general(kind, match.groups()))
            position = self.at = end
            self._count(1)

    def _cut(self, text: str, position: int, final: bool) -> int:
        """Where the next region ends: after a line break followed by the start of a record
        (a line beginning ``c``, ``p`` or ``t`` and a space or a quote), the last such one
        within ``self.region`` characters (or the first after them, for longer lines); the
        end of the text when it is final and that near. So the last record of a region is
        followed by the first letter of another, whatever text comes later (a record cut
        there could be read short: a ``t`` record without the outcome definition on its next
        line). ``position`` or less: no such place yet."""
        size = len(text)
        limit = position + self.region
        if final and limit >= size:
            return size
        end = min(limit, size)
        for _ in range(64):
            line = text.rfind("\n", position, end)
            if line < 0:
                break
            if _LINE_START.match(text, line + 1):
                return line + 1
            end = line
        if limit < size:
            found = _NEXT_LINE_START.search(text, limit)
            if found is not None:
                return found.end()
        return size if final else position

    def _region(self, text: str, position: int, cut: int) -> int:
        """Read the records at the start of ``text[position:cut]``; returns where they end.

        One ``split`` of the region by :data:`_BULK` gives the fields of its records, column
        by column, in its slices, and the text between them. That text, where not empty, is
        records of another spelling (a chance node, other spacing): read alone
        (:func:`_alone`), after which the batch goes on. Text that is not whole records stops
        the region there; the next region is then about twice as long as what this one read,
        so ``split`` does not read far past such places."""
        region = text[position:cut]
        parts = _BULK.split(region)
        between = parts[0::_FIELDS]  # the text before, between and after the records
        matched = len(between) - 1
        done = 0  # records read

        def after(records: int) -> int:  # where the text after so many records begins
            return cut - len(_after(region, records))

        stops = list(compress(range(matched + 1), between))  # where text is between records
        if not stops or stops[-1] != matched:
            stops.append(matched)  # (the records after the last such text)
        for stop in stops:
            if stop > done:
                self.failed = 0
                try:
                    self._columns(
                        [parts[i + _FIELDS * done : _FIELDS * stop : _FIELDS] for i in range(1, _FIELDS)]
                    )
                except Fallback:  # where the record that stopped the reading begins (for the message)
                    self.at = _SPACE.match(text, after(done + self.failed)).end()  # type: ignore[union-attr]
                    raise
                try:
                    self._count(stop - done)
                except TooBig:
                    self.at = after(stop)
                    raise
                done = stop
            if stop == matched and not between[stop]:
                break
            alone = _alone(between[stop])
            if alone is None:  # not whole records: read from the full text (or with more text)
                end = after(stop)
                self.region = max(MIN_REGION, 2 * (end - position))
                return end
            for kind, match in alone:
                try:
                    self._record(kind, *_general(kind, match.groups()))
                    self._count(1)
                except (Fallback, TooBig):
                    self.at = after(stop) + match.start()
                    raise
        self.region = min(REGION_CHARS, 2 * self.region)
        return cut

    def _columns(self, columns: list[list[Any]]) -> None:
        """Records matched by :data:`_BULK`, as columns of their fields: read at once
        (:meth:`_bulk`), or one by one when they hold something it does not read."""
        if not self._bulk(columns):
            for index, fields in enumerate(zip(*columns, strict=True)):
                self.failed = index
                self._record("t" if fields[0] is None else "p", *fields[1:])

    def finish(self) -> FlatTree:
        """The tree read (:class:`Fallback` when it is incomplete)."""
        try:
            flat = self.builder.finish(self._labels())
        except ValueError:
            raise Fallback from None
        if self.above:
            self._add_outcomes_above(flat)
        return flat

    # -- many records at once --------------------------------------------------------------------
    def _bulk(self, columns: list[list[Any]]) -> bool:
        """Read records at once when all are of the common kinds: decisions with outcome 0,
        whose information set is known or defined here (before it is used), and terminals
        whose outcome is 0, given before these records, or defined here with a new number
        and decimal payoffs. False (nothing read) otherwise.

        The columns are taken apart with ``map``, ``itertools`` and ``set``, the payoffs of
        all outcomes parsed in one ``split`` and ``float`` pass, and the histories handed to
        the builder as arrays
        (:meth:`~rmviz.games.flat_tree.FlatTreeBuilder.append_block`)."""
        kinds, names, players, infosets, set_names, _, numbers, outcome_names, bodies = columns
        size, n, builder = len(kinds), self.n, self.builder
        decisions = size - kinds.count(None)
        if decisions and (
            set(compress(numbers, kinds)) != {"0"}  # outcomes above the leaves
            or not set(compress(players, kinds)) <= self.player_texts
        ):
            return False
        terminal = np.frombuffer(bytes(map(not_, kinds)), dtype=np.uint8)
        terminals = size - decisions
        row = np.cumsum(terminal, dtype=np.int64) - 1  # each terminal's payoff row, from 0
        # outcomes: defined here, given before, or none
        defined = size - bodies.count(None)
        zero = numbers.count("0")
        payoffs: np.ndarray | None = None
        if defined:
            has_body = list(map(is_not, bodies, repeat(None)))
            outcome_at = np.frombuffer(bytes(has_body), dtype=np.bool_)
            new = np.fromstring(" ".join(compress(numbers, has_body)), dtype=np.int64, sep=" ")
            if new.min() == 0:
                return False  # outcome 0 cannot be defined
            first = len(self.in_order) + 1
            in_order = bool(new[0] == first and (np.diff(new) == 1).all())
            if in_order:
                if self.out_of_order and not self.out_of_order.keys().isdisjoint(new.tolist()):
                    return False
            elif (
                new.min() < first
                or np.unique(new).size < new.size
                or not self.out_of_order.keys().isdisjoint(new.tolist())
            ):
                return False  # defined again (or twice here): compared record by record
            values = _bulk_payoffs(list(compress(bodies, has_body)), n)
            if values is None:
                return False
            if defined == terminals:
                payoffs = values
            else:
                payoffs = np.zeros((terminals, n))
                payoffs[row[outcome_at]] = values
        if size - defined - zero:  # outcomes given before
            given = [i for i, number in enumerate(numbers) if number != "0" and bodies[i] is None]
            codes = [self._outcome_code(int(numbers[i])) for i in given]
            if None in codes or min(code for code in codes if code is not None) < 0:
                return False  # not given before these records, or given above the leaves
            if payoffs is None:
                payoffs = np.zeros((terminals, n))
            view = np.frombuffer(builder.payoffs, dtype=np.float64).reshape(-1, n)
            payoffs[row[given]] = view[np.array(codes, dtype=np.int64)]
            del view  # (the builder's array grows below)
        if payoffs is None:
            payoffs = np.zeros((terminals, n))
        # information sets: known, or defined here before their first use
        keys = list(zip(compress(players, kinds), compress(infosets, kinds), strict=True))
        if decisions and decisions - set_names.count(None):
            at = list(compress(range(size), kinds))  # where each decision is
            definitions = list(compress(count(), map(is_not, compress(set_names, kinds), repeat(None))))
            first_definition: dict[tuple[str | None, str | None], int] = {}
            for k in definitions:
                first_definition.setdefault(keys[k], at[k])
            fresh = {key: i for key, i in first_definition.items() if key not in self.ids}
            if fresh and any(map(gt, map(fresh.get, keys, repeat(-1)), at)):
                return False  # used before its definition
            try:
                for k in definitions:
                    i = at[k]
                    self._decision_set(int(players[i]), infosets[i], set_names[i], columns[5][i])
            except Fallback:
                return False  # read again record by record, which stops where the problem is
        found = list(map(self.ids.get, keys, repeat(-1)))
        if -1 in found:
            return False
        infoset = np.full(size, -1, dtype=np.int64)
        infoset[terminal == 0] = found
        try:
            builder.append_block(terminal, infoset, payoffs)
        except ValueError:
            return False
        # what the records defined, now that they are read
        if defined:
            base = builder.terminals - terminals
            rows = row[outcome_at] + base
            if in_order:
                self.in_order.frombytes(rows.astype(np.int32).tobytes())
            else:
                self.out_of_order.update(zip(new.tolist(), rows.tolist(), strict=True))
            written_names = list(compress(outcome_names, has_body))
            if any(written_names):
                for number, name in zip(new.tolist(), written_names, strict=True):
                    if name:
                        self.outcome_names[number] = name
                        self.kept += 100 + len(name)
        if any(names):
            base = len(builder) - size
            builder.labels.update(zip(compress(count(base), names), filter(None, names), strict=False))
            self.kept += sum(100 + len(name) for name in names if name)
        return True

    def _count(self, histories: int) -> None:
        """Progress (at each multiple of :data:`PROGRESS_EVERY`) and the memory limit."""
        self.histories += histories
        while self.histories >= self.next_report:
            if self.progress is not None and not self.progress(self.next_report):
                raise Cancelled(f"stopped after {self.next_report:,} histories")
            self.next_report += self.every
        if self.histories * BYTES_PER_HISTORY + self.kept > self.limit:
            raise TooBig(self.histories, self.limit)

    # -- one record at a time ------------------------------------------------------------------
    def _record(
        self,
        kind: str,
        name: str,
        player_text: str | None,
        infoset: str | None,
        infoset_name: str | None,
        moves_body: str | None,
        number: str,
        outcome_name: str | None,
        body: str | None,
    ) -> None:
        """One record, as the token reader reads it (or :class:`Fallback`): the records
        :meth:`_bulk` leaves (an outcome above the leaves, one defined again or used where it
        is defined, a rational payoff...) and the text :data:`_BULK` does not match (chance
        nodes, other spacing, escapes)."""
        builder = self.builder
        if "\\" in name:
            name = unescape(name)
        if name:
            self.kept += 100 + len(name)
        # the outcome: none, one given before, or defined here
        outcome = int(number)
        defining = outcome_name is not None
        if outcome == 0:
            if defining:
                raise Fallback  # outcome 0 cannot be defined
            own = None
        elif defining:
            own = self._outcome(outcome, outcome_name, body)  # type: ignore[arg-type]
        else:
            own = self._given(outcome)
        if kind == "t":
            try:
                builder.terminal_node(self.zeros if own is None else own, name)
            except ValueError:
                raise Fallback from None
            if defining and self._outcome_code(outcome) is None:
                self._remember(outcome, builder.terminals - 1, outcome_name)  # type: ignore[arg-type]
            return
        if defining and self._outcome_code(outcome) is None:
            self.inner.append(own)  # type: ignore[arg-type]
            self._remember(outcome, -len(self.inner), outcome_name)  # type: ignore[arg-type]
        assert infoset is not None
        try:
            if kind == "p":
                assert player_text is not None
                info, entry = self._decision_set(int(player_text), infoset, infoset_name, moves_body)
                node = builder.decision_at(info, entry[1], name)
            else:
                entry = self._known_set(0, infoset, infoset_name, moves_body)
                node = builder.chance(entry[1], entry[2], name)
        except ValueError:
            raise Fallback from None
        if own is not None and any(own):
            self.above[node] = own

    def _decision_set(
        self, player: int, infoset: str, infoset_name: str | None, moves_body: str | None
    ) -> tuple[int, _Infoset]:
        """The builder's information set of a decision record, and its entry."""
        if not 1 <= player <= self.n:
            raise Fallback
        entry = self._known_set(player, infoset, infoset_name, moves_body)
        key = (str(player), infoset)
        info = self.ids.get(key)
        if info is None:
            info = self.ids[key] = self.builder.infoset(player - 1, infoset, entry[1])
        return info, entry

    def _known_set(
        self, player: int, infoset: str, infoset_name: str | None, moves_body: str | None
    ) -> _Infoset:
        """An information set used, or defined (again) here."""
        if infoset_name is None:
            entry = self.infosets.get((player, infoset))
            if entry is None:
                raise Fallback
            return entry
        assert moves_body is not None
        return self._infoset(player, _number(infoset), infoset_name, moves_body)

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
            self.kept += 100 + len(body)
        entry = (name, *parsed)
        if known is not None:
            if known != entry:
                raise Fallback
            return known
        if name and self.named.setdefault((player, name), number) != number:
            raise Fallback
        self.infosets[key] = entry
        self.kept += 100 + len(name)
        return entry

    def _moves(
        self, player: int, body: str
    ) -> tuple[tuple[str, ...], tuple[float, ...], tuple[Fraction, ...]]:
        """A move list's labels (made distinct as Gambit does), and for chance the
        probabilities rescaled to sum to 1, as floats and exactly (compared exactly)."""
        if player:
            labels = [_unquoted(m) for m in _STRINGS.findall(body)]
            if not labels:
                raise Fallback
            return tuple(normalized_labels(labels)), (), ()
        pairs = _CHANCE_PAIRS.findall(body)
        if not pairs:
            raise Fallback
        exact: list[Fraction] = []
        for _, word in pairs:
            try:
                value = parse_number(word)
            except ValueError:
                raise Fallback from None
            if not 0 <= value <= 1:
                raise Fallback
            exact.append(value)
        total = sum(exact, Fraction(0))
        if abs(total - 1) > self.tolerance:
            raise Fallback
        moves = tuple(normalized_labels([_unquoted(m) for m, _ in pairs]))
        rescaled = tuple(p / total for p in exact)
        return moves, tuple(float(p) for p in rescaled), rescaled

    # -- outcomes --------------------------------------------------------------------------------
    def _outcome_code(self, number: int) -> int | None:
        """Where outcome ``number``'s payoffs are (see ``in_order``); None if never defined."""
        if 0 < number <= len(self.in_order):
            return self.in_order[number - 1]
        return self.out_of_order.get(number)

    def _remember(self, number: int, code: int, name: str) -> None:
        if number == len(self.in_order) + 1:
            self.in_order.append(code)
        else:
            self.out_of_order[number] = code
        if name:
            self.outcome_names[number] = name
            self.kept += 100 + len(name)

    def _given(self, number: int) -> tuple[float, ...]:
        """The payoffs of an outcome defined before (:class:`Fallback` if none was)."""
        code = self._outcome_code(number)
        if code is None:
            raise Fallback
        if code < 0:
            return self.inner[-1 - code]
        return tuple(self.builder.payoffs[code * self.n : (code + 1) * self.n])

    def _outcome(self, number: int, name: str, body: str) -> tuple[float, ...]:
        """An outcome defined here (not outcome 0): its payoffs, read as the token reader
        reads them; defined again, it must repeat its name and payoffs."""
        values = self.payoffs.get(body)
        if values is None:
            values = _payoffs(body)
            if len(values) != self.n:
                raise Fallback
            if len(self.payoffs) < PAYOFF_CACHE and len(body) <= 256:
                self.payoffs[body] = values
        if self._outcome_code(number) is not None:
            known = (_unquoted(self.outcome_names.get(number, "")), self._given(number))
            if known != (_unquoted(name), values):
                raise Fallback
        return values

    def _labels(self) -> list[str]:
        """Each information set's label (:func:`information_set_labels`), in the builder's order."""
        names = {(player, int(number)): entry[0] for (player, number), entry in self.infosets.items()}
        labels = information_set_labels(names, set(self.named))
        builder = self.builder
        return [
            labels[(player + 1, int(number))]  # type: ignore[call-overload]
            for player, number in zip(builder.infoset_player, builder.infoset_key, strict=True)
        ]


def _after(region: str, records: int) -> str:
    """The text of ``region`` after its first ``records`` records of :data:`_BULK`'s
    spelling (``split`` stops after that many; 0 would mean no limit)."""
    return _BULK.split(region, records)[-1] if records else region


def _alone(piece: str) -> list[tuple[str, re.Match[str]]] | None:
    """The records of other spellings (:data:`_RECORD`) that ``piece``, text between two
    records of a region's split, is made of (none for spaces); None when it is not whole
    records (a string the split cut, a mistake). Matched before any is read, so None leaves
    nothing read. The last one ends where the piece does, followed in the full text by a
    record (the split's next) or by a line that begins one (where regions end): so each
    match is the one the full text gives."""
    found: list[tuple[str, re.Match[str]]] = []
    at = _SPACE.match(piece).end()  # type: ignore[union-attr]
    while at < len(piece):
        kind = piece[at]
        pattern = _RECORD.get(kind)
        match = pattern.match(piece, at) if pattern is not None else None
        if match is None or match.end() == at:
            return None
        found.append((kind, match))
        at = match.end()
    return found


def _general(kind: str, groups: tuple[Any, ...]) -> tuple[Any, ...]:
    """A :data:`_RECORD` match's groups as :meth:`RecordReader._record` takes them: name,
    player, information set, its name, moves, outcome, its name, payoffs."""
    if kind == "p":
        return groups
    if kind == "c":
        return (groups[0], None, *groups[1:])
    return (groups[0], None, None, None, None, *groups[1:])


def _number(written: str) -> str:
    """An information set's number as written, when that is how it is known: ``07`` and
    ``7`` are one number to the token reader, so a leading zero goes to it."""
    if written[0] == "0" and written != "0":
        raise Fallback
    return written


def _unquoted(raw: str) -> str:
    return unescape(raw) if "\\" in raw else raw


def _bulk_payoffs(bodies: list[str], n: int) -> np.ndarray | None:
    """The payoffs between the braces of many outcomes, as a (outcomes, n) array, read in
    one pass: the bodies joined by ``}`` (which no body holds), split at spaces and commas,
    each word read by ``float`` (correctly rounded, as the exact reading rounds). In ASCII
    text without the letters of ``inf`` and ``nan`` nor ``_``, ``float`` reads exactly the
    words the tokenizer reads as decimal numbers and refuses the others. None when a body
    needs more than that (a rational, a number longer than :data:`MAX_NUMBER_LENGTH`, a
    word that is not a number) or does not hold ``n`` numbers. Equal bodies are read once."""
    unique = list(dict.fromkeys(bodies))
    if max(map(len, unique)) > MAX_NUMBER_LENGTH:
        return None
    joined = " } ".join(unique)
    if not joined.isascii() or any(letter in joined for letter in _NOT_FLOAT_LETTERS):
        return None
    words = joined.replace(",", " ").split()
    m = len(unique)
    if len(words) != m * (n + 1) - 1 or words.count("}") != m - 1 or words[n :: n + 1].count("}") != m - 1:
        return None  # a body without n numbers
    del words[n :: n + 1]
    try:
        values = np.array(array("d", map(float, words))).reshape(m, n)
    except ValueError:
        return None
    if m == len(bodies):
        return values
    index = dict(zip(unique, range(m), strict=True))
    return values[list(map(index.__getitem__, bodies))]


def _payoffs(body: str) -> tuple[float, ...]:
    """The payoffs between an outcome's braces. The body holds only digits, signs, points,
    exponents, slashes, commas and spaces (``_NOT_PAYOFFS``), so ``float`` reads what the
    tokenizer reads as a number (correctly rounded, as the exact reading rounds) and refuses
    the rest. Payoffs out of range pass here: the game's validation refuses them, and the
    token reader then names the line. Rationals and bodies longer than
    :data:`MAX_NUMBER_LENGTH` are read number by number (:func:`_payoff`)."""
    if _NOT_PAYOFFS.search(body):
        raise Fallback
    words = body.replace(",", " ").split()
    if "/" in body or len(body) > MAX_NUMBER_LENGTH:
        return tuple([_payoff(word) for word in words])
    try:
        return tuple(map(float, words))
    except ValueError:
        raise Fallback from None


def _payoff(word: str) -> float:
    """A payoff as :meth:`TokenStream.payoff` reads it; refusals go to the token reader.
    ``word`` holds only digits, signs, points, exponents and slashes (``_NOT_PAYOFFS``), so
    ``float`` reads what the tokenizer reads as a number, and refuses the rest."""
    if len(word) <= _SHORT_DECIMAL and "/" not in word:
        try:
            number = float(word)
        except ValueError:
            raise Fallback from None
        if abs(number) <= MAX_PAYOFF:
            return number
    if len(word) > MAX_NUMBER_LENGTH:
        raise Fallback
    try:
        number = to_float(parse_number(word), word)
        check_payoff(number, "a payoff")
    except (ValueError, GameError):
        raise Fallback from None
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
