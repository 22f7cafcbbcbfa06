"""A compiled inner loop for the interactive case: two players, expected play, CPU.

Small matrix games (RPS, 2x2 teaching games, up to a few hundred actions) spend nearly all
of a NumPy iteration in interpreter overhead: ~20 array calls of ~1 us each on 3 numbers.
This kernel runs ``n`` iterations of exactly the update of :mod:`.regret_minimizer` in one
numba-compiled loop (no allocation per iteration, the GIL released), so a tiny game runs at
millions of iterations per second. ``tests/solvers/test_compiled.py`` checks that it
produces the same iterates as the generic array code for every supported configuration.

Supported: external regret; RM, RM+, predictive; uniform, linear and discounted
weighting with any averaging; simultaneous or alternating updates; fixed players; CE and
joint-distribution tracking. Greedy weights, internal regret, sampled play, more than two
players and the GPU use the generic array code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rmviz.solvers import weighting

if TYPE_CHECKING:
    from rmviz.solvers.regret_minimizer import RegretMinimizer

try:
    import numba
except ImportError:  # numba is a dependency, but the engine still runs without it
    numba = None

# Up to this many payoff entries the products are written as loops (no call, no
# allocation); above it the kernel calls BLAS, which reads large matrices at full bandwidth.
LOOP_MAX_ENTRIES = 32 * 32


def eligible(solver: RegretMinimizer) -> bool:
    """True when ``solver`` can run in the compiled kernel."""
    config, game = solver.config, solver.game
    return (
        numba is not None
        and not solver.backend.is_gpu
        and game.n_players == 2
        and config.play == "expected"
        and config.regret == "external"
        and config.weighting != "greedy"
    )


class Kernel:
    """Runs a :class:`RegretMinimizer`'s iterations in the compiled loop, in place."""

    def run(self, solver: RegretMinimizer, iterations: int) -> None:
        config = solver.config
        s = solver
        state = [
            np.ascontiguousarray(a, dtype=np.float64)
            for a in (*s.current, *s.regret, *s.prediction, *s.strategy_sum, *s.external_regret)
        ]
        internal = s.internal_regret or [np.zeros((1, 1)), np.zeros((1, 1))]
        internal = [np.ascontiguousarray(a, dtype=np.float64) for a in internal]
        joint = np.ascontiguousarray(
            s.joint if s.joint is not None else np.zeros((1, 1)), dtype=np.float64
        )
        payoff_sum = np.array(s.payoff_sum, dtype=np.float64)
        weight_sum = np.array([float(s.weight_sum)])
        _run(
            s.payoffs[0],
            s.payoffs[1],
            *state,
            internal[0],
            internal[1],
            payoff_sum,
            weight_sum,
            joint,
            0 not in s.fixed,
            1 not in s.fixed,
            config.plus,
            config.predictive,
            config.updates == "alternating",
            s.internal_regret is not None,
            s.joint is not None,
            config.weighting,
            config.averaging or config.weighting,
            config.alpha,
            config.beta,
            config.gamma,
            s.iteration,
            iterations,
        )
        (
            s.current[0],
            s.current[1],
            s.regret[0],
            s.regret[1],
            s.prediction[0],
            s.prediction[1],
            s.strategy_sum[0],
            s.strategy_sum[1],
            s.external_regret[0],
            s.external_regret[1],
        ) = state
        if s.internal_regret is not None:
            s.internal_regret[0], s.internal_regret[1] = internal
        if s.joint is not None:
            s.joint = joint
        s.payoff_sum = payoff_sum
        s.weight_sum = np.asarray(weight_sum[0])
        s.iteration += iterations


def kernel_for(solver: RegretMinimizer) -> Kernel | None:
    """The compiled kernel when ``solver`` is eligible, else ``None``."""
    return Kernel() if eligible(solver) else None


def _identity(function: Any) -> Any:
    return function


_jit = numba.njit(cache=True, nogil=True) if numba is not None else _identity
_regret_discounts = _jit(weighting.regret_discounts)
_averaging_discount = _jit(weighting.averaging_discount)


@_jit
def _regret_matching(regret: Any, prediction: Any, predictive: bool, out: Any) -> None:
    """``out = [R + m]_+ / sum``, uniform if nothing is positive (as :func:`regret_matching`)."""
    total = 0.0
    for k in range(regret.shape[0]):
        guide = regret[k] + prediction[k] if predictive else regret[k]
        positive = guide if guide > 0.0 else 0.0
        out[k] = positive
        total += positive
    for k in range(out.shape[0]):
        out[k] = out[k] / total if total > 0.0 else 1.0 / out.shape[0]


