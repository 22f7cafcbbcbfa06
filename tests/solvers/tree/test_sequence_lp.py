"""The sequence-form LP (rmviz.solvers.tree.sequence_lp): known values, NashConv of its
equilibrium by rmviz's exact best responses, the reduced normal form's matrix LP on random
trees, and Gambit's own LP where pygambit is installed."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rmviz.errors import ConfigError
from rmviz.games.catalog import catalog_game
from rmviz.games.extensive_form import TERMINAL, ExtensiveFormGame, Node, chance, decision, terminal
from rmviz.games.random_trees import binary_tree
from rmviz.games.reduced import reduced_strategic_form
from rmviz.solvers.exact import zero_sum_solution
from rmviz.solvers.tree.compiled_tree import TreePasses, compile_tree
from rmviz.solvers.tree.sequence_lp import MAX_LP_TERMINALS, refusal, solve_zero_sum_tree
from tests.formats.strategies import game_trees


def _teaching_value() -> Fraction:
    """The teaching tree's value by hand: player 1 plays L with probability p; player 2 answers
    on the X side with min(2p - 1, 1 - 2p), on the Y side with min(2p, 1 - p); the average is
    largest at p = 1/2, where it is (0 + 1/2) / 2."""
    best = max(
        (Fraction(min(2 * p - 1, 1 - 2 * p) + min(2 * p, 1 - p), 2), p)
        for p in (Fraction(k, 120) for k in range(121))
    )
    assert best[1] == Fraction(1, 2)
    return best[0]


@pytest.mark.parametrize(
    ("spec", "value", "tolerance"),
    [
        ("kuhn", Fraction(-1, 18), 1e-9),  # Kuhn 1950
        ("teaching-tree", _teaching_value(), 1e-9),
        ("leduc", -0.0856, 1e-4),  # -0.085606... (e.g. Lanctot 2013, OpenSpiel's CFR tests)
    ],
)
def test_the_value_is_the_known_one_and_the_equilibrium_is_exact(spec, value, tolerance):
    game = catalog_game(spec)
    solution = solve_zero_sum_tree(game, exact=True)
    assert solution.value == pytest.approx(float(value), abs=tolerance)
    if isinstance(value, Fraction):  # Kuhn, the teaching tree: checked in fractions
        assert solution.exact_value == value
    else:  # Leduc has more terminals than the exact check takes
        assert solution.exact_value is None
    assert solution.values[1] == -solution.value
    passes = TreePasses(compile_tree(game))
    nash_conv, values = passes.nash_conv(solution.strategy)  # rmviz's own best responses
    assert nash_conv <= 1e-9
    assert values[0] == pytest.approx(solution.value, abs=1e-9)
    assert solution.nash_conv == pytest.approx(nash_conv, abs=1e-15)


def test_kuhn_player_1_never_bets_a_queen_first():
    """Every equilibrium of Kuhn poker checks the queen in the first round (Kuhn 1950)."""
    game = catalog_game("kuhn")
    tree = compile_tree(game)
    strategy = solve_zero_sum_tree(game, tree).strategy
    infoset = tree.infoset_label.index("Q")
    first = int(tree.infoset_first_slot[infoset])
    bet = first + tree.slot_move[first : first + 2].index("b")
    assert strategy[bet] == pytest.approx(0.0, abs=1e-9)


def kuhn_equilibrium(tree, alpha: float) -> np.ndarray:
    """Kuhn's (1950) equilibrium family, by hand: player 1 bets a jack with probability
    alpha, a king with 3 alpha, never a queen, and calls a bet after passing with a queen
    alpha + 1/3, a king always, a jack never; player 2 (one strategy) bets a jack after a pass
    1/3, a king always, a queen never, and calls a bet with a queen 1/3, a king always."""
    bet = {"J": alpha, "Q": 0.0, "K": 3 * alpha, "Jpb": 0.0, "Qpb": alpha + 1 / 3, "Kpb": 1.0}
    bet |= {"Jp": 1 / 3, "Qp": 0.0, "Kp": 1.0, "Jb": 0.0, "Qb": 1 / 3, "Kb": 1.0}
    strategy = np.empty(tree.n_slots)
    for infoset, label in enumerate(tree.infoset_label):
        first = int(tree.infoset_first_slot[infoset])
        moves = tree.slot_move[first : first + 2]
        strategy[first + moves.index("b")] = bet[label]
        strategy[first + moves.index("p")] = 1.0 - bet[label]
    return strategy


def test_the_equilibrium_nearest_an_equilibrium_is_that_one():
    """Kuhn poker has a family of equilibria; the plain LP meets one end of it (alpha = 0),
    and a run may converge to any member: asked for the one nearest a member, the LP
    returns that member, to HiGHS's tolerance."""
    game = catalog_game("kuhn")
    tree = compile_tree(game)
    passes = TreePasses(tree)
    for alpha in (0.0, 0.1, 0.2, 1 / 3):
        member = kuhn_equilibrium(tree, alpha)
        assert passes.nash_conv(member)[0] == pytest.approx(0.0, abs=1e-12)  # the family, checked
        nearest = solve_zero_sum_tree(game, tree, near=member)
        assert nearest.strategy == pytest.approx(member, abs=1e-7)
        assert nearest.value == pytest.approx(-1 / 18, abs=1e-9) and nearest.nash_conv <= 1e-8
    plain = solve_zero_sum_tree(game, tree).strategy
    assert np.abs(plain - kuhn_equilibrium(tree, 0.2)).max() > 0.1  # another member


