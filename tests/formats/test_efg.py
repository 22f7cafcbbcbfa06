from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from rmviz.errors import FormatError
from rmviz.formats import read_game_file, write_game_file
from rmviz.formats.efg import read_efg, write_efg
from rmviz.games import catalog_game
from rmviz.games.reduced import reduced_strategic_form
from rmviz.games.trees import kuhn_poker, leduc_poker, teaching_tree
from rmviz.solvers.exact import zero_sum_equilibrium
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver


def payoff_table(game):
    return {path: node.payoffs for path, node in game.nodes() if node.kind == "terminal"}


def test_gambits_kuhn_file_is_the_same_game(reference_games):
    """Gambit writes the cards 0, 1, 2; the catalog J, Q, K, as lectures do."""
    theirs = read_game_file(reference_games / "kuhn_poker.efg")
    ours = kuhn_poker()
    cards = str.maketrans("JQK", "012")
    for player in (0, 1):
        assert sorted(theirs.infosets[player]) == sorted(s.translate(cards) for s in ours.infosets[player])
    a, b = CFRSolver(theirs, cfr_preset("cfr")), CFRSolver(ours, cfr_preset("cfr"))
    a.step(200)
    b.step(200)
    ours_table = b.strategy_table(b.average_strategy())
    ours_table = {label.translate(cards): row for label, row in ours_table.items()}
    assert a.strategy_table(a.average_strategy()) == ours_table
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


@pytest.mark.gambit
@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_files_we_write_open_in_gambit(tmp_path):
    import pygambit as gambit

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


# --- information sets: Gambit's rule (issue 10, defect 4) -------------------------------------

OPENSPIEL_KUHN = Path(__file__).resolve().parents[1] / "data" / "openspiel-export" / "kuhn_poker.efg"


def two_sets(first: str, second: str, player: int = 1, second_number: int = 2) -> str:
    """Chance picks x or y; ``player`` then guesses it (l for x, r for y) at two numbered sets."""
    return f"""EFG 2 R "guess" {{ "A" "B" }} ""
c "" 1 "" {{ "x" 1/2 "y" 1/2 }} 0
p "" {player} 1 "{first}" {{ "l" "r" }} 0
t "" 1 "" {{ 1, -1 }}
t "" 2 "" {{ 0, 0 }}
p "" {player} {second_number} "{second}" {{ "l" "r" }} 0
t "" 3 "" {{ 0, 0 }}
t "" 4 "" {{ 1, -1 }}
"""


def test_two_information_sets_of_a_player_may_not_share_a_name():
    """Gambit: 'Infoset label must be unique for the player'; merging them changed the game."""
    with pytest.raises(FormatError) as caught:
        read_efg(two_sets("I", "I"), "guess.efg")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("guess.efg, line 6: ")
    assert "player 1 ('A')" in message
    assert "information sets 1 and 2" in message
    assert "'I'" in message


def test_one_information_set_number_keeps_its_name():
    with pytest.raises(
        FormatError,
        match=r"^guess\.efg, line 6: information set 1 of player 1 \('A'\) is named 'J' here but 'I'",
    ):
        read_efg(two_sets("I", "J", second_number=1), "guess.efg")


@pytest.mark.parametrize(
    ("first", "second", "labels"),
    [("", "", ("#1", "#2")), ("#2", "", ("#2", "#2'")), ("I", "", ("I", "#2")), ("", "#1", ("#1'", "#1"))],
)
def test_unnamed_information_sets_stay_apart(first, second, labels):
    """Unnamed sets are labelled ``#number`` (primed if a named set of the player took it)."""
    game = read_efg(two_sets(first, second), "guess.efg")
    assert game.infosets[0] == labels
    # knowing x from y is worth 1; merging the two sets would make it 1/2
    assert reduced_strategic_form(game).payoffs[0].max() == 1.0


def test_a_player_may_reuse_another_players_name():
    game = read_efg(
        'EFG 2 R "x" { "A" "B" }\np "" 1 1 "I" { "l" "r" } 0\np "" 2 1 "I" { "l" "r" } 0\n'
        't "" 1 "" { 1, -1 }\nt "" 2 "" { 0, 0 }\nt "" 3 "" { 0, 0 }\n'
    )
    assert game.infosets == (("I",), ("I",))


NAMING_CASES = {
    "same name, two numbers": two_sets("I", "I"),
    "one number, two names": two_sets("I", "J", second_number=1),
    "unnamed twice": two_sets("", ""),
    "named like another's number": two_sets("#2", ""),
    "two players, one name": two_sets("I", "I", player=1).replace('p "" 1 2', 'p "" 2 1'),
    "two chance sets, one name": 'EFG 2 R "x" { "A" "B" }\nc "" 1 "C" { "x" 1/2 "y" 1/2 } 0\n'
    'c "" 2 "C" { "x" 1/2 "y" 1/2 } 0\nt "" 1 "" { 1, -1 }\nt "" 2 "" { 0, 0 }\nt "" 3 "" { 0, 0 }\n',
}


