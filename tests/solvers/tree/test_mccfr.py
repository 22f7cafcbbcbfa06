"""Monte-Carlo CFR: the compiled kernels (rmviz.solvers.tree.sampling_kernels) against the
NumPy reference (rmviz.solvers.tree.sampling with the full-tree passes), the samplers'
distributions and estimators against their definitions, convergence, and OpenSpiel's C++
samplers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rmviz.games.generators import random_game
from rmviz.games.trees import kuhn_poker, leduc_poker, normal_form_tree, teaching_tree
from rmviz.solvers.tree import sampling
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver

SAMPLED = [
    ("mccfr-chance", "alternating"),
    ("mccfr-chance", "simultaneous"),
    ("mccfr-external", "alternating"),
    ("mccfr-outcome", "alternating"),
]
STATE = ("strategy", "regret", "strategy_sum", "true_regret")


def wide_tree():
    """A 200 x 3 matrix game as a tree: 200 moves at the root (NumPy's pairwise sum splits
    halves above 128 terms)."""
    return normal_form_tree(random_game("zero-sum", (200, 3), seed=4))


def broad_tree():
    """A 40 x 12 matrix game as a tree: 40 and 12 moves (NumPy's 8 accumulators)."""
    return normal_form_tree(random_game("zero-sum", (40, 12), seed=5))


def _kernels():
    pytest.importorskip("numba")
    from rmviz.solvers.tree import sampling_kernels

    return sampling_kernels


def test_the_kernels_draw_the_references_numbers():
    kernels = _kernels()
    for seed, t, traversal in [(0, 1, 0), (7, 3, 1), (-5, 10**6, 2), (2**70 + 3, 12, 0)]:
        key = sampling.traversal_key(seed, t, traversal)
        assert key == kernels.traversal_key(np.uint64(kernels.seed_key(seed)), t, traversal)
        nodes = np.arange(0, 100_000, 997)
        draws = sampling.uniforms(key, nodes)
        assert [kernels.uniform(key, int(h)) for h in nodes] == draws.tolist()
        assert draws.min() >= 0.0 and draws.max() < 1.0
    rng = np.random.default_rng(0)
    for _ in range(300):
        count = int(rng.integers(1, 7))
        weights = rng.random(count) * (rng.random(count) < 0.7)  # some zero weights
        if weights.sum() == 0:
            weights[-1] = 0.5
        u = float(rng.choice([rng.random(), 0.0, np.nextafter(1.0, 0.0)]))
        expected = int(sampling.pick(weights, np.array([0]), np.array([count]), np.array([u]))[0])
        assert kernels.pick(weights, count, u) == expected
        assert weights[expected] > 0


def test_draws_pick_children_with_their_probabilities():
    weights = np.array([0.2, 0.0, 0.5, 0.3])
    draws = 20_000
    u = sampling.uniforms(sampling.traversal_key(11, 1, 0), np.arange(draws))
    picks = sampling.pick(weights, np.zeros(draws, dtype=np.int64), np.full(draws, 4), u)
    frequencies = np.bincount(picks, minlength=4) / draws
    error = np.sqrt(weights * (1 - weights) / draws)
    assert np.all(np.abs(frequencies - weights) <= 4 * error + 1e-12)


@pytest.mark.parametrize("build", [teaching_tree, kuhn_poker, leduc_poker, wide_tree, broad_tree])
@pytest.mark.parametrize(("algorithm", "updates"), SAMPLED)
def test_compiled_iterates_are_the_references_bit_for_bit(build, algorithm, updates):
    """Same seed, same samples: the kernel and the NumPy passes give identical states."""
    kernels = _kernels()
    iterations = 12 if build is leduc_poker else 30
    fast = CFRSolver(build(), cfr_preset(algorithm, updates=updates, seed=9))
    slow = CFRSolver(build(), cfr_preset(algorithm, updates=updates, seed=9))
    assert kernels.runs(fast.config) and fast.releases_gil
    fast.step(1)
    fast.step(iterations - 1)
    for _ in range(iterations):
        slow._iterate(record=False)
    for name in STATE:
        np.testing.assert_array_equal(getattr(fast.state, name), getattr(slow.state, name), err_msg=name)
    assert fast.state.weight_sum == slow.state.weight_sum == iterations
    assert fast.iteration == slow.iteration == iterations


@pytest.mark.parametrize("algorithm", ["mccfr-chance", "mccfr-external", "mccfr-outcome"])
def test_runs_depend_on_the_seed_only(algorithm):
    """Not on how iterations are split into calls, nor on another solver stepping in between."""
    whole, pieces, other = (CFRSolver(kuhn_poker(), cfr_preset(algorithm, seed=s)) for s in (3, 3, 4))
    whole.step(40)
    for _ in range(20):
        pieces.step(2)
        other.step(1)
    for name in STATE:
        np.testing.assert_array_equal(getattr(whole.state, name), getattr(pieces.state, name))
    assert not np.array_equal(whole.state.regret, other.state.regret)
    pieces.reset(4)
    pieces.step(20)
    np.testing.assert_array_equal(pieces.state.regret, other.state.regret)


@pytest.mark.slow  # ~4 s: 4000 paths walked in Python
def test_outcome_sampling_estimates_the_counterfactual_values_without_bias():
    """E_q[cfv~(I, a)] = cfv(I, a) (Lanctot et al. 2009, Lemma 1), here after a few
    iterations (a non-uniform sigma) on Kuhn, over 4000 sampled paths."""
    solver = CFRSolver(kuhn_poker(), cfr_preset("mccfr-outcome", seed=1))
    solver.step(5)
    tree, passes, strategy = solver.tree, solver.passes, solver.state.strategy
    probabilities = passes.edge_probabilities(strategy)
    exact = passes.counterfactual_values(
        passes.others_reach(passes.reach(probabilities)), passes.values(probabilities)
    )
    mine = tree.infoset_player[tree.slot_infoset] == 0
    samples = np.array(
        [
            sampling.outcome_sample(
                tree, strategy, 0, 0.6, sampling.traversal_key(99, t, 0)
            ).counterfactual_values
            for t in range(4000)
        ]
    )
    mean, error = samples.mean(axis=0), samples.std(axis=0) / math.sqrt(len(samples))
    assert np.all(np.abs(mean - exact)[mine] <= 4.5 * error[mine] + 1e-12)


@pytest.mark.parametrize("external", [True, False])
def test_subtree_sampling_estimates_the_counterfactual_values_without_bias(external):
    """External sampling (chance and player 1, index 0, sampled; player 2's moves all
    explored) and chance sampling (chance only): the sampled cfv~(I, a) of player 2 has
    expectation cfv(I, a) (the sampled moves' probabilities cancel: q = their reach)."""
    solver = CFRSolver(kuhn_poker(), cfr_preset("mccfr-external", seed=1))
    solver.step(5)
    tree, passes = solver.tree, solver.passes
    probabilities = passes.edge_probabilities(solver.state.strategy)

    def cfv(edges: np.ndarray) -> np.ndarray:
        return passes.counterfactual_values(passes.others_reach(passes.reach(edges)), passes.values(edges))

    exact = cfv(probabilities)
    samples = np.array(
        [
            cfv(
                sampling.sampled_probabilities(
                    tree, probabilities, 1, external, sampling.traversal_key(5, t, 1)
                )
            )
            for t in range(1500)
        ]
    )
    mine = tree.infoset_player[tree.slot_infoset] == 1
    mean, error = samples.mean(axis=0), samples.std(axis=0) / math.sqrt(len(samples))
    assert np.all(np.abs(mean - exact)[mine] <= 4.5 * error[mine] + 1e-12)


@pytest.mark.parametrize(
    ("algorithm", "bound"), [("mccfr-chance", 0.01), ("mccfr-external", 0.01), ("mccfr-outcome", 0.05)]
)
def test_monte_carlo_cfr_converges_on_kuhn(algorithm, bound):
    _kernels()
    solver = CFRSolver(kuhn_poker(), cfr_preset(algorithm, seed=0))
    solver.step(200)
    early = solver.metrics().exploitability
    solver.step(19_800)
    late = solver.metrics().exploitability
    assert late < bound and late < early / 3


def _welch_t(a: list[float], b: list[float]) -> float:
    """Welch's t statistic of two samples' means."""
    x, y = np.asarray(a), np.asarray(b)
    return float((x.mean() - y.mean()) / math.sqrt(x.var(ddof=1) / x.size + y.var(ddof=1) / y.size))


@pytest.mark.slow  # ~5 s (OpenSpiel's samplers, 20 seeds each)
@pytest.mark.parametrize(
    ("algorithm", "peer"),
    [("mccfr-external", "ExternalSamplingMCCFRSolver"), ("mccfr-outcome", "OutcomeSamplingMCCFRSolver")],
)
def test_convergence_matches_openspiels_cpp_samplers_on_kuhn(algorithm, peer):
    """Exploitability after 2000 iterations over 20 seeds: rmviz's and OpenSpiel's C++ solver
    (same sampling scheme, an iteration one traversal per player) have equal means (Welch's
    t within 3.5, a false alarm about once in a thousand draws of seeds)."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("kuhn_poker")
    ours, theirs = [], []
    for seed in range(20):
        solver = CFRSolver(kuhn_poker(), cfr_preset(algorithm, seed=seed))
        solver.step(2000)
        ours.append(solver.metrics().exploitability)
        peer_solver = getattr(pyspiel, peer)(game, seed=seed)
        for _ in range(2000):
            peer_solver.run_iteration()
        theirs.append(pyspiel.exploitability(game, peer_solver.average_policy()))
    assert abs(_welch_t(ours, theirs)) < 3.5, (np.mean(ours), np.mean(theirs))
    assert max(np.mean(ours), np.mean(theirs)) < 0.1
