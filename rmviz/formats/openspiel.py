"""OpenSpiel's games as rmviz games: ``openspiel:GAME(params)``.

:func:`openspiel_game` loads a game with pyspiel (the optional extra ``rmviz[openspiel]``).
A one-shot game (OpenSpiel's ``ONE_SHOT`` information: ``matrix_rps``, ``blotto``,
``nfg_game``, ``normal_form_extensive_game``) is its normal form, a
:class:`~rmviz.games.normal_form.NormalFormGame` (:func:`normal_form_of`), as Gambit's .nfg
files are. Any other game is walked into an
:class:`~rmviz.games.extensive_form.ExtensiveFormGame` with an
explicit stack (no recursion): chance nodes with their probabilities, decision nodes in the
information set named by the information-state string (:func:`infoset_label`), terminal
nodes with the returns; simultaneous-move games as their turn-based version. The walk visits
each history once (OpenSpiel's Gambit exporter takes minutes on Liar's dice). Refused in one
line: unknown games or parameters, sampled chance, no information-state strings, more than
``max_nodes`` histories.

Bounded in memory and time (issue 33): a walk holds one state per depth and stops as soon as
its count passes the limit. A game that random probes estimate above the limit
(:func:`estimated_histories`) is counted first without strings, by depth-limited walks to
depths 2, 4, 8, ... (:func:`check_size`). When that count has used :data:`COUNT_SECONDS` of
CPU time without deciding (colored_trails lists moves slowly), fresh probes refuse the game
if it is more than :data:`SIGMAS` standard errors above the limit
(:func:`refuse_if_estimated`); otherwise the count goes on, so no game within the limit is
refused on an estimate. The kept states hold their histories, about D^2 / 2 moves in a chain
D deep: past :data:`MAX_HELD` the walk is refused.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import re
import sys
import time
from array import array
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from rmviz.errors import Cancelled, GameError, RmvizError
from rmviz.formats.efg_records import no_cycle_collection
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.flat_tree import CHANCE_KIND, DECISION_KIND, TERMINAL_KIND, FlatTreeBuilder
from rmviz.games.normal_form import NormalFormGame
from rmviz.games.normal_form import check_size as check_payoff_size

PREFIX = "openspiel:"
MAX_NODES = 1_000_000
"""The most histories (nodes) a game may have. A history costs about 60 bytes in the flat
arrays the walk fills (:mod:`rmviz.games.flat_tree`) and about 0.3 kB compiled for CFR;
loading takes about 2.3-3.1 microseconds of CPU per history where OpenSpiel's own calls take
1.5-2.0 (``rmviz bench``; tic-tac-toe, a new information set at every decision: 3.7-3.8). Leduc
poker has 9,457 histories, Liar's dice with one six-sided die each 294,883, tic-tac-toe
549,946, goofspiel with 6 cards and imperfect information 969,523."""
PROGRESS_EVERY = 10_000  # histories between two progress calls (a fraction of a second)
COUNT_SECONDS = 2.0
"""CPU seconds (``time.process_time``) the exact count runs before the probes' estimate may
refuse the game (:func:`refuse_if_estimated`): a game the count settles within them is never
refused on an estimate."""
SIGMAS = 4.0
"""How far above the limit the estimate must be to refuse on it: the mean of the probes less
this many standard errors of that mean still above ``max_nodes``. Knuth's estimate is unbiased
but heavy-tailed (a few probes through wide subtrees carry it), and such probes widen the
standard error as much as they raise the mean, so a lucky sample does not refuse a game that
fits. Over ten samples of 1,000 probes, the mean less four errors was at most 65,927 for
Liar's dice (294,883 histories; means 137,512 to 299,746), 520,858 for tic-tac-toe (549,946)
and 8,246 for Leduc poker (9,457); for colored_trails it is 1,439,747 (mean 1,642,636), so
that game is refused once the count's budget is spent (3 s in all) where its count took 25 s
of CPU to pass 10^6."""
MAX_HELD = 10_000_000
"""The most moves the walk's kept states may hold in their histories together (one state per
depth with moves left to walk, each holding its whole history: a game D deep whose first moves
lead deeper keeps about D^2 / 2). OpenSpiel's states take 16 bytes a move and more
(efg_game: 20-28 in all); the games that fit the history limit hold at most about a hundred
(Liar's dice: 105), a hostile chain of 4,000 binary choices 8 million (280 MB peak), and one
of 10,000 (a 0.4 MB .efg file, 20,001 histories) held 50 million, 1.1 GB: now refused at
0.36 GB. (OpenSpiel itself crashes reading an .efg file some 15,000 levels deep.)"""
REFUSAL_PROBES = 1_000  # the probes drawn to refuse on (fewer when time runs out; 32 at least)
PROBE_SECONDS = 1.0  # CPU seconds those probes may take
_clock = time.process_time  # the CPU clock of the budgets above (tests replace it)
Progress = Callable[[int], bool]


INSTALL_HINT = "install OpenSpiel: pip install 'rmviz[openspiel]' (Linux and macOS)"


def openspiel_game(
    spec: str, max_nodes: int = MAX_NODES, progress: Progress | None = None
) -> ExtensiveFormGame | NormalFormGame:
    """The game of ``openspiel:GAME(params)`` (the prefix is optional), e.g.
    ``openspiel:kuhn_poker(players=3)``: a one-shot game's normal form, any other game's tree
    (:func:`pyspiel_game`); see the module docstring for what is refused.
    ``progress(histories)`` is called every :data:`PROGRESS_EVERY` histories walked (joint
    actions, in a one-shot game); when it returns False the walk stops with :class:`Cancelled`."""
    return pyspiel_game(open_pyspiel_game(spec.removeprefix(PREFIX).strip()), spec, max_nodes, progress)


def pyspiel_game(
    game: Any, spec: str | None = None, max_nodes: int = MAX_NODES, progress: Progress | None = None
) -> ExtensiveFormGame | NormalFormGame:
    """A loaded pyspiel game (``pyspiel.load_game(...)``) as rmviz's: a one-shot game's normal
    form (:func:`normal_form_of`), any other game's tree (:func:`tree_of`, as
    :func:`pyspiel_game_tree` builds it);
    ``spec`` names it in refusals (default ``openspiel:`` and the game's own name)."""
    shown = spec or f"{PREFIX}{game}"  # the spec as loaded: str(game) can lose a nested game
    if is_one_shot(game):
        return normal_form_of(game, shown, max_nodes, progress)
    return tree_of(checked_pyspiel_game(game, shown), shown, max_nodes, progress)


def one_shot_spec(spec: str) -> bool:
    """Whether ``openspiel:GAME(params)`` names a one-shot game, which :func:`openspiel_game`
    builds as a matrix game, without building it; refused with the line :func:`openspiel_game`
    would give before building (an unknown game or parameter, a game that is not a tree)."""
    text = spec.removeprefix(PREFIX).strip()
    game = open_pyspiel_game(text)
    if is_one_shot(game):
        return True
    checked_pyspiel_game(game, f"{PREFIX}{text}")
    return False


def is_one_shot(game: Any) -> bool:
    """Whether a pyspiel game is one-shot: each player chooses once, all at once, and the game
    ends (OpenSpiel's ``Information.ONE_SHOT``, simultaneous and without chance)."""
    pyspiel = _pyspiel()
    kind = game.get_type()
    return (
        kind.information == pyspiel.GameType.Information.ONE_SHOT
        and kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        and kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    )


def normal_form_of(
    game: Any, spec: str, max_nodes: int = MAX_NODES, progress: Progress | None = None
) -> NormalFormGame:
    """The normal form of a one-shot pyspiel game (:func:`is_one_shot`): each player's legal
    actions at the first state, named by OpenSpiel's action strings (:func:`_labels`), and the
    returns after each joint action. Refused in one line: more than ``max_nodes`` joint
    actions (each ends a history of the game's tree), payoffs beyond the memory
    :func:`~rmviz.games.normal_form.check_size` allows, a first state that is not simultaneous
    or a joint action that does not end the game. ``progress``: as in :func:`openspiel_game`."""
    state = game.new_initial_state()
    n = game.num_players()
    if not state.is_simultaneous_node():
        raise RmvizError(f"{spec!r}: a one-shot game whose first state is not a simultaneous move")
    actions = [state.legal_actions(player) for player in range(n)]
    shape = tuple(len(moves) for moves in actions)
    entries = math.prod(shape)
    if entries > max_nodes:
        raise RmvizError(
            f"{spec!r} has {entries:,} joint actions, more than {max_nodes:,}: too large to build here"
        )
    try:
        check_payoff_size(shape, n)
    except GameError as error:
        raise GameError(f"{spec!r}: {error}") from None
    payoffs = np.empty((entries, n))
    for k, joint in enumerate(itertools.product(*actions)):
        if k and k % PROGRESS_EVERY == 0 and progress is not None and not progress(k):
            raise Cancelled(f"{spec!r}: stopped after {k:,} joint actions")
        child = state.clone()
        child.apply_actions(list(joint))
        if not child.is_terminal():
            raise RmvizError(f"{spec!r}: a one-shot game that goes on after the joint action {list(joint)}")
        payoffs[k] = child.returns()
    names, title = _names_and_title(game)
    action_names = tuple(
        tuple(_move_name(label) for label in _labels(state, player, moves))
        for player, moves in enumerate(actions)
    )
    try:
        return NormalFormGame(
            np.moveaxis(payoffs.reshape(*shape, n), -1, 0), names, action_names, title, _source(spec)
        )
    except GameError as error:
        raise GameError(f"{spec!r}: {error}") from None


def fitting_games() -> list[str]:
    """The names of OpenSpiel's registered games that :func:`openspiel_game` can walk (exact
    chance, information-state strings, sequential or simultaneous moves), sorted; empty when
    OpenSpiel is not installed. Whether a game fits the size limit shows only on loading."""
    try:
        pyspiel = _pyspiel()
    except RmvizError:
        return []
    fit = []
    for kind in pyspiel.registered_games():
        if (
            kind.chance_mode != pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
            and kind.provides_information_state_string
            and kind.dynamics
            in (pyspiel.GameType.Dynamics.SEQUENTIAL, pyspiel.GameType.Dynamics.SIMULTANEOUS)
        ):
            fit.append(kind.short_name)
    return sorted(fit)


def load_pyspiel_game(text: str) -> Any:
    """``pyspiel.load_game(text)``, its turn-based version for simultaneous games, refused
    with one line when it cannot be a finite tree with exact chance probabilities."""
    return checked_pyspiel_game(open_pyspiel_game(text), f"{PREFIX}{text}")


def open_pyspiel_game(text: str) -> Any:
    """``pyspiel.load_game(text)`` as it is (a simultaneous game too), refused with one line
    for an unknown game or parameters."""
    pyspiel = _pyspiel()
    shown = f"{PREFIX}{text}"
    name = text.partition("(")[0].strip()
    if not name:
        raise RmvizError(f"{shown!r}: name a game, e.g. openspiel:kuhn_poker or openspiel:leduc_poker")
    if name not in pyspiel.registered_names():
        raise RmvizError(f"{shown!r}: OpenSpiel has no game {name!r} (see pyspiel.registered_names())")
    with _quiet_stderr():  # OpenSpiel also prints its error on stderr; we say it once
        try:
            game = pyspiel.load_game(text)
        except pyspiel.SpielError as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "cannot load it"
            raise RmvizError(f"{shown!r}: {reason}") from None
        except (IndexError, KeyError, ValueError, RuntimeError) as error:
            # C++ exceptions other than SpielError, as pybind11 translates them: nfg_game
            # without a filename ends in std::out_of_range "map::at" (an IndexError)
            failure = f"{type(error).__name__}: {error}"
            raise RmvizError(
                f"{shown!r}: OpenSpiel cannot load it ({failure}); check its parameters"
            ) from None
    return game


def checked_pyspiel_game(game: Any, shown: str) -> Any:
    """A loaded pyspiel game as a tree can be walked from it: its turn-based version for a
    simultaneous game; refused with one line (naming ``shown``) when its chance is sampled,
    its dynamics are neither sequential nor simultaneous, or it has no information-state
    strings."""
    pyspiel = _pyspiel()
    kind = game.get_type()
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise RmvizError(f"{shown!r}: its chance events are sampled, without probabilities to build a tree")
    if kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
        kind = game.get_type()
    elif kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise RmvizError(f"{shown!r}: a {kind.dynamics.name.lower()} game is not a game tree")
    if not kind.provides_information_state_string:
        raise RmvizError(f"{shown!r}: the game has no information-state strings to group histories by")
    return game


def pyspiel_game_tree(
    game: Any, max_nodes: int = MAX_NODES, progress: Progress | None = None
) -> ExtensiveFormGame:
    """The game tree of a pyspiel game object (``pyspiel.load_game(...)``), checked and
    bounded as :func:`openspiel_game` checks a game it loads (``progress``: as there)."""
    shown = f"{PREFIX}{game}"
    return tree_of(checked_pyspiel_game(game, shown), shown, max_nodes, progress)


def tree_of(
    game: Any, spec: str, max_nodes: int = MAX_NODES, progress: Progress | None = None
) -> ExtensiveFormGame:
    """Walk a loaded pyspiel game into an ExtensiveFormGame (``progress``: see
    :func:`openspiel_game`), counted first where probes say it is too large (module docstring)."""
    estimate = estimated_histories(game, 100 * max_nodes)  # only a choice: the count is exact
    if estimate > max_nodes:
        check_size(
            game,
            spec,
            max_nodes,
            progress,
            seconds=COUNT_SECONDS,
            slow=lambda: refuse_if_estimated(game, spec, max_nodes),
        )
    elif estimate > max_nodes / 16:  # probably fits: count a little (a tenth of the walk's cost,
        # so a game the probes underrate shows early; the walk itself stops at max_nodes too)
        check_size(game, spec, max_nodes, progress, budget=max(1, min(max_nodes // 8, int(estimate) // 10)))
    return _walk(game, spec, max_nodes, progress)


def _walk(game: Any, spec: str, max_nodes: int, progress: Progress | None) -> ExtensiveFormGame:
    """The depth-first walk (:func:`_walk_records`), its records handed to the builder at the
    end (:meth:`~rmviz.games.flat_tree.FlatTreeBuilder.append_records`). Python's cyclic
    garbage collector is paused meanwhile: the walk makes no cycles, and the collector's
    passes over its growing tables cost a fifth of a walk with many information sets
    (tic-tac-toe: 4.33 against 3.41 us per history)."""
    n = game.num_players()
    builder = FlatTreeBuilder(n)
    with no_cycle_collection():
        codes, payoffs, pairs = _walk_records(game, builder, spec, max_nodes, progress)
    builder.relabel_moves(_move_name)  # once per distinct move list, not per history
    _records(builder, np.frombuffer(codes, dtype=np.int32), pairs, np.frombuffer(payoffs).reshape(-1, n))
    return _finished(builder, game, spec)


def _finished(builder: FlatTreeBuilder, game: Any, spec: str) -> ExtensiveFormGame:
    """The walked game: its flat arrays, players and title (:func:`_names_and_title`); a tree
    the arrays refuse is a :class:`GameError` naming ``spec``."""
    names, title = _names_and_title(game)
    try:
        return ExtensiveFormGame.from_flat(builder.finish(), names, title, _source(spec))
    except GameError as error:
        raise GameError(f"{spec!r}: {error}") from None


STRATEGY_PART = re.compile(r"(.*?)\s+---\s+action = (\S+)")  # "0pb  ---  action = 1"


def _move_name(label: str) -> str:
    """An action string as rmviz names the move: on one line (:func:`_one_line`), a pure
    strategy of several lines shortened (:func:`_strategy_name`)."""
    return _strategy_name(_one_line(label))


def _strategy_name(label: str) -> str:
    """A pure strategy as normal_form_extensive_game writes it, a line per information set
    (``0  ---  action = 0 | 0pb  ---  action = 1 | ...``: 110 characters for Kuhn poker),
    as ``0:0 0pb:1 ...`` (29); any other label as it is."""
    parts = [STRATEGY_PART.fullmatch(part) for part in label.split(" | ")]
    if not all(parts):
        return label
    return " ".join(f"{m[1]}:{m[2]}" for m in parts if m is not None)


def _source(spec: str) -> str:
    """A built game's description: ``openspiel:`` and the spec it was loaded by, which
    :func:`~rmviz.formats.objects.openspiel_policy` loads again (``str(game)`` drops
    ``normal_form_extensive_game``'s game)."""
    return PREFIX + spec.removeprefix(PREFIX).strip()


def _names_and_title(game: Any) -> tuple[tuple[str, ...], str]:
    """An OpenSpiel game's players, ``Player 1``..., and its title: OpenSpiel's long name."""
    names = tuple(f"Player {i + 1}" for i in range(game.num_players()))
    return names, f"{game.get_type().long_name} (OpenSpiel)"


def _walk_records(
    game: Any, builder: FlatTreeBuilder, spec: str, max_nodes: int, progress: Progress | None
) -> tuple[array[int], array[float], dict[tuple[int, int], int]]:
    """The histories of ``game`` in prefix order (:func:`_prefix_order`): each one's code and
    the terminals' returns, and the chance (move list, distribution) pairs; each information
    set is made in the builder when first met (:meth:`~rmviz.games.flat_tree.FlatTreeBuilder.infoset`:
    its moves interned then, so move lists are numbered in the order first met). An
    information-state string met again reuses its information set, a chance history met
    again its code."""
    n = game.num_players()
    pyspiel = _pyspiel()
    chance_player = pyspiel.PlayerId.CHANCE
    terminal_player = pyspiel.PlayerId.TERMINAL
    # a history's code: -1 terminal, 2 i decision in information set i, 2 c + 1 chance with
    # the moves and distribution pair c (_records turns the codes into the builder's columns)
    codes, payoffs = array("i"), array("d")
    code, payoff, intern_moves = codes.append, payoffs.extend, builder.intern_moves
    pairs: dict[tuple[int, int], int] = {}  # chance (move list, distribution) -> c
    chances: dict[tuple[tuple[str, ...], tuple[tuple[int, float], ...]], int] = {}  # -> code
    seen: list[dict[str, tuple[int, list[int]]]] = [{} for _ in range(n)]  # (2 i, actions)
    infoset, made_sets = builder.infoset, builder.infoset_key  # the sets made so far, in order
    every = PROGRESS_EVERY
    made, found, report = 0, 1, every  # histories built; known (built, or listed by a parent)
    walk = _prefix_order(game, spec)
    send = walk.send
    state = next(walk)
    while True:
        if made == report:
            report += every
            if progress is not None and not progress(made):
                raise Cancelled(f"{spec!r}: stopped after {made:,} histories")
        made += 1
        player = state.current_player()
        if player == terminal_player:
            code(-1)
            payoff(state.returns())  # a list of floats
            try:
                state = send(())
            except StopIteration:  # the last history
                break
            continue
        if player == chance_player:
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            key = (_labels(state, chance_player, actions), tuple(outcomes))
            chance = chances.get(key)
            if chance is None:
                pair = (intern_moves(key[0]), builder.intern_chance([float(p) for _, p in outcomes]))
                chance = chances[key] = 2 * pairs.setdefault(pair, len(pairs)) + 1
            code(chance)
        else:
            if not 0 <= player < n:  # a simultaneous node left in a converted game, or an error
                raise RmvizError(f"{spec!r}: a history has no single acting player ({player})")
            raw = state.information_state_string(player)
            actions = state.legal_actions(player)
            known = seen[player].get(raw)
            if known is None:
                label, new = infoset_label(raw), len(made_sets)
                if infoset(player, label, _labels(state, player, actions)) != new:
                    raise RmvizError(
                        f"{spec!r}: two information-state strings of player {player + 1} read "
                        f"{label!r} on one line"
                    )
                known = seen[player][raw] = (2 * new, actions)
            elif known[1] != actions:
                raise RmvizError(
                    f"{spec!r}: information set {infoset_label(raw)!r} of player {player + 1} "
                    "offers different legal actions at different histories"
                )
            code(known[0])
        found += len(actions)
        if found > max_nodes:
            raise _too_large(spec, max_nodes)
        try:
            state = send(actions)
        except StopIteration:  # the last history (a chance or decision one without moves)
            break
    return codes, payoffs, pairs


def _records(
    builder: FlatTreeBuilder, codes: np.ndarray, pairs: dict[tuple[int, int], int], payoffs: np.ndarray
) -> None:
    """The walk's histories, by their codes (see :func:`_walk_records`), into the builder's columns."""
    kind = np.where(codes < 0, TERMINAL_KIND, np.where(codes & 1, CHANCE_KIND, DECISION_KIND)).astype(np.int8)
    index = codes >> 1
    decision, chance = kind == DECISION_KIND, kind == CHANCE_KIND
    table = np.array(list(pairs) or [(0, 0)], dtype=np.int32).reshape(-1, 2)
    moveset = np.full(codes.shape[0], -1, dtype=np.int32)
    ref = np.full(codes.shape[0], -1, dtype=np.int32)
    moveset[decision] = np.frombuffer(builder.infoset_moveset, dtype=np.int32)[index[decision]]
    ref[decision] = index[decision]
    moveset[chance], ref[chance] = table[index[chance]].T
    builder.append_records(kind, moveset, ref, payoffs)


def _prefix_order(game: Any, spec: str, limit: float = math.inf) -> Generator[Any, Sequence[int], bool]:
    """The histories of ``game`` depth first, in prefix order, one state kept per depth: the
    caller sends each history's actions back (none at a leaf) and gets the next history; at
    the end ``StopIteration`` carries whether every history was reached (the children of those
    at depth ``limit`` are not). A state with k > 1 actions is kept for its children, cloned
    for the first k - 1 and moved on by the last (k - 1 clones; one action: moved on at once,
    though counted as kept for the limit, as before). Refused in one line when the kept
    states' histories would hold more than :data:`MAX_HELD` moves in all (each frame holds
    its depth plus those below it)."""
    max_held = MAX_HELD
    frames: list[list[Any]] = []  # [state, actions, next index, depth, held]
    state, depth, complete = game.new_initial_state(), 0, True
    while True:
        actions = yield state
        if actions:
            if depth < limit:
                held = depth + (frames[-1][4] if frames else 0)
                if held > max_held:
                    raise RmvizError(
                        f"{spec!r} is too deep to walk here: the states kept for its unexplored "
                        f"branches would hold more than {max_held:,} moves"
                    )
                depth += 1
                if len(actions) == 1:  # the state moves on: nothing kept
                    state.apply_action(actions[0])
                else:
                    frames.append([state, actions, 1, depth - 1, held])
                    state = state.child(actions[0])
                continue
            complete = False
        if not frames:
            return complete
        frame = frames[-1]
        state, actions, index, depth = frame[0], frame[1], frame[2], frame[3] + 1
        if index + 1 == len(actions):
            frames.pop()
            state.apply_action(actions[index])
        else:
            frame[2] = index + 1
            state = state.child(actions[index])


def check_size(
    game: Any,
    spec: str,
    max_nodes: int = MAX_NODES,
    progress: Progress | None = None,
    budget: int | None = None,
    seconds: float | None = None,
    slow: Callable[[], None] | None = None,
) -> int | None:
    """The number of histories of ``game``, refused with one line above ``max_nodes``: counted
    by depth-first walks to depths 2, 4, 8, ... until one reaches every history (the children
    of the deepest histories walked are counted, not made). Iterative deepening (Korf 1985):
    a game too large usually shows in its first levels, where states are cheap to clone.
    None when the walks made ``budget`` histories (all depths together) without knowing.
    ``slow()`` is called once, when the walks have used ``seconds`` of CPU time (:data:`_clock`)
    without knowing; it may refuse the game (:func:`refuse_if_estimated`), else the count goes on."""
    limit, left = 2, budget
    tick = None if slow is None or seconds is None else _once_after(seconds, slow)
    while True:
        found, complete, left = _count_to(game, limit, spec, max_nodes, progress, left, tick)
        if complete:
            return found
        if left is not None and left <= 0:
            return None
        limit *= 2


def _once_after(seconds: float, slow: Callable[[], None]) -> Callable[[], None]:
    """A function to call now and then: it calls ``slow()`` the first time it finds that
    ``seconds`` of CPU time have passed since it was made, and never again."""
    deadline: list[float] = [_clock() + seconds]

    def tick() -> None:
        if deadline and _clock() >= deadline[0]:
            deadline.clear()
            slow()

    return tick


TICK_EVERY = 64  # histories counted between two looks at the clock (a clock read: ~1 us)


def _count_to(
    game: Any,
    limit: int,
    spec: str,
    max_nodes: int,
    progress: Progress | None,
    budget: int | None,
    tick: Callable[[], None] | None = None,
) -> tuple[int, bool, int | None]:
    """Histories down to depth ``limit + 1``, whether that is all of them (no history at depth
    ``limit`` has moves), and the budget left; refused as soon as the count passes
    ``max_nodes``; stopped, incomplete, when ``budget`` histories were made."""
    pyspiel = _pyspiel()
    chance_player, terminal_player = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
    walk = _prefix_order(game, spec, limit)
    state = next(walk)
    made, found = 0, 1
    stop = -1 if budget is None else budget
    try:
        while True:
            if made == stop:
                return found, False, 0
            if progress is not None and made % PROGRESS_EVERY == 0 and made and not progress(found):
                raise Cancelled(f"{spec!r}: stopped after counting {found:,} histories")
            if tick is not None and made % TICK_EVERY == 0:
                tick()
            made += 1
            actions = _moves(state, chance_player, terminal_player)
            found += len(actions)
            if found > max_nodes:
                raise _too_large(spec, max_nodes)
            state = walk.send(actions)
    except StopIteration as end:
        return found, end.value, None if budget is None else budget - made


def estimated_histories(game: Any, cap: int, probes: int = 32, steps: int = 20_000) -> float:
    """Knuth's estimate of the number of histories (Knuth 1975, "Estimating the efficiency of
    backtrack programs"): the mean over ``probes`` random paths from the root of
    ``1 + b1 + b1 b2 + ...`` (``b``: the moves at each history on the path), each path
    stopped past ``cap``, all paths together after ``steps`` histories. Seeded: the same each
    time. Unbiased but noisy: it only chooses whether to count before building."""
    sizes = probe_histories(game, cap, probes, steps)
    return sum(sizes) / len(sizes)


def probe_histories(
    game: Any, cap: int, probes: int, steps: int, seconds: float | None = None, seed: int = 0
) -> list[int]:
    """The sizes ``1 + b1 + b1 b2 + ...`` of :func:`estimated_histories`' random paths, each
    at most ``cap + 1`` (a path stopped early counts less: the estimate errs low), at most
    ``probes`` of them, and fewer when ``steps`` histories or ``seconds`` of CPU time
    (:data:`_clock`; None: no limit) are spent; at least one (a path cut short by the time
    counts what it saw)."""
    pyspiel = _pyspiel()
    chance_player, terminal_player = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
    draw = random.Random(seed)
    until = math.inf if seconds is None else _clock() + seconds
    sizes: list[int] = []
    while len(sizes) < probes and steps > 0 and (not sizes or seconds is None or _clock() < until):
        state, size, width = game.new_initial_state(), 1, 1
        while size <= cap and steps > 0 and (seconds is None or _clock() < until):
            steps -= 1
            actions = _moves(state, chance_player, terminal_player)
            if not actions:
                break
            width *= len(actions)
            size += width
            state.apply_action(actions[draw.randrange(len(actions))])
        sizes.append(min(size, cap + 1))
    return sizes


def refuse_if_estimated(game: Any, spec: str, max_nodes: int) -> None:
    """Refuse ``game`` with one line when :data:`REFUSAL_PROBES` fresh probes (at most
    :data:`PROBE_SECONDS` of CPU time, at least 32 of them to judge) put it far above
    ``max_nodes``: their mean less :data:`SIGMAS` standard errors still above it. Return
    otherwise (the caller counts on)."""
    sizes = probe_histories(game, 100 * max_nodes, REFUSAL_PROBES, 10**9, PROBE_SECONDS, seed=1)
    if len(sizes) < 32:
        return
    mean = sum(sizes) / len(sizes)
    error = math.sqrt(sum((x - mean) ** 2 for x in sizes) / (len(sizes) - 1) / len(sizes))
    if mean - SIGMAS * error > max_nodes:
        capped = max(sizes) > 100 * max_nodes  # some paths stopped at the cap: the mean errs low
        about = f"at least {_rounded(mean, up=False)}" if capped else f"about {_rounded(mean, up=True)}"
        raise RmvizError(
            f"{spec!r} has {about} histories by an estimate from {len(sizes):,} random "
            f"probes, more than the {max_nodes:,} allowed: too large to build as a tree here"
        )


def _rounded(value: float, up: bool) -> str:
    """A count to three significant digits, rounded up or down, with thousands separators:
    1,640,000 (up: an estimate never shown at or below the limit it passed)."""
    step = 10 ** max(math.floor(math.log10(value)) - 2, 0) if value >= 1 else 1
    return f"{(math.ceil if up else math.floor)(value / step) * step:,}"


def _moves(state: Any, chance_player: int, terminal_player: int) -> list[int]:
    """The actions at a history: chance outcomes, the acting player's legal actions, or none."""
    player = state.current_player()
    if player == terminal_player:
        return []
    if player == chance_player:
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def _too_large(spec: str, max_nodes: int) -> RmvizError:
    return RmvizError(f"{spec!r} has more than {max_nodes:,} histories, too large to build as a tree here")


def infoset_label(information_state: str) -> str:
    """An information-state string on one line (:func:`_one_line`; goofspiel's are several
    lines); ``(start)`` for the empty string (tic-tac-toe's root)."""
    return _one_line(information_state) or "(start)"


def _one_line(text: str) -> str:
    """``text`` stripped, its lines stripped and joined by `` | `` when it has several."""
    if text.isprintable():  # one line: every line boundary is unprintable
        return text.strip()
    return " | ".join(filter(None, map(str.strip, text.splitlines())))


def _labels(state: Any, player: int, actions: list[int]) -> tuple[str, ...]:
    """OpenSpiel's action strings, with the action number added where two would be equal
    (put on one line by the callers: :func:`_one_line`)."""
    to_string = state.action_to_string
    labels = [to_string(player, a) for a in actions]
    if len(set(labels)) < len(labels):
        labels = [f"{label} ({a})" for label, a in zip(labels, actions, strict=True)]
    return tuple(labels)


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise RmvizError(f"openspiel: games need OpenSpiel; {INSTALL_HINT}") from None
    return pyspiel


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence the process's stderr (file descriptor 2: OpenSpiel's C++ writes there)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real stderr (a notebook kernel's may be a pipe: fine)
        yield
        return
    with open(os.devnull, "wb") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
