"""Compiled inner loops (numba) for the CPU: the same iterations as the generic array code.

A NumPy iteration on a small game is ~20-200 array calls of ~1 us each on a handful of
numbers: interpreter overhead, not arithmetic. These kernels run ``n`` iterations of exactly
the update of :mod:`.solver` in one compiled loop with no allocation per iteration
and the GIL released:

* :func:`_run_bimatrix_expected` (:class:`BimatrixExpectedKernel`): two players, expected
  play, external regret (RM, RM+, predictive; uniform, linear, discounted or greedy
  weights; simultaneous or alternating; CE and joint tracking). Products are loops for
  small matrices (``P_0 y`` reads ``P_0^T``: the rows' index-order sums side by side) and,
  above ``LOOP_MAX_ENTRIES``, the single-pass products of :mod:`.products` (both players'
  utilities from one read of each payoff entry; a zero-sum game's stored ``P_1 = -P_0`` is
  not read; float32 matrices on request), where the joint's terms are also added 64 at a
  time (:mod:`.joint`).
* :func:`_run_profiles` (:class:`ProfileKernel`): any number of players, one action profile
  at a time: sampled play with external or internal regret, every rule, weighting and
  schedule; and expected play with three or more players and external regrets. Sampled
  play consumes the same NumPy random stream as the generic code (drawn in advance), so
  both produce the same iterates.

The schedules (:func:`.weighting.regret_discounts_of`, :func:`.weighting.averaging_step_of`)
and the greedy line search (:func:`.greedy_scan.greedy_lambda_scan`, the loop form of
:func:`.weighting.greedy_lambda`) are the very functions of :mod:`.weighting`, compiled;
``tests/solvers/matrix/test_kernels.py`` checks every configuration against the generic
code. Internal regret with expected play (a least-squares stationary distribution per
iteration) and the GPU use the generic code. Each kernel takes three bundles: the game's
arrays (:class:`BimatrixArrays`, :class:`ProfileArrays`), the state's (:class:`BimatrixState`,
:class:`ProfileState`) and the :class:`Schedule` built once from the config.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers import greedy_scan, regret_matching, weighting
from rmviz.solvers.jit import AVAILABLE, jit, jit_reassociating
from rmviz.solvers.matrix.config import MatrixConfig
from rmviz.solvers.matrix.joint import record as record_joint
from rmviz.solvers.matrix.metrics import ORDERED_MAX_ENTRIES
from rmviz.solvers.matrix.products import column_product, exactly_zero_sum, fused_products, row_product
from rmviz.solvers.matrix.state import MatrixState
from rmviz.solvers.regret_matching import TIE_TOLERANCE, strategy_map_of
from rmviz.solvers.stationary import chain_bits, stationary_distribution
from rmviz.solvers.weighting import Step

# Up to this many payoff entries the two-player products are plain loops (the matrices sit
# in L1, and the loops sum in the generic code's order: metrics.ORDERED_MAX_ENTRIES, the
# summation rule); above it the single-pass products.
LOOP_MAX_ENTRIES = ORDERED_MAX_ENTRIES
# Expected play with three or more players (and internal RM) runs in the profile kernel
# (axis-by-axis contraction, :func:`_expected_at`) up to this many profiles; above it the
# generic code (tensordot). Measured against the generic code's tensordot, side by side on
# the loaded 2-core machine: 10x10x10 162x, 30x30x30 15.5x, 50x50x50 6.8x, 100x100x100
# 2.7x, 20^4 4.4x (before the contraction's inner loops ran over contiguous entries:
# 30x30x30 4.7x, 50x50x50 2.1x, 100x100x100 0.68x, hence the former limit of 200,000).
# The limit bounds the kernel's two work buffers (16 bytes a profile).
PROFILE_LOOP_MAX_ENTRIES = 10_000_000
# the weighting and averaging schemes: Schedule holds each as its index here
SCHEMES = weighting.SCHEMES


class Schedule(NamedTuple):
    """What a :class:`MatrixConfig` asks of the compiled kernels, built once per run
    (:meth:`of`): strings become integers (numba types a string through its slow path, ~18 us
    of a ``step(1)`` call) and the numbers keep one type (an ``alpha`` of 2 is 2.0), so every
    run shares the kernels' compiled signatures. A field named as the config's is read from it
    by name: a new parameter is a field of the config, a field here and its use in a kernel.
    The generic array code (:mod:`.solver`) and the GPU (:mod:`.device`) read it too."""

    plus: bool
    predictive: bool
    strategy_map: int  # regret_matching.strategy_map_of(config.rule, config.regulariser)
    anytime: bool  # config.step_size is None: FTRL's eta_t ~ 1/sqrt(t)
    alternating: bool  # config.updates == "alternating"
    internal: bool  # config.regret == "internal"
    expected: bool  # config.play == "expected"
    weighting: int  # index in weighting.SCHEMES
    averaging: int  # of config.averaging, or the weighting when None
    alpha: float
    beta: float
    gamma: float
    greedy_floor: float  # resolved: the solver's default where the config leaves it None
    inertia: float  # resolved, in the payoffs' units (the solver's)

    @classmethod
    def of(cls, config: MatrixConfig, greedy_floor: float = 0.0, inertia: float = 0.0) -> Schedule:
        derived = {
            "strategy_map": strategy_map_of(config.rule, config.regulariser),
            "anytime": config.step_size is None,
            "alternating": config.updates == "alternating",
            "internal": config.regret == "internal",
            "expected": config.play == "expected",
            "greedy_floor": greedy_floor,
            "inertia": inertia,
        }
        return cls(**weighting.schedule_fields(cls, config, derived))

    def step(self, t: int) -> Step:
        """The step of iteration ``t`` of a fixed schedule (:func:`.weighting.step_of`)."""
        return weighting.step_of(self, t)


class BimatrixArrays(NamedTuple):
    """What :func:`_run_bimatrix_expected` reads of a two-player game, gathered once: the
    matrices (``payoff1`` is ``payoff0`` with ``sign1 = -1`` in an exactly zero-sum game read
    by the single-pass products), which players learn and the products' work vectors."""

    payoff0: np.ndarray  # P_0, or P_0^T where not fused (the small loop: _row_utilities)
    payoff1: np.ndarray
    sign1: float
    fused: bool  # single-pass products (float32 or above LOOP_MAX_ENTRIES)
    learn0: bool
    learn1: bool
    rates: np.ndarray  # (2,) FTRL's base rates (the solver's ``rates``)
    bounds: np.ndarray  # (2,) each player's largest |u|: the tie rule's scale (tie_bounds)
    work_x: np.ndarray  # (rows,) in the matrices' dtype
    work_y: np.ndarray  # (columns,)
    work_rows: np.ndarray  # (rows,)
    work_columns: np.ndarray  # (columns,)


