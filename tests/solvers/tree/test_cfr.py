"""CFR and its variants against exact values, the peer library and the definitions."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker, leduc_poker, normal_form_tree, teaching_tree
from rmviz.solvers.tree.config import PRESETS as CFR_PRESETS
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver

KUHN_VALUE = -1 / 18


@pytest.mark.parametrize(("algorithm", "iterations"), [("cfr", 3000), ("cfr+", 1000)])
def test_kuhn_value_and_exploitability(algorithm, iterations):
    solver = CFRSolver(kuhn_poker(), cfr_preset(algorithm))
    solver.step(iterations)
    metrics = solver.metrics()
    assert metrics.value[0] == pytest.approx(KUHN_VALUE, abs=1e-3)
    assert metrics.exploitability < 1e-3
    assert metrics.nash_conv <= metrics.eps_bound + 1e-12  # Zinkevich et al., Theorem 3


def test_cfr_plus_finds_a_member_of_kuhns_equilibrium_family():
    """Kuhn (1950): player 1 bets J with alpha in [0, 1/3], K with 3 alpha, never Q first,
    calls with Q with alpha + 1/3; player 2 bluffs J after a pass with 1/3, calls with Q 1/3."""
    solver = CFRSolver(kuhn_poker(), cfr_preset("cfr+"))
    solver.step(3000)
    table = solver.strategy_table(solver.average_strategy())
    alpha = table["J"]["b"]
    assert 0 <= alpha <= 1 / 3 + 1e-3
    assert table["K"]["b"] == pytest.approx(3 * alpha, abs=1e-2)
    assert table["Q"]["b"] == pytest.approx(0, abs=1e-2)
    assert table["Qpb"]["b"] == pytest.approx(alpha + 1 / 3, abs=1e-2)
    assert table["Jp"]["b"] == pytest.approx(1 / 3, abs=1e-2)
    assert table["Qb"]["b"] == pytest.approx(1 / 3, abs=1e-2)
    assert table["Kb"]["b"] == pytest.approx(1, abs=1e-3)


@pytest.mark.parametrize("algorithm", ["linear-cfr", "dcfr", "greedy-cfr"])
def test_weighted_variants_converge_on_kuhn(algorithm):
    solver = CFRSolver(kuhn_poker(), cfr_preset(algorithm))
    solver.step(2000)
    assert solver.metrics().exploitability < 5e-3


def test_alternating_cfr_is_deterministic_and_starts_from_uniform():
    a, b = CFRSolver(kuhn_poker()), CFRSolver(kuhn_poker())
    assert a.metrics().exploitability == pytest.approx(0.458333333333, abs=1e-12)  # uniform play
    a.step(50)
    b.step(50)
    np.testing.assert_array_equal(a.average_strategy(), b.average_strategy())


@pytest.mark.parametrize("game_name", ["kuhn_poker", pytest.param("leduc_poker", marks=pytest.mark.slow)])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
def test_exploitability_equals_openspiel(game_name, algorithm):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(game_name)
    theirs = pyspiel.CFRSolver(game) if algorithm == "cfr" else pyspiel.CFRPlusSolver(game)
    ours = CFRSolver(kuhn_poker() if game_name == "kuhn_poker" else leduc_poker(), cfr_preset(algorithm))
    done = 0
    for checkpoint in (1, 10, 100):
        ours.step(checkpoint - done)
        for _ in range(checkpoint - done):
            theirs.evaluate_and_update_policy()
        done = checkpoint
        expected = pyspiel.exploitability(game, theirs.average_policy())
        assert ours.metrics().exploitability == pytest.approx(expected, abs=1e-9)


def test_simultaneous_cfr_equals_openspiels_python_solver():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("kuhn_poker")
    theirs = cfr._CFRSolver(
        game, regret_matching_plus=False, alternating_updates=False, linear_averaging=False
    )
    ours = CFRSolver(kuhn_poker(), cfr_preset("cfr", updates="simultaneous"))
    for _ in range(30):
        theirs.evaluate_and_update_policy()
    ours.step(30)
    expected = exploitability.exploitability(game, theirs.average_policy())
    assert ours.metrics().exploitability == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("algorithm", "bound"), [("mccfr-chance", 0.02), ("mccfr-external", 0.02), ("mccfr-outcome", 0.06)]
)
def test_monte_carlo_cfr_converges_in_expectation_on_kuhn(algorithm, bound):
    early, late = [], []
    for seed in range(6):
        solver = CFRSolver(kuhn_poker(), cfr_preset(algorithm, seed=seed))
        solver.step(200)
        early.append(solver.metrics().exploitability)
        solver.step(3800)
        late.append(solver.metrics().exploitability)
    assert np.mean(late) < bound
    assert np.mean(late) < np.mean(early) / 2


def test_monte_carlo_runs_differ_by_seed_and_repeat_by_seed():
    runs = []
    for seed in (1, 1, 2):
        solver = CFRSolver(kuhn_poker(), cfr_preset("mccfr-external", seed=seed))
        solver.step(50)
        runs.append(solver.average_strategy())
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])


@pytest.mark.parametrize("algorithm", list(CFR_PRESETS))
def test_recorded_iteration_is_the_unrecorded_one(algorithm):
    recorded, plain = (
        CFRSolver(teaching_tree(), cfr_preset(algorithm)),
        CFRSolver(teaching_tree(), cfr_preset(algorithm)),
    )
    for _ in range(5):
        record = recorded.step_recorded()
        plain.step(1)
        np.testing.assert_array_equal(record.strategy_after, plain.state.strategy)
        np.testing.assert_array_equal(record.cumulative_regret_after, plain.state.regret)
    np.testing.assert_array_equal(recorded.average_strategy(), plain.average_strategy())


def test_record_contents_follow_the_cfr_formulas():
    solver = CFRSolver(teaching_tree(), cfr_preset("cfr", updates="simultaneous"))
    solver.step(3)
    record = solver.step_recorded()
    tree, passes = solver.tree, solver.passes
    (trace,) = record.traversals
    terminals = tree.kind == 2
    assert trace.reach.prod(axis=0)[terminals].sum() == pytest.approx(1.0)  # a distribution
    expected_regret = trace.counterfactual_values - passes.infoset_sums(
        record.strategy_before * trace.counterfactual_values
    )
    np.testing.assert_allclose(trace.instantaneous_regret, expected_regret, atol=1e-12)
    np.testing.assert_allclose(
        record.cumulative_regret_after,
        record.cumulative_regret_before + expected_regret,
        atol=1e-12,
    )
    np.testing.assert_allclose(record.strategy_after, passes.regret_matching(record.cumulative_regret_after))
    assert record.order[0] == 0 and sorted(record.order.tolist()) == list(range(tree.n_nodes))
    root_value = trace.values[:, 0]
    np.testing.assert_allclose(
        root_value, (trace.reach.prod(axis=0)[terminals] * tree.payoffs[:, terminals]).sum(axis=1)
    )


def test_cfr_on_a_matrix_game_as_a_tree():
    solver = CFRSolver(normal_form_tree(catalog_game("rps-crash")), cfr_preset("cfr+"))
    solver.step(3000)
    table = solver.strategy_table(solver.average_strategy())
    assert [table["Row"][m] for m in ("Rock", "Paper", "Scissors")] == pytest.approx(
        [0.25, 0.5, 0.25], abs=2e-3
    )


def test_teaching_tree_is_solved():
    solver = CFRSolver(teaching_tree(), cfr_preset("cfr+"))
    solver.step(2000)
    assert solver.metrics().exploitability < 1e-3


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"algorithm": "greedy-cfr", "updates": "alternating"}, "use simultaneous updates"),
        ({"algorithm": "mccfr-external", "updates": "simultaneous"}, "use alternating updates"),
        ({"algorithm": "mccfr-outcome", "updates": "simultaneous"}, "use alternating updates"),
        ({"algorithm": "mccfr-outcome", "exploration": 0.0}, "exploration must be in"),
        ({"algorithm": "greedy-cfr", "device": "gpu"}, "run on the CPU"),
        ({"algorithm": "mccfr-external", "device": "gpu"}, "run on the CPU"),
        ({"algorithm": "cfr", "device": "tpu"}, "unknown device"),
        ({"algorithm": "mccfr-chance", "weighting": "linear"}, "uniform weights"),
        ({"algorithm": "cfr-max"}, "unknown tree algorithm"),
    ],
)
def test_configuration_errors(overrides, message):
    algorithm = overrides.pop("algorithm")
    with pytest.raises(ConfigError, match=message):
        cfr_preset(algorithm, **overrides)


@pytest.mark.parametrize("build", [kuhn_poker, leduc_poker])
@pytest.mark.parametrize(
    ("algorithm", "updates"),
    [("cfr", "alternating"), ("cfr", "simultaneous"), ("cfr+", "alternating"), ("dcfr", "alternating")],
)
def test_compiled_kernel_matches_the_numpy_passes(build, algorithm, updates):
    pytest.importorskip("numba")
    from rmviz.solvers.tree import kernels

    fast, slow = (
        CFRSolver(build(), cfr_preset(algorithm, updates=updates)),
        CFRSolver(build(), cfr_preset(algorithm, updates=updates)),
    )
    assert kernels.runs(fast.config) and fast.releases_gil
    fast.step(1)
    fast.step(29)
    for _ in range(30):
        slow._iterate(record=False)
    for name in ("strategy", "regret", "strategy_sum", "true_regret"):
        np.testing.assert_allclose(
            getattr(fast.state, name), getattr(slow.state, name), rtol=1e-9, atol=1e-9, err_msg=name
        )
    assert (
        fast.state.weight_sum == pytest.approx(slow.state.weight_sum)
        and fast.iteration == slow.iteration == 30
    )


def test_the_kernels_schedule_is_built_once_from_the_config():
    """The compiled kernels take one Schedule: fields named as the config's are read from it
    by name, each with its annotated type (an ``alpha`` of 2 arrives as 2.0 and compiles
    nothing new), the schemes as indices."""
    pytest.importorskip("numba")
    from typing import get_type_hints

    from rmviz.solvers import weighting
    from rmviz.solvers.tree.kernels import Schedule

    schedule = Schedule.of(cfr_preset("dcfr", alpha=2, beta=0, averaging="linear"), 2.0, greedy_floor=0.5)
    assert schedule.alpha == 2.0 and schedule.beta == 0.0 and schedule.gamma == 2.0
    assert schedule.weighting == weighting.SCHEMES.index("discounted")
    assert schedule.averaging == weighting.SCHEMES.index("linear")
    assert schedule.alternating and not schedule.plus and schedule.greedy_floor == 0.5
    assert schedule.payoff_bound == 2.0
    types = get_type_hints(Schedule)
    assert all(type(value) is types[name] for name, value in schedule._asdict().items())


GREEDY_TREES = {
    "kuhn": (kuhn_poker, 400),
    "leduc": (leduc_poker, 40),
    "general-sum matrix as a tree (floor 0)": (
        lambda: normal_form_tree(catalog_game("battle-of-partners")),
        300,
    ),
    "teaching tree": (teaching_tree, 300),
    "constant payoffs (g flat: the uniform weight)": (
        lambda: normal_form_tree(catalog_game("rps").with_payoffs(np.zeros((2, 3, 3)))),
        100,
    ),
}


@pytest.mark.parametrize("name", list(GREEDY_TREES))
@pytest.mark.parametrize("floor", [None, 0.25])
def test_compiled_greedy_cfr_gives_the_numpy_iterates(name, floor):
    """Greedy CFR in the kernel (one weight per iteration over all slots, the line search's
    loop form) against the NumPy passes: the same weight at every iteration and the same
    strategies, regrets and sums after many iterations, run in uneven chunks."""
    pytest.importorskip("numba")
    build, iterations = GREEDY_TREES[name]
    game = build()
    fast = CFRSolver(game, cfr_preset("greedy-cfr", greedy_floor=floor))
    slow = CFRSolver(game, cfr_preset("greedy-cfr", greedy_floor=floor))
    assert fast.releases_gil
    assert fast.greedy_floor == (floor if floor is not None else (0.0 if "general" in name else 0.5))
    flat = name.startswith("constant")
    lambdas = []
    for _ in range(20):  # one at a time: every weight compared
        fast.step(1)
        slow._iterate(record=False)
        lambdas.append((fast.state.last_lambda, slow.state.last_lambda))
    for chunk in (7, iterations - 27):
        fast.step(chunk)
        for _ in range(chunk):
            slow._iterate(record=False)
    lambdas.append((fast.state.last_lambda, slow.state.last_lambda))
    # Kuhn and the small trees agree to the bit; on Leduc the traversals' sums round
    # differently in the last bits (as for CFR: 2e-13 after 40 iterations), which the
    # weights feel at 2e-13
    ours, theirs = np.array(lambdas).T
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-11)
    assert 0 < ours[-1] < 1 and len(set(ours[1:].tolist())) > 1  # weights chosen, not fixed
    if flat:  # every weight minimises g: the one of uniform weights, (t - 1) / t
        np.testing.assert_array_equal(ours[1:20], [(t - 1) / t for t in range(2, 21)])
    for attribute in ("strategy", "regret", "strategy_sum", "true_regret"):
        np.testing.assert_allclose(
            getattr(fast.state, attribute),
            getattr(slow.state, attribute),
            rtol=1e-9,
            atol=1e-9,
            err_msg=attribute,
        )
    assert fast.state.weight_sum == pytest.approx(slow.state.weight_sum, rel=1e-14)
    assert fast.iteration == slow.iteration == iterations


def test_a_value_that_is_rounding_noise_is_reported_as_zero():
    """Kuhn's value under the average after two CFR iterations is 0 in exact arithmetic;
    the float sums gave 5.551e-17, which the status bar printed."""
    from fractions import Fraction

    solver = CFRSolver(kuhn_poker(), cfr_preset("cfr"))
    solver.step(2)
    tree = solver.tree
    strategy = [Fraction(p).limit_denominator(10**6) for p in solver.average_strategy()]
    # the exact value: sum over terminal histories of chance x both players' move probabilities
    value = Fraction(0)
    for h in range(tree.n_nodes):
        if tree.child_count[h]:
            continue
        reach, node = Fraction(1), h
        while tree.parent[node] >= 0:
            slot = tree.edge_slot[node]
            p = (
                Fraction(tree.chance_probability[node]).limit_denominator(10**6)
                if slot < 0
                else strategy[slot]
            )
            reach, node = reach * p, tree.parent[node]
        value += reach * Fraction(tree.payoffs[0, h]).limit_denominator(10**6)
    assert value == 0 and solver.metrics().value == (0.0, 0.0)
