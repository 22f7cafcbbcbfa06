"""NumPy, OpenSpiel and Gambit in and out of the notebook API (:mod:`rmviz.formats.objects`):
``rmviz.game``, ``rmviz.load`` of arrays, pyspiel and pygambit games, and
``Result.to_openspiel_policy`` / ``to_gambit_profile`` checked by those libraries."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

import rmviz
from rmviz.errors import RmvizError
from rmviz.formats import write_efg, write_nfg
from rmviz.games.catalog import RPS

RPS_MATRIX = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])


def _metrics(result: rmviz.Result) -> dict:
    """The newest metrics by name (the snapshot's: ``Result.metrics`` is a table of them)."""
    return result.snapshot.metrics.as_dict()


def _same_run(a: rmviz.Result, b: rmviz.Result) -> None:
    assert _metrics(a) == _metrics(b)
    strategies = a.strategy(), b.strategy()
    np.testing.assert_array_equal(strategies[0].probability, strategies[1].probability)
    assert list(strategies[0].action) == list(strategies[1].action)


# -- NumPy in ---------------------------------------------------------------------------------
def test_a_numpy_matrix_is_the_catalogs_rps_and_solves_as_it():
    game = rmviz.game(RPS_MATRIX, names=["Row", "Column"], actions=[RPS, RPS], title="Rock-Paper-Scissors")
    assert game == rmviz.load("rps")
    _same_run(rmviz.solve(game, "rm", 200, progress=False), rmviz.solve("rps", "rm", 200, progress=False))


def test_solve_and_load_take_an_array_as_the_row_players_zero_sum_matrix():
    game = rmviz.load(RPS_MATRIX)
    np.testing.assert_array_equal(game.payoffs, rmviz.load("rps").payoffs)
    assert game.is_zero_sum() and game == rmviz.game(RPS_MATRIX.tolist())
    _same_run(
        rmviz.solve(RPS_MATRIX, "rm+", 100, progress=False), rmviz.solve(game, "rm+", 100, progress=False)
    )


def test_bimatrix_and_n_player_games_from_arrays():
    A, B = np.array([[3, 0], [5, 1]]), np.array([[3, 5], [0, 1]])
    game = rmviz.game(A, B, names=["Alice", "Bob"], actions=[["C", "D"], ["C", "D"]])
    np.testing.assert_array_equal(game.payoffs, [A, B])
    assert game.player_names == ("Alice", "Bob") and not game.is_zero_sum()
    assert rmviz.load([A, B]) == rmviz.game(A, B)  # a list of arrays: every player's payoffs
    rng = np.random.default_rng(0)
    three = [rng.random((2, 3, 4)) for _ in range(3)]
    game3 = rmviz.game(*three)
    assert game3.num_actions == (2, 3, 4) and game3.n_players == 3
    assert rmviz.solve(game3, "rm", 10, progress=False).iteration == 10


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        (([1, 2, 3],), "A alone is a zero-sum game's row-player matrix and needs 2 axes"),
        ((np.ones((2, 2)), np.ones((2, 3))), "B has shape (2, 3) and A (2, 2)"),
        ((np.ones((2, 2)),) * 3, "3 payoff arrays make a 3-player game, so each needs 3 axes"),
        (([[1, np.nan], [0, 1]],), "is nan; payoffs must be finite numbers"),
        (([[1, 1e200], [0, 1]],), "is 1e+200; payoffs must be finite numbers between"),
        (([[1, "x"], [0, 1]],), "A must be an array of numbers"),
        (([[1, 2], [3]],), "A must be an array of numbers"),
    ],
)
def test_bad_arrays_are_refused_in_one_line(arrays, message):
    with pytest.raises(RmvizError) as error:
        rmviz.game(*arrays)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_names_are_checked_and_other_objects_refused():
    with pytest.raises(RmvizError, match="3 player names for a game of 2 players"):
        rmviz.game(RPS_MATRIX, names=["a", "b", "c"])
    with pytest.raises(RmvizError, match=r"cannot load a dict: .* rmviz\.game"):
        rmviz.solve({"A": 1})
    for few_axes in (np.array(3.0), [3.0, 1.0]):
        with pytest.raises(RmvizError, match="needs 2 axes"):
            rmviz.load(few_axes)