@pytest.mark.gambit
@pytest.mark.parametrize("case", list(NAMING_CASES))
def test_information_set_names_follow_gambit(case, tmp_path):
    """rmviz reads a file exactly when Gambit (pygambit) does, as far as infoset names go."""
    import pygambit as gambit

    path = tmp_path / "case.efg"
    path.write_text(NAMING_CASES[case])
    try:
        gambit.read_efg(str(path))
        gambit_reads = True
    except ValueError:
        gambit_reads = False
    try:
        read_game_file(path)
        rmviz_reads = True
    except FormatError:
        rmviz_reads = False
    assert rmviz_reads == gambit_reads


# --- decimal chance probabilities (OpenSpiel's export) -----------------------------------------


def test_openspiels_export_of_kuhn_is_kuhn_poker():
    game = read_game_file(OPENSPIEL_KUHN)
    assert [len(s) for s in game.infosets] == [6, 6]
    assert game.root.probabilities == (1 / 3, 1 / 3, 1 / 3)  # 0.3333333333333333 x 3, rescaled
    assert game.root.children[0].probabilities == (0.5, 0.5)
    value, _, _ = zero_sum_equilibrium(reduced_strategic_form(game).payoffs[0])
    assert value == pytest.approx(-1 / 18, abs=1e-12)


def test_the_fixture_is_what_openspiel_writes():
    pyspiel = pytest.importorskip("pyspiel")
    gambit_export = pytest.importorskip("open_spiel.python.algorithms.gambit")
    assert gambit_export.export_gambit(pyspiel.load_game("kuhn_poker")) == OPENSPIEL_KUHN.read_text()


def test_openspiels_exports_read():
    pyspiel = pytest.importorskip("pyspiel")
    gambit_export = pytest.importorskip("open_spiel.python.algorithms.gambit")
    for name in ("kuhn_poker(players=3)", "leduc_poker", "liars_dice(dice_sides=2)"):
        spiel_game = pyspiel.load_game(name)
        infosets: list[set[str]] = [set() for _ in range(spiel_game.num_players())]
        states = [spiel_game.new_initial_state()]
        while states:
            state = states.pop()
            if not state.is_terminal():
                if not state.is_chance_node():
                    infosets[state.current_player()].add(state.information_state_string())
                states.extend(state.child(a) for a in state.legal_actions())
        game = read_efg(gambit_export.export_gambit(spiel_game), f"{name}.efg")
        assert [len(s) for s in game.infosets] == [len(s) for s in infosets]


def chance_file(*probabilities: str) -> str:
    """A chance root whose moves lead to one-move decisions of player A (a tree needs one)."""
    moves = " ".join(f'"m{k}" {p}' for k, p in enumerate(probabilities))
    leaves = "".join(
        f'p "" 1 1 "" {{ "go" }} 0\nt "" {k + 1} "" {{ {k}, {-k} }}\n' for k in range(len(probabilities))
    )
    return f'EFG 2 R "c" {{ "A" "B" }}\nc "" 1 "" {{ {moves} }} 0\n{leaves}'


@pytest.mark.parametrize(
    ("probabilities", "expected"),
    [
        (("0.3333333333333333",) * 3, (1 / 3,) * 3),
        (("0.1", "0.2", "0.7"), (0.1, 0.2, 0.7)),
        (("0.4999999999", "0.5"), (0.4999999999 / 0.9999999999, 0.5 / 0.9999999999)),
        (("1/3", "2/3"), (1 / 3, 2 / 3)),
    ],
)
def test_decimals_within_a_billionth_of_one_are_rescaled(probabilities, expected):
    game = read_efg(chance_file(*probabilities))
    assert game.root.probabilities == pytest.approx(expected, rel=1e-15, abs=0)
    assert sum(Fraction(p) for p in game.root.probabilities) == pytest.approx(1, abs=1e-15)


@pytest.mark.parametrize(
    ("probabilities", "shown"),
    [
        (("0.499999998", "0.5"), "0.999999998"),
        (("0.5", "0.500000002"), "1.000000002"),
        (("1/2", "1/3"), "0.8333333333333334"),
        (("0.6", "0.6"), "1.2"),
    ],
)
def test_probabilities_off_by_more_are_refused_with_their_sum(probabilities, shown):
    with pytest.raises(FormatError) as caught:
        read_efg(chance_file(*probabilities), "c.efg")
    message = str(caught.value)
    assert message.startswith("c.efg, line 2: chance probabilities sum to ")
    assert f"sum to {shown}" in message
    assert "\n" not in message
