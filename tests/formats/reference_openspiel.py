"""The OpenSpiel walk as it was before flat arrays (a Node per history, validated node by
node): the reference rmviz.formats.openspiel.tree_of must match."""

from __future__ import annotations

from typing import Any

from rmviz.errors import GameError, RmvizError
from rmviz.formats.openspiel import (
    MAX_NODES,
    PREFIX,
    PROGRESS_EVERY,
    Cancelled,
    Progress,
    _labels,
    _pyspiel,
    infoset_label,
)
from rmviz.games.extensive_form import CHANCE, DECISION, ExtensiveFormGame, Node, terminal


def reference_tree_of(
    game: Any, spec: str, max_nodes: int = MAX_NODES, progress: Progress | None = None
) -> ExtensiveFormGame:
    """Walk a loaded pyspiel game depth first with an explicit stack into an ExtensiveFormGame
    (``progress``: see :func:`openspiel_game`)."""
    pyspiel = _pyspiel()
    chance_player = pyspiel.PlayerId.CHANCE
    n = game.num_players()
    moves_of: dict[tuple[int, str], tuple[list[int], tuple[str, ...]]] = {}
    raws: dict[tuple[int, str], str] = {}
    made: list[Node] = []
    top: list[Node] = []
    # each entry: the state to build, and the list its node is appended to (its parent's children)
    stack: list[tuple[Any, list[Node]]] = [(game.new_initial_state(), top)]
    while stack:
        state, siblings = stack.pop()
        if len(made) >= max_nodes:
            raise RmvizError(
                f"{spec!r} has more than {max_nodes:,} histories, too large to build as a tree here"
            )
        if progress is not None and len(made) % PROGRESS_EVERY == 0 and made and not progress(len(made)):
            raise Cancelled(f"{spec!r}: stopped after {len(made):,} histories")
        actions: list[int] = []
        if state.is_terminal():
            node = terminal(*state.returns())
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            labels = _labels(state, chance_player, actions)
            node = Node(CHANCE, labels, probabilities=tuple(float(p) for _, p in outcomes))
        else:
            player = state.current_player()
            if not 0 <= player < n:  # a simultaneous node left in a converted game, or an error
                raise RmvizError(f"{spec!r}: a history has no single acting player ({player})")
            raw = state.information_state_string(player)
            label = infoset_label(raw)
            if raws.setdefault((player, label), raw) != raw:
                raise RmvizError(
                    f"{spec!r}: two information-state strings of player {player + 1} read {label!r} "
                    "on one line"
                )
            actions = list(state.legal_actions(player))
            known = moves_of.get((player, label))
            if known is None:
                known = moves_of[(player, label)] = (actions, _labels(state, player, actions))
            elif known[0] != actions:
                raise RmvizError(
                    f"{spec!r}: information set {label!r} of player {player + 1} offers different "
                    "legal actions at different histories"
                )
            node = Node(DECISION, known[1], player=player, infoset=label)
        made.append(node)
        siblings.append(node)
        if actions:
            children: list[Node] = []
            node.children = children  # type: ignore[assignment]  # a tuple once the walk is done
            stack.extend((state.child(action), children) for action in reversed(actions))
    for node in made:
        node.children = tuple(node.children)
    names = tuple(f"Player {i + 1}" for i in range(n))
    title = game.get_type().long_name
    try:
        return ExtensiveFormGame(top[0], names, f"{title} (OpenSpiel)", f"{PREFIX}{game}")
    except GameError as error:
        raise GameError(f"{spec!r}: {error}") from None
