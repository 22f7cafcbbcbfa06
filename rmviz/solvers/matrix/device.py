"""Two-player expected play on an NVIDIA GPU: the CUDA kernels of ``bimatrix.cu``, from CuPy.

The generic array code of :mod:`.solver` runs on CuPy too, but as a dozen small kernels and
a Python loop per iteration: ~500-900 iterations/s whatever the game (an H100,
docs/performance.md). These kernels replace it for two players, expected play and external
regrets with a fixed schedule (RM, RM+, linear, discounted, predictive RM+; simultaneous or
alternating updates), the presets whose iterations the CPU also runs compiled:

* **the device loop** (``bimatrix_loop``): one thread block per game runs all of a
  ``step(n)``'s iterations without returning to the host, the whole game in its block's
  caches. Small and medium games, and :class:`~rmviz.solvers.matrix.batch.BatchSolver`'s B
  games of one shape at once (one block each).
* **the tiled pass** (``tile_products``, ``reduce_parts``, ``respond_grid``,
  ``normalise_grid``, each over the whole GPU): above
  :data:`LOOP_MAX_ENTRIES` every block of the grid streams one 64 x 1024 tile of the payoff
  matrix and forms its part of *both* products ``P_0 y`` and ``x P_1`` (a zero-sum game's
  ``P_1 = -P_0`` is not read at all): one read of the matrix per iteration, the HBM bound
  (simultaneous updates; alternating ones need a second pass with player 1's answer, as on the
  CPU, :mod:`.products`). The iteration count lives on the device, so the launches of
  :data:`GRAPH_ITERATIONS` iterations are captured once in a CUDA graph and replayed.

Neither synchronises with the host inside ``step(n)``; the iterates equal the CPU kernel's
(:func:`rmviz.solvers.matrix.kernels._run_bimatrix_expected`) to rounding: the same formulas
entry by entry, with sums in a different order. ``MatrixConfig.dtype = "float32"`` keeps the
matrices in single precision (half the bytes); products still accumulate in double.

CuPy arrives as ``xp`` from :mod:`rmviz.solvers.backend`, the one module that imports it.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from rmviz.solvers.matrix.config import MatrixConfig
from rmviz.solvers.matrix.kernels import SCHEMES, Schedule, tie_bounds
from rmviz.solvers.matrix.products import exactly_zero_sum

SOURCE = Path(__file__).with_name("bimatrix.cu")
# Above this many payoff entries a game runs as the tiled pass over the whole GPU; below, one
# block's device loop (measured on an H100: docs/performance.md, "GPU").
LOOP_MAX_ENTRIES = 1 << 15
GRAPH_ITERATIONS = 32  # iterations per captured CUDA graph of the tiled pass
TILE_ROWS, TILE_COLUMNS = 64, 1024  # as bimatrix.cu
GRID_THREADS = 256  # the blocks of reduce_parts, respond_grid, normalise_grid

FLAG_LEARN0, FLAG_LEARN1, FLAG_PLUS, FLAG_PREDICTIVE = 1, 2, 4, 8
FLAG_ALTERNATING, FLAG_TRACK_CE, FLAG_TRACK_JOINT, FLAG_AVERAGE_UNIFORM = 16, 32, 64, 128
WEIGHTING_CODES = {"uniform": 0, "linear": 1, "discounted": 2}
AVERAGING_EXPONENTS = {"linear": 1.0, "quadratic": 2.0}


def supports(config: MatrixConfig, n_players: int) -> bool:
    """Whether these kernels run ``config``: two players, expected play, external regrets and
    regret matching, a fixed schedule (greedy weights, internal regrets, FTRL and fictitious
    play stay in the generic array code)."""
    return (
        n_players == 2
        and config.play == "expected"
        and config.rule == "regret-matching"
        and config.regret == "external"
        and config.weighting in WEIGHTING_CODES
    )


def flags_for(schedule: Schedule, learners: Any = (0, 1)) -> tuple[int, float]:
    """The kernels' flags (which players learn, RM+, predictive, alternating, the schedule)
    and the averaging exponent (weights ~ t^e), from the run's :class:`~.kernels.Schedule`."""
    flags = WEIGHTING_CODES[SCHEMES[schedule.weighting]] << 8
    flags |= FLAG_LEARN0 * (0 in learners) | FLAG_LEARN1 * (1 in learners)
    flags |= FLAG_PLUS * schedule.plus | FLAG_PREDICTIVE * schedule.predictive
    flags |= FLAG_ALTERNATING * schedule.alternating
    averaging = SCHEMES[schedule.averaging]
    if averaging == "uniform":
        return flags | FLAG_AVERAGE_UNIFORM, 0.0
    return flags, AVERAGING_EXPONENTS.get(averaging, schedule.gamma)


