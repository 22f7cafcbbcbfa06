"""The stationary distribution of internal regret matching, compiled and exact.

Internal regret matching with mixed strategies (Hart & Mas-Colell 2000; Blum & Mansour
2007) plays the stationary distribution ``pi`` of the Markov chain that moves from action
``b`` to ``a != b`` at rate ``R_+(b, a)``: ``pi M = 0``, ``sum pi = 1`` with the generator
``M = R_+ - diag(row sums)``. :func:`stationary_distribution` gives the answer of the generic
least squares (:func:`rmviz.solvers.regret_matching.internal_regret_matching`) directly, in
O(k^3) per call without allocation: the closed communicating classes of the rate graph
(Kosaraju), each one's stationary distribution by the Grassmann-Taksar-Heyman elimination
(Grassmann, Taksar & Heyman 1985: no subtraction, so accurate to rounding), and their
minimum-norm mixture.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rmviz.solvers.jit import jit
from rmviz.solvers.regret_matching import TIE_TOLERANCE, internal_regret_matching


def internal_strategy(guide: Any, xp: Any) -> Any:
    """Internal regret matching's next strategy, the stationary distribution of ``guide``'s
    chain: on the CPU :func:`stationary_distribution` (the compiled kernels' very function, so
    the array code and the kernels play the same floats), on a GPU the generic least squares
    (:func:`~rmviz.solvers.regret_matching.internal_regret_matching`, equal to rounding)."""
    if xp is not np:
        return internal_regret_matching(guide, xp)
    k = guide.shape[0]
    out = np.empty(k)
    rates = np.ascontiguousarray(guide, dtype=np.float64)
    stationary_distribution(rates, out, np.empty((k, k)), np.empty((4, k), dtype=np.int64), chain_bits(k))
    return out


@jit
def stationary_distribution(
    guide: Any, out: Any, work: Any, labels: Any, bits: Any
) -> None:  # pragma: no cover - compiled
    """``out`` = the minimum-norm stationary distribution of the chain with rates
    ``max(guide(b, a), 0)``, ``b != a`` (``guide`` ``(k, k)``; ``out`` ``(k,)``).

    The generic code solves the system by least squares (an SVD, ~1,000 times an RM
    iteration on 3x3 games). Its answer is unique when the chain has one closed class; with
    several closed classes ``C_1 .. C_m`` every stationary distribution is
    ``sum_c w_c pi_c`` with ``sum_c w_c = 1`` (``pi_c`` the stationary distribution of
    ``C_c``, zero elsewhere), and the least-squares (minimum-norm) solution is the one with
    ``w_c`` proportional to ``1 / |pi_c|^2`` (the ``pi_c`` have disjoint supports); with no
    positive rate at all every action is its own class and the answer is uniform. This
    computes that answer by Grassmann-Taksar-Heyman elimination (Gaussian elimination on the
    censored chains with no subtraction, accurate to rounding whatever the chain's
    conditioning), first on the whole chain: every pivot is positive exactly when the chain
    has one closed class and it holds action 0, the usual case, which then needs no search
    and gives the same floats as the class's own elimination. Otherwise: the communicating
    classes (Kosaraju's two depth-first searches, O(k^2)), the closed ones (no rate leaving
    them), each one's elimination, and the mixture.
    Transient actions get probability 0 (and, as in the generic code, so does any
    probability within ``TIE_TOLERANCE`` of the largest). Rates are divided by the largest
    first, as the generic code does, so the answer does not depend on the regrets'
    magnitude.

    Workspace: ``work`` at least ``(k, k)`` floats; ``labels`` at least ``(4, k)`` ints;
    ``bits`` as :func:`chain_bits` makes it.
    """
    k = out.shape[0]
    rates = work.reshape(-1)[: k * k].reshape((k, k))  # contiguous rows
    top, leaving = _positive_rates(guide, rates)
    if top == 0.0:
        for a in range(k):
            out[a] = 1.0 / k
        return
    for b in range(k):  # (a division, as the generic code's: the same floats)
        for a in range(k):
            rates[b, a] = rates[b, a] / top
    norm = _gth(rates, k, True) if leaving else -1.0  # one closed class holding 0: no search
    if norm > 0.0:
        inverse_norms = 1.0 / norm
        for a in range(k):
            out[a] = inverse_norms * rates[0, a]
    else:
        inverse_norms = _closed_classes_mixture(guide, top, out, rates, labels, bits)
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
def _positive_rates(guide: Any, rates: Any) -> Any:  # pragma: no cover - compiled
    """``rates = max(guide, 0)`` off the diagonal, 0 on it; returns the largest rate and
    whether every action but 0 has a positive one (else one is absorbing, and GTH on the
    whole chain would fail). Each row's maximum in four running maxima: exact in any order,
    and not one chain of dependent instructions (a single running maximum took 12 us of a
    100-action solve)."""
    k = rates.shape[0]
    top, leaving = 0.0, True
    for b in range(k):
        for a in range(k):
            rates[b, a] = max(guide[b, a], 0.0)
        rates[b, b] = 0.0
        m0 = m1 = m2 = m3 = 0.0
        a = 0
        while a + 4 <= k:
            m0, m1 = max(m0, rates[b, a]), max(m1, rates[b, a + 1])
            m2, m3 = max(m2, rates[b, a + 2]), max(m3, rates[b, a + 3])
            a += 4
        for rest in range(a, k):
            m0 = max(m0, rates[b, rest])
        row = max(max(m0, m1), max(m2, m3))
        leaving &= (row > 0.0) | (b == 0)
        top = max(top, row)
    return top, leaving


@jit
def _closed_classes_mixture(
    guide: Any, top: float, out: Any, work: Any, labels: Any, bits: Any
) -> float:  # pragma: no cover - compiled
    """``out`` = the closed classes' distributions ``pi_c`` weighted by ``1 / |pi_c|^2``
    (zero elsewhere); returns the weights' sum, which the caller divides by."""
    k = out.shape[0]
    component, closed = labels[0], labels[3]
    classes = _communicating_classes(guide, k, component, labels[1], labels[2], bits)
    for c in range(classes):
        closed[c] = 1
    for b in range(k):
        leaves = False
        for a in range(k):
            leaves |= (guide[b, a] > 0.0) & (component[a] != component[b])
        if leaves:
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
        norm = _gth(rates, size, False)  # leaves the class's distribution in rates[0, :size]
        weight = 1.0 / norm
        inverse_norms += weight
        for i in range(size):
            out[members[i]] = weight * rates[0, i]
    return inverse_norms


