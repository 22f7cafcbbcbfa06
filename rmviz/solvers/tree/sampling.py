"""Monte-Carlo CFR's samples in NumPy: the reference for the compiled kernels.

:class:`~rmviz.solvers.tree.solver.CFRSolver` runs Monte-Carlo CFR in
:mod:`.sampling_kernels`; its recorded steps (``step_recorded``, the Step tab and ``rmviz
step``) and runs without numba use the full-tree NumPy passes with the samples drawn here.
Both draw the same counter-based uniforms (splitmix64, Steele, Lea & Flood 2014; see
:mod:`.sampling_kernels`) for the same nodes and pick a child by the same inverse-CDF rule,
so a recorded step and a compiled one make the same samples and the same update:

* :func:`sampled_probabilities`: chance and external sampling (Lanctot et al. 2009): the
  edge probabilities with, at every sampled node, 1 on the sampled child and 0 on the
  others; the NumPy passes over them give the sampled counterfactual values.
* :func:`outcome_sample`: outcome sampling (Lanctot et al. 2009; the baseline-free
  estimator of OpenSpiel's ``OutcomeSamplingSolver``): one path, its value estimates
  ``u~(h) = u_i(z) pi^sigma(h, z) / q(h, z)``, the sampled counterfactual values
  ``cfv~(I, a*) = u~(h a*) / q(a*) * pi_-i(h) / q(h)`` and the average-strategy increments
  ``pi_i(h) sigma(I) / q(h)`` (stochastically weighted averaging).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.sampling_kernels import GOLDEN, MIX1, MIX2, seed_key


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64's output function, elementwise on uint64 (wrapping) arithmetic."""
    z = (z ^ (z >> 30)) * MIX1
    z = (z ^ (z >> 27)) * MIX2
    return z ^ (z >> 31)


def traversal_key(seed: int, t: int, traversal: int) -> np.uint64:
    """The key of traversal ``traversal`` of iteration ``t`` (as the kernels' ``traversal_key``)."""
    key = _mix(np.array([seed_key(seed)], dtype=np.uint64) + np.uint64(GOLDEN))
    key = _mix(key + np.uint64(t))
    return np.uint64(_mix(key + np.uint64(traversal))[0])


def uniforms(key: np.uint64, nodes: np.ndarray) -> np.ndarray:
    """The draws in [0, 1) at ``nodes`` of the traversal with ``key``."""
    z = _mix(key + (np.asarray(nodes).astype(np.uint64) + np.uint64(1)) * np.uint64(GOLDEN))
    return (z >> 11).astype(np.float64) * (1.0 / 9007199254740992.0)


