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
    with pytest.raises(FormatError, match='its "format" is not'):
        read_game_file(path)