@jit
def _gth(rates: Any, size: int, strict: bool) -> float:  # pragma: no cover - compiled
    """Grassmann-Taksar-Heyman on a chain's rates (``size x size``, overwritten): its
    stationary distribution in ``rates[0, :size]`` (summing to 1); returns its squared norm.

    Eliminates states ``size-1 .. 1`` in turn, censoring the chain on the others:
    ``s = sum_{j<n} P(n, j)``, ``P(i, n) /= s``, ``P(i, j) += P(i, n) P(n, j)`` for ``i, j < n``;
    then ``pi(0) = 1``, ``pi(j) = sum_{i<j} pi(i) P(i, j)``. Only sums and products of
    non-negative numbers: no cancellation, and a rate is 0 exactly when no path gives it.
    Every pivot ``s`` is positive if and only if every state reaches state 0: then the chain
    has one closed class, holding 0, and the answer is its distribution (exact zeros on the
    transient states, which change no sum). A zero pivot returns -1 when ``strict``; else
    (the underflow of an irreducible chain's rates) the state is treated as absorbing.
    """
    for n in range(size - 1, 0, -1):
        s = 0.0
        for j in range(n):
            s += rates[n, j]
        if s <= 0.0:
            if strict:
                return -1.0
            s = 1.0
        for i in range(n):
            factor = rates[i, n] / s
            rates[i, n] = factor
            if factor != 0.0:  # (indexing the rows in place, not as views: vectorised, ~1.4x)
                for j in range(n):
                    rates[i, j] += factor * rates[n, j]
    # back-substitution a row at a time (contiguous): pi(j) gathers pi(i) P(i, j) in
    # increasing i, as a column sum would; the last row is free after the elimination
    pi_values = rates[size - 1]
    for j in range(1, size):
        pi_values[j] = 0.0
    pi_values[0] = 1.0
    total = 0.0
    for i in range(size):
        value = pi_values[i]
        total += value
        if value != 0.0:
            for j in range(i + 1, size):
                pi_values[j] += value * rates[i, j]
    norm = 0.0
    for j in range(size):
        rates[0, j] = pi_values[j] / total
        norm += rates[0, j] * rates[0, j]
    return norm


