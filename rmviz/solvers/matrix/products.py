"""Both players' expected utilities of a two-player game in one pass over the payoffs.

Expected play needs ``U_0 = P_0 y`` and ``U_1 = x P_1`` every iteration; two BLAS ``gemv``
calls read the payoffs twice. :func:`fused_products` reads each entry ``P[a, b]`` once and
adds it into both products,

    U_0(a) = sum_b P[a, b] y(b),        U_1(b) = sign * sum_a x(a) P[a, b],

(``sign = -1`` with ``P = P_0`` in a zero-sum game; in general-sum games the row product
reads ``P_0`` and the column product ``P_1``, each once). The sums may be reassociated
(:data:`rmviz.solvers.jit.jit_reassociating`), so the pass streams the matrix at memory
bandwidth (docs/performance.md). The same functions serve float32 matrices
(``MatrixConfig.dtype``), summing in single precision.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rmviz.solvers.jit import jit, jit_reassociating


@jit_reassociating
def fused_products(
    row_payoff: Any, column_payoff: Any, x: Any, y: Any, row_out: Any, column_out: Any, zero_sum: bool
) -> None:
    """``row_out = P_0 @ y`` and ``column_out = x @ P_1`` with one read of each entry.

    ``zero_sum``: ``P_1 = -P_0``, and only ``row_payoff`` (``P_0``) is read (``column_payoff``
    is ignored; the column sums are negated). Otherwise entry ``(a, b)`` of ``P_0`` and of
    ``P_1`` are read side by side, each once. Matrices ``(rows, columns)`` C-contiguous;
    every array of the payoffs' dtype. Four rows at a time share each load of ``y(b)`` and
    each update of ``U_1(b)``.

    Alternating updates (Tammelin 2014; the kernel of :mod:`.kernels`) evaluate player 1
    against the start profile and player 2 against player 1's *new* strategy ``x'``; ``x'`` is
    regret matching of a function of all of ``P_0 y``, so ``x' P_1`` cannot share ``P_0 y``'s
    pass, and the next iteration's ``P_0 y'`` needs all of ``x' P_1``: two dependent passes
    per iteration are inherent. The third (``x P_1`` of the start profile, which the
    empirical distribution records) is the previous iteration's ``x' P_1``, which the kernel
    keeps.
    """
    if zero_sum:
        _fused_one(row_payoff, x, y, row_out, column_out)
        for b in range(column_out.shape[0]):
            column_out[b] = -column_out[b]
    else:
        _fused_two(row_payoff, column_payoff, x, y, row_out, column_out)


@jit_reassociating
def _fused_one(payoff: Any, x: Any, y: Any, row_out: Any, column_out: Any) -> None:  # pragma: no cover
    """``row_out = P y``, ``column_out = x P``: four rows at a time, each entry read once."""
    rows, columns = payoff.shape
    zero = payoff[0, 0] * 0
    for b in range(columns):
        column_out[b] = zero
    a = 0
    while a + 4 <= rows:
        s0 = s1 = s2 = s3 = zero
        x0, x1, x2, x3 = x[a], x[a + 1], x[a + 2], x[a + 3]
        r0, r1, r2, r3 = payoff[a], payoff[a + 1], payoff[a + 2], payoff[a + 3]
        for b in range(columns):
            yb = y[b]
            p0, p1, p2, p3 = r0[b], r1[b], r2[b], r3[b]
            s0 += p0 * yb
            s1 += p1 * yb
            s2 += p2 * yb
            s3 += p3 * yb
            column_out[b] += x0 * p0 + x1 * p1 + x2 * p2 + x3 * p3
        row_out[a], row_out[a + 1], row_out[a + 2], row_out[a + 3] = s0, s1, s2, s3
        a += 4
    while a < rows:
        total = zero
        xa, row = x[a], payoff[a]
        for b in range(columns):
            total += row[b] * y[b]
            column_out[b] += xa * row[b]
        row_out[a] = total
        a += 1


@jit_reassociating
def _fused_two(
    row_payoff: Any, column_payoff: Any, x: Any, y: Any, row_out: Any, column_out: Any
) -> None:  # pragma: no cover
    """``row_out = P_0 y``, ``column_out = x P_1``: two rows of each matrix at a time."""
    rows, columns = row_payoff.shape
    zero = row_payoff[0, 0] * 0
    for b in range(columns):
        column_out[b] = zero
    a = 0
    while a + 2 <= rows:
        s0 = s1 = zero
        x0, x1 = x[a], x[a + 1]
        p0, p1 = row_payoff[a], row_payoff[a + 1]
        q0, q1 = column_payoff[a], column_payoff[a + 1]
        for b in range(columns):
            yb = y[b]
            s0 += p0[b] * yb
            s1 += p1[b] * yb
            column_out[b] += x0 * q0[b] + x1 * q1[b]
        row_out[a], row_out[a + 1] = s0, s1
        a += 2
    while a < rows:
        total = zero
        xa, p, q = x[a], row_payoff[a], column_payoff[a]
        for b in range(columns):
            total += p[b] * y[b]
            column_out[b] += xa * q[b]
        row_out[a] = total
        a += 1


@jit_reassociating
def row_product(payoff: Any, y: Any, out: Any) -> None:
    """``out = payoff @ y`` (four rows at a time, each load of ``y(b)`` shared)."""
    rows, columns = payoff.shape
    zero = payoff[0, 0] * 0
    a = 0
    while a + 4 <= rows:
        s0 = s1 = s2 = s3 = zero
        r0, r1, r2, r3 = payoff[a], payoff[a + 1], payoff[a + 2], payoff[a + 3]
        for b in range(columns):
            yb = y[b]
            s0 += r0[b] * yb
            s1 += r1[b] * yb
            s2 += r2[b] * yb
            s3 += r3[b] * yb
        out[a], out[a + 1], out[a + 2], out[a + 3] = s0, s1, s2, s3
        a += 4
    while a < rows:
        total = zero
        row = payoff[a]
        for b in range(columns):
            total += row[b] * y[b]
        out[a] = total
        a += 1


@jit_reassociating
def column_product(payoff: Any, x: Any, out: Any, sign: float) -> None:
    """``out = sign * (x @ payoff)`` (four rows at a time, each update of ``out(b)`` shared)."""
    rows, columns = payoff.shape
    zero = payoff[0, 0] * 0
    for b in range(columns):
        out[b] = zero
    a = 0
    while a + 4 <= rows:
        x0, x1, x2, x3 = x[a], x[a + 1], x[a + 2], x[a + 3]
        r0, r1, r2, r3 = payoff[a], payoff[a + 1], payoff[a + 2], payoff[a + 3]
        for b in range(columns):
            out[b] += x0 * r0[b] + x1 * r1[b] + x2 * r2[b] + x3 * r3[b]
        a += 4
    while a < rows:
        xa, row = x[a], payoff[a]
        for b in range(columns):
            out[b] += xa * row[b]
        a += 1
    if sign != 1.0:
        for b in range(columns):
            out[b] = -out[b]


@jit
def single_pass_floor(payoff: Any, x: Any, y: Any, row_out: Any, column_out: Any, passes: int) -> int:
    """``passes`` bare fused passes (:func:`fused_products`, zero-sum sign) and nothing else:
    the floor of an expected-play iteration on a zero-sum matrix (``rmviz bench``)."""
    for _ in range(passes):
        fused_products(payoff, payoff, x, y, row_out, column_out, True)
    return passes


@jit
def _negations(first: Any, second: Any) -> bool:  # pragma: no cover - compiled
    for k in range(first.shape[0]):
        if second[k] != -first[k]:
            return False
    return True


def exactly_zero_sum(payoffs: np.ndarray) -> bool:
    """Whether ``payoffs[1] == -payoffs[0]`` entry by entry, exactly (a two-player game whose
    column product may then read ``P_0``: the same numbers as ``P_1``). One pass, no copy."""
    first = np.ascontiguousarray(payoffs[0]).reshape(-1)
    second = np.ascontiguousarray(payoffs[1]).reshape(-1)
    return bool(_negations(first, second))
