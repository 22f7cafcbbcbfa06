"""Extensive-form games: trees with chance, decisions grouped in information sets, payoffs.

A game is a tree of :class:`Node` objects. A decision node belongs to a player and to an
information set, named by a label unique among that player's information sets; every node
of an information set offers the same moves. Chance nodes carry move probabilities;
terminal nodes carry one payoff per player. Validation (at construction) checks what a
person can get wrong while editing: probabilities, moves, players, payoffs, shared nodes
(a cycle or a DAG is not a tree) and perfect recall.

Perfect recall (Kuhn 1953): all nodes of an information set share the player's own
history, the sequence of (information set, move) pairs of that player from the root.

Nothing here recurses over the tree: walks use explicit stacks and validation stores each
node's path and own histories as links to its parent's, so a tree 100,000 moves deep is
validated in time and memory proportional to its size; messages abbreviate long histories.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rmviz.errors import GameError
from rmviz.games.flat_tree import CHANCE_KIND, TERMINAL_KIND, FlatTree, FlatTreeBuilder, check
from rmviz.games.normal_form import check_payoff, sums_to_zero

CHANCE, DECISION, TERMINAL = "chance", "decision", "terminal"


@dataclass(eq=False, repr=False)
class Node:
    """One history of the game tree.

    Attributes:
        kind: ``"chance"``, ``"decision"`` or ``"terminal"``.
        moves: move labels (chance and decision nodes), one per child.
        children: the nodes reached by each move.
        player: the acting player (decision nodes), 0-based.
        infoset: the information set's label (decision nodes), unique per player.
        probabilities: chance move probabilities, summing to 1.
        payoffs: one payoff per player (terminal nodes).
        label: an optional name (Gambit's node name).
    """

    kind: str
    moves: tuple[str, ...] = ()
    children: tuple[Node, ...] = ()
    player: int | None = None
    infoset: str | None = None
    probabilities: tuple[float, ...] = ()
    payoffs: tuple[float, ...] = ()
    label: str = ""

    def __post_init__(self) -> None:
        # -0.0 (a negated zero) becomes 0.0, so no "-0" is shown or written; anything that
        # is not a float is left for the game's validation to refuse by name
        self.payoffs = tuple(u + 0.0 if isinstance(u, float) else u for u in self.payoffs)
        self.probabilities = tuple(p + 0.0 if isinstance(p, float) else p for p in self.probabilities)

    def __repr__(self) -> str:  # not the dataclass's, which recurses into every child
        who = f", player={self.player}, infoset={self.infoset!r}" if self.kind == DECISION else ""
        what = f", payoffs={self.payoffs}" if self.kind == TERMINAL else f", moves={self.moves}"
        return f"Node({self.kind!r}{what}{who}, label={self.label!r})"

    def walk(self, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Node]]:
        """Every node below and including this one, depth first, with its move path."""
        stack = [(path, self)]
        while stack:
            here, node = stack.pop()
            yield here, node
            for move, child in reversed(list(zip(node.moves, node.children, strict=False))):
                stack.append(((*here, move), child))


def chance(moves: Sequence[tuple[str, float, Node]], label: str = "") -> Node:
    """A chance node from ``(move, probability, child)`` triples."""
    return Node(
        CHANCE,
        tuple(m for m, _, _ in moves),
        tuple(c for _, _, c in moves),
        probabilities=tuple(float(p) for _, p, _ in moves),
        label=label,
    )


def decision(player: int, infoset: str, moves: Sequence[tuple[str, Node]], label: str = "") -> Node:
    """A decision node of ``player`` in information set ``infoset``."""
    return Node(
        DECISION,
        tuple(m for m, _ in moves),
        tuple(c for _, c in moves),
        player=player,
        infoset=infoset,
        label=label,
    )


def terminal(*payoffs: float, label: str = "") -> Node:
    """A terminal node with one payoff per player."""
    return Node(TERMINAL, payoffs=tuple(float(u) for u in payoffs), label=label)


class ExtensiveFormGame:
    """A finite extensive-form game with perfect recall.

    ``infosets[i]`` lists player i's information-set labels in the order first met depth
    first; ``infoset_moves[(i, label)]`` gives their moves.

    A game is made from a tree of :class:`Node` objects, or from a
    :class:`~rmviz.games.flat_tree.FlatTree` (:meth:`from_flat`: readers of big trees), whose
    nodes are then built the first time :attr:`root` is read. Either way the game keeps the
    flat arrays (:attr:`flat`), which compiling for the solvers reads instead of the nodes.
    Validation checks the flat arrays (:func:`~rmviz.games.flat_tree.check`); only a tree
    they refuse is walked node by node, for the message naming the first problem.
    """

    def __init__(
        self,
        root: Node | None,
        player_names: Sequence[str],
        title: str = "Untitled game",
        description: str = "",
    ) -> None:
        self._root = root
        self._flat: FlatTree | None = None
        self.player_names = tuple(str(p) for p in player_names)
        self.title = title
        self.description = description
        _check_players(self)
        assert root is not None
        flat = flat_of_nodes(root, self.n_players)
        checked = check(flat) if flat is not None else None
        if checked is None:
            checked = _validate(self)
            flat = flat_of_nodes(root, self.n_players)  # None only for trees _validate refuses
        self._flat = flat
        self.infosets, self.infoset_moves = checked

    @classmethod
    def from_flat(
        cls, flat: FlatTree, player_names: Sequence[str], title: str = "Untitled game", description: str = ""
    ) -> ExtensiveFormGame:
        """The game of a flat tree (validated as :meth:`__init__` validates nodes)."""
        game = cls.__new__(cls)
        game._root = None
        game._flat = flat
        game.player_names = tuple(str(p) for p in player_names)
        game.title = title
        game.description = description
        if len(game.player_names) != flat.n_players:
            raise GameError(f"{flat.n_players} players in the tree but {len(game.player_names)} names")
        _check_players(game)
        checked = check(flat)
        if checked is None:
            game._root = nodes_of(flat)
            checked = _validate(game)
        game.infosets, game.infoset_moves = checked
        return game

    @property
    def root(self) -> Node | None:
        """The root node (built from the flat arrays on first use when the game was made
        from them)."""
        if self._root is None and self._flat is not None:
            self._root = nodes_of(self._flat)
        return self._root

    @property
    def flat(self) -> FlatTree:
        """The tree as flat arrays in prefix order (:mod:`rmviz.games.flat_tree`)."""
        if self._flat is None:  # nodes the validation took but the arrays cannot hold
            raise GameError(
                "this tree cannot be compiled: its players must be whole numbers and its "
                "information sets named by text"
            )
        return self._flat

    @property
    def n_players(self) -> int:
        return len(self.player_names)

    def is_zero_sum(self) -> bool:
        """True when the payoffs sum to zero at every terminal history (:func:`sums_to_zero`,
        the rule of matrix games)."""
        return sums_to_zero(self.flat.payoffs, axis=1)

    @property
    def n_nodes(self) -> int:
        """The number of histories (nodes)."""
        return self.flat.n_nodes

    def nodes(self) -> Iterator[tuple[tuple[str, ...], Node]]:
        """Every node with its move path from the root, depth first."""
        assert self.root is not None
        return self.root.walk()

    def __repr__(self) -> str:
        counts = "/".join(str(len(s)) for s in self.infosets)
        return f"ExtensiveFormGame({self.title!r}, {self.n_players} players, {counts} infosets)"

    def _repr_html_(self) -> str:
        """A summary of the tree, in a notebook (:mod:`rmviz.games.display`)."""
        from rmviz.games.display import tree_html

        return tree_html(self)


def flat_of_nodes(root: Node, n_players: int) -> FlatTree | None:
    """The flat arrays of a tree of nodes (one walk with an explicit stack), or None when the
    nodes do not form a tree the arrays can hold (a shared node, an unknown kind, moves and
    children of different lengths, a payoff count other than ``n_players``...)."""
    builder = FlatTreeBuilder(n_players)
    terminal_node, chance_node, decision_at = builder.terminal_node, builder.chance, builder.decision_at
    infosets: dict[tuple[int, str], int] = {}  # (player, label) -> the builder's id
    seen: set[int] = set()
    stack = [root]
    try:
        while stack:
            node = stack.pop()
            children = node.children
            if id(node) in seen or not isinstance(node, Node) or len(node.moves) != len(children):
                return None
            seen.add(id(node))
            moves = node.moves if type(node.moves) is tuple else tuple(node.moves)
            kind = node.kind
            if kind == TERMINAL:
                if children:
                    return None
                terminal_node(tuple(map(float, node.payoffs)), node.label)
                continue
            if kind == CHANCE:
                chance_node(moves, tuple(map(float, node.probabilities)), node.label)
            elif kind == DECISION and isinstance(node.infoset, str) and node.player is not None:
                player = node.player if type(node.player) is int else operator.index(node.player)
                key = (player, node.infoset)
                info = infosets.get(key)
                if info is None:
                    info = infosets[key] = builder.infoset(player, node.infoset, moves)
                decision_at(info, moves, node.label)
            else:
                return None
            stack.extend(reversed(children))
        return builder.finish()
    except (TypeError, ValueError, OverflowError):  # not numbers, wrong counts: _validate says
        return None


def nodes_of(flat: FlatTree) -> Node:
    """The tree of nodes of flat arrays (built bottom-up with a stack, no recursion)."""
    kinds = flat.kind.tolist()
    movesets = flat.moveset.tolist()
    refs = flat.ref.tolist()  # by kind: chance distribution, information set, payoff row
    payoffs = flat.payoffs.tolist()
    players = flat.infoset_player.tolist()
    labels = flat.labels
    built: list[Node] = []
    for index in range(len(kinds) - 1, -1, -1):
        kind = kinds[index]
        label = labels.get(index, "")
        if kind == TERMINAL_KIND:
            node = Node(TERMINAL, payoffs=tuple(payoffs[refs[index]]), label=label)
        else:
            moves = flat.movesets[movesets[index]]
            children = tuple(built.pop() for _ in moves)
            if kind == CHANCE_KIND:
                node = Node(
                    CHANCE,
                    moves,
                    children,
                    probabilities=flat.chance_probabilities[refs[index]],
                    label=label,
                )
            else:
                info = refs[index]
                node = Node(DECISION, moves, children, players[info], flat.infoset_label[info], label=label)
        built.append(node)
    return built[0]


def _check_players(game: ExtensiveFormGame) -> None:
    if game._root is None and game._flat is None:
        raise GameError("the game tree is empty: add a root node")
    n = game.n_players
    if n < 1:
        raise GameError("an extensive-form game needs at least one player")
    if len(set(game.player_names)) != n:
        raise GameError(f"player names must differ: {list(game.player_names)}")


SHOWN_MOVES = 12
"""Messages show at most this many moves of a history at each end (deep trees stay readable)."""


def _abbreviated(items: Sequence[str], separator: str) -> str:
    if len(items) <= 2 * SHOWN_MOVES:
        return separator.join(items)
    return (
        f"{separator.join(items[:SHOWN_MOVES])} ... ({len(items) - 2 * SHOWN_MOVES} more) ... "
        f"{separator.join(items[-SHOWN_MOVES:])}"
    )


def _where(path: Sequence[str]) -> str:
    return "the root" if not path else "history " + _abbreviated(path, ".")


class _Links:
    """Sequences stored as links to their prefix: id 0 is the empty sequence, each other id a
    (prefix id, item) pair; equal sequences get equal ids when interned."""

    def __init__(self) -> None:
        self.links: list[tuple[int, object]] = [(0, None)]
        self.ids: dict[tuple[int, object], int] = {}

    def extend(self, prefix: int, item: object, intern: bool = True) -> int:
        if intern:
            known = self.ids.get((prefix, item))
            if known is not None:
                return known
        self.links.append((prefix, item))
        if intern:
            self.ids[prefix, item] = len(self.links) - 1
        return len(self.links) - 1

    def items(self, sequence: int) -> list:
        out = []
        while sequence:
            sequence, item = self.links[sequence]
            out.append(item)
        return out[::-1]


def _validate(
    game: ExtensiveFormGame,
) -> tuple[tuple[tuple[str, ...], ...], dict[tuple[int, str], tuple[str, ...]]]:
    _check_players(game)
    n = game.n_players
    seen: set[int] = set()
    moves_of: dict[tuple[int, str], tuple[str, ...]] = {}
    first_path: dict[tuple[int, str], int] = {}
    own_history: dict[tuple[int, str], int] = {}
    order: list[list[str]] = [[] for _ in range(n)]
    paths = _Links()  # move paths from the root, one per node (not interned: each is new)
    histories = _Links()  # each player's own (information set, move) sequence, interned

    def where(path: int) -> str:
        return _where(paths.items(path))

    def own(history: int) -> str:
        pairs = histories.items(history)
        return "none" if not pairs else _abbreviated([f"{move} at {label!r}" for label, move in pairs], ", ")

    # iterative DFS carrying each node's path and each player's own history (as link ids)
    assert game.root is not None
    stack: list[tuple[int, Node, tuple[int, ...]]] = [(0, game.root, (0,) * n)]
    while stack:
        path, node, own_ids = stack.pop()
        if id(node) in seen:
            raise GameError(
                f"{where(path)} is reached along two paths: a game tree may not share or loop back to nodes"
            )
        seen.add(id(node))
        if node.kind == TERMINAL:
            if len(node.payoffs) != n:
                raise GameError(
                    f"terminal {where(path)} has {len(node.payoffs)} payoffs; {n} players need {n}"
                )
            for i, u in enumerate(node.payoffs):
                check_payoff(u, f"the payoff of {game.player_names[i]!r} at terminal {where(path)}")
            if node.children:
                raise GameError(f"terminal {where(path)} has children")
            continue
        if node.kind not in (CHANCE, DECISION):
            raise GameError(f"{where(path)} has unknown kind {node.kind!r}")
        if not node.children:
            raise GameError(f"{where(path)} offers no moves; a {node.kind} node needs at least one")
        if len(node.moves) != len(node.children):
            raise GameError(
                f"{where(path)} has {len(node.moves)} move labels for {len(node.children)} children"
            )
        if len(set(node.moves)) != len(node.moves):
            raise GameError(f"{where(path)} offers the same move twice: {list(node.moves)}")
        if node.kind == CHANCE:
            probabilities = node.probabilities
            if len(probabilities) != len(node.children):
                raise GameError(
                    f"chance {where(path)} has {len(probabilities)} probabilities "
                    f"for {len(node.children)} moves"
                )
            if any(not math.isfinite(p) or p < 0 for p in probabilities):
                raise GameError(
                    f"chance {where(path)} has a negative or non-finite probability: {list(probabilities)}"
                )
            if abs(sum(probabilities) - 1.0) > 1e-9:
                raise GameError(
                    f"chance probabilities at {where(path)} sum to {sum(probabilities)!r}; "
                    "they must sum to 1 (within 1e-9)"
                )
        else:
            player, label = node.player, node.infoset
            if player is None or not 0 <= player < n:
                raise GameError(f"decision {where(path)} belongs to player {player}; players are 0..{n - 1}")
            if not label:
                raise GameError(
                    f"decision {where(path)} of {game.player_names[player]!r} has no information set"
                )
            key = (player, label)
            if key not in moves_of:
                moves_of[key] = node.moves
                first_path[key] = path
                own_history[key] = own_ids[player]
                order[player].append(label)
            else:
                if moves_of[key] != node.moves:
                    raise GameError(
                        f"information set {label!r} of {game.player_names[player]!r} offers moves "
                        f"{list(moves_of[key])} at {where(first_path[key])} "
                        f"but {list(node.moves)} at {where(path)}"
                    )
                if own_history[key] != own_ids[player]:
                    raise GameError(
                        f"{game.player_names[player]!r} forgets what they knew: information set {label!r} "
                        f"joins {where(first_path[key])} and {where(path)}, reached after different own "
                        f"moves ({own(own_history[key])} vs {own(own_ids[player])}); "
                        "perfect recall is required"
                    )
        for move, child in reversed(list(zip(node.moves, node.children, strict=True))):
            child_ids = own_ids
            if node.kind == DECISION:
                assert node.player is not None
                extended = list(own_ids)
                extended[node.player] = histories.extend(own_ids[node.player], (node.infoset, move))
                child_ids = tuple(extended)
            stack.append((paths.extend(path, move, intern=False), child, child_ids))
    if not any(order):
        raise GameError(
            "the tree has no decision node: no player makes a choice, so there is nothing to solve "
            "(make a node a decision of a player)"
        )
    return tuple(tuple(o) for o in order), moves_of
