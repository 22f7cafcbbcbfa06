"""Counterfactual regret minimisation on game trees, vectorised over a compiled tree.

CFR (Zinkevich, Johanson, Bowling & Piccione 2007): at every information set I of player
i, the instantaneous counterfactual regret of move a is
``r(I, a) = cfv(I, a) - sum_b sigma(I, b) cfv(I, b)`` with
``cfv(I, a) = sum_{h in I} pi_{-i}(h) v_i(h a)``; regret matching on the cumulative regrets
gives the next strategy, and the average strategy weighs sigma(I) by the player's own reach
``pi_i(I)``. The CFR lecture (shared/seeds) writes the same algorithm recursively.

Variants are the normal-form pieces (:mod:`.weighting`) applied per information set:

* ``cfr``: uniform weights; alternating updates by default, as OpenSpiel's CFRSolver.
* ``cfr+`` (Tammelin 2014): RM+ (regrets clipped at zero), alternating, linear averaging.
* ``linear-cfr`` / ``dcfr`` (Brown & Sandholm 2019): weights t, or (alpha, beta, gamma) =
  (1.5, 0, 2).
* ``greedy-cfr`` (Zhang, Lerer & Brown 2022, appendix): one greedy weight per iteration for
  all information sets, minimising the potential of the average counterfactual regrets,
  floor 0.5 in two-player zero-sum games; simultaneous updates.
* ``mccfr-chance`` (Zinkevich et al. 2007; Lanctot et al. 2009): one chance outcome per
  chance node is sampled each traversal, chance reach counted as 1 on it.
* ``mccfr-external`` (Lanctot et al. 2009): for the traversing player, chance and the
  opponents sample one move at every node; the traverser's moves are all explored; the
  opponents' average strategies are updated where the sample visits them.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from rmviz.errors import ConfigError
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.solvers import cfr_kernel
from rmviz.solvers.metrics import potential
from rmviz.solvers.tree import CompiledTree, TreePasses, compile_tree
from rmviz.solvers.weighting import AVERAGINGS, WEIGHTINGS, Step, greedy_step, scheduled_step

SAMPLINGS = ("none", "chance", "external")


@dataclass(frozen=True)
class CFRConfig:
    """A CFR run; see the module docstring and :data:`CFR_PRESETS`."""

    algorithm: str = "cfr"
    plus: bool = False
    weighting: str = "uniform"
    averaging: str | None = None
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0
    greedy_floor: float | None = None
    updates: str = "alternating"
    sampling: str = "none"
    seed: int = 0
    device: str = "cpu"

    def validated(self) -> CFRConfig:
        if self.weighting not in WEIGHTINGS:
            raise ConfigError(f"unknown weighting {self.weighting!r}; choose one of {', '.join(WEIGHTINGS)}")
        if self.averaging is not None and self.averaging not in AVERAGINGS:
            raise ConfigError(f"unknown averaging {self.averaging!r}; choose one of {', '.join(AVERAGINGS)}")
        if self.updates not in ("simultaneous", "alternating"):
            raise ConfigError(f"unknown updates {self.updates!r}; choose simultaneous or alternating")
        if self.sampling not in SAMPLINGS:
            raise ConfigError(f"unknown sampling {self.sampling!r}")
        if self.weighting == "greedy" and self.updates != "simultaneous":
            raise ConfigError("greedy weights choose one weight per iteration: use simultaneous updates")
        if self.sampling == "external" and self.updates != "alternating":
            raise ConfigError("external sampling traverses one player at a time: use alternating updates")
        if self.sampling != "none" and (
            self.weighting != "uniform" or self.averaging not in (None, "uniform")
        ):
            raise ConfigError("Monte-Carlo CFR runs with uniform weights in this version")
        if self.device == "gpu":
            raise ConfigError("tree solvers run on the CPU in this version; use --device cpu or auto")
        for name in ("alpha", "beta", "gamma"):
            if not math.isfinite(getattr(self, name)):
                raise ConfigError(f"{name} must be a finite number")
        return self


CFR_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "cfr": ("CFR (Zinkevich et al. 2007)", {}),
    "cfr+": (
        "CFR+: RM+, alternating, linear averaging (Tammelin 2014)",
        {"plus": True, "averaging": "linear"},
    ),
    "linear-cfr": (
        "Linear CFR: iteration t weighs t (Brown & Sandholm 2019)",
        {"weighting": "linear"},
    ),
    "dcfr": (
        "Discounted CFR, alpha=1.5 beta=0 gamma=2 (Brown & Sandholm 2019)",
        {"weighting": "discounted"},
    ),
    "greedy-cfr": (
        "CFR with greedy weights (Zhang, Lerer & Brown 2022)",
        {"weighting": "greedy", "updates": "simultaneous"},
    ),
    "mccfr-chance": (
        "chance-sampling Monte-Carlo CFR (Lanctot et al. 2009)",
        {"sampling": "chance"},
    ),
    "mccfr-external": (
        "external-sampling Monte-Carlo CFR (Lanctot et al. 2009)",
        {"sampling": "external"},
    ),
}


def cfr_preset(name: str, **overrides: Any) -> CFRConfig:
    """The :class:`CFRConfig` of preset ``name`` with ``overrides`` (None values ignored)."""
    if name not in CFR_PRESETS:
        raise ConfigError(f"unknown tree algorithm {name!r}; choose one of {', '.join(CFR_PRESETS)}")
    fields = {**CFR_PRESETS[name][1], **{k: v for k, v in overrides.items() if v is not None}}
    return replace(CFRConfig(algorithm=name), **fields).validated()


@dataclass(frozen=True)
class TreeMetrics:
    """Equilibrium distances of the average profile of a tree solver.

    ``eps_bound`` is the sum over players and information sets of the largest positive
    average counterfactual regret, which bounds NashConv in two-player zero-sum games
    (Zinkevich et al. 2007, Theorem 3).
    """

    nash_conv: float
    exploitability: float
    value: tuple[float, ...]
    eps_bound: float
    potential: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "nash_conv": self.nash_conv,
            "exploitability": self.exploitability,
            "cce_gap": None,
            "ce_gap": None,
            "eps_bound": self.eps_bound,
            "welfare": float(sum(self.value)),
            "value": list(self.value),
            "potential": self.potential,
        }


@dataclass(frozen=True)
class TreeSnapshot:
    """An immutable copy of a tree solver's state; strategies are per slot (``CompiledTree``)."""

    iteration: int
    current_strategy: np.ndarray
    average_strategy: np.ndarray
    cumulative_regret: np.ndarray
    metrics: TreeMetrics | None
    seconds: float


