"""Game trees as flat arrays in prefix (depth-first) order, built without a Python object per node.

Readers and walkers that meet a tree's histories in prefix order (a Gambit .efg file, an
OpenSpiel walk, a conversion of :class:`~rmviz.games.extensive_form.Node` trees) append
them to a :class:`FlatTreeBuilder`: a few integers per history in ``array`` columns (4 bytes
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
own history (Kuhn 1953), which is what the per-node validation compares. The builder finds
each decision's last own move with array operations when it finishes (:func:`_structure`).

When :func:`check` finds a problem the caller builds the :class:`Node` tree
(:func:`nodes_of`) and runs the per-node validation, whose message names the history.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rmviz.games.normal_form import MAX_PAYOFF

CHANCE_KIND, DECISION_KIND, TERMINAL_KIND = 0, 1, 2
KIND_NAMES = ("chance", "decision", "terminal")
AFTER_THE_END = "the tree is complete: a history after the root's last descendant"
MAX_HISTORIES = 2**31 - 1  # the columns are int32


@dataclass(frozen=True, eq=False)
class FlatTree:
    """A game tree's histories in prefix order (ids 0..N-1, the root first).

    Per history: ``kind`` (0 chance, 1 decision, 2 terminal), ``parent`` (-1 at the root),
    ``depth``, ``move_index`` (which of the parent's moves leads here, -1 at the root),
    ``moveset`` (index into ``movesets``; -1 at terminals), ``ref`` (by kind: the index into
    ``chance_probabilities``, into the information-set tables, or the row of ``payoffs``),
    ``own_before`` (decision histories: the builder's slot of the player's last own move
    above, -1 if none). Information sets are numbered in the order first met; their slots
    (one per move) are numbered ``infoset_first_slot[i] + k`` in that order. The per-history
    columns are int32 (``kind`` int8), the per-information-set tables int64.

    ``chance_set``, ``infoset`` and ``terminal`` are ``ref`` where the kind is chance,
    decision or terminal and -1 elsewhere, made on each read (one column is kept instead of
    three: 8 bytes per history); a reader of one history reads ``ref``.
    """

    n_players: int
    kind: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    move_index: np.ndarray
    moveset: np.ndarray
    ref: np.ndarray
    own_before: np.ndarray
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

    def _of_kind(self, kind: int) -> np.ndarray:
        return np.where(self.kind == kind, self.ref, np.int32(-1))

    @property
    def chance_set(self) -> np.ndarray:
        return self._of_kind(CHANCE_KIND)

    @property
    def infoset(self) -> np.ndarray:
        return self._of_kind(DECISION_KIND)

    @property
    def terminal(self) -> np.ndarray:
        return self._of_kind(TERMINAL_KIND)

    def nbytes(self) -> int:
        """The arrays' bytes (the interned tables not counted)."""
        return sum(
            getattr(self, name).nbytes
            for name in ("kind parent depth move_index moveset ref own_before payoffs".split())
        )


class FlatTreeBuilder:
    """Appends histories in prefix order: each new history is the next child of the nearest
    history above it whose moves are not all filled yet; the tree is complete when the
    root's last descendant is added (:attr:`complete`).

    Adding a history appends three numbers (kind, move list, and the information set, chance
    distribution or payoff row), one at a time or a block at a time (:meth:`append_block`,
    for readers that parse many records at once); :meth:`finish` then derives parents,
    depths, move indices and each decision's last own move with array operations
    (:func:`_structure`). Information sets are named by a key (a label, or a .efg file's
    number) with their player; their labels are the keys unless given to :meth:`finish`.
    Nothing is validated beyond the shape: a decision whose moves differ from its
    information set's first ones, or a player out of range, is recorded for :func:`check`
    to find.
    """

    def __init__(self, n_players: int) -> None:
        self.n = n_players
        self.kind = array("b")
        self.moveset = array("i")
        self.ref = array("i")  # information set, chance distribution or payoff row, by kind
        self.payoffs = array("d")
        self.labels: dict[int, str] = {}
        self.movesets: dict[tuple[str, ...], int] = {}
        self.moveset_moves: list[tuple[str, ...]] = []  # each move list by its index
        self.widths = array("i")  # of each move list
        self.chance_sets: dict[tuple[float, ...], int] = {}
        self.infoset_ids: dict[int, dict[object, int]] = {}  # player -> key -> id (no key tuples)
        self.infoset_player = array("q")
        self.infoset_key: list[object] = []
        self.infoset_moveset = array("i")
        self.infoset_first_slot = array("q")
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
            self.moveset_moves.append(moves)
            self.widths.append(len(moves))
        return known

    def relabel_moves(self, relabel: Callable[[str], str]) -> None:
        """Every move list's labels rewritten by ``relabel``, once the lists are made (once
        per distinct list); lists that become equal keep their own indices."""
        self.moveset_moves = [tuple(map(relabel, moves)) for moves in self.moveset_moves]

    def intern_chance(self, probabilities: Sequence[float]) -> int:
        """The index of a chance distribution (floats) in its table (equal ones share one)."""
        key = tuple([p + 0.0 for p in probabilities])  # -0.0 becomes 0.0, as in Node
        known = self.chance_sets.get(key)
        if known is None:
            known = self.chance_sets[key] = len(self.chance_sets)
        return known

    def chance(self, moves: tuple[str, ...], probabilities: tuple[float, ...], label: str = "") -> int:
        """A chance history with its moves and their probabilities (floats)."""
        if self.complete:
            raise ValueError(AFTER_THE_END)
        self._pending += len(moves) - 1
        self.complete = self._pending == 0
        known = self.intern_chance(probabilities)
        node = len(self.kind)
        self.kind.append(CHANCE_KIND)
        self.moveset.append(self.intern_moves(moves))
        self.ref.append(known)
        if label:
            self.labels[node] = label
        return node

    def infoset(self, player: int, key: object, moves: tuple[str, ...]) -> int:
        """The id of ``player``'s information set ``key``, made with ``moves`` when new."""
        ids = self.infoset_ids.get(player)
        info = None if ids is None else ids.get(key)
        if info is None:
            self.infoset_player.append(player)  # first: a player out of range is refused here
            info = self.infoset_ids.setdefault(player, {})[key] = len(self.infoset_key)
            self.infoset_key.append(key)
            self.infoset_moveset.append(self.intern_moves(moves))
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
        first = self.moveset_moves[moveset]
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

    def append_block(self, terminal: np.ndarray, infoset: np.ndarray, payoffs: np.ndarray) -> None:
        """Decision and terminal histories at once, in prefix order, as :meth:`decision_at`
        (with the set's own moves) and :meth:`terminal_node` would append them one by one.

        ``terminal``: 1 where the history is terminal, 0 where it is a decision (uint8);
        ``infoset``: the information set of each decision (ignored at terminals);
        ``payoffs``: one row per terminal, in order. Refused as :meth:`append_records` refuses."""
        decision = terminal == 0
        moveset = np.full(terminal.shape[0], -1, dtype=np.int32)
        moveset[decision] = np.frombuffer(self.infoset_moveset, dtype=np.int32)[infoset[decision]]
        kind = terminal.astype(np.int8) + DECISION_KIND
        self.append_records(kind, moveset, infoset, payoffs)

    def append_records(
        self, kind: np.ndarray, moveset: np.ndarray, ref: np.ndarray, payoffs: np.ndarray
    ) -> None:
        """Histories of any kind at once, in prefix order, as :meth:`chance`,
        :meth:`decision_at` and :meth:`terminal_node` would append them one by one.

        ``kind``: :data:`CHANCE_KIND`, :data:`DECISION_KIND` or :data:`TERMINAL_KIND` per
        history; ``moveset``: its move list (:meth:`intern_moves`); ``ref``: its chance
        distribution (:meth:`intern_chance`) or information set (:meth:`infoset`); both
        ignored at terminals; ``payoffs``: one row per terminal, in order. Refused
        (``ValueError``, nothing appended) when a history would come after the tree is
        complete, or a kind or index is not in its table."""
        count = kind.shape[0]
        if not count:
            return
        terminal = kind == TERMINAL_KIND
        inner = ~terminal
        terminals = int(terminal.sum())
        if payoffs.shape != (terminals, self.n):
            raise ValueError(f"payoffs of shape {payoffs.shape} for {terminals} terminals")
        chance, decision = kind == CHANCE_KIND, kind == DECISION_KIND
        moveset = np.where(terminal, -1, moveset).astype(np.int32)
        ref = np.asarray(ref, dtype=np.int32).copy()
        if (
            (inner & ~chance & ~decision).any()
            or (moveset[inner] < 0).any()
            or (moveset[inner] >= len(self.widths)).any()
            or (ref[inner] < 0).any()
            or (ref[chance] >= len(self.chance_sets)).any()
            or (ref[decision] >= len(self.infoset_key)).any()
        ):
            raise ValueError("a kind, move list, chance distribution or information set not in its table")
        width = np.zeros(count, dtype=np.int64)
        width[inner] = np.frombuffer(self.widths, dtype=np.int32)[moveset[inner]]
        pending = self._pending + np.cumsum(width - 1)
        if self.complete or (pending[:-1] <= 0).any():
            raise ValueError(AFTER_THE_END)
        ref[terminal] = np.arange(self.terminals, self.terminals + terminals, dtype=np.int32)
        self.kind.frombytes(kind.astype(np.int8).tobytes())
        self.moveset.frombytes(moveset.tobytes())
        self.ref.frombytes(ref.tobytes())
        self.payoffs.frombytes(np.ascontiguousarray(payoffs, dtype=np.float64).tobytes())
        self.terminals += terminals
        self._pending = int(pending[-1])
        self.complete = self._pending == 0

    def finish(self, labels: list[str] | None = None) -> FlatTree:
        """The arrays; ``labels``: one per information set (default: the keys)."""
        if not self.complete:
            raise ValueError("the tree is incomplete: some histories lack children")
        if len(self.kind) > MAX_HISTORIES:
            raise ValueError(f"more than {MAX_HISTORIES:,} histories")
        kind = np.frombuffer(self.kind, dtype=np.int8)
        moveset = np.frombuffer(self.moveset, dtype=np.int32)
        ref = np.frombuffer(self.ref, dtype=np.int32)
        infoset_player = np.array(self.infoset_player, dtype=np.int64)
        first_slot = np.array(self.infoset_first_slot, dtype=np.int64)
        widths = np.array(self.widths, dtype=np.int64)
        parent, depth, move_index, own_before = _structure(
            kind, moveset, ref, widths, infoset_player, first_slot, self.n
        )
        if labels is None:
            labels = [str(key) for key in self.infoset_key]
        return FlatTree(
            n_players=self.n,
            kind=kind,
            parent=parent,
            depth=depth,
            move_index=move_index,
            moveset=moveset,
            ref=ref,
            own_before=own_before,
            payoffs=np.frombuffer(self.payoffs, dtype=np.float64).reshape(-1, self.n) + 0.0,  # no -0.0
            movesets=tuple(self.moveset_moves),
            chance_probabilities=tuple(self.chance_sets),
            infoset_player=infoset_player,
            infoset_label=tuple(labels),
            infoset_moveset=np.array(self.infoset_moveset, dtype=np.int64),
            infoset_first_slot=first_slot,
            labels=self.labels,
        )


def _structure(
    kind: np.ndarray,
    moveset: np.ndarray,
    ref: np.ndarray,
    widths: np.ndarray,
    infoset_player: np.ndarray,
    first_slot: np.ndarray,
    n: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Parents, depths, move indices and each decision's last own move (the slot of its
    player's nearest decision above, -1 if none; -2 for a player out of range) of a complete
    tree in prefix order (int32 arrays), with array operations only.

    Parents: read in prefix order, the tree is a stack of open move slots: history ``i``
    takes the top slot and pushes its own ``w[i]`` slots (its first move on top). With
    ``P[i]`` the stack's height before ``i`` (``1 + sum(w[j] - 1 for j < i)``), ``i`` pushes
    heights ``P[i] .. P[i] + w[i] - 1`` and takes the slot at height ``P[i]``: the one pushed
    last at that height before ``i``. A history after an inner one is its first child; for
    the others (after a terminal) the parent is the last ``j < i`` that pushed height
    ``P[i]`` below its top: one sort of those pushes by (height, history), one search of
    the sorted queries. The move is counted from the top: ``P[j] + w[j] - 1 - P[i]``.

    Depths and last own moves: the histories fall into *runs*, chains of first children
    begun by the root or by a history after a terminal. Within a run the depth grows by one
    a history, and the nearest history above with a property is the last one before it in
    the run (a running maximum); above a run's first history the answer is its parent's,
    found by pointer doubling over the runs (``log2`` of the number of runs on a path)."""
    count = kind.shape[0]
    width = np.zeros(count, dtype=np.int64)
    inner = kind != TERMINAL_KIND
    width[inner] = widths[moveset[inner]]
    height = np.empty(count, dtype=np.int64)  # P: the stack's height before each history
    height[0] = 1
    np.cumsum(width[:-1] - 1, out=height[1:])
    height[1:] += 1
    parent = np.empty(count, dtype=np.int32)
    move_index = np.zeros(count, dtype=np.int32)
    parent[0] = move_index[0] = -1
    after_inner = width[:-1] > 0
    parent[1:][after_inner] = np.flatnonzero(after_inner)  # first children
    starts = np.flatnonzero(~after_inner) + 1  # histories after a terminal: runs begin there
    below_top = np.maximum(width - 1, 0)  # the pushes such a history can take
    pusher = np.repeat(np.arange(count, dtype=np.int64), below_top)
    first_push = np.cumsum(below_top) - below_top
    pushes = ((height[pusher] + np.arange(pusher.size) - first_push[pusher]) << 32) | pusher
    del pusher, first_push, below_top
    pushes.sort()
    queries = (height[starts] << 32) | starts
    queries.sort()  # by (height, history): the search moves forward only
    found = pushes[np.searchsorted(pushes, queries) - 1]
    del pushes
    child, up = queries & 0xFFFFFFFF, found & 0xFFFFFFFF
    parent[child] = up
    move_index[child] = height[up] + width[up] - 1 - (found >> 32)
    del found, queries, child, up, height, width

    # runs: 0 is the root's; run r > 0 begins at starts[r - 1]
    starts = np.concatenate(([0], starts))
    run = np.zeros(count, dtype=np.int32)
    run[starts[1:]] = 1
    np.cumsum(run, out=run)
    above = parent[starts[1:]]  # the parent of each run's first history
    above_run = np.concatenate(([-1], run[above])).astype(np.int32)
    position = np.arange(count, dtype=np.int64)
    offset = position - starts[run]  # place in the run
    run_depth = _sum_up(above_run, np.concatenate(([0], offset[above] + 1)))
    depth = (run_depth[run] + offset).astype(np.int32)

    # the edge into each history: its owner (a decision's player in range, else -1) and slot
    decision = kind == DECISION_KIND
    player = np.full(count, -1, dtype=np.int64)
    player[decision] = infoset_player[ref[decision]]
    in_range = decision & (player >= 0) & (player < n)
    own_before = np.full(count, -1, dtype=np.int32)
    own_before[decision & ~in_range] = -2
    from_parent = np.maximum(parent, 0)
    edge_owner = np.where(in_range[from_parent], player[from_parent], -1)
    edge_owner[0] = -1
    base = np.zeros(count, dtype=np.int64)  # a decision's first slot
    base[in_range] = first_slot[ref[in_range]]
    edge_slot = base[from_parent] + move_index
    run_start = starts[run]
    for p in np.unique(player[in_range]).tolist():
        last = np.maximum.accumulate(np.where(edge_owner == p, position, -1))  # in prefix order
        here = last >= run_start  # ... and in the history's own run
        # above each run: the nearest such history at or above the parent of its first
        nearest = np.where(here[above], last[above], -1)
        pending = np.concatenate(([-1], np.where(here[above], -1, run[above])))
        answer = _resolve(np.concatenate(([-1], nearest)), pending)
        mine = np.flatnonzero(in_range & (player == p))
        at = np.where(here[mine], last[mine], answer[run[mine]])
        own_before[mine] = np.where(at >= 0, edge_slot[np.maximum(at, 0)], -1)
    return parent, depth, move_index, own_before


def _sum_up(target: np.ndarray, step: np.ndarray) -> np.ndarray:
    """For each item of a forest given by ``target`` (-1 at roots), the sum of ``step`` along
    its path to its root (itself included), by pointer doubling (Wyllie's list ranking):
    each pass adds the target's partial sum and jumps to the target's target."""
    total = step.astype(np.int64)
    target = target.copy()
    active = np.flatnonzero(target >= 0)
    while active.size:
        via = target[active]
        total[active] += total[via]
        onward = target[via]
        target[active] = onward
        active = active[onward >= 0]
    return total


def _resolve(answer: np.ndarray, pending: np.ndarray) -> np.ndarray:
    """Answers of items that take another's: item ``i`` with ``pending[i] >= 0`` has the
    answer of item ``pending[i]`` (which may itself be pending); found by pointer doubling."""
    answer = answer.copy()
    pending = pending.copy()
    open_ = np.flatnonzero(pending >= 0)
    while open_.size:
        via = pending[open_]
        onward = pending[via]
        done = onward < 0
        answer[open_[done]] = answer[via[done]]
        pending[open_] = onward
        open_ = open_[~done]
    return answer


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
    info = flat.ref[decisions]
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
    pairs = np.unique(np.stack([flat.moveset[chance], flat.ref[chance]]), axis=1)
    for moves, distribution in pairs.T.tolist():
        probabilities = flat.chance_probabilities[distribution]
        if len(probabilities) != widths[moves]:
            return False
        if any(not math.isfinite(p) or p < 0 for p in probabilities):
            return False
        if abs(sum(probabilities) - 1.0) > 1e-9:
            return False
    return True
