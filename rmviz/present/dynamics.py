"""The continuous-time dynamics behind the discrete algorithms: the vector field drawn under
the simplex view's paths (window and figures), its flow and the algorithm's own steps beside
it (pure NumPy; docs/algorithms.md, *The dynamics under the simplex*).

Each dynamic moves one player's mixed strategy ``x`` by its payoff vector ``u`` (``u_a``:
action ``a`` against the others), in units of the player's payoff range, the unit of the
solvers' step size ``eta``:

* replicator dynamics (:func:`replicator`): Hedge's **current** strategy;
* projection dynamics (:func:`projection`): Euclidean FTRL's **current** strategy;
* best-response dynamics (:func:`best_response`): fictitious play's **average**;
* Brown-von Neumann-Nash dynamics (:func:`bnn`): regret matching's **average** (why this
  one: its docstring).

Optimistic Hedge has the replicator as its flow too (the prediction vanishes with the step);
its steps differ (:func:`discrete`), which is the point of showing them. Internal regret
matching has no field here. A :class:`Setting` says whose payoffs move whom: the 2x2
square's two players, a symmetric game's single population (``x`` against ``x``), or one
player against the others' strategies held fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from rmviz.errors import ConfigError
from rmviz.present.simplex import CORNERS, Arrows, arrows, to_triangle

if TYPE_CHECKING:
    from rmviz.solvers.matrix.config import MatrixConfig

TIE = 1e-9  # payoffs within TIE (in payoff-range units) of the best are tied best responses
FLOW_STEP = 0.05  # the longest Runge-Kutta step of the flow, in payoff-range time units
STEPS_SHOWN = 40  # the discrete algorithm's steps drawn from the current point
MAX_FLOW_STEPS = 4000


@dataclass(frozen=True)
class Dynamic:
    """One continuous-time dynamic: ``name`` (its key in :data:`DYNAMICS`), ``title``, the
    ``strategy`` of the algorithm it describes (``"current"`` or ``"average"``) and its
    ``source``."""

    name: str
    title: str
    strategy: str
    source: str
    algorithms: str

    def describe(self) -> str:
        """One sentence for a tooltip or a caption."""
        return f"{self.title} ({self.source}): the {self.strategy} strategy of {self.algorithms}"


DYNAMICS = {
    dynamic.name: dynamic
    for dynamic in (
        Dynamic(
            "replicator",
            "replicator dynamics",
            "current",
            "Taylor & Jonker 1978",
            "Hedge (FTRL, entropic)",
        ),
        Dynamic(
            "projection",
            "projection dynamics",
            "current",
            "Nagurney & Zhang 1997; Lahkar & Sandholm 2008",
            "FTRL (Euclidean)",
        ),
        Dynamic(
            "best-response",
            "best-response dynamics",
            "average",
            "Gilboa & Matsui 1991; Hofbauer 1995",
            "fictitious play",
        ),
        Dynamic(
            "bnn",
            "Brown-von Neumann-Nash dynamics",
            "average",
            "Brown & von Neumann 1950; Hofbauer 2000",
            "regret matching",
        ),
    )
}


def dynamic_of(config: MatrixConfig) -> Dynamic | None:
    """The dynamic of a matrix run's config (its ``rule``; FTRL's ``regulariser``); None for
    internal regret matching, which has none here."""
    if config.rule == "ftrl":
        return DYNAMICS["replicator" if config.regulariser == "entropic" else "projection"]
    if config.rule == "best-response":
        return DYNAMICS["best-response"]
    return None if config.regret == "internal" else DYNAMICS["bnn"]


# -- the fields: strategy x (..., n), payoff vector u (..., n) -> velocity (..., n), summing to 0 --
def replicator(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``x_a (u_a - x . u)`` (Taylor & Jonker 1978): continuous-time Hedge, FTRL with the
    entropic regulariser (``y' = u``, ``x = softmax(y)``; Mertikopoulos, Papadimitriou &
    Piliouras 2018), so the **current** strategy; its orbits on rps are closed."""
    return x * (u - (x * u).sum(axis=-1, keepdims=True))


