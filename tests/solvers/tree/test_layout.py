"""The full-traversal kernel's depth-first layout and its partition (rmviz.solvers.tree.layout):
the walk gives the NumPy passes' iterates on generated trees (ragged depths, chance at any
level, information sets across levels, two and three players), and a partitioned tree gives
the same iterates, bit for bit, on one, two or three threads."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rmviz
from rmviz.games.extensive_form import ExtensiveFormGame, Node
from rmviz.games.random_trees import binary_tree
from rmviz.games.trees import kuhn_poker
from rmviz.solvers.tree import layout
from rmviz.solvers.tree.compiled_tree import compile_tree
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver
from tests.solvers.tree.ragged import ragged_tree

pytest.importorskip("numba")

STATE = ("strategy", "regret", "strategy_sum", "true_regret", "trigger_sums", "follow_sums")
SCHEDULES = [
    ("cfr", "alternating"),
    ("cfr", "simultaneous"),
    ("cfr+", "alternating"),
    ("linear-cfr", "alternating"),
    ("dcfr", "simultaneous"),
    ("pcfr+", "alternating"),
    ("greedy-cfr", "simultaneous"),
]


@pytest.fixture
def partitioned(monkeypatch):
    """Partition every tree that has 8 subtrees at some level, into groups of about 2."""
    monkeypatch.setattr(layout, "PARALLEL_MIN_HISTORIES", 0)
    monkeypatch.setattr(layout, "GROUPS", 2)
    monkeypatch.setattr(layout, "MAX_GROUP_SLOTS", float("inf"))


def _run(game: ExtensiveFormGame, algorithm: str, updates: str, threads: int = 1) -> CFRSolver:
    solver = CFRSolver(game, preset(algorithm, updates=updates))
    rmviz.set_threads(threads)
    try:
        for chunk in (1, 6, 13):
            solver.step(chunk)
    finally:
        rmviz.set_threads(None)
    return solver


def _state(solver: CFRSolver) -> dict[str, np.ndarray]:
    return {name: getattr(solver.state, name) for name in STATE if getattr(solver.state, name) is not None}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    schedule=st.sampled_from(SCHEDULES),
    integer=st.booleans(),
)
@example(seed=2060, players=2, schedule=("greedy-cfr", "simultaneous"), integer=False)
def test_the_walk_gives_the_numpy_iterates_on_ragged_trees(seed, players, schedule, integer):
    """Integer payoffs make exact ties (the tie rule's knife edge) and players who never move
    common. Not with greedy CFR: its weight's line search leaves regrets of 1e-7 near an
    equilibrium, whose rounding (1e-16) moves the strategy by 1e-9 (ill-conditioned, not a
    branch decided differently; seed 2060 moved one by 5.7e-9 of itself), so its iterates
    are compared to 1e-7."""
    greedy = schedule[0] == "greedy-cfr"
    game = ragged_tree(seed, players, integer_payoffs=integer and not greedy)
    fast = _run(game, *schedule)
    assert fast.traversal is not None
    slow = CFRSolver(game, preset(schedule[0], updates=schedule[1]))
    for _ in range(20):
        slow._iterate(record=False)
    expected = _state(slow)
    rtol = 1e-7 if greedy else 1e-9
    for name, value in _state(fast).items():
        np.testing.assert_allclose(value, expected[name], rtol=rtol, atol=1e-12, err_msg=name)
    assert fast.state.weight_sum == pytest.approx(slow.state.weight_sum, rel=1e-12)


def test_a_tie_of_rounding_noise_is_decided_alike_by_the_walk_and_the_numpy_passes():
    """With integer payoffs a move's counterfactual values can all be 0 in exact arithmetic
    (-3/3 + 2/3 + 1/3) and rounding noise in floats (-4e-17 in the walk's order, 0 in the
    NumPy passes'). Scaled by that noise, the tie rule kept a regret of 2e-17 in the walk that
    the passes snapped to 0, and the strategies parted, (1, 0) against (1/2, 1/2), and the
    regrets by 0.06 for good. The rule's scale is now ``U rho(I)``, which noise cannot reach
    (:func:`~rmviz.solvers.tree.compiled_tree.tie_scale`)."""
    game = ragged_tree(9517, 3, integer_payoffs=True)
    config = preset("cfr", updates="alternating", track_correlation=False)
    fast, slow = CFRSolver(game, config), CFRSolver(game, config)
    fast.step(20)
    for _ in range(20):
        slow._iterate(record=False)
    np.testing.assert_allclose(fast.state.regret, slow.state.regret, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_a_player_who_never_moves_leaves_the_others_updated(updates):
    """A third player without information sets: the simultaneous update's slots end at the
    last slot, not at that player's empty range (the walk updated no slot at all before)."""
    leaf = lambda *u: Node("terminal", payoffs=tuple(float(x) for x in u))  # noqa: E731
    inner = Node("decision", moves=("l", "r"), children=(leaf(1, 2, 0), leaf(3, 1, 0)), player=0, infoset="a")
    root = Node("decision", moves=("in", "out"), children=(inner, leaf(0, 0, 0)), player=1, infoset="r")
    game = ExtensiveFormGame(root, ("A", "B", "C"), "idle third player")
    tree = compile_tree(game)
    assert tree.player_slots == ((0, 2), (2, 4), (4, 4))
    config = preset("cfr", updates=updates)
    fast, slow = CFRSolver(game, config), CFRSolver(game, config)
    fast.step(3)
    for _ in range(3):
        slow._iterate(record=False)
    np.testing.assert_allclose(fast.state.regret, slow.state.regret, rtol=0, atol=1e-15)
    assert np.count_nonzero(fast.state.regret) == 4


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_a_partitioned_tree_gives_the_same_iterates_on_any_number_of_threads(partitioned, schedule):
    game = ragged_tree(7, 3) if schedule[0] != "greedy-cfr" else ragged_tree(11, 2)
    runs = [_run(game, *schedule, threads=threads) for threads in (1, 2, 3)]
    assert runs[0].traversal is not None and runs[0].traversal.split.level > 0  # partitioned
    first = _state(runs[0])
    assert "trigger_sums" in first  # the correlation sums are tracked too
    for other in runs[1:]:
        for name, value in _state(other).items():
            np.testing.assert_array_equal(value, first[name], err_msg=name)
    slow = CFRSolver(game, preset(schedule[0], updates=schedule[1]))
    for _ in range(20):
        slow._iterate(record=False)
    for name, value in _state(slow).items():
        np.testing.assert_allclose(first[name], value, rtol=1e-9, atol=1e-12, err_msg=name)


def test_a_partition_covers_every_history_once():
    tree = compile_tree(binary_tree(17))
    columns = layout.depth_first(tree)
    split = layout.partition(columns, tree.n_slots)
    assert split.level > 0
    covered = np.zeros(tree.n_nodes, dtype=int)
    covered[columns.depth < split.level] += 1  # the top
    for root, end in zip(split.roots, split.ends, strict=True):
        covered[root:end] += 1
        assert (columns.depth[root + 1 : end] > split.level).all()  # one subtree
    assert (covered == 1).all()
    terminal = columns.actor < 0
    for j, (root, end) in enumerate(zip(split.roots, split.ends, strict=True)):
        assert split.first_terminal[j] == terminal[:root].sum()
        assert split.skipped[j] == terminal[root:end].sum()
    assert split.group_roots[0] == 0 and split.group_roots[-1] == split.roots.size
    bounds = zip(split.group_roots[:-1], split.group_roots[1:], strict=True)
    sizes = [split.ends[b - 1] - split.roots[a] for a, b in bounds]
    assert max(sizes) <= 2 * sum(sizes) / (split.group_roots.size - 1)  # balanced
    assert columns.payoffs.shape[0] == terminal.sum() and layout.layout_bytes(columns) / tree.n_nodes <= 100


def test_small_trees_and_trees_with_many_slots_run_in_one_pass():
    kuhn = compile_tree(kuhn_poker())
    assert layout.partition(layout.depth_first(kuhn), kuhn.n_slots).level == -1
    big = compile_tree(binary_tree(17))
    columns = layout.depth_first(big)
    # each group adds its own counterfactual values: with a slot per history they cost too much
    assert layout.partition(columns, big.n_nodes).level == -1
    assert layout.partition(columns, big.n_slots).level > 0


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_the_layout_says_where_each_subtree_ends(seed):
    """What a pruned pass jumps by: the position after each history's subtree (the next
    history no deeper) and the terminals before each position, counted here one by one."""
    tree = compile_tree(ragged_tree(seed, 3))
    columns = layout.depth_first(tree)
    depth, count = columns.depth, tree.n_nodes
    ends = [next((j for j in range(k + 1, count) if depth[j] <= depth[k]), count) for k in range(count)]
    assert columns.skip.tolist() == ends
    assert columns.terminals_before.tolist() == [int((columns.actor[:k] < 0).sum()) for k in range(count + 1)]
    # the layout's terminals are the tree's in depth-first order, their payoffs the outcomes'
    terminals = tree.preorder[tree.kind[tree.preorder] == 2]
    assert np.array_equal(columns.payoffs, tree.payoffs[:, terminals].T)
    assert np.flatnonzero(tree.kind == 2)[tree.outcome_terminal].tolist() == terminals.tolist()
