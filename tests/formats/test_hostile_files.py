"""Hostile files, one class each (issue 17): refused with one line naming file, line and reason,
quickly, before memory is spent; or read as Gambit reads them."""

from __future__ import annotations

import os
import tracemalloc

import numpy as np
import pytest

from rmviz.errors import FormatError, ReadError
from rmviz.formats import read_efg, read_game_file, read_json, read_nfg, rmviz_json, write_efg, write_nfg
from rmviz.formats.gambit_tokens import parse_number
from rmviz.games.catalog import CATALOG, catalog_game
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.normal_form import NormalFormGame
from rmviz.games.trees import normal_form_tree
from tests.cpu_guard import cpu_under

NFG = 'NFG 1 R "t" { "A" "B" } { 2 2 }\n'
EFG = 'EFG 2 R "t" { "A" "B" } ""\n'
TWO_LEAVES = 't "" 1 "o" { 1 2 }\nt "" 2 "o2" { 1 2 }\n'
MATRIX = (
    '{"format":"rmviz-game","version":1,"kind":"normal-form","players":[{"name":"A","actions":["x","y"]},'
)
MATRIX += '{"name":"B","actions":["x","y"]}],"payoffs":'
TREE = '{"format":"rmviz-game","version":1,"kind":"extensive-form","players":["A","B"],"root":'


def leaf(payoffs: str) -> str:
    return '{"kind":"terminal","payoffs":' + payoffs + "}"


def decision(player: str, moves: list[str]) -> str:
    listed = ",".join(f'{{"move":"m{k}","node":{node}}}' for k, node in enumerate(moves))
    return '{"kind":"decision","player":' + player + ',"infoset":"i","moves":[' + listed + "]}"


