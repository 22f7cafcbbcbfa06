"""CFR and CFR+ equal an exact rational-arithmetic CFR (:mod:`.exact_cfr`), ties included,
and OpenSpiel's C++ solvers where OpenSpiel is exact too (issue 10).

The tie games are OpenSpiel's own, exported with its Gambit writer
(``open_spiel.python.algorithms.gambit.export_gambit`` of ``load_game_as_turn_based``):
``battleship_2x2.efg`` (board 2x2, one ship of size 1 and value 1, two shots) and
``goofspiel_4.efg`` (4 cards, imperfect information, descending points). On battleship,
rounding at exact ties (regrets of +-1e-18) made rmviz and OpenSpiel leave exact CFR at
iteration 2 (NashConv 0.484 against 0.375 away in the average strategy); rmviz now snaps
ties to exact zeros (:func:`rmviz.solvers.regret_matching.snap_ties`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rmviz.formats import read_game_file
from rmviz.formats.efg import read_efg
from rmviz.games.trees import kuhn_poker, teaching_tree
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver
from tests.fidelity.exact_cfr import ExactCFR

DATA = Path(__file__).resolve().parents[1] / "data" / "fidelity"
GAMES = {
    "kuhn": kuhn_poker,
    "teaching-tree": teaching_tree,
    "battleship-2x2": lambda: read_game_file(DATA / "battleship_2x2.efg"),
    "goofspiel-4": lambda: read_game_file(DATA / "goofspiel_4.efg"),
}
# iterations compared: the referee's fractions grow with every iteration (goofspiel's most)
ITERATIONS = {"kuhn": 8, "teaching-tree": 8, "battleship-2x2": 6, "goofspiel-4": 3}


def per_slot(solver: CFRSolver, table: dict) -> np.ndarray:
    """An exact ``{(player, infoset): {move: p}}`` table as floats in rmviz's slot order."""
    tree = solver.tree
    out = np.empty(tree.n_slots)
    for s in range(tree.n_slots):
        info = tree.slot_infoset[s]
        out[s] = float(table[(int(tree.infoset_player[info]), tree.infoset_label[info])][tree.slot_move[s]])
    return out


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "numpy"])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
@pytest.mark.parametrize("name", list(GAMES))
def test_cfr_equals_exact_rational_cfr(name, algorithm, compiled):
    game = GAMES[name]()
    exact = ExactCFR(game, plus=algorithm == "cfr+")
    solver = CFRSolver(game, preset(algorithm))
    solver.releases_gil = solver.releases_gil and compiled  # False: the NumPy passes
    for _ in range(ITERATIONS[name]):
        exact.step()
        solver.step(1)
        snapshot = solver.snapshot(metrics=False)
        np.testing.assert_allclose(snapshot.current_strategy, per_slot(solver, exact.current()), atol=1e-12)
        np.testing.assert_allclose(snapshot.average_strategy, per_slot(solver, exact.average()), atol=1e-12)


def test_a_tie_in_a_recorded_step_is_an_exact_zero():
    """The explain panel's numbers: at battleship's first iteration every regret of a tied
    information set is exactly 0, and the next strategy there stays uniform."""
    solver = CFRSolver(GAMES["battleship-2x2"](), preset("cfr"))
    record = solver.step_recorded()
    regrets = np.concatenate([t.instantaneous_regret for t in record.traversals])
    tiny = regrets[(regrets != 0) & (np.abs(regrets) < 1e-9)]
    assert tiny.size == 0


OPENSPIEL_GAMES = {
    "kuhn_poker": {},
    "goofspiel": {"num_cards": 4, "imp_info": True, "points_order": "descending"},
}


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
@pytest.mark.parametrize("name", list(OPENSPIEL_GAMES))
def test_cfr_equals_openspiel_on_its_exported_games(name, algorithm):
    """Their game exported with their Gambit writer, read by rmviz: the same NashConv at
    T = 1, 10, 100 (games where OpenSpiel's floating point is exact; battleship is not)."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.gambit import export_gambit

    game = pyspiel.load_game_as_turn_based(name, OPENSPIEL_GAMES[name])
    ours = CFRSolver(read_efg(export_gambit(game), name), preset(algorithm))
    theirs = pyspiel.CFRSolver(game) if algorithm == "cfr" else pyspiel.CFRPlusSolver(game)
    done = 0
    for target in (1, 10, 100):
        for _ in range(target - done):
            theirs.evaluate_and_update_policy()
        ours.step(target - done)
        done = target
        expected = pyspiel.nash_conv(game, theirs.average_policy())
        assert ours.snapshot().metrics.nash_conv == pytest.approx(expected, abs=1e-9)