@dataclass(frozen=True)
class TraversalRecord:
    """One pass over the tree: for ``player`` (or all players when ``None``).

    ``reach`` is ``(n+1, N)`` (chance in the last row; sampled edges count 1, unsampled 0),
    ``values`` ``(n, N)`` expected payoffs below each node, ``counterfactual_values`` and
    ``instantaneous_regret`` per slot (non-zero for the updated players' slots only).
    """

    player: int | None
    reach: np.ndarray
    values: np.ndarray
    counterfactual_values: np.ndarray
    instantaneous_regret: np.ndarray


@dataclass(frozen=True)
class IterationRecord:
    """Everything one CFR iteration did, for the step-by-step tree view.

    Per slot: strategy and cumulative regret before and after, and the average-strategy
    increment (``c_avg * pi_i(I) * sigma(I, a)``); ``order`` is the depth-first order in
    which a recursive CFR visits the nodes.
    """

    iteration: int
    traversals: tuple[TraversalRecord, ...]
    strategy_before: np.ndarray
    strategy_after: np.ndarray
    cumulative_regret_before: np.ndarray
    cumulative_regret_after: np.ndarray
    average_increment: np.ndarray
    order: np.ndarray


def _frozen(array: np.ndarray) -> np.ndarray:
    copy = np.array(array, dtype=np.float64, copy=True)
    copy.setflags(write=False)
    return copy


