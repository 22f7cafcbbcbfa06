"""The game-name fuzzer: ``random:`` specs and catalog, ``reduced:`` and file names, mutated
(truncated, characters flipped, hostile words: 5,000 digits, ``1e400``, other digit systems,
NUL, braces). ``load_game`` either returns a game that solves to finite numbers or refuses
with one :class:`~rmviz.errors.RmvizError` line, within seconds: no other exception, no
memory blow-up (a shape of 10^9 actions is refused before anything is drawn). OpenSpiel
specs are fuzzed in ``tests/formats/test_openspiel*.py``, where their walk is bounded.
The default run tries ``RMVIZ_FUZZ_EXAMPLES`` names (80)."""

from __future__ import annotations

import math
import os
import time

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rmviz.errors import RmvizError
from rmviz.formats import load_game
from rmviz.games.generators import read_random_spec
from rmviz.solvers.registry import make_solver
from tests.formats.strategies import mutations

EXAMPLES = int(os.environ.get("RMVIZ_FUZZ_EXAMPLES", "80"))
SECONDS_PER_NAME = 30.0  # a hang guard on a loaded machine
NAMES = [
    "random:zero-sum:3x3",
    "random:general-sum:2x3x2:seed=17",
    "random:cooperative:4x4:seed=9",
    "random:zero-sum:10x10:seed=123456789",
    "rps",
    "kuhn",
    "battle-of-partners",
    "reduced:kuhn",
    "reduced:leduc",
]

CORPUS = [  # hand-made hostile names, drawn among the mutants
    "rps\x00",
    "random:zero-sum:999999999x999999999",
    "random:general-sum:" + "x".join(["2"] * 30),
    "random:zero-sum:3x3:seed=" + "1" * 20,
    "random:zero-sum:\u0663x3",
    "/dev/zero",
    "/",
    "reduced:",
    "reduced:reduced:kuhn",
    "reduced:random:zero-sum:3x3",
    "kuhn" * 1000,
    "r\nandom:zero-s\n" * 20,  # a name of many lines: its refusal was as many lines
]


LARGEST_SOLVED = 10**5  # payoff entries; a mutant may name a legitimately large game (3x33333333)


def not_too_large(name: str) -> bool:
    """Whether ``name`` is not a ``random:`` spec of more than :data:`LARGEST_SOLVED`
    payoffs (a mutant may name a legitimately large game); an unreadable spec is refused
    quickly, so it counts as small."""
    try:
        return math.prod(read_random_spec(name)[1]) <= LARGEST_SOLVED
    except RmvizError:
        return True


def game_size(game) -> int:
    """Payoff entries of a matrix game, histories of a tree."""
    payoffs = getattr(game, "payoffs", None)
    return payoffs.size if payoffs is not None else game.n_nodes


@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_game_name_loads_or_is_refused_in_one_line(data):
    name = data.draw(st.one_of(st.sampled_from(CORPUS), mutations(data.draw(st.sampled_from(NAMES)))))
    assume(not_too_large(name))  # drawing 10^8 payoffs is not hostile, only long
    started = time.perf_counter()
    try:
        game = load_game(name)
    except RmvizError as error:
        assert "\n" not in str(error).strip(), str(error)
        game = None
    assert time.perf_counter() - started < SECONDS_PER_NAME, name[:200]
    if game is not None and game_size(game) <= LARGEST_SOLVED:
        solver = make_solver(game)
        solver.step(2)
        assert not np.isinf(solver.snapshot().trace_values()).any()  # NaN: a gap not tracked
