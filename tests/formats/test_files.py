from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from rmviz.errors import FormatError, RmvizError
from rmviz.formats import load_game, read_game_file, write_game_file
from rmviz.formats.nfg import read_nfg, write_nfg
from rmviz.formats.rmviz_json import read_json, write_json
from rmviz.games import catalog_game, random_game
from rmviz.games.extensive_form import ExtensiveFormGame

RPS_ROW = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def test_gambit_reference_files_open(reference_games):
    rps = read_game_file(reference_games / "rps.nfg")
    assert rps.title == "Rock-paper-scissors"
    assert rps.player_names == ("Row", "Column")
    assert rps.action_names[0] == ("Rock", "Paper", "Scissors")
    np.testing.assert_array_equal(rps.payoffs[0], RPS_ROW)
    outcome = read_game_file(reference_games / "rps_outcome.nfg")
    np.testing.assert_array_equal(outcome.payoffs, rps.payoffs)
    bos = read_game_file(reference_games / "bos_payoff.nfg")
    np.testing.assert_array_equal(bos.payoffs, catalog_game("battle-of-partners").payoffs)
    pd = read_game_file(reference_games / "pd.nfg")
    np.testing.assert_array_equal(pd.payoffs[0], [[9, 0], [10, 1]])
    np.testing.assert_array_equal(pd.payoffs[1], [[9, 10], [0, 1]])


def test_rationals_are_exact():
    game = read_nfg('NFG 1 R "r" { "A" "B" } { 2 1 }\n1/3 -2/3 0.25 1e-3\n')
    assert game.payoffs[0, 0, 0] == float(Fraction(1, 3))
    assert game.payoffs[1, 1, 0] == 1e-3


@pytest.mark.parametrize("spec", ["rps-crash", "random:general-sum:3x2x4:seed=1", "three-player-pennies"])
def test_nfg_and_json_round_trip_exactly(spec, tmp_path):
    game = load_game(spec)
    for suffix in (".nfg", ".json"):
        path = tmp_path / f"game{suffix}"
        write_game_file(game, path)
        again = read_game_file(path)
        assert again == game
        assert again.title == game.title


@pytest.mark.gambit
def test_files_we_write_open_in_gambit(tmp_path):
    import pygambit as gambit

    game = random_game("general-sum", (3, 2, 4), seed=3)
    path = tmp_path / "g.nfg"
    write_game_file(game, path)
    theirs = gambit.read_nfg(str(path))
    assert theirs.title == game.title
    assert [p.label for p in theirs.players] == list(game.player_names)
    assert [s.label for s in next(iter(theirs.players)).strategies] == list(game.action_names[0])
    arrays = np.array([[float(Fraction(str(v))) for v in a.ravel()] for a in theirs.to_arrays()])
    np.testing.assert_array_equal(arrays.reshape(game.payoffs.shape), game.payoffs)


