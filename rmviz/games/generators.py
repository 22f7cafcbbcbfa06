"""Seeded random games, addressable as ``random:KIND:SHAPE[:seed=N]``.

Entries are uniform in [0, 1) as in Zhang, Lerer & Brown (AAAI 2022), section
"Experimental Results":

* ``zero-sum``: two players: the row player's entries are uniform in [0, 1) and the column
  player gets their negation. With n > 2 players each player draws a uniform tensor and the
  mean over players is subtracted (the zero-sum part of Kalai & Kalai's decomposition).
* ``general-sum``: every player's entries are drawn independently.
* ``cooperative``: one tensor drawn once, shared by all players.
"""

from __future__ import annotations

import re

import numpy as np

from rmviz.errors import GameError
from rmviz.games.normal_form import MAX_PLAYERS, MIN_PLAYERS, NormalFormGame, check_size

KINDS = ("zero-sum", "general-sum", "cooperative")
_SPEC = re.compile(r"^random:(?P<kind>[a-z-]+):(?P<shape>[0-9x]+)(?::seed=(?P<seed>-?[0-9]+))?$")
MAX_SEED = 2**63 - 1  # NumPy's generators take any non-negative integer; 64 bits is plenty
SPEC_HELP = "random:KIND:SHAPE[:seed=N], KIND one of zero-sum, general-sum, cooperative, SHAPE like 100x100"


def random_game(kind: str, shape: tuple[int, ...], seed: int = 0) -> NormalFormGame:
    """A random game of ``kind`` with ``shape[i]`` actions for player ``i``, from ``seed``."""
    check_random_game(kind, shape)
    n = len(shape)
    rng = np.random.default_rng(seed)
    if kind == "cooperative":
        common = rng.random(shape)
        payoffs = np.broadcast_to(common, (n, *shape))
    elif kind == "general-sum":
        payoffs = rng.random((n, *shape))
    elif n == 2:
        row = rng.random(shape)
        payoffs = np.stack([row, -row])
    else:
        draws = rng.random((n, *shape))
        payoffs = draws - draws.mean(axis=0, keepdims=True)
    dims = "x".join(map(str, shape))
    return NormalFormGame(
        payoffs,
        title=f"random {kind} {dims} (seed {seed})",
        description=f"random:{kind}:{dims}:seed={seed}",
    )


def check_random_game(kind: str, shape: tuple[int, ...]) -> None:
    """Refuse, with a :class:`GameError`, what :func:`random_game` cannot build (without drawing it)."""
    if kind not in KINDS:
        raise GameError(f"unknown random game kind {kind!r}; choose one of {', '.join(KINDS)}")
    n = len(shape)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise GameError(f"{n} players: random games have {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if min(shape) < 1:
        raise GameError(f"shape {shape}: every player needs at least one action")
    check_size(shape, n)


def parse_random_spec(spec: str) -> NormalFormGame:
    """The game named by ``random:KIND:SHAPE[:seed=N]`` (seed 0 when omitted)."""
    return random_game(*read_random_spec(spec))


def read_random_spec(spec: str) -> tuple[str, tuple[int, ...], int]:
    """``(kind, shape, seed)`` of ``random:KIND:SHAPE[:seed=N]``, checked as :func:`random_game`
    checks them but without drawing the game (a 7-player 10-action game is 560 MB)."""
    match = _SPEC.match(spec.strip())
    if match is None:
        raise GameError(f"cannot read random game {spec!r}; write {SPEC_HELP}")
    dims = match["shape"].split("x")
    if not all(0 < len(k) <= 9 for k in dims):  # 10^9 actions is past any memory budget already
        raise GameError(f"cannot read the shape in {spec!r}; write it like 10x10x10 (at most 9 digits each)")
    seed = match["seed"] or "0"
    if len(seed) > 20 or not 0 <= int(seed) <= MAX_SEED:
        raise GameError(f"seed {seed[:24]} in {spec!r}: seeds are whole numbers from 0 to {MAX_SEED}")
    kind, shape = match["kind"], tuple(int(k) for k in dims)
    check_random_game(kind, shape)
    return kind, shape, int(seed)
