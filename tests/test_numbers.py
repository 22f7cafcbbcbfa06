"""No number rmviz shows or writes reads "-0"."""

from __future__ import annotations

import math

import pytest

from rmviz.numbers import format_number, plain_zero


@pytest.mark.parametrize(
    ("value", "spec", "text"),
    [
        (-0.0, "g", "0"),
        (0.0, "g", "0"),
        (-0.0, ".4g", "0"),
        (-1e-9, ".2f", "0.00"),  # rounds to zero: no sign
        (-0.04, ".1f", "0.0"),
        (-1e-9, "8.4f", "  0.0000"),  # the width is kept
        (-0.001, ".0%", "0%"),
        (-1e-300, ".1e", "-1.0e-300"),  # not zero in this format: the sign stays
        (-1e-9, ".3g", "-1e-09"),
        (-0.5, ".1f", "-0.5"),
        (-2.0, "g", "-2"),
        (1234.5, ",.1f", "1,234.5"),
        (-math.inf, "g", "-inf"),
        (math.nan, "g", "nan"),
    ],
)
def test_format_number(value, spec, text):
    assert format_number(value, spec) == text


def test_plain_zero():
    assert math.copysign(1.0, plain_zero(-0.0)) == 1.0 and repr(plain_zero(-0.0)) == "0.0"
    assert plain_zero(-3.5) == -3.5
