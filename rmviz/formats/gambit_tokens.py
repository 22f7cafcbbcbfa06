"""Tokens of Gambit's text formats (.nfg, .efg), with line numbers for error messages.

Gambit's files are whitespace-separated: quoted strings (``"..."`` with ``\\"`` for a quote),
braces, commas, and numbers written as integers, decimals (``1.5``, ``1e-3``) or rationals
(``1/3``). Reference: the Gambit manual, "File formats".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import NamedTuple

from rmviz.errors import FormatError, GameError, ReadError
from rmviz.games.normal_form import MAX_PAYOFF, check_payoff

MAX_NUMBER_LENGTH = 1000
"""The longest number (in characters) rmviz reads: more digits than any double can use, and
short enough that exact parsing stays instant."""

MAX_DECADE = 400
"""Numbers of magnitude beyond 10^400 are refused, and below 10^-400 read as 0, before any
exact arithmetic (``1e999999999`` would otherwise build a billion-digit integer)."""


class Token(NamedTuple):
    """One token; ``kind`` is ``string``, ``number``, ``word``, ``{``, ``}`` or ``,``;
    ``start`` and ``end`` are its offsets in the file's text (lines are counted only for a
    message: :meth:`TokenStream.line`)."""

    kind: str
    text: str
    start: int
    end: int


# Gambit's lexer (src/games/file.cc): a string runs to the first quote not preceded by a
# backslash; numbers are integers, decimals (with exponents) or rationals ``a/b``, and end
# where a space, brace, comma or quote begins. Digits are ASCII 0-9 (Gambit's lexer tests
# isdigit in the C locale): "\d" would also take Arabic-Indic, fullwidth or Devanagari ones.
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<brace>[{},])
      | "(?P<string>.*?)(?<!\\)"
      | (?P<open>")
      | (?P<number>[+-]?(?:[0-9]+/[0-9]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)(?=[\s{},"]|\Z))
      | (?P<word>[^\s{},"]+)
      | \Z)""",
    re.VERBOSE | re.DOTALL,
)
_DECIMAL = re.compile(r"[+-]?(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?:[eE](?P<exp>[+-]?[0-9]+))?")
_RATIONAL = re.compile(r"[+-]?[0-9]+/[0-9]+")
_SHORT_DECIMAL = 24  # a decimal this short converts with float() exactly as the exact reading rounds


def tokenize(text: str, filename: str) -> Iterator[Token]:
    """The tokens of a Gambit file, one at a time; an unterminated string is a :class:`ReadError`."""
    position = 0
    while True:
        match = _TOKEN.match(text, position)
        assert match is not None  # every alternative, or the end of the text, matches
        kind = match.lastgroup
        if kind is None:
            return
        start, position = match.start(kind), match.end()
        if kind == "string":
            yield Token("string", unescape(match.group("string")), start, position)
        elif kind == "open":
            raise ReadError(filename, "a string is never closed", text.count("\n", 0, start) + 1)
        elif kind == "brace":
            value = match.group(kind)
            yield Token(value, value, start, position)
        else:
            yield Token(kind, match.group(kind), start, position)


def unescape(raw: str) -> str:
    """A Gambit string's text as Gambit reads it: ``\\"`` is a quote; any other backslash is
    kept with the character after it (Gambit's ``GameFileLexer::GetNextToken``)."""
    if "\\" not in raw:
        return raw
    out: list[str] = []
    after_backslash = False
    for char in raw:
        if after_backslash and char == '"':
            out.append('"')
        elif after_backslash:
            out.append("\\" + char)
        elif char != "\\":
            out.append(char)
        after_backslash = char == "\\"
    return "".join(out)


