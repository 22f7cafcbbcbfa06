"""``openspiel:GAME(params)``: OpenSpiel's games as rmviz trees (:mod:`rmviz.formats.openspiel`),
and the one-line refusals of what cannot be one."""

from __future__ import annotations

import pytest

from rmviz.cli import main
from rmviz.errors import RmvizError
from rmviz.formats import load_game
from rmviz.formats.openspiel import infoset_label, openspiel_game
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.normal_form import NormalFormGame

pytest.importorskip("pyspiel")


def test_kuhn_poker_is_built_with_chance_infosets_and_returns():
    game = load_game("openspiel:kuhn_poker")
    assert isinstance(game, ExtensiveFormGame)
    assert game.player_names == ("Player 1", "Player 2")
    assert [len(labels) for labels in game.infosets] == [6, 6]
    root = game.root
    assert root.kind == "chance" and root.moves == ("Deal:0", "Deal:1", "Deal:2")
    assert root.probabilities == pytest.approx((1 / 3,) * 3)
    assert game.infoset_moves[(0, "0")] == ("Pass", "Bet")
    payoffs = sorted({node.payoffs for _, node in game.nodes() if node.kind == "terminal"})
    assert payoffs == [(-2.0, 2.0), (-1.0, 1.0), (1.0, -1.0), (2.0, -2.0)]
    assert sum(1 for _ in game.nodes()) == 58


def test_parameters_simultaneous_games_and_the_reduced_form():
    assert load_game("openspiel:kuhn_poker(players=3)").n_players == 3
    goofspiel = load_game("openspiel:goofspiel(num_cards=3,imp_info=True,points_order=descending)")
    assert goofspiel.root.kind == "decision"  # the turn-based version: player 1 bids first
    assert "\n" not in "".join(goofspiel.infosets[0])
    reduced = load_game("reduced:openspiel:kuhn_poker")
    assert isinstance(reduced, NormalFormGame) and reduced.num_actions == (27, 64)  # as the catalog's kuhn


def test_infoset_labels_are_one_line():
    assert infoset_label("P0 hand: 1 2 \nPoints: 0 0 \n") == "P0 hand: 1 2 | Points: 0 0"
    assert infoset_label("") == "(start)"


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("openspiel:", "name a game"),
        ("openspiel:no_such_game", "OpenSpiel has no game 'no_such_game'"),
        ("openspiel:liars_dice(numdice=x)", "Wrong type for parameter numdice"),
        ("openspiel:kuhn_poker(players=3", "Missing closing bracket"),
        ("openspiel:bridge_uncontested_bidding", "chance events are sampled"),
        ("openspiel:pig", "no information-state strings"),
        ("openspiel:mfg_crowd_modelling", "mean_field game is not a game tree"),
    ],
)
def test_refusals_are_one_line(spec, reason, capfd):
    with pytest.raises(RmvizError, match=reason) as error:
        load_game(spec)
    assert "\n" not in str(error.value)
    assert capfd.readouterr().err == ""  # OpenSpiel's own print of the error is silenced


def test_too_large_games_are_refused_during_the_walk():
    with pytest.raises(RmvizError, match="more than 57 histories"):
        openspiel_game("openspiel:kuhn_poker", max_nodes=57)
    assert sum(1 for _ in openspiel_game("kuhn_poker", max_nodes=58).nodes()) == 58


def test_the_cli_prints_one_line_and_exits_2(capsys):
    assert main(["solve", "openspiel:no_such_game"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game 'no_such_game'" in err


def test_the_walk_reports_progress_and_stops_when_asked(monkeypatch):
    from rmviz.formats import openspiel

    monkeypatch.setattr(openspiel, "PROGRESS_EVERY", 10)
    seen = []
    tree = openspiel.openspiel_game("kuhn_poker", progress=lambda n: seen.append(n) or True)
    assert seen == list(range(10, 58, 10)) and tree.root is not None  # Kuhn: 58 histories
    with pytest.raises(openspiel.Cancelled, match="stopped after 20 histories"):
        openspiel.openspiel_game("kuhn_poker", progress=lambda n: n < 20)


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn_poker",
        "kuhn_poker(players=3)",
        "liars_dice(dice_sides=3)",
        "goofspiel(num_cards=3,imp_info=True)",
    ],
)
def test_the_flat_walk_builds_the_tree_the_node_walk_built(spec):
    """The walk into flat arrays gives the same game as the walk that made a Node per
    history (tests/formats/reference_openspiel.py), compiled array for array."""
    from rmviz.formats.openspiel import load_pyspiel_game, tree_of
    from rmviz.solvers.tree.compiled_tree import compile_tree
    from tests.formats.reference_openspiel import reference_tree_of
    from tests.games.test_flat_tree import same_nodes
    from tests.solvers.tree.compare import assert_same_compiled
    from tests.solvers.tree.reference_compile import reference_compile_tree

    game = load_pyspiel_game(spec)
    new, old = tree_of(game, spec), reference_tree_of(game, spec)
    assert (new.infosets, new.infoset_moves, new.title) == (old.infosets, old.infoset_moves, old.title)
    assert new.description == f"openspiel:{spec}"  # the spec it was loaded by (old: str(game))
    assert_same_compiled(compile_tree(new), reference_compile_tree(old))
    assert same_nodes(new.root, old.root)


BOUNDED = """
import sys
from rmviz.errors import RmvizError
from rmviz.formats.openspiel import openspiel_game
try:
    openspiel_game(sys.argv[1])
except RmvizError as error:
    print(error)
status = open("/proc/self/status").read()  # VmHWM: this process's peak (ru_maxrss survives exec)
print(int(status.split("VmHWM:")[1].split()[0]) // 1024)
"""


@pytest.mark.parametrize("spec", ["openspiel:oshi_zumo", "openspiel:go", "openspiel:liars_dice(numdice=2)"])
def test_a_game_past_the_history_limit_is_refused_in_bounded_memory(spec):
    """The walk kept a live state for every unexplored sibling: oshi_zumo and go ran out of
    2 GB before the 10^6-history limit refused them (issue 33). One state per depth, and a
    count first where probes say the game is large: refused in a few tens of MB."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", BOUNDED, spec], capture_output=True, text=True, timeout=300)
    refusal, peak_mb = done.stdout.strip().splitlines()
    assert refusal == f"{spec!r} has more than 1,000,000 histories, too large to build as a tree here"
    assert int(peak_mb) < 400, peak_mb
