"""Game trees as flat arrays in prefix (depth-first) order, built without a Python object per node.

Readers and walkers that meet a tree's histories in prefix order (a Gambit .efg file, an
OpenSpiel walk, a conversion of :class:`~rmviz.games.extensive_form.Node` trees) append
them to a :class:`FlatTreeBuilder`: a few integers per history in ``array`` columns (8 bytes
each), strings interned in tables (move lists, chance distributions and information sets
are stored once however many histories share them). :meth:`FlatTreeBuilder.finish` gives a
:class:`FlatTree`, the columns as NumPy arrays.

:func:`check` then validates the tree with array operations: it holds exactly when the
per-node validation of :mod:`rmviz.games.extensive_form` accepts the same tree (moves,
players, chance probabilities, payoffs, consistent information sets and perfect recall).
Perfect recall is checked in its sequence form (Koller, Megiddo & von Stengel 1994): every
history of an information set has the same *last own move* of its player (the information
set and move of the player's nearest decision above it, or none); by induction on the
number of own decisions above, that is the same as every history sharing the player's whole
own history (Kuhn 1953), which is what the per-node validation compares. The builder tracks
each player's last own move along its stack, so nothing is walked twice.

When :func:`check` finds a problem the caller builds the :class:`Node` tree
(:func:`nodes_of`) and runs the per-node validation, whose message names the history.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rmviz.games.normal_form import MAX_PAYOFF

CHANCE_KIND, DECISION_KIND, TERMINAL_KIND = 0, 1, 2
KIND_NAMES = ("chance", "decision", "terminal")
AFTER_THE_END = "the tree is complete: a history after the root's last descendant"


@dataclass(frozen=True, eq=False)
class FlatTree:
    """A game tree's histories in prefix order (ids 0..N-1, the root first).

    Per history: ``kind`` (0 chance, 1 decision, 2 terminal), ``parent`` (-1 at the root),
    ``depth``, ``move_index`` (which of the parent's moves leads here, -1 at the root),
    ``moveset`` (index into ``movesets``; -1 at terminals), ``chance_set`` (index into
    ``chance_probabilities``; -1 unless chance), ``infoset`` (index into the information-set
    tables; -1 unless decision), ``own_before`` (decision histories: the builder's slot of
    the player's last own move above, -1 if none), ``terminal`` (row of ``payoffs``; -1
    unless terminal). Information sets are numbered in the order first met; their slots (one
    per move) are numbered ``infoset_first_slot[i] + k`` in that order.
    """

    n_players: int
    kind: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    move_index: np.ndarray
    moveset: np.ndarray
    chance_set: np.ndarray
    infoset: np.ndarray
    own_before: np.ndarray
    terminal: np.ndarray
    payoffs: np.ndarray  # (terminals, n_players)
    movesets: tuple[tuple[str, ...], ...]
    chance_probabilities: tuple[tuple[float, ...], ...]
    infoset_player: np.ndarray
    infoset_label: tuple[str, ...]
    infoset_moveset: np.ndarray
    infoset_first_slot: np.ndarray
    labels: dict[int, str]  # node names that are not empty, by id

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def n_infosets(self) -> int:
        return int(self.infoset_player.shape[0])

    def nbytes(self) -> int:
        """The arrays' bytes (the interned tables not counted)."""
        return sum(
            getattr(self, name).nbytes
            for name in (
                "kind parent depth move_index moveset chance_set infoset own_before terminal payoffs".split()
            )
        )


class FlatTreeBuilder:
    """Appends histories in prefix order: each new history is the next child of the nearest
    history above it whose moves are not all filled yet; the tree is complete when the
    root's last descendant is added (:attr:`complete`).

    Adding a history appends three numbers (kind, move list, and the information set, chance
    distribution or payoff row); :meth:`finish` then derives parents, depths, move indices
    and each decision's last own move in one pass over the prefix order, with a stack.
    Information sets are named by a key (a label, or a .efg file's number) with their
    player; their labels are the keys unless given to :meth:`finish`. Nothing is validated
    beyond the shape: a decision whose moves differ from its information set's first ones,
    or a player out of range, is recorded for :func:`check` to find.
    """

    def __init__(self, n_players: int) -> None:
        self.n = n_players
        self.kind = array("b")
        self.moveset = array("q")
        self.ref = array("q")  # information set, chance distribution or payoff row, by kind
        self.payoffs = array("d")
        self.labels: dict[int, str] = {}
        self.movesets: dict[tuple[str, ...], int] = {}
        self.widths: list[int] = []  # of each move list
        self.chance_sets: dict[tuple[float, ...], int] = {}
        self.infoset_ids: dict[tuple[int, object], int] = {}
        self.infoset_player: list[int] = []
        self.infoset_key: list[object] = []
        self.infoset_moveset: list[int] = []
        self.infoset_moves: list[tuple[str, ...]] = []
        self.infoset_first_slot: list[int] = []
        self.slots = 0
        self.terminals = 0
        self._pending = 1  # histories still to come: the root, then each announced child
        self.complete = False

    def __len__(self) -> int:
        return len(self.kind)

    def intern_moves(self, moves: tuple[str, ...]) -> int:
        """The index of a move list in the moveset table (equal lists share one)."""
        known = self.movesets.get(moves)
        if known is None:
            known = self.movesets[moves] = len(self.movesets)
            self.widths.append(len(moves))
        return known

    def chance(self, moves: tuple[str, ...], probabilities: tuple[float, ...], label: str = "") -> int:
        """A chance history with its moves and their probabilities (floats)."""
        if self.complete:
            raise ValueError(AFTER_THE_END)
        self._pending += len(moves) - 1
        self.complete = self._pending == 0
        probabilities = tuple([p + 0.0 for p in probabilities])  # -0.0 becomes 0.0, as in Node
        known = self.chance_sets.get(probabilities)
        if known is None:
            known = self.chance_sets[probabilities] = len(self.chance_sets)
        node = len(self.kind)
        self.kind.append(CHANCE_KIND)
        self.moveset.append(self.intern_moves(moves))
        self.ref.append(known)
        if label:
            self.labels[node] = label
        return node

    def infoset(self, player: int, key: object, moves: tuple[str, ...]) -> int:
        """The id of ``player``'s information set ``key``, made with ``moves`` when new."""
        info = self.infoset_ids.get((player, key))
        if info is None:
            info = self.infoset_ids[(player, key)] = len(self.infoset_player)
            self.infoset_player.append(player)
            self.infoset_key.append(key)
            self.infoset_moveset.append(self.intern_moves(moves))
            self.infoset_moves.append(moves)
            self.infoset_first_slot.append(self.slots)
            self.slots += len(moves)
        return info

    def decision(self, player: int, key: object, moves: tuple[str, ...], label: str = "") -> int:
        """A decision history of ``player`` (0-based) in the information set ``key``."""
        return self.decision_at(self.infoset(player, key, moves), moves, label)

    def decision_at(self, info: int, moves: tuple[str, ...], label: str = "") -> int:
        """A decision history in the information set ``info`` (:meth:`infoset`), offering
        ``moves`` (other moves than the set's first ones are recorded for :func:`check`)."""
        if self.complete:
            raise ValueError(AFTER_THE_END)
        self._pending += len(moves) - 1
        self.complete = self._pending == 0
        moveset = self.infoset_moveset[info]
        first = self.infoset_moves[info]
        if moves is not first and moves != first:
            moveset = self.intern_moves(moves)
        node = len(self.kind)
        self.kind.append(DECISION_KIND)
        self.moveset.append(moveset)
        self.ref.append(info)
        if label:
            self.labels[node] = label
        return node

    def terminal_node(self, payoffs: Sequence[float], label: str = "") -> int:
        """A terminal history with one payoff per player."""
        if len(payoffs) != self.n:
            raise ValueError(f"{len(payoffs)} payoffs for {self.n} players")
        if self.complete:
            raise ValueError(AFTER_THE_END)
        self._pending -= 1
        self.complete = self._pending == 0
        node = len(self.kind)
        self.kind.append(TERMINAL_KIND)
        self.moveset.append(-1)
        self.ref.append(self.terminals)
        self.terminals += 1
        self.payoffs.extend(payoffs)
        if label:
            self.labels[node] = label
        return node

    def finish(self, labels: list[str] | None = None) -> FlatTree:
        """The arrays; ``labels``: one per information set (default: the keys)."""
        if not self.complete:
            raise ValueError("the tree is incomplete: some histories lack children")
        kind = np.frombuffer(self.kind, dtype=np.int8)
        moveset = np.frombuffer(self.moveset, dtype=np.int64)
        ref = np.frombuffer(self.ref, dtype=np.int64)
        parent, depth, move_index, own_before = self._structure()
        if labels is None:
            labels = [str(key) for key in self.infoset_key]
        return FlatTree(
            n_players=self.n,
            kind=kind,
            parent=parent,
            depth=depth,
            move_index=move_index,
            moveset=moveset,
            chance_set=np.where(kind == CHANCE_KIND, ref, -1),
            infoset=np.where(kind == DECISION_KIND, ref, -1),
            own_before=own_before,
            terminal=np.where(kind == TERMINAL_KIND, ref, -1),
            payoffs=np.frombuffer(self.payoffs, dtype=np.float64).reshape(-1, self.n) + 0.0,  # no -0.0
            movesets=tuple(self.movesets),  # dicts keep insertion order: index order
            chance_probabilities=tuple(self.chance_sets),
            infoset_player=np.array(self.infoset_player, dtype=np.int64),
            infoset_label=tuple(labels),
            infoset_moveset=np.array(self.infoset_moveset, dtype=np.int64),
            infoset_first_slot=np.array(self.infoset_first_slot, dtype=np.int64),
            labels=self.labels,
        )

    def _structure(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Parents, depths, move indices and each decision's last own move (the builder's
        slot of its player's nearest decision above, -1 if none; -2 for a player out of
        range), by one pass over the prefix order with a stack of open histories."""
        count = len(self.kind)
        parent = array("q", bytes(8 * count))
        depth = array("i", bytes(4 * count))
        move_index = array("i", bytes(4 * count))
        own_before = array("q", [-1]) * count
        widths = [*self.widths, 0]  # moveset -1 (terminals): no moves
        kinds, movesets, refs = self.kind.tolist(), self.moveset.tolist(), self.ref.tolist()
        players, first_slots, n = self.infoset_player, self.infoset_first_slot, self.n
        last_own = [-1] * n  # per player, along the current path
        # open histories: [id, moves left, next move, slot of move 0, player (-1 unless a
        # decision), that player's last own move before it (restored when its subtree ends)]
        stack: list[list[int]] = []
        parent[0], move_index[0] = -1, -1
        for node in range(count):
            if node:
                top = stack[-1]
                while not top[1]:
                    stack.pop()
                    if top[4] >= 0:
                        last_own[top[4]] = top[5]
                    top = stack[-1]
                move = top[2]
                top[1] -= 1
                top[2] = move + 1
                if top[4] >= 0:
                    last_own[top[4]] = top[3] + move
                parent[node] = top[0]
                depth[node] = len(stack)
                move_index[node] = move
            width = widths[movesets[node]]
            if kinds[node] == DECISION_KIND:
                player = players[refs[node]]
                if 0 <= player < n:
                    own_before[node] = last_own[player]
                    if width:
                        stack.append([node, width, 0, first_slots[refs[node]], player, last_own[player]])
                    continue
                own_before[node] = -2
            if width:
                stack.append([node, width, 0, -1, -1, -1])
        return (
            np.frombuffer(parent, dtype=np.int64),
            np.frombuffer(depth, dtype=np.int32),
            np.frombuffer(move_index, dtype=np.int32),
            np.frombuffer(own_before, dtype=np.int64),
        )


def check(
    flat: FlatTree,
) -> tuple[tuple[tuple[str, ...], ...], dict[tuple[int, str], tuple[str, ...]]] | None:
    """Validate ``flat`` as :class:`~rmviz.games.extensive_form.ExtensiveFormGame` validates a
    tree of nodes (the players' names aside); returns each player's information-set labels in
    the order first met and the moves of each ``(player, label)``, or None when any rule is
    broken (the caller then builds the nodes to name the first problem)."""
    n = flat.n_players
    kind, moveset = flat.kind, flat.moveset
    widths = np.array([len(m) for m in flat.movesets], dtype=np.int64)
    inner = kind != TERMINAL_KIND
    if inner.any() and (widths[moveset[inner]] == 0).any():
        return None  # a chance or decision history without moves
    used = np.unique(moveset[inner])
    if any(len(set(flat.movesets[m])) != len(flat.movesets[m]) for m in used.tolist()):
        return None  # a history offers the same move twice
    if not _chance_ok(flat, kind == CHANCE_KIND, widths):
        return None
    decisions = np.flatnonzero(kind == DECISION_KIND)
    if decisions.size == 0:
        return None  # nothing to solve
    info = flat.infoset[decisions]
    own = flat.own_before[decisions]
    if (own == -2).any():
        return None  # a player out of range
    if (moveset[decisions] != flat.infoset_moveset[info]).any():
        return None  # an information set with different moves at two histories
    first = np.full(flat.n_infosets, -1, dtype=np.int64)
    first[info[::-1]] = decisions[::-1]  # the first history (in prefix order) of each set
    if (own != flat.own_before[first[info]]).any():
        return None  # perfect recall broken (see the module docstring)
    if not all(flat.infoset_label):
        return None  # an information set without a label
    payoffs = flat.payoffs
    if payoffs.size and not (np.isfinite(payoffs).all() and (np.abs(payoffs) <= MAX_PAYOFF).all()):
        return None
    order: list[list[str]] = [[] for _ in range(n)]
    moves: dict[tuple[int, str], tuple[str, ...]] = {}
    for player, label, index in zip(
        flat.infoset_player.tolist(), flat.infoset_label, flat.infoset_moveset.tolist(), strict=True
    ):
        order[player].append(label)
        moves[(player, label)] = flat.movesets[index]
    if len(moves) != flat.n_infosets:
        return None  # two information sets of one player with one label
    return tuple(tuple(o) for o in order), moves


def _chance_ok(flat: FlatTree, chance: np.ndarray, widths: np.ndarray) -> bool:
    """Every chance distribution has one finite, non-negative probability per move, summing
    to 1 within 1e-9 (``sum`` as the per-node validation adds them)."""
    if not chance.any():
        return True
    pairs = np.unique(np.stack([flat.moveset[chance], flat.chance_set[chance]]), axis=1)
    for moves, distribution in pairs.T.tolist():
        probabilities = flat.chance_probabilities[distribution]
        if len(probabilities) != widths[moves]:
            return False
        if any(not math.isfinite(p) or p < 0 for p in probabilities):
            return False
        if abs(sum(probabilities) - 1.0) > 1e-9:
            return False
    return True
