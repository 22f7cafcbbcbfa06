"""A JSON file whose "format" is not a string (a list, an object, null, a number) is refused in
one line, as any file of another format is (it ended in TypeError: issue 33)."""

from __future__ import annotations

import json

import pytest

from rmviz.errors import FormatError
from rmviz.formats import read_game_file


@pytest.mark.parametrize("value", [[1], {"a": 1}, None, 3, ["rmviz-game"]])
def test_a_format_that_is_not_a_string_is_refused(tmp_path, value):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"format": value, "version": 1}))
    with pytest.raises(FormatError, match='not an rmviz game file: its "format" is '):
        read_game_file(path)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"players": ["A", "B"]}', 'it has no "format"'),  # a hand-written game, the header forgotten
        ("[1, 2]", "its top level is a JSON array, not an object"),
        ('"rmviz-game"', "its top level is a JSON string, not an object"),
        ('{"format": "gambit"}', "its \"format\" is 'gambit'"),
    ],
)
def test_a_file_that_is_not_a_game_file_is_told_what_one_starts_with(tmp_path, text, why):
    """A JSON file without the header said only `its "format" is not 'rmviz-game'`: now what
    it has instead, and what a game file starts with."""
    path = tmp_path / "g.json"
    path.write_text(text)
    with pytest.raises(FormatError) as raised:
        read_game_file(path)
    assert str(raised.value) == (
        f"{path}: not an rmviz game file: {why} "
        '(one is a JSON object {"format": "rmviz-game", "version": 1, ...})'
    )
