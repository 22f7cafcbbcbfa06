"""Numbers as the explanations write them: 4 significant digits and never ``-0``
(:func:`number`), or a short fraction where a lecture's table would write one
(:func:`fraction`: ``2/3``, ``-5``, ``1/4``, denominators up to 16)."""

from __future__ import annotations

import math

from rmviz.numbers import format_number

FRACTION_DENOMINATORS = range(1, 17)


def number(x: float) -> str:
    """``x`` with 4 significant digits, never ``-0``."""
    return format_number(x, ".4g")


def fraction(x: float) -> str:
    """``x`` as a short fraction when it is one (to 1e-9 relative), else :func:`number`."""
    if math.isfinite(x):
        for q in FRACTION_DENOMINATORS:
            p = round(x * q)
            if abs(x - p / q) <= 1e-9 * max(1.0, abs(x)):
                return str(p) if q == 1 else f"{p}/{q}"
    return number(x)