class BimatrixState(NamedTuple):
    """A two-player :class:`MatrixState` as :func:`_run_bimatrix_expected` updates it in
    place: each player's vectors, the joint distribution and its buffered terms (``(1, 1)``
    placeholders when not kept; the CE gap is read off the joint: ``metrics.joint_incentives``),
    and the weight sum and last greedy weight boxed in arrays of one element."""

    current0: np.ndarray
    current1: np.ndarray
    regret0: np.ndarray
    regret1: np.ndarray
    prediction0: np.ndarray
    prediction1: np.ndarray
    strategy_sum0: np.ndarray
    strategy_sum1: np.ndarray
    external0: np.ndarray
    external1: np.ndarray
    payoff_sum: np.ndarray  # (2,)
    weight_sum: np.ndarray  # (1,)
    joint: np.ndarray
    joint_rows: np.ndarray  # the joint's buffered terms (joint.py), else (1, 1)
    joint_columns: np.ndarray
    joint_pending: np.ndarray  # (2,)
    last_lambda: np.ndarray  # (1,)
    track_joint: bool
    buffer_joint: bool  # the state holds joint_terms: the joint is added BUFFER terms at a time


class ProfileArrays(NamedTuple):
    """What :func:`_run_profiles` reads of a game, gathered once: the payoff tensors, flat
    ``(n, prod |A_j|)``, the action counts, the element strides and which players learn."""

    flat: np.ndarray
    num_actions: np.ndarray  # (n,) int64
    strides: np.ndarray  # (n,) int64
    learners: np.ndarray  # (n,) bool
    rates: np.ndarray  # (n,) FTRL's base rates (the solver's ``rates``)
    bounds: np.ndarray  # (n,) each player's largest |u|: the tie rule's scale (tie_bounds)


class ProfileState(NamedTuple):
    """A :class:`MatrixState` as :func:`_run_profiles` updates it in place, per-player arrays
    padded to ``(n, max |A_i|[, max |A_i|])`` (external regrets as ``(n, width, 1)`` views),
    the totals as in :class:`BimatrixState`."""

    current: np.ndarray
    regret: np.ndarray
    prediction: np.ndarray
    strategy_sum: np.ndarray
    external: np.ndarray
    accumulated: np.ndarray
    payoff_sum: np.ndarray  # (n,)
    weight_sum: np.ndarray  # (1,)
    joint: np.ndarray
    last_lambda: np.ndarray  # (1,)
    track_ce: bool
    track_joint: bool


def kernel_for(
    game: NormalFormGame,
    payoffs: np.ndarray,
    config: MatrixConfig,
    learners: Sequence[int],
    schedule: Schedule,
    rates: Sequence[float],
) -> BimatrixExpectedKernel | ProfileKernel | None:
    """The compiled kernel that can run this solver's iterations on the CPU, or ``None``
    (generic code)."""
    if not AVAILABLE:
        return None
    constants = KernelConstants(game, payoffs, config, tuple(learners), schedule, rates)
    if config.play == "sampled":
        return ProfileKernel(constants)
    if game.n_players == 2 and config.regret == "external":
        return BimatrixExpectedKernel(constants)
    if game.payoffs[0].size <= PROFILE_LOOP_MAX_ENTRIES:
        return ProfileKernel(constants)  # its expected-play branch (internal RM: stationary.py)
    return None


def tie_bounds(payoffs: np.ndarray) -> np.ndarray:
    """Each player's largest ``|u|`` ``(n,)`` (the solver's units): the tie rule's scale
    ``max(bound, max_a |U(a)|)`` (:func:`~rmviz.solvers.regret_matching.snap_ties`). ``|U(a)|``
    never exceeds it, but where every ``U(a)`` is 0 in exact arithmetic (a cyclic game's rows
    summing to 0 against uniform play: -3/3 + 2/3 + 1/3) ``max |U|`` alone is rounding noise,
    and regrets of 5e-17 drove regret matching to a pure strategy. The tree family's rule with
    the counterfactual reach 1 (:func:`~rmviz.solvers.tree.compiled_tree.tie_scale`)."""
    n = payoffs.shape[0]
    return np.abs(payoffs.reshape(n, -1)).max(axis=1, initial=0.0).astype(np.float64)


class KernelConstants:
    """What a kernel needs besides the state: the game, the payoffs the solver runs on (the
    game's divided by its payoff scale), the config, the learning players and the
    :class:`Schedule` (with the solver's resolved greedy weight floor and inertia) and FTRL's
    base rate of each player."""

    def __init__(
        self,
        game: NormalFormGame,
        payoffs: np.ndarray,
        config: MatrixConfig,
        learners: tuple[int, ...],
        schedule: Schedule,
        rates: Sequence[float],
    ) -> None:
        self.game, self.config, self.learners, self.schedule = game, config, learners, schedule
        self.rates = np.array(rates, dtype=np.float64)
        self.payoffs = read_only(np.ascontiguousarray(payoffs, dtype=np.float64))
        self.bounds = tie_bounds(self.payoffs)
        shape = game.num_actions
        self.strides = np.cumprod((1, *shape[::-1]))[:-1][::-1].astype(np.int64)


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view of ``array``: what the kernels get for every payoff array they read.

    numba compiles a kernel once per argument type, and an array's writeable flag is part of
    its type: a game's own (read-only) payoffs and a rescaled (writable) copy would otherwise
    compile every kernel twice (~20 s each for the two large ones)."""
    view = array.view()
    view.flags.writeable = False
    return view


def _float_arrays(arrays: Any) -> list[np.ndarray]:
    return [np.ascontiguousarray(a, dtype=np.float64) for a in arrays]


def _store_totals(
    s: MatrixState,
    payoff_sum: np.ndarray,
    weight_sum: np.ndarray,
    last_lambda: np.ndarray,
    iterations: int,
) -> None:
    """Write the kernel's scalar totals back into the state."""
    s.payoff_sum = payoff_sum
    s.weight_sum = np.asarray(weight_sum[0])
    s.last_lambda = np.asarray(last_lambda[0])
    s.iteration += iterations