def test_the_nearest_equilibrium_is_nearer_than_every_member_of_the_family():
    """From targets that are no equilibrium (uniform, a random strategy), the chosen
    equilibrium's realization plan is at least as near in L1 as each of Kuhn's family on a
    fine grid (the family is the whole equilibrium set)."""
    from rmviz.solvers.tree.sequence_lp import realization_plan

    game = catalog_game("kuhn")
    tree = compile_tree(game)
    passes = TreePasses(tree)
    rng = np.random.default_rng(5)
    for target in (tree.uniform_strategy(), passes.average_strategy(rng.random(tree.n_slots))):
        nearest = solve_zero_sum_tree(game, tree, near=target)
        assert nearest.nash_conv <= 1e-8
        plan = realization_plan(tree, target)
        distance = np.abs(realization_plan(tree, nearest.strategy) - plan).sum()
        family = [
            np.abs(realization_plan(tree, kuhn_equilibrium(tree, a)) - plan).sum()
            for a in np.linspace(0, 1 / 3, 301)
        ]
        assert distance <= min(family) + 1e-7


def test_a_realization_plan_multiplies_the_moves_on_a_sequence():
    from rmviz.solvers.tree.sequence_lp import realization_plan

    tree = compile_tree(catalog_game("kuhn"))
    strategy = kuhn_equilibrium(tree, 0.2)
    plan = realization_plan(tree, strategy)
    jack = tree.infoset_label.index("J")
    after = tree.infoset_label.index("Jpb")  # player 1's jack, after pass and bet
    pass_jack = int(tree.infoset_first_slot[jack]) + tree.slot_move[
        tree.infoset_first_slot[jack] : tree.infoset_first_slot[jack] + 2
    ].index("p")
    first = int(tree.infoset_first_slot[after])
    assert plan[pass_jack] == pytest.approx(0.8)
    assert plan[first : first + 2] == pytest.approx(0.8 * strategy[first : first + 2])


def _zero_sum_pair(game: ExtensiveFormGame) -> ExtensiveFormGame:
    """``game`` with player 2's payoffs replaced by minus player 1's."""

    def copy(node: Node) -> Node:
        if node.kind == TERMINAL:
            return Node(TERMINAL, payoffs=(node.payoffs[0], -node.payoffs[0]))
        children = tuple(copy(child) for child in node.children)
        return Node(node.kind, node.moves, children, node.player, node.infoset, node.probabilities)

    assert game.root is not None
    return ExtensiveFormGame(copy(game.root), game.player_names, game.title)


