"""The one exception type for errors a person can cause.

A bad file, a NaN payoff, probabilities that do not sum to 1, a game too large for memory:
each raises :class:`RmvizError` (or a subclass) with a message written for the person who
caused it. The CLI prints the message and exits 2; the GUI shows it in a dialog. Any other
exception escaping to the user is a bug.
"""

from __future__ import annotations


class RmvizError(Exception):
    """An error caused by input: its message is shown to the user as it is."""


class GameError(RmvizError):
    """A game that is not well formed (shapes, non-finite payoffs, names...)."""


class FormatError(RmvizError):
    """A file that cannot be read as the format it claims to be."""


class ConfigError(RmvizError):
    """A solver configuration that does not make sense for the game or the machine."""
