"""Full-traversal CFR on an NVIDIA GPU: the kernels of ``cfr.cu``, launched from CuPy.

The CPU runs CFR in one compiled loop over node ids (:mod:`.kernels`); on a GPU the loops
become one kernel per depth (nodes are numbered breadth first, so a depth is a contiguous
range whose parents all lie in the depth above) and two over the traverser's slots and
information sets. Compiled without fused multiply-adds and summing in the CPU's order, the
iterates equal the CPU kernel's bit for bit. Runs CFR, CFR+, linear CFR, DCFR and predictive
CFR+ and DCFR+, simultaneous or alternating; greedy CFR and Monte-Carlo CFR stay on the CPU. A batch of
games of one tree that differ only in their payoffs (:mod:`.batch`) runs in the same
launches, with a second grid dimension over the games. CuPy arrives as ``xp`` from
:mod:`rmviz.solvers.backend`, the one module that imports it.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from rmviz.solvers.scale import largest_payoff
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.kernels import Schedule
from rmviz.solvers.tree.state import CFRState

SOURCE = Path(__file__).with_name("cfr.cu")
THREADS = 256


@functools.cache
def _module(xp: ModuleType) -> Any:
    return xp.RawModule(code=SOURCE.read_text(), options=("-std=c++17", "--fmad=false"))


class DeviceCFR:
    """One compiled tree on the GPU (``CFRSolver``'s full traversals with ``device="gpu"``),
    or a batch of its games: ``payoffs`` ``(B, n, N)`` replaces the tree's ``(n, N)``. The
    tree's arrays are shared by the games, the per-game ones get a leading axis of B (a
    single solver is a batch of one)."""

    def __init__(
        self, xp: ModuleType, tree: CompiledTree, config: CFRConfig, payoffs: np.ndarray | None = None
    ) -> None:
        self.xp, self.tree, self.config = xp, tree, config
        payoffs = tree.payoffs[None] if payoffs is None else payoffs
        # the host's steps, as the CPU kernels' (weighting.step_of); the tie rule's U per game
        self.schedule = Schedule.of(config, largest_payoff(payoffs))
        self.games = games = int(payoffs.shape[0])
        first = tree.infoset_first_slot
        if np.any(np.diff(first) <= 0):  # compile_flat numbers them so; the ranges rely on it
            raise ValueError("information sets must be numbered in slot order")
        n, nodes = tree.n_players, tree.n_nodes

        def put(array: np.ndarray, dtype: Any = np.int64) -> Any:
            return xp.asarray(np.ascontiguousarray(array, dtype=dtype))

        self.parent, self.owner, self.slot = put(tree.parent), put(tree.edge_owner), put(tree.edge_slot)
        self.chance = put(tree.chance_probability, np.float64)
        self.child_start, self.child_count = put(tree.child_start), put(tree.child_count)
        self.payoffs = put(payoffs, np.float64)
        self.bound = put(np.array([largest_payoff(game) for game in payoffs]), np.float64)
        self.node_player = put(tree.player)
        self.infoset_player, self.infoset_first_node = put(tree.infoset_player), put(tree.infoset_first_node)
        self.first_slot, self.size = put(first), put(tree.infoset_size)
        # the decision edges of each slot in node order (the CPU kernel's order of summation)
        edges = np.flatnonzero(tree.edge_slot >= 0)
        edges = edges[np.argsort(tree.edge_slot[edges], kind="stable")]
        offsets = np.zeros(tree.n_slots + 1, dtype=np.int64)
        np.cumsum(np.bincount(tree.edge_slot[edges], minlength=tree.n_slots), out=offsets[1:])
        self.edges, self.edge_offsets = put(edges), put(offsets)
        self.probability = xp.ones((games, nodes))
        self.reach = xp.ones((games, n + 1, nodes))
        self.values = xp.zeros((games, n, nodes))
        self.cfv = xp.zeros((games, tree.n_slots))
        self.rho = xp.zeros((games, tree.n_slots))  # counterfactual reach: the tie rule's scale
        self.no_prediction = xp.zeros(1)  # the kernel's placeholder when the run is not predictive
        # slot and information-set ranges of each traversal (all at once when simultaneous)
        ranges = tree.player_slots if config.updates == "alternating" else ((0, tree.n_slots),)
        self.traversals = [
            (lo, hi, int(np.searchsorted(first, lo)), int(np.searchsorted(first, hi))) for lo, hi in ranges
        ]
        self.kernels = {
            name: _module(xp).get_function(name)
            for name in ("forward", "backward", "counterfactual", "infosets")
        }

    def nbytes(self) -> int:
        """The bytes of the tree and state arrays on the device (each read or written once or
        more per traversal: the memory bound of an iteration)."""
        return sum(int(a.nbytes) for a in vars(self).values() if isinstance(a, self.xp.ndarray))

    def _launch(self, name: str, count: int, *args: Any) -> None:
        if count > 0:
            self.kernels[name]((-(-count // THREADS), self.games), (THREADS,), args)

    def run(self, state: CFRState, iterations: int) -> None:
        """``iterations`` iterations on ``state`` (host arrays, updated in place; ``(S,)`` for
        one game, ``(B, S)`` for a batch). The :class:`~.state.CFRState` stays on the host:
        this uploads its slot arrays (four, five with predictive CFR's prediction), runs the
        iterations and copies them back (a few kilobytes per ``step(n)``, against megabytes of
        tree per iteration)."""
        if iterations <= 0:
            return
        xp = self.xp
        hosts: tuple[np.ndarray, ...] = (state.strategy, state.regret, state.strategy_sum, state.true_regret)
        hosts += () if state.prediction is None else (state.prediction,)
        devices = tuple(xp.asarray(host) for host in hosts)
        strategy, regret, strategy_sum, true_regret = devices[:4]
        prediction = devices[4] if len(devices) > 4 else None
        state.weight_sum = self.iterate(
            strategy,
            regret,
            strategy_sum,
            true_regret,
            state.iteration,
            state.weight_sum,
            iterations,
            prediction,
        )
        for host, device in zip(hosts, devices, strict=True):
            host[...] = xp.asnumpy(device)
        state.iteration += iterations

    def iterate(
        self,
        strategy: Any,
        regret: Any,
        strategy_sum: Any,
        true_regret: Any,
        iteration: int,
        weight_sum: float,
        iterations: int,
        prediction: Any = None,
    ) -> float:
        """Iterations ``iteration + 1 .. iteration + iterations`` on device arrays, in place,
        with no host synchronisation; returns the new weight sum.

        Per iteration and traversal: ``depths - 1`` forward launches (edge probabilities,
        reach), ``depths`` backward launches (values), one counterfactual-value launch over
        the traverser's slots (each slot sums its decision edges, listed in node order: no
        atomics, the CPU's order of summation) and one launch over its information sets
        (regret update, sums, regret matching). Fixed schedules: the discounts are the
        host's :func:`~rmviz.solvers.weighting.step_of` floats; predictive CFR also takes the
        next iteration's regret discounts for its guide and keeps ``prediction`` ``(B, S)``."""
        tree, config = self.tree, self.config
        if config.predictive and prediction is None:
            raise ValueError("predictive CFR keeps its prediction on the device: pass it")
        nodes, players, slots = np.int64(tree.n_nodes), np.int32(tree.n_players), np.int64(tree.n_slots)
        for step in range(iterations):
            t = iteration + step + 1
            s = self.schedule.step(t)
            ahead = self.schedule.step(t + 1)  # predictive CFR's guide: the next discounts
            for lo, hi, first, last in self.traversals:
                for start, end in tree.depth_ranges[1:]:
                    self._launch(
                        "forward",
                        end - start,
                        self.parent,
                        self.owner,
                        self.slot,
                        self.chance,
                        strategy,
                        self.probability,
                        self.reach,
                        nodes,
                        players,
                        np.int64(start),
                        np.int64(end),
                        slots,
                    )
                for start, end in reversed(tree.depth_ranges):
                    self._launch(
                        "backward",
                        end - start,
                        self.child_start,
                        self.child_count,
                        self.payoffs,
                        self.probability,
                        self.values,
                        nodes,
                        players,
                        np.int64(start),
                        np.int64(end),
                    )
                self._launch(
                    "counterfactual",
                    hi - lo,
                    self.edge_offsets,
                    self.edges,
                    self.parent,
                    self.node_player,
                    self.reach,
                    self.values,
                    self.cfv,
                    self.rho,
                    nodes,
                    players,
                    np.int64(lo),
                    np.int64(hi),
                    slots,
                )
                self._launch(
                    "infosets",
                    last - first,
                    self.first_slot,
                    self.size,
                    self.infoset_player,
                    self.infoset_first_node,
                    self.reach,
                    self.cfv,
                    self.rho,
                    self.bound,
                    strategy,
                    regret,
                    strategy_sum,
                    true_regret,
                    self.no_prediction if prediction is None else prediction,
                    nodes,
                    np.int64(first),
                    np.int64(last),
                    np.float64(s.d_pos),
                    np.float64(s.d_neg),
                    np.float64(s.d_avg),
                    np.float64(s.c_avg),
                    np.float64(ahead.d_pos),
                    np.float64(ahead.d_neg),
                    np.int32(config.plus),
                    np.int32(prediction is not None),
                    players,
                    slots,
                )
            weight_sum = s.d_avg * weight_sum + s.c_avg
        return weight_sum
