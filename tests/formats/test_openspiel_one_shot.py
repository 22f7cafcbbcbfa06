"""OpenSpiel's one-shot games (``matrix_rps``, ``blotto``, ``nfg_game``...) load as matrix
games (:func:`rmviz.formats.openspiel.normal_form_of`), by every way a person names them;
their payoffs recomputed from OpenSpiel's own tables and from the game's tree."""

from __future__ import annotations

import numpy as np
import pytest

import rmviz
from rmviz.cli import main
from rmviz.errors import RmvizError
from rmviz.formats import game_kind, load_game
from rmviz.formats.openspiel import openspiel_game, pyspiel_game_tree
from rmviz.games.normal_form import NormalFormGame
from rmviz.games.reduced import reduced_strategic_form
from rmviz.solvers.exact import zero_sum_equilibrium

pyspiel = pytest.importorskip("pyspiel")

ONE_SHOT = [
    "matrix_rps",
    "matrix_pd",
    "matrix_shapleys_game",
    "matching_pennies_3p",
    "blotto(coins=4,fields=3)",
]


@pytest.mark.parametrize("name", ONE_SHOT)
def test_a_one_shot_game_is_its_normal_form(name):
    spec = f"openspiel:{name}"
    game = load_game(spec)
    assert isinstance(game, NormalFormGame) and game_kind(spec) == "matrix"
    source = pyspiel.load_game(name)
    assert game.title == f"{source.get_type().long_name} (OpenSpiel)"
    assert game.player_names == tuple(f"Player {i + 1}" for i in range(source.num_players()))
    # the same payoffs as the turn-based tree's reduced strategic form (each player's
    # information set is one, so its pure strategies are the actions, in order)
    tree = pyspiel_game_tree(source)
    reduced = reduced_strategic_form(tree)
    np.testing.assert_array_equal(game.payoffs, reduced.payoffs)
    state = source.new_initial_state()
    for player, names in enumerate(game.action_names):
        assert names == tuple(state.action_to_string(player, a) for a in state.legal_actions(player))


@pytest.mark.parametrize("name", ["matrix_rps", "matrix_shapleys_game", "matrix_bos"])
def test_matrix_games_have_openspiel_s_own_tables(name):
    source = pyspiel.load_game(name)
    game = openspiel_game(name)
    for player in range(2):
        np.testing.assert_array_equal(game.payoffs[player], np.array(source.player_utilities(player)))
    assert game.action_names[0] == tuple(source.row_action_name(i) for i in range(source.num_rows()))
    assert game.action_names[1] == tuple(source.col_action_name(j) for j in range(source.num_cols()))


def test_a_pyspiel_object_and_the_normal_form_of_a_tree_are_matrix_games():
    rps = rmviz.load(pyspiel.load_game("matrix_rps"))
    assert isinstance(rps, NormalFormGame) and rps.action_names[0] == ("Rock", "Paper", "Scissors")
    kuhn = load_game("openspiel:normal_form_extensive_game(game=kuhn_poker())")
    assert isinstance(kuhn, NormalFormGame) and kuhn.num_actions == (64, 64)
    assert not any("\n" in name for names in kuhn.action_names for name in names)  # several lines each
    assert kuhn.action_names[0][:2] == ("0:0 0pb:0 1:0 1pb:0 2:0 2pb:0", "0:1 0pb:0 1:0 1pb:0 2:0 2pb:0")
    value, _, _ = zero_sum_equilibrium(kuhn.payoffs[0])
    assert value == pytest.approx(-1 / 18, abs=1e-9)  # Kuhn poker's value for the first player
    assert game_kind("openspiel:kuhn_poker") == "tree"


def test_matrix_algorithms_run_and_a_tree_algorithm_runs_on_its_tree(capsys):
    assert main(["solve", "openspiel:matrix_rps", "-a", "rm+", "-n", "100"]) == 0
    out = capsys.readouterr().out
    assert "3x3" in out and "Rock" in out
    assert main(["solve", "openspiel:matrix_rps", "-a", "cfr", "-n", "10"]) == 0
    assert "(as a tree)" in capsys.readouterr().out