def _agrees_with_the_reduced_form(game: ExtensiveFormGame) -> None:
    solution = solve_zero_sum_tree(game)
    matrix = zero_sum_solution(reduced_strategic_form(game))
    scale = max(1.0, float(np.abs(compile_tree(game).payoffs).max()))
    assert solution.value == pytest.approx(float(matrix.value), abs=1e-7 * scale)
    assert solution.nash_conv <= 1e-7 * scale


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
def test_random_binary_trees_have_their_reduced_forms_value(levels, seed):
    _agrees_with_the_reduced_form(binary_tree(levels, seed))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(game=game_trees().filter(lambda g: g.n_players == 2).map(_zero_sum_pair))
def test_random_trees_with_chance_have_their_reduced_forms_value(game):
    _agrees_with_the_reduced_form(game)


def test_subnormal_payoffs_solve_as_their_scale_says():
    """Payoffs of 5e-324 (Hypothesis's find): the LP solves them scaled to 1, entry by
    entry (a sparse matrix divided by 5e-324 was multiplied by its inverse, inf)."""
    tiny = 5e-324
    game = ExtensiveFormGame(
        decision(0, "a", [("x", terminal(tiny, -tiny)), ("y", terminal(0, 0))]), ("A", "B"), "tiny"
    )
    solution = solve_zero_sum_tree(game)
    assert solution.value == tiny and solution.nash_conv == 0.0
    assert solution.strategy.tolist() == [1.0, 0.0]


def test_trees_it_does_not_solve_are_refused_in_one_line():
    assert refusal(catalog_game("kuhn")) is None
    general = ExtensiveFormGame(
        decision(0, "a", [("x", terminal(1, 1)), ("y", terminal(0, 0))]), ("A", "B"), "coordination"
    )
    three = ExtensiveFormGame(
        chance(
            [
                ("h", 0.5, decision(0, "a", [("x", terminal(1, -1, 0)), ("y", terminal(0, 0, 0))])),
                ("t", 0.5, terminal(0, 1, -1)),
            ]
        ),
        ("A", "B", "C"),
        "three players",
    )
    for game, reason in ((general, "payoffs not summing to 0"), (three, "3 players")):
        why = refusal(game)
        assert why is not None and "\n" not in why and reason in why
        with pytest.raises(ConfigError, match="not a two-player zero-sum game tree"):
            solve_zero_sum_tree(game)


def test_trees_above_the_size_limit_are_refused(monkeypatch):
    monkeypatch.setattr("rmviz.solvers.tree.sequence_lp.MAX_LP_TERMINALS", 29)
    with pytest.raises(ConfigError, match="up to 29 terminal histories; Kuhn poker has 30"):
        solve_zero_sum_tree(catalog_game("kuhn"))
    assert MAX_LP_TERMINALS >= 5_520  # Leduc's terminals


@pytest.mark.gambit
@pytest.mark.parametrize("spec", ["kuhn", "teaching-tree", "binary:4:7", "binary:5:11"])
def test_gambits_lp_finds_the_same_value(spec):
    gbt = pytest.importorskip("pygambit")
    from rmviz.formats.efg import write_efg

    if spec.startswith("binary:"):
        _, levels, seed = spec.split(":")
        game = binary_tree(int(levels), int(seed))
    else:
        game = catalog_game(spec)
    target = gbt.read_efg(io.StringIO(write_efg(game)))
    equilibrium = gbt.nash.lp_solve(target, rational=False).equilibria[0]
    gambit_value = float(equilibrium.payoff(next(iter(target.players))))
    assert solve_zero_sum_tree(game).value == pytest.approx(gambit_value, abs=1e-8)