@dataclass
class CFRSolver:
    """CFR and its variants on an :class:`ExtensiveFormGame` (the ``Solver`` protocol)."""

    game: ExtensiveFormGame
    config: CFRConfig = field(default_factory=CFRConfig)

    def __post_init__(self) -> None:
        self.config = self.config.validated()
        self.tree: CompiledTree = compile_tree(self.game)
        self.passes = TreePasses(self.tree)
        floor = self.config.greedy_floor
        if floor is None:
            floor = 0.5 if self._two_player_zero_sum() else 0.0
        self.greedy_floor = floor
        # whether iterations run in the numba kernel without the GIL (the app's worker need
        # not step aside while the window draws)
        self.releases_gil = cfr_kernel.kernel_available(self)
        self.reset(self.config.seed)

    def _two_player_zero_sum(self) -> bool:
        terminals = self.tree.kind == 2
        return self.tree.n_players == 2 and bool(
            np.allclose(self.tree.payoffs[:, terminals].sum(axis=0), 0.0)
        )

    # -- Solver protocol -----------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Back to the uniform strategy, zero regrets, iteration 0."""
        self.seed = self.config.seed if seed is None else int(seed)
        self.rng = np.random.default_rng(self.seed)
        slots = self.tree.n_slots
        self.iteration = 0
        self.elapsed = 0.0
        self.strategy = self.tree.uniform_strategy()
        self.regret = np.zeros(slots)
        self.strategy_sum = np.zeros(slots)
        self.true_regret = np.zeros(slots)  # averaging-weighted counterfactual regrets
        self.weight_sum = 0.0
        self.last_lambda = 0.0

    def step(self, iterations: int = 1) -> None:
        """Run ``iterations`` iterations."""
        start = time.perf_counter()
        if cfr_kernel.kernel_available(self):
            cfr_kernel.run(self, iterations)
        else:
            for _ in range(iterations):
                self._iterate(record=False)
        self.elapsed += time.perf_counter() - start

    def step_recorded(self) -> IterationRecord:
        """Run one iteration and return what happened in it (same update as :meth:`step`)."""
        start = time.perf_counter()
        record = self._iterate(record=True)
        self.elapsed += time.perf_counter() - start
        assert record is not None
        return record

    def average_strategy(self) -> np.ndarray:
        """The average behaviour strategy per slot (uniform where never reached)."""
        total = self.passes.infoset_sums(self.strategy_sum)
        uniform = self.tree.uniform_strategy()
        return np.where(total > 0, self.strategy_sum / np.where(total > 0, total, 1.0), uniform)

    def metrics(self) -> TreeMetrics:
        """NashConv (exact best responses), exploitability = NashConv / n, value, bounds."""
        nash_conv, values = self.passes.nash_conv(self.average_strategy())
        weight = self.weight_sum if self.weight_sum > 0 else 1.0
        average = self.true_regret / weight
        best = np.maximum.reduceat(np.maximum(average, 0.0), self.tree.infoset_first_slot)
        return TreeMetrics(
            nash_conv=nash_conv,
            exploitability=nash_conv / self.tree.n_players,
            value=tuple(float(v) for v in values),
            eps_bound=float(best.sum()),
            potential=potential([average]),
        )

    def snapshot(self, metrics: bool = True) -> TreeSnapshot:
        return TreeSnapshot(
            iteration=self.iteration,
            current_strategy=_frozen(self.strategy),
            average_strategy=_frozen(self.average_strategy()),
            cumulative_regret=_frozen(self.regret),
            metrics=self.metrics() if metrics else None,
            seconds=self.elapsed,
        )

    def strategy_table(self, strategy: np.ndarray) -> dict[str, dict[str, float]]:
        """``{infoset label: {move: probability}}``; labels shared by two players get the
        player's name in front."""
        tree = self.tree
        labels = list(tree.infoset_label)
        table: dict[str, dict[str, float]] = {}
        for i, label in enumerate(labels):
            if labels.count(label) > 1:
                label = f"{self.game.player_names[tree.infoset_player[i]]}: {label}"
            first, size = tree.infoset_first_slot[i], tree.infoset_size[i]
            table[label] = {tree.slot_move[s]: float(strategy[s]) for s in range(first, first + size)}
        return table

    # -- one iteration ---------------------------------------------------------------------
    def _iterate(self, record: bool) -> IterationRecord | None:
        config, tree = self.config, self.tree
        t = self.iteration + 1
        step = scheduled_step(config.weighting, config.averaging, t, config.alpha, config.beta, config.gamma)
        before = (self.strategy.copy(), self.regret.copy(), self.strategy_sum.copy()) if record else None
        traversals = []
        if config.updates == "simultaneous":
            regret, increment, trace = self._traverse(None)
            if config.weighting == "greedy":
                step, self.last_lambda = greedy_step(
                    self.true_regret / max(self.weight_sum, 1e-300),
                    regret,
                    self.weight_sum,
                    t,
                    self.greedy_floor,
                    np,
                )
                self.last_lambda = float(self.last_lambda)
            self._update(slice(None), regret, increment, step)
            traversals.append(trace)
        else:
            for player in range(tree.n_players):
                regret, increment, trace = self._traverse(player)
                self._update(slice(*tree.player_slots[player]), regret, increment, step)
                if config.sampling == "external":
                    self._update_opponent_averages(trace, player, step)
                traversals.append(trace)
        self.weight_sum = float(step.d_avg * self.weight_sum + step.c_avg)
        self.iteration = t
        if before is None:
            return None
        return IterationRecord(
            iteration=t,
            traversals=tuple(traversals),
            strategy_before=_frozen(before[0]),
            strategy_after=_frozen(self.strategy),
            cumulative_regret_before=_frozen(before[1]),
            cumulative_regret_after=_frozen(self.regret),
            average_increment=_frozen(self.strategy_sum - step.d_avg * before[2]),
            order=tree.preorder,
        )

    def _traverse(self, player: int | None) -> tuple[np.ndarray, np.ndarray, TraversalRecord]:
        """Regrets and own-reach-weighted strategy of ``player`` (all players if None)."""
        passes, tree = self.passes, self.tree
        probabilities = passes.edge_probabilities(self.strategy)
        if self.config.sampling != "none":
            probabilities = self._sampled(probabilities, player)
        reach = passes.reach(probabilities)
        values = passes.values(probabilities)
        cfv = passes.counterfactual_values(passes.others_reach(reach), values)
        regret = cfv - passes.infoset_sums(self.strategy * cfv)
        own_reach = reach[tree.infoset_player, tree.infoset_first_node][tree.slot_infoset]
        increment = own_reach * self.strategy
        if player is not None:
            mine = tree.infoset_player[tree.slot_infoset] == player
            regret = np.where(mine, regret, 0.0)
            # external sampling: the traverser's average is updated on the opponents' passes
            increment = np.where(mine & (self.config.sampling != "external"), increment, 0.0)
        return regret, increment, TraversalRecord(player, reach, values, cfv, regret)

    def _sampled(self, probabilities: np.ndarray, player: int | None) -> np.ndarray:
        """Edge probabilities with one sampled move (probability 1) at the sampled nodes:
        chance nodes, and for external sampling the non-traversing players' nodes."""
        tree = self.tree
        sample = tree.edge_owner == tree.n_players
        if self.config.sampling == "external":
            sample = sample | ((tree.edge_owner >= 0) & (tree.edge_owner != player))
        sample[0] = False
        # Siblings are contiguous: their cumulative probabilities come from one running sum.
        running = np.cumsum(probabilities)
        before = running[tree.child_start - 1]  # mass before each node's first child
        total = running[tree.child_start + tree.child_count - 1] - before
        parent = np.maximum(tree.parent, 0)
        upper = running - before[parent]
        lower = upper - probabilities
        draw = self.rng.random(tree.n_nodes)[parent] * total[parent]  # one draw per node
        chosen = (lower <= draw) & (draw < upper)
        return np.where(sample, chosen.astype(np.float64), probabilities)

    def _update(self, slots: slice, regret: np.ndarray, increment: np.ndarray, step: Step) -> None:
        """Discount-form updates of the given slots, then regret matching."""
        config = self.config
        current = self.regret[slots]
        updated = np.where(current > 0, step.d_pos * current, step.d_neg * current) + step.c * regret[slots]
        if config.plus:
            updated = np.maximum(updated, 0.0)
        self.regret[slots] = updated
        self.strategy_sum[slots] = step.d_avg * self.strategy_sum[slots] + step.c_avg * increment[slots]
        self.true_regret[slots] = step.d_avg * self.true_regret[slots] + step.c_avg * regret[slots]
        self.strategy[slots] = self.passes.regret_matching(self.regret)[slots]

    def _update_opponent_averages(self, trace: TraversalRecord, player: int, step: Step) -> None:
        """External sampling: opponents' average strategies where the sample visits them."""
        tree = self.tree
        rows = [q for q in range(tree.n_players + 1) if q != player]
        visited = np.prod(trace.reach[rows], axis=0)
        decision = tree.node_infoset >= 0
        counts = np.bincount(tree.node_infoset[decision], visited[decision], minlength=tree.n_infosets)
        opponents = tree.infoset_player[tree.slot_infoset] != player
        add = np.where(opponents, counts[tree.slot_infoset] * self.strategy, 0.0)
        self.strategy_sum = np.where(
            opponents, step.d_avg * self.strategy_sum + step.c_avg * add, self.strategy_sum
        )
