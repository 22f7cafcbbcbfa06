"""The greedy line search of the compiled kernels: :func:`greedy_lambda_scan`.

The same minimiser as :func:`rmviz.solvers.weighting.greedy_lambda` (Zhang, Lerer & Brown,
"Equilibrium Finding in Normal-Form Games Via Greedy Regret Minimization", AAAI 2022,
Algorithm 1: the weight of a new iterate minimises the potential of the new average regret,
an exact line search over the breakpoints of a convex piecewise-quadratic ``g``), written
as scalar loops over preallocated scratch so that numba compiles it with no allocation per
iteration: the matrix kernels call it every iteration of greedy-rm, the tree kernel every
iteration of greedy-cfr. The array version stays the NumPy and CuPy code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rmviz.solvers.jit import jit

# Rows of the scan's scratch (:func:`greedy_scratch`): ``work`` holds the breakpoints being
# sorted (and a copy for the sorts), the terms' d^2, d r and d, the rising and falling
# breakpoints with their prefix sums, the candidates and g' there; ``order`` the terms'
# indices (and a copy) and the bucket counts. The scan indexes these 2-D arrays by row
# instead of taking row views: in numba every view is a reference-counted object (two
# atomic operations), and a dozen of them cost more than the whole search on a 3x3 game.
_KEY, _KEY_TMP, _D2, _DR, _D, _RISE_BP, _RISE_D2, _RISE_DR, _FALL_BP, _FALL_D2, _FALL_DR, _CAND, _SLOPE = (
    range(13)
)
GREEDY_SCRATCH_ROWS = 13
# Up to this many terms the scan sorts by insertion as the terms come; above it, once all are in.
GREEDY_SORT_ALL_MAX = 32
# runs of this many breakpoints are sorted by insertion, then merged
_RUN = 16
# the bucket sort gives up (to the merges) when a bucket holds more keys than this
_BUCKET_MAX = 32


def greedy_scratch(size: int) -> tuple[np.ndarray, np.ndarray]:
    """The buffers :func:`greedy_lambda_scan` works in for vectors of up to ``size`` regrets:
    ``(work, order)``, allocated once per kernel call and reused every iteration."""
    return np.empty((GREEDY_SCRATCH_ROWS, size + 2)), np.empty((3, size + 2), dtype=np.int64)


@jit
def _bucket_sort(work: Any, order: Any, m: int, lower: float, upper: float) -> bool:
    """Sort ``work[_KEY, :m]``, keys in ``[lower, upper]``, carrying ``order[0, :m]``, stably, in
    O(m) when the keys are spread: ``m`` equal buckets counted in ``order[2]``, the terms
    scattered bucket by bucket (in index order) into row ``_KEY_TMP`` and ``order[1]``, then
    one insertion pass back, which moves each term only within its bucket. Returns False,
    having changed nothing, when a bucket holds more than :data:`_BUCKET_MAX` keys
    (clustered breakpoints): then :func:`_stable_sort` sorts.

    Against the merge sort on random breakpoints (CPU time, under load): 70 keys 0.8 us
    against 3.3 us, 250 keys 2.9 us against 18 us: the merges' comparisons are coin flips
    for the branch predictor, the counting and scattering have no data-dependent branch.
    """
    span = upper - lower
    if not 0.0 < span < np.inf:
        return False  # all equal (already sorted, but the merges say so) or out of range
    scale = m / span
    for b in range(m + 1):
        order[2, b] = 0
    for i in range(m):
        b = min(max(int((work[_KEY, i] - lower) * scale), 0), m - 1)
        order[2, b + 1] += 1
    largest = 0
    for b in range(m):
        largest = max(largest, order[2, b + 1])
        order[2, b + 1] += order[2, b]  # bucket b starts at order[2, b]
    if largest > _BUCKET_MAX:
        return False
    for i in range(m):
        b = min(max(int((work[_KEY, i] - lower) * scale), 0), m - 1)
        at = order[2, b]
        order[2, b] = at + 1
        work[_KEY_TMP, at] = work[_KEY, i]
        order[1, at] = order[0, i]
    for i in range(m):
        key, item = work[_KEY_TMP, i], order[1, i]
        j = i - 1
        while j >= 0 and work[_KEY, j] > key:
            work[_KEY, j + 1] = work[_KEY, j]
            order[0, j + 1] = order[0, j]
            j -= 1
        work[_KEY, j + 1] = key
        order[0, j + 1] = item
    return True


@jit
def _stable_sort(work: Any, order: Any, m: int) -> None:
    """Sort ``work[_KEY, :m]`` ascending, carrying ``order[0, :m]``; equal keys keep their order.

    Insertion sort of runs of :data:`_RUN`, then bottom-up merges through row ``_KEY_TMP``
    and ``order[1]``: O(m log m) with no allocation (numba's ``argsort`` allocates its
    result and its work space at every call).
    """
    for start in range(0, m, _RUN):
        stop = min(start + _RUN, m)
        for i in range(start + 1, stop):
            key, item = work[_KEY, i], order[0, i]
            j = i - 1
            while j >= start and work[_KEY, j] > key:
                work[_KEY, j + 1] = work[_KEY, j]
                order[0, j + 1] = order[0, j]
                j -= 1
            work[_KEY, j + 1] = key
            order[0, j + 1] = item
    source = 0  # the rows holding the sorted runs: _KEY + source in work, source in order
    width = _RUN
    while width < m:
        target = 1 - source
        for lo in range(0, m, 2 * width):
            mid, hi = min(lo + width, m), min(lo + 2 * width, m)
            a, b = lo, mid
            for out in range(lo, hi):
                if b >= hi or (a < mid and not work[_KEY + source, b] < work[_KEY + source, a]):
                    work[_KEY + target, out] = work[_KEY + source, a]
                    order[target, out] = order[source, a]
                    a += 1
                else:
                    work[_KEY + target, out] = work[_KEY + source, b]
                    order[target, out] = order[source, b]
                    b += 1
        source = target
        width *= 2
    if source == 1:
        for i in range(m):
            work[_KEY, i] = work[_KEY_TMP, i]
            order[0, i] = order[1, i]


@jit
def _first_root(work: Any, count: int, level: float, strict: bool, n_rise: int, n_fall: int) -> float:
    """Where ``g'`` first exceeds ``level`` among the scan's candidates (``>`` when
    ``strict``, else ``>=``), solved inside its linear segment: the array version's
    ``first_root``; the last candidate (lam_max) if never."""
    j = -1
    for i in range(count):
        if (work[_SLOPE, i] > level) if strict else (work[_SLOPE, i] >= level):
            j = i
            break
    if j < 0:
        return work[_CAND, count - 1]
    if j == 0:
        return work[_CAND, 0]
    k = j - 1
    mid = (work[_CAND, k] + work[_CAND, j]) / 2  # the segment's slope: terms active inside it
    at_rise = 0
    while at_rise < n_rise and work[_RISE_BP, at_rise] < mid:
        at_rise += 1
    at_fall = 0
    while at_fall < n_fall and work[_FALL_BP, at_fall] > mid:
        at_fall += 1
    s = work[_RISE_D2, at_rise] + work[_FALL_D2, at_fall]
    q = work[_RISE_DR, at_rise] + work[_FALL_DR, at_fall]
    if not s > 0.0:
        return work[_CAND, j]
    return min(max(-q / s, work[_CAND, k]), work[_CAND, j])


def greedy_lambda_scan(x: Any, r: Any, lam_max: float, lam_tie: float, work: Any, order: Any) -> float:
    """:func:`greedy_lambda` as scalar loops for the compiled kernels: the same minimiser of
    ``g(lam) = sum_k [lam x_k + (1-lam) r_k]_+^2`` over ``[0, lam_max]`` (Zhang, Lerer &
    Brown, AAAI 2022, Algorithm 1: the exact line search over the breakpoints of ``g``),
    with no array call and no allocation, in the array version's arithmetic to the bit.

    The same steps: ``x`` and ``r`` divided by their largest magnitude; per term
    ``d_k = x_k - r_k``, breakpoint ``lam_k = -r_k / d_k``; ``g'(lam)/2 = s(lam) lam + q(lam)``
    with ``s = sum d_k^2`` and ``q = sum d_k r_k`` over the active terms (rising ``d_k > 0``
    with ``lam_k < lam``, falling ``d_k < 0`` with ``lam_k > lam``), summed as prefix sums of
    the rising terms by increasing breakpoint plus suffix sums of the falling ones by
    decreasing breakpoint, ties in index order, the terms active on all of ``[0, lam_max]``
    first (the array version's stable sorts of its keys); ``g'`` at
    the candidates ``0``, the breakpoints inside ``(0, lam_max)`` and ``lam_max``; the
    tolerance ``1e-12 (max |q| + max s)`` over the candidates; the first candidate where
    ``g' >= -tol`` (respectively ``> tol``) and the root of ``g'`` in the segment before it
    bound the minimisers; of them the one nearest ``lam_tie`` is returned.

    Here the terms are sorted once, stably (up to :data:`GREEDY_SORT_ALL_MAX` terms by
    insertion as they come; above, only those whose activity changes inside ``[0, lam_max]``,
    by :func:`_bucket_sort` or :func:`_stable_sort`), and one sweep gives ``g'`` at every
    candidate, where the array version sorts three times and binary-searches every candidate.

    ``work`` and ``order`` come from :func:`greedy_scratch` (at least ``K + 2`` columns).
    """
    size = x.shape[0]
    top = 0.0
    for k in range(size):
        top = max(top, abs(x[k]), abs(r[k]))
    if top == 0.0:
        top = 1.0  # all zero: any positive divisor
    # Sort keys (the array version's): a rising term active on all of [0, lam_max] (its
    # breakpoint below 0) has key -inf, a falling one (above lam_max) +inf, so that they are
    # summed first, in index order and in reverse index order; the others their breakpoint.
    # Few terms: every term that is not flat is insertion-sorted as it comes. Many: the
    # always-active ones are summed here in that order and the never-active ones left out
    # (rising at or above lam_max, falling at or below 0: no candidate counts them), and only
    # the rest is sorted (keys in [0, lam_max]).
    few = size <= GREEDY_SORT_ALL_MAX
    rise_base_d2 = rise_base_dr = fall_base_d2 = fall_base_dr = 0.0
    m = 0
    for k in range(size):
        xs, rs = x[k] / top, r[k] / top
        d = xs - rs
        if d == 0.0:  # flat: never active, no breakpoint
            continue
        b = -rs / d
        if d > 0.0 and b < 0.0:
            b = -np.inf
        elif d < 0.0 and b > lam_max:
            b = np.inf
        if not few:
            if b == -np.inf:
                rise_base_d2 += d * d
                rise_base_dr += d * rs
                continue
            if b == np.inf or (d > 0.0 and b >= lam_max) or (d < 0.0 and b <= 0.0):
                continue  # always-active falling terms: below, in reverse index order
        work[_D2, m], work[_DR, m], work[_D, m] = d * d, d * rs, d
        if few:  # insertion sort as the terms come (no call for a handful of numbers)
            j = m - 1
            while j >= 0 and work[_KEY, j] > b:
                work[_KEY, j + 1] = work[_KEY, j]
                order[0, j + 1] = order[0, j]
                j -= 1
            work[_KEY, j + 1], order[0, j + 1] = b, m
        else:
            work[_KEY, m], order[0, m] = b, m
        m += 1
    if not few:
        for k in range(size - 1, -1, -1):
            xs, rs = x[k] / top, r[k] / top
            d = xs - rs
            if d < 0.0 and -rs / d > lam_max:
                fall_base_d2 += d * d
                fall_base_dr += d * rs
        if not _bucket_sort(work, order, m, 0.0, lam_max):
            _stable_sort(work, order, m)
    # sorted by key, ties by index: work[_KEY, i] is the key of term order[0, i]
    # rising terms: keys ascending, prefix sums; falling: descending, suffix sums
    work[_RISE_D2, 0], work[_RISE_DR, 0] = rise_base_d2, rise_base_dr
    n_rise = 0
    for i in range(m):
        k = order[0, i]
        if work[_D, k] > 0.0:
            work[_RISE_BP, n_rise] = work[_KEY, i]
            work[_RISE_D2, n_rise + 1] = work[_RISE_D2, n_rise] + work[_D2, k]
            work[_RISE_DR, n_rise + 1] = work[_RISE_DR, n_rise] + work[_DR, k]
            n_rise += 1
    work[_FALL_D2, 0], work[_FALL_DR, 0] = fall_base_d2, fall_base_dr
    n_fall = 0
    for i in range(m - 1, -1, -1):
        k = order[0, i]
        if work[_D, k] < 0.0:
            work[_FALL_BP, n_fall] = work[_KEY, i]
            work[_FALL_D2, n_fall + 1] = work[_FALL_D2, n_fall] + work[_D2, k]
            work[_FALL_DR, n_fall + 1] = work[_FALL_DR, n_fall] + work[_DR, k]
            n_fall += 1
    # candidates: 0, the breakpoints inside (0, lam_max) ascending, lam_max
    work[_CAND, 0] = 0.0
    count = 1
    for i in range(m):
        b = work[_KEY, i]
        if 0.0 < b < lam_max:
            work[_CAND, count] = b
            count += 1
    work[_CAND, count] = lam_max
    count += 1
    # g'/2 at the candidates in one sweep: rising terms with bp < lam, falling with bp > lam
    at_rise, at_fall = 0, n_fall
    q_top = s_top = 0.0
    for i in range(count):
        lam = work[_CAND, i]
        while at_rise < n_rise and work[_RISE_BP, at_rise] < lam:
            at_rise += 1
        while at_fall > 0 and not work[_FALL_BP, at_fall - 1] > lam:
            at_fall -= 1
        s = work[_RISE_D2, at_rise] + work[_FALL_D2, at_fall]
        q = work[_RISE_DR, at_rise] + work[_FALL_DR, at_fall]
        work[_SLOPE, i] = s * lam + q
        q_top = max(q_top, abs(q))
        s_top = max(s_top, s)
    tol = 1e-12 * (q_top + s_top + 1e-300)
    lower = _first_root(work, count, -tol, False, n_rise, n_fall)
    upper = _first_root(work, count, tol, True, n_rise, n_fall)
    return min(max(lam_tie, lower), upper)