def pick(weights: np.ndarray, start: np.ndarray, count: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per node, inverse-CDF sampling among ``weights[start : start + count]``: the first
    child c with ``u * total < sum of the weights up to c`` (left to right), or the last
    positive weight if rounding leaves none. Returns child ids."""
    total = np.zeros(start.shape[0])
    width = int(count.max()) if count.size else 0
    for k in range(width):
        inside = count > k
        total[inside] += weights[start[inside] + k]
    target = u * total
    running = np.zeros_like(total)
    chosen = np.full(start.shape[0], -1, dtype=np.int64)
    last = start.copy()
    for k in range(width):
        inside = count > k
        w = np.where(inside, weights[np.where(inside, start + k, 0)], 0.0)
        running[inside] += w[inside]
        positive = inside & (w > 0)
        last[positive] = start[positive] + k
        hit = positive & (chosen < 0) & (target < running)
        chosen[hit] = start[hit] + k
    return np.where(chosen >= 0, chosen, last)


def sampled_probabilities(
    tree: CompiledTree, probabilities: np.ndarray, player: int | None, external: bool, key: np.uint64
) -> np.ndarray:
    """Edge probabilities with one sampled child (probability 1, its siblings 0) at every
    chance node and, for external sampling, every decision node of the other players."""
    sampled = tree.kind == 0
    if external:
        sampled = sampled | ((tree.kind == 1) & (tree.player != player))
    nodes = np.flatnonzero(sampled & (tree.child_count > 0))
    chosen = pick(probabilities, tree.child_start[nodes], tree.child_count[nodes], uniforms(key, nodes))
    out = probabilities.copy()
    below = np.zeros(tree.n_nodes, dtype=bool)
    below[1:] = sampled[tree.parent[1:]]
    out[below] = 0.0
    out[chosen] = 1.0
    return out


def reached_infosets(tree: CompiledTree, reach: np.ndarray) -> np.ndarray:
    """Per information set, whether the sample reached one of its histories (the chance row
    of ``reach`` is 1 there: chance sampling counts the sampled outcome 1, the others 0)."""
    decision = tree.node_infoset >= 0
    hits = np.bincount(tree.node_infoset[decision], reach[tree.n_players, decision] == 1.0, tree.n_infosets)
    return hits > 0


@dataclass(frozen=True)
class OutcomeSample:
    """One outcome-sampling traversal of ``player``: per slot the sampled counterfactual
    values and average-strategy increments; per node (0 off the path) each player's and
    chance's reach ``(n+1, N)``, the sampling reach ``q(h)``, and in ``values`` (row
    ``player``) the importance-weighted value ``u~(h a*) / q(h a*)`` of every sampled
    decision, so that ``cfv~(I, a) = pi_-i(h) values[player, h a]``; per slot of the
    information sets updated, their sampled counterfactual reach ``pi_-i(h) / q(h)`` (the
    tie rule's scale, :func:`~rmviz.solvers.tree.compiled_tree.tie_scale`)."""

    counterfactual_values: np.ndarray
    counterfactual_reach: np.ndarray
    increment: np.ndarray
    reach: np.ndarray
    sample_reach: np.ndarray
    values: np.ndarray


def outcome_sample(
    tree: CompiledTree, strategy: np.ndarray, player: int, exploration: float, key: np.uint64
) -> OutcomeSample:
    """Walk down one path sampled with ``q`` (eps-uniform + (1 - eps) sigma at ``player``'s
    nodes), then back up it with the value estimates (see the module docstring)."""
    n = tree.n_players
    reach = np.zeros((n + 1, tree.n_nodes))
    sample_reach = np.zeros(tree.n_nodes)
    values = np.zeros((n, tree.n_nodes))
    cfv = np.zeros(tree.n_slots)
    cf_reach = np.zeros(tree.n_slots)
    increment = np.zeros(tree.n_slots)
    rows = np.ones(n + 1)
    steps = []  # (h, child, q(a*), pi_i(h), pi_-i(h), q(h))
    h, mine, others, q = 0, 1.0, 1.0, 1.0
    while tree.child_count[h] > 0:
        first, k = int(tree.child_start[h]), int(tree.child_count[h])
        children = np.arange(first, first + k)
        acting = int(tree.player[h])
        if acting < 0:
            weights = tree.chance_probability[children]
            played = weights
        else:
            played = strategy[tree.edge_slot[children]]
            weights = exploration * (1.0 / k) + (1.0 - exploration) * played if acting == player else played
        reach[:, h], sample_reach[h] = rows, q
        j = int(pick(weights, np.array([0]), np.array([k]), uniforms(key, np.array([h])))[0])
        child = first + j
        steps.append((h, child, float(weights[j]), mine, others, q))
        p = float(played[j])
        if acting == player:
            mine *= p
        else:
            others *= p
        rows[n if acting < 0 else acting] *= p
        q *= float(weights[j])
        h = child
    reach[:, h], sample_reach[h] = rows, q
    value = float(tree.payoffs[player, h])
    for h, child, q_move, mine, others, q in reversed(steps):
        acting = int(tree.player[h])
        if acting < 0:
            continue
        estimate = value / q_move
        slot = int(tree.edge_slot[child])
        value = float(strategy[slot]) * estimate
        values[player, child] = estimate / q
        if acting != player:
            continue
        first = int(tree.infoset_first_slot[tree.node_infoset[h]])
        size = int(tree.infoset_size[tree.node_infoset[h]])
        cfv[slot] = estimate * (others / q)
        cf_reach[first : first + size] = others / q
        increment[first : first + size] = mine * strategy[first : first + size] / q
    values[player, 0] = value
    return OutcomeSample(cfv, cf_reach, increment, reach, sample_reach, values)