class BimatrixExpectedKernel:
    """Two players, expected play, external regret: :func:`_run_bimatrix_expected`, in place.

    Above ``LOOP_MAX_ENTRIES`` payoff entries, and always in float32, the products are the
    single-pass ones of :mod:`.products`: each matrix read once per iteration, and a zero-sum
    game's ``P_1 = -P_0`` (when exactly so) never read at all. ``MatrixConfig.dtype`` =
    ``"float32"`` keeps a float32 copy of the matrices the kernel reads. The game's and the
    schedule's bundles travel as plain tuples, which numba's dispatcher types in C (a
    NamedTuple is typed in Python, ~1 us more per call), and the kernel names them again.
    """

    def __init__(self, constants: KernelConstants) -> None:
        self.k = constants
        payoffs = constants.payoffs
        dtype = np.float32 if constants.config.dtype == "float32" else np.float64
        self.fused = dtype == np.float32 or payoffs[0].size > LOOP_MAX_ENTRIES
        # the small loop reads P_0 transposed (_row_utilities); the single-pass products P_0
        self.matrix0 = read_only(
            np.ascontiguousarray(payoffs[0] if self.fused else payoffs[0].T, dtype=dtype)
        )
        if self.fused and exactly_zero_sum(payoffs):
            self.matrix1, self.sign1 = self.matrix0, -1.0
        else:
            self.matrix1, self.sign1 = read_only(np.ascontiguousarray(payoffs[1], dtype=dtype)), 1.0
        rows, columns = payoffs[0].shape
        work_x, work_y, work_rows, work_columns = (np.empty(n, dtype=dtype) for n in (rows, columns) * 2)
        self.arrays = BimatrixArrays(
            self.matrix0,
            self.matrix1,
            self.sign1,
            self.fused,
            0 in constants.learners,
            1 in constants.learners,
            constants.rates,
            constants.bounds,
            work_x,
            work_y,
            work_rows,
            work_columns,
        )
        self.packed = tuple(self.arrays), tuple(constants.schedule)

    def run(self, s: MatrixState, iterations: int) -> None:
        vectors = _float_arrays((*s.current, *s.regret, *s.prediction, *s.strategy_sum, *s.external_regret))
        joint = _float_arrays([s.joint if s.joint is not None else np.zeros((1, 1))])[0]
        terms = s.joint_terms or (np.zeros((1, 1)), np.zeros((1, 1)), np.zeros(2))
        payoff_sum = np.array(s.payoff_sum, dtype=np.float64)
        weight_sum = np.array([float(s.weight_sum)])
        last_lambda = np.array([float(s.last_lambda)])
        state = (
            *vectors,
            payoff_sum,
            weight_sum,
            joint,
            *terms,
            last_lambda,
            s.joint is not None,
            s.joint_terms is not None,
        )
        arrays, schedule = self.packed
        _run_bimatrix_expected(arrays, state, schedule, s.iteration, iterations)
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
        ) = vectors
        if s.joint is not None:
            s.joint = joint
        _store_totals(s, payoff_sum, weight_sum, last_lambda, iterations)


class ProfileKernel:
    """Any number of players, one action profile at a time: sampled play (external or
    internal regret), and expected play with three or more players and external regrets
    (the payoff tensors contracted axis by axis in the loop, :func:`_expected_at`), which
    otherwise runs in NumPy holding the GIL. Runs :func:`_run_profiles`, in place.

    Per-player arrays of different lengths travel padded to ``max |A_i|``. After a run the
    state holds views of the padded arrays; a next run that finds those very views in the
    state skips the padding (~100 us of a ``step(1)`` call on a 3x4x5 game).
    """

    def __init__(self, constants: KernelConstants) -> None:
        self.k = constants
        self._padded: tuple[np.ndarray, ...] | None = None
        self._views: list[Any] = []
        game, n = constants.game, constants.game.n_players
        learners = np.array([i in constants.learners for i in range(n)])
        shape = np.array(game.num_actions, dtype=np.int64)
        self.arrays = ProfileArrays(
            constants.payoffs.reshape(n, -1),
            shape,
            constants.strides,
            learners,
            constants.rates,
            constants.bounds,
        )
        self.packed = tuple(self.arrays), tuple(constants.schedule)

    def _state_views(self, s: MatrixState) -> list[Any]:
        return [
            *s.current,
            *s.strategy_sum,
            *s.external_regret,
            *s.regret,
            *s.prediction,
            *(s.internal_regret or ()),
        ]

    def run(self, s: MatrixState, iterations: int) -> None:
        k = self.k
        schedule, game = k.schedule, k.game
        n, shape = game.n_players, game.num_actions
        width = max(shape)
        internal_kind = schedule.internal

        def pad(arrays: Any, square: bool = False) -> np.ndarray:
            out = np.zeros((n, width, width) if square else (n, width))
            for i, a in enumerate(arrays):
                index: tuple[Any, ...] = (i, *(slice(0, k) for k in np.shape(a)))
                out[index] = a
            return out

        expected = schedule.expected
        track_ce = s.internal_regret is not None
        views = self._state_views(s)
        if (
            self._padded is not None
            and len(views) == len(self._views)
            and all(a is b for a, b in zip(views, self._views, strict=True))
        ):
            current, strategy_sum, external, regret, prediction, accumulated = self._padded
        else:
            current, strategy_sum, external = (
                pad(s.current),
                pad(s.strategy_sum),
                pad(s.external_regret),
            )
            regret, prediction = pad(s.regret, internal_kind), pad(s.prediction, internal_kind)
            accumulated = pad(s.internal_regret if track_ce else [np.zeros((1, 1))] * n, True)
        joint = _float_arrays([s.joint if s.joint is not None else np.zeros((1, 1))])[0]
        payoff_sum = np.array(s.payoff_sum, dtype=np.float64)
        weight_sum = np.array([float(s.weight_sum)])
        last_lambda = np.array([float(s.last_lambda)])
        evaluations = len(k.learners) if schedule.alternating else 1
        # sampled play: the generic code's random stream, drawn in advance; expected play draws
        # none (an empty array whose first axis still counts the iterations)
        draws = np.empty((iterations, 0, n)) if expected else s.rng.random((iterations, evaluations, n))
        # external regrets travel as (n, width, 1) views: one compiled kernel for both kinds
        depth = slice(None) if internal_kind else np.newaxis
        state = (
            current,
            regret[:, :, depth],
            prediction[:, :, depth],
            strategy_sum,
            external,
            accumulated,
            payoff_sum,
            weight_sum,
            joint,
            last_lambda,
            track_ce,
            s.joint is not None,
        )
        arrays, packed_schedule = self.packed
        _run_profiles(arrays, state, packed_schedule, s.iteration, draws)
        for i, size in enumerate(shape):  # views: the next run finds them and skips the padding
            s.current[i] = current[i, :size]
            s.strategy_sum[i] = strategy_sum[i, :size]
            s.external_regret[i] = external[i, :size]
            s.regret[i] = regret[i, :size, :size] if internal_kind else regret[i, :size]
            s.prediction[i] = prediction[i, :size, :size] if internal_kind else prediction[i, :size]
            if s.internal_regret is not None:
                s.internal_regret[i] = accumulated[i, :size, :size]
        self._padded = (current, strategy_sum, external, regret, prediction, accumulated)
        self._views = self._state_views(s)
        if s.joint is not None:
            s.joint = joint
        _store_totals(s, payoff_sum, weight_sum, last_lambda, iterations)