# the lowest set bit's index of a 64-bit word: a de Bruijn sequence times the isolated bit
# indexes a table (Leiserson, Prokop & Randall 1998), as numba has no count-trailing-zeros
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_LOWEST_BIT = np.zeros(64, dtype=np.int64)
for _index in range(64):
    _LOWEST_BIT[((1 << _index) * 0x03F79D71B4CB0A89 & 0xFFFFFFFFFFFFFFFF) >> 58] = _index


@jit
def chain_bits(k: int) -> Any:
    """The bit workspace :func:`stationary_distribution` needs for ``k`` actions."""
    return np.empty((2 * k + 1, (k + 63) // 64), dtype=np.uint64)


@jit
def _mask(a: int) -> Any:  # pragma: no cover - compiled
    """The bit of action ``a`` in its 64-bit word (the word is ``a >> 6``)."""
    return np.uint64(1) << np.uint64(a & 63)


@jit
def _communicating_classes(
    guide: Any, k: int, component: Any, order: Any, stack: Any, bits: Any
) -> int:  # pragma: no cover - compiled
    """Kosaraju: ``component[a]`` = the class of ``a`` in the graph ``b -> a`` iff
    ``guide(b, a) > 0``, ``b != a``; returns the number of classes.

    The graph and its transpose are bit rows (``bits[b]``, ``bits[k + a]``), filled without a
    branch per entry, and the searches find a node's next unvisited neighbour a word at a
    time: O(k^2 / 64) after the O(k^2) fill, where a search testing entry by entry paid a
    mispredicted branch on most entries of a regret matrix's random signs.
    """
    words, unvisited = bits.shape[1], bits.shape[0] - 1
    for row in range(2 * k):
        for w in range(words):
            bits[row, w] = 0
    for b in range(k):
        for a in range(k):
            edge = np.uint64(guide[b, a] > 0.0)
            bits[b, a >> 6] |= edge << np.uint64(a & 63)
            bits[k + a, b >> 6] |= edge << np.uint64(b & 63)
    for w in range(words):
        bits[unvisited, w] = 0
    for a in range(k):  # no self-loops; unvisited: every action
        bits[a, a >> 6] &= ~_mask(a)
        bits[k + a, a >> 6] &= ~_mask(a)
        bits[unvisited, a >> 6] |= _mask(a)
    finished = 0
    for root in range(k):
        if bits[unvisited, root >> 6] & _mask(root):
            finished = _depth_first(bits, 0, root, -1, component, stack, order, finished)
    for a in range(k):
        bits[unvisited, a >> 6] |= _mask(a)
    classes = 0
    for index in range(k - 1, -1, -1):  # the transposed graph, in decreasing finish time
        root = order[index]
        if bits[unvisited, root >> 6] & _mask(root):
            _depth_first(bits, k, root, classes, component, stack, order, -1)
            classes += 1
    return classes


@jit
def _depth_first(
    bits: Any, offset: int, root: int, label: int, component: Any, stack: Any, order: Any, finished: int
) -> int:  # pragma: no cover - compiled
    """Visit every unvisited action reachable from ``root`` along the bit rows
    ``bits[offset + node]`` (unvisited: the bits of the last row, ``bits[-1]``), with an explicit stack;
    label them ``label`` when ``label >= 0``; when ``finished >= 0`` append the actions to
    ``order`` from there as they finish, and return the new count."""
    unvisited = bits[bits.shape[0] - 1]
    one = np.uint64(1)
    unvisited[root >> 6] &= ~_mask(root)
    if label >= 0:
        component[root] = label
    depth = 0
    stack[0] = root
    while depth >= 0:
        node = stack[depth]
        edges = bits[offset + node]
        following = -1
        for w in range(unvisited.shape[0]):
            candidates = edges[w] & unvisited[w]
            if candidates:
                lowest = candidates & (~candidates + one)
                following = w * 64 + _LOWEST_BIT[(lowest * _DE_BRUIJN) >> np.uint64(58)]
                break
        if following >= 0:
            unvisited[following >> 6] &= ~_mask(following)
            if label >= 0:
                component[following] = label
            depth += 1
            stack[depth] = following
        else:
            if finished >= 0:
                order[finished] = node
                finished += 1
            depth -= 1
    return finished
