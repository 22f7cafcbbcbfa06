"""A game tree compiled into flat arrays, and the vectorised passes CFR is made of.

Nodes are numbered breadth first, so every depth is a contiguous range and the children of
each node are contiguous (in the parent's order). Information-set moves are *slots*:
``slot_infoset[s]`` says whose move ``s`` is, and information sets of one player occupy a
contiguous range of slots. An iteration is then a fixed number of array operations per
depth, with no Python recursion per node:

* forward: ``reach[q, h] = reach[q, parent(h)] * (edge probability if q owns the edge)``
  for every player q and chance (row n);
* backward: ``v[i, h] = sum_children p(edge) v[i, child]`` with ``np.add.reduceat`` over
  each node's children;
* counterfactual values (Zinkevich et al. 2007): ``cfv(I, a) = sum_{h in I}
  pi_{-i}(h) v_i(h a)``, one ``bincount`` over decision edges;
* exact best responses in sequence form, one pass over the player's information sets
  (:meth:`TreePasses.best_response_values`).

Everything is linear in the tree's size: compiling permutes the game's flat arrays, the
passes loop over depths (a few array operations each), and nothing recurses, so a chain
100,000 moves deep compiles and solves like any tree of its size.

Shapes: ``strategy``, regrets and values per slot ``(S,)``; ``reach`` ``(n+1, N)``;
``values`` ``(n, N)``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.flat_tree import FlatTree
from rmviz.games.normal_form import sums_to_zero
from rmviz.solvers.columns import MAX_TRACED_SLOTS
from rmviz.solvers.jit import jit
from rmviz.solvers.regret_matching import snap_ties
from rmviz.solvers.scale import largest_payoff
from rmviz.solvers.tree.flat_compile import NODE_INDEX, compile_flat, move_labels


@dataclass(frozen=True)
class CompiledTree:
    """Flat arrays of one :class:`ExtensiveFormGame` (see the module docstring). The (N,)
    columns of ids, counts and players are ``NODE_INDEX`` (int32), ``kind`` is int8; the
    per-slot and per-information-set tables are int64."""

    n_players: int
    parent: np.ndarray  # (N,), -1 at the root
    depth_ranges: tuple[tuple[int, int], ...]  # node ranges per depth
    kind: np.ndarray  # (N,) 0 chance, 1 decision, 2 terminal
    player: np.ndarray  # (N,) acting player, -1 otherwise
    node_infoset: np.ndarray  # (N,) information set of decision nodes, -1 otherwise
    edge_owner: np.ndarray  # (N,) owner of the edge into the node: player, n = chance, -1 root
    edge_slot: np.ndarray  # (N,) slot of decision edges, -1 otherwise
    chance_edges: np.ndarray  # (C,) the nodes whose edge is a chance move, ascending
    chance_edge_probability: np.ndarray  # (C,) the probability of each of those edges
    child_start: np.ndarray  # (N,)
    child_count: np.ndarray  # (N,)
    outcomes: np.ndarray  # (T, n) the terminals' payoffs in depth-first order (the game's rows)
    outcome_terminal: np.ndarray  # (T,) each row's terminal: its number among those in node order
    infoset_player: np.ndarray  # (I,)
    infoset_label: tuple[str, ...]  # (I,)
    infoset_first_slot: np.ndarray  # (I,)
    infoset_size: np.ndarray  # (I,) number of moves
    infoset_first_node: np.ndarray  # (I,) a node of the information set
    infoset_own_depth: np.ndarray  # (I,) number of own earlier decisions (perfect recall)
    slot_infoset: np.ndarray  # (S,)
    slot_move: tuple[str, ...]  # (S,)
    player_slots: tuple[tuple[int, int], ...]  # slot range of each player
    preorder: np.ndarray  # node ids in depth-first order (the order a recursive CFR visits)
    flat: FlatTree = field(repr=False, compare=False)  # the game's arrays it was compiled from

    @functools.cached_property
    def move_label(self) -> tuple[str, ...]:
        """(N,) the move leading to each node (``""`` at the root), made on first use (the
        views and the exports read it; a tuple of N references held by every big run before)."""
        return move_labels(self.flat, self.preorder)

    @functools.cached_property
    def payoffs(self) -> np.ndarray:
        """(n, N) the terminals' payoffs, 0 elsewhere, made on first use (a run of the
        depth-first kernel reads :attr:`outcomes` alone: 16 bytes per history less)."""
        dense = np.zeros((self.n_players, self.n_nodes))
        dense[:, self.kind == 2] = self.terminal_payoffs()
        return dense

    @functools.cached_property
    def chance_probability(self) -> np.ndarray:
        """(N,) the probability of each chance edge, 1 elsewhere, made on first use."""
        dense = np.ones(self.n_nodes)
        dense[self.chance_edges] = self.chance_edge_probability
        return dense

    @functools.cached_property
    def traced_infoset(self) -> np.ndarray:
        """(I,) bool: the information sets whose moves' average strategies a run traces
        (``CFRSolver.columns``): every set of a tree of at most :data:`MAX_TRACED_SLOTS`
        moves; on a bigger tree the sets whose first history comes first breadth first (the
        shallowest: the root's, where a person looks first), whole, while their moves fit."""
        if self.n_slots <= MAX_TRACED_SLOTS:
            return np.ones(self.n_infosets, dtype=bool)
        order = np.argsort(self.infoset_first_node, kind="stable")
        traced = np.zeros(self.n_infosets, dtype=bool)
        traced[order[np.cumsum(self.infoset_size[order]) <= MAX_TRACED_SLOTS]] = True
        return traced

    @functools.cached_property
    def traced_slots(self) -> np.ndarray:
        """The traced moves' slots (:attr:`traced_infoset`), ascending."""
        return np.flatnonzero(self.traced_infoset[self.slot_infoset])

    @functools.cached_property
    def move_number(self) -> np.ndarray:
        """(S,) each slot's move label's number among the tree's distinct move labels, first
        met first: the plots and figures colour a move by it (Leduc's call is one colour at
        every information set, whether or not fold comes first)."""
        numbers: dict[str, int] = {}
        return np.array([numbers.setdefault(move, len(numbers)) for move in self.slot_move], dtype=np.int64)

    def terminal_payoffs(self) -> np.ndarray:
        """(n, T) the payoffs of the terminals in node order (a new array)."""
        payoffs = np.empty((self.n_players, self.outcomes.shape[0]))
        payoffs[:, self.outcome_terminal] = self.outcomes.T
        return payoffs

    @property
    def n_nodes(self) -> int:
        return int(self.parent.shape[0])

    @property
    def n_slots(self) -> int:
        return int(self.slot_infoset.shape[0])

    @property
    def n_infosets(self) -> int:
        return int(self.infoset_player.shape[0])

    @property
    def two_player_zero_sum(self) -> bool:
        """Two players whose terminal payoffs sum to zero (the one rule: ``sums_to_zero``)."""
        return self.n_players == 2 and sums_to_zero(self.outcomes, axis=1)

    def uniform_strategy(self) -> np.ndarray:
        return 1.0 / self.infoset_size[self.slot_infoset]

    def history(self, h: int) -> tuple[str, ...]:
        """The moves from the root to node ``h``."""
        moves = []
        while self.parent[h] >= 0:
            moves.append(self.move_label[h])
            h = int(self.parent[h])
        return tuple(reversed(moves))


class TreeArrays(NamedTuple):
    """What the compiled kernels (:mod:`.kernels`, :mod:`.sampling_kernels`) read of a
    :class:`CompiledTree`, gathered once per tree: its arrays, each player's slot range and the
    two sizes that shape the sampling kernels' work arrays. A kernel that needs another array
    of the tree reads it from here: a field added below and read in the kernel by name."""

    parent: np.ndarray
    edge_owner: np.ndarray
    edge_slot: np.ndarray
    chance_probability: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    payoffs: np.ndarray  # (n, N); a batch's game swaps its own in (``_replace``)
    player: np.ndarray
    node_infoset: np.ndarray
    slot_infoset: np.ndarray
    infoset_player: np.ndarray
    infoset_first_node: np.ndarray
    infoset_size: np.ndarray
    infoset_first_slot: np.ndarray
    player_slots: np.ndarray  # (n, 2) each player's slot range, as CompiledTree.player_slots
    width: int  # the most children of a node
    depth: int  # the number of depths: the longest path's nodes

    @classmethod
    def of(cls, tree: CompiledTree) -> TreeArrays:
        derived: dict[str, Any] = {
            "player_slots": np.array(tree.player_slots, dtype=np.int64).reshape(-1, 2),
            "width": int(tree.child_count.max()),
            "depth": len(tree.depth_ranges),
        }
        return cls(
            **{name: derived[name] if name in derived else getattr(tree, name) for name in cls._fields}
        )


def strategy_table(
    tree: CompiledTree, player_names: Sequence[str], strategy: Any
) -> dict[str, dict[str, float]]:
    """A behaviour strategy (per slot) as data: ``{infoset label: {move: probability}}``, a
    label that two players share with the player's name in front (``"Player 2: 1"``). What
    ``rmviz solve --json`` reports of a run and ``rmviz equilibria --json`` of the LP's
    equilibrium, so the two compare key by key."""
    shared = {label for label, count in Counter(tree.infoset_label).items() if count > 1}
    probabilities, moves = np.asarray(strategy, dtype=np.float64).tolist(), tree.slot_move
    table: dict[str, dict[str, float]] = {}
    for label, player, first, size in zip(
        tree.infoset_label,
        tree.infoset_player.tolist(),
        tree.infoset_first_slot.tolist(),
        tree.infoset_size.tolist(),
        strict=True,
    ):
        if label in shared:
            label = f"{player_names[player]}: {label}"
        table[label] = {moves[s]: probabilities[s] for s in range(first, first + size)}
    return table


def compile_tree(game: ExtensiveFormGame) -> CompiledTree:
    """Number the nodes breadth first and build the flat arrays (from the game's prefix-order
    arrays, with array operations: :mod:`rmviz.solvers.tree.flat_compile`)."""
    return CompiledTree(**compile_flat(game.flat))


def _node_ids(mask: np.ndarray) -> np.ndarray:
    """The ids where ``mask`` holds, in the tree's node columns' type (``NODE_INDEX``)."""
    return np.flatnonzero(mask).astype(NODE_INDEX)


def tie_scale(cfv: Any, reach: Any, payoff_bound: float) -> Any:
    """Per slot ``max(|cfv(I, a)|, U rho(I))``; an instantaneous regret is a tie, exactly 0,
    where ``|r(I, a)| <= TIE_TOLERANCE max_a`` of it over ``I``
    (:func:`~rmviz.solvers.regret_matching.snap_ties`). ``U`` is the largest ``|u|`` and
    ``rho(I) = sum_{h in I} pi_{-i}(h)`` the counterfactual reach (sampled: as the sampled
    values weigh it), so ``U rho(I)`` bounds ``|cfv(I, .)|`` and their rounding cannot reach
    the scale: where every ``cfv(I, a)`` is 0 in exact arithmetic (-3/3 + 2/3 + 1/3) it is
    rounding noise whose size depends on the order of the sums, and scaled by itself it
    would decide differently on each code path. Every path (these passes, the compiled
    kernels, the GPU) computes ``rho`` beside ``cfv`` and decides by this rule."""
    return np.maximum(np.abs(cfv), payoff_bound * reach)


class TreePasses:
    """The vectorised passes over one compiled tree (NumPy; precomputed index arrays)."""

    def __init__(self, tree: CompiledTree) -> None:
        self.tree = tree
        self.payoff_bound = largest_payoff(tree.outcomes)
        n = tree.n_players
        # last_slot[p, h]: the slot of player p's last move on the path to h, -1 if none
        # (h's own move excluded): the sequence (Koller, Megiddo & von Stengel 1994) of p
        # that leads to h
        last_slot = np.full((n, tree.n_nodes), -1, dtype=NODE_INDEX)
        for start, end in tree.depth_ranges[1:]:
            last_slot[:, start:end] = last_slot[:, tree.parent[start:end]]
            moves = start + np.flatnonzero(tree.edge_slot[start:end] >= 0)
            last_slot[tree.edge_owner[moves], moves] = tree.edge_slot[moves]
        self.terminal_sequence = last_slot[:, _node_ids(tree.kind == 2)]  # (n, terminals)
        self.infoset_parent_sequence = last_slot[tree.infoset_player, tree.infoset_first_node]
        # each player's information sets, those with most own decisions above them first
        self.deepest_first = [
            np.flatnonzero(tree.infoset_player == p)[
                np.argsort(-tree.infoset_own_depth[tree.infoset_player == p], kind="stable")
            ]
            for p in range(n)
        ]

    # the per-depth and per-terminal tables that the NumPy passes read, and the best responses
    # do not: built on first use (a run of the compiled kernels never holds them: 6 bytes per
    # history on a binary tree)
    @functools.cached_property
    def levels(self) -> list[tuple[np.ndarray, int, int, np.ndarray]]:
        """Per depth: its internal nodes, the next depth's range, and where each internal
        node's children start inside it."""
        tree, levels = self.tree, []
        for d, (start, end) in enumerate(tree.depth_ranges[:-1]):
            internal = start + _node_ids(tree.child_count[start:end] > 0)
            next_start, next_end = tree.depth_ranges[d + 1]
            offsets = tree.child_start[internal] - next_start
            levels.append((internal, next_start, next_end, offsets))
        return levels

    @functools.cached_property
    def terminals(self) -> np.ndarray:
        """The terminals' node ids, ascending."""
        return _node_ids(self.tree.kind == 2)

    # the decision edges (child ids, as int32 as the tree's columns), their slots, parents and
    # owners: read by the NumPy steps, not by the metrics, so built on first use (a run of
    # the compiled kernels never holds them: 16 bytes per history on a binary tree)
    @functools.cached_property
    def decision_edges(self) -> np.ndarray:
        return _node_ids(self.tree.edge_slot >= 0)

    @functools.cached_property
    def decision_slot(self) -> np.ndarray:
        return self.tree.edge_slot[self.decision_edges]

    @functools.cached_property
    def decision_parent(self) -> np.ndarray:
        return self.tree.parent[self.decision_edges]

    @functools.cached_property
    def decision_player(self) -> np.ndarray:
        return self.tree.edge_owner[self.decision_edges]

    def edge_probabilities(self, strategy: np.ndarray) -> np.ndarray:
        """Probability of the edge into each node: chance's, or the strategy's at its slot."""
        slot = self.tree.edge_slot
        return np.where(slot >= 0, strategy[np.maximum(slot, 0)], self.tree.chance_probability)

    def reach(self, edge_probability: np.ndarray) -> np.ndarray:
        """``(n+1, N)`` reach probabilities: each player's own contribution, chance in row n.
        Per depth, every row is the parent's and the edge owner's row is multiplied by the
        edge's probability (the other rows' factor is 1, so no factor array is needed)."""
        tree = self.tree
        reach = np.ones((tree.n_players + 1, tree.n_nodes))
        for start, end in tree.depth_ranges[1:]:
            reach[:, start:end] = reach[:, tree.parent[start:end]]
            reach[tree.edge_owner[start:end], np.arange(start, end)] *= edge_probability[start:end]
        return reach

    def values(self, edge_probability: np.ndarray, rows: Any = slice(None)) -> np.ndarray:
        """Expected payoffs ``v[i, h]`` below every node (``rows`` selects players)."""
        values = self.tree.payoffs[rows].copy()
        for internal, start, end, offsets in reversed(self.levels):
            weighted = values[..., start:end] * edge_probability[start:end]
            values[..., internal] = np.add.reduceat(weighted, offsets, axis=-1)
        return values

    def others_reach(self, reach: np.ndarray) -> np.ndarray:
        """``pi_{-i}(h)`` for the player i acting at h (chance included): shape (N,)."""
        own_row = self.tree.player[None, :] == np.arange(self.tree.n_players + 1)[:, None]
        return np.prod(np.where(own_row, 1.0, reach), axis=0)

    def counterfactual_values(self, others: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``cfv(I, a) = sum_{h in I} pi_{-i}(h) v_i(h a)`` for every slot."""
        contributions = others[self.decision_parent] * values[self.decision_player, self.decision_edges]
        return np.bincount(self.decision_slot, contributions, minlength=self.tree.n_slots)

    def regret_matching(self, regret: np.ndarray) -> np.ndarray:
        """Per information set: ``[R]_+ / sum``, uniform where no regret is positive."""
        tree = self.tree
        positive = np.maximum(regret, 0.0)
        total = np.bincount(tree.slot_infoset, positive, minlength=tree.n_infosets)[tree.slot_infoset]
        uniform = 1.0 / tree.infoset_size[tree.slot_infoset]
        return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)

    def counterfactual_reach(self, others: np.ndarray) -> np.ndarray:
        """``rho(I, a) = sum_{h in I} pi_{-i}(h)`` for every slot (the same for each slot of
        ``I``), summed as :meth:`counterfactual_values` sums: the tie rule's scale."""
        return np.bincount(self.decision_slot, others[self.decision_parent], minlength=self.tree.n_slots)

    def instantaneous_regret(self, strategy: np.ndarray, cfv: np.ndarray, reach: np.ndarray) -> np.ndarray:
        """``r(I, a) = cfv(I, a) - sum_b sigma(I, b) cfv(I, b)``, exact zeros at ties
        (:func:`tie_scale`; ``reach`` the slots' counterfactual reach)."""
        tree = self.tree
        scale = np.maximum.reduceat(tie_scale(cfv, reach, self.payoff_bound), tree.infoset_first_slot)
        return snap_ties(cfv - self.infoset_sums(strategy * cfv), scale[tree.slot_infoset], np)

    def infoset_sums(self, per_slot: np.ndarray) -> np.ndarray:
        """``sum_a x(I, a)`` broadcast back to the slots."""
        tree = self.tree
        return np.bincount(tree.slot_infoset, per_slot, minlength=tree.n_infosets)[tree.slot_infoset]

    def average_strategy(self, strategy_sum: np.ndarray) -> np.ndarray:
        """The average behaviour strategy of the sums per slot: each information set's sums
        normalised, uniform where they are all zero (never reached)."""
        total = self.infoset_sums(strategy_sum)
        uniform = self.tree.uniform_strategy()
        return np.where(total > 0, strategy_sum / np.where(total > 0, total, 1.0), uniform)

    def best_response_values(self, strategy: np.ndarray) -> np.ndarray:
        """The value of each player's best response to ``strategy`` (exact, pure): shape (n,).

        Sequence form (Koller, Megiddo & von Stengel 1994; von Stengel 1996): player p's
        value against the others is ``sum_z pi_{-p}(z) u_p(z)`` over the terminals z that
        p's pure strategy allows. Perfect recall makes p's information sets a tree under
        the sequences (the slot of p's last move before them), so with
        ``q(s) = sum_{z after s} pi_{-p}(z) u_p(z) + sum_{J after s} V(J)`` and
        ``V(J) = max_{a at J} q(J, a)``, deciding the information sets with most own
        decisions above them first, the best response's value is ``q`` of the empty
        sequence. One pass over the terminals and the information sets: linear in the
        tree's size (one reach pass, then :func:`_best_response_sums`).
        """
        return self.best_responses(self.sequence_sums(self.edge_probabilities(strategy)))

    def sequence_sums(self, edge_probability: np.ndarray) -> np.ndarray:
        """Each player p's ``sum_{z after s} pi_{-p}(z) u_p(z)`` by p's last sequence s before
        the terminal z (``(n, n_slots + 1)``: column 0 the empty sequence, column ``s + 1``
        slot s), from one reach pass; the terminals added in node order."""
        tree = self.tree
        reach = self.reach(edge_probability)[:, self.terminals]
        payoffs = tree.terminal_payoffs()
        sums = np.empty((tree.n_players, tree.n_slots + 1))
        for p in range(tree.n_players):
            contribution = payoffs[p] * np.prod(np.delete(reach, p, axis=0), axis=0)
            sums[p] = np.bincount(self.terminal_sequence[p] + 1, contribution, minlength=tree.n_slots + 1)
        return sums

    def best_responses(self, sums: np.ndarray) -> np.ndarray:
        """Each player's best-response value from the sequence sums (:meth:`sequence_sums`,
        which it adds the information sets' values into): :meth:`best_response_values`'
        second half."""
        tree = self.tree
        out = np.empty(tree.n_players)
        for p in range(tree.n_players):
            q = sums[p]
            out[p] = _best_response_sums(
                q,
                self.deepest_first[p],
                tree.infoset_first_slot,
                tree.infoset_size,
                self.infoset_parent_sequence,
            )
        return out

    def nash_conv(self, strategy: np.ndarray) -> tuple[float, np.ndarray]:
        """``NashConv = sum_i [BR_i - v_i]`` of a behaviour profile, and the values ``v_i``."""
        probabilities = self.edge_probabilities(strategy)
        values = self.values(probabilities)[:, 0].copy()  # not (n, N) kept
        return self.nash_conv_of(values, self.best_responses(self.sequence_sums(probabilities)))

    @staticmethod
    def nash_conv_of(values: np.ndarray, best: np.ndarray) -> tuple[float, np.ndarray]:
        """``NashConv = sum_i [BR_i - v_i]`` (at least 0) of the values and best responses."""
        return max(float((best - values).sum()), 0.0), values


@jit
def _best_response_sums(q, order, first_slot, size, parent_sequence):  # pragma: no cover - compiled
    """``V(J) = max_a q(J, a)`` added to ``q`` of ``J``'s parent sequence, for the information
    sets ``order`` (deepest first); returns ``q`` of the empty sequence (``q[0]``; slot s is
    ``q[s + 1]``). Without numba this runs as Python: still one step per information set."""
    for j in order:
        best = -np.inf
        for s in range(first_slot[j], first_slot[j] + size[j]):
            best = max(best, q[s + 1])
        q[parent_sequence[j] + 1] += best
    return q[0]
