"""One CFR iteration at one information set, number by number (the tree window's
explanation; :mod:`rmviz.present.tree_explain` writes it out).

:func:`explain_infoset` reads an :class:`~.solver.IterationRecord` (never a solver's live
arrays) and returns an :class:`InfosetStep` for information set J of player i in the
traversal that updated i (the CFR lecture's notation): each history's ``P(h | pi_-i)`` and
move values ``U_i(pi | h m)``, ``P(J | pi_-i)`` (with alternating updates also the reach
under every player's ``pi^T``, which the lecture's pseudo-code reads), the counterfactual
values ``v(J, m)``, the instantaneous regret ``r^T(J, m)`` (Zinkevich et al. 2007), the
cumulative regret ``R^T = d_+ [R^{T-1}]^+ + d_- [R^{T-1}]^- + c r^T`` with the iteration's
weights (:mod:`rmviz.solvers.weighting`), the regret-matched ``pi^{T+1}(J)`` and the strategy
sum ``S^T = d_avg S^{T-1} + c_avg w pi^T(J)``, with ``w`` the own reach ``pi_i(J)``; in
Monte-Carlo CFR (Lanctot et al. 2009) the number of J's histories the other players' external
samples visit, or ``pi_i(h) / q(h)`` at outcome sampling's sampled history h. Sampled moves
count 1 in ``P(h | pi_-i)`` and the others 0; outcome sampling's values are
importance-weighted. Every number is the record's, in payoff units;
``tests/solvers/tree/test_explain.py`` checks them against the record and an independent
recursive CFR.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.config import CFRConfig
from rmviz.solvers.tree.solver import IterationRecord


@dataclass(frozen=True)
class HistoryReach:
    """One history h of J: its moves from the root, ``P(h | pi_-i)`` in the traversal,
    the same with every player's strategy of the iteration's start, and ``U_i(pi | h m)``."""

    path: tuple[str, ...]
    reach: float
    reach_at_start: float
    values: np.ndarray


@dataclass(frozen=True)
class AverageTerm:
    """One addition to the strategy sum: ``c_avg * weight * strategy`` in ``traversal``, the
    traversal of ``traverser`` (None: simultaneous updates); ``weight`` is the own reach
    ``pi_i(J)``, or for external sampling the number of J's histories the sample visited."""

    traversal: int
    traverser: int | None
    weight: float
    strategy: np.ndarray


@dataclass(frozen=True)
class InfosetStep:
    """Iteration ``iteration`` at information set ``infoset`` (see the module docstring);
    arrays have one entry per move of J."""

    iteration: int
    config: CFRConfig
    player_names: tuple[str, ...]
    infoset: int
    label: str
    player: int
    moves: tuple[str, ...]
    traversal: int  # the index of the traversal that updated the player
    traverser: int | None  # its player (None: simultaneous updates)
    updated_before: tuple[int, ...]  # players who already play pi^{T+1} in that traversal
    histories: tuple[HistoryReach, ...]
    reach: float  # P(J | pi_-i)
    reach_at_start: float  # the same with pi^T for every player
    cfv: np.ndarray  # v(J, m)
    strategy: np.ndarray  # pi^T(J), played at J in the traversal
    value: float  # sum_a pi^T(J)(a) v(J, a)
    regret: np.ndarray  # r^T(J, m)
    d_pos: float
    d_neg: float
    c: float
    lam: float | None  # the greedy weight (None: a fixed schedule, or T = 1)
    regret_before: np.ndarray  # R^{T-1}(J, m)
    regret_after: np.ndarray  # R^T(J, m)
    next_strategy: np.ndarray  # pi^{T+1}(J)
    d_avg: float
    c_avg: float
    average_terms: tuple[AverageTerm, ...]
    strategy_sum_before: np.ndarray  # S^{T-1}(J, m)
    strategy_sum_after: np.ndarray  # S^T(J, m)
    average_before: np.ndarray  # pibar^{T-1}(J)
    average_after: np.ndarray  # pibar^T(J)
    guide: np.ndarray | None = None  # predictive CFR: d' R^T + m^{T+1}, what pi^{T+1} matches

    def as_dict(self) -> dict[str, Any]:
        """Plain types for JSON (``rmviz step --json``): arrays as lists, the configuration's
        algorithm and weights."""
        out: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key == "config":
                out["algorithm"] = value.algorithm
            elif key == "histories":
                out[key] = [
                    {
                        "path": list(h.path),
                        "reach": h.reach,
                        "reach_at_start": h.reach_at_start,
                        "values": h.values.tolist(),
                    }
                    for h in value
                ]
            elif key == "average_terms":
                out[key] = [
                    {
                        "traversal": a.traversal,
                        "traverser": a.traverser,
                        "weight": a.weight,
                        "strategy": a.strategy.tolist(),
                    }
                    for a in value
                ]
            else:
                out[key] = value.tolist() if isinstance(value, np.ndarray) else value
        return out

    @property
    def name(self) -> str:
        """The player's name."""
        return self.player_names[self.player]

    @property
    def averaging(self) -> str:
        """The average's scheme: ``uniform``, ``linear``, ``quadratic``, ``discounted`` or
        ``greedy``."""
        return self.config.averaging or self.config.weighting


