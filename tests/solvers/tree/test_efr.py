"""EFR (Morrill et al. 2021) against OpenSpiel's efr.py iterate by iterate, and against CFR."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games.trees import kuhn_poker
from rmviz.solvers.registry import make_solver
from rmviz.solvers.tree.config import DEVIATIONS
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.efr import OPENSPIEL_NAMES, EFRSolver, layout
from rmviz.solvers.tree.solver import CFRSolver

ITERATIONS = 20


def assert_iterates_equal(ours, theirs) -> None:
    """Our EFR's current and average strategies equal OpenSpiel's efr.py's to 1e-12 at each
    of the first ITERATIONS iterations."""
    for t in range(1, ITERATIONS + 1):
        theirs.evaluate_and_update_policy()
        ours.step()
        current = _theirs_per_slot(ours, theirs.current_policy())
        average = _theirs_per_slot(ours, theirs.average_policy())
        np.testing.assert_allclose(ours.state.strategy, current, rtol=0, atol=1e-12, err_msg=f"t={t}")
        np.testing.assert_allclose(ours.average_strategy(), average, rtol=0, atol=1e-12, err_msg=f"t={t}")


def _theirs_per_slot(solver, policy):
    """OpenSpiel's tabular policy in our slot order (information-state strings as labels,
    legal actions in OpenSpiel's order)."""
    tree = solver.tree
    out = np.empty(tree.n_slots)
    for infoset, label in enumerate(tree.infoset_label):
        first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
        row = policy.state_lookup[label]
        legal = np.flatnonzero(policy.legal_actions_mask[row])
        assert legal.size == size
        out[first : first + size] = policy.action_probability_array[row, legal]
    return out


@pytest.mark.parametrize("deviations", DEVIATIONS)
@pytest.mark.parametrize("players", [2, 3])
def test_iterates_equal_openspiels_efr(deviations, players):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import efr

    from rmviz.formats.openspiel import openspiel_game

    spec = f"kuhn_poker(players={players})"
    theirs = efr.EFRSolver(pyspiel.load_game(spec), OPENSPIEL_NAMES[deviations])
    ours = EFRSolver(openspiel_game(spec), cfr_preset("efr", deviations=deviations))
    assert_iterates_equal(ours, theirs)


@pytest.mark.parametrize("deviations", DEVIATIONS)
def test_general_sum_signalling_game_equals_openspiels_efr(deviations, tmp_path):
    """The catalog's signalling game (von Stengel & Forges 2008; general-sum) written as
    .efg and loaded by OpenSpiel's efg_game (which wants each information set's moves
    named at every node) for both solvers."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import efr

    from rmviz.formats import write_game_file
    from rmviz.formats.openspiel import openspiel_game
    from rmviz.games import catalog_game

    path = tmp_path / "signalling.efg"
    write_game_file(catalog_game("signaling"), path)
    text = path.read_text().replace('p "" 2 1 0', 'p "" 2 1 "X" { "l" "r" } 0')
    path.write_text(text.replace('p "" 2 2 0', 'p "" 2 2 "Y" { "l" "r" } 0'))
    spec = f"efg_game(filename={path})"
    theirs = efr.EFRSolver(pyspiel.load_game(spec), OPENSPIEL_NAMES[deviations])
    ours = EFRSolver(openspiel_game(spec), cfr_preset("efr", deviations=deviations))
    tree = ours.tree
    assert np.ptp(tree.payoffs[:, tree.kind == 2].sum(axis=0)) > 0  # not constant-sum
    assert_iterates_equal(ours, theirs)


def test_blind_counterfactual_efr_is_simultaneous_cfr():
    """Morrill et al. 2021 (and OpenSpiel's efr.py): EFR with blind counterfactual deviations
    is CFR, iterate for iterate."""
    efr_solver = EFRSolver(kuhn_poker(), cfr_preset("efr", deviations="blind-cf"))
    cfr_solver = CFRSolver(kuhn_poker(), cfr_preset("cfr", updates="simultaneous"))
    for _ in range(50):
        efr_solver.step()
        cfr_solver.step()
        np.testing.assert_allclose(efr_solver.state.strategy, cfr_solver.state.strategy, rtol=0, atol=1e-12)
        np.testing.assert_allclose(efr_solver.average_strategy(), cfr_solver.average_strategy(), atol=1e-12)


def test_causal_layout_counts_openspiels_prefix_duplicates():
    """Player 1's Kuhn information set after pass-bet has one own move above it: causal
    deviations are external at prefix 0 (twice: the two moves there), blind action (prefix
    1), informed cf and blind cf."""
    solver = EFRSolver(kuhn_poker(), cfr_preset("efr"))
    tree = solver.tree
    infoset = tree.infoset_label.index("Qpb")
    dev = layout(tree, solver.passes, "causal")
    mine = dev.group_infoset == infoset
    assert dev.group_level[mine].tolist() == [0, 1, 0, 0]
    assert dev.group_weight[mine].tolist() == [2.0, 1.0, 1.0, 1.0]
    assert dev.group_internal[mine].tolist() == [False, False, True, False]


def test_efr_runs_through_the_registry_and_restores_bit_for_bit():
    solver = make_solver(kuhn_poker(), "efr", deviations="informed-cf")
    assert isinstance(solver, EFRSolver)
    solver.step(5)
    saved = solver.checkpoint()
    solver.step(5)
    expected = solver.snapshot()
    other = make_solver(kuhn_poker(), "efr", deviations="informed-cf")
    other.restore(saved)
    other.step(5)
    got = other.snapshot()
    np.testing.assert_array_equal(got.average_strategy, expected.average_strategy)
    assert got.metrics.gap("efce") == expected.metrics.gap("efce") is not None
    assert np.isfinite(got.trace_values()[: len(solver.columns)]).sum() > 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"updates": "alternating"}, "simultaneous"),
        ({"device": "gpu"}, "CPU"),
        ({"deviations": "swap"}, "unknown deviations"),
    ],
)
def test_efr_refuses_what_it_does_not_run_in_one_line(options, message):
    with pytest.raises(ConfigError, match=message) as error:
        cfr_preset("efr", **options)
    assert "\n" not in str(error.value)


def test_deviations_apply_to_efr_only():
    with pytest.raises(ConfigError, match="applies to efr"):
        cfr_preset("cfr", deviations="causal")
    with pytest.raises(ConfigError, match="Monte-Carlo"):
        cfr_preset("efr", sampling="external")


def test_cli_runs_each_deviation_set_and_refuses_in_one_line(capsys, tmp_path):
    import json

    from rmviz.cli import main

    for deviations in DEVIATIONS:
        assert main(["solve", "kuhn", "-a", "efr", "--deviations", deviations, "-n", "20", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["efce_gap"] >= report["efcce_gap"] >= report["cce_gap"] >= 0
        assert report["config"]["deviations"] == deviations
    trace = tmp_path / "run.csv"
    argv = ["solve", "kuhn", "-a", "efr", "--updates", "alternating", "--trace", str(trace)]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "simultaneous" in error
    assert not trace.exists()


def test_bench_prints_efr_beside_cfr():
    from rmviz.bench import bench_efr

    lines: list[str] = []
    bench_efr(0.001, lambda text="": lines.append(text), peer=False)
    rows = [text for text in lines if " efr " in text]
    assert len(rows) == 2 * len(DEVIATIONS) and all(row.endswith("x") for row in rows)