HOSTILE = {
    # numbers: zero denominators, overflow, thousands of digits, exponents that would build
    # billion-digit integers, the float limit
    "zero denominator": (read_nfg, NFG + "1/0 0 0 0 0 0 0 0", "line 2: payoff 1: 1/0 divides by zero"),
    "overflowing decimal": (read_nfg, NFG + "1e400 0 0 0 0 0 0 0", "line 2: 1e400 is too large for a float"),
    "huge rational": (read_nfg, NFG + "1" + "0" * 500 + "/1 0 0 0 0 0 0 0", "too large for a float"),
    "thousands of digits": (read_nfg, NFG + "9" * 5000 + " 0 0 0 0 0 0 0", "a number of 5000 characters"),
    "giant exponent": (read_nfg, NFG + "1e999999999 0 0 0 0 0 0 0", "out of range"),
    "float limit": (read_nfg, NFG + "1.7e308 0 0 0 0 0 0 0", "payoff 1 is 1.7e+308; payoffs must be finite"),
    "chance zero denominator": (
        read_efg,
        EFG + 'c "" 1 "" { "x" 1/0 "y" 1 } 0\n' + TWO_LEAVES,
        "line 2: the probability of chance move 'x': 1/0 divides by zero",
    ),
    "probabilities cancelling through infinities": (
        read_efg,
        EFG + 'c "" 1 "" { "x" 1e300 "y" -1e300 "z" 1 } 0\n' + 't "" 1 "o" { 1 2 }\n' * 3,
        "chance move 'x' has probability 1e300, not in [0, 1]",
    ),
    # sizes and counts
    "1,100 players": (
        read_nfg,
        'NFG 1 R "t" { ' + " ".join(f'"P{i}"' for i in range(1100)) + " } { " + "2 " * 1100 + "}\n1",
        "the game lists 1100 player(s); rmviz reads 2 to 8",
    ),
    "10^9 strategies": (read_nfg, 'NFG 1 R "t" { "A" "B" } { 1000000000 1 }\n1 2', "more than 2 GiB"),
    "10^7 strategies, three payoffs": (
        read_nfg,
        'NFG 1 R "t" { "A" "B" } { 10000000 1 }\n1 2 3',
        "expected 20000000 payoffs (2 per profile), the file ends at payoff 4",
    ),
    "a count of 5,000 digits": (
        read_nfg,
        'NFG 1 R "t" { "A" "B" } { ' + "2" * 5000 + " 1 }\n1 2",
        "expected a number of strategies (a whole number)",
    ),
    "an outcome index of 5,000 digits": (
        read_nfg,
        'NFG 1 R "t" { "A" "B" } { 1 1 }\n""\n{ { "o" 1, 2 } }\n' + "1" * 5000,
        "expected the outcome number of profile 1 (a whole number)",
    ),
    "a player number of 5,000 digits": (
        read_efg,
        EFG + 'p "" ' + "1" * 5000 + ' 1 "" { "a" "b" } 0\n' + TWO_LEAVES,
        "line 2: expected the player number (a whole number)",
    ),
    # definitions Gambit refuses
    "outcome redefined": (
        read_efg,
        EFG + 'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "o" { 1 2 }\nt "" 1 "o" { 5 6 }\n',
        "line 4: outcome 1 is defined again as 'o' [5.0, 6.0], but as 'o' [1.0, 2.0] on line 3",
    ),
    "payoffs for outcome 0": (
        read_efg,
        EFG + 'p "" 1 1 "" { "a" "b" } 0\nt "" 0 "o" { 1 2 }\nt "" 1 "o" { 5 6 }\n',
        "line 3: outcome 0 means no outcome: it cannot be given a name or payoffs",
    ),
    "no decision node": (
        read_efg,
        EFG + 'c "" 1 "" { "x" 1/2 "y" 1/2 } 0\n' + TWO_LEAVES,
        "the tree has no decision node",
    ),
    "a lone terminal": (read_efg, EFG + 't "" 1 "o" { 1 2 }\n', "the tree has no decision node"),
    # JSON
    "an integer too big for a float": (
        read_json,
        MATRIX + "[[[1" + "0" * 400 + ",0],[0,0]],[[0,0],[0,0]]]}",
        "a payoff is too large for a float",
    ),
    "NaN": (read_json, MATRIX + "[[[NaN,0],[0,0]],[[0,0],[0,0]]]}", "NaN is not a payoff"),
    "player 1e400": (
        read_json,
        TREE + decision("1e400", [leaf("[1,2]")]) + "}",
        "the node at the root: its player is Infinity; players are 1..2",
    ),
    "a tree payoff too big for a float": (
        read_json,
        TREE + decision("1", [leaf("[1" + "0" * 400 + ",2]"), leaf("[1,2]")]) + "}",
        "the node at the root > m0: a payoff is too large for a float",
    ),
    "a name that is not a string": (
        read_json,
        MATRIX.replace('"name":"B"', '"name":null') + "[[[1,0],[0,0]],[[0,0],[0,0]]]}",
        "the name of player 2 must be a string in quotes, not null",
    ),
    "a JSON tree without a decision": (
        read_json,
        TREE + leaf("[1,2]") + "}",
        "the tree has no decision node",
    ),
    "JSON nested 20,000 deep": (read_json, "[" * 20_000 + "]" * 20_000, "not an rmviz game file"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_file_is_refused_with_one_line(case):
    reader, text, expected = HOSTILE[case]
    tracemalloc.start()
    try:
        with cpu_under(30), pytest.raises(ReadError) as caught:  # a hang guard: milliseconds each
            reader(text, "hostile")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(caught.value)
    assert message.startswith("hostile") and "\n" not in message
    assert expected in message
    assert peak < 64 * 1024**2 + 4 * len(text)  # nothing allocated for sizes the file only claims


def test_json_nesting_is_bounded(monkeypatch):
    """Past MAX_NESTING (300,000: a tree 100,000 moves deep) JSON is refused, not parsed."""
    monkeypatch.setattr(rmviz_json, "MAX_NESTING", 2_000)
    with pytest.raises(ReadError, match="line 1: not valid JSON \\(nested more than 2,000 levels deep\\)"):
        read_json("[" * 2_002 + "]" * 2_002, "deep.json")


def test_numbers_are_read_exactly_and_bounded():
    assert parse_number("0.1") * 10 == 1
    assert parse_number("-1/3") * 3 == -1
    assert parse_number("1e-999999999") == 0  # below any double: 0, without building 10^10^9
    for word in ("1/0", "1e401", "x", "-", "e5", "9" * 1001):
        with pytest.raises(ValueError):
            parse_number(word)


def test_chance_moves_that_share_a_label_are_renamed_as_gambit_does():
    text = EFG + 'c "" 1 "" { "1/2" 1/2 "1/2" 1/2 } 0\np "" 1 1 "" { "a" "b" } 0\n' + TWO_LEAVES
    text += 'p "" 1 2 "" { "a" "b" } 0\nt "" 3 "o3" { 1 2 }\nt "" 4 "o4" { 1 2 }\n'
    game = read_efg(text)
    assert game.root.moves == ("1/2_1", "1/2_2")


def test_repeated_player_and_strategy_names_are_renamed_as_gambit_does():
    game = read_nfg('NFG 1 R "t" { "P" "P" } { { "x" "x" "" } { "y" } }\n1 2 3 4 5 6')
    assert game.player_names == ("P_1", "P_2")
    assert game.action_names == (("x_1", "x_2", "_1"), ("y",))


def test_gambit_string_escapes_are_read_as_gambit_reads_them():
    game = read_nfg('NFG 1 R "t" { "a\\"b" "c\\d" } { 1 1 }\n1 2')
    assert game.player_names == ('a"b', "c\\d")


# -- files from disk -------------------------------------------------------------------------------
def test_a_device_a_folder_and_path_errors_are_refused(tmp_path):
    (tmp_path / "zero.nfg").symlink_to("/dev/zero")
    (tmp_path / "loop1.nfg").symlink_to(tmp_path / "loop2.nfg")
    (tmp_path / "loop2.nfg").symlink_to(tmp_path / "loop1.nfg")
    (tmp_path / "file").write_text("x")
    (tmp_path / "folder.nfg").mkdir()
    cases = {
        "zero.nfg": "is not a regular file",
        "loop1.nfg": "cannot read (Too many levels of symbolic links)",
        "file/under.nfg": "cannot read (Not a directory)",
        "folder.nfg": "is a folder",
        "a" * 300 + ".nfg": "cannot read (File name too long)",
        "missing.efg": "no such file",
    }
    for name, expected in cases.items():
        with pytest.raises(ReadError, match=expected.replace("(", r"\(").replace(")", r"\)")):
            read_game_file(tmp_path / name)


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "binary.nfg"
    path.write_bytes(b"NFG 1 R \xff\xfe\x00")
    with pytest.raises(ReadError, match="not a text file"):
        read_game_file(path)


def test_a_large_nfg_reads_in_seconds(tmp_path):
    """The 1000x1000 payoff body goes through one vectorised pass (it took 22 s token by token)."""
    game = NormalFormGame(np.random.default_rng(0).integers(-9, 9, (2, 300, 300)).astype(float))
    path = tmp_path / "big.nfg"
    path.write_text(write_nfg(game))
    assert read_game_file(path) == game


# -- names that Gambit can and cannot hold ------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("é", "printable ASCII"),
        ("a\tb", "printable ASCII"),
        ("a\nb", "printable ASCII"),
        (" lead", "begin or end with a space"),
        ("trail ", "begin or end with a space"),
        ("a  b", "two spaces"),
        ("a\\\\b", "backslash"),
        ('a\\"b', "backslash"),
        ("a\\", "backslash"),
    ],
)
def test_a_name_gambit_cannot_hold_is_refused_by_name(name, problem):
    game = NormalFormGame(np.zeros((2, 2, 2)), ("P1", "P2"), ((name, "b"), ("c", "d")))
    for write in (write_nfg, lambda g: write_efg(normal_form_tree(g))):
        with pytest.raises(FormatError, match=problem) as caught:
            write(game)
        assert repr(name)[:20] in str(caught.value)