_regret_discounts = jit(weighting.regret_discounts_of)
_averaging_step = jit(weighting.averaging_step_of)
_greedy_lambda = jit(greedy_scan.greedy_lambda_scan)
_greedy_scratch = jit(greedy_scan.greedy_scratch)
_greedy_bounds = jit(weighting.greedy_bounds)
_inertia_at = jit(weighting.inertia_at_of)
_rate_at = jit(regret_matching.rate_at)


@jit
def _regret_matching(guide: Any, out: Any) -> None:
    """``out = [guide]_+ / sum``, uniform if nothing is positive (as ``regret_matching``)."""
    total = 0.0
    for k in range(guide.shape[0]):
        positive = guide[k] if guide[k] > 0.0 else 0.0
        out[k] = positive
        total += positive
    for k in range(out.shape[0]):
        out[k] = out[k] / total if total > 0.0 else 1.0 / out.shape[0]


_EXP_SERIES = np.array(regret_matching.EXP_SERIES)
_POWERS_OF_TWO = regret_matching.POWERS_OF_TWO


@jit
def _exp_argument(x: float) -> tuple[float, float]:
    """``(k, r)`` with ``x = k ln 2 + r`` (:func:`~rmviz.solvers.regret_matching.exp_nonpositive`)."""
    x = max(x, regret_matching.EXP_FLOOR)  # (below it exp is taken as 0)
    k = np.floor(x * regret_matching.LOG2_E + 0.5)
    return k, (x - k * regret_matching.LN2_HIGH) - k * regret_matching.LN2_LOW


@jit
def _exp_series(r: float) -> float:
    """``exp(r)`` by :data:`~rmviz.solvers.regret_matching.EXP_SERIES` in Horner's order."""
    series = _EXP_SERIES[0]
    for j in range(1, _EXP_SERIES.shape[0]):
        series = series * r + _EXP_SERIES[j]
    return series


@jit
def _strategy_map(strategy_map: int, rate: float, guide: Any, out: Any) -> None:
    """``out`` = the next strategy from ``guide`` by rule ``STRATEGY_MAPS[strategy_map]``, the
    arithmetic of :func:`~rmviz.solvers.regret_matching.next_strategy` in loops (sums in index
    order): regret matching, Hedge, the Euclidean projection (Michelot's rounds), the best
    response (ties within ``TIE_TOLERANCE x max |G|``)."""
    k = guide.shape[0]
    if strategy_map == 0:
        _regret_matching(guide, out)
    elif strategy_map == 1:
        top = guide[0]
        for a in range(k):
            top = max(top, guide[a])
        for a in range(k):  # exp(r) of every entry first: independent lanes, vectorised
            out[a] = _exp_series(_exp_argument(rate * (guide[a] - top))[1])
        total = 0.0
        for a in range(k):
            x = rate * (guide[a] - top)
            power = _POWERS_OF_TWO[int(_exp_argument(x)[0]) + 1022]
            out[a] = 0.0 if x < regret_matching.EXP_FLOOR else out[a] * power
            total += out[a]
        for a in range(k):
            out[a] = out[a] / total
    elif strategy_map == 2:  # regret_matching.euclidean_projection's rounds; out marks S (1.0)
        for a in range(k):
            out[a] = 1.0
        theta = 0.0
        while True:
            total, count = 0.0, 0
            for a in range(k):
                if out[a] > 0.0:
                    total += rate * guide[a]
                    count += 1
            theta = (total - 1.0) / count
            kept = 0
            for a in range(k):
                kept += 1 if out[a] > 0.0 and rate * guide[a] > theta else 0
            if kept == count or kept == 0:  # S stays (or would empty: rounding at a huge v)
                break
            for a in range(k):
                out[a] = 1.0 if out[a] > 0.0 and rate * guide[a] > theta else 0.0
        for a in range(k):
            out[a] = max(rate * guide[a] - theta, 0.0)
    else:
        top, scale = guide[0], 0.0
        for a in range(k):
            top = max(top, guide[a])
            scale = max(scale, abs(guide[a]))
        count = 0
        for a in range(k):
            if guide[a] >= top - TIE_TOLERANCE * scale:
                count += 1
        for a in range(k):
            out[a] = 1.0 / count if guide[a] >= top - TIE_TOLERANCE * scale else 0.0


@jit
def _external_regret(utilities: Any, value: float, bound: float, out: Any) -> None:
    """``out = U - u`` with exact zeros at ties (as ``regret_matching.snap_ties``, scale
    ``max(bound, max |U|)``: :func:`tie_bounds`)."""
    scale = bound
    for a in range(utilities.shape[0]):
        scale = max(scale, abs(utilities[a]))
    for a in range(utilities.shape[0]):
        regret = utilities[a] - value
        out[a] = 0.0 if abs(regret) <= TIE_TOLERANCE * scale else regret


@jit
def _discount_add(regret: Any, instant: Any, d_pos: float, d_neg: float, c: float, plus: bool) -> None:
    """``R <- d_pos R_+ + d_neg R_- + c r``, clipped at 0 for RM+ (flat arrays, in place);
    a sum that cancels is exactly 0 (as ``regret_matching.snap_cancellation``)."""
    for k in range(regret.shape[0]):
        kept = (d_pos if regret[k] > 0.0 else d_neg) * regret[k]
        added = c * instant[k]
        value = kept + added
        if abs(value) <= TIE_TOLERANCE * (abs(kept) + abs(added)):
            value = 0.0
        regret[k] = max(value, 0.0) if plus else value


@jit
def _guide(regret: Any, prediction: Any, instant: Any, c: float, predictive: bool, out: Any) -> None:
    """``out = R + m`` with the new prediction ``m = c r`` (predictive RM), else ``R`` (flat)."""
    for k in range(regret.shape[0]):
        if predictive:
            prediction[k] = c * instant[k]
            out[k] = regret[k] + prediction[k]
        else:
            out[k] = regret[k]


@jit
def _row_utilities(transposed: Any, column_strategy: Any, out: Any) -> None:
    """``out = P y`` from ``transposed = P^T``: every row's sum in index order, the rows side
    by side (a vector of them at a time, where one row's sum is a chain of dependent adds)."""
    columns, rows = transposed.shape
    out[:] = 0.0
    for b in range(columns):
        for a in range(rows):
            out[a] += transposed[b, a] * column_strategy[b]


@jit
def _column_utilities(row_strategy: Any, payoff: Any, out: Any) -> None:
    """``out = x @ payoff``."""
    rows, columns = payoff.shape
    out[:] = 0.0
    for a in range(rows):
        for b in range(columns):
            out[b] += row_strategy[a] * payoff[a, b]


@jit
def _cast(source: Any, out: Any) -> None:
    """``out[:] = source`` in ``out``'s dtype (float32 products read float32 strategies)."""
    for k in range(source.shape[0]):
        out[k] = source[k]