def parse_number(word: str) -> Fraction:
    """A Gambit number (``3``, ``-1.5``, ``2e3``, ``1/3``) exactly, as Gambit reads it.

    Raises ``ValueError`` with a reason for anything else: not a number, a zero denominator,
    more than :data:`MAX_NUMBER_LENGTH` characters, or a magnitude past 10^:data:`MAX_DECADE`
    (checked from the digits and exponent before any arithmetic). A magnitude below
    10^-:data:`MAX_DECADE` reads as 0, as it does in floating point.
    """
    if len(word) > MAX_NUMBER_LENGTH:
        raise ValueError(f"a number of {len(word)} characters (rmviz reads up to {MAX_NUMBER_LENGTH})")
    if _RATIONAL.fullmatch(word):
        numerator, denominator = word.split("/")
        if int(denominator) == 0:
            raise ValueError(f"{word} divides by zero")
        return Fraction(int(numerator), int(denominator))
    match = _DECIMAL.fullmatch(word)
    if match is None or not any(c.isdigit() for c in (match["int"] or "") + (match["frac"] or "")):
        raise ValueError(f"{word[:40]!r} is not a number")
    whole, fraction = (match["int"] or "").lstrip("0"), match["frac"] or ""
    if whole or fraction.strip("0"):  # not zero: where is its leading digit?
        written = match["exp"] or "0"
        exponent = int(written) if len(written) <= 7 else (-1 if written[0] == "-" else 1) * 10**7
        leading = len(whole) - 1 if whole else -(len(fraction) - len(fraction.lstrip("0"))) - 1
        if exponent + leading > MAX_DECADE:
            raise ValueError(f"{word[:40]} is out of range (about 10^{exponent + leading})")
        if exponent + leading < -MAX_DECADE:
            return Fraction(0)  # below any double's resolution (and what float() gives)
    return Fraction(word)