@functools.cache
def _module(xp: ModuleType) -> Any:
    return xp.RawModule(code=SOURCE.read_text(), options=("-std=c++17",))


def _function(xp: ModuleType, name: str) -> Any:
    return _module(xp).get_function(name)


def _suffix(dtype: Any) -> str:
    return "f32" if np.dtype(dtype) == np.float32 else "f64"


def loop_threads(rows: int, columns: int) -> int:
    """Threads of one game's block: a warp per 32 actions of the larger player, 32 to 256."""
    return int(min(256, 32 * -(-max(rows, columns) // 32)))


def launch_loop(
    xp: ModuleType,
    payoff0: Any,
    payoff1: Any,
    sign1: float,
    bounds: Any,
    state: list[Any],
    internal: tuple[Any, Any],
    joint: Any,
    payoff_sum: Any,
    weight_sum: Any,
    work: tuple[Any, Any, Any],
    t0: int,
    iterations: int,
    flags: int,
    schedule: Schedule,
    exponent: float,
    games: int = 1,
) -> None:
    """``iterations`` iterations of ``games`` games (one block each), from iteration ``t0``.

    ``state``: current, regret, prediction, strategy sum and external regret of player 1,
    then of player 2 (10 arrays of shape ``(games, |A_i|)``, float64, C-contiguous; ``(|A_i|,)``
    for one game); ``payoff0``, ``payoff1``: ``(games, rows, columns)`` in the payoffs' dtype;
    ``bounds``: ``(games, 2)`` float64, each game's players' tie scales (:func:`.kernels.tie_bounds`).
    """
    rows, columns = payoff0.shape[-2:]
    current0, current1, regret0, regret1, prediction0, prediction1, sum0, sum1, external0, external1 = state
    kernel = _function(xp, f"bimatrix_loop_{_suffix(payoff0.dtype)}")
    kernel(
        (games,),
        (loop_threads(rows, columns),),
        (
            payoff0,
            payoff1,
            np.float64(sign1),
            bounds,
            current0,
            current1,
            regret0,
            regret1,
            prediction0,
            prediction1,
            sum0,
            sum1,
            external0,
            external1,
            internal[0],
            internal[1],
            joint,
            payoff_sum,
            weight_sum,
            *work,
            np.int32(rows),
            np.int32(columns),
            np.int64(t0),
            np.int32(iterations),
            np.int32(flags),
            np.float64(schedule.alpha),
            np.float64(schedule.beta),
            np.float64(exponent),
        ),
    )


class DeviceBimatrixKernel:
    """One two-player game's expected-play iterations on the GPU (``RegretMinimizer._kernel``).

    ``run(state, n)`` updates the solver's :class:`~.state.MatrixState` arrays in place, as
    :class:`~.kernels.BimatrixExpectedKernel` does on the CPU.
    """

    def __init__(
        self,
        xp: ModuleType,
        payoffs: np.ndarray,
        config: MatrixConfig,
        schedule: Schedule,
        learners: tuple[int, ...],
    ) -> None:
        self.xp, self.config, self.schedule = xp, config, schedule
        dtype = np.float32 if config.dtype == "float32" else np.float64
        rows, columns = payoffs[0].shape
        self.rows, self.columns = rows, columns
        self.payoff0 = xp.asarray(np.ascontiguousarray(payoffs[0], dtype=dtype))
        if exactly_zero_sum(payoffs):  # P_1 never read: the column sums negated
            self.payoff1, self.sign1 = self.payoff0, -1.0
        else:
            self.payoff1, self.sign1 = xp.asarray(np.ascontiguousarray(payoffs[1], dtype=dtype)), 1.0
        self.bounds = xp.asarray(tie_bounds(payoffs))  # (2,): the tie rule's scales
        self.flags, self.exponent = flags_for(schedule, learners)
        self.tiled = rows * columns > LOOP_MAX_ENTRIES
        self.work = (xp.empty(rows), xp.empty(columns), xp.empty(columns))
        self._dummy = xp.zeros(1)
        if self.tiled:
            self.chunks, self.tiles = -(-columns // TILE_COLUMNS), -(-rows // TILE_ROWS)
            self.row_parts = xp.empty((self.chunks, rows))
            self.column_parts = xp.empty((self.tiles, columns))
            self.blocks = -(-max(rows, columns) // GRID_THREADS)
            self.stats, self.positives = xp.empty(4 * self.blocks), xp.empty(2 * self.blocks)
            self.counter = xp.zeros(1, dtype=xp.int64)
            self.stream = xp.cuda.Stream()  # a blocking stream: ordered with the default one
            self._graph: tuple[tuple[int, ...], Any] | None = None

    def run(self, s: Any, iterations: int) -> None:
        if iterations <= 0:
            return
        xp = self.xp
        # (current0, current1, regret0, regret1, ...) as the kernels take them
        state = [*s.current, *s.regret, *s.prediction, *s.strategy_sum, *s.external_regret]
        state = [xp.ascontiguousarray(a, dtype=xp.float64) for a in state]
        s.current[:], s.regret[:], s.prediction[:] = state[0:2], state[2:4], state[4:6]
        s.strategy_sum[:], s.external_regret[:] = state[6:8], state[8:10]
        if not self.tiled:
            track_ce = s.internal_regret is not None
            track_joint = s.joint is not None
            flags = self.flags | FLAG_TRACK_CE * track_ce | FLAG_TRACK_JOINT * track_joint
            internal = tuple(s.internal_regret) if track_ce else (self._dummy, self._dummy)
            launch_loop(
                xp,
                self.payoff0,
                self.payoff1,
                self.sign1,
                self.bounds,
                state,
                internal,
                s.joint if track_joint else self._dummy,
                s.payoff_sum,
                s.weight_sum,
                self.work,
                s.iteration,
                iterations,
                flags,
                self.schedule,
                self.exponent,
            )
        else:
            self._run_tiled(state, s, iterations)
        s.iteration += iterations

    # -- the tiled pass -----------------------------------------------------------------------
    def _run_tiled(self, state: list[Any], s: Any, iterations: int) -> None:
        """The first iteration launched directly (both products), the rest in graphs."""
        with self.stream:
            self.counter.fill(s.iteration)
            self._iteration(state, s, first=True)
            done = 1
            key = tuple(a.data.ptr for a in (*state, s.payoff_sum, s.weight_sum))
            while iterations - done >= GRAPH_ITERATIONS:
                if self._graph is None or self._graph[0] != key:
                    self.stream.begin_capture()
                    for _ in range(GRAPH_ITERATIONS):
                        self._iteration(state, s, first=False)
                    self._graph = (key, self.stream.end_capture())
                self._graph[1].launch(self.stream)
                done += GRAPH_ITERATIONS
            for _ in range(iterations - done):
                self._iteration(state, s, first=False)

    def _products(
        self, payoff0: Any, payoff1: Any, x: Any, y: Any, rows_too: bool, columns_too: bool
    ) -> None:
        kernel = _function(self.xp, f"tile_products_{_suffix(payoff0.dtype)}")
        kernel(
            (self.chunks, self.tiles),
            (256,),
            (
                payoff0,
                payoff1,
                x,
                y,
                np.int32(self.rows),
                np.int32(self.columns),
                self.row_parts,
                self.column_parts,
                np.int32(rows_too),
                np.int32(columns_too),
            ),
        )

    def _reduce(self, out1: Any, rows_mode: int, columns_mode: int, x: Any, y: Any) -> None:
        """``U_0`` from the row parts (``rows_mode`` 1); ``out1`` from the column parts
        (``columns_mode`` 1) or as kept (2); and each block's partial values and tie scales."""
        _function(self.xp, "reduce_parts")(
            (self.blocks,),
            (GRID_THREADS,),
            (
                self.row_parts,
                self.column_parts,
                np.int32(self.rows),
                np.int32(self.columns),
                np.int32(self.chunks),
                np.int32(self.tiles),
                np.float64(self.sign1),
                x,
                y,
                self.work[0],
                out1,
                np.int32(rows_mode),
                np.int32(columns_mode),
                self.stats,
            ),
        )

    def _respond(self, state: list[Any], s: Any, utilities1: Any, phase: int) -> None:
        """The sums and regret updates of ``phase`` (0: both players; alternating: 1, then 2),
        then regret matching's normalisation."""
        xp, blocks = self.xp, (self.blocks,)
        _function(xp, "respond_grid")(
            blocks,
            (GRID_THREADS,),
            (
                *state,
                s.payoff_sum,
                s.weight_sum,
                self.work[0],
                utilities1,
                np.int32(self.rows),
                np.int32(self.columns),
                self.stats,
                np.int32(self.blocks),
                self.positives,
                self.counter,
                np.int32(self.flags),
                np.float64(self.schedule.alpha),
                np.float64(self.schedule.beta),
                np.float64(self.exponent),
                np.int32(phase),
                self.bounds,
            ),
        )
        _function(xp, "normalise_grid")(
            blocks,
            (GRID_THREADS,),
            (
                state[0],
                state[1],
                np.int32(self.rows),
                np.int32(self.columns),
                self.positives,
                np.int32(self.blocks),
                self.counter,
                np.int32(self.flags),
                np.int32(phase),
            ),
        )

    def _iteration(self, state: list[Any], s: Any, first: bool) -> None:
        """One iteration's launches. Alternating updates with both players learning: the row
        pass (with the column pass of the start profile on a run's first iteration; after it,
        ``x P_1`` of the start profile is the last iteration's ``x' P_1``, kept in ``own1``),
        player 1's update, the column pass with its new ``x'``, player 2's update."""
        x, y = state[0], state[1]
        _, utilities1, own1 = self.work
        two_passes = self.flags & FLAG_ALTERNATING and self.flags & FLAG_LEARN0 and self.flags & FLAG_LEARN1
        if not two_passes:
            self._products(self.payoff0, self.payoff1, x, y, True, True)
            self._reduce(utilities1, 1, 1, x, y)
            self._respond(state, s, utilities1, 0)
            return
        self._products(self.payoff0, self.payoff1, x, y, True, first)
        start1 = utilities1 if first else own1
        self._reduce(start1, 1, 1 if first else 2, x, y)
        self._respond(state, s, start1, 1)
        # x' P_1: a column-only pass reads P_1 alone (P_0 itself in a zero-sum game)
        self._products(self.payoff1, self.payoff1, x, y, False, True)
        self._reduce(own1, 0, 1, x, y)
        self._respond(state, s, own1, 2)


def kernel_for(
    xp: ModuleType,
    payoffs: np.ndarray,
    config: MatrixConfig,
    schedule: Schedule,
    learners: Any,
    track_ce: bool,
    track_joint: bool,
) -> DeviceBimatrixKernel | None:
    """The GPU kernel that runs this solver's iterations, or ``None`` (the generic array code).
    ``payoffs``: the ``(n, |A_0|, |A_1|)`` tensor the solver runs on (divided by its scale)."""
    if not supports(config, payoffs.shape[0]):
        return None
    if payoffs[0].size > LOOP_MAX_ENTRIES and (track_ce or track_joint):
        return None  # the tiled pass keeps no CE accumulator or joint distribution
    return DeviceBimatrixKernel(xp, payoffs, config, schedule, tuple(learners))
