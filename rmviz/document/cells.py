"""The text of a payoff cell: ``"10, 7"`` for a bimatrix, one number in a zero-sum game."""

from __future__ import annotations

import math
import re

from rmviz.errors import GameError
from rmviz.numbers import format_number

_SEPARATOR = re.compile(r"\s*[,;]\s*|\s+")


def parse_cell(text: str, n_players: int, zero_sum: bool) -> tuple[float, ...]:
    """Payoffs for every player from a cell's text; a :class:`GameError` says what is wrong.

    In a two-player zero-sum game one number ``a`` means ``(a, -a)``. Numbers may be
    separated by commas, semicolons or spaces; fractions like ``1/3`` are accepted.
    """
    parts = [p for p in _SEPARATOR.split(text.strip()) if p]
    if not parts:
        raise GameError("a payoff cell cannot be empty")
    values = []
    for part in parts:
        try:
            if "/" in part:
                numerator, denominator = part.split("/", 1)
                value = float(numerator) / float(denominator)
            else:
                value = float(part)
        except (ValueError, ZeroDivisionError):
            raise GameError(f"{part!r} is not a number") from None
        if not math.isfinite(value):
            raise GameError(f"{part!r}: payoffs must be finite numbers")
        values.append(value)
    if zero_sum and n_players == 2 and len(values) == 1:
        return (values[0], -values[0])
    if len(values) != n_players:
        hint = " (or one number in a zero-sum game)" if n_players == 2 else ""
        raise GameError(f"write {n_players} payoffs separated by commas{hint}; got {len(values)}")
    if zero_sum and abs(sum(values)) > 1e-9 * max(1.0, max(abs(v) for v in values)):
        raise GameError(f"payoffs {', '.join(map(_number, values))} do not sum to zero in a zero-sum game")
    return tuple(values)


def _number(value: float) -> str:
    return format_number(value)


def format_cell(values: tuple[float, ...], zero_sum: bool) -> str:
    """The text shown in a cell: the row player's payoff alone in a 2-player zero-sum game."""
    if zero_sum and len(values) == 2:
        return _number(values[0])
    return ", ".join(_number(v) for v in values)
