"""Deep and wide trees: exact best responses against the per-level reference, and the
size-dependent work (compiling, metrics, strategy table, report) in linear time with no
recursion. Timings of larger trees: ``tests/benchmarks/big_trees.py`` (docs/performance.md)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from rmviz.games.trees import kuhn_poker, leduc_poker, teaching_tree
from rmviz.solvers.columns import MAX_TRACED_SLOTS
from rmviz.solvers.registry import make_solver
from rmviz.solvers.tree.compiled_tree import TreePasses, compile_tree
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.layout import profile_sums
from rmviz.solvers.tree.solver import METRICS, CFRSolver
from tests.cpu_guard import cpu_under
from tests.solvers.tree.builders import binary_tree, chain, hidden_chain
from tests.solvers.tree.ragged import ragged_tree


def _reference_best_response(passes: TreePasses, strategy: np.ndarray, player: int) -> float:
    """The best response value as computed before the sequence-form pass: fix the player's
    information sets level by level (most own decisions above first), one full backward
    pass per level (time proportional to the tree's size times its depth)."""
    tree = passes.tree
    policy = strategy.copy()
    reach = passes.reach(passes.edge_probabilities(strategy))
    others = passes.others_reach(reach)
    mine = tree.infoset_player == player
    slots = np.arange(tree.n_slots)
    for level in sorted(set(tree.infoset_own_depth[mine].tolist()), reverse=True):
        values = passes.values(passes.edge_probabilities(policy), rows=slice(player, player + 1))
        cfv = np.bincount(
            passes.decision_slot,
            others[passes.decision_parent]
            * values[0, passes.decision_edges]
            * (passes.decision_player == player),
            minlength=tree.n_slots,
        )
        best = np.maximum.reduceat(cfv, tree.infoset_first_slot)[tree.slot_infoset]
        first = np.minimum.reduceat(np.where(cfv >= best, slots, tree.n_slots), tree.infoset_first_slot)
        chosen = (slots == first[tree.slot_infoset]).astype(np.float64)
        update = (mine & (tree.infoset_own_depth == level))[tree.slot_infoset]
        policy = np.where(update, chosen, policy)
    return float(passes.values(passes.edge_probabilities(policy), rows=slice(player, player + 1))[0, 0])


@pytest.mark.parametrize(
    "build",
    [
        kuhn_poker,
        leduc_poker,
        teaching_tree,
        lambda: hidden_chain(25),
        lambda: chain(40),
        lambda: binary_tree(8),
        lambda: binary_tree(6, perfect=True),
    ],
)
def test_best_response_equals_the_per_level_reference(build):
    tree = compile_tree(build())
    passes = TreePasses(tree)
    rng = np.random.default_rng(7)
    for _ in range(3):
        strategy = rng.random(tree.n_slots) ** 3  # far from uniform, some moves nearly never
        strategy /= np.bincount(tree.slot_infoset, strategy)[tree.slot_infoset]
        expected = [_reference_best_response(passes, strategy, p) for p in range(tree.n_players)]
        np.testing.assert_allclose(passes.best_response_values(strategy), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("build", [lambda: chain(2000), lambda: hidden_chain(2000)])
def test_a_2000_level_chain_solves_in_seconds_without_recursion(build):
    game = build()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)  # far below the depth: a recursive walk would fail
    # a guard against the quadratic walk coming back (45 s here before, 0.1 s now; it stalls
    # for minutes at depth); the timings live in tests/benchmarks/big_trees.py
    try:
        with cpu_under(60):
            solver = make_solver(game, "cfr")
            solver.step(20)
            snapshot = solver.snapshot(metrics=True)
            report = solver.report(snapshot)
    finally:
        sys.setrecursionlimit(limit)
    assert np.isfinite(snapshot.metrics.nash_conv) and len(report["average_strategy"]) == 2000


def test_strategy_table_is_linear_in_the_information_sets():
    """``labels.count`` per information set made it quadratic: 70 s for 32,767 of them."""
    solver = make_solver(binary_tree(14, perfect=True), "cfr")
    strategy = solver.average_strategy()
    with cpu_under(30):  # a guard (70 s before, 0.5 s now): see big_trees.py
        table = solver.strategy_table(strategy)
    assert len(table) == 2**14 - 1 and all(sum(row.values()) == pytest.approx(1.0) for row in table.values())


def test_a_trees_node_columns_are_int32_and_the_metrics_build_no_edge_parents():
    """Memory (docs/performance.md, "A big tree's memory"): the (N,) columns of ids, counts
    and players are int32 and ``kind`` int8; the NumPy passes' index arrays are int32, and
    the decision edges, their slots, parents and owners, which only the NumPy steps read, and
    the move labels, which the views and exports read, are not built by a run's metrics."""
    solver = make_solver(leduc_poker(), "cfr")
    tree = solver.tree
    for name in ("parent", "player", "node_infoset", "edge_owner", "edge_slot", "child_start", "child_count"):
        assert getattr(tree, name).dtype == np.int32, name
    assert tree.preorder.dtype == np.int32 and tree.kind.dtype == np.int8
    assert tree.infoset_first_slot.dtype == tree.slot_infoset.dtype == np.int64
    passes = solver.passes
    solver.step(3)
    solver.snapshot(metrics=True)
    built_later = ("decision_edges", "decision_slot", "decision_parent", "decision_player")
    if solver.traversal is not None:  # the compiled kernels ran (without numba the NumPy steps)
        assert not set(built_later) & set(vars(passes))
    assert "move_label" not in vars(tree)
    decisions = np.flatnonzero(tree.edge_slot >= 0)
    assert tree.move_label[0] == "" and len(tree.move_label) == tree.n_nodes  # made now
    assert [tree.move_label[h] for h in decisions] == [tree.slot_move[s] for s in tree.edge_slot[decisions]]
    assert passes.decision_edges.dtype == passes.decision_slot.dtype == passes.terminals.dtype == np.int32


@pytest.mark.parametrize("levels", [11, 13])
def test_a_big_tree_traces_the_information_sets_nearest_the_root(levels):
    """Over MAX_TRACED_SLOTS moves a run traces whole information sets, in breadth-first
    order of their first history, while their moves fit: the root's set among them; the
    trace's strategy columns are those sets' moves and hold the average strategy there.
    A smaller tree traces every move."""
    small = make_solver(kuhn_poker(), "cfr")
    assert small.tree.traced_infoset.all()
    assert small.tree.traced_slots.tolist() == list(range(small.tree.n_slots))
    solver = make_solver(binary_tree(levels, perfect=True), "cfr")
    tree = solver.tree
    assert tree.n_slots > MAX_TRACED_SLOTS
    order = np.argsort(tree.infoset_first_node, kind="stable")  # breadth first
    traced = tree.traced_infoset[order]
    kept = int(traced.sum())
    assert traced[:kept].all() and not traced[kept:].any()  # a prefix of that order
    sizes = tree.infoset_size[order]
    assert sizes[:kept].sum() <= MAX_TRACED_SLOTS < sizes[: kept + 1].sum()  # while they fit
    assert tree.traced_infoset[tree.node_infoset[tree.node_infoset >= 0][0]]  # the shallowest set
    strategy_columns = solver.columns[len(METRICS) :]
    assert [solver.slot(c) for c in strategy_columns] == tree.traced_slots.tolist()
    assert all(tree.traced_infoset[c.infoset] for c in strategy_columns)
    solver.step(5)
    snapshot = solver.snapshot(metrics=False)
    values = snapshot.trace_values()
    assert values.size == len(solver.columns)
    assert np.array_equal(values[len(METRICS) :], snapshot.average_strategy[tree.traced_slots])


@pytest.mark.parametrize("build", [leduc_poker, lambda: ragged_tree(2, 3)])
def test_a_compiled_run_reads_the_games_payoff_rows_and_builds_no_dense_tables(build):
    """Memory: the kernel's layout reads the game's own payoff rows (one per terminal, in
    depth-first order); the dense ``(n, N)`` payoffs, the chance probabilities per history
    and the NumPy passes' per-depth and per-terminal tables are made on first use, not by a
    compiled run and its metrics, and then equal the compiled tree's sparse forms."""
    game = build()
    solver = CFRSolver(game, preset("cfr", track_correlation=False))
    solver.step(3)
    solver.snapshot(metrics=True)
    tree, passes = solver.tree, solver.passes
    if solver.traversal is not None:  # the compiled kernels ran (without numba the NumPy steps)
        assert np.shares_memory(solver.traversal.tree.payoffs, game.flat.payoffs)
        assert not {"payoffs", "chance_probability"} & set(vars(tree))
        assert not {"levels", "terminals"} & set(vars(passes))
    terminals = passes.terminals
    assert np.array_equal(tree.payoffs[:, terminals], tree.terminal_payoffs())
    assert not tree.payoffs[:, tree.kind != 2].any()
    first = tree.preorder[tree.kind[tree.preorder] == 2]  # the terminals in depth-first order
    assert np.array_equal(tree.payoffs[:, first].T, game.flat.payoffs)
    assert np.array_equal(terminals[tree.outcome_terminal], first)
    chance = tree.edge_owner == tree.n_players
    assert np.flatnonzero(chance).tolist() == tree.chance_edges.tolist()
    assert np.array_equal(tree.chance_probability[chance], tree.chance_edge_probability)
    assert (tree.chance_probability[~chance] == 1.0).all()


@pytest.mark.parametrize(
    "build", [kuhn_poker, leduc_poker, teaching_tree, lambda: binary_tree(8), lambda: ragged_tree(1, 3)]
)
def test_reach_multiplies_only_the_owners_row_with_the_same_floats(build):
    """``TreePasses.reach`` multiplies each edge owner's row alone; the factor form it replaced
    (every row times a factor, 1 where the row does not own the edge) gives the same floats."""
    passes = TreePasses(compile_tree(build()))
    tree = passes.tree
    rng = np.random.default_rng(3)
    strategy = passes.regret_matching(rng.standard_normal(tree.n_slots))
    probability = passes.edge_probabilities(strategy)
    factor = np.ones((tree.n_players + 1, tree.n_nodes))
    factor[tree.edge_owner[1:], np.arange(1, tree.n_nodes)] = probability[1:]
    expected = np.ones_like(factor)
    for start, end in tree.depth_ranges[1:]:
        expected[:, start:end] = expected[:, tree.parent[start:end]] * factor[:, start:end]
    assert np.array_equal(passes.reach(probability), expected)


@pytest.mark.parametrize(
    "build",
    [kuhn_poker, leduc_poker, teaching_tree, lambda: binary_tree(8)]
    + [lambda s=s, p=p: ragged_tree(s, p) for s in range(4) for p in (2, 3)],
)
@pytest.mark.parametrize("algorithm", ["cfr", "mccfr-external"])
def test_the_layouts_metrics_are_the_passes_to_rounding(build, algorithm):
    """With numba, a snapshot's NashConv walks a depth-first layout once (the kernel's where
    it runs, one of its own for Monte-Carlo CFR: :func:`~rmviz.solvers.tree.layout.profile_sums`)
    instead of the NumPy passes' per-depth
    arrays: each terminal's ``pi_{-p}(z) u_p(z)`` is their float exactly, added to its
    sequence's sum in the walk's order (the best responses then the same function's), the
    sums, values and NashConv equal to rounding (the passes add the terminals in node order
    and the children's values in ``np.add.reduceat``'s grouping), strategies with moves of
    probability 0 included."""
    solver = make_solver(build(), algorithm)
    passes, tree = solver.passes, solver.tree
    assert solver.metrics_layout is not None
    kernels = solver.traversal
    assert (kernels is not None and solver.metrics_layout is kernels.tree) == (algorithm == "cfr")
    rng = np.random.default_rng(5)
    largest = float(np.abs(tree.payoffs).max())
    for trial in range(4):
        regret = rng.standard_normal(tree.n_slots)
        if trial % 2:
            regret[rng.random(tree.n_slots) < 0.3] = -1.0  # moves of probability 0
        strategy = passes.regret_matching(regret)
        reach = passes.reach(passes.edge_probabilities(strategy))[:, passes.terminals]
        expected = [
            np.prod(np.delete(reach, p, axis=0), axis=0) * tree.payoffs[p, passes.terminals]
            for p in range(tree.n_players)
        ]
        order = tree.outcome_terminal  # the node-order terminal of the layout's t-th
        values, sums = profile_sums(
            solver.metrics_layout, strategy, order, passes.terminal_sequence, tree.n_slots
        )
        in_walk_order = np.zeros_like(sums)
        for p in range(tree.n_players):  # each term added where it belongs, in the walk's order
            np.add.at(in_walk_order[p], passes.terminal_sequence[p, order] + 1, expected[p][order])
        np.testing.assert_array_equal(sums, in_walk_order)
        by_passes = passes.sequence_sums(passes.edge_probabilities(strategy))
        np.testing.assert_allclose(sums, by_passes, rtol=0, atol=1e-14 * largest)
        nash_conv, reference_values = passes.nash_conv(strategy)
        walked, walked_values = solver.nash_conv(strategy)
        np.testing.assert_array_equal(walked_values, values)
        assert walked == pytest.approx(nash_conv, rel=0, abs=1e-14 * largest)
        np.testing.assert_allclose(values, reference_values, rtol=0, atol=1e-14 * largest)
