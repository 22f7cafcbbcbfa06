"""A game tree being edited, with undo/redo (no Qt).

Nodes are addressed by their history: the tuple of moves from the root. Every edit builds a
new :class:`~rmviz.games.extensive_form.ExtensiveFormGame`, whose constructor validates the
whole tree (chance probabilities, matching moves within an information set, perfect recall),
so an edit that would break the game raises :class:`~rmviz.errors.GameError` with the
model's message and changes nothing. Edits of a decision node's moves apply to every node of
its information set, which must offer the same moves.

Names the document makes up are fresh, so nothing joins by accident: a new decision node gets
an information set of its own, ``J1``, ``J2``, ... (the lecture's J_j, numbered across
players), unless the edit names an existing one to join; new moves and chance outcomes get
letters no move of the tree uses yet (``a, b``, then ``c, d``, ...).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rmviz.document.history import EditHistory
from rmviz.errors import GameError
from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame, Node, terminal

History = tuple[str, ...]


@dataclass(frozen=True)
class _ReplaceTree:
    description: str
    before: ExtensiveFormGame
    after: ExtensiveFormGame

    def apply(self, document: TreeDocument, forward: bool) -> None:
        document.game = self.after if forward else self.before


class TreeDocument(EditHistory):
    """The tree on screen: edits, undo/redo, file path, modified flag, subscribers."""

    def __init__(self, game: ExtensiveFormGame, path: Path | None = None) -> None:
        super().__init__(path)
        self.game = game

    def replace_game(self, game: ExtensiveFormGame, description: str) -> None:
        """Show another game (an edit, opening a file) as one undoable step."""
        self._push(_ReplaceTree(description, self.game, game))

    # -- fresh names -------------------------------------------------------------------------------
    def fresh_infoset(self) -> str:
        """An information-set label no player uses: ``J1``, ``J2``, ..."""
        used = {label for labels in self.game.infosets for label in labels}
        return next(f"J{k}" for k in range(1, len(used) + 2) if f"J{k}" not in used)

    def fresh_moves(self, count: int, taken: Sequence[str] = ()) -> tuple[str, ...]:
        """``count`` move names no move of the tree (nor ``taken``) uses: single letters
        first (``a`` to ``z``), then ``a1``, ``b1``, ..."""
        used = {node.moves[k] for _, node in self.game.nodes() for k in range(len(node.moves))}
        used |= set(taken)
        names: list[str] = []
        suffix = 0
        while len(names) < count:
            tail = str(suffix) if suffix else ""
            names += [letter + tail for letter in string.ascii_lowercase if letter + tail not in used]
            suffix += 1
        return tuple(names[:count])

    def infoset_moves(self, player: int, label: str) -> tuple[str, ...] | None:
        """The moves of ``player``'s information set ``label`` (None if there is none)."""
        moves = self.game.infoset_moves.get((player, label))
        return tuple(moves) if moves is not None else None

    def _check_join(self, history: History, player: int, label: str, moves: Sequence[str]) -> None:
        """A node with ``moves`` may join ``player``'s information set ``label`` only if that
        set offers as many moves (the same ones, which the game model checks)."""
        existing = self.infoset_moves(player, label)
        if existing is not None and len(existing) != len(moves):
            raise GameError(
                f"information set {label!r} of {self.game.player_names[player]!r} has {len(existing)} "
                f"moves ({', '.join(existing)}); {_where(history)} has {len(moves)}: only a node with "
                "the same moves can join it"
            )

    # -- edits -----------------------------------------------------------------------------------
    def node(self, history: History) -> Node:
        """The node reached by ``history``; a :class:`GameError` if there is none."""
        node = self.game.root
        assert node is not None
        for move in history:
            if move not in node.moves:
                raise GameError(f"no move {move!r} after {_where(history)}")
            node = node.children[node.moves.index(move)]
        return node

    def _edit(self, description: str, root: Node) -> None:
        game = self.game
        self.replace_game(
            ExtensiveFormGame(root, game.player_names, game.title, game.description), description
        )

    def _at(self, history: History, change: Callable[[Node], Node]) -> Node:
        """A new root with ``change`` applied to the node at ``history`` (the nodes on the path
        are copied bottom-up, iteratively: any depth)."""
        self.node(history)  # a clear error for a history that does not exist
        assert self.game.root is not None
        path = [self.game.root]
        for move in history:
            path.append(path[-1].children[path[-1].moves.index(move)])
        node = change(path[-1])
        for parent, move in zip(reversed(path[:-1]), reversed(history), strict=True):
            children = list(parent.children)
            children[parent.moves.index(move)] = node
            node = replace(parent, children=tuple(children))
        return node

    def _in_infoset(self, player: int, label: str, change: Callable[[Node], Node]) -> Node:
        """A new root with ``change`` applied to every node of the information set (children
        are rebuilt before their parents, from a pre-order list: no recursion)."""
        assert self.game.root is not None
        order = [node for _, node in self.game.root.walk()]
        rebuilt: dict[int, Node] = {}
        for original in reversed(order):
            node = original
            if node.children:
                node = replace(node, children=tuple(rebuilt[id(child)] for child in node.children))
            if node.kind == DECISION and node.player == player and node.infoset == label:
                node = change(node)
            rebuilt[id(original)] = node
        return rebuilt[id(self.game.root)]

    def _moves_edit(self, history: History, description: str, change: Callable[[Node], Node]) -> None:
        node = self.node(history)
        if node.kind == DECISION:
            assert node.player is not None and node.infoset is not None
            root = self._in_infoset(node.player, node.infoset, change)
        else:
            root = self._at(history, change)
        self._edit(description, root)

    def add_move(self, history: History, move: str | None = None) -> None:
        """A new move (to a terminal with zero payoffs) at a decision node (its whole
        information set) or a chance node (probability 0: set the probabilities next)."""
        node = self.node(history)
        if node.kind == TERMINAL:
            raise GameError(f"{_where(history)} is terminal: make it a decision or chance node first")
        move = _clean(move or self.fresh_moves(1)[0], "a move")
        if move in node.moves:
            raise GameError(f"{_where(history)} already offers {move!r}")

        def add(n: Node) -> Node:
            probabilities = (*n.probabilities, 0.0) if n.kind == CHANCE else n.probabilities
            children = (*n.children, self._zero())  # a node of its own for each history
            return replace(n, moves=(*n.moves, move), children=children, probabilities=probabilities)

        self._moves_edit(history, f"Add move {move}", add)

    def remove_move(self, history: History, move: str) -> None:
        """Remove a move and the subtree below it (at every node of a decision node's
        information set; at a chance node the other probabilities are rescaled to sum to 1)."""
        node = self.node(history)
        if move not in node.moves:
            raise GameError(f"{_where(history)} offers no move {move!r}")
        if len(node.moves) == 1:
            raise GameError(f"{_where(history)} needs at least one move; make it terminal instead")

        def remove(n: Node) -> Node:
            k = n.moves.index(move)
            probabilities = n.probabilities
            if n.kind == CHANCE:
                rest = n.probabilities[:k] + n.probabilities[k + 1 :]
                total = sum(rest)
                probabilities = (
                    tuple(p / total for p in rest) if total > 0 else tuple(1 / len(rest) for _ in rest)
                )
            return replace(
                n,
                moves=n.moves[:k] + n.moves[k + 1 :],
                children=n.children[:k] + n.children[k + 1 :],
                probabilities=probabilities,
            )

        self._moves_edit(history, f"Remove move {move}", remove)

    def rename_move(self, history: History, move: str, new: str) -> None:
        node = self.node(history)
        new = _clean(new, "a move")
        if move not in node.moves:
            raise GameError(f"{_where(history)} offers no move {move!r}")
        if new in node.moves:
            raise GameError(f"{_where(history)} already offers {new!r}")
        self._moves_edit(
            history,
            f"Rename move {move}",
            lambda n: replace(n, moves=tuple(new if m == move else m for m in n.moves)),
        )

    def set_probabilities(self, history: History, probabilities: Sequence[float]) -> None:
        node = self.node(history)
        if node.kind != CHANCE:
            raise GameError(f"{_where(history)} is not a chance node")
        if len(probabilities) != len(node.moves):
            raise GameError(
                f"{_where(history)} has {len(node.moves)} moves; give {len(node.moves)} probabilities"
            )
        values = tuple(float(p) for p in probabilities)
        self._edit("Set chance probabilities", self._at(history, lambda n: replace(n, probabilities=values)))

    def set_payoffs(self, history: History, payoffs: Sequence[float]) -> None:
        node = self.node(history)
        if node.kind != TERMINAL:
            raise GameError(f"{_where(history)} is not terminal")
        values = tuple(float(u) for u in payoffs)
        self._edit("Set payoffs", self._at(history, lambda n: replace(n, payoffs=values)))

    def set_infoset(self, history: History, label: str) -> None:
        """Put a decision node into the information set ``label`` of its player (an existing
        one, which must offer the same moves and keep perfect recall, or a new one)."""
        node = self.node(history)
        if node.kind != DECISION:
            raise GameError(f"{_where(history)} is not a decision node")
        label = _clean(label, "an information set label")
        assert node.player is not None
        self._check_join(history, node.player, label, node.moves)
        self._edit(f"Move to information set {label}", self._at(history, lambda n: replace(n, infoset=label)))

    def rename_infoset(self, player: int, label: str, new: str) -> None:
        """Rename an information set of ``player`` at all its nodes (joining another set of
        that name is :meth:`set_infoset`'s job: refused here)."""
        new = _clean(new, "an information set label")
        if label not in self.game.infosets[player]:
            raise GameError(f"{self.game.player_names[player]!r} has no information set {label!r}")
        if new != label and new in self.game.infosets[player]:
            raise GameError(
                f"{self.game.player_names[player]!r} already has an information set {new!r}; "
                "move nodes into it one by one instead"
            )
        self._edit(
            f"Rename information set {label}",
            self._in_infoset(player, label, lambda n: replace(n, infoset=new)),
        )

    def set_label(self, history: History, label: str) -> None:
        """The node's own name (Gambit's node label; may be empty)."""
        self._edit("Rename node", self._at(history, lambda n: replace(n, label=label.strip())))

    def make_decision(
        self,
        history: History,
        player: int,
        infoset: str | None = None,
        moves: Sequence[str] | None = None,
    ) -> None:
        """Replace the node (and its subtree) with a decision node of ``player`` whose moves
        lead to terminals with zero payoffs. ``infoset`` None: an information set of its own
        (:meth:`fresh_infoset`) with two fresh moves; an existing label of the player joins
        that set, with its moves (given ``moves`` must match them)."""
        if not 0 <= player < self.game.n_players:
            raise GameError(f"no player {player + 1}; the game has {self.game.n_players}")
        label = self.fresh_infoset() if infoset is None else _clean(infoset, "an information set label")
        joined = self.infoset_moves(player, label)
        if moves is None:
            moves = joined if joined is not None else self.fresh_moves(2)
        self._check_join(history, player, label, moves)
        node = Node(DECISION, tuple(moves), tuple(self._zero() for _ in moves), player=player, infoset=label)
        what = f"join {label}" if joined is not None else f"new information set {label}"
        self._edit(f"Make decision node ({what})", self._at(history, lambda _n: node))

    def join_decision(self, history: History, player: int, infoset: str) -> None:
        """A decision node of ``player`` at ``history`` in the player's existing information
        set ``infoset`` (with its moves); an unknown label is refused, not made."""
        label = _clean(infoset, "an information set label")
        if self.infoset_moves(player, label) is None:
            names = ", ".join(self.game.infosets[player][:8]) or "none"
            raise GameError(
                f"{self.game.player_names[player]!r} has no information set {label!r} to join "
                f"(it has {names})"
            )
        self.make_decision(history, player, label)

    def make_chance(self, history: History, moves: Sequence[str] | None = None) -> None:
        """Replace the node (and its subtree) with a chance node of uniform probabilities over
        ``moves`` (two fresh outcomes when None), leading to terminals with zero payoffs."""
        if moves is None:
            moves = self.fresh_moves(2)
        uniform = tuple(1 / len(moves) for _ in moves)
        node = Node(CHANCE, tuple(moves), tuple(self._zero() for _ in moves), probabilities=uniform)
        self._edit("Make chance node", self._at(history, lambda _n: node))

    def make_terminal(self, history: History) -> None:
        """Replace the node and its subtree with a terminal of zero payoffs."""
        if not history:
            raise GameError("the root cannot be terminal")
        self._edit("Make terminal", self._at(history, lambda _n: self._zero()))

    def _zero(self) -> Node:
        return terminal(*[0.0] * self.game.n_players)


def _where(history: History) -> str:
    return "the root" if not history else "history " + " > ".join(history)


def _clean(name: str, what: str) -> str:
    name = name.strip()
    if not name:
        raise GameError(f"{what} cannot be empty")
    return name
