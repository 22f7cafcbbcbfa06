"""The one exception type for errors a person can cause.

A bad file, a NaN payoff, probabilities that do not sum to 1, a game too large for memory:
each raises :class:`RmvizError` (or a subclass) with a message written for the person who
caused it. The CLI prints the message and exits 2; the GUI shows it in a dialog. Any other
exception escaping to the user is a bug.
"""

from __future__ import annotations

QUOTED = 100  # the longest run of input an error line quotes whole


def one_line(message: str) -> str:
    """``message`` as one line a person reads: newlines become spaces, and any word longer
    than :data:`QUOTED` characters (a 400-digit number, a pasted file, a long path) is cut
    to its start and end with its length between (``999…999 (400 characters)``)."""

    def cut(word: str) -> str:
        if len(word) <= QUOTED:
            return word
        return f"{word[:60]}…{word[-30:]} ({len(word):,} characters)"

    return " ".join(cut(word) for word in message.replace("\r", " ").replace("\n", " ").split(" "))


def printable(text: str) -> str:
    """``text`` with each character that is not printable (newline, tab, NUL) escaped as
    Python writes it (``\\n``); letters of every script stay."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class RmvizError(Exception):
    """An error caused by input: its message is shown to the user as it is."""


class GameError(RmvizError):
    """A game that is not well formed (shapes, non-finite payoffs, names...)."""


class FormatError(RmvizError):
    """A file that cannot be read as the format it claims to be."""


class ConfigError(RmvizError):
    """A solver configuration that does not make sense for the game or the machine."""


class ReadError(FormatError):
    """A file refused while reading: it names the file, the line when known, and what is wrong.

    ``str(error)`` is ``"FILE, line N: REASON"`` (or ``"FILE: REASON"``), the one line the CLI
    prints and the window shows, the reason as :func:`one_line` writes it (a 5,000-digit key
    of a mutated file is quoted by its ends and length).
    """

    def __init__(self, filename: str, reason: str, line: int | None = None) -> None:
        self.filename = filename
        self.reason = reason
        self.line = line
        shown = printable(filename)  # a name holding a newline still makes one line
        where = f"{shown}, line {line}" if line is not None else shown
        super().__init__(f"{where}: {one_line(reason)}")


class Cancelled(RmvizError):
    """The person stopped long work (a walk, a file being read): its ``progress`` callback
    returned False."""