def projection(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``u`` projected on the tangent cone of the simplex at ``x`` (Nagurney & Zhang 1997;
    Lahkar & Sandholm 2008): ``u_a - mean_S(u)`` on a set ``S`` of actions, 0 off it, where
    ``S`` holds the support and the unused actions whose payoff beats the mean over ``S``
    (Michelot's iteration from ``S`` = all: the mean only rises, so ``n`` rounds settle it).

    FTRL with the Euclidean regulariser (``y' = u``, ``x`` the point of the simplex nearest
    ``y``) moves its **current** strategy so wherever the support does not change; on the
    boundary it keeps an action out until its cumulative payoff catches up (Mertikopoulos &
    Sandholm 2016), which :func:`flow` follows by integrating ``y``."""
    unused = x <= 1e-12
    active = np.ones(x.shape, dtype=bool)
    mean = u.mean(axis=-1, keepdims=True)
    for _ in range(x.shape[-1]):
        active = ~unused | (u > mean)
        mean = np.where(active, u, 0.0).sum(axis=-1, keepdims=True) / active.sum(axis=-1, keepdims=True)
    return np.where(active, u - mean, 0.0)


def best_response_target(u: np.ndarray) -> np.ndarray:
    """Uniform over the actions whose payoff is within :data:`TIE` of the best."""
    best = u >= u.max(axis=-1, keepdims=True) - TIE
    return best / best.sum(axis=-1, keepdims=True)


def best_response(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``BR(u) - x`` (Gilboa & Matsui 1991). Fictitious play's **average** moves by
    ``(BR - x) / (t + 1)``: in the time ``log t`` it follows this dynamic (Hofbauer 1995;
    Hofbauer & Sorin 2006)."""
    return best_response_target(u) - x


def regrets(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``r_a = u_a - x . u``: the regret of not having played ``a``."""
    return u - (x * u).sum(axis=-1, keepdims=True)


def bnn(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``[r_a]_+ - x_a sum_b [r_b]_+`` with the regrets ``r = u - x . u`` (Brown & von Neumann
    1950; Nash 1951; Hofbauer 2000; an excess payoff dynamic, Sandholm 2005), for regret
    matching. RM plays ``[D]_+ / sum [D]_+`` of the average regrets ``D`` and its **average**
    moves by ``(RM(D) - x) / (t + 1)``. Against opponents whose strategy is fixed the average
    realised payoff is ``x . u`` (linear in one's own play), so ``D = r(x)`` and the average
    moves along ``RM(r) - x``: BNN divided by ``sum_b [r_b]_+``, the same orbits in another
    time. Hart & Mas-Colell's (2001, 2003) regret-based dynamics are the exact continuous
    form but live on the regret vector, not on the simplex; BNN is their image under
    ``D = r(x)``, exact against fixed opponents, an approximation where both sides learn. Like
    RM's average it converges to equilibrium in zero-sum games (Hofbauer & Sandholm 2009)."""
    excess = np.maximum(regrets(x, u), 0.0)
    return excess - x * excess.sum(axis=-1, keepdims=True)


def regret_matching_target(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Regret matching's play on the regrets ``r(x)``: ``[r]_+ / sum [r]_+``, ``x`` itself
    where no regret is positive (an equilibrium of the field: nothing moves)."""
    excess = np.maximum(regrets(x, u), 0.0)
    total = excess.sum(axis=-1, keepdims=True)
    return np.where(total > 0, excess / np.where(total > 0, total, 1.0), x)


FIELDS = {"replicator": replicator, "projection": projection, "best-response": best_response, "bnn": bnn}


def velocity(dynamic: Dynamic | str, x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The field of ``dynamic`` at strategies ``x`` with payoff vectors ``u``."""
    name = dynamic if isinstance(dynamic, str) else dynamic.name
    return np.asarray(FIELDS[name](np.asarray(x, float), np.asarray(u, float)))


# -- who plays whom --------------------------------------------------------------------------
@dataclass(frozen=True)
class Setting:
    """The populations a field moves and their payoffs, each player's in units of its payoff
    range. ``kind``: ``"square"`` (a 2x2 game's two players), ``"symmetric"`` (one
    population, ``x`` against ``x``) or ``"fixed"`` (one player against a payoff vector
    ``u`` that the others' strategies, held fixed, give it)."""

    kind: str
    matrices: tuple[np.ndarray, ...]

    def utilities(self, profile: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Each population's payoff vectors at ``profile`` (strategies with any leading axes)."""
        if self.kind == "square":
            a, b = self.matrices
            x, y = profile
            return [np.einsum("ij,...j->...i", a, y), np.einsum("ij,...i->...j", b, x)]
        if self.kind == "symmetric":
            (x,) = profile
            return [np.einsum("ij,...j->...i", self.matrices[0], x)]
        (x,) = profile
        return [np.broadcast_to(self.matrices[0], np.shape(x))]


def _range(payoffs: np.ndarray) -> float:
    spread = float(np.ptp(payoffs))
    return spread if spread > 0 else 1.0


def is_symmetric(payoffs: np.ndarray) -> bool:
    """A two-player game with ``B = A^T`` (one population can play it against itself)."""
    if payoffs.shape[0] != 2 or payoffs.shape[1] != payoffs.shape[2]:
        return False
    scale = max(1.0, float(np.abs(payoffs).max()))
    return bool(np.allclose(payoffs[1], payoffs[0].T, rtol=0, atol=1e-12 * scale))


def square_setting(payoffs: np.ndarray) -> Setting:
    """The 2x2 game of ``payoffs`` (shape ``(2, 2, 2)``): both players move."""
    return Setting("square", (payoffs[0] / _range(payoffs[0]), payoffs[1] / _range(payoffs[1])))


def player_setting(payoffs: np.ndarray, player: int, others: Sequence[np.ndarray] | None = None) -> Setting:
    """The field of ``player``'s simplex: a symmetric game's single population (``x`` against
    ``x``; ``others`` unused), else the player against ``others`` (every player's strategy,
    the player's own ignored), which a game that is not symmetric needs."""
    if is_symmetric(payoffs):
        return Setting("symmetric", (payoffs[0] / _range(payoffs[0]),))
    if others is None:
        raise ValueError("a game that is not symmetric needs the other players' strategies")
    mine = payoffs[player]
    vector = mine
    for j in reversed(range(mine.ndim)):  # the last axes first: the earlier ones keep their index
        if j != player:
            vector = np.tensordot(vector, np.asarray(others[j], float), axes=([j], [0]))
    return Setting("fixed", (vector / _range(mine),))


# -- the field on a grid ----------------------------------------------------------------------
def simplex_grid(divisions: int) -> np.ndarray:
    """Interior points of the three-action simplex on a triangular grid: ``(i, j, k) /
    divisions`` with every coordinate at least 1 (shape ``(m, 3)``), so no point sits on an edge
    where only some dynamics move."""
    n = divisions
    return np.array([(i, j, n - i - j) for i in range(1, n) for j in range(1, n - i)], float) / n


def square_grid(divisions: int) -> np.ndarray:
    """Cell centres of the unit square, ``(m, 2)``: ``(p, q)``."""
    centres = (np.arange(divisions) + 0.5) / divisions
    p, q = np.meshgrid(centres, centres)
    return np.column_stack([p.ravel(), q.ravel()])


def simplex_field(setting: Setting, dynamic: Dynamic | str, points: np.ndarray) -> np.ndarray:
    """The field at simplex ``points`` ``(m, 3)`` of one population (``symmetric`` or ``fixed``):
    barycentric velocities ``(m, 3)``."""
    return velocity(dynamic, points, setting.utilities([points])[0])


def square_field(setting: Setting, dynamic: Dynamic | str, points: np.ndarray) -> np.ndarray:
    """The field at ``(p, q)`` ``points`` ``(m, 2)`` of a 2x2 game: ``(p', q')``, ``p`` the row
    player's probability of its first action, ``q`` the column player's."""
    x = np.column_stack([points[:, 0], 1 - points[:, 0]])
    y = np.column_stack([points[:, 1], 1 - points[:, 1]])
    ux, uy = setting.utilities([x, y])
    return np.column_stack([velocity(dynamic, x, ux)[:, 0], velocity(dynamic, y, uy)[:, 0]])


# -- the flow and the discrete steps from one point --------------------------------------------
def _softmax(y: np.ndarray) -> np.ndarray:
    weights = np.exp(y - y.max())
    return np.asarray(weights / weights.sum())


def _simplex_projection(v: np.ndarray) -> np.ndarray:
    """The point of the simplex nearest to ``v`` (sorting; Duchi et al. 2008)."""
    s = np.sort(v)[::-1]
    cumulative = np.cumsum(s) - 1.0
    k = np.flatnonzero(s - cumulative / np.arange(1, len(v) + 1) > 0)[-1]
    return np.asarray(np.maximum(v - cumulative[k] / (k + 1), 0.0))


def _dual_start(dynamic: str, x: np.ndarray) -> np.ndarray:
    """A dual point ``y`` whose strategy is ``x`` (entropic: ``log x``; Euclidean: ``x``)."""
    return np.log(np.maximum(x, 1e-300)) if dynamic == "replicator" else x.copy()


def _primal(dynamic: str, y: np.ndarray) -> np.ndarray:
    return _softmax(y) if dynamic == "replicator" else _simplex_projection(y)


def flow(
    setting: Setting, dynamic: Dynamic | str, start: Sequence[np.ndarray], time: float
) -> list[np.ndarray]:
    """The flow's trajectory from ``start`` (one strategy per population) for ``time``:
    per population, the strategies ``(m, n)`` at ``m`` equally spaced times. FTRL's
    dynamics integrate their dual ``y' = u`` (exact continuous-time FTRL); fictitious play's
    and regret matching's average move along ``target - x`` (``BR(u)``, ``RM(r(x))``: the
    discrete algorithm's own time, in which :func:`discrete` is its Euler scheme). Classical
    Runge-Kutta with steps of at most :data:`FLOW_STEP`."""
    name = dynamic if isinstance(dynamic, str) else dynamic.name
    steps = int(min(MAX_FLOW_STEPS, max(1, np.ceil(time / FLOW_STEP))))
    h = time / steps
    dual = name in ("replicator", "projection")
    state = [_dual_start(name, np.asarray(x, float)) if dual else np.asarray(x, float) for x in start]

    def strategies(state: list[np.ndarray]) -> list[np.ndarray]:
        return [_primal(name, y) for y in state] if dual else state

    def rate(state: list[np.ndarray]) -> list[np.ndarray]:
        profile = strategies(state)
        utilities = setting.utilities(profile)
        if dual:
            return list(utilities)
        target = best_response_target if name == "best-response" else None
        return [
            (target(u) if target else regret_matching_target(x, u)) - x
            for x, u in zip(profile, utilities, strict=True)
        ]

    def moved(state: list[np.ndarray], by: list[np.ndarray], scale: float) -> list[np.ndarray]:
        return [s + scale * d for s, d in zip(state, by, strict=True)]

    path = [strategies(state)]
    for _ in range(steps):
        k1 = rate(state)
        k2 = rate(moved(state, k1, h / 2))
        k3 = rate(moved(state, k2, h / 2))
        k4 = rate(moved(state, k3, h))
        state = [
            s + h / 6 * (a + 2 * b + 2 * c + d) for s, a, b, c, d in zip(state, k1, k2, k3, k4, strict=True)
        ]
        if not dual:  # the target dynamics stay in the simplex; rounding is put back
            state = [np.maximum(s, 0.0) / np.maximum(s, 0.0).sum() for s in state]
        path.append(strategies(state))
    return [np.array([profile[i] for profile in path]) for i in range(len(start))]


def discrete(
    setting: Setting,
    dynamic: Dynamic | str,
    start: Sequence[np.ndarray],
    step: float,
    count: int = STEPS_SHOWN,
    predictive: bool = False,
) -> list[np.ndarray]:
    """The discrete algorithm's ``count`` steps of size ``step`` from ``start``: per population,
    ``(count + 1, n)`` strategies. FTRL with a constant step (Hedge: ``x <- x exp(eta u) /
    Z``; Euclidean: ``y <- y + eta u``, ``x = Pi(y)``; ``predictive``: optimistic, ``x =
    Q(y + eta u_last)``), fictitious play's average ``x <- x + eta (BR - x)`` (``eta`` standing
    for ``1 / (t + 1)``) and regret matching's ``x <- x + eta (RM(r(x)) - x)``."""
    name = dynamic if isinstance(dynamic, str) else dynamic.name
    profile = [np.asarray(x, float) for x in start]
    path = [profile]
    if name in ("replicator", "projection"):
        duals = [_dual_start(name, x) for x in profile]
        for _ in range(count):
            utilities = setting.utilities(profile)
            duals = [y + step * u for y, u in zip(duals, utilities, strict=True)]
            ahead = [y + step * u for y, u in zip(duals, utilities, strict=True)] if predictive else duals
            profile = [_primal(name, y) for y in ahead]
            path.append(profile)
    else:
        for _ in range(count):
            utilities = setting.utilities(profile)
            profile = [
                x
                + step
                * ((best_response_target(u) if name == "best-response" else regret_matching_target(x, u)) - x)
                for x, u in zip(profile, utilities, strict=True)
            ]
            path.append(profile)
    return [np.array([p[i] for p in path]) for i in range(len(start))]


# -- what a panel draws: arrows, and from the newest point the flow beside the steps ----------------
HORIZON = 20.0  # time of the flow and the steps drawn: about one orbit of Hedge on rps
MAX_STEPS = 2000
STEP_CHOICES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)  # the view's step-size slider
# The largest step drawn (--field-step, field_step=): two steps cover the horizon. A larger
# one made the flow run for the step's own time (1e9: a straight line into a vertex).
MAX_DRAWN_STEP = HORIZON / 2


def check_drawn_step(step: float) -> float:
    """``step`` if it can be drawn beside the flow (positive, at most :data:`MAX_DRAWN_STEP`),
    else a one-line :class:`~rmviz.errors.ConfigError`."""
    if not 0 < step <= MAX_DRAWN_STEP:
        raise ConfigError(
            f"the field's step must be a positive number up to {MAX_DRAWN_STEP:g}, not {step:g}"
        )
    return step


SIMPLEX_DIVISIONS, SQUARE_DIVISIONS = 12, 11  # the grids of arrows


@dataclass(frozen=True)
class PanelField:
    """What one simplex or square panel draws of a dynamic, in plane coordinates: the field's
    ``arrows``; from the newest point, the flow's trajectory for :data:`HORIZON` (``flow``,
    ``(m, 2)``) and the discrete algorithm's steps over the same time (``steps``); None when
    no step size is chosen or no point is known."""

    arrows: Arrows
    flow: np.ndarray | None = None
    steps: np.ndarray | None = None


def step_count(step: float) -> int:
    """The discrete steps of size ``step`` that cover :data:`HORIZON` (at most :data:`MAX_STEPS`)."""
    return int(min(MAX_STEPS, max(1, np.ceil(HORIZON / step - 1e-9))))


def _paths(
    setting: Setting, dynamic: Dynamic, start: Sequence[np.ndarray], step: float, predictive: bool
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    count = step_count(step)
    flows = flow(setting, dynamic, start, count * step)
    return flows, discrete(setting, dynamic, start, step, count, predictive)


def square_panel(
    payoffs: np.ndarray,
    dynamic: Dynamic,
    at: tuple[float, float] | None = None,
    step: float | None = None,
    predictive: bool = False,
) -> PanelField:
    """A 2x2 game's field over ``(p, q)``; with ``step``, the flow and the steps from ``at``."""
    setting = square_setting(payoffs)
    points = square_grid(SQUARE_DIVISIONS)
    shown = arrows(points, square_field(setting, dynamic, points), 1.0 / SQUARE_DIVISIONS)
    if step is None or at is None:
        return PanelField(shown)
    start = [np.array([at[0], 1 - at[0]]), np.array([at[1], 1 - at[1]])]
    flows, steps = _paths(setting, dynamic, start, step, predictive)
    return PanelField(
        shown,
        np.column_stack([flows[0][:, 0], flows[1][:, 0]]),
        np.column_stack([steps[0][:, 0], steps[1][:, 0]]),
    )


def simplex_panel(
    payoffs: np.ndarray,
    player: int,
    dynamic: Dynamic,
    strategies: Sequence[np.ndarray] | None = None,
    step: float | None = None,
    predictive: bool = False,
) -> PanelField | None:
    """The field on the simplex of ``player`` (three actions): a symmetric game's single
    population, else against the others' ``strategies`` (every player's newest strategy of
    the kind ``dynamic`` describes; None: not known yet, nothing to draw); with ``step``, the
    flow and the steps from the player's own."""
    if payoffs.shape[1 + player] != 3:
        return None
    if strategies is None and not is_symmetric(payoffs):
        return None
    setting = player_setting(payoffs, player, strategies)
    points = simplex_grid(SIMPLEX_DIVISIONS)
    plane = simplex_field(setting, dynamic, points) @ CORNERS  # velocities sum to 0: no offset
    shown = arrows(to_triangle(points), plane, 1.0 / SIMPLEX_DIVISIONS)
    if step is None or strategies is None:
        return PanelField(shown)
    flows, steps = _paths(setting, dynamic, [np.asarray(strategies[player], float)], step, predictive)
    return PanelField(shown, to_triangle(flows[0]), to_triangle(steps[0]))
