"""``rmviz bench``'s OpenSpiel walk rows (issue 34): rmviz's walk beside pyspiel's own calls.

The floor (:func:`pyspiel_calls`) walks the same game making the calls rmviz's walk makes
(:func:`rmviz.formats.openspiel.tree_of`: the acting player, the returns, the chance outcomes,
the information-state string and legal actions, the action strings at a chance history and at
the first history of an information set, a clone for every child but the last, which takes
the state itself) and keeps nothing. The two are run in turn :data:`ROUNDS` times, each
keeping its least time; rows give microseconds per history in this thread's CPU time
(``time.thread_time``) and in wall time, the walk's after the whole load (``tree_of``: the
size count of a large game, the walk, the arrays' structure and validation).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

ROUNDS = 3
GAMES = ("leduc_poker", "goofspiel(num_cards=4,imp_info=True)", "liars_dice(dice_sides=6)")


def pyspiel_calls(game: Any) -> int:
    """The number of histories of a pyspiel ``game``, walked depth first with the pyspiel
    calls of rmviz's walk and nothing else (the floor of its cost)."""
    import pyspiel

    chance_player, terminal_player = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
    seen: set[tuple[int, str]] = set()
    stack = [game.new_initial_state()]
    made = 0
    while stack:
        state = stack.pop()
        made += 1
        player = state.current_player()
        if player == terminal_player:
            state.returns()
            continue
        if player == chance_player:
            actions = [a for a, _ in state.chance_outcomes()]
            for a in actions:
                state.action_to_string(player, a)
        else:
            raw = state.information_state_string(player)
            actions = state.legal_actions(player)
            if (player, raw) not in seen:
                seen.add((player, raw))
                for a in actions:
                    state.action_to_string(player, a)
        last = actions[-1] if actions else None
        children = [state.child(a) for a in reversed(actions[:-1])]
        if last is not None:
            state.apply_action(last)
            stack.append(state)
        stack.extend(children)
    return made


def _least(run: Callable[[], Any], best: tuple[float, float]) -> tuple[float, float]:
    """``(cpu, wall)`` seconds of one ``run()``, each the least of it and ``best``'s."""
    start, start_cpu = time.perf_counter(), time.thread_time()
    run()
    cpu, wall = time.thread_time() - start_cpu, time.perf_counter() - start
    return min(best[0], cpu), min(best[1], wall)


def bench_walk(line: Callable[[str], None], games: tuple[str, ...] = GAMES) -> None:
    """Rows of microseconds per history: pyspiel's calls, rmviz's load, and their ratio."""
    from rmviz.errors import RmvizError
    from rmviz.formats.openspiel import load_pyspiel_game, tree_of

    try:
        load_pyspiel_game("kuhn_poker")
    except RmvizError:
        return
    line("")
    line(f"{'OpenSpiel walk, us per history':<44}{'histories':>14}{'pyspiel CPU':>12}{'rmviz CPU':>10}")
    line(f"{'':<44}{'':>14}{'(wall)':>12}{'(wall)':>10}{'ratio':>8}")
    for spec in games:
        game = load_pyspiel_game(spec)
        floor = walk = (float("inf"), float("inf"))
        for _ in range(ROUNDS):
            floor = _least(partial(pyspiel_calls, game), floor)
            walk = _least(partial(tree_of, game, spec), walk)
        histories = pyspiel_calls(game)
        us = [1e6 * t / histories for t in (*floor, *walk)]
        line(f"{spec:<44}{histories:14,}{us[0]:12.2f}{us[2]:10.2f}{us[2] / us[0]:7.2f}x")
        line(f"{'':<44}{'':>14}{f'({us[1]:.2f})':>12}{f'({us[3]:.2f})':>10}")
