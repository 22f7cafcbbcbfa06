"""The continuous-time dynamics under the simplex view (rmviz.present.dynamics): each field
against its formula written out here, tangent to the simplex, at rest at known equilibria;
the discrete algorithm's steps approach the flow as the step shrinks, and Hedge's large steps
on rock-paper-scissors cycle outwards while its flow does not."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.games.catalog import CATALOG
from rmviz.present import dynamics
from rmviz.present.simplex import arrows
from rmviz.solvers.matrix.config import preset

RNG = np.random.default_rng(7)
NAMES = tuple(dynamics.FIELDS)


def _samples(count: int = 20, n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    x = RNG.dirichlet(np.ones(n), size=count)
    u = RNG.normal(size=(count, n))
    return x, u


def _by_formula(name: str, x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The dynamic at one point, entry by entry as its paper writes it."""
    n = len(x)
    mean_payoff = sum(x[b] * u[b] for b in range(n))
    if name == "replicator":  # Taylor & Jonker 1978
        return np.array([x[a] * (u[a] - mean_payoff) for a in range(n)])
    if name == "bnn":  # Brown & von Neumann 1950
        excess = [max(u[a] - mean_payoff, 0.0) for a in range(n)]
        return np.array([excess[a] - x[a] * sum(excess) for a in range(n)])
    if name == "best-response":  # Gilboa & Matsui 1991
        best = [a for a in range(n) if u[a] == max(u)]
        return np.array([(1 / len(best) if a in best else 0.0) - x[a] for a in range(n)])
    # projection (Nagurney & Zhang 1997) at an interior point: u minus its mean
    return np.array([u[a] - sum(u) / n for a in range(n)])


@pytest.mark.parametrize("name", NAMES)
def test_each_field_is_its_formula_and_tangent_to_the_simplex(name):
    x, u = _samples()
    field = dynamics.velocity(name, x, u)
    for point, payoff, value in zip(x, u, field, strict=True):
        np.testing.assert_allclose(value, _by_formula(name, point, payoff), atol=1e-14)
    np.testing.assert_allclose(field.sum(axis=1), 0.0, atol=1e-14)


def test_projection_dynamics_on_the_boundary_is_the_tangent_cone_projection():
    x = np.array([0.0, 0.5, 0.5])
    # an unused action that pays less than the others stays unused: the rest share u's mean
    np.testing.assert_allclose(dynamics.projection(x, np.array([-1.0, 0.0, 1.0])), [0.0, -0.5, 0.5])
    # one that pays more enters, as inside
    np.testing.assert_allclose(dynamics.projection(x, np.array([1.0, 0.0, 0.0])), [2 / 3, -1 / 3, -1 / 3])
    # at a corner only better actions enter
    corner = np.array([1.0, 0.0, 0.0])
    np.testing.assert_allclose(dynamics.projection(corner, np.array([0.0, 1.0, -3.0])), [-0.5, 0.5, 0.0])


@pytest.mark.parametrize("name", NAMES)
def test_rest_points_at_the_equilibria_of_rps_and_matching_pennies(name):
    rps = dynamics.player_setting(CATALOG["rps"].build().payoffs, 0)
    assert rps.kind == "symmetric"
    centre = np.full((1, 3), 1 / 3)
    np.testing.assert_allclose(dynamics.simplex_field(rps, name, centre), 0.0, atol=1e-15)
    pennies = dynamics.square_setting(CATALOG["matching-pennies"].build().payoffs)
    np.testing.assert_allclose(dynamics.square_field(pennies, name, np.array([[0.5, 0.5]])), 0.0, atol=1e-15)
    # and nowhere else on the grids
    grid = dynamics.simplex_field(rps, name, dynamics.simplex_grid(12))
    assert (np.abs(grid).sum(axis=1) > 1e-6).sum() >= 50


def test_the_square_field_is_each_players_own_dynamic():
    game = CATALOG["matching-pennies"].build()
    a, b = game.payoffs / np.ptp(game.payoffs, axis=(1, 2))[:, None, None]
    setting = dynamics.square_setting(game.payoffs)
    p, q = 0.8, 0.3
    x, y = np.array([p, 1 - p]), np.array([q, 1 - q])
    expected = [x[0] * (a @ y - x @ a @ y)[0], y[0] * (x @ b - x @ b @ y)[0]]
    np.testing.assert_allclose(dynamics.square_field(setting, "replicator", np.array([[p, q]]))[0], expected)


def test_a_player_against_the_others_strategies():
    payoffs = RNG.normal(size=(3, 3, 4, 2))
    others = [RNG.dirichlet(np.ones(k)) for k in (3, 4, 2)]
    for player in range(3):
        setting = dynamics.player_setting(payoffs, player, others)
        mine = np.moveaxis(payoffs[player], player, 0)
        rest = [s for j, s in enumerate(others) if j != player]
        expected = np.einsum("abc,b,c->a", mine, *rest) / np.ptp(payoffs[player])
        np.testing.assert_allclose(setting.utilities([others[player]])[0], expected)
    with pytest.raises(ValueError, match="other players"):
        dynamics.player_setting(payoffs, 0, None)


