"""JSON written by rmviz holds each float in its shortest round-trip form and never ``-0``
(issue 29, numbers as people read them): :func:`rmviz.formats.rmviz_json.dumps_json`, indented
and on one line, and ``rmviz.numbers.plain_zeros`` for the CLI's ``--json``."""

from __future__ import annotations

import numpy as np

from rmviz.formats.rmviz_json import dumps_json
from rmviz.numbers import plain_zeros
from tests.shortest import check_json

DATA = {"a": [0.3, 0.1 + 0.2, -0.0, np.float64(-0.0), 1 / 3, 1e-17, 1, True], "b": {"c": -0.0, "d": "-0.0"}}


def test_dumps_json_writes_shortest_floats_and_no_negative_zero():
    for indent in (1, None):
        text = dumps_json(DATA, indent=indent)
        back = check_json(text)
        assert back["a"] == [0.3, 0.1 + 0.2, 0.0, 0.0, 1 / 3, 1e-17, 1, True]
        assert back["b"] == {"c": 0.0, "d": "-0.0"}  # a string is kept as it is
        assert "-0.0," not in text and ": -0.0" not in text and ":-0.0" not in text


def test_plain_zeros_changes_only_negative_zeros():
    plain = plain_zeros(DATA)
    assert plain["a"][2:4] == [0.0, 0.0] and all(np.copysign(1, x) == 1 for x in plain["a"][2:4])
    assert plain["a"][0] == 0.3 and plain["a"][6:] == [1, True] and type(plain["a"][7]) is bool
    assert plain["b"] == {"c": 0.0, "d": "-0.0"} and np.copysign(1, plain["b"]["c"]) == 1