def _normalised(values: np.ndarray) -> np.ndarray:
    total = float(values.sum())
    return values / total if total > 0 else np.full(values.shape, 1.0 / values.size)


def _others_reach(tree: CompiledTree, strategy: np.ndarray, h: int, player: int) -> float:
    """The other players' part of ``P(h | pi_-i)`` under ``strategy`` (chance left out)."""
    reach = 1.0
    while tree.parent[h] >= 0:
        owner = int(tree.edge_owner[h])
        if owner != player and owner < tree.n_players:
            reach *= float(strategy[tree.edge_slot[h]])
        h = int(tree.parent[h])
    return reach


def explain_infoset(
    tree: CompiledTree,
    config: CFRConfig,
    player_names: Sequence[str],
    record: IterationRecord,
    infoset: int,
) -> InfosetStep:
    """Iteration ``record.iteration`` of a run of ``config`` on ``tree`` at ``infoset``."""
    player = int(tree.infoset_player[infoset])
    first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
    slots = slice(first, first + size)
    k = next(k for k, t in enumerate(record.traversals) if t.player in (None, player))
    trace = record.traversals[k]
    chance = tree.n_players
    others = [q for q in range(tree.n_players + 1) if q != player]
    updated_before = tuple(
        int(t.player) for t in record.traversals[:k] if t.player is not None and t.player != player
    )
    rows = []
    histories = np.flatnonzero(tree.node_infoset == infoset).tolist()
    for h in histories:
        reach = float(trace.reach[others, h].prod())
        if updated_before and config.sampling != "external":
            at_start = float(trace.reach[chance, h]) * _others_reach(tree, record.strategy_before, h, player)
        else:
            at_start = reach
        values = np.empty(size)
        for child in range(int(tree.child_start[h]), int(tree.child_start[h] + tree.child_count[h])):
            values[int(tree.edge_slot[child]) - first] = trace.values[player, child]
        rows.append(HistoryReach(tree.history(h), reach, at_start, values))
    strategy = np.array(trace.strategy[slots])
    cfv = np.array(trace.counterfactual_values[slots])
    step = record.step
    before = np.array(record.cumulative_regret_before[slots])
    if config.sampling == "external":  # the other players' traversals add to i's average
        terms = []
        for j, other in enumerate(record.traversals):
            if other.player == player:
                continue
            sampled = [q for q in range(tree.n_players + 1) if q != other.player]
            visits = sum(
                float(other.reach[sampled, h].prod()) for h in np.flatnonzero(tree.node_infoset == infoset)
            )
            terms.append(AverageTerm(j, other.player, visits, np.array(other.strategy[slots])))
    elif config.sampling == "outcome":  # pi_i(h) / q(h) at the sampled history of J
        assert trace.sample_reach is not None
        on_path = [h for h in np.flatnonzero(tree.node_infoset == infoset) if trace.sample_reach[h] > 0]
        own = sum(float(trace.reach[player, h] / trace.sample_reach[h]) for h in on_path)
        terms = [AverageTerm(k, trace.player, own, strategy)]
    else:
        own = float(trace.reach[player, tree.infoset_first_node[infoset]])
        if config.sampling == "chance" and not any(float(trace.reach[chance, h]) == 1.0 for h in histories):
            own = 0.0  # chance sampling adds to the average where the sample reaches J
        terms = [AverageTerm(k, trace.player, own, strategy)]
    sum_before = np.array(record.strategy_sum_before[slots])
    sum_after = np.array(record.strategy_sum_after[slots])
    return InfosetStep(
        iteration=record.iteration,
        config=config,
        player_names=tuple(player_names),
        infoset=infoset,
        label=tree.infoset_label[infoset],
        player=player,
        moves=tuple(tree.slot_move[first : first + size]),
        traversal=k,
        traverser=trace.player,
        updated_before=updated_before,
        histories=tuple(rows),
        reach=float(sum(row.reach for row in rows)),
        reach_at_start=float(sum(row.reach_at_start for row in rows)),
        cfv=cfv,
        strategy=strategy,
        value=float(strategy @ cfv),
        regret=np.array(trace.instantaneous_regret[slots]),
        d_pos=step.d_pos,
        d_neg=step.d_neg,
        c=step.c,
        lam=record.greedy_lambda,
        regret_before=before,
        regret_after=np.array(record.cumulative_regret_after[slots]),
        next_strategy=np.array(record.strategy_after[slots]),
        d_avg=step.d_avg,
        c_avg=step.c_avg,
        average_terms=tuple(terms),
        strategy_sum_before=sum_before,
        strategy_sum_after=sum_after,
        average_before=_normalised(sum_before),
        average_after=_normalised(sum_after),
        guide=None if record.guide_after is None else np.array(record.guide_after[slots]),
    )
