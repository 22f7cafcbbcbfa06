"""Numbers as the explanations write them: 4 significant digits and never ``-0``
(:func:`number`), or a short fraction where a lecture's table would write one
(:func:`fraction`: ``2/3``, ``-5``, ``1/4``, denominators up to 16). A table's column is
one or the other throughout (:func:`column`)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from rmviz.numbers import format_number

FRACTION_DENOMINATORS = range(1, 17)


def number(x: float) -> str:
    """``x`` with 4 significant digits, never ``-0``."""
    return format_number(x, ".4g")


def short_fraction(x: float) -> tuple[int, int] | None:
    """``(p, q)`` with ``x = p / q`` (to 1e-9 relative) and ``q <= 16``, else None."""
    if math.isfinite(x):
        for q in FRACTION_DENOMINATORS:
            p = round(x * q)
            if abs(x - p / q) <= 1e-9 * max(1.0, abs(x)):
                return p, q
    return None


def fraction(x: float) -> str:
    """``x`` as a short fraction when it is one, else :func:`number`."""
    exact = short_fraction(x)
    if exact is None:
        return number(x)
    p, q = exact
    return str(p) if q == 1 else f"{p}/{q}"


def column(values: Iterable[float]) -> list[str]:
    """A column of a table: short fractions when every entry is one, else decimals
    throughout (issue 29: a column read "-2.711, 2/9, 0.08889")."""
    floats = [float(v) for v in values]
    if all(short_fraction(x) is not None for x in floats):
        return [fraction(x) for x in floats]
    return [number(x) for x in floats]


CENTURY = 3.2e9  # seconds: a duration past this is said as "more than a century"


def duration(seconds: float) -> str:
    """A duration as a person says it: ``45 seconds``, ``12 minutes``, ``2.5 hours``,
    ``3.1 days``, ``more than a century``."""
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 172_800:
        return f"{seconds / 3600:.1f} hours"
    if seconds < CENTURY:
        return f"{seconds / 86_400:,.1f} days"
    return "more than a century"
