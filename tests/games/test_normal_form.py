from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import GameError
from rmviz.games import (
    CATALOG,
    CatalogEntry,
    NormalFormGame,
    catalog_game,
    known_equilibrium,
    parse_random_spec,
    random_game,
)
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.trees import teaching_tree
from rmviz.solvers.matrix.metrics import nash_conv


def test_shape_names_and_defaults():
    game = NormalFormGame(np.zeros((2, 3, 2)))
    assert game.n_players == 2
    assert game.num_actions == (3, 2)
    assert game.player_names == ("Player 1", "Player 2")
    assert game.action_names == (("1", "2", "3"), ("1", "2"))
    assert game.shape_label == "3x2"


@pytest.mark.parametrize(
    ("payoffs", "message"),
    [
        (np.zeros((2, 2)), "at least 2 players"),
        (np.zeros((3, 2, 2)), "first axis must have one entry per player"),
        (np.zeros((2, 0, 2)), "player 1 has no actions"),
        (np.zeros((9,) + (1,) * 9), "2 to 8 players"),
        ([[[1, "a"], [1, 1]], [[1, 1], [1, 1]]], "must be numbers"),
    ],
)
def test_malformed_payoffs_are_refused_with_a_precise_message(payoffs, message):
    with pytest.raises(GameError, match=message):
        NormalFormGame(payoffs)


def test_nan_payoff_names_player_and_profile():
    payoffs = np.zeros((2, 2, 3))
    payoffs[1, 0, 2] = np.nan
    with pytest.raises(GameError, match=r"player 2 at profile \(1, 3\) is nan"):
        NormalFormGame(payoffs)


def test_names_must_fit_and_differ():
    with pytest.raises(GameError, match="2 actions but 3 action names"):
        NormalFormGame(np.zeros((2, 2, 2)), action_names=(("a", "b", "c"), ("x", "y")))
    with pytest.raises(GameError, match="player names must differ"):
        NormalFormGame(np.zeros((2, 2, 2)), player_names=("Ann", "Ann"))


def test_too_large_is_refused_before_allocation():
    with pytest.raises(GameError, match="GiB of payoffs"):
        random_game("general-sum", (100_000, 100_000))


def test_payoffs_are_read_only():
    game = catalog_game("rps")
    with pytest.raises(ValueError):
        game.payoffs[0, 0, 0] = 5


def test_zero_and_constant_sum_detection():
    assert catalog_game("rps-crash").is_zero_sum()
    assert not catalog_game("battle-of-partners").is_constant_sum()
    constant = NormalFormGame(np.array([[[1, 3], [2, 0]], [[4, 2], [3, 5]]]))
    assert constant.constant_sum() == 5
    assert not constant.is_zero_sum()


def test_kalai_kalai_split_and_score():
    game = random_game("general-sum", (4, 3, 2), seed=1)
    zero_sum, cooperative = game.kalai_kalai()
    np.testing.assert_allclose(zero_sum + cooperative[None], game.payoffs)
    np.testing.assert_allclose(zero_sum.sum(axis=0), 0, atol=1e-12)
    assert 0 < game.zero_sum_score() < 1
    assert catalog_game("rps").zero_sum_score() == pytest.approx(1.0)
    assert random_game("cooperative", (3, 3), seed=2).zero_sum_score() == pytest.approx(0.0)


@pytest.mark.parametrize("game_id", [game_id for game_id, entry in CATALOG.items() if not entry.is_tree])
def test_catalog_equilibria_are_equilibria(game_id):
    entry = CATALOG[game_id]
    game = entry.build()
    assert entry.description
    assert entry.equilibrium is not None
    gap, _ = nash_conv(game.payoffs, [np.array(s) for s in entry.equilibrium])
    assert gap == pytest.approx(0.0, abs=1e-12)


