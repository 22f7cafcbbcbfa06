"""Deep game trees in files (issue 10, defect 5): reading, writing and ``reduced:`` give a result or
a one-line :class:`RmvizError`, never a RecursionError."""

from __future__ import annotations

import json

import pytest

from rmviz.errors import FormatError, GameError, RmvizError
from rmviz.formats import load_game, read_game_file, write_game_file
from rmviz.formats.efg import read_efg
from rmviz.formats.rmviz_json import _loads_deep, read_json, write_json
from rmviz.games.extensive_form import ExtensiveFormGame, decision, terminal

pytestmark = pytest.mark.slow  # deep files take seconds each; .ci/run runs them

DEPTH = 5_000


def centipede_efg(depth: int = DEPTH) -> str:
    """A Gambit file with ``depth`` decisions in a row, players taking turns."""
    lines = ['EFG 2 R "centipede" { "A" "B" } ""']
    for d in range(depth):
        lines.append(f'p "" {d % 2 + 1} {d // 2 + 1} "d{d}" {{ "stop" "go" }} 0')
        lines.append(f't "" {d + 1} "" {{ {d}, {-d} }}')
    lines.append(f't "" {depth + 1} "" {{ 1, -1 }}')
    return "\n".join(lines) + "\n"


def terminals(game: ExtensiveFormGame) -> list[tuple[float, ...]]:
    return [node.payoffs for _, node in game.nodes() if node.kind == "terminal"]


@pytest.mark.slow  # 12 s; depth is also covered by test_hostile_files and the tree document
def test_a_deep_efg_file_reads_and_writes(tmp_path):
    game = read_efg(centipede_efg(), "centipede.efg")
    assert [len(s) for s in game.infosets] == [DEPTH // 2, DEPTH // 2]
    for suffix in (".efg", ".json"):
        path = tmp_path / f"again{suffix}"
        write_game_file(game, path)
        assert path.stat().st_size < 200 * (2 * DEPTH + 1)  # no indentation growing with depth
        again = read_game_file(path)
        assert again.infosets == game.infosets
        assert terminals(again) == terminals(game)


def test_a_deep_json_file_reads(tmp_path):
    """A tree nested deeper than Python's own JSON reader goes."""
    node = terminal(1, -1)
    for d in reversed(range(DEPTH)):
        node = decision(d % 2, f"d{d}", [("stop", terminal(d, -d)), ("go", node)])
    path = tmp_path / "deep.json"
    write_game_file(ExtensiveFormGame(node, ("A", "B"), "deep"), path)
    game = read_game_file(path)
    assert game.title == "deep"
    assert len(terminals(game)) == DEPTH + 1


def test_reduced_form_of_a_deep_file_is_a_one_line_error(tmp_path):
    path = tmp_path / "centipede.efg"
    path.write_text(centipede_efg())
    with pytest.raises(GameError) as caught:
        load_game(f"reduced:{path}")
    assert str(caught.value).startswith(f"{path}: 'A' has 2,501 reduced strategies in 'centipede'")
    assert "\n" not in str(caught.value)


def deep_json_text(depth: int = DEPTH) -> str:
    """A deep tree as rmviz JSON, one node per line."""
    node = terminal(1, -1)
    for d in reversed(range(depth)):
        node = decision(d % 2, f"d{d}", [("stop", terminal(d, -d)), ("go", node)])
    text = write_json(ExtensiveFormGame(node, ("A", "B"), "deep"))
    return text.replace('{"kind"', '\n{"kind"')


def test_errors_deep_in_a_json_file_name_the_line():
    text = deep_json_text()
    lines = text.split("\n")
    lines[4000] = lines[4000].replace('"payoffs":', '"payoffs";')
    expected = r"^deep\.json, line 4001: not valid JSON \(Expecting ':' delimiter\)$"
    with pytest.raises(FormatError, match=expected):
        read_json("\n".join(lines), "deep.json")
    with pytest.raises(FormatError, match=r"^deep\.json: NaN is not a payoff"):
        read_json(text.replace("[4999.0,", "[NaN,"), "deep.json")
    at = text.rindex('"player":2')
    broken = text[:at] + '"player":3' + text[at + len('"player":2') :]
    with pytest.raises(FormatError) as caught:
        read_json(broken, "deep.json")
    message = str(caught.value)
    assert message.startswith("deep.json: the node at the root > go > go > ")
    assert message.endswith("> go > go: its player is 3; players are 1..2")
    assert "(4975 more)" in message


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, 2.5, -3e-7, true, false, null, "x\\"y\\u00e9"], "b": {}, "c": []}',
        '[[[[[]]]], {}, {"k": {"k": [0]}}]',
        '  "s"  ',
        "12345678901234567890",
        "[1,]",
        '{"a" 1}',
        "[1 2]",
        '{"a": 1,}',
        "[",
        "",
        "[1] x",
        '"open',
    ],
)
def test_the_deep_reader_reads_what_pythons_reads(text):
    try:
        expected: object = json.loads(text)
    except json.JSONDecodeError as error:
        expected = (error.msg, error.lineno, error.colno)
    try:
        got: object = _loads_deep(text)
    except json.JSONDecodeError as error:
        got = (error.msg, error.lineno, error.colno)
    assert got == expected


def test_reduced_of_reduced_is_a_one_line_error():
    for spec in ("reduced:reduced:kuhn", "reduced:" * 5_000 + "kuhn"):
        with pytest.raises(RmvizError, match="the reduced strategic form is of a game tree"):
            load_game(spec)
