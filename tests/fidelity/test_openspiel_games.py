"""OpenSpiel's games built by walking pyspiel states (``openspiel:GAME(params)``,
:mod:`rmviz.formats.openspiel`): CFR on them equals OpenSpiel's own CFRSolver to 1e-9, in
NashConv and in the average policy of every information set, at T = 1, 10 and 100 (issue 14)."""

from __future__ import annotations

import pytest

from rmviz.formats.openspiel import _labels, infoset_label, load_pyspiel_game, tree_of
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver

pyspiel = pytest.importorskip("pyspiel")

# game -> iterations compared; OpenSpiel's CFRSolver takes 5 s for 100 iterations of Leduc
# on a loaded machine, so Leduc stops at 10 here (100 is the same: docs/research.md)
GAMES = {
    "kuhn_poker": (1, 10, 100),
    "kuhn_poker(players=3)": (1, 10, 100),
    "leduc_poker": (1, 10),
    "liars_dice(numdice=1,dice_sides=4)": (1, 10, 100),
    "goofspiel(num_cards=3,imp_info=True)": (1, 10, 100),  # simultaneous moves, random points order
}


def their_average(game, policy) -> dict[tuple[int, str, str], float]:
    """OpenSpiel's average policy per (player, infoset label, move label), walking its states."""
    table: dict[tuple[int, str, str], float] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        player = state.current_player()
        label = infoset_label(state.information_state_string(player))
        actions = state.legal_actions(player)
        probabilities = policy.action_probabilities(state)
        for action, move in zip(actions, _labels(state, player, actions), strict=True):
            table[player, label, move] = probabilities[action]
        stack.extend(state.child(a) for a in actions)
    return table


def our_average(solver: CFRSolver) -> dict[tuple[int, str, str], float]:
    tree, average = solver.tree, solver.average_strategy()
    return {
        (
            int(tree.infoset_player[tree.slot_infoset[s]]),
            tree.infoset_label[tree.slot_infoset[s]],
            tree.slot_move[s],
        ): float(average[s])
        for s in range(tree.n_slots)
    }


@pytest.mark.parametrize("spec", list(GAMES))
def test_cfr_equals_openspiel_cfr_solver(spec):
    game = load_pyspiel_game(spec)
    ours = CFRSolver(tree_of(game, spec), preset("cfr", updates="alternating"))
    theirs = pyspiel.CFRSolver(game)
    done = 0
    for target in GAMES[spec]:
        for _ in range(target - done):
            theirs.evaluate_and_update_policy()
        ours.step(target - done)
        done = target
        policy = theirs.average_policy()
        assert ours.metrics().nash_conv == pytest.approx(pyspiel.nash_conv(game, policy), abs=1e-9)
        expected, got = their_average(game, policy), our_average(ours)
        assert expected.keys() == got.keys()
        worst = max(abs(expected[key] - got[key]) for key in expected)
        assert worst < 1e-9, f"T={target}: average policies differ by {worst:.3g}"


def test_the_issue_command_equals_openspiel(capsys):
    """``rmviz solve 'openspiel:liars_dice(numdice=1,dice_sides=4)' -a cfr --updates alternating
    -n 100 --json``: NashConv, exploitability and every average-policy entry equal OpenSpiel's."""
    import json

    from rmviz.cli import main

    spec = "openspiel:liars_dice(numdice=1,dice_sides=4)"
    assert main(["solve", spec, "-a", "cfr", "--updates", "alternating", "-n", "100", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    game = pyspiel.load_game("liars_dice(numdice=1,dice_sides=4)")
    theirs = pyspiel.CFRSolver(game)
    for _ in range(100):
        theirs.evaluate_and_update_policy()
    policy = theirs.average_policy()
    assert report["iterations"] == 100
    assert report["nash_conv"] == pytest.approx(pyspiel.nash_conv(game, policy), abs=1e-9)
    assert report["exploitability"] == pytest.approx(pyspiel.exploitability(game, policy), abs=1e-9)
    expected = their_average(game, policy)
    table = report["average_strategy"]  # labels shared by the two players carry their name
    for (player, label, move), p in expected.items():
        row = table.get(label) or table[f"Player {player + 1}: {label}"]
        assert row[move] == pytest.approx(p, abs=1e-9)
