"""Numbers in the explanations (rmviz.present.number_text): one 4-digit rule, and fractions
as a lecture's table writes them."""

from __future__ import annotations

import math

import pytest

from rmviz.present.number_text import fraction, number


@pytest.mark.parametrize(
    ("x", "text"),
    [(2 / 3, "0.6667"), (-0.0, "0"), (-1e-20, "-1e-20"), (12345.6, "1.235e+04"), (math.nan, "nan")],
)
def test_number_has_four_significant_digits_and_no_negative_zero(x, text):
    assert number(x) == text


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (2 / 3, "2/3"),
        (-5.0, "-5"),
        (-0.0, "0"),
        (1 / 16, "1/16"),
        (1 / 17, "0.05882"),  # past the denominators a table writes: 4 digits
        (0.1 + 1e-12, "1/10"),
        (math.inf, "inf"),
        (-math.inf, "-inf"),
        (math.nan, "nan"),
    ],
)
def test_fraction_writes_short_fractions_and_else_the_number(x, text):
    assert fraction(x) == text
