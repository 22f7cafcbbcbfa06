"""Many two-player games of one shape solved at once: a ``(B, 2, rows, columns)`` tensor.

Sweeps over random games (and the experiments of Zhang, Lerer & Brown 2022, which average
over hundreds of random games) run the same algorithm on B games of one shape. One
:class:`~rmviz.solvers.matrix.solver.RegretMinimizer` per game pays Python and launch
overheads B times per ``step``; :class:`BatchSolver` holds every game's state as one
``(B, |A_i|)`` array per quantity and runs each ``step(n)`` as

* on the GPU: one CUDA launch, one thread block per game looping over the n iterations
  (:func:`rmviz.solvers.matrix.device.launch_loop`);
* on the CPU: the compiled two-player kernel of :mod:`.kernels` game after game, on views of
  the batched arrays (no per-game solver objects, no copies).

Both compute, game by game, the iterates of ``RegretMinimizer`` with the same config (to
rounding on the GPU; tests/solvers/matrix/test_batch.py). Supported: two players, expected
play, external regrets, a fixed schedule (:func:`rmviz.solvers.matrix.device.supports`:
``rm``, ``rm+``, ``linear-rm``, ``discounted-rm``, ``predictive-rm+``, simultaneous or
alternating updates).

Metrics per game, from the average strategies ``(x_bar, y_bar)`` and the averaging-weighted
true regrets ``Rbar_i`` with weight sum ``W``:
``NashConv = max_a (P_0 y_bar)_a - x_bar P_0 y_bar + max_b (x_bar P_1)_b - x_bar P_1 y_bar``
and the CCE gap of the empirical distribution ``max_i max_a Rbar_i(a) / W`` (as
:mod:`.metrics`), in payoff units.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rmviz.errors import ConfigError
from rmviz.solvers.backend import AUTO_GPU_MIN_ENTRIES, get_backend
from rmviz.solvers.matrix import device, kernels
from rmviz.solvers.matrix.config import MatrixConfig
from rmviz.solvers.matrix.products import exactly_zero_sum
from rmviz.solvers.scale import payoff_scale
from rmviz.solvers.threads import ensure_threads

QUANTITIES = ("current", "regret", "prediction", "strategy_sum", "external")


class BatchSolver:
    """B two-player games of one shape, one config, solved side by side.

    Args:
        payoffs: ``(B, 2, rows, columns)``: game ``g``'s payoff matrices ``payoffs[g, 0]``
            (row player) and ``payoffs[g, 1]`` (column player), finite.
        config: what to run (see the module docstring for what is supported); ``device``
            picks the GPU when ``"gpu"``, or ``"auto"`` with a GPU and at least
            :data:`~rmviz.solvers.backend.AUTO_GPU_MIN_ENTRIES` entries in the batch.

    Every game starts uniform; ``config.start`` and ``fixed_strategies`` are not supported.

    >>> from rmviz.solvers.matrix.config import MatrixConfig
    >>> A = np.random.default_rng(0).uniform(size=(8, 3, 3))    # 8 zero-sum 3x3 games
    >>> batch = rmviz.BatchSolver(np.stack([A, -A], axis=1), MatrixConfig(algorithm="rm+"))
    >>> batch.step(1000)
    >>> batch.nash_conv().shape, bool(batch.nash_conv().max() < 0.02)
    ((8,), True)
    >>> row, column = batch.average_strategy()
    >>> row.shape, bool(batch.cce_gap().max() < 0.01), batch.current_strategy()[1].shape
    ((8, 3), True, (8, 3))
    >>> batch.reset(); batch.iteration
    0
    """

    def __init__(self, payoffs: Any, config: MatrixConfig | None = None) -> None:
        config = (config or MatrixConfig()).validated()
        payoffs = np.asarray(payoffs, dtype=np.float64)
        if payoffs.ndim != 4 or payoffs.shape[1] != 2 or min(payoffs.shape) < 1:
            raise ConfigError(
                f"a batch of two-player games is a (B, 2, rows, columns) array, not {payoffs.shape}"
            )
        if not np.isfinite(payoffs).all():
            raise ConfigError("every payoff of the batch must be a finite number")
        if not device.supports(config, 2):
            raise ConfigError(
                "batches run two-player expected play with external regrets and a fixed schedule "
                "(rm, rm+, linear-rm, discounted-rm, predictive-rm+); use RegretMinimizer for the rest"
            )
        if config.start or config.fixed_strategies:
            raise ConfigError("batches start every game uniform and fix no player")
        ensure_threads()
        self.config = config
        self.games, _, self.rows, self.columns = payoffs.shape
        self.backend = get_backend(config.device, payoffs.size >= AUTO_GPU_MIN_ENTRIES)
        # one power-of-two scale for the batch (rmviz.solvers.scale): exact, so the iterates of
        # every game are those of its own solver
        self.scale = payoff_scale(payoffs)
        scaled = payoffs / self.scale if self.scale != 1.0 else payoffs
        self.payoffs = scaled
        dtype = np.float32 if config.dtype == "float32" else np.float64
        # the CPU's small loop reads P_0 transposed and P_1 itself; single-pass products (and
        # the GPU) read P_0 alone in a zero-sum game, with the column sums negated
        self.fused = dtype == np.float32 or self.rows * self.columns > kernels.LOOP_MAX_ENTRIES
        self.fused = self.fused or self.backend.is_gpu
        matrix0 = np.ascontiguousarray(
            scaled[:, 0] if self.fused else scaled[:, 0].transpose(0, 2, 1), dtype=dtype
        )
        if self.fused and exactly_zero_sum(scaled.transpose(1, 0, 2, 3)):
            matrix1, self.sign1 = matrix0, -1.0
        else:
            matrix1, self.sign1 = np.ascontiguousarray(scaled[:, 1], dtype=dtype), 1.0
        # each game's players' largest |u|: the tie rule's scale (kernels.tie_bounds), (B, 2)
        self.bounds = np.stack([kernels.tie_bounds(game) for game in scaled])
        self._device_bounds = self.backend.xp.asarray(self.bounds)
        self.schedule = kernels.Schedule.of(config)  # no greedy weights, no inertia in batches
        self.flags, self.exponent = device.flags_for(self.schedule)
        xp = self.backend.xp
        if not self.backend.is_gpu:  # read-only, as the solver's: the kernel's compiled signature
            matrix0.setflags(write=False)
            matrix1.setflags(write=False)
        self.matrix0, self.matrix1 = xp.asarray(matrix0), xp.asarray(matrix1)
        if self.backend.is_gpu:  # the device loop's scratch: U_0, U_1, x' P_1 per game
            self._work = tuple(xp.empty((self.games, k)) for k in (self.rows, self.columns, self.columns))
            self._unused = xp.zeros(1)  # no CE accumulator or joint distribution in batches
        self.reset()

    def reset(self) -> None:
        """Back to iteration 0: uniform strategies, zero regrets and sums."""
        xp = self.backend.xp
        self.iteration = 0
        self.state: dict[str, list[Any]] = {}
        for name in QUANTITIES:
            self.state[name] = [xp.zeros((self.games, k)) for k in (self.rows, self.columns)]
        self.state["current"] = [xp.full((self.games, k), 1.0 / k) for k in (self.rows, self.columns)]
        self.payoff_sum = xp.zeros((self.games, 2))
        self.weight_sum = xp.zeros(self.games)

    def _flat_state(self) -> list[Any]:
        """The ten arrays in the kernels' order: current0, current1, regret0, regret1, ..."""
        return [array for name in QUANTITIES for array in self.state[name]]

    def step(self, iterations: int = 1) -> None:
        """Run ``iterations`` iterations of every game (no host synchronisation on the GPU)."""
        if iterations <= 0:
            return
        if self.backend.is_gpu:
            self._step_gpu(iterations)
        else:
            self._step_cpu(iterations)
        self.iteration += iterations

    def _step_gpu(self, iterations: int) -> None:
        device.launch_loop(
            self.backend.xp,
            self.matrix0,
            self.matrix1,
            self.sign1,
            self._device_bounds,
            self._flat_state(),
            (self._unused, self._unused),
            self._unused,
            self.payoff_sum,
            self.weight_sum,
            self._work,
            self.iteration,
            iterations,
            self.flags,
            self.schedule,
            self.exponent,
            games=self.games,
        )

    def _step_cpu(self, iterations: int) -> None:
        dtype = self.matrix0.dtype
        work = [np.empty(n, dtype=dtype) for n in (self.rows, self.columns, self.rows, self.columns)]
        unused, no_terms = np.zeros((1, 1)), np.zeros(2)
        weight = np.empty(1)
        lam = np.zeros(1)
        rates = np.ones(2)  # no FTRL in batches (device.supports)
        arrays = self._flat_state()
        schedule = tuple(self.schedule)
        for g in range(self.games):
            weight[0] = self.weight_sum[g]
            game = (
                self.matrix0[g],
                self.matrix1[g],
                self.sign1,
                self.fused,
                True,
                True,
                rates,
                self.bounds[g],
                *work,
            )
            # no joint distribution (nor CE gap) in batches
            state = (
                *(a[g] for a in arrays),
                self.payoff_sum[g],
                weight,
                unused,
                unused,
                unused,
                no_terms,
                lam,
                False,
                False,
            )
            kernels._run_bimatrix_expected(game, state, schedule, self.iteration, iterations)
            self.weight_sum[g] = weight[0]

    # -- results (host copies) ------------------------------------------------------------
    def average_strategy(self) -> tuple[np.ndarray, np.ndarray]:
        """Each game's average strategies ``(B, rows)`` and ``(B, columns)`` (uniform before
        the first iteration)."""
        out = []
        for total in self.state["strategy_sum"]:
            total = self.backend.to_host(total)
            mass = total.sum(axis=1, keepdims=True)
            uniform = np.full_like(total, 1.0 / total.shape[1])
            out.append(np.where(mass > 0, total / np.where(mass > 0, mass, 1.0), uniform))
        return out[0], out[1]

    def current_strategy(self) -> tuple[np.ndarray, np.ndarray]:
        """Each game's current strategies."""
        first, second = (self.backend.to_host(s) for s in self.state["current"])
        return first, second

    def nash_conv(self) -> np.ndarray:
        """NashConv of each game's average profile ``(B,)``, in payoff units (float64 on the
        host, from the float64 payoffs whatever the run's dtype)."""
        x, y = self.average_strategy()
        row = np.einsum("gab,gb->ga", self.payoffs[:, 0], y)
        column = np.einsum("ga,gab->gb", x, self.payoffs[:, 1])
        gaps = row.max(axis=1) - (row * x).sum(axis=1) + column.max(axis=1) - (column * y).sum(axis=1)
        return np.maximum(gaps, 0.0) * self.scale

    def cce_gap(self) -> np.ndarray:
        """The CCE gap of each game's weighted empirical distribution ``(B,)``."""
        weight = self.backend.to_host(self.weight_sum)
        regrets = [self.backend.to_host(r).max(axis=1) for r in self.state["external"]]
        top = np.maximum(regrets[0], regrets[1])
        with np.errstate(invalid="ignore", divide="ignore"):
            gap = np.where(weight > 0, top / np.where(weight > 0, weight, 1.0), 0.0)
        return np.maximum(gap, 0.0) * self.scale
