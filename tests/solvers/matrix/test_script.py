"""Scripted draws (rmviz.solvers.matrix.script): the one parser of ``--actions`` and the
window's script, ``draw`` for a random draw, and a replay that follows the script."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games.catalog import catalog_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.explain import Replay, step_explained
from rmviz.solvers.matrix.script import advance, parse_script, script_text, step_scripted
from rmviz.solvers.matrix.solver import RegretMinimizer

RPS = catalog_game("rps")


def sampled(game=RPS, seed=3):
    return RegretMinimizer(game, preset("rm", play="sampled", device="cpu", seed=seed))


def test_names_numbers_and_draw_read_and_write_back():
    script = parse_script(RPS, "Rock,Paper; 3 ,draw;DRAW,Paper")
    assert script == [(0, 1), (2, None), (None, 1)]
    assert script_text(RPS, script) == "Rock,Paper;Scissors,draw;draw,Paper"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Rock", "iteration 1: 'Rock' names 1 actions, one per player needed"),
        ("Rock,Paper;Rock,Lizard", "iteration 2: Column has no action 'Lizard'"),
        ("Rock,4", "no action '4'"),
    ],
)
def test_mistakes_name_the_iteration(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_script(RPS, text)


def test_a_drawing_player_keeps_the_draw_it_would_have_had():
    """Scripting one player changes nothing of the other's draw: the generator is read as in
    an unscripted iteration, and only the scripted player's number is replaced."""
    free, scripted = sampled(), sampled()
    plain = step_explained(free)
    half = step_explained(scripted, (2, None))
    assert half.players[0].action == 2
    assert half.players[1].action == plain.players[1].action
    np.testing.assert_array_equal(free.state.rng.random(4), scripted.state.rng.random(4))


def test_a_replay_follows_the_script_to_the_runs_numbers():
    """Iteration 4 explained by a Replay that follows the script equals the run's own."""
    run, script, steps = sampled(), {}, []
    for t in range(1, 8):
        likeliest = [int(np.argmax(s)) for s in run.state.current]
        script[t] = {2: (likeliest[0], likeliest[1]), 3: (None, likeliest[1]), 6: (likeliest[0], None)}.get(t)
        steps.append(step_explained(run, script[t]))
    script = {t: profile for t, profile in script.items() if profile is not None}
    replay = Replay(RPS, run.config, script)
    for t in (4, 7, 2, 6):  # on, and back from the start
        explained = replay.explain(t)
        assert explained.players[0].action == steps[t - 1].players[0].action
        assert explained.players[1].action == steps[t - 1].players[1].action
        np.testing.assert_array_equal(
            explained.players[0].next_strategy, steps[t - 1].players[0].next_strategy
        )
    again = sampled()
    advance(again, 7, script)
    np.testing.assert_array_equal(again.state.current[0], run.state.current[0])


def test_scripts_need_sampled_simultaneous_play_and_a_possible_action():
    expected = RegretMinimizer(RPS, preset("rm", device="cpu"))
    step_scripted(expected, (None, None))  # choosing nothing is an ordinary step
    with pytest.raises(ConfigError, match="sampled play with simultaneous updates"):
        step_scripted(expected, (0, None))
    run = sampled()
    step_scripted(run, (0, 1))
    with pytest.raises(ConfigError, match="Row cannot play action 1"):
        step_scripted(run, (0, None))
    assert run.iteration == 1
