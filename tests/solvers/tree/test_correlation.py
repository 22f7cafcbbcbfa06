"""The device's CCE, EFCCE and EFCE gaps (rmviz/solvers/tree/correlation.py) against an exact
referee, OpenSpiel's cce_dist, and their nesting."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rmviz.errors import ConfigError
from rmviz.games.extensive_form import ExtensiveFormGame, Node
from rmviz.games.random_trees import binary_tree
from rmviz.games.trees import kuhn_poker, teaching_tree
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.correlation import NOTIONS
from rmviz.solvers.tree.solver import CFRSolver
from tests.solvers.tree.correlation_referee import Referee


def recorded_device(solver: CFRSolver, iterations: int) -> Iterator[list[tuple[Fraction, np.ndarray]]]:
    """The device after each of ``iterations`` recorded iterations, yielded as each is run:
    (weight, profile played at the iteration's start), the weights in the average's discount
    form, exactly."""
    device: list[tuple[Fraction, np.ndarray]] = []
    for _ in range(iterations):
        record = solver.step_recorded()
        d, c = Fraction(record.step.d_avg), Fraction(record.step.c_avg)
        device = [(w * d, sigma) for w, sigma in device] + [(c, record.strategy_before)]
        yield device


def solver_gaps(solver: CFRSolver) -> dict[str, tuple[float, ...]]:
    gaps = solver.correlation_gaps()
    assert gaps is not None
    return {notion: getattr(gaps, notion) for notion in NOTIONS}


def assert_gaps_equal(ours: dict[str, tuple[float, ...]], exact: dict[str, list[Fraction]]) -> None:
    for notion in NOTIONS:
        assert ours[notion] == pytest.approx([float(x) for x in exact[notion]], abs=1e-12), notion


def referee_checked(game, config, iterations=5):
    """The referee's gaps of the device at T = 1..``iterations``, each first checked equal to
    the gaps of a recorded (NumPy) run and of a compiled one."""
    recorded, compiled = CFRSolver(game, config), CFRSolver(game, config)
    referee = Referee(recorded.tree, recorded.tree.payoffs * recorded.scale)
    for device in recorded_device(recorded, iterations):
        compiled.step(1)
        exact = referee.gaps(device)
        assert_gaps_equal(solver_gaps(recorded), exact)
        assert_gaps_equal(solver_gaps(compiled), exact)
        yield exact


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear-cfr", "dcfr", "pcfr+", "pdcfr+"])
def test_gaps_equal_the_referee_on_the_teaching_tree(algorithm, updates):
    for _ in referee_checked(teaching_tree(), preset(algorithm, updates=updates)):
        pass


@pytest.mark.parametrize(
    ("algorithm", "updates"),
    [("cfr", "simultaneous"), ("cfr", "alternating"), ("dcfr", "alternating"), ("pcfr+", "simultaneous")],
)
def test_gaps_equal_the_referee_on_kuhn(algorithm, updates):
    for exact in referee_checked(kuhn_poker(), preset(algorithm, updates=updates)):
        assert max(exact["efce"]) <= max(exact["ce"])


def test_greedy_weights_device_equals_the_referee():
    game = teaching_tree()
    solver = CFRSolver(game, preset("greedy-cfr"))
    referee = Referee(solver.tree, solver.tree.payoffs * solver.scale)
    for device in recorded_device(solver, 4):
        assert_gaps_equal(solver_gaps(solver), referee.gaps(device))


@pytest.mark.parametrize("algorithm", ["mccfr-chance", "mccfr-external", "mccfr-outcome"])
@pytest.mark.parametrize("build", [teaching_tree, kuhn_poker])
def test_monte_carlo_devices_equal_the_referee(algorithm, build):
    """Monte-Carlo CFR's device: the whole profile at each iteration's start (not the sample),
    uniform weights; recorded (NumPy) and compiled runs draw the same samples."""
    config = preset(algorithm, track_correlation=True, seed=7)
    recorded, compiled = CFRSolver(build(), config), CFRSolver(build(), config)
    referee = Referee(recorded.tree, recorded.tree.payoffs * recorded.scale)
    for t, device in enumerate(recorded_device(recorded, 4 if build is teaching_tree else 2), 1):
        compiled.step(1)
        exact = referee.gaps(device)
        assert_gaps_equal(solver_gaps(recorded), exact)
        assert_gaps_equal(solver_gaps(compiled), exact)
        assert compiled.iteration == t


def test_cce_gap_equals_openspiels_cce_dist_on_three_player_kuhn():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as openspiel_policy

    from rmviz.formats.openspiel import openspiel_game

    game = openspiel_game("openspiel:kuhn_poker(players=3)")
    solver = CFRSolver(game, preset("cfr", updates="simultaneous"))
    device = list(recorded_device(solver, 10))[-1]
    target = pyspiel.load_game("kuhn_poker(players=3)")
    tree = solver.tree
    total = sum(w for w, _ in device)
    theirs = []
    for w, sigma in device:
        table = openspiel_policy.TabularPolicy(target)
        for info in range(tree.n_infosets):
            first, size = int(tree.infoset_first_slot[info]), int(tree.infoset_size[info])
            row = table.state_lookup[tree.infoset_label[info]]
            table.action_probability_array[row] = sigma[first : first + size]
        theirs.append((float(w / total), openspiel_policy.python_policy_to_pyspiel_policy(table)))
    info = pyspiel.cce_dist(target, theirs)
    gaps = solver.correlation_gaps()
    assert gaps is not None
    assert gaps.cce == pytest.approx(list(info.deviation_incentives), abs=1e-10)
    assert solver.metrics().gap("cce") == pytest.approx(max(info.deviation_incentives), abs=1e-10)


def _general_sum(node: Node, draw: Callable[[], float]) -> Node:
    """``node``'s tree with independent payoffs for both players."""
    if not node.children:
        return replace(node, payoffs=(draw(), draw()))
    return replace(node, children=tuple(_general_sum(child, draw) for child in node.children))


@settings(max_examples=25, deadline=None)
@given(
    levels=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    iterations=st.integers(1, 30),
    general=st.booleans(),
)
def test_gaps_nest_on_generated_trees(levels, seed, iterations, general):
    game = binary_tree(levels, seed)
    if general:
        rng = np.random.default_rng(seed)
        root = _general_sum(game.root, lambda: float(rng.integers(-4, 5)))
        game = ExtensiveFormGame(root, game.player_names, "general-sum binary tree")
    solver = CFRSolver(game, preset("cfr", updates="simultaneous"))
    device = list(recorded_device(solver, iterations))[-1]
    gaps = solver_gaps(solver)
    for i in range(2):
        assert 0.0 <= gaps["cce"][i] <= gaps["efcce"][i] + 1e-12
        assert gaps["efcce"][i] <= gaps["efce"][i] + 1e-12
    if levels <= 3:
        exact = Referee(solver.tree, solver.tree.payoffs * solver.scale).gaps(device)
        assert max(gaps["efce"]) <= float(max(exact["ce"])) + 1e-12
        assert_gaps_equal(gaps, exact)


def test_tracking_is_switchable_and_refused_where_it_cannot_run():
    game = kuhn_poker()
    off = CFRSolver(game, preset("cfr", track_correlation=False))
    off.step(3)
    metrics = off.metrics()
    assert metrics.correlation is None and metrics.as_dict()["efce_gap"] is None
    assert np.isnan(off.snapshot().trace_values()[[off.columns.index(c) for c in off.columns[6:9]]]).all()
    on = CFRSolver(game, preset("cfr"))
    on.step(3)
    assert on.metrics().as_dict()["player_gaps"]["efce"] == list(on.correlation_gaps().efce)
    with pytest.raises(ConfigError, match="on the CPU only"):
        preset("cfr", track_correlation=True, device="gpu")
    sampled = CFRSolver(game, preset("mccfr-external"))
    sampled.step(3)
    assert sampled.correlation_gaps() is None  # Monte-Carlo CFR: only when asked


@pytest.mark.parametrize("build", [kuhn_poker, teaching_tree])
def test_zero_sum_cce_gains_add_up_to_nash_conv(build):
    """u_1 + u_2 = 0 and the device's marginals are the average profile, so the two players'
    CCE gains sum to its NashConv: equal where both are positive, above it where one is
    clamped at 0; the cce gap is at least the exploitability."""
    solver = CFRSolver(build(), preset("cfr+", updates="simultaneous"))
    both_positive = 0
    for _ in range(40):
        solver.step(1)
        metrics = solver.metrics()
        assert metrics.correlation is not None
        gains = metrics.correlation.cce
        assert sum(gains) >= metrics.nash_conv - 1e-12
        assert metrics.gap("cce") >= metrics.exploitability - 1e-12
        if min(gains) > 0:
            both_positive += 1
            assert sum(gains) == pytest.approx(metrics.nash_conv, abs=1e-12)
    assert both_positive > 0


def test_the_gaps_reach_solve_json_trace_summary_and_api(capsys, tmp_path):
    import json

    import rmviz
    from rmviz.cli import main

    assert main(["solve", "kuhn", "-n", "30", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    solver = CFRSolver(kuhn_poker(), preset("cfr"))
    solver.step(30)
    gaps = solver_gaps(solver)
    for notion in NOTIONS:
        assert report[f"{notion}_gap"] == pytest.approx(max(gaps[notion]), abs=1e-12)
        assert report["player_gaps"][notion] == pytest.approx(list(gaps[notion]), abs=1e-12)
    assert main(["solve", "kuhn", "-n", "30", "--trace", str(tmp_path / "trace.csv")]) == 0
    assert "EFCE gap (max over players)" in capsys.readouterr().out
    header = next(
        line for line in (tmp_path / "trace.csv").read_text().splitlines() if not line.startswith("#")
    )
    assert {"cce_gap", "efcce_gap", "efce_gap"} <= set(header.split(","))
    metrics = rmviz.solve("kuhn", "cfr", 30, progress=False).metrics
    assert metrics["efce_gap"].iloc[-1] == pytest.approx(max(gaps["efce"]), abs=1e-12)


def test_too_many_sums_are_refused_in_one_line_and_not_tracked_by_default(monkeypatch):
    from rmviz.solvers.tree import correlation

    game = kuhn_poker()
    assert correlation.entry_count(CFRSolver(game).tree) == 144
    monkeypatch.setattr(correlation, "MAX_DEFAULT_ENTRIES", 143)
    assert CFRSolver(game).correlation_gaps() is None and CFRSolver(game).entries is None
    monkeypatch.setattr(correlation, "MAX_ENTRIES", 143)
    with pytest.raises(ConfigError, match=r"need 144 sums \(at most 143\)") as error:
        CFRSolver(game, preset("cfr", track_correlation=True))
    assert "\n" not in str(error.value)
