"""Tokens of Gambit's text formats (.nfg, .efg), with line numbers for error messages.

Gambit's files are whitespace-separated: quoted strings (``"..."`` with ``\\"`` for a quote),
braces, commas, and numbers written as integers, decimals (``1.5``, ``1e-3``) or rationals
(``1/3``). Reference: the Gambit manual, "File formats".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rmviz.errors import FormatError


@dataclass(frozen=True)
class Token:
    """One token; ``kind`` is ``string``, ``number``, ``word``, ``{``, ``}`` or ``,``."""

    kind: str
    text: str
    line: int


def tokenize(text: str, filename: str) -> list[Token]:
    """Split a Gambit file into tokens; an unterminated string is a :class:`FormatError`."""
    tokens: list[Token] = []
    i, line, n = 0, 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch in "{},":
            tokens.append(Token(ch, ch, line))
            i += 1
        elif ch == '"':
            start_line, i, chars = line, i + 1, []
            while True:
                if i >= n:
                    raise FormatError(f"{filename}, line {start_line}: a string is never closed")
                ch = text[i]
                if ch == "\\" and i + 1 < n:
                    chars.append(text[i + 1])
                    i += 2
                    continue
                if ch == '"':
                    i += 1
                    break
                if ch == "\n":
                    line += 1
                chars.append(ch)
                i += 1
            tokens.append(Token("string", "".join(chars), start_line))
        else:
            start = i
            while i < n and not text[i].isspace() and text[i] not in '{},"':
                i += 1
            word = text[start:i]
            kind = "number" if _is_number(word) else "word"
            tokens.append(Token(kind, word, line))
    return tokens


def _is_number(word: str) -> bool:
    try:
        parse_number(word)
    except ValueError:
        return False
    return True


def parse_number(word: str) -> float:
    """A Gambit number (``3``, ``-1.5``, ``2e3``, ``1/3``) as a float; ``ValueError`` if not one."""
    if "/" in word:
        return float(Fraction(word))
    value = float(word)
    if word.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise ValueError(word)
    return value


def format_number(value: float) -> str:
    """``value`` written so Gambit reads it back exactly: ``3``, ``-0.25``, ``0.1``.

    Integers are written without a decimal point; other floats in the shortest positional
    form that round-trips (Gambit parses decimals as exact rationals, whose nearest double
    is ``value`` again).
    """
    if float(value).is_integer() and abs(value) < 2**53:
        return str(int(value))
    import numpy as np

    return np.format_float_positional(value, unique=True, trim="-")


def quote(text: str) -> str:
    """``text`` as a Gambit string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_header(stream: TokenStream, magic: str, version: str) -> tuple[str, list[str], Token]:
    """``MAGIC VERSION R|D "title" { "player" ... }``: the title, the player names, and the
    precision token (to anchor later messages about the header)."""
    extension = magic.lower()
    header = stream.next(f"the header '{magic} {version} R'")
    if header.text != magic:
        raise stream.error(
            header, f"not a Gambit .{extension} file: it starts with {header.text!r}, not '{magic}'"
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
    """A cursor over tokens with ``expect`` helpers that raise messages naming the line."""

    def __init__(self, tokens: list[Token], filename: str) -> None:
        self.tokens = tokens
        self.filename = filename
        self.pos = 0

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def next(self, what: str) -> Token:
        token = self.peek()
        if token is None:
            last = self.tokens[-1].line if self.tokens else 1
            raise FormatError(f"{self.filename}, line {last}: the file ends where {what} was expected")
        self.pos += 1
        return token

    def expect(self, kind: str, what: str) -> Token:
        token = self.next(what)
        if token.kind != kind:
            raise self.error(token, f"expected {what}, found {token.text!r}")
        return token

    def number(self, what: str) -> float:
        token = self.next(what)
        if token.kind != "number":
            raise self.error(token, f"expected {what} (a number), found {token.text!r}")
        return parse_number(token.text)

    def strings_in_braces(self, what: str) -> list[str]:
        self.expect("{", f"'{{' opening {what}")
        names: list[str] = []
        while (token := self.next(f"the end of {what}")).kind != "}":
            if token.kind != "string":
                raise self.error(token, f"expected a quoted name in {what}, found {token.text!r}")
            names.append(token.text)
        return names

    def error(self, token: Token, message: str) -> FormatError:
        return FormatError(f"{self.filename}, line {token.line}: {message}")
