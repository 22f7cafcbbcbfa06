"""The stationary distribution of internal regret matching, compiled and exact.

Internal regret matching with mixed strategies (Hart & Mas-Colell 2000; Blum & Mansour
2007) plays the stationary distribution ``pi`` of the Markov chain that moves from action
``b`` to ``a != b`` at rate ``R_+(b, a)``: ``pi M = 0``, ``sum pi = 1`` with the generator
``M = R_+ - diag(row sums)``. The generic code
(:func:`rmviz.solvers.regret_matching.internal_regret_matching`) solves that system by least
squares (an SVD, ~1,000 times an RM iteration on 3x3 games). Its answer is unique when the
chain has one closed class; with several closed classes ``C_1 .. C_m`` every stationary
distribution is ``sum_c w_c pi_c`` with ``sum_c w_c = 1`` (``pi_c`` the stationary distribution
of ``C_c``, zero elsewhere), and the least-squares (minimum-norm) solution is the one with
``w_c`` proportional to ``1 / |pi_c|^2`` (the ``pi_c`` have disjoint supports); with no positive
rate at all every action is its own class and the answer is uniform.

:func:`stationary_distribution` computes exactly that answer directly, in O(k^3) per call
without allocation: the communicating classes of the rate graph (Kosaraju's two depth-first
searches, O(k^2)), the closed ones (no rate leaving them), each closed class's stationary
distribution by the Grassmann-Taksar-Heyman elimination (Grassmann, Taksar & Heyman 1985:
Gaussian elimination on the censored chains with no subtraction, so it is accurate to
rounding whatever the chain's conditioning), and the minimum-norm mixture. Transient actions
get probability 0 (and, as in the generic code, so does any probability within
``TIE_TOLERANCE`` of the largest). Rates are divided by the largest first, as the generic code does, so the
answer does not depend on the regrets' magnitude.
"""

from __future__ import annotations

from typing import Any

from rmviz.solvers.jit import jit
from rmviz.solvers.regret_matching import TIE_TOLERANCE


@jit
def stationary_distribution(guide: Any, out: Any, work: Any, labels: Any) -> None:  # pragma: no cover
    """``out`` = the minimum-norm stationary distribution of the chain with rates
    ``max(guide(b, a), 0)``, ``b != a`` (``guide`` ``(k, k)``; ``out`` ``(k,)``).

    Workspace: ``work`` at least ``(k, k)`` floats; ``labels`` at least ``(5, k)`` ints.
    """
    k = out.shape[0]
    top = 0.0
    positive = 0
    for b in range(k):
        for a in range(k):
            if a != b and guide[b, a] > 0.0:
                positive += 1
                top = max(top, guide[b, a])
    if top == 0.0:
        for a in range(k):
            out[a] = 1.0 / k
        return
    component, closed = labels[0], labels[4]
    if positive == k * (k - 1):  # every rate positive: one class, no search needed
        classes = 1
        for a in range(k):
            component[a] = 0
        closed[0] = 1
    else:
        classes = _communicating_classes(guide, k, component, labels[1], labels[2], labels[3])
        for c in range(classes):
            closed[c] = 1
        for b in range(k):
            for a in range(k):
                if a != b and guide[b, a] > 0.0 and component[a] != component[b]:
                    closed[component[b]] = 0
    for a in range(k):
        out[a] = 0.0
    members = labels[1]  # reused: the actions of one class
    inverse_norms = 0.0
    for c in range(classes):
        if not closed[c]:
            continue
        size = 0
        for a in range(k):
            if component[a] == c:
                members[size] = a
                size += 1
        rates = work.reshape(-1)[: size * size].reshape((size, size))  # contiguous rows
        for i in range(size):
            for j in range(size):
                rates[i, j] = max(guide[members[i], members[j]], 0.0) / top if i != j else 0.0
        norm = _gth(rates, size)  # leaves the class's distribution in rates[0, :size]
        weight = 1.0 / norm
        inverse_norms += weight
        for i in range(size):
            out[members[i]] = weight * rates[0, i]
    largest = 0.0
    for a in range(k):
        out[a] = out[a] / inverse_norms
        largest = max(largest, out[a])
    total = 0.0  # probabilities within TIE_TOLERANCE of the largest are exact zeros, as the
    for a in range(k):  # generic code's (where least squares leaves ~1e-17 on transient actions)
        if out[a] <= TIE_TOLERANCE * largest:
            out[a] = 0.0
        total += out[a]
    for a in range(k):
        out[a] = out[a] / total