def test_catalog_teaching_games_match_the_sources():
    crash = catalog_game("rps-crash")
    np.testing.assert_array_equal(crash.payoffs[0], [[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    partners = catalog_game("battle-of-partners")
    assert partners.action_names[0] == ("Cinema", "Dancing")
    np.testing.assert_array_equal(partners.payoffs[:, 0, 0], [10, 7])
    np.testing.assert_array_equal(partners.payoffs[:, 0, 1], [2, 2])
    np.testing.assert_array_equal(partners.payoffs[:, 1, 1], [7, 10])
    traffic = catalog_game("traffic-lights")
    np.testing.assert_array_equal(traffic.payoffs[:, 1, 1], [-100, -100])
    assert catalog_game("three-player-pennies").n_players == 3


def test_unknown_catalog_id_lists_the_known_ones():
    with pytest.raises(GameError, match="rps-crash") as raised:
        catalog_game("rock-paper")
    assert "kuhn" in str(raised.value)  # trees are in the same catalog


def test_one_catalog_holds_matrix_games_then_trees():
    kinds = [entry.kind for entry in CATALOG.values()]
    assert kinds == sorted(kinds)  # "matrix" entries first, then "tree"
    trees = [game_id for game_id, entry in CATALOG.items() if entry.is_tree]
    assert trees == ["kuhn", "leduc", "teaching-tree", "signaling"]
    for game_id, entry in CATALOG.items():
        assert entry.id == game_id and entry.description
        if entry.kind == "matrix":  # building Leduc takes a while: the trees are checked below
            assert isinstance(catalog_game(game_id), NormalFormGame)
    assert isinstance(catalog_game("kuhn"), ExtensiveFormGame)
    assert isinstance(catalog_game("teaching-tree"), ExtensiveFormGame)


def test_known_equilibrium_of_catalog_games_only():
    assert known_equilibrium(catalog_game("rps-crash")) == CATALOG["rps-crash"].equilibrium
    assert known_equilibrium(random_game("zero-sum", (3, 3), seed=1)) is None
    assert known_equilibrium(catalog_game("kuhn")) is None


def test_a_tree_entry_has_no_matrix_equilibrium():
    with pytest.raises(GameError, match="matrix games only"):
        CatalogEntry("t", "a tree", teaching_tree, ((1.0,), (1.0,)), kind="tree")


def test_random_games_are_seeded_and_of_their_kind():
    a = parse_random_spec("random:general-sum:4x5x3:seed=7")
    b = parse_random_spec("random:general-sum:4x5x3:seed=7")
    c = parse_random_spec("random:general-sum:4x5x3:seed=8")
    assert a == b and a != c
    assert a.num_actions == (4, 5, 3)
    assert (a.payoffs >= 0).all() and (a.payoffs < 1).all()
    zero2 = parse_random_spec("random:zero-sum:6x6")
    assert zero2.is_zero_sum() and (zero2.payoffs[0] >= 0).all() and (zero2.payoffs[0] < 1).all()
    assert parse_random_spec("random:zero-sum:3x3x3:seed=1").is_zero_sum()
    coop = parse_random_spec("random:cooperative:3x4:seed=2")
    np.testing.assert_array_equal(coop.payoffs[0], coop.payoffs[1])
    assert parse_random_spec("random:zero-sum:2x2") == parse_random_spec("random:zero-sum:2x2:seed=0")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("random:zero-sum", "cannot read random game"),
        ("random:friendly:3x3", "unknown random game kind"),
        ("random:zero-sum:3", "2 to 8 players"),
        ("random:zero-sum:3x0", "at least one action"),
    ],
)
def test_bad_random_specs(spec, message):
    with pytest.raises(GameError, match=message):
        parse_random_spec(spec)


def test_zero_sum_is_judged_relative_to_the_payoffs():
    """Tiny payoffs are not zero-sum just because their sums are tiny (the tolerance scales)."""
    rps = np.array([[[0, -1, 1], [1, 0, -1], [-1, 1, 0]], [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]], dtype=float)
    for scale in (1e-12, 1.0, 1e12):
        assert NormalFormGame(rps * scale).is_zero_sum()
        shifted = rps * scale
        shifted[0] += scale / 2  # constant-sum with c = scale / 2: not zero-sum at any unit
        assert not NormalFormGame(shifted).is_zero_sum()
        assert NormalFormGame(shifted).constant_sum() == pytest.approx(scale / 2)


def test_a_negated_zero_payoff_is_stored_as_zero():
    """u_2 = -u_1 in a zero-sum game turns u_1's zeros into -0.0: games store 0.0, so no "-0"
    is shown (matrix editor, notebooks) or written (JSON, Gambit)."""
    from rmviz.formats import write_json, write_nfg

    payoffs = np.array([[[0.0, 1.0], [-1.0, 0.0]]])
    game = NormalFormGame(np.concatenate([payoffs, -payoffs]))
    assert not np.signbit(game.payoffs[game.payoffs == 0]).any()
    assert "-0" not in write_json(game) and " -0 " not in write_nfg(game)
    assert "-0<" not in game._repr_html_() and "-0," not in game._repr_html_()
