"""``Config.uses_seed`` says truthfully which runs depend on their seed: every preset of every
family, in each play mode, run twice with seeds 0 and 1. Sweeps count a seed as a sample only
where it can change the run (:mod:`rmviz.sweep`), so a config that draws from its seed without
saying so would make their confidence bands too narrow, silently."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.formats import load_game
from rmviz.solvers.registry import FAMILIES, make_solver

# a game on which no sampled run settles on a pure profile by 25 iterations (where the draws
# would no longer matter: greedy internal RM does on random:general-sum:3x3:seed=1)
GAMES = {"matrix": "random:zero-sum:4x4:seed=2", "tree": "kuhn"}
CASES = [
    (family.name, algorithm, options)
    for family in FAMILIES
    for algorithm in family.presets
    for options in ([{"play": "expected"}, {"play": "sampled"}] if "play" in family.choices else [{}])
]


def trace(game, algorithm, options, seed):
    solver = make_solver(game, algorithm, seed=seed, device="cpu", **options)
    solver.step(25)
    return solver, solver.snapshot(metrics=False).trace_values()


@pytest.mark.parametrize(("family", "algorithm", "options"), CASES, ids=lambda v: str(v))
def test_a_run_depends_on_its_seed_exactly_when_its_config_says_so(family, algorithm, options):
    game = load_game(GAMES[family])
    solver, first = trace(game, algorithm, options, 0)
    _, second = trace(game, algorithm, options, 1)
    same = np.array_equal(first, second, equal_nan=True)
    assert solver.config.uses_seed is not same
