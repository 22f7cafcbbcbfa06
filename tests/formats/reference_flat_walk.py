"""The OpenSpiel walk into flat arrays as it was before issue 34 (a builder call per history,
a function call per step): rmviz.formats.openspiel's walk must give the same FlatTree, array
for array, table for table."""

from __future__ import annotations

from typing import Any

from rmviz.errors import Cancelled, RmvizError
from rmviz.formats.openspiel import (
    MAX_HELD,
    PROGRESS_EVERY,
    Progress,
    _finished,
    _labels,
    _pyspiel,
    _too_large,
    infoset_label,
)
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.flat_tree import FlatTreeBuilder


def reference_walk(game: Any, spec: str, max_nodes: int, progress: Progress | None) -> ExtensiveFormGame:
    """The depth-first walk, one state per depth: histories go straight into flat arrays
    (:class:`~rmviz.games.flat_tree.FlatTreeBuilder`, in the prefix order of the walk); an
    information-state string met again reuses its label and moves."""
    pyspiel = _pyspiel()
    chance_player = pyspiel.PlayerId.CHANCE
    terminal_player = pyspiel.PlayerId.TERMINAL
    n = game.num_players()
    builder = FlatTreeBuilder(n)
    raws: dict[tuple[int, str], str] = {}  # (player, label) -> the string it was made from
    seen: list[dict[str, tuple[int, list[int], tuple[str, ...]]]] = [{} for _ in range(n)]
    frames: list[list[Any]] = []  # [state, actions, next index, depth, held]: see _advance
    state, depth = game.new_initial_state(), 0
    made, found = 0, 1  # histories built; histories known (built, or listed by a parent)
    while state is not None:
        if progress is not None and made % PROGRESS_EVERY == 0 and made and not progress(made):
            raise Cancelled(f"{spec!r}: stopped after {made:,} histories")
        made += 1
        player = state.current_player()
        if player == terminal_player:
            builder.terminal_node(state.returns())  # a list of floats
            state, depth = _advance(frames)
            continue
        if player == chance_player:
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            builder.chance(_labels(state, chance_player, actions), tuple(float(p) for _, p in outcomes))
        else:
            if not 0 <= player < n:  # a simultaneous node left in a converted game, or an error
                raise RmvizError(f"{spec!r}: a history has no single acting player ({player})")
            raw = state.information_state_string(player)
            actions = state.legal_actions(player)
            known = seen[player].get(raw)  # (information set id, actions, labels)
            if known is None:
                label = infoset_label(raw)
                if raws.setdefault((player, label), raw) != raw:
                    raise RmvizError(
                        f"{spec!r}: two information-state strings of player {player + 1} read "
                        f"{label!r} on one line"
                    )
                moves = _labels(state, player, actions)
                known = seen[player][raw] = (builder.infoset(player, label, moves), actions, moves)
            elif known[1] != actions:
                raise RmvizError(
                    f"{spec!r}: information set {infoset_label(raw)!r} of player {player + 1} offers "
                    "different legal actions at different histories"
                )
            builder.decision_at(known[0], known[2])
        found += len(actions)
        if found > max_nodes:
            raise _too_large(spec, max_nodes)
        if actions:
            _push(frames, state, actions, depth, spec)
        state, depth = _advance(frames)
    return _finished(builder, game, spec)


def _push(frames: list[list[Any]], state: Any, actions: list[int], depth: int, spec: str) -> None:
    """Keep ``state`` (at ``depth``) for its children ``actions``, refused with one line when
    the kept states' histories would hold more than :data:`MAX_HELD` moves in all."""
    held = depth + (frames[-1][4] if frames else 0)
    if held > MAX_HELD:
        raise RmvizError(
            f"{spec!r} is too deep to walk here: the states kept for its unexplored branches "
            f"would hold more than {MAX_HELD:,} moves"
        )
    frames.append([state, actions, 0, depth, held])


def _advance(frames: list[list[Any]]) -> tuple[Any, int]:
    """The next history of a depth-first walk in prefix order and its depth, or ``(None, 0)``
    at the end. Each frame ``[state, actions, index, depth, held]`` holds a state whose
    children from ``actions[index]`` on are still to walk: they are cloned from it one at a
    time, and the last one takes the state itself (so a state with k moves costs k - 1
    clones); ``held``: the depths of this frame's state and those below it, summed (:func:`_push`)."""
    if not frames:
        return None, 0
    frame = frames[-1]
    state, actions, index, depth, _ = frame
    if index + 1 == len(actions):
        frames.pop()
        state.apply_action(actions[index])
        return state, depth + 1
    frame[2] = index + 1
    return state.child(actions[index]), depth + 1
