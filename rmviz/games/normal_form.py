"""Normal-form (strategic-form) games.

A game with players ``i = 0..n-1``, each choosing one of ``|A_i|`` actions at the same time,
is a payoff tensor ``u`` of shape ``(n, |A_0|, ..., |A_{n-1}|)``: ``u[i, a_0, ..., a_{n-1}]``
is player ``i``'s payoff when the players play the action profile ``a``.

This module is NumPy only: no solver, no file format, no Qt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rmviz.errors import GameError
from rmviz.memory import available_memory

MIN_PLAYERS = 2
MAX_PLAYERS = 8
# A payoff tensor larger than this is refused before it is allocated (2 GiB of float64):
# past it, a laptop swaps and the app freezes instead of saying no.
MAX_PAYOFF_BYTES = 2 * 1024**3
MAX_PAYOFF = 1e150
ZERO_SUM_TOLERANCE = 1e-9  # of the largest |u|: the game's unit does not change the answer
"""The largest payoff magnitude a game may have. Regret matching sums and squares payoffs
(regrets, ``sum_a max(R, 0)^2``, weighted averages over ``T`` iterations); with
``|u| <= 1e150`` every such quantity stays far below the largest double (1.8e308)."""


def check_size(shape: Sequence[int], n_players: int | None = None) -> None:
    """Refuse a game whose payoff tensor would not fit in memory, before allocating it: more
    than :data:`MAX_PAYOFF_BYTES`, or more than half the memory available now (the solver
    keeps a scaled copy beside the game's).

    Counts in exact integers and stops as soon as the product passes the budget, so a header
    declaring 1,100 players or 10^9 strategies is refused without overflow or allocation.
    """
    n = len(shape) if n_players is None else n_players
    if n > MAX_PLAYERS:
        raise GameError(f"{n} players: rmviz handles {MIN_PLAYERS} to {MAX_PLAYERS} players")
    budget = MAX_PAYOFF_BYTES // 8
    entries = n
    for s in shape:
        entries *= int(s)
        if entries > budget:
            break
    dims = "x".join(str(int(s)) if len(str(int(s))) <= 12 else "(huge)" for s in shape)
    if entries > budget:
        raise GameError(
            f"a {dims} game with {n} players needs more than {MAX_PAYOFF_BYTES / 1024**3:.0f} GiB of "
            "payoffs, the most rmviz accepts (use fewer players or actions)"
        )
    free = available_memory()
    if free is not None and 8 * entries > free // 2:
        raise GameError(
            f"a {dims} game with {n} players needs {8 * entries / 1024**3:.1f} GiB of payoffs and "
            f"{free / 1024**3:.1f} GiB of memory is available: rmviz takes games of up to half of it "
            "(close other programs, or use fewer players or actions)"
        )


def check_payoff(value: object, where: str) -> None:
    """Refuse a payoff that is not a finite number of magnitude at most :data:`MAX_PAYOFF`."""
    try:
        number = float(value)  # type: ignore[arg-type]  # anything float() takes, else refused
    except (TypeError, ValueError, OverflowError):
        raise GameError(f"{where} is {str(value)[:40]!r}; {PAYOFF_RULE}") from None
    if not math.isfinite(number) or abs(number) > MAX_PAYOFF:
        raise GameError(f"{where} is {number:g}; {PAYOFF_RULE}")


PAYOFF_RULE = f"payoffs must be finite numbers between -{MAX_PAYOFF:g} and {MAX_PAYOFF:g}"


def sums_to_zero(payoffs: np.ndarray, axis: int) -> bool:
    """Whether the players' payoffs (along ``axis``) sum to zero at every outcome, within
    :data:`ZERO_SUM_TOLERANCE` of the largest ``|u|``: the one zero-sum rule of matrix games,
    trees and the solvers (no payoffs: True)."""
    if payoffs.size == 0:
        return True
    tolerance = ZERO_SUM_TOLERANCE * float(np.max(np.abs(payoffs)))
    return bool(np.all(np.abs(payoffs.sum(axis=axis)) <= tolerance))


@dataclass(frozen=True, eq=False)
class NormalFormGame:
    """A finite game in normal form.

    Attributes:
        payoffs: float64 array of shape ``(n_players, |A_0|, ..., |A_{n-1}|)``, read-only.
        player_names: one name per player.
        action_names: per player, one name per action.
        title: a short name shown in titles and files.
        description: free text (Gambit's comment field).
    """

    payoffs: np.ndarray
    player_names: tuple[str, ...] = ()
    action_names: tuple[tuple[str, ...], ...] = ()
    title: str = "Untitled game"
    description: str = ""
    _zero_sum: bool | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        payoffs = _validated_payoffs(self.payoffs)
        n = payoffs.shape[0]
        players = tuple(self.player_names) or tuple(f"Player {i + 1}" for i in range(n))
        actions = tuple(tuple(names) for names in self.action_names) or tuple(
            tuple(str(a + 1) for a in range(k)) for k in payoffs.shape[1:]
        )
        _check_names(players, actions, payoffs.shape[1:])
        object.__setattr__(self, "payoffs", payoffs)
        object.__setattr__(self, "player_names", tuple(str(p) for p in players))
        object.__setattr__(self, "action_names", tuple(tuple(str(a) for a in t) for t in actions))

    # -- shape ---------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return int(self.payoffs.shape[0])

    @property
    def num_actions(self) -> tuple[int, ...]:
        """``(|A_0|, ..., |A_{n-1}|)``."""
        return tuple(int(k) for k in self.payoffs.shape[1:])

    @property
    def shape_label(self) -> str:
        """``"3x3"``, ``"10x10x10"``..."""
        return "x".join(str(k) for k in self.num_actions)

    @property
    def payoff_range(self) -> float:
        """Delta: the largest minus the smallest payoff of any player (0 for a constant game)."""
        return float(self.payoffs.max() - self.payoffs.min())

    # -- structure -----------------------------------------------------------------------
    def constant_sum(self, atol: float = 1e-9) -> float | None:
        """The constant ``c`` with ``sum_i u_i(a) = c`` for every profile ``a``, else ``None``."""
        totals = self.payoffs.sum(axis=0)
        c = float(totals.flat[0])
        scale = float(np.abs(self.payoffs).max())  # relative to the payoffs: any unit works
        return c if np.allclose(totals, c, rtol=0.0, atol=atol * scale) else None

    def is_constant_sum(self) -> bool:
        return self.constant_sum() is not None

    def is_zero_sum(self) -> bool:
        """True when payoffs sum to zero at every profile (:func:`sums_to_zero`)."""
        if self._zero_sum is None:
            object.__setattr__(self, "_zero_sum", sums_to_zero(self.payoffs, axis=0))
        return bool(self._zero_sum)

    def kalai_kalai(self) -> tuple[np.ndarray, np.ndarray]:
        """The split of the game into a zero-sum part and a cooperative part.

        ``u_i = Z_i + C`` with ``C = (1/n) sum_j u_j`` (every player gets the same) and
        ``Z_i = u_i - C`` (sums to zero). The decomposition is unique
        (Kalai & Kalai, "Cooperation in Strategic Games Revisited", QJE 2013; used by
        Zhang, Lerer & Brown, AAAI 2022, appendix "Cooperative Settings Converge Faster").

        Returns:
            ``(Z, C)`` with ``Z`` of the payoffs' shape and ``C`` of shape ``(|A_0|, ...)``.
        """
        cooperative = self.payoffs.mean(axis=0)
        return self.payoffs - cooperative[None], cooperative

    def zero_sum_score(self) -> float:
        """``|Z| / |G|`` in the Frobenius norm: 1 for zero-sum, 0 for purely cooperative.

        Zhang, Lerer & Brown (AAAI 2022), appendix: how adversarial a game is. A game whose
        payoffs are all zero scores 0.
        """
        zero_sum, _ = self.kalai_kalai()
        total = float(np.linalg.norm(self.payoffs.ravel()))
        return float(np.linalg.norm(zero_sum.ravel())) / total if total > 0 else 0.0

    # -- edits (return new games; a game is immutable) -------------------------------------
    def with_payoffs(self, payoffs: np.ndarray) -> NormalFormGame:
        """The same game (names, title) with other payoffs of the same shape."""
        payoffs = np.asarray(payoffs, dtype=np.float64)
        if payoffs.shape != self.payoffs.shape:
            raise GameError(f"payoffs of shape {payoffs.shape} do not fit a {self.shape_label} game")
        return NormalFormGame(payoffs, self.player_names, self.action_names, self.title, self.description)

    def payoff_at(self, profile: Sequence[int]) -> np.ndarray:
        """Every player's payoff at the pure profile ``profile``: shape ``(n_players,)``."""
        index: tuple[Any, ...] = (slice(None), *profile)
        return self.payoffs[index].copy()

    def expected_payoffs(self, strategies: Sequence[np.ndarray]) -> np.ndarray:
        """``u_i(pi)`` for each player under the mixed profile ``strategies``."""
        values = self.payoffs
        for strategy in reversed(strategies):
            values = values @ np.asarray(strategy, dtype=np.float64)
        return np.asarray(values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NormalFormGame):
            return NotImplemented
        return (
            self.player_names == other.player_names
            and self.action_names == other.action_names
            and self.payoffs.shape == other.payoffs.shape
            and bool(np.array_equal(self.payoffs, other.payoffs))
        )

    __hash__ = None  # type: ignore[assignment]  # mutable-by-value semantics: not hashable

    def __repr__(self) -> str:
        return f"NormalFormGame({self.title!r}, {self.n_players} players, {self.shape_label})"

    def _repr_html_(self) -> str:
        """The payoff table, in a notebook (:mod:`rmviz.games.display`)."""
        from rmviz.games.display import matrix_html

        return matrix_html(self)


def _validated_payoffs(payoffs: object) -> np.ndarray:
    try:
        array = np.array(payoffs, dtype=np.float64)
    except OverflowError:
        raise GameError(f"a payoff is too large for a float; {PAYOFF_RULE}") from None
    except (TypeError, ValueError) as error:
        raise GameError(f"payoffs must be numbers: {error}") from None
    if array.ndim < 1 + MIN_PLAYERS:
        raise GameError(
            "payoffs must have shape (players, |A_1|, ..., |A_n|) with at least "
            f"{MIN_PLAYERS} players; got an array of shape {array.shape}"
        )
    n = array.shape[0]
    if n != array.ndim - 1:
        raise GameError(
            f"payoffs of shape {array.shape} list {n} players but {array.ndim - 1} action axes; "
            "the first axis must have one entry per player"
        )
    if n > MAX_PLAYERS:
        raise GameError(f"{n} players: rmviz handles {MIN_PLAYERS} to {MAX_PLAYERS} players")
    for i, k in enumerate(array.shape[1:]):
        if k < 1:
            raise GameError(f"player {i + 1} has no actions; every player needs at least one")
    # (no byte budget here: the array exists already; readers, generators and pastes call
    # check_size before they allocate one)
    with np.errstate(invalid="ignore"):
        bad = ~(np.abs(array) <= MAX_PAYOFF)  # NaN compares false: refused too
    if bad.any():
        where = tuple(int(x) for x in np.argwhere(bad)[0])
        profile = ", ".join(str(a + 1) for a in where[1:])
        check_payoff(float(array[where]), f"the payoff of player {where[0] + 1} at profile ({profile})")
    np.add(array, 0.0, out=array)  # -0.0 (a negated zero) becomes 0.0: no "-0" shown or written
    array.setflags(write=False)
    return array


def _check_names(
    players: tuple[str, ...], actions: tuple[tuple[str, ...], ...], shape: tuple[int, ...]
) -> None:
    if len(players) != len(shape):
        raise GameError(f"{len(players)} player names for a game of {len(shape)} players")
    if len(set(players)) != len(players):
        raise GameError(f"player names must differ: {list(players)}")
    if len(actions) != len(shape):
        raise GameError(f"action names given for {len(actions)} players, the game has {len(shape)}")
    for i, (names, k) in enumerate(zip(actions, shape, strict=True)):
        if len(names) != k:
            raise GameError(f"player {players[i]!r} has {k} actions but {len(names)} action names")
        if len(set(names)) != len(names):
            raise GameError(f"action names of player {players[i]!r} must differ: {list(names)}")