# -- OpenSpiel ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "iterations"), [("kuhn", 200), ("leduc", 200), ("openspiel:kuhn_poker", 200)]
)
def test_openspiels_nash_conv_of_the_policy_equals_rmviz(spec, iterations):
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability

    result = rmviz.solve(spec, "cfr", iterations, progress=False)
    policy = result.to_openspiel_policy()
    assert exploitability.nash_conv(policy.game, policy) == pytest.approx(
        _metrics(result)["nash_conv"], abs=1e-10
    )


def test_a_pyspiel_game_object_loads_and_solves_as_its_spec():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("kuhn_poker(players=3)")
    _same_run(
        rmviz.solve(game, "cfr", 30, progress=False),
        rmviz.solve("openspiel:kuhn_poker(players=3)", "cfr", 30, progress=False),
    )
    policy = rmviz.solve(game, "cfr", 5, progress=False).to_openspiel_policy()
    assert str(policy.game) == str(game)


def test_what_cannot_be_mapped_onto_openspiel_is_refused_in_one_line():
    pyspiel = pytest.importorskip("pyspiel")
    with pytest.raises(RmvizError, match="'Rock-Paper-Scissors' was not loaded from OpenSpiel"):
        rmviz.solve("rps", "rm", 5, progress=False).to_openspiel_policy()
    with pytest.raises(RmvizError, match="not a game rmviz can map onto OpenSpiel"):
        rmviz.solve("rps", "cfr", 5, progress=False).to_openspiel_policy()
    kuhn = rmviz.solve("kuhn", "cfr", 5, progress=False)
    with pytest.raises(
        RmvizError, match=r"cannot map 'Kuhn poker' onto 'openspiel:leduc_poker\(\)': at history"
    ):
        kuhn.to_openspiel_policy(pyspiel.load_game("leduc_poker"))
    with pytest.raises(RmvizError, match=r"^'openspiel:mfg_crowd_modelling\(\)': a mean_field game is not"):
        rmviz.load(pyspiel.load_game("mfg_crowd_modelling"))


def test_a_simultaneous_pyspiel_game_is_walked_turn_based():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("goofspiel(num_cards=3,imp_info=True)")
    result = rmviz.solve(game, "cfr", 20, progress=False)
    from open_spiel.python.algorithms import exploitability

    policy = result.to_openspiel_policy()
    assert exploitability.nash_conv(policy.game, policy) == pytest.approx(
        _metrics(result)["nash_conv"], abs=1e-10
    )


# -- Gambit ---------------------------------------------------------------------------------------
def _gambit_nash_conv(profile) -> float:
    """Gambit's own evaluation: each player's best pure strategy against the profile less the
    profile's payoff, summed (behaviour profiles through their mixed-strategy form)."""
    mixed = profile.as_strategy() if hasattr(profile, "as_strategy") else profile
    return sum(
        max(mixed.strategy_value(s) for s in player.strategies) - mixed.payoff(player)
        for player in mixed.game.players
    )


@pytest.mark.parametrize(("spec", "algorithm"), [("rps-crash", "rm"), ("kuhn", "cfr")])
def test_gambits_evaluation_of_the_profile_equals_rmviz(spec, algorithm):
    pytest.importorskip("pygambit")
    result = rmviz.solve(spec, algorithm, 200, progress=False)
    profile = result.to_gambit_profile()
    players = list(profile.game.players)
    np.testing.assert_allclose([profile.payoff(p) for p in players], _metrics(result)["value"], atol=1e-12)
    assert _gambit_nash_conv(profile) == pytest.approx(_metrics(result)["nash_conv"], abs=1e-10)
    regrets = [
        max(profile.as_strategy().strategy_value(s) for s in p.strategies) - profile.payoff(p)
        if hasattr(profile, "as_strategy")
        else max(profile.strategy_value(s) for s in p.strategies) - profile.payoff(p)
        for p in players
    ]
    assert profile.max_regret() == pytest.approx(max(regrets), abs=1e-10)