@jit
def _evaluate_rows(
    payoff: Any, column_strategy: Any, out: Any, fused: bool, work_y: Any, work_rows: Any
) -> None:
    """``out = P_0 y``: a single-pass product in the payoffs' dtype, or the small loop (which
    reads ``payoff`` as ``P_0^T``)."""
    if fused:
        _cast(column_strategy, work_y)
        row_product(payoff, work_y, work_rows)
        _cast(work_rows, out)
    else:
        _row_utilities(payoff, column_strategy, out)


@jit
def _evaluate_columns(
    payoff: Any, row_strategy: Any, out: Any, sign: float, fused: bool, work_x: Any, work_columns: Any
) -> None:
    """``out = x P_1`` (``-(x P_0)`` with ``sign = -1`` in a zero-sum game) or the small loop."""
    if fused:
        _cast(row_strategy, work_x)
        column_product(payoff, work_x, work_columns, sign)
        _cast(work_columns, out)
    else:
        _column_utilities(row_strategy, payoff, out)


@jit
def _value_and_scale(utilities: Any, strategy: Any, played: Any, bound: float) -> tuple[float, float]:
    """``u = sum_a pi(a) U(a)`` and the tie scale ``max(bound, max_a |U(a)|)`` in one pass;
    ``played = pi`` (a copy)."""
    value, scale = 0.0, bound
    for a in range(utilities.shape[0]):
        value += utilities[a] * strategy[a]
        scale = max(scale, abs(utilities[a]))
        played[a] = strategy[a]
    return value, scale


@jit
def _snap_regrets(utilities: Any, value: float, scale: float, out: Any) -> None:
    """``out = U - u`` with exact zeros at ties (``_external_regret`` given its scale)."""
    for a in range(utilities.shape[0]):
        regret = utilities[a] - value
        out[a] = 0.0 if abs(regret) <= TIE_TOLERANCE * scale else regret


@jit
def _respond(
    utilities: Any,
    value: float,
    scale: float,
    played: Any,
    strategy_sum: Any,
    external: Any,
    regret: Any,
    prediction: Any,
    current: Any,
    learn: bool,
    d_pos: float,
    d_neg: float,
    c: float,
    d_avg: float,
    c_avg: float,
    plus: bool,
    predictive: bool,
    strategy_map: int,
    rate: float,
    guide_out: Any,
) -> None:
    """One player's whole update of a simultaneous iteration in two passes over its actions,
    the arithmetic of :func:`_external_regret`, :func:`_accumulate_expected`,
    :func:`_discount_add`, :func:`_guide` and :func:`_regret_matching` entry by entry:
    instantaneous regret ``r = U - u`` (ties exact zeros), the averaging-weighted sums,
    ``R <- d R + c r`` (RM+ clipped, cancellations exact zeros), the guide ``R [+ m]`` and its
    positive part; the second pass normalises (uniform when nothing is positive). Another rule
    than regret matching keeps the guide in ``guide_out`` and applies :func:`_strategy_map`."""
    total = 0.0
    tie = TIE_TOLERANCE * scale
    for a in range(utilities.shape[0]):
        instant = utilities[a] - value
        if abs(instant) <= tie:
            instant = 0.0
        strategy_sum[a] = d_avg * strategy_sum[a] + c_avg * played[a]
        external[a] = d_avg * external[a] + c_avg * instant
        if not learn:
            continue
        kept = (d_pos if regret[a] > 0.0 else d_neg) * regret[a]
        added = c * instant
        updated = kept + added
        if abs(updated) <= TIE_TOLERANCE * (abs(kept) + abs(added)):
            updated = 0.0
        updated = max(updated, 0.0) if plus else updated
        regret[a] = updated
        guide = updated
        if predictive:
            prediction[a] = added
            guide = updated + added
        if strategy_map != 0:
            guide_out[a] = guide
            continue
        positive = guide if guide > 0.0 else 0.0
        current[a] = positive
        total += positive
    if learn and strategy_map != 0:
        _strategy_map(strategy_map, rate, guide_out, current)
    elif learn and total > 0.0:  # (the test outside the loop lets the divisions run in vectors)
        for a in range(current.shape[0]):
            current[a] = current[a] / total
    elif learn:
        for a in range(current.shape[0]):
            current[a] = 1.0 / current.shape[0]


@jit
def _accumulate_internal(
    d: float, c: float, internal: Any, played: Any, utilities: Any, scale: float
) -> None:
    """The CE accumulator: ``internal(b, a) <- d internal(b, a) + c pi(b) (U(a) - U(b))``, a tie
    of ``a`` and ``b`` adding exactly 0 (:func:`_mixed_internal_regret`; ``scale`` the tie scale)."""
    tie = TIE_TOLERANCE * scale
    for b in range(played.shape[0]):
        for a in range(played.shape[0]):
            gap = utilities[a] - utilities[b]
            internal[b, a] = d * internal[b, a] + c * (0.0 if abs(gap) <= tie else played[b] * gap)


@jit
def _accumulate_joint(d: float, c: float, joint: Any, played0: Any, played1: Any) -> None:
    """The weighted empirical joint distribution: ``J <- d J + c x y^T``."""
    for a in range(played0.shape[0]):
        for b in range(played1.shape[0]):
            joint[a, b] = d * joint[a, b] + c * (played0[a] * played1[b])


@jit
def _accumulate_expected(
    d: float, c: float, strategy_sum: Any, external: Any, played: Any, instant: Any
) -> None:
    """Averaging-weighted sums of one player: strategy and true external regret (the
    instantaneous regret ``instant``, ties already exact zeros)."""
    for k in range(played.shape[0]):
        strategy_sum[k] = d * strategy_sum[k] + c * played[k]
        external[k] = d * external[k] + c * instant[k]


