"""Payoffs of any magnitude: what the solvers do so that results do not depend on it.

Regret matching, its weighted averages and every distance to equilibrium are homogeneous in
the payoffs: multiplying all payoffs by ``k > 0`` leaves every strategy unchanged and
multiplies regrets, values, NashConv, the CCE/CE gaps, the regret bound and the welfare by
``k`` (the potential, a sum of squared regrets, by ``k^2``). In floating point this holds
exactly when ``k`` is a power of two, as long as nothing overflows or underflows.

Games accept payoffs up to 1e150 in magnitude (so squares and sums of payoffs stay finite)
and down to the smallest double. Far from 1 the solvers' products leave the normal range
(``pi(a) u`` underflows for ``|u| ~ 1e-300``; squared regrets under- or overflow beyond
~1e-154 and ~1e154). So each solver divides the payoffs by :func:`payoff_scale`, a power of
two near the largest ``|u|`` (1 when that already lies within ``[2^-64, 2^64]``), runs on the
quotients, and multiplies every payoff-unit result back (metrics, regrets in snapshots and
records): exact, since the scale is a power of two. Inside the band nothing changes.

The rest of the scale-dependence is handled where it arises: tie snapping
(:func:`~rmviz.solvers.regret_matching.snap_ties`), the greedy line search and the
stationary distribution of internal regret matching are scale-free by construction;
:func:`zero_sum` is relative to the largest payoff; the inertia of sampled internal RM is
given in payoff units (default: 0.1 x the payoff range) and divided by the scale.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from rmviz.games.normal_form import sums_to_zero

SCALE_BAND = 2.0**64  # payoffs with max |u| in [1/SCALE_BAND, SCALE_BAND] are used as given
VALUE_NOISE = 1e-12  # of the largest |u|: a player's value this near zero is the sums' rounding


def payoff_scale(payoffs: np.ndarray) -> float:
    """1, or the power of two ``2^e`` with ``max |u| / 2^e`` in ``[0.5, 1)`` when ``max |u|``
    lies outside ``[2^-64, 2^64]`` (an all-zero game: 1)."""
    top = float(np.max(np.abs(payoffs))) if payoffs.size else 0.0
    if top == 0.0 or 1.0 / SCALE_BAND <= top <= SCALE_BAND:
        return 1.0
    return math.ldexp(1.0, math.frexp(top)[1])


def zero_sum(payoffs: np.ndarray) -> bool:
    """Whether the players' payoffs (axis 0) sum to zero at every outcome
    (:func:`rmviz.games.normal_form.sums_to_zero`)."""
    return sums_to_zero(payoffs, axis=0)


def largest_payoff(payoffs: np.ndarray) -> float:
    """``max |u|`` (0 for no payoffs)."""
    return float(np.max(np.abs(payoffs))) if payoffs.size else 0.0


def reported_values(values: Iterable[float], top: float, scale: float) -> tuple[float, ...]:
    """Each player's value in payoff units (``values`` in the solver's units, times ``scale``),
    0 where it lies within :data:`VALUE_NOISE` x ``top`` (the largest ``|u|``, in the solver's
    units) of zero: the sums' rounding (RPS with Crash's average profile read ``-3.4e-21``,
    Kuhn's after two CFR iterations ``5.6e-17``). Both families report values by this rule."""
    noise = VALUE_NOISE * top
    return tuple(0.0 if abs(v) <= noise else float(v) * scale for v in values)
