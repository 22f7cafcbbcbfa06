"""Exact numbers for reference solutions: floats read back as the fractions they stand for,
arrays of Fractions computed with one common denominator, and fractions written as a slide
writes them.

Games store payoffs as float64. A payoff typed as ``1/3`` or ``0.1`` is the float nearest to
it; :func:`rational` recovers the fraction, so ``2/9 * (0 - 10) + 4/9 * (7 - 2)`` comes out
exactly 0 and not 1e-17. Sums of products of Fractions are computed as Python integers over a
common denominator (:func:`common_denominator`), which is 10-20 times faster than Fraction
arithmetic term by term.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np

from rmviz.errors import ConfigError

Number = Fraction | float
MAX_DENOMINATOR = 1_000_000  # rational(): the simplest fraction up to this denominator
SHOWN_DENOMINATOR = 100_000  # format_number(): larger denominators are written as decimals
MAX_TOKEN = 64  # characters of one typed number
MAX_EXPONENT = 400  # 1e-400 is a fine probability; 1e999999 would be a huge integer


def rational(x: float) -> Fraction:
    """The number a float stands for: the simplest fraction with denominator at most 10^6 that
    rounds to ``x`` (``1/3`` for 0.3333333333333333), else its shortest decimal (``0.1`` is
    1/10, the number typed, not the binary float's 3602879701896397/2^55)."""
    x = float(x)
    if x.is_integer():
        return Fraction(int(x))
    simple = Fraction(x).limit_denominator(MAX_DENOMINATOR)
    return simple if float(simple) == x else Fraction(repr(x))


def exact_array(values: np.ndarray) -> np.ndarray:
    """A float array as an object array of :func:`rational` Fractions (each distinct value
    converted once)."""
    values = np.asarray(values, dtype=np.float64)
    distinct, inverse = np.unique(values, return_inverse=True)
    fractions = np.empty(distinct.size, dtype=object)
    fractions[:] = [rational(x) for x in distinct]
    return fractions[inverse.reshape(values.shape)]


def common_denominator(values: np.ndarray) -> tuple[np.ndarray, int]:
    """``(integers, d)``: an object array of Python integers with ``values == integers / d``
    (``values``: an object array of Fractions), ``d`` the least common denominator."""
    flat = values.ravel()
    d = math.lcm(*(int(v.denominator) for v in flat)) if flat.size else 1
    integers = np.empty(values.shape, dtype=object)
    integers.ravel()[:] = [int(v.numerator) * (d // int(v.denominator)) for v in flat]
    return integers, d


def fractions_of(integers: np.ndarray, d: int) -> np.ndarray:
    """``integers / d`` as an object array of Fractions."""
    out = np.empty(integers.shape, dtype=object)
    out.ravel()[:] = [Fraction(int(v), d) for v in integers.ravel()]
    return out


def parse_number(token: str, where: str) -> Fraction:
    """A typed number: a decimal (``0.25``, ``1e-3``) or a fraction (``2/9``), exactly;
    ``where`` names it in the error (``"entry 3"``)."""
    token = token.strip()
    exponent = re.search(r"[eE]([+-]?\d+)", token)
    if len(token) > MAX_TOKEN or (exponent is not None and abs(int(exponent.group(1))) > MAX_EXPONENT):
        raise ConfigError(f"{where} ({token[:20]!r}...) is too long a number")
    try:
        return Fraction(token)
    except (ValueError, ZeroDivisionError):
        raise ConfigError(
            f"{where} ({token!r}) is not a number: write decimals or fractions such as 2/9"
        ) from None


def format_number(x: Number, digits: int = 6) -> str:
    """``2/9``, ``-20/9``, ``0``, ``17`` for Fractions with small denominators; decimals with
    ``digits`` significant digits otherwise (floats, and Fractions such as 10^-17-exact
    decimals)."""
    if isinstance(x, Fraction):
        if abs(x.numerator) < 10**15 and x.denominator == 1:
            return str(x.numerator)
        if abs(x.numerator) < 10**15 and x.denominator <= SHOWN_DENOMINATOR:
            return f"{x.numerator}/{x.denominator}"
    value = float(x)
    return "0" if value == 0 else f"{value:.{digits}g}"


def simplest_near(values: np.ndarray, denominator: int) -> np.ndarray:
    """Each value as the closest fraction with denominator at most ``denominator`` (object
    array): candidates for exact verification of an LP's float solution."""
    out = np.empty(np.shape(values), dtype=object)
    out.ravel()[:] = [Fraction(float(x)).limit_denominator(denominator) for x in np.ravel(values)]
    return out


RATIONAL_DENOMINATORS = (10, 100, 1_000, 10_000, 100_000, 1_000_000)
"""The denominators tried, smallest first, when an LP's float solution is read as fractions."""
