"""Ticks of log axes, the same in exported figures and the live plots: labels at decades
only (``1``, ``10``, ``10²``...), every k-th decade when there is no room for all of them,
and unlabelled minor ticks at 2..9 times a decade while few decades are shown. Positions are
in log10 units (pyqtgraph's log mode); :func:`decade_ticks` decides, the renderers draw.
"""

from __future__ import annotations

import math

SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MINOR_DECADES = 6  # minor ticks while at most this many decades are shown
# named ticks (actions) too many to label each: every k-th, k the first of these that fits
CATEGORY_STRIDES = tuple(s * 10**e for e in range(6) for s in (1, 2, 5))


def every_kth(count: int, k: int) -> range:
    """The positions labelled when every ``k``-th of ``count`` named ticks is: the k-th,
    2k-th... (round numbers when the names are numbers), in the window and in figures."""
    return range(k - 1, count, k)


def decade_ticks(low: float, high: float, room: int) -> tuple[list[int], list[float]]:
    """Labelled decade exponents within ``[low, high]`` (log10 units), at most ``room`` of
    them (every k-th decade, k chosen so they fit, multiples of k kept so labels do not jump
    while panning; but two at least where there is room for two, as 10^-4 .. 10^-1 at room 2
    labelled 10^-3 only), and the minor tick positions (log10 of 2..9 x 10^e)."""
    low, high = sorted((low, high))
    if not (math.isfinite(low) and math.isfinite(high)):
        return [], []
    first, last = math.ceil(low - 1e-9), math.floor(high + 1e-9)
    decades = list(range(first, last + 1))
    stride = max(1, math.ceil(len(decades) / max(1, room)))
    majors = [e for e in decades if e % stride == 0]
    if len(majors) < 2 <= min(room, len(decades)):  # room for two, yet one multiple: shift them
        majors = max(([e for e in decades if (e - k) % stride == 0] for k in range(stride)), key=len)
    minors: list[float] = []
    if high - low <= MINOR_DECADES:
        for e in range(math.floor(low), math.ceil(high)):
            minors.extend(e + math.log10(m) for m in range(2, 10) if low <= e + math.log10(m) <= high)
    elif stride > 1:  # unlabelled decades between the labelled ones
        minors = [float(e) for e in decades if e not in majors]
    return majors, minors


def decade_label(exponent: int) -> str:
    """``1``, ``10``, ``10²``, ``10⁻³`` (plain text with Unicode superscripts)."""
    if exponent == 0:
        return "1"
    if exponent == 1:
        return "10"
    return "10" + str(exponent).translate(SUPERSCRIPTS)


def decade_tex(exponent: int) -> str:
    """The same label in mathtext: ``$1$``, ``$10$``, ``$10^{2}$``, ``$10^{-3}$``."""
    if exponent in (0, 1):
        return f"${10**exponent}$"
    return f"$10^{{{exponent}}}$"
