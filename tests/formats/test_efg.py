from __future__ import annotations

import pytest

from rmviz.errors import FormatError
from rmviz.formats import read_game_file, write_game_file
from rmviz.formats.efg import read_efg, write_efg
from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker, leduc_poker, teaching_tree
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver


def payoff_table(game):
    return {path: node.payoffs for path, node in game.nodes() if node.kind == "terminal"}


def test_gambits_kuhn_file_is_the_same_game(reference_games):
    theirs = read_game_file(reference_games / "kuhn_poker.efg")
    ours = kuhn_poker()
    assert sorted(theirs.infosets[0]) == sorted(ours.infosets[0])
    assert sorted(theirs.infosets[1]) == sorted(ours.infosets[1])
    a, b = CFRSolver(theirs, cfr_preset("cfr")), CFRSolver(ours, cfr_preset("cfr"))
    a.step(200)
    b.step(200)
    assert a.strategy_table(a.average_strategy()) == b.strategy_table(b.average_strategy())
    assert a.metrics().value[0] == pytest.approx(b.metrics().value[0], abs=1e-12)


def test_one_card_poker_opens(reference_games):
    game = read_game_file(reference_games / "one_card_poker.efg")
    assert game.n_players == 2
    assert [len(s) for s in game.infosets] == [2, 1]  # as pygambit counts them


@pytest.mark.parametrize("build", [kuhn_poker, teaching_tree, leduc_poker])
def test_round_trip(build, tmp_path):
    game = build()
    path = tmp_path / "game.efg"
    write_game_file(game, path)
    again = read_game_file(path)
    assert again.infosets == game.infosets
    assert again.player_names == game.player_names
    assert payoff_table(again) == payoff_table(game)


def test_matrix_games_are_written_as_trees(tmp_path):
    path = tmp_path / "rps.efg"
    write_game_file(catalog_game("rps-crash"), path)
    assert read_game_file(path).infosets == (("Row",), ("Column",))
    with pytest.raises(FormatError, match=r"game trees are written as Gambit \.efg"):
        write_game_file(kuhn_poker(), tmp_path / "kuhn.nfg")


def test_files_we_write_open_in_gambit(tmp_path):
    gambit = pytest.importorskip("pygambit")
    for build in (kuhn_poker, leduc_poker):
        path = tmp_path / "g.efg"
        path.write_text(write_efg(build()))
        theirs = gambit.read_efg(str(path))
        assert [len(p.infosets) for p in theirs.players] == [len(s) for s in build().infosets]


def test_outcomes_on_inner_nodes_add_up():
    text = """EFG 2 R "sum" { "A" "B" }
p "" 1 1 "I" { "l" "r" } 1 "bonus" { 1, -1 }
t "" 2 "x" { 2, -2 }
t "" 3 "y" { 0, 0 }
"""
    payoffs = payoff_table(read_efg(text))
    assert payoffs == {("l",): (3.0, -3.0), ("r",): (1.0, -1.0)}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("NFG 1 R", "not a Gambit .efg file"),
        (
            'EFG 2 R "x" { "A" }\nc "" 1 "" { "a" 1/2 "b" 1/3 } 0\nt "" 1 "" { 1 }\nt "" 2 "" { 2 }',
            r"line 2: chance probabilities sum to 0\.833333",
        ),
        ('EFG 2 R "x" { "A" }\nq "" 1', "line 2: expected a node type"),
        (
            'EFG 2 R "x" { "A" }\np "" 3 1 "I" { "a" } 0\nt "" 1 "" { 1 }',
            "line 2: player 3 does not exist",
        ),
        (
            'EFG 2 R "x" { "A" }\np "" 1 1 "I" { "a" } 0\nt "" 1 "" { 1 2 }',
            "line 3: outcome 1 has 2 payoffs",
        ),
        (
            'EFG 2 R "x" { "A" }\np "" 1 1 0\nt "" 1 "" { 1 }',
            "line 2: information set 1 is used before",
        ),
        ('EFG 2 R "x" { "A" }\np "" 1 1 "I" { "a" "b" } 0\nt "" 1 "" { 1 }', "ends where"),
        ('EFG 2 R "x" { "A" }\nt "" 4 0', "line 2: outcome 4 is used before"),
        (
            'EFG 2 R "x" { "A" }\np "" 1 1 "I" { "a" "b" } 0\np "" 1 2 "J" { "c" } 0\nt "" 1 "" { 1 }\n'
            'p "" 1 2 "J" { "c" } 0\nt "" 2 "" { 2 }',
            "forgets what they knew",
        ),
    ],
)
def test_broken_efg_files_name_the_line(text, message):
    with pytest.raises(FormatError, match=message):
        read_efg(text, "broken.efg")
