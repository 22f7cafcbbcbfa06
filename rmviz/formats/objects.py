"""Games to and from other libraries' objects: NumPy arrays, pyspiel and pygambit games.

In: :func:`matrix_game` builds a normal-form game from payoff arrays (``A`` alone: zero-sum,
``B = -A``); :func:`game_of` takes an array, a pyspiel game (built by
:func:`~rmviz.formats.openspiel.pyspiel_game`: a one-shot game's normal form, another's
tree, with its checks and size bounds) or a pygambit
game (written by Gambit's own .nfg/.efg writer and read by rmviz's readers, so their checks
apply). Out: :func:`openspiel_policy` and :func:`gambit_profile` put a strategy (per player
for matrix games, per information set ``(player, label)`` for trees) on the corresponding
OpenSpiel or Gambit game. A tree is mapped by walking both trees side by side in prefix
order: each history must have the same kind, player, moves, chance probabilities (and,
for OpenSpiel, payoffs), and each rmviz information set must be one of the other library's;
otherwise the mapping is refused with one line.
"""

from __future__ import annotations

import importlib
import io
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rmviz.errors import GameError, RmvizError
from rmviz.formats.efg import read_efg, write_efg
from rmviz.formats.nfg import read_nfg, write_nfg
from rmviz.formats.openspiel import (
    INSTALL_HINT,
    PREFIX,
    checked_pyspiel_game,
    is_one_shot,
    open_pyspiel_game,
    pyspiel_game,
)
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.flat_tree import CHANCE_KIND, DECISION_KIND, TERMINAL_KIND
from rmviz.games.normal_form import NormalFormGame, check_size

Game = NormalFormGame | ExtensiveFormGame
TreeStrategy = Mapping[tuple[int, str], Sequence[float]]
"""A behaviour strategy: the probabilities of each information set's moves, in the game's
order, by ``(player index, information-set label)``."""

OPENSPIEL_NAMES = {"Kuhn poker": "kuhn_poker", "Leduc hold'em": "leduc_poker"}
"""The OpenSpiel games rmviz's own trees are mapped onto by default (by title); the walk
still checks that the trees are the same."""
TOLERANCE = 1e-9  # chance probabilities and payoffs compared relative to the largest


def matrix_game(
    payoffs: Sequence[Any],
    names: Sequence[str] | None = None,
    actions: Sequence[Sequence[str]] | None = None,
    title: str | None = None,
) -> NormalFormGame:
    """The normal-form game of one payoff array per player (``payoffs``), each with one axis
    per player, all of one shape; one 2-D array alone is the row player's payoffs of a
    zero-sum game (the column player's are ``-A``). Refused with one line: arrays that are not
    numbers, shapes that differ or do not have one axis per player, too many players or
    payoffs, and payoffs that are not finite or beyond the bounds games accept."""
    arrays = [_array(p, _name(i)) for i, p in enumerate(payoffs)]
    if len(arrays) == 1:
        (matrix,) = arrays
        if matrix.ndim != 2:
            raise GameError(
                f"A alone is a zero-sum game's row-player matrix and needs 2 axes; got shape {matrix.shape}"
                " (several players: rmviz.game(A, B, C, ...), one array each)"
            )
        arrays = [matrix, -matrix]
    shape = arrays[0].shape
    for i, array in enumerate(arrays):
        if array.shape != shape:
            raise GameError(
                f"{_name(i)} has shape {array.shape} and A {shape}: every player's payoffs need one shape"
            )
    if len(shape) != len(arrays):
        raise GameError(
            f"{len(arrays)} payoff arrays make a {len(arrays)}-player game, so each needs "
            f"{len(arrays)} axes (one per player); got shape {shape}"
        )
    check_size(shape, len(arrays))
    return NormalFormGame(
        np.stack(arrays),
        tuple(names or ()),
        tuple(tuple(a) for a in actions or ()),
        title or "Game from arrays",
    )


_NAMES = "ABCDEFGH"


def _name(i: int) -> str:
    return _NAMES[i] if i < len(_NAMES) else f"array {i + 1}"