@_jit
def _update(
    regret: Any,
    prediction: Any,
    instant: Any,
    d_pos: float,
    d_neg: float,
    plus: bool,
    predictive: bool,
    current: Any,
) -> None:
    """Guiding regrets, prediction and next strategy of one learner (uniform step: c = 1)."""
    for k in range(regret.shape[0]):
        value = (d_pos if regret[k] > 0.0 else d_neg) * regret[k] + instant[k]
        regret[k] = max(value, 0.0) if plus else value
        if predictive:
            prediction[k] = instant[k]
    _regret_matching(regret, prediction, predictive, current)


@_jit
def _utilities_row(payoff: Any, column_strategy: Any, out: Any) -> None:
    """``out = payoff @ y``."""
    rows, columns = payoff.shape
    if rows * columns > LOOP_MAX_ENTRIES:
        out[:] = np.dot(payoff, column_strategy)
        return
    for a in range(rows):
        total = 0.0
        for b in range(columns):
            total += payoff[a, b] * column_strategy[b]
        out[a] = total


@_jit
def _utilities_column(row_strategy: Any, payoff: Any, out: Any) -> None:
    """``out = x @ payoff``."""
    rows, columns = payoff.shape
    if rows * columns > LOOP_MAX_ENTRIES:
        out[:] = np.dot(row_strategy, payoff)
        return
    out[:] = 0.0
    for a in range(rows):
        weight = row_strategy[a]
        for b in range(columns):
            out[b] += weight * payoff[a, b]


@_jit
def _accumulate_player(
    d: float,
    strategy_sum: Any,
    external: Any,
    internal: Any,
    track_ce: bool,
    played: Any,
    utilities: Any,
    value: float,
) -> None:
    for k in range(played.shape[0]):
        strategy_sum[k] = d * strategy_sum[k] + played[k]
        external[k] = d * external[k] + (utilities[k] - value)
    if track_ce:
        for b in range(played.shape[0]):
            for a in range(played.shape[0]):
                internal[b, a] = d * internal[b, a] + played[b] * (utilities[a] - utilities[b])


@_jit
def _run(
    payoff0,
    payoff1,
    current0,
    current1,
    regret0,
    regret1,
    prediction0,
    prediction1,
    strategy_sum0,
    strategy_sum1,
    external0,
    external1,
    internal0,
    internal1,
    payoff_sum,
    weight_sum,
    joint,
    learn0,
    learn1,
    plus,
    predictive,
    alternating,
    track_ce,
    track_joint,
    weighting_scheme,
    averaging_scheme,
    alpha,
    beta,
    gamma,
    t0,
    iterations,
):  # pragma: no cover
    rows, columns = payoff0.shape
    utilities0, utilities1 = np.empty(rows), np.empty(columns)
    own1 = np.empty(columns)
    played0, played1 = np.empty(rows), np.empty(columns)
    instant0, instant1 = np.empty(rows), np.empty(columns)
    for step in range(iterations):
        t = t0 + step + 1
        d_pos, d_neg = _regret_discounts(weighting_scheme, t, alpha, beta)
        d_avg = _averaging_discount(averaging_scheme, t, gamma)
        _utilities_row(payoff0, current1, utilities0)
        _utilities_column(current0, payoff1, utilities1)
        value0 = 0.0
        for a in range(rows):
            value0 += utilities0[a] * current0[a]
            played0[a] = current0[a]
        value1 = 0.0
        for b in range(columns):
            value1 += utilities1[b] * current1[b]
            played1[b] = current1[b]
        start_value1 = value1
        for a in range(rows):
            instant0[a] = utilities0[a] - value0
        for b in range(columns):
            instant1[b] = utilities1[b] - value1
            own1[b] = utilities1[b]
        if learn0:
            _update(regret0, prediction0, instant0, d_pos, d_neg, plus, predictive, current0)
        if learn1:
            if alternating and learn0:  # player 2 answers player 1's new strategy
                _utilities_column(current0, payoff1, own1)
                value1 = 0.0
                for b in range(columns):
                    value1 += own1[b] * current1[b]
                for b in range(columns):
                    instant1[b] = own1[b] - value1
            _update(regret1, prediction1, instant1, d_pos, d_neg, plus, predictive, current1)
        _accumulate_player(
            d_avg, strategy_sum0, external0, internal0, track_ce, played0, utilities0, value0
        )
        _accumulate_player(
            d_avg, strategy_sum1, external1, internal1, track_ce, played1, own1, value1
        )
        payoff_sum[0] = d_avg * payoff_sum[0] + value0
        payoff_sum[1] = d_avg * payoff_sum[1] + start_value1
        if track_joint:
            for a in range(rows):
                for b in range(columns):
                    joint[a, b] = d_avg * joint[a, b] + played0[a] * played1[b]
        weight_sum[0] = d_avg * weight_sum[0] + 1.0