@jit
def _run_bimatrix_expected(arrays, state, schedule, t0, iterations):  # pragma: no cover - compiled
    """Iterations ``t0 + 1 .. t0 + iterations`` of :class:`BimatrixExpectedKernel`: its bundles,
    named again here, and their fields under the names the loops use."""
    arrays, state, schedule = BimatrixArrays(*arrays), BimatrixState(*state), Schedule(*schedule)
    payoff0, payoff1, sign1, fused = arrays.payoff0, arrays.payoff1, arrays.sign1, arrays.fused
    learn0, learn1, rates, bounds = arrays.learn0, arrays.learn1, arrays.rates, arrays.bounds
    work_x, work_y = arrays.work_x, arrays.work_y
    work_rows, work_columns = arrays.work_rows, arrays.work_columns
    current0, current1, regret0, regret1 = state.current0, state.current1, state.regret0, state.regret1
    prediction0, prediction1 = state.prediction0, state.prediction1
    strategy_sum0, strategy_sum1 = state.strategy_sum0, state.strategy_sum1
    external0, external1 = state.external0, state.external1
    payoff_sum, weight_sum = state.payoff_sum, state.weight_sum
    joint, last_lambda = state.joint, state.last_lambda
    joint_rows, joint_columns, joint_pending = state.joint_rows, state.joint_columns, state.joint_pending
    track_joint = state.track_joint
    buffered = track_joint and state.buffer_joint
    plus, predictive, alternating = schedule.plus, schedule.predictive, schedule.alternating
    strategy_map, anytime = schedule.strategy_map, schedule.anytime
    weighting_scheme, averaging_scheme = schedule.weighting, schedule.averaging
    alpha, beta, gamma, floor = schedule.alpha, schedule.beta, schedule.gamma, schedule.greedy_floor
    rows, columns = payoff1.shape  # (payoff0 is P_0^T in the small loop)
    # single-pass products (and, alternating, the start's x P_1 kept from the last iteration)
    reuse = alternating and learn0 and learn1
    double = payoff0.itemsize == 8  # float64 products read the strategies themselves
    utilities0, utilities1, own1 = np.empty(rows), np.empty(columns), np.empty(columns)
    played0, played1 = np.empty(rows), np.empty(columns)
    instant0, instant1 = np.empty(rows), np.empty(columns)
    guide0, guide1 = np.empty(rows), np.empty(columns)
    greedy = weighting_scheme == weighting.GREEDY
    history, new = np.empty(rows + columns), np.empty(rows + columns)
    work, order = _greedy_scratch(rows + columns)
    simultaneous = not (greedy or alternating)  # (and no greedy weights): _respond's two passes
    # regret matching without prediction, both players learning: the compiler specialises
    # _respond to the constant flags (~70-120 ns an iteration less at 10-32 actions)
    matching = strategy_map == 0 and not predictive and learn0 and learn1
    for step in range(iterations):
        t = t0 + step + 1
        d_pos, d_neg = _regret_discounts(weighting_scheme, t, alpha, beta)
        d_avg, c_avg = _averaging_step(averaging_scheme, t, gamma)
        c = 1.0
        if reuse and step > 0:  # x P_1 of this start profile is last iteration's x' P_1
            utilities1[:] = own1
            _evaluate_rows(payoff0, current1, utilities0, fused, work_y, work_rows)
        elif fused and double:
            fused_products(payoff0, payoff1, current0, current1, utilities0, utilities1, sign1 < 0.0)
        elif fused:
            _cast(current0, work_x)
            _cast(current1, work_y)
            fused_products(payoff0, payoff1, work_x, work_y, work_rows, work_columns, sign1 < 0.0)
            _cast(work_rows, utilities0)
            _cast(work_columns, utilities1)
        else:
            _row_utilities(payoff0, current1, utilities0)
            _column_utilities(current0, payoff1, utilities1)
        value0, scale0 = _value_and_scale(utilities0, current0, played0, bounds[0])
        value1, scale1 = _value_and_scale(utilities1, current1, played1, bounds[1])
        if simultaneous:  # each player's vectors in two passes (_respond)
            if matching:  # RM/RM+: the flags as constants (branch-free loops)
                _respond(
                    utilities0, value0, scale0, played0, strategy_sum0, external0, regret0, prediction0,
                    current0, True, d_pos, d_neg, c, d_avg, c_avg, plus, False, 0, 1.0, guide0,
                )  # fmt: skip
                _respond(
                    utilities1, value1, scale1, played1, strategy_sum1, external1, regret1, prediction1,
                    current1, True, d_pos, d_neg, c, d_avg, c_avg, plus, False, 0, 1.0, guide1,
                )  # fmt: skip
            else:
                rate0, rate1 = _rate_at(rates[0], t + 1, anytime), _rate_at(rates[1], t + 1, anytime)
                _respond(
                    utilities0, value0, scale0, played0, strategy_sum0, external0, regret0, prediction0,
                    current0, learn0, d_pos, d_neg, c, d_avg, c_avg, plus, predictive,
                    strategy_map, rate0, guide0,
                )  # fmt: skip
                _respond(
                    utilities1, value1, scale1, played1, strategy_sum1, external1, regret1, prediction1,
                    current1, learn1, d_pos, d_neg, c, d_avg, c_avg, plus, predictive,
                    strategy_map, rate1, guide1,
                )  # fmt: skip
            payoff_sum[0] = d_avg * payoff_sum[0] + c_avg * value0
            payoff_sum[1] = d_avg * payoff_sum[1] + c_avg * value1
            if buffered:  # the terms added BUFFER at a time (joint.py)
                record_joint(d_avg, c_avg, joint, joint_rows, joint_columns, joint_pending, played0, played1)
            elif track_joint:
                _accumulate_joint(d_avg, c_avg, joint, played0, played1)
            weight_sum[0] = d_avg * weight_sum[0] + c_avg
            continue
        _snap_regrets(utilities0, value0, scale0, instant0)
        _snap_regrets(utilities1, value1, scale1, instant1)
        if greedy and t > 1:  # as greedy_step: scale history by lam, new iterate (1-lam) W
            size = 0
            weight = max(weight_sum[0], 1e-300)
            if learn0:
                for a in range(rows):
                    history[a] = external0[a] / weight
                    new[a] = instant0[a]
                size = rows
            if learn1:
                for b in range(columns):
                    history[size + b] = external1[b] / weight
                    new[size + b] = instant1[b]
                size += columns
            lam_max, lam_tie = _greedy_bounds(t, floor)
            lam = _greedy_lambda(history[:size], new[:size], lam_max, lam_tie, work, order)
            last_lambda[0] = lam
            d_pos = d_neg = d_avg = lam
            c = c_avg = (1.0 - lam) * weight_sum[0]
        # the empirical distribution records the profile played at the start (solver._accumulate)
        _accumulate_expected(d_avg, c_avg, strategy_sum0, external0, played0, instant0)
        _accumulate_expected(d_avg, c_avg, strategy_sum1, external1, played1, instant1)
        payoff_sum[0] = d_avg * payoff_sum[0] + c_avg * value0
        payoff_sum[1] = d_avg * payoff_sum[1] + c_avg * value1
        if buffered:
            record_joint(d_avg, c_avg, joint, joint_rows, joint_columns, joint_pending, played0, played1)
        elif track_joint:
            _accumulate_joint(d_avg, c_avg, joint, played0, played1)
        weight_sum[0] = d_avg * weight_sum[0] + c_avg
        if learn0:
            _discount_add(regret0, instant0, d_pos, d_neg, c, plus)
            _guide(regret0, prediction0, instant0, c, predictive, guide0)
            _strategy_map(strategy_map, _rate_at(rates[0], t + 1, anytime), guide0, current0)
        if learn1:
            if alternating and learn0:  # player 2 answers player 1's new strategy
                _evaluate_columns(payoff1, current0, own1, sign1, fused, work_x, work_columns)
                value1 = 0.0
                for b in range(columns):
                    value1 += own1[b] * current1[b]
                _external_regret(own1, value1, bounds[1], instant1)
            _discount_add(regret1, instant1, d_pos, d_neg, c, plus)
            _guide(regret1, prediction1, instant1, c, predictive, guide1)
            _strategy_map(strategy_map, _rate_at(rates[1], t + 1, anytime), guide1, current1)
    return 0  # an int, not None: see "GIL" in docs/architecture.md


