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
from dataclasses import dataclass

import numpy as np

from rmviz.games.normal_form import MAX_PAYOFF

CHANCE_KIND, DECISION_KIND, TERMINAL_KIND = 0, 1, 2
KIND_NAMES = ("chance", "decision", "terminal")


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
    open history above it (one whose moves are not all filled yet); the tree is complete
    when the root's last descendant is added (:attr:`complete`).

    Information sets are named by a key (``(player, label)``, or a .efg file's
    ``(player, number)``) given with the decision; their labels default to the key's second
    item and may be set later (:meth:`finish`). Nothing is validated beyond the shape: a
    decision whose moves differ from its information set's first ones, or a player out of
    range, is recorded for :func:`check` to find.
    """

    def __init__(self, n_players: int) -> None:
        self.n = n_players
        self.kind = array("b")
        self.parent = array("q")
        self.depth = array("i")
        self.move_index = array("i")
        self.moveset = array("q")
        self.chance_set = array("q")
        self.infoset = array("q")
        self.own_before = array("q")
        self.terminal = array("q")
        self.payoffs = array("d")
        self.labels: dict[int, str] = {}
        self.movesets: dict[tuple[str, ...], int] = {}
        self.chance_sets: dict[tuple[float, ...], int] = {}
        self.infoset_ids: dict[tuple[int, object], int] = {}
        self.infoset_player: list[int] = []
        self.infoset_key: list[object] = []
        self.infoset_moveset: list[int] = []
        self.infoset_first_slot: list[int] = []
        self.slots = 0
        # open histories: [id, moves left, next move, slot of move 0 (-1 unless a decision),
        # player (-1 unless a decision), that player's last own move before it]
        self._stack: list[list[int]] = []
        self._last_own = [-1] * max(n_players, 0)  # per player, along the current path
        self._pending = 0  # children announced but not added yet
        self.complete = False

    def __len__(self) -> int:
        return len(self.kind)

    def intern_moves(self, moves: tuple[str, ...]) -> int:
        """The index of a move list in the moveset table (equal lists share one)."""
        known = self.movesets.get(moves)
        if known is None:
            known = self.movesets[moves] = len(self.movesets)
        return known

    def chance(self, moves: tuple[str, ...], probabilities: tuple[float, ...], label: str = "") -> int:
        """A chance history with its moves and their probabilities (floats)."""
        probabilities = tuple([p + 0.0 for p in probabilities])  # -0.0 becomes 0.0, as in Node
        known = self.chance_sets.get(probabilities)
        if known is None:
            known = self.chance_sets[probabilities] = len(self.chance_sets)
        node = self._add(CHANCE_KIND, self.intern_moves(moves), len(moves), label, -1, -1)
        self.chance_set.append(known)
        self.infoset.append(-1)
        self.own_before.append(-1)
        self.terminal.append(-1)
        return node

    def decision(self, player: int, key: object, moves: tuple[str, ...], label: str = "") -> int:
        """A decision history of ``player`` (0-based) in the information set ``key``."""
        info = self.infoset_ids.get((player, key))
        if info is None:
            info = self.infoset_ids[(player, key)] = len(self.infoset_player)
            self.infoset_player.append(player)
            self.infoset_key.append(key)
            self.infoset_moveset.append(self.intern_moves(moves))
            self.infoset_first_slot.append(self.slots)
            self.slots += len(moves)
            moveset = self.infoset_moveset[info]
        else:
            moveset = self.intern_moves(moves)
        if 0 <= player < self.n:
            node = self._add(DECISION_KIND, moveset, len(moves), label, self.infoset_first_slot[info], player)
            self.own_before.append(self._last_own[player])  # once attached: on its path
        else:  # check() refuses it
            node = self._add(DECISION_KIND, moveset, len(moves), label, -1, -1)
            self.own_before.append(-2)
        self.chance_set.append(-1)
        self.infoset.append(info)
        self.terminal.append(-1)
        return node

    def terminal_node(self, payoffs: tuple[float, ...], label: str = "") -> int:
        """A terminal history with one payoff per player."""
        if len(payoffs) != self.n:
            raise ValueError(f"{len(payoffs)} payoffs for {self.n} players")
        node = self._add(TERMINAL_KIND, -1, 0, label, -1, -1)
        self.chance_set.append(-1)
        self.infoset.append(-1)
        self.own_before.append(-1)
        self.terminal.append(len(self.payoffs) // self.n)
        self.payoffs.extend(payoffs)
        return node

    def next_parent(self) -> int:
        """The id of the history the next one will be a child of (-1 before the root)."""
        stack = self._stack
        last_own = self._last_own
        while stack and stack[-1][1] == 0:  # as _add: finished subtrees close
            done = stack.pop()
            if done[4] >= 0:
                last_own[done[4]] = done[5]
        return stack[-1][0] if stack else -1

    def _add(self, kind: int, moveset: int, width: int, label: str, slot: int, player: int) -> int:
        """Attach a history as the next child of the open one, and open it if it has moves."""
        if self.complete:
            raise ValueError("the tree is complete: a history after the root's last descendant")
        node = len(self.kind)
        stack = self._stack
        last_own = self._last_own
        if node:
            while stack[-1][1] == 0:  # subtrees done: their players' last own moves come back
                done = stack.pop()
                if done[4] >= 0:
                    last_own[done[4]] = done[5]
            top = stack[-1]
            move = top[2]
            top[1] -= 1
            top[2] = move + 1
            if top[4] >= 0:
                last_own[top[4]] = top[3] + move
            self.parent.append(top[0])
            self.depth.append(len(stack))
            self.move_index.append(move)
            self._pending -= 1
        else:
            self.parent.append(-1)
            self.depth.append(0)
            self.move_index.append(-1)
        self.kind.append(kind)
        self.moveset.append(moveset)
        if label:
            self.labels[node] = label
        if width:
            stack.append([node, width, 0, slot, player, last_own[player] if player >= 0 else -1])
            self._pending += width
        elif not self._pending:
            self.complete = True
        return node

    def finish(self, labels: list[str] | None = None) -> FlatTree:
        """The arrays; ``labels``: one per information set (default: the keys' labels)."""
        if not self.complete:
            raise ValueError("the tree is incomplete: some histories lack children")
        n = max(self.n, 1)

        def column(values: array, dtype: type) -> np.ndarray:
            return np.frombuffer(values, dtype=values.typecode).astype(dtype, copy=False)

        movesets = list(self.movesets)  # dicts keep insertion order: index order
        chance = list(self.chance_sets)
        if labels is None:
            labels = [str(key) for key in self.infoset_key]
        return FlatTree(
            n_players=self.n,
            kind=column(self.kind, np.int8),
            parent=column(self.parent, np.int64),
            depth=column(self.depth, np.int32),
            move_index=column(self.move_index, np.int32),
            moveset=column(self.moveset, np.int64),
            chance_set=column(self.chance_set, np.int64),
            infoset=column(self.infoset, np.int64),
            own_before=column(self.own_before, np.int64),
            terminal=column(self.terminal, np.int64),
            payoffs=column(self.payoffs, np.float64).reshape(-1, n) + 0.0,  # -0.0 becomes 0.0
            movesets=tuple(movesets),
            chance_probabilities=tuple(chance),
            infoset_player=np.array(self.infoset_player, dtype=np.int64),
            infoset_label=tuple(labels),
            infoset_moveset=np.array(self.infoset_moveset, dtype=np.int64),
            infoset_first_slot=np.array(self.infoset_first_slot, dtype=np.int64),
            labels=self.labels,
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
