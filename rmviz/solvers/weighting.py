"""Iterate weighting: how much iteration t counts in the regrets and in the average.

Every scheme is written in *discount form*: at iteration t, before adding iteration t,

    R   <- d_pos * R_+ + d_neg * R_-  +  c * r_t        (guiding regrets)
    Avg <- d_avg * Avg                +  c_avg * x_t    (average strategy, true regrets,
                                                         weight sum, payoff sums)

so numbers stay bounded over 1e8 iterations and greedy weights can rescale history instead
of letting weights overflow. Schemes:

* ``uniform``: every iteration weight 1 (Blackwell 1956; Hart & Mas-Colell 2000).
* ``linear``: iteration t has weight t in regrets and average (Brown & Sandholm, "Solving
  Imperfect-Information Games via Discounted Regret Minimization", AAAI 2019): discount
  (t-1)/t.
* ``discounted`` (alpha, beta, gamma): positive regrets are multiplied by
  ``s^alpha/(s^alpha+1)``, negative ones by ``s^beta/(s^beta+1)`` with s = t-1, and the
  average's weights grow like t^gamma: discount ((t-1)/t)^gamma (Brown & Sandholm 2019,
  DCFR; defaults :data:`DISCOUNTS`: 1.5, 0, 2).
* ``greedy``: the weight w of iteration t minimises the potential of the new average regret
  (Zhang, Lerer & Brown, "Equilibrium Finding in Normal-Form Games Via Greedy Regret
  Minimization", AAAI 2022, Algorithm 1), see :func:`greedy_lambda`.

RM+ (Tammelin 2014) weights regrets uniformly but the average linearly, hence the separate
``average`` scheme of :func:`averaging_step`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, get_type_hints

import numpy as np

WEIGHTINGS = ("uniform", "linear", "discounted", "greedy")
# the discounted scheme's parameters and their defaults (DCFR's), said once: both families'
# configs take them from here, the solver panel shows them, presets.check_finite checks them
DISCOUNTS = {"alpha": 1.5, "beta": 0.0, "gamma": 2.0}
AVERAGINGS = ("uniform", "linear", "quadratic")
# every scheme name once, and their indexes: the compiled kernels take a scheme as its index
# (numba types a string argument through its slow path on every call, ~10 us, and string
# comparisons inside a kernel cost seconds of compiling) and call the ``*_of`` functions
SCHEMES = tuple(dict.fromkeys(WEIGHTINGS + AVERAGINGS))
UNIFORM, LINEAR, DISCOUNTED, GREEDY, QUADRATIC = (
    SCHEMES.index(name) for name in ("uniform", "linear", "discounted", "greedy", "quadratic")
)


@dataclass(frozen=True)
class Step:
    """The discount and coefficient of one iteration (floats, or device scalars for greedy)."""

    d_pos: Any
    d_neg: Any
    c: Any
    d_avg: Any
    c_avg: Any


def regret_discounts_of(scheme: int, t: int, alpha: float, beta: float) -> tuple[float, float]:
    """``(d_pos, d_neg)`` applied to the guiding regrets before adding iteration ``t``, under
    the scheme ``SCHEMES[scheme]`` (DCFR's: Brown & Sandholm 2019)."""
    if scheme == UNIFORM or scheme == GREEDY or t <= 1:
        return 1.0, 1.0
    if scheme == LINEAR:
        d = (t - 1) / t
        return d, d
    # discounted: DCFR applies s^a/(s^a+1) after iteration s. For a > 0 that is computed as
    # 1/(1+s^-a): s^a overflows at large s (s > 1.5e6 for a = 50: inf/inf = NaN) where
    # s^-a only underflows to 0. Either way only powers <= 1 are formed (s >= 1).
    s = float(t - 1)
    d_pos = 1.0 / (1.0 + s**-alpha) if alpha >= 0 else s**alpha / (s**alpha + 1.0)
    d_neg = 1.0 / (1.0 + s**-beta) if beta >= 0 else s**beta / (s**beta + 1.0)
    return d_pos, d_neg


def averaging_step_of(scheme: int, t: int, gamma: float) -> tuple[float, float]:
    """``(d_avg, c_avg)`` of iteration ``t`` under ``SCHEMES[scheme]``: weights ~ 1, t, t^2 or
    t^gamma.

    Iteration s gets weight ``w_s ~ s^e`` when history is multiplied by
    ``((t-1)/t)^e`` and iteration t added with weight 1. For ``e < 0`` (weights shrinking
    with t) that factor exceeds 1 and the sums grow like ``t^|e|`` (overflow within 10^8
    iterations for e < -38); both factors are then divided by it, so that neither exceeds 1
    and the weight sum stays at most t: the same ratios, the same average.
    """
    if t <= 1 or scheme == UNIFORM or scheme == GREEDY:
        return 1.0, 1.0
    exponent = 1.0 if scheme == LINEAR else 2.0 if scheme == QUADRATIC else gamma
    if exponent >= 0:
        return ((t - 1) / t) ** exponent, 1.0
    return 1.0, ((t - 1) / t) ** -exponent


def schedule_fields(kind: type, config: Any, derived: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a family's kernel ``Schedule`` (a NamedTuple ``kind``) for ``config``:
    each from ``derived`` or else the config's attribute of that name, converted to its
    declared type (an ``alpha`` of 2 is 2.0, so every run shares the compiled signatures); the
    weighting and averaging schemes as their indexes in :data:`SCHEMES`."""
    values = {
        "weighting": SCHEMES.index(config.weighting),
        "averaging": SCHEMES.index(config.averaging or config.weighting),
        **derived,
    }
    types = _field_types(kind)
    return {
        name: cast(values[name] if name in values else getattr(config, name)) for name, cast in types.items()
    }


@functools.cache
def _field_types(kind: type) -> dict[str, Any]:
    return get_type_hints(kind)


def step_of(schedule: Any, t: int) -> Step:
    """The step of iteration ``t`` (1-based) of a fixed (non-greedy) schedule: ``schedule`` is
    a family's kernel ``Schedule`` (its ``weighting`` and ``averaging`` scheme indexes,
    ``alpha``, ``beta``, ``gamma``), so the array code, the GPU's launches and the step
    explanations read the same numbers as the compiled kernels."""
    d_pos, d_neg = regret_discounts_of(schedule.weighting, t, schedule.alpha, schedule.beta)
    d_avg, c_avg = averaging_step_of(schedule.averaging, t, schedule.gamma)
    return Step(d_pos, d_neg, 1.0, d_avg, c_avg)


def inertia_at(inertia: float, t: int, scheme: str) -> float:
    """The inertia of sampled internal regret matching at iteration ``t``, on the scale of the
    guiding regrets: they weigh t iterations in all (uniform weights) except with greedy
    weights, which keep their weight sum at 1, so there the inertia is ``inertia / t``.

    Hart & Mas-Colell's switching rule adds the inertia to regrets of a fixed scale; applied
    to greedy's average regrets, the person's inertia was t times stronger than with
    internal RM's cumulative regrets, play stayed put 90-99% of the time, and greedy internal
    RM lost to internal RM (docs/algorithms.md). Zhang, Lerer & Brown 2022 (Algorithm 1 and
    the proof of Theorem 1) accumulate regrets with weights scaled to sum to t.
    """
    return inertia_at_of(inertia, t, SCHEMES.index(scheme))


def inertia_at_of(inertia: float, t: int, scheme: int) -> float:
    """:func:`inertia_at` of the scheme ``SCHEMES[scheme]``."""
    return inertia / t if scheme == GREEDY else inertia


def greedy_lambda(x: Any, r: Any, lam_max: float, lam_tie: float, xp: ModuleType) -> Any:
    """The exact minimiser over ``[0, lam_max]`` of ``g(lam) = sum_k [lam x_k + (1-lam) r_k]_+^2``.

    Greedy weights (Zhang, Lerer & Brown 2022, Algorithm 1) choose the weight w of a new
    iterate with instantaneous regrets ``r`` to minimise the potential
    ``phi((R + w r) / (W + w))``. Writing ``x = R/W`` and ``lam = W/(W+w)``, the new average
    regret is ``lam x + (1-lam) r``, so ``g`` is convex and piecewise quadratic in ``lam``
    with breakpoints ``lam_k = -r_k/d_k``, ``d_k = x_k - r_k`` ("exact line search over its
    breakpoints", O(K log K)). The minimiser does not change when ``x`` and ``r`` are
    multiplied by the same positive factor (``g`` is multiplied by its square), so they are
    divided by their largest magnitude first: the result is the same for payoffs of any
    magnitude. ``lam = 0`` is an infinite weight (history forgotten);
    ``lam_max < 1`` is the weight floor. Among several minimisers (flat ``g``) the one
    nearest ``lam_tie`` is returned (the uniform weight).

    With ``s(lam) = sum over active k of d_k^2`` and ``q(lam) = sum of d_k r_k``,
    ``g'(lam)/2 = s lam + q``, linear between breakpoints.
    """
    return greedy_lambda_for(xp)(x, r, lam_max, lam_tie)


@functools.cache
def greedy_lambda_for(xp: ModuleType) -> Callable[[Any, Any, float, float], Any]:
    """:func:`greedy_lambda` bound to one array module.

    The body uses only what NumPy, CuPy and numba's nopython mode all support and has no
    branch on array values, so the same source runs on the GPU without a host
    synchronisation. The compiled kernels run :func:`greedy_lambda_scan`, the same search
    as scalar loops (~20 array calls with temporaries cost 27 RM iterations on a 3x3 game).
    """

    # ties in index order, as the compiled scan (CuPy's sort is stable and takes no ``kind``)
    argsort = functools.partial(np.argsort, kind="stable") if xp is np else xp.argsort

    def search(x: Any, r: Any, lam_max: float, lam_tie: float) -> Any:
        # g(lam) scales with the square of (x, r) and its minimiser not at all: divide both
        # by their largest magnitude so the squares below neither overflow (|x| > 1e154)
        # nor underflow (|x| < 1e-154) nor meet the absolute 1e-300 of `tol`
        top = xp.maximum(xp.max(xp.abs(x)), xp.max(xp.abs(r)))
        top = top + (top == 0.0)  # all zero: any positive divisor
        x, r = x / top, r / top
        d = x - r
        d2, dr = d * d, d * r
        rising, falling = d > 0, d < 0  # active for lam > bp, respectively lam < bp
        bp = -r / xp.where(d != 0, d, 1.0)
        inside = xp.where((d != 0) & (bp > 0) & (bp < lam_max), bp, 0.0)
        candidates = xp.sort(xp.concatenate((inside, xp.array([0.0, lam_max]))))

        # the order of the sums (the compiled scan's, to the bit): terms active on all of
        # [0, lam_max] first, rising ones in index order (key -inf), falling ones in reverse
        # index order (key +inf, descending); then the others by breakpoint, ties by index
        bp_rise = xp.where(rising, xp.where(bp < 0, -xp.inf, bp), xp.inf)
        order = argsort(bp_rise)
        bp_rise = bp_rise[order]
        zero = xp.zeros(1)
        # prefix sums over rising terms (sorted by breakpoint), suffix sums over falling ones
        rise_d2 = xp.concatenate((zero, xp.cumsum(xp.where(rising, d2, 0.0)[order])))
        rise_dr = xp.concatenate((zero, xp.cumsum(xp.where(rising, dr, 0.0)[order])))
        bp_fall = xp.where(falling, xp.where(bp > lam_max, xp.inf, bp), -xp.inf)
        order = argsort(bp_fall)[::-1]
        bp_fall = bp_fall[order]  # descending
        fall_d2 = xp.concatenate((zero, xp.cumsum(xp.where(falling, d2, 0.0)[order])))
        fall_dr = xp.concatenate((zero, xp.cumsum(xp.where(falling, dr, 0.0)[order])))
        descending = -bp_fall

        def slope_parts(lam: Any) -> tuple[Any, Any]:
            n_rise = xp.searchsorted(bp_rise, lam, side="left")  # rising with bp < lam
            n_fall = xp.searchsorted(descending, -lam, side="left")  # falling with bp > lam
            return rise_d2[n_rise] + fall_d2[n_fall], rise_dr[n_rise] + fall_dr[n_fall]

        s_at, q_at = slope_parts(candidates)
        gprime = s_at * candidates + q_at
        tol = 1e-12 * (xp.max(xp.abs(q_at)) + xp.max(s_at) + 1e-300)
        s_mid, q_mid = slope_parts((candidates[:-1] + candidates[1:]) / 2)  # per segment

        def first_root(crossed: Any) -> Any:
            """Where ``g'`` first satisfies ``crossed``, solved inside its linear segment."""
            j = xp.argmax(crossed)  # first candidate where it holds (0 if none)
            k = xp.maximum(j - 1, 0)  # the segment [candidates[k], candidates[j]]
            s, q = s_mid[k], q_mid[k]
            root = xp.minimum(xp.maximum(-q / xp.where(s > 0, s, 1.0), candidates[k]), candidates[j])
            root = xp.where(s > 0, root, candidates[j])
            root = xp.where(j == 0, candidates[0], root)
            return xp.where(xp.any(crossed), root, candidates[-1])

        lower = first_root(gprime >= -tol)
        upper = first_root(gprime > tol)
        return xp.minimum(xp.maximum(lam_tie, lower), upper)

    return search


def greedy_bounds(t: int, floor: float) -> tuple[float, float]:
    """``(lam_max, lam_tie)`` at iteration ``t >= 2``: the weight floor (a fraction of the
    average weight so far) and the uniform weight, in ``lam = W/(W+w)`` terms."""
    return 1.0 / (1.0 + floor / (t - 1)), (t - 1) / t


def greedy_step(x: Any, r: Any, weight_sum: Any, t: int, floor: float, xp: ModuleType) -> tuple[Step, Any]:
    """The greedy step at iteration ``t`` for current average regret ``x`` and new regret ``r``.

    ``floor`` is the weight floor as a fraction of the average weight so far (the paper's
    ``w_sum/(2t)`` is ``floor=0.5``). The step keeps the weight sum at 1 after the first
    iteration: history is scaled by ``lam`` and the new iterate gets ``(1-lam) W``, which is
    the paper's "discount all previous iterations by 1/w" rescaling taken every time.

    Returns the step and ``lam`` (for display: the new iterate's share of the average is 1-lam).
    """
    if t <= 1:
        one = xp.asarray(1.0)
        return Step(one, one, one, one, one), xp.asarray(0.0)
    lam = greedy_lambda(x, r, *greedy_bounds(t, floor), xp)
    c = (1.0 - lam) * weight_sum
    return Step(lam, lam, c, lam, c), lam