@jit
def _sample(current, num_actions, draws, actions):  # pragma: no cover - compiled
    """``a_j = searchsorted(cumsum(pi_j), u_j * total, "right")``, as the generic code."""
    for j in range(num_actions.shape[0]):
        total = 0.0
        for a in range(num_actions[j]):
            total += current[j, a]
        target = draws[j] * total
        cumulative = 0.0
        chosen = num_actions[j] - 1
        for a in range(num_actions[j]):
            cumulative += current[j, a]
            if cumulative > target:
                chosen = a
                break
        actions[j] = chosen


@jit
def _utilities_at(flat, num_actions, strides, actions, i, out):  # pragma: no cover - compiled
    """``out[a] = u_i(a, a_-i)`` from the flat payoff tensor; returns ``u_i(a)``."""
    base = 0
    for j in range(num_actions.shape[0]):
        if j != i:
            base += actions[j] * strides[j]
    for a in range(num_actions[i]):
        out[a] = flat[i, base + a * strides[i]]
    return out[actions[i]]


def _expected_at(flat, num_actions, current, i, work, out):  # pragma: no cover - compiled
    """``out[a] = u_i(a, pi_-i)``: player i's payoff tensor contracted with the others'
    strategies one axis at a time, from the last axis down, as the generic code's
    ``expected_utilities`` (each pass reads the shrinking tensor once: about prod |A_j|
    operations in all; the innermost loop always runs over contiguous entries); returns
    ``u_i(pi)`` (:func:`_value`). ``work`` holds two buffers of the tensor's size. Compiled
    twice: in index order for small tensors, reassociated above (``_expected_utilities``)."""
    n = num_actions.shape[0]
    source = flat[i]
    length = source.shape[0]
    post = 1  # size of the axes after the one contracted that stay (player i's, once passed)
    side = 0
    for j in range(n - 1, -1, -1):
        if j == i:
            post *= num_actions[j]
            continue
        k = num_actions[j]
        pre = length // (k * post)
        target = work[side]
        if post == 1:  # contiguous sums (reassociated: vector registers)
            for p in range(pre):
                total = 0.0
                base = p * k
                for a in range(k):
                    total += source[base + a] * current[j, a]
                target[p] = total
        else:  # axis j strided by post: add whole contiguous runs of post entries per action
            for p in range(pre):
                row = target[p * post : (p + 1) * post]
                for q in range(post):
                    row[q] = 0.0
                for a in range(k):
                    weight = current[j, a]
                    base = (p * k + a) * post
                    for q in range(post):
                        row[q] += source[base + q] * weight
        length = pre * post
        source = target
        side = 1 - side
    for a in range(num_actions[i]):
        out[a] = source[a]
    return _value(out, current[i], num_actions[i])


@jit
def _value(utilities: Any, strategy: Any, count: int) -> float:
    """``u_i(pi) = sum_a U(a) pi(a)`` in index order (``metrics.expected_value``)."""
    value = 0.0
    for a in range(count):
        value += utilities[a] * strategy[a]
    return value


_expected_in_order = jit(_expected_at)
_expected_reassociated = jit_reassociating(_expected_at)


@jit
def _expected_utilities(flat, num_actions, current, i, work, out):  # pragma: no cover - compiled
    """:func:`_expected_at` under the summation rule (``metrics.ORDERED_MAX_ENTRIES``)."""
    if flat.shape[1] <= ORDERED_MAX_ENTRIES:
        return _expected_in_order(flat, num_actions, current, i, work, out)
    return _expected_reassociated(flat, num_actions, current, i, work, out)


@jit
def _mixed_internal_regret(strategy: Any, utilities: Any, bound: float, out: Any) -> None:
    """``out(b, a) = pi(b) (U(a) - U(b))``: the internal regret of mixed play (as ``_play``),
    0 where ``a`` and ``b`` tie, ``|U(a) - U(b)| <= TIE_TOLERANCE max(bound, max |U|)``."""
    scale = bound
    for a in range(utilities.shape[0]):
        scale = max(scale, abs(utilities[a]))
    for b in range(strategy.shape[0]):
        for a in range(strategy.shape[0]):
            gap = utilities[a] - utilities[b]
            out[b, a] = 0.0 if abs(gap) <= TIE_TOLERANCE * scale else strategy[b] * gap