def _array(value: Any, name: str) -> np.ndarray:
    try:
        if np.iscomplexobj(value):  # NumPy would drop the imaginary parts with a warning
            raise GameError(f"{name} holds complex numbers; payoffs are real")
        return np.asarray(value, dtype=np.float64)
    except OverflowError:
        raise GameError(f"{name} holds a number too large for a float") from None
    except (TypeError, ValueError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise GameError(f"{name} must be an array of numbers ({reason})") from None


def game_of(value: object) -> Game:
    """The game of ``value``: a game as it is; a NumPy array (or nested lists) as
    :func:`matrix_game` reads it, a 2-D one as the row player's payoffs of a zero-sum game and
    one of shape ``(players, |A_1|, ..., |A_n|)`` as every player's payoffs; a pyspiel game;
    a pygambit game. Anything else is refused with one line naming what is taken."""
    if isinstance(value, (NormalFormGame, ExtensiveFormGame)):
        return value
    if isinstance(value, (np.ndarray, list, tuple)):
        array = _array(value, "the array")
        return matrix_game([array] if array.ndim <= 2 else list(array), title="Game from arrays")
    pyspiel = sys.modules.get("pyspiel")
    if pyspiel is not None and isinstance(value, pyspiel.Game):
        return pyspiel_game(value)
    pygambit = sys.modules.get("pygambit")
    if pygambit is not None and isinstance(value, pygambit.Game):
        return _from_gambit(value)
    raise RmvizError(
        f"cannot load a {type(value).__name__}: give a catalog id, a file, a game, a NumPy array "
        "(a zero-sum game's row-player matrix), a pyspiel or a pygambit game; "
        "rmviz.game(A, B) builds a bimatrix game"
    )


def _from_gambit(game: Any) -> Game:
    """A pygambit game through Gambit's own writer and rmviz's reader of that format."""
    source = f"pygambit game {game.title!r}"
    if game.is_tree:
        return read_efg(game.to_efg(), source)
    return read_nfg(game.to_nfg(), source)


# -- out: OpenSpiel ---------------------------------------------------------------------------
def openspiel_policy(game: Game, strategy: Any, target: Any = None) -> Any:
    """An OpenSpiel ``TabularPolicy`` of ``strategy`` on ``target`` (a pyspiel game or a
    game string; default: the game ``game`` was built from, or OpenSpiel's version of
    rmviz's Kuhn and Leduc poker, :data:`OPENSPIEL_NAMES`): a tree's :data:`TreeStrategy`
    on a tree, a matrix game's per-player probabilities on a one-shot game
    (:func:`_one_shot_policy`)."""
    pyspiel = _module("pyspiel", INSTALL_HINT)
    tabular_policy = _module("open_spiel.python.policy", INSTALL_HINT).TabularPolicy
    if isinstance(game, NormalFormGame):
        return _one_shot_policy(pyspiel, tabular_policy, game, strategy, target)
    target = _openspiel_target(pyspiel, game, target)
    shown = f"{PREFIX}{target}"
    mapping = _walk_openspiel(pyspiel, game, target, shown)
    policy = tabular_policy(target)
    table = policy.action_probability_array
    for key, (infoset, actions) in mapping.items():
        row = policy.state_lookup.get(key)
        if row is None:  # TabularPolicy lists every state; this one it did not
            raise RmvizError(f"{shown!r}: OpenSpiel's policy has no information state {key!r}")
        table[row] = 0.0
        table[row, actions] = strategy[infoset]
    return policy


def _one_shot_policy(
    pyspiel: Any, tabular_policy: Any, game: NormalFormGame, strategy: Sequence[Any], target: Any
) -> Any:
    """Per-player probabilities as a ``TabularPolicy`` of a one-shot OpenSpiel game (default:
    the one ``game`` was loaded from): each player's row at the first state, over its legal
    actions in order, as :func:`~rmviz.formats.openspiel.normal_form_of` reads them. Refused
    with one line when the target is not one-shot or its players or actions differ."""
    if target is None:
        if not game.description.startswith(PREFIX):
            raise RmvizError(
                f"{game.title!r} was not loaded from OpenSpiel: load it as openspiel:NAME, or pass "
                "the one-shot pyspiel game to map onto"
            )
        target = game.description
    text = target.removeprefix(PREFIX).strip() if isinstance(target, str) else str(target)
    shown = f"{PREFIX}{text}"
    if isinstance(target, str):
        target = open_pyspiel_game(text)
    if not is_one_shot(target):
        raise RmvizError(f"{game.title!r} is a matrix game; {shown!r} is not one-shot: no policy maps")
    state = target.new_initial_state()
    counts = tuple(len(state.legal_actions(player)) for player in range(target.num_players()))
    if counts != game.num_actions:
        shape = "x".join(map(str, counts))
        raise RmvizError(f"cannot map {game.title!r} ({game.shape_label}) onto {shown!r} ({shape})")
    policy = tabular_policy(target)
    table = policy.action_probability_array
    for player, probabilities in enumerate(strategy):
        row = policy.state_lookup[state.information_state_string(player)]
        table[row] = 0.0
        table[row, state.legal_actions(player)] = probabilities
    return policy


def _openspiel_target(pyspiel: Any, game: ExtensiveFormGame, target: Any) -> Any:
    if target is None:
        if game.description.startswith(PREFIX):
            target = game.description.removeprefix(PREFIX)
        elif game.title in OPENSPIEL_NAMES:
            target = OPENSPIEL_NAMES[game.title]
        else:
            raise RmvizError(
                f"{game.title!r} is not a game rmviz can map onto OpenSpiel: load it from OpenSpiel "
                "(openspiel:NAME or a pyspiel game), or pass the pyspiel game to map onto"
            )
    if isinstance(target, str):
        target = open_pyspiel_game(target.removeprefix(PREFIX).strip())
    return checked_pyspiel_game(target, f"{PREFIX}{target}")


def _walk_openspiel(
    pyspiel: Any, game: ExtensiveFormGame, target: Any, shown: str
) -> dict[str, tuple[tuple[int, str], list[int]]]:
    """OpenSpiel's information-state strings -> (rmviz's information set, legal actions),
    from both trees walked side by side in prefix order."""
    flat = game.flat
    chance, terminal = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
    scale = max(1.0, float(np.abs(flat.payoffs).max(initial=0.0)))
    match = _Matching(game, repr(shown))
    stack = [target.new_initial_state()]
    k = 0
    while stack:
        state = stack.pop()
        if k >= flat.n_nodes:
            raise match.refused(k, "OpenSpiel's tree has more histories")
        kind, player = int(flat.kind[k]), state.current_player()
        if player == terminal:
            if kind != TERMINAL_KIND:
                raise match.refused(k, "OpenSpiel's history is terminal, rmviz's is not")
            returns = np.asarray(state.returns(), dtype=np.float64)
            if not np.allclose(returns, flat.payoffs[flat.ref[k]], rtol=0.0, atol=TOLERANCE * scale):
                raise match.refused(k, f"payoffs differ ({returns.tolist()})")
            k += 1
            continue
        if player == chance:
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            match.chance(k, [p for _, p in outcomes])
        else:
            actions = state.legal_actions(player)
            match.decision(k, player, len(actions), state.information_state_string(player), actions)
        for action in reversed(actions):
            stack.append(state.child(action))
        k += 1
    if k != flat.n_nodes:
        raise match.refused(k, "rmviz's tree has more histories")
    return match.found


class _Matching:
    """Checks one history of rmviz's tree against the other library's and records which
    information set of the other is which of rmviz's (one to one)."""

    def __init__(self, game: ExtensiveFormGame, shown: str) -> None:
        self.game, self.flat, self.shown = game, game.flat, shown
        self.found: dict[Any, tuple[tuple[int, str], Any]] = {}
        self.taken: dict[int, Any] = {}  # rmviz's information set -> the other's key

    def refused(self, k: int, reason: str) -> RmvizError:
        return RmvizError(
            f"cannot map {self.game.title!r} onto {self.shown}: at history {k} (prefix order) {reason}"
        )

    def _moves(self, k: int) -> int:
        moveset = int(self.flat.moveset[k])
        return len(self.flat.movesets[moveset]) if moveset >= 0 else 0

    def chance(self, k: int, probabilities: Sequence[float]) -> None:
        flat = self.flat
        if int(flat.kind[k]) != CHANCE_KIND:
            raise self.refused(k, "the other's is a chance history, rmviz's is not")
        ours = flat.chance_probabilities[int(flat.ref[k])]
        if len(ours) != len(probabilities) or not all(
            math.isclose(float(p), q, rel_tol=0.0, abs_tol=TOLERANCE)
            for p, q in zip(probabilities, ours, strict=True)
        ):
            raise self.refused(k, "chance probabilities differ")

    def decision(self, k: int, player: int, moves: int, key: Any, actions: Any) -> None:
        flat = self.flat
        infoset = int(flat.ref[k]) if int(flat.kind[k]) == DECISION_KIND else -1
        if infoset < 0 or int(flat.infoset_player[infoset]) != player:
            raise self.refused(k, f"the other has player {player + 1} move, rmviz does not")
        if self._moves(k) != moves:
            raise self.refused(k, f"rmviz has {self._moves(k)} moves, the other {moves}")
        label = (player, flat.infoset_label[infoset])
        known = self.found.get(key)
        if known is None:
            if self.taken.setdefault(infoset, key) != key:
                raise self.refused(k, f"rmviz's information set {label[1]!r} is two of the other's")
            self.found[key] = (label, actions)
        elif known[0] != label:
            raise self.refused(k, f"information sets {known[0][1]!r} and {label[1]!r} are one of the other's")


# -- out: Gambit ------------------------------------------------------------------------------
GAMBIT_HINT = "install pygambit: pip install pygambit"


def gambit_profile(game: Game, strategy: Any, target: Any = None) -> Any:
    """A pygambit profile of ``strategy`` on ``target`` (a pygambit game; default: ``game`` as
    Gambit reads rmviz's .nfg or .efg file of it): a ``MixedStrategyProfile`` of per-player
    probabilities for a matrix game, a ``MixedBehaviorProfile`` of a :data:`TreeStrategy`
    for a tree. Floating point, not rational."""
    pygambit = _module("pygambit", GAMBIT_HINT)
    if isinstance(game, NormalFormGame):
        if target is None:
            target = pygambit.read_nfg(io.StringIO(write_nfg(game)))
        counts = tuple(len(player.strategies) for player in target.players)
        if counts != game.num_actions:
            shape = "x".join(map(str, counts))
            raise RmvizError(f"cannot map {game.title!r} ({game.shape_label}) onto a {shape} Gambit game")
        return target.mixed_strategy_profile(
            data=[[float(p) for p in player] for player in strategy], rational=False
        )
    if target is None:
        target = pygambit.read_efg(io.StringIO(write_efg(game)))
    if not target.is_tree:
        raise RmvizError(f"{game.title!r} is a game tree; the Gambit game is not")
    profile = target.mixed_behavior_profile(rational=False)
    for infoset, (label, _) in _walk_gambit(game, target).items():
        for action, p in zip(infoset.actions, strategy[label], strict=True):
            profile[action] = float(p)
    return profile


def _walk_gambit(game: ExtensiveFormGame, target: Any) -> dict[Any, tuple[tuple[int, str], Any]]:
    """Gambit's information sets -> rmviz's, from both trees walked side by side."""
    players = list(target.players)
    match = _Matching(game, f"the Gambit game {target.title!r}")
    flat = game.flat
    stack, k = [target.root], 0
    while stack:
        node = stack.pop()
        if k >= flat.n_nodes:
            raise match.refused(k, "Gambit's tree has more histories")
        children = list(node.children)
        if not children:
            if int(flat.kind[k]) != TERMINAL_KIND:
                raise match.refused(k, "Gambit's history is terminal, rmviz's is not")
        elif node.player.is_chance:
            match.chance(k, [float(action.prob) for action in node.infoset.actions])
        else:
            match.decision(k, players.index(node.player), len(children), node.infoset, None)
        stack.extend(reversed(children))
        k += 1
    if k != flat.n_nodes:
        raise match.refused(k, "rmviz's tree has more histories")
    return match.found


def _module(name: str, hint: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise RmvizError(f"this needs {name}; {hint}") from None
