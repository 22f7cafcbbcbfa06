"""Numbers as people read them: never ``-0`` (used by every layer that shows or writes one).

IEEE 754 has a negative zero: ``-0.0`` comes out of negating a zero payoff (the column
player's payoffs of a zero-sum game, ``u_2 = -u_1``), of ``0 * -3`` (a counterfactual
value where the reach is zero) or of rounding a tiny negative number (``f"{-1e-9:.2f}"`` is
``"-0.00"``). Python writes it ``-0``, which on a slide reads as a mistake. Games never
store it (:class:`~rmviz.games.normal_form.NormalFormGame` and the tree's terminal nodes
add ``0.0``, which turns ``-0.0`` into ``0.0`` and changes no other number), and every
number the app, the figures and the files show goes through :func:`format_number`, which
also drops the sign of a number that rounds to zero.
"""

from __future__ import annotations

import math
from typing import Any


def format_number(value: float, spec: str = "g") -> str:
    """``format(value, spec)`` without a minus sign on a zero: ``-0.0`` is ``"0"``, and
    ``-0.001`` with ``".2f"`` is ``"0.00"``, not ``"-0.00"``. NaN and infinities keep their
    usual text (``"nan"``, ``"-inf"``)."""
    number = float(value)
    text = format(number + 0.0, spec)  # + 0.0: -0.0 becomes 0.0, everything else is unchanged
    unpadded = text.lstrip()
    if unpadded.startswith("-") and math.isfinite(number) and _reads_as_zero(unpadded[1:]):
        padded = len(unpadded) < len(text)  # a width: the sign's place stays, as a space
        return text.replace("-", " " if padded else "", 1)
    return text


def _reads_as_zero(text: str) -> bool:
    """Whether a formatted (unsigned) number is zero: its digits before any exponent are all
    ``0`` (``"0.00"``, ``"0e+00"``, ``"0.0%"``)."""
    mantissa = text.lower().split("e")[0]
    digits = [c for c in mantissa if c.isdigit()]
    return bool(digits) and all(c == "0" for c in digits)


def plain_zero(value: float) -> float:
    """``value`` with ``-0.0`` made ``0.0`` (for numbers written with ``repr`` or JSON)."""
    return float(value) + 0.0


def plain_zeros(data: Any) -> Any:
    """``data`` (JSON-like: dicts, lists, tuples, numbers, strings) with every ``-0.0`` made
    ``0.0``, for ``json.dumps``, which writes floats in their shortest round-trip form
    (``repr``) but keeps the sign of a zero. Recursive: a ``RecursionError`` on data nested
    deeper than Python's limit, as ``json.dumps`` itself raises."""
    if isinstance(data, float):
        return float(data) + 0.0
    if isinstance(data, dict):
        return {key: plain_zeros(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [plain_zeros(value) for value in data]
    return data