def test_the_algorithm_chooses_its_dynamic():
    chosen = {name: dynamics.dynamic_of(preset(name)) for name in ("rm", "rm+", "hedge", "optimistic-hedge")}
    assert chosen["rm"].name == chosen["rm+"].name == "bnn" and chosen["rm"].strategy == "average"
    assert chosen["hedge"].name == chosen["optimistic-hedge"].name == "replicator"
    assert chosen["hedge"].strategy == "current"
    assert dynamics.dynamic_of(preset("ftrl")).name == "projection"
    assert dynamics.dynamic_of(preset("fictitious-play")).name == "best-response"
    assert dynamics.dynamic_of(preset("internal-rm")) is None


@pytest.mark.parametrize("name", NAMES)
def test_the_discrete_steps_approach_the_flow_as_the_step_shrinks(name):
    rps = dynamics.player_setting(CATALOG["rps"].build().payoffs, 0)
    start = [np.array([0.6, 0.25, 0.15])]  # paper is the best response all along: no switch
    time = 0.3
    end = dynamics.flow(rps, name, start, time)[0][-1]
    errors = [
        np.abs(dynamics.discrete(rps, name, start, step, round(time / step))[0][-1] - end).max()
        for step in (0.03, 0.003, 0.0003)
    ]
    assert errors[2] < 1e-4
    assert errors[2] < errors[1] / 5 < errors[0] / 25  # first order


def test_hedge_on_rps_follows_its_closed_orbit_with_small_steps_and_cycles_out_with_large():
    """The replicator keeps the KL divergence from the centre constant on rps; Hedge's steps
    raise it, the more the larger they are (Bailey & Piliouras 2018)."""
    rps = dynamics.player_setting(CATALOG["rps"].build().payoffs, 0)
    start = [np.array([0.5, 0.3, 0.2])]

    def divergence(x: np.ndarray) -> np.ndarray:
        return -np.log(3 * x).sum(axis=-1) / 3

    orbit = dynamics.flow(rps, "replicator", start, dynamics.HORIZON)[0]
    assert np.ptp(divergence(orbit)) < 1e-6
    drift = {}
    for step in (0.01, 1.0):
        path = dynamics.discrete(rps, "replicator", start, step, dynamics.step_count(step))[0]
        drift[step] = divergence(path[-1]) - divergence(path[0])
    assert 0 < drift[0.01] < 0.005 < 0.1 < drift[1.0]
    optimistic = dynamics.discrete(rps, "replicator", start, 1.0, 20, predictive=True)[0]
    assert divergence(optimistic[-1]) < divergence(optimistic[0])  # optimism spirals in


def test_arrows_have_a_shaft_and_a_head_and_none_at_rest():
    points = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    vectors = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, -4.0]])
    drawn = arrows(points, vectors, spacing=0.5)
    assert drawn.segments.shape == (6, 2, 2)  # two arrows, three segments each
    shafts = drawn.segments[:2]
    np.testing.assert_allclose(shafts.mean(axis=1), points[[0, 2]])
    lengths = np.linalg.norm(shafts[:, 1] - shafts[:, 0], axis=1)
    assert 0.35 * 0.5 <= lengths[0] < lengths[1] <= 0.8 * 0.5 + 1e-12  # longer where faster
    assert drawn.levels[1] > drawn.levels[0]  # darker where faster


def test_panels_draw_the_field_and_the_paths_from_the_newest_point():
    rps = CATALOG["rps"].build()
    hedge = dynamics.DYNAMICS["replicator"]
    start = np.array([0.5, 0.3, 0.2])
    panel = dynamics.simplex_panel(rps.payoffs, 0, hedge, [start, start], step=0.5)
    assert panel is not None and len(panel.arrows.segments) > 100
    assert len(panel.steps) == dynamics.step_count(0.5) + 1 == 41
    np.testing.assert_allclose(panel.steps[0], panel.flow[0])
    pennies = dynamics.square_panel(CATALOG["matching-pennies"].build().payoffs, hedge, (0.7, 0.4), 0.1)
    np.testing.assert_allclose(pennies.flow[0], [0.7, 0.4])
    # a game that is not symmetric needs the others' strategies; one without three actions has no simplex
    shapley = CATALOG["shapley"].build()
    assert dynamics.simplex_panel(shapley.payoffs, 0, hedge) is None or dynamics.is_symmetric(shapley.payoffs)
    assert dynamics.simplex_panel(np.zeros((2, 2, 3)), 0, hedge, [np.ones(2) / 2, np.ones(3) / 3]) is None