@jit
def _run_profiles(arrays, state, schedule, t0, draws):  # pragma: no cover - compiled
    """Iterations ``t0 + 1 .. t0 + len(draws)`` of :class:`ProfileKernel`: its bundles, named
    again here, and their fields under the names the loops use; ``draws`` the uniforms of
    sampled play, ``(iterations, evaluations, n)`` (``(iterations, 0, n)`` in expected play)."""
    arrays, state, schedule = ProfileArrays(*arrays), ProfileState(*state), Schedule(*schedule)
    flat, num_actions, strides, learners = arrays.flat, arrays.num_actions, arrays.strides, arrays.learners
    rates, strategy_map, anytime = arrays.rates, schedule.strategy_map, schedule.anytime
    bounds = arrays.bounds
    current, regret, prediction = state.current, state.regret, state.prediction
    strategy_sum, external, accumulated = state.strategy_sum, state.external, state.accumulated
    payoff_sum, weight_sum = state.payoff_sum, state.weight_sum
    joint, last_lambda = state.joint, state.last_lambda
    track_ce, track_joint = state.track_ce, state.track_joint
    plus, predictive, alternating = schedule.plus, schedule.predictive, schedule.alternating
    internal_kind, expected = schedule.internal, schedule.expected
    weighting_scheme, averaging_scheme = schedule.weighting, schedule.averaging
    alpha, beta, gamma = schedule.alpha, schedule.beta, schedule.gamma
    floor, inertia = schedule.greedy_floor, schedule.inertia
    n, width = current.shape
    iterations = draws.shape[0]
    greedy = weighting_scheme == weighting.GREEDY
    start_actions = np.empty(n, dtype=np.int64)
    own_actions = np.empty(n, dtype=np.int64)
    actions = np.empty(n, dtype=np.int64)
    utilities = np.zeros((n, width))
    start_values = np.empty(n)
    played = np.zeros((n, width))
    instant_ext = np.zeros((n, width))
    instant_int = np.zeros((n, width, width))
    guide_vector, guide_matrix = np.zeros(width), np.zeros((width, width))
    chain_work = np.empty((width, width) if expected and internal_kind else (1, 1))
    chain_labels = np.empty((4, width), dtype=np.int64)
    chain_bit_rows = chain_bits(width)
    size = 0
    for i in range(n):
        if learners[i]:
            size += num_actions[i] * num_actions[i] if internal_kind else num_actions[i]
    history, new = np.empty(size), np.empty(size)
    greedy_work, greedy_order = _greedy_scratch(size)
    work = np.empty((2, flat.shape[1] if expected else 1))  # expected play's contraction buffers
    for step in range(iterations):
        t = t0 + step + 1
        d_pos, d_neg = _regret_discounts(weighting_scheme, t, alpha, beta)
        d_avg, c_avg = _averaging_step(averaging_scheme, t, gamma)
        c = 1.0
        if not expected:
            _sample(current, num_actions, draws[step, 0], start_actions)
        for i in range(n):
            k = num_actions[i]
            if expected:
                value = _expected_utilities(flat, num_actions, current, i, work, utilities[i])
            else:
                value = _utilities_at(flat, num_actions, strides, start_actions, i, utilities[i])
            start_values[i] = value
            own_actions[i] = start_actions[i]
            for a in range(k):  # sampled play records the action played, expected play pi_i
                if expected:
                    played[i, a] = current[i, a]
                else:
                    played[i, a] = 1.0 if a == start_actions[i] else 0.0
            _external_regret(utilities[i, :k], value, bounds[i], instant_ext[i, :k])
            if expected and internal_kind:
                _mixed_internal_regret(played[i, :k], utilities[i, :k], bounds[i], instant_int[i, :k, :k])
        if greedy and t > 1:
            weight = max(weight_sum[0], 1e-300)
            at = 0
            for i in range(n):
                if not learners[i]:
                    continue
                k = num_actions[i]
                for b in range(k if internal_kind else 1):
                    for a in range(k):
                        if internal_kind:
                            history[at] = accumulated[i, b, a] / weight
                            if expected:
                                new[at] = instant_int[i, b, a]
                            else:
                                new[at] = instant_ext[i, a] if b == start_actions[i] else 0.0
                        else:
                            history[at] = external[i, a] / weight
                            new[at] = instant_ext[i, a]
                        at += 1
            lam_max, lam_tie = _greedy_bounds(t, floor)
            lam = _greedy_lambda(history, new, lam_max, lam_tie, greedy_work, greedy_order)
            last_lambda[0] = lam
            d_pos = d_neg = d_avg = lam
            c = c_avg = (1.0 - lam) * weight_sum[0]
        # the empirical distribution records the profile played at the start (solver._accumulate)
        for i in range(n):
            k = num_actions[i]
            chosen = start_actions[i]
            for a in range(k):
                strategy_sum[i, a] = d_avg * strategy_sum[i, a] + c_avg * played[i, a]
                external[i, a] = d_avg * external[i, a] + c_avg * instant_ext[i, a]
            if not track_ce:
                pass
            elif expected:  # internal regret of mixed play: pi_i(b) (u_i(a) - u_i(b))
                scale = bounds[i]
                for a in range(k):
                    scale = max(scale, abs(utilities[i, a]))
                _accumulate_internal(
                    d_avg, c_avg, accumulated[i, :k, :k], played[i, :k], utilities[i, :k], scale
                )
            else:
                if d_avg != 1.0:
                    for b in range(k):
                        for a in range(k):
                            accumulated[i, b, a] *= d_avg
                for a in range(k):
                    accumulated[i, chosen, a] += c_avg * instant_ext[i, a]
            payoff_sum[i] = d_avg * payoff_sum[i] + c_avg * start_values[i]
        if track_joint and expected:  # two players' mixed strategies (internal RM)
            _accumulate_joint(d_avg, c_avg, joint, played[0, : num_actions[0]], played[1, : num_actions[1]])
        elif track_joint:
            for a in range(joint.shape[0]):
                for b in range(joint.shape[1]):
                    joint[a, b] *= d_avg
            joint[start_actions[0], start_actions[1]] += c_avg
        weight_sum[0] = d_avg * weight_sum[0] + c_avg
        evaluation = 0
        for i in range(n):
            if not learners[i]:
                continue
            k = num_actions[i]
            if alternating and evaluation > 0:  # a fresh profile against the newest strategies
                if not expected:
                    _sample(current, num_actions, draws[step, evaluation], actions)
                if expected:
                    value = _expected_utilities(flat, num_actions, current, i, work, utilities[i])
                else:
                    value = _utilities_at(flat, num_actions, strides, actions, i, utilities[i])
                own_actions[i] = actions[i]
                _external_regret(utilities[i, :k], value, bounds[i], instant_ext[i, :k])
                if expected and internal_kind:
                    _mixed_internal_regret(
                        current[i, :k], utilities[i, :k], bounds[i], instant_int[i, :k, :k]
                    )
            evaluation += 1
            chosen = own_actions[i]
            if internal_kind:
                # padding beyond k stays exactly zero, so whole padded rows can be updated
                if not expected:
                    instant_int[i] = 0.0
                    instant_int[i, chosen, :k] = instant_ext[i, :k]
                _discount_add(regret[i].reshape(-1), instant_int[i].reshape(-1), d_pos, d_neg, c, plus)
                if predictive:  # without a prediction the guide is R itself: read it, no copy
                    _guide(
                        regret[i].reshape(-1),
                        prediction[i].reshape(-1),
                        instant_int[i].reshape(-1),
                        c,
                        predictive,
                        guide_matrix.reshape(-1),
                    )
                guide = guide_matrix if predictive else regret[i]
                if expected:  # the stationary distribution of the chain with rates [guide]_+
                    stationary_distribution(
                        guide[:k, :k], current[i, :k], chain_work, chain_labels, chain_bit_rows
                    )
                    continue
                # conditional regret matching with inertia after playing `chosen`
                inertia_t = _inertia_at(inertia, t, weighting_scheme)
                total = 0.0
                for a in range(k):
                    if a != chosen and guide[chosen, a] > 0.0:
                        total += guide[chosen, a]
                total = inertia_t + total
                for a in range(k):
                    rate = guide[chosen, a] if (a != chosen and guide[chosen, a] > 0.0) else 0.0
                    current[i, a] = (inertia_t if a == chosen else rate) / total
            else:
                _discount_add(regret[i].reshape(-1), instant_ext[i], d_pos, d_neg, c, plus)
                _guide(
                    regret[i].reshape(-1),
                    prediction[i].reshape(-1),
                    instant_ext[i],
                    c,
                    predictive,
                    guide_vector,
                )
                _strategy_map(
                    strategy_map, _rate_at(rates[i], t + 1, anytime), guide_vector[:k], current[i, :k]
                )
    return 0  # an int, not None: see "GIL" in docs/architecture.md
