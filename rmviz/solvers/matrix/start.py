"""Starting and fixed strategies: checked against the game, read from and written as text.

A run's strategy at iteration 1 is ``pi_i^1`` (uniform unless chosen; the teaching notebook
starts its exercises from chosen strategies, and a game whose uniform profile is its
equilibrium must start elsewhere to move at all). People type strategies as decimals or
fractions, ``0.5, 1/4, 1/4``; the window's *Start* row holds one per player separated by
``;`` (a blank part: that player's default), the CLI's ``--start`` one ``PLAYER=...`` each.
"""

from __future__ import annotations

import fractions
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rmviz.errors import ConfigError
from rmviz.games.catalog import default_start, started_entry
from rmviz.games.normal_form import NormalFormGame

TOLERANCE = 1e-9  # how far from 1 a typed strategy may sum (0.33, 0.33, 0.34 is exact)


def parse_probability(text: str) -> float:
    """A decimal (``0.4``; ``nan`` too, the checks refuse it) or a fraction (``1/3``);
    ValueError or ZeroDivisionError otherwise."""
    text = text.strip()
    return float(fractions.Fraction(text)) if "/" in text else float(text)


def validated_strategies(game: NormalFormGame, strategies: Any, what: str) -> dict[int, np.ndarray]:
    """``{player: strategy}`` checked against ``game``: players in range, one non-negative
    probability per action, summing to 1. ``what`` names them in errors ("fixed", "starting")."""
    checked: dict[int, np.ndarray] = {}
    for player, strategy in dict(strategies).items():
        if not 0 <= int(player) < game.n_players:
            raise ConfigError(
                f"no {what} strategy for player {int(player) + 1}: the game has {game.n_players} players"
            )
        values = np.asarray(strategy, dtype=np.float64)
        k = game.num_actions[player]
        name = game.player_names[player]
        if values.shape != (k,):
            raise ConfigError(f"the {what} strategy of {name!r} needs {k} probabilities, got {values.size}")
        if not np.all(np.isfinite(values)) or np.any(values < 0):
            raise ConfigError(f"the {what} strategy of {name!r} must be non-negative numbers")
        if abs(values.sum() - 1.0) > TOLERANCE:
            raise ConfigError(
                f"the {what} strategy of {name!r} sums to {values.sum():.6g}; probabilities must sum to 1"
            )
        checked[int(player)] = values
    return checked


def validated_fixed(game: NormalFormGame, fixed: Any) -> dict[int, np.ndarray]:
    """The fixed strategies (players who do not learn); at least one player must learn."""
    strategies = validated_strategies(game, fixed, "fixed")
    if len(strategies) == game.n_players:
        raise ConfigError("every player's strategy is fixed: leave at least one player learning")
    return strategies


def validated_start(
    game: NormalFormGame, start: Any, fixed: Mapping[int, np.ndarray]
) -> dict[int, np.ndarray]:
    """Each player's strategy at iteration 1: ``start`` (None: the catalog's default start of
    a catalog game as built, :func:`~rmviz.games.catalog.default_start`; else uniform),
    fixed players their fixed strategy, the others uniform."""
    if start is None:
        default = default_start(game)
        start = {} if default is None else {i: s for i, s in enumerate(default) if i not in fixed}
    strategies = validated_strategies(game, start, "starting")
    clash = sorted(set(strategies) & set(fixed))
    if clash:
        raise ConfigError(
            f"{game.player_names[clash[0]]!r} is fixed: it starts with its fixed strategy, give no start"
        )
    shape = game.num_actions
    return {i: fixed.get(i, strategies.get(i, np.full(k, 1.0 / k))) for i, k in enumerate(shape)}


def default_start_note(game: NormalFormGame, fixed: Sequence[int] = ()) -> str | None:
    """Where the default start comes from, said where it is shown (the *Start* row's
    placeholder, ``rmviz step``'s pi^1): ``"the catalog's start for rps: 1/2, 1/4, 1/4;
    1/4, 1/2, 1/4"`` for a catalog game with a documented start as built (its file too,
    :func:`~rmviz.games.catalog.started_entry`), the ``fixed`` players' parts blank; None
    for a game that starts uniform."""
    entry = started_entry(game)
    if entry is None or entry.start is None:
        return None
    parts = {i: s for i, s in enumerate(entry.start) if i not in fixed}
    if not parts:
        return None
    return f"the catalog's start for {entry.id}: {start_text(parts, game.n_players, exact=True)}"


def parse_start(text: str, game: NormalFormGame) -> dict[int, list[float]] | None:
    """The window's *Start* text, ``P1; P2; ...`` with each ``Pi`` a strategy such as
    ``0.5, 1/4, 1/4`` or blank (that player's default), as ``{player: probabilities}``
    checked against ``game``; None when every part is blank (the game's default start)."""
    parts = text.split(";")
    if len(parts) > game.n_players:
        raise ConfigError(
            f"start: {len(parts)} strategies for {game.n_players} players (one per player, ';' between)"
        )
    start: dict[int, list[float]] = {}
    for player, part in enumerate(parts):
        if not part.strip():
            continue
        try:
            start[player] = [parse_probability(p) for p in part.split(",")]
        except (ValueError, ZeroDivisionError):
            raise ConfigError(
                f"start of {game.player_names[player]!r}: {part.strip()!r} is not a list of "
                "probabilities such as 0.5, 1/4, 1/4"
            ) from None
    validated_strategies(game, start, "starting")
    return start or None


def start_text(start: Mapping[int, Sequence[float]], n_players: int, exact: bool = False) -> str:
    """The *Start* text of ``start`` (players not named: blank), as :func:`parse_start` reads it;
    with ``exact``, probabilities that are fractions with small denominators as fractions
    (``1/4``)."""
    shown = _fraction_text if exact else (lambda p: f"{p:.6g}")
    parts = [", ".join(shown(p) for p in start[i]) if i in start else "" for i in range(n_players)]
    while parts and not parts[-1]:
        parts.pop()
    return "; ".join(parts)


def _fraction_text(p: float) -> str:
    """``p`` as a fraction when one with a denominator up to 1000 equals it exactly, else
    as a decimal."""
    fraction = fractions.Fraction(float(p)).limit_denominator(1000)
    return str(fraction) if float(fraction) == float(p) else f"{float(p):.6g}"


def rounded(strategy: Sequence[float], denominator: int = 100) -> list[float]:
    """``strategy`` in multiples of ``1/denominator`` that still sum to exactly 1 (largest
    remainders round up): a point dragged on the simplex reads 0.25, 0.45, 0.3, not
    0.2487..., and is still a strategy."""
    p = np.clip(np.asarray(strategy, dtype=np.float64), 0.0, None)
    p = p / p.sum() * denominator if p.sum() > 0 else np.full(p.size, denominator / p.size)
    units = np.floor(p).astype(int)
    order = np.argsort(-(p - units), kind="stable")
    units[order[: denominator - units.sum()]] += 1
    return [int(u) / denominator for u in units]