@pytest.mark.gambit
@pytest.mark.parametrize("name", ['a"b', "a,b", "x{y}", "a\\b", "~!@#$%^&*()", "two words"])
def test_names_gambit_holds_round_trip_through_gambit(tmp_path, name):
    import pygambit as gambit

    game = NormalFormGame(
        np.arange(8.0).reshape(2, 2, 2), ("P1", name), ((name, "b"), ("c", "d")), title=name
    )
    (tmp_path / "g.nfg").write_text(write_nfg(game))
    (tmp_path / "g.efg").write_text(write_efg(normal_form_tree(game)))
    nfg = gambit.read_nfg(str(tmp_path / "g.nfg"))
    assert [p.label for p in nfg.players] == ["P1", name]
    assert [s.label for s in next(iter(nfg.players)).strategies] == [name, "b"]
    efg = gambit.read_efg(str(tmp_path / "g.efg"))
    assert [a.label for a in next(iter(next(iter(efg.players)).infosets)).actions] == [name, "b"]
    assert read_nfg(write_nfg(game)) == game


@pytest.mark.parametrize("game_id", list(CATALOG))
def test_every_catalog_game_writes_gambit_files(game_id):
    game = catalog_game(game_id)
    text = write_efg(game) if isinstance(game, ExtensiveFormGame) else write_nfg(game)
    assert text


def test_symlinked_dev_zero_is_not_read(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    (tmp_path / "z.efg").symlink_to("/dev/zero")
    with cpu_under(1), pytest.raises(ReadError):
        read_game_file(tmp_path / "z.efg")