def test_pygambit_games_load_and_solve_as_their_files():
    gbt = pytest.importorskip("pygambit")
    kuhn = rmviz.load("kuhn")
    tree = gbt.read_efg(io.StringIO(write_efg(kuhn)))
    _same_run(rmviz.solve(tree, "cfr", 50, progress=False), rmviz.solve(kuhn, "cfr", 50, progress=False))
    crash = rmviz.load("rps-crash")
    table = gbt.read_nfg(io.StringIO(write_nfg(crash)))
    assert rmviz.load(table) == crash
    _same_run(rmviz.solve(table, "rm", 50, progress=False), rmviz.solve(crash, "rm", 50, progress=False))
    made = gbt.Game.from_arrays([[3, 0], [5, 1]], [[3, 5], [0, 1]])
    np.testing.assert_array_equal(rmviz.load(made).payoffs, [[[3, 0], [5, 1]], [[3, 5], [0, 1]]])


def test_a_profile_goes_onto_the_users_own_gambit_game():
    gbt = pytest.importorskip("pygambit")
    tree = gbt.read_efg(io.StringIO(write_efg(rmviz.load("kuhn"))))
    result = rmviz.solve(tree, "cfr", 100, progress=False)
    profile = result.to_gambit_profile(tree)
    assert profile.game is tree or profile.game == tree
    assert _gambit_nash_conv(profile) == pytest.approx(_metrics(result)["nash_conv"], abs=1e-10)
    leduc = gbt.read_efg(io.StringIO(write_efg(rmviz.load("leduc"))))
    with pytest.raises(
        RmvizError, match="cannot map 'Kuhn poker' onto the Gambit game \"Leduc hold'em\": at history 0"
    ):
        result.to_gambit_profile(leduc)


# -- the documentation ----------------------------------------------------------------------------
def test_the_research_notes_examples_run():
    """docs/research.md, "From and to NumPy, OpenSpiel and Gambit": its code blocks, in order."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("pygambit")
    text = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    section = text.split("### From and to NumPy, OpenSpiel and Gambit\n", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/research.md", "exec"), namespace)
    assert namespace["dilemma"].player_names == ("Alice", "Bob")
    np.testing.assert_allclose(namespace["payoffs"], namespace["kuhn"].snapshot.metrics.as_dict()["value"])


def test_the_documented_refusal_is_the_one_given():
    pyspiel = pytest.importorskip("pyspiel")
    text = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    kuhn = rmviz.solve("kuhn", "cfr", 5, progress=False)
    with pytest.raises(RmvizError) as error:
        kuhn.to_openspiel_policy(pyspiel.load_game("leduc_poker"))
    assert str(error.value) in " ".join(text.split())


def test_objects_meet_the_checks_of_specs_and_files():
    """A pyspiel game keeps the walk's size bound; a pygambit game gets rmviz's reader's
    refusals, naming the game."""
    pyspiel = pytest.importorskip("pyspiel")
    gbt = pytest.importorskip("pygambit")
    from rmviz.formats.openspiel import pyspiel_game_tree

    with pytest.raises(RmvizError, match=r"^'openspiel:leduc_poker\(\)' has more than 1,000 histories"):
        pyspiel_game_tree(pyspiel.load_game("leduc_poker"), max_nodes=1000)
    with pytest.raises(RmvizError, match=r"^pygambit game 'one', line 1: the game lists 1 player\(s\)"):
        rmviz.load(gbt.Game.new_table([2], title="one"))
    with pytest.raises(RmvizError, match=r"^pygambit game 'bare': the tree has no decision node"):
        rmviz.load(gbt.Game.new_tree(players=["a", "b"], title="bare"))
