"""The array-built binary tree (rmviz.games.random_trees) is the node-built one of the tests'
builders: the same histories, information sets, payoffs and so the same CFR iterates."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games.random_trees import MAX_LEVELS, binary_tree
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver
from tests.solvers.tree.builders import binary_tree as node_built


@pytest.mark.parametrize("levels", [1, 2, 3, 6, 9])
def test_binary_tree_is_the_node_built_one(levels):
    ours, theirs = binary_tree(levels, seed=5).flat, node_built(levels, seed=5).flat
    assert ours.n_nodes == theirs.n_nodes == 2 ** (levels + 1) - 1
    assert ours.n_infosets == theirs.n_infosets
    for column in ("kind", "parent", "depth", "move_index", "infoset", "own_before", "terminal", "payoffs"):
        np.testing.assert_array_equal(getattr(ours, column), getattr(theirs, column), err_msg=column)
    np.testing.assert_array_equal(ours.infoset_player, theirs.infoset_player)


def test_binary_tree_solves_as_the_node_built_one():
    a = CFRSolver(binary_tree(7), preset("cfr+"))
    b = CFRSolver(node_built(7), preset("cfr+"))
    a.step(20)
    b.step(20)
    np.testing.assert_array_equal(a.snapshot().average_strategy, b.snapshot().average_strategy)
    labels = binary_tree(4).flat.infoset_label
    assert labels[:3] == ("P1 level 0: (start)", "P2 level 1: (start)", "P1 level 2: a")


@pytest.mark.parametrize("levels", [0, MAX_LEVELS + 1])
def test_binary_tree_refuses_sizes_out_of_range(levels):
    with pytest.raises(ValueError, match="levels must be"):
        binary_tree(levels)