@jit
def _gth(rates: Any, size: int) -> float:  # pragma: no cover - compiled
    """Grassmann-Taksar-Heyman on an irreducible chain's rates (``size x size``, overwritten):
    its stationary distribution in ``rates[0, :size]`` (summing to 1); returns its squared norm.

    Eliminates states ``size-1 .. 1`` in turn, censoring the chain on the others:
    ``s = sum_{j<n} P(n, j)``, ``P(i, n) /= s``, ``P(i, j) += P(i, n) P(n, j)`` for ``i, j < n``;
    then ``pi(0) = 1``, ``pi(j) = sum_{i<j} pi(i) P(i, j)``. Only sums and products of
    non-negative numbers: no cancellation.
    """
    for n in range(size - 1, 0, -1):
        s = 0.0
        for j in range(n):
            s += rates[n, j]
        if s <= 0.0:  # underflow of an irreducible chain's rates: treat the state as absorbing
            s = 1.0
        for i in range(n):
            rates[i, n] /= s
        last = rates[n]
        for i in range(n):
            factor = rates[i, n]
            if factor != 0.0:
                row = rates[i]
                for j in range(n):
                    row[j] += factor * last[j]
    # back-substitution into row 0 (entries (0, j) for j >= 1 are no longer needed as rates
    # once pi(j) is known: pi(j) only reads pi(i), i < j, and rates[i, j])
    total = 1.0
    pi_values = rates[size - 1]  # the last row is free after the elimination: scratch for pi
    pi_values[0] = 1.0
    for j in range(1, size):
        value = 0.0
        for i in range(j):
            value += pi_values[i] * rates[i, j]
        pi_values[j] = value
        total += value
    norm = 0.0
    for j in range(size):
        rates[0, j] = pi_values[j] / total
        norm += rates[0, j] * rates[0, j]
    return norm


@jit
def _communicating_classes(
    guide: Any, k: int, component: Any, order: Any, stack: Any, position: Any
) -> int:  # pragma: no cover - compiled
    """Kosaraju: ``component[a]`` = the class of ``a`` in the graph ``b -> a`` iff
    ``guide(b, a) > 0``, ``b != a``; returns the number of classes. O(k^2)."""
    for a in range(k):
        component[a] = -1  # -1: unvisited; -2: visited by the first search
    finished = 0
    for root in range(k):
        if component[root] == -1:
            finished = _depth_first(guide, k, root, False, -2, component, stack, position, order, finished)
    for a in range(k):
        component[a] = -1
    classes = 0
    for index in range(k - 1, -1, -1):  # the transposed graph, in decreasing finish time
        root = order[index]
        if component[root] == -1:
            _depth_first(guide, k, root, True, classes, component, stack, position, order, -1)
            classes += 1
    return classes


@jit
def _depth_first(
    guide: Any,
    k: int,
    root: int,
    transposed: bool,
    label: int,
    component: Any,
    stack: Any,
    position: Any,
    order: Any,
    finished: int,
) -> int:  # pragma: no cover - compiled
    """Label ``label`` every unvisited (-1) action reachable from ``root`` along
    ``guide(b, a) > 0`` (``b -> a``; ``a -> b`` when ``transposed``), with an explicit stack;
    when ``finished >= 0`` the actions are appended to ``order`` from there as they finish,
    and the new count is returned."""
    depth = 0
    stack[0], position[0] = root, 0
    component[root] = label
    while depth >= 0:
        node = stack[depth]
        advanced = False
        while position[depth] < k:
            other = position[depth]
            position[depth] += 1
            weight = guide[other, node] if transposed else guide[node, other]
            if other != node and weight > 0.0 and component[other] == -1:
                component[other] = label
                depth += 1
                stack[depth], position[depth] = other, 0
                advanced = True
                break
        if not advanced:
            if finished >= 0:
                order[finished] = node
                finished += 1
            depth -= 1
    return finished
