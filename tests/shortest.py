"""Checks that written numbers are shortest round-trip text (issue 29, numbers as people read
them): each float field is ``repr`` of the float it parses to, and no zero is written ``-0``."""

from __future__ import annotations

import csv
import io
import json
from typing import Any


def check_float_text(field: str) -> float:
    """The value of ``field``, asserting it is written as Python's shortest round-trip form
    (``0.3``, not ``0.29999999999999999``), with no minus sign on a zero."""
    value = float(field)
    assert not (value == 0 and field.lstrip().startswith("-")), f"a negative zero written: {field!r}"
    if value == value and abs(value) != float("inf"):
        assert field == repr(value), f"{field!r} is not the shortest form {repr(value)!r}"
        assert float(field) == value  # round-trips
    return value


def check_json(text: str) -> Any:
    """``text`` parsed as JSON, every float checked by :func:`check_float_text`."""
    return json.loads(text, parse_float=check_float_text)


def check_csv(text: str) -> int:
    """Every numeric field of a CSV (``#`` lines skipped) checked; the count of floats."""
    rows = csv.reader(
        io.StringIO("".join(line for line in text.splitlines(True) if not line.startswith("#")))
    )
    floats = 0
    for row in rows:
        for field in row:
            try:
                float(field)
            except ValueError:
                continue
            if not field.lstrip("-").isdigit():
                check_float_text(field)
                floats += 1
    return floats
