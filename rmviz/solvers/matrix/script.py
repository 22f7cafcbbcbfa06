"""Scripted draws of sampled play, one definition for ``rmviz step --actions`` and the
matrix window's *Step* tab (issue 29: the teaching notebook's "Rock, then Paper" rounds, the
CFR lecture's regret-matching table on Battle of the Partners).

A script holds one profile per iteration; a profile gives each player's action (0-based)
or ``None``: that player draws at random. As text (``--actions``) players are separated by
commas and iterations by semicolons, actions named or numbered from 1, ``draw`` for a random
draw: ``"Rock,Paper;Paper,draw"``. A scripted iteration takes the solver's uniform numbers as
an unscripted one does, then gives each scripted player the middle of its action's interval
of the cumulative distribution, so the solver's own sampling rule picks that action.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from rmviz.errors import ConfigError
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.solver import RegretMinimizer

DRAW = "draw"  # a player left to draw at random
Profile = tuple[int | None, ...]


def parse_profile(game: NormalFormGame, names: Sequence[str]) -> Profile:
    """One iteration's choices, an action name, a 1-based number or ``draw`` per player."""
    if len(names) != game.n_players:
        raise ConfigError(f"{', '.join(names)!r} names {len(names)} actions, one per player needed")
    profile: list[int | None] = []
    for i, name in enumerate(name.strip() for name in names):
        actions = game.action_names[i]
        if name in actions:
            profile.append(actions.index(name))
        elif name.lower() == DRAW:
            profile.append(None)
        elif name.isdigit() and 1 <= int(name) <= len(actions):
            profile.append(int(name) - 1)
        else:
            known = ", ".join(actions)
            raise ConfigError(
                f"{game.player_names[i]} has no action {name!r} (its actions: {known}, or {DRAW})"
            )
    return tuple(profile)


def parse_script(game: NormalFormGame, text: str) -> list[Profile]:
    """``"A,B;C,D"``: one profile per iteration (``--actions``)."""
    script = []
    for t, part in enumerate(text.split(";"), start=1):
        try:
            script.append(parse_profile(game, part.split(",")))
        except ConfigError as error:
            raise ConfigError(f"iteration {t}: {error}") from None
    return script


def profile_names(game: NormalFormGame, profile: Profile) -> list[str]:
    """The choices of ``profile`` as names, ``draw`` for a random draw."""
    return [DRAW if a is None else game.action_names[i][a] for i, a in enumerate(profile)]


def script_text(game: NormalFormGame, script: Sequence[Profile]) -> str:
    """``script`` as ``--actions`` text."""
    return ";".join(",".join(profile_names(game, profile)) for profile in script)


def scripted(profile: Profile | None) -> bool:
    """Whether ``profile`` chooses any player's action."""
    return profile is not None and any(a is not None for a in profile)


def scripted_draws(strategies: Sequence[np.ndarray], profile: Profile, names: Sequence[str]) -> np.ndarray:
    """Uniform draws that make the solver's sampling rule pick ``profile`` (NaN: the player
    draws); a :class:`ConfigError` when an action has probability 0 under the strategy."""
    draws = []
    for strategy, action, name in zip(strategies, profile, names, strict=True):
        if action is None:
            draws.append(np.nan)
            continue
        if strategy[action] <= 0:
            raise ConfigError(f"{name} cannot play action {action + 1}: its strategy gives it probability 0")
        cdf = np.cumsum(strategy)
        low = cdf[action - 1] if action > 0 else 0.0
        draws.append((low + cdf[action]) / 2 / cdf[-1])
    return np.array(draws)


class ScriptedRng:
    """Stands in for a solver's random generator ``rng`` for one iteration: its uniform
    numbers (the players on the last axis), with ``draws`` where they are not NaN."""

    def __init__(self, rng: Any, draws: np.ndarray) -> None:
        self.rng, self.draws = rng, np.asarray(draws, dtype=np.float64)

    def random(self, size: Any = None) -> np.ndarray:
        real = np.asarray(self.rng.random(size if size is not None else self.draws.shape))
        return np.where(np.isnan(self.draws), real, self.draws)


@contextmanager
def following(solver: RegretMinimizer, profile: Profile | None) -> Iterator[None]:
    """Within the block, the solver's next iteration draws ``profile`` (sampled play with
    simultaneous updates on the CPU; nothing changes for a profile that chooses nothing)."""
    if not scripted(profile):
        yield
        return
    assert profile is not None
    config = solver.config
    if config.play != "sampled" or config.updates != "simultaneous":
        raise ConfigError("scripted actions need sampled play with simultaneous updates")
    if solver.backend.xp is not np:
        raise ConfigError("scripted actions run on the CPU")
    current = [np.asarray(s, dtype=np.float64) for s in solver.state.current]
    saved = solver.state.rng
    solver.state.rng = ScriptedRng(saved, scripted_draws(current, profile, solver.game.player_names))
    try:
        yield
    finally:
        solver.state.rng = saved


def step_scripted(solver: RegretMinimizer, profile: Profile | None) -> None:
    """One iteration drawing ``profile``."""
    with following(solver, profile):
        solver.step(1)


def advance(solver: RegretMinimizer, iteration: int, script: Mapping[int, Profile]) -> None:
    """Step ``solver`` on to ``iteration``, iteration ``t`` drawing ``script[t]`` where the
    script has it (one step at a time there, in one go between)."""
    while solver.iteration < iteration:
        t = solver.iteration + 1
        if scripted(script.get(t)):
            step_scripted(solver, script[t])
            continue
        following_t = [s for s in script if t < s <= iteration and scripted(script[s])]
        solver.step(min(following_t, default=iteration + 1) - t)