def to_float(value: Fraction, word: str) -> float:
    """``value`` as the nearest double; ``ValueError`` if it overflows."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{word[:40]} is too large for a float") from None


def format_number(value: float) -> str:
    """``value`` written so Gambit reads it back exactly: ``3``, ``-0.25``, ``0.1``, ``1e-05``.

    Integers are written without a decimal point; other floats in the shortest form that
    round-trips (Python's ``repr``; Gambit parses decimals as exact rationals, whose nearest
    double is ``value`` again), with exponents written without a plus sign, as Gambit wants.
    """
    if float(value).is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(float(value)).replace("e+", "e")  # Gambit reads 1.5e20 but not 1.5e+20


def quote(text: str, what: str, label: bool = True) -> str:
    """``text`` as a Gambit string literal, or a :class:`FormatError` naming ``what`` when
    Gambit cannot hold it.

    Gambit (16.x) reads printable ASCII; a *label* (player, strategy, action, information set,
    outcome or node name) must also not begin or end with a space nor hold two spaces in a row.
    A quote is written ``\\"``; a backslash is written as it is, which Gambit reads back only
    when it is not followed by another backslash or a quote and does not end the text.
    """
    allowed = " " if label else " \t\n"
    bad = next((c for c in text if not (c.isascii() and (c.isprintable() or c in allowed))), None)
    problem = None
    if bad is not None:
        problem = f"it contains {bad!r}; Gambit files hold printable ASCII only"
    elif label and (text != text.strip(" ") or "  " in text):
        problem = "Gambit labels may not begin or end with a space or hold two spaces in a row"
    elif "\\\\" in text or '\\"' in text or text.endswith("\\"):
        problem = "Gambit cannot read back a backslash before another backslash, a quote or the end"
    if problem is not None:
        raise FormatError(
            f"{what} {text[:60]!r} cannot be written in a Gambit file: {problem} (save as .json)"
        )
    return '"' + text.replace('"', '\\"') + '"'


def normalized_labels(labels: list[str]) -> list[str]:
    """Labels made distinct and non-empty as Gambit does on reading (``NormalizeLabels`` in
    src/games/file.cc): every label that repeats, and a lone empty label, becomes
    ``label_1``, ``label_2``... (skipping names already taken)."""
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    used = set(labels)
    visited: dict[str, int] = {}
    result = []
    for label in labels:
        if counts[label] == 1 and label:
            result.append(label)
            continue
        while True:
            visited[label] = visited.get(label, 0) + 1
            candidate = f"{label}_{visited[label]}"
            if candidate not in used:
                break
        used.add(candidate)
        result.append(candidate)
    return result


def read_header(stream: TokenStream, magic: str, version: str) -> tuple[str, list[str], Token]:
    """``MAGIC VERSION R|D "title" { "player" ... }``: the title, the player names, and the
    precision token (to anchor later messages about the header)."""
    extension = magic.lower()
    header = stream.next(f"the header '{magic} {version} R'")
    if header.text != magic:
        raise stream.error(
            header, f"not a Gambit .{extension} file: it starts with {header.text[:40]!r}, not '{magic}'"
        )
    found = stream.next("the version number")
    if found.text != version:
        raise stream.error(
            found, f"unsupported .{extension} version {found.text!r}; rmviz reads version {version}"
        )
    precision = stream.next("'R' or 'D'")
    if precision.text not in ("R", "D"):
        raise stream.error(precision, f"expected 'R' or 'D' after the version, found {precision.text!r}")
    title = stream.expect("string", "the game's title in quotes").text
    players = stream.strings_in_braces("the player names")
    return title, players, precision


class TokenStream:
    """A cursor over a file's tokens, read as they are needed, with ``expect`` helpers that
    raise messages naming the line."""

    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename
        self._tokens = tokenize(text, filename)
        self._ahead: Token | None = None
        self.last: Token | None = None  # the last token consumed

    def peek(self) -> Token | None:
        if self._ahead is None:
            self._ahead = next(self._tokens, None)
        return self._ahead

    def line(self, token: Token | None) -> int:
        """The line ``token`` starts on (the last token's for ``None``, the end of the file)."""
        at = token or self.last
        return self.text.count("\n", 0, at.start) + 1 if at is not None else 1

    def next(self, what: str) -> Token:
        token = self.peek()
        if token is None:
            raise ReadError(self.filename, f"the file ends where {what} was expected", self.line(None))
        self._ahead = None
        self.last = token
        return token

    def offset(self) -> int:
        """Where the text after the tokens consumed so far begins."""
        return self._ahead.start if self._ahead is not None else self.last.end if self.last else 0

    def rest(self) -> str:
        """The text after the tokens consumed so far."""
        start = self._ahead.start if self._ahead is not None else self.last.end if self.last else 0
        return self.text[start:]

    def skip_rest(self) -> None:
        """Consume everything that is left (after :meth:`rest` has been read another way)."""
        self._tokens = iter(())
        self._ahead = None

    def expect(self, kind: str, what: str) -> Token:
        token = self.next(what)
        if token.kind != kind:
            raise self.error(token, f"expected {what}, found {token.text!r}")
        return token

    def exact(self, what: str) -> Fraction:
        """The next token as an exact number."""
        token = self.next(what)
        if token.kind != "number":
            raise self.error(token, f"expected {what} (a number), found {token.text[:40]!r}")
        try:
            return parse_number(token.text)
        except ValueError as error:
            raise self.error(token, f"{what}: {error}") from None

    def payoff(self, what: str) -> float:
        """The next token as a payoff: a number within the range games accept.

        A short decimal goes straight through ``float`` (correctly rounded, so equal to the
        exact value rounded); rationals and long or out-of-range numbers are read exactly."""
        token = self.peek()
        if (
            token is not None
            and token.kind == "number"
            and len(token.text) <= _SHORT_DECIMAL
            and "/" not in token.text
            and abs(number := float(token.text)) <= MAX_PAYOFF
        ):
            self.next(what)
            return number
        value = self.exact(what)
        assert token is not None
        try:
            number = to_float(value, token.text)
            check_payoff(number, what)
        except (ValueError, GameError) as error:
            raise self.error(token, str(error)) from None
        return number

    def count(self, what: str, at_least: int = 0) -> int:
        """The next token as a whole number (an index or a count) of at most 18 digits."""
        token = self.next(what)
        whole = token.text.isascii() and token.text.isdigit()  # ASCII digits, as Gambit reads them
        if token.kind != "number" or not whole or len(token.text) > 18:
            raise self.error(token, f"expected {what} (a whole number), found {token.text[:40]!r}")
        value = int(token.text)
        if value < at_least:
            raise self.error(token, f"expected {what} of at least {at_least}, found {value}")
        return value

    def strings_in_braces(self, what: str) -> list[str]:
        self.expect("{", f"'{{' opening {what}")
        names: list[str] = []
        while (token := self.next(f"the end of {what}")).kind != "}":
            if token.kind != "string":
                raise self.error(token, f"expected a quoted name in {what}, found {token.text!r}")
            names.append(token.text)
        return names

    def error(self, token: Token | None, message: str) -> ReadError:
        """A :class:`ReadError` at ``token``'s line (``None``: the end of the file)."""
        return ReadError(self.filename, message, self.line(token))