def test_too_many_joint_actions_are_refused_before_enumerating(capsys):
    with pytest.raises(RmvizError, match="has 4,356 joint actions, more than 4,000"):
        openspiel_game("blotto", max_nodes=4_000)
    assert main(["solve", "openspiel:blotto(coins=100,fields=4)"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "31,276,276,201 joint actions" in err


def test_progress_counts_joint_actions_and_can_stop(monkeypatch):
    from rmviz.formats import openspiel

    monkeypatch.setattr(openspiel, "PROGRESS_EVERY", 1_000)
    seen: list[int] = []
    openspiel_game("blotto", progress=lambda n: seen.append(n) or True)  # 66 x 66 = 4,356
    assert seen == [1_000, 2_000, 3_000, 4_000]
    with pytest.raises(openspiel.Cancelled, match="stopped after 2,000 joint actions"):
        openspiel_game("blotto", progress=lambda n: n < 2_000)


def test_reduced_of_a_one_shot_game_is_refused_as_of_a_matrix_game():
    with pytest.raises(RmvizError, match="reduced strategic form is of a game tree"):
        game_kind("reduced:openspiel:matrix_rps")
    with pytest.raises(RmvizError, match="reduced strategic form is of a game tree"):
        load_game("reduced:openspiel:matrix_rps")


@pytest.mark.parametrize("name", ["matrix_shapleys_game", "matching_pennies_3p", "blotto(coins=4,fields=3)"])
def test_the_average_goes_back_as_a_policy_whose_nash_conv_is_openspiels(name):
    exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
    result = rmviz.solve(f"openspiel:{name}", "rm", 50, play="sampled", seed=3)  # uniform is an equilibrium
    theirs = exploitability.nash_conv(pyspiel.load_game(name), result.to_openspiel_policy())
    assert theirs == pytest.approx(result.newest_metrics["nash_conv"], abs=1e-12)
    assert theirs > 1e-3  # after 50 iterations: a test that can fail


def test_a_matrix_policy_is_refused_onto_a_game_it_does_not_fit():
    result = rmviz.solve("openspiel:matrix_rps", "rm", 10)
    with pytest.raises(RmvizError, match=r"onto 'openspiel:matrix_pd' \(2x2\)"):
        result.to_openspiel_policy("matrix_pd")
    with pytest.raises(RmvizError, match="is not one-shot"):
        result.to_openspiel_policy("kuhn_poker")
    assert result.to_openspiel_policy(pyspiel.load_game("matrix_shapleys_game")) is not None  # 3x3 fits
    with pytest.raises(RmvizError, match="OpenSpiel has no game 'no_such_game'"):
        result.to_openspiel_policy("no_such_game")  # one line, not pyspiel's error


def test_a_nested_game_maps_back_onto_the_game_it_was_loaded_from():
    """pyspiel writes normal_form_extensive_game(game=kuhn_poker()) as
    "normal_form_extensive_game()": the policy's default target was loaded from that and
    failed. The game keeps the spec it was loaded by, trees too."""
    exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
    spec = "normal_form_extensive_game(game=kuhn_poker())"
    result = rmviz.solve(f"openspiel:{spec}", "rm+", 200)
    assert result.game.description == f"openspiel:{spec}"
    theirs = exploitability.nash_conv(pyspiel.load_game(spec), result.to_openspiel_policy())
    assert theirs == pytest.approx(result.newest_metrics["nash_conv"], abs=1e-12)
    tree = "turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=True))"
    assert load_game(f"openspiel:{tree}").description == f"openspiel:{tree}"
    assert rmviz.solve(f"openspiel:{tree}", "cfr", 5).to_openspiel_policy() is not None


def test_a_tree_s_move_labels_of_several_lines_are_put_on_one():
    """The turn-based tree of a one-shot game whose actions are pure strategies of several
    lines (normal_form_extensive_game) labels its moves on one line each, as its matrix does."""
    spec = "openspiel:turn_based_simultaneous_game(game=normal_form_extensive_game(game=kuhn_poker()))"
    tree = load_game(spec)
    matrix = load_game("openspiel:normal_form_extensive_game(game=kuhn_poker())")
    assert not isinstance(tree, NormalFormGame)
    moves = {move for labels in tree.infoset_moves.values() for move in labels}
    assert len(moves) == 128 and not any("\n" in move for move in moves)  # 64 strategies each
    assert moves == set(matrix.action_names[0]) | set(matrix.action_names[1])