@pytest.mark.gambit
def test_gambits_own_output_opens_in_rmviz(reference_games, tmp_path):
    import pygambit as gambit

    theirs = gambit.read_nfg(str(reference_games / "rps.nfg"))
    path = tmp_path / "from_gambit.nfg"
    path.write_text(theirs.to_nfg())
    np.testing.assert_array_equal(read_game_file(path).payoffs[0], RPS_ROW)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("EFG 2 R", "not a Gambit .nfg file"),
        ('NFG 2 R "x" { "A" "B" } { 1 1 }', "version"),
        ('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 2 3', r"line 2: expected 8 payoffs.*the file ends"),
        ('NFG 1 R "x" { "A" "B" } { 1 1 }\n1 two', "line 2: expected 2 payoffs"),
        ('NFG 1 R "x" { "A" "B" } { 1 }', "strategies are given for 1 players, but 2 players are named"),
        ('NFG 1 R "x" { "A" "B } { 1 1 }', "never closed"),
        ('NFG 1 R "x" { "A" "B" } { 1 1 } "" { { "o" 1 2 } } 2', "names outcome 2"),
        ('NFG 1 R "x" { "A" "B" } { 1 1 } "" { { "o" 1 } } 1', "outcome 1 has 1 payoffs"),
        ('NFG 1 R "x" { "A" "B" } { 1 1 }\n1 2 3', "unexpected '3'"),
        ('NFG 1 R "x" { "A" "B" } { 1 1 }\nnan 2', "expected 2 payoffs"),
    ],
)
def test_broken_nfg_files_get_messages_naming_the_problem(text, message):
    with pytest.raises(FormatError, match=message):
        read_nfg(text, "broken.nfg")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "line 1: not valid JSON"),
        ('{"format": "other"}', "not an rmviz game file"),
        ('{"format": "rmviz-game", "version": 9}', "version 9 is not supported"),
        ('{"format": "rmviz-game", "version": 2}', "version 2 is not supported; this rmviz reads version 1"),
        (
            '{"format": "rmviz-game", "version": 1, "players": [{"name": "A", "actions": ["x"]},'
            ' {"name": "B", "actions": ["y"]}], "payoffs": [[[NaN]], [[1]]]}',
            "NaN is not a payoff",
        ),
        (
            '{"format": "rmviz-game", "version": 1, "players": [{"name": "A", "actions": ["x"]},'
            ' {"name": "B", "actions": ["y", "z"]}], "payoffs": [[[1]], [[1]]]}',
            "need shape",
        ),
    ],
)
def test_broken_json_files(text, message):
    with pytest.raises(FormatError, match=message):
        read_json(text, "broken.json")


def test_write_formats_are_text_that_reads_back():
    game = catalog_game("traffic-lights")
    assert read_nfg(write_nfg(game)) == game
    assert read_json(write_json(game)) == game


def test_load_game_errors(tmp_path):
    with pytest.raises(FormatError, match="no such file"):
        load_game(str(tmp_path / "missing.nfg"))
    with pytest.raises(FormatError, match="unknown file type"):
        load_game(str(tmp_path / "game.xls"))
    with pytest.raises(RmvizError, match="not a catalog game"):
        load_game("no-such-game")
    binary = tmp_path / "bin.nfg"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(FormatError, match="not a text file"):
        load_game(str(binary))


def test_load_game_takes_every_catalog_id():
    assert load_game("rps") == catalog_game("rps")
    kuhn = load_game("kuhn")
    assert isinstance(kuhn, ExtensiveFormGame) and kuhn.title == "Kuhn poker"
    known = r"catalog games: rps, rps-crash, .*, kuhn, leduc, teaching-tree, signaling$"
    with pytest.raises(RmvizError, match=known):
        load_game("no-such-game")


@pytest.mark.parametrize("tree", ["kuhn", "leduc", "teaching-tree"])
def test_game_trees_round_trip_through_rmviz_json(tmp_path, tree):
    from rmviz.solvers.tree.compiled_tree import compile_tree

    game = load_game(tree)
    path = tmp_path / f"{tree}.json"
    write_game_file(game, path)
    back = read_game_file(path)
    a, b = compile_tree(game), compile_tree(back)
    assert back.player_names == game.player_names and back.title == game.title
    for field in ("parent", "kind", "player", "node_infoset", "chance_probability", "payoffs"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert a.move_label == b.move_label and a.infoset_label == b.infoset_label


def test_a_malformed_tree_file_names_the_node(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        '{"format": "rmviz-game", "version": 1, "kind": "extensive-form", "players": ["A", "B"], '
        '"root": {"kind": "chance", "moves": [{"move": "x", "probability": 0.5, "node": {"kind": "terminal", '
        '"payoffs": [1, -1]}}, {"move": "y", "probability": 0.4, "node": {"kind": "terminal", '
        '"payoffs": [0, 0]}}]}}'
    )
    with pytest.raises(FormatError, match=r"bad\.json: chance probabilities at the root sum to 0\.9"):
        read_game_file(path)
    path.write_text(
        '{"format": "rmviz-game", "version": 1, "kind": "extensive-form", "players": ["A"], '
        '"root": {"kind": "decision", "player": 3, "infoset": "i", "moves": []}}'
    )
    with pytest.raises(FormatError, match=r"its player is 3; players are 1\.\.1"):
        read_game_file(path)
