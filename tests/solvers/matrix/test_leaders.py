"""Hedge, optimistic Hedge, Euclidean FTRL and fictitious play equal their definitions.

Each preset is checked against a plain loop written from the papers in terms of cumulative
*utilities* (not the solver's regrets): Hedge plays ``exp(eta_t sum_s U_s) / Z`` (Freund &
Schapire 1997; the anytime rate of Cesa-Bianchi & Lugosi 2006, Theorem 2.3), optimistic Hedge
counts the last utility twice (Rakhlin & Sridharan 2013), Euclidean FTRL plays the projection
of ``eta_t sum_s U_s`` onto the simplex (sorting, Held, Wolfe & Crowder 1974, where the solver
iterates Michelot's rule), fictitious play a best response to the others' empirical play in
exact fractions (Brown 1951). Sampled play draws the solver's stream.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rmviz.errors import ConfigError
from rmviz.games import catalog_game, random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.metrics import nash_conv
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.regret_matching import best_response, euclidean_projection, hedge

GAMES = {
    "rps-crash": lambda: catalog_game("rps-crash"),
    "general-sum 5x7": lambda: random_game("general-sum", (5, 7), seed=3),
    "three players 3x4x2": lambda: random_game("general-sum", (3, 4, 2), seed=1),
}
MODES = [(play, updates) for play in ("expected", "sampled") for updates in ("simultaneous", "alternating")]


def _utilities(game: NormalFormGame, profile: list[np.ndarray], i: int) -> np.ndarray:
    """``U_i(a) = u_i(a, profile_-i)`` (pure profiles are one-hot vectors)."""
    values = game.payoffs[i]
    for j in range(game.n_players - 1, -1, -1):
        if j != i:
            values = np.tensordot(values, profile[j], axes=([j], [0]))
    return values


def _sorted_projection(v: np.ndarray) -> np.ndarray:
    """The Euclidean projection onto the simplex by sorting (Held, Wolfe & Crowder 1974)."""
    u = np.sort(v)[::-1]
    sums = np.cumsum(u) - 1.0
    rho = np.nonzero(u - sums / np.arange(1, len(u) + 1) > 0)[0][-1]
    return np.maximum(v - sums[rho] / (rho + 1), 0.0)


def _reference(game: NormalFormGame, algorithm: str, play: str, updates: str, iterations: int):
    """The current and average strategies after ``iterations``, written from the papers."""
    solver = RegretMinimizer(game, preset(algorithm, play=play, updates=updates))
    config = solver.config
    n, shape = game.n_players, game.num_actions
    ranges = [float(np.ptp(game.payoffs[i])) for i in range(n)]
    current = [np.array(solver.start[i], dtype=float) for i in range(n)]
    total = [np.zeros(k) for k in shape]  # sum_s U_s
    last = [np.zeros(k) for k in shape]  # U_t (optimism)
    average = [np.zeros(k) for k in shape]
    rng = np.random.default_rng(0)

    def draw() -> list[np.ndarray]:
        uniforms = rng.random(n)
        pure = []
        for j in range(n):
            cdf = np.cumsum(current[j])
            a = min(int(np.searchsorted(cdf, uniforms[j] * cdf[-1], side="right")), shape[j] - 1)
            pure.append(np.eye(shape[j])[a])
        return pure

    for t in range(1, iterations + 1):
        profile = list(current) if play == "expected" else draw()
        for i in range(n):
            average[i] += profile[i]
        for k, i in enumerate(range(n)):
            if updates == "alternating" and k > 0:
                profile = list(current) if play == "expected" else draw()
            u = _utilities(game, profile, i)
            total[i] += u
            last[i] = u
            current[i] = _leader(config, total[i] + (last[i] if config.predictive else 0.0), t + 1, ranges[i])
    return current, [a / iterations for a in average]


def _leader(config, utilities: np.ndarray, t: int, payoff_range: float) -> np.ndarray:
    k = utilities.shape[0]
    if config.rule == "best-response":
        raise AssertionError("fictitious play has its exact reference")
    if config.step_size is not None:
        eta = config.step_size / payoff_range
    elif config.regulariser == "entropic":
        eta = math.sqrt(8 * math.log(k) / t) / payoff_range
    else:
        eta = math.sqrt(2 / (k * t)) / payoff_range
    if config.regulariser == "entropic":
        weights = np.exp(eta * (utilities - utilities.max()))
        return weights / weights.sum()
    return _sorted_projection(eta * utilities)


@pytest.mark.parametrize("algorithm", ["hedge", "optimistic-hedge", "ftrl"])
@pytest.mark.parametrize(("play", "updates"), MODES)
@pytest.mark.parametrize("name", GAMES)
def test_ftrl_presets_equal_the_papers_loops(name, algorithm, play, updates):
    game = GAMES[name]()
    current, average = _reference(game, algorithm, play, updates, 100)
    for compiled in (True, False):
        solver = RegretMinimizer(game, preset(algorithm, play=play, updates=updates))
        if not compiled:
            solver._kernel = None  # the generic array code
        solver.step(100)
        snapshot = solver.snapshot(metrics=False)
        for i in range(game.n_players):
            np.testing.assert_allclose(snapshot.current_strategy[i], current[i], rtol=0, atol=1e-12)
            np.testing.assert_allclose(snapshot.average_strategy[i], average[i], rtol=0, atol=1e-12)


def _fraction_game(seed: int, shape: tuple[int, ...]) -> NormalFormGame:
    """Payoffs 0 and 1: many exact ties among cumulative utilities."""
    payoffs = np.random.default_rng(seed).integers(0, 2, size=(len(shape), *shape)).astype(float)
    return NormalFormGame(payoffs, title=f"ties {seed}")


def _exact_utilities(payoffs: np.ndarray, profile: list[list[Fraction]], i: int) -> list[Fraction]:
    shape = payoffs.shape[1:]
    out = [Fraction(0)] * shape[i]
    for index in np.ndindex(*shape):
        weight = Fraction(1)
        for j, a in enumerate(index):
            if j != i:
                weight *= profile[j][a]
        if weight:
            out[index[i]] += weight * Fraction(int(payoffs[(i, *index)]))
    return out


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
@pytest.mark.parametrize(("seed", "shape"), [(1, (4, 3)), (8, (5, 5)), (2, (2, 3, 2)), (5, (5, 5))])
def test_fictitious_play_breaks_ties_as_exact_arithmetic(seed, shape, updates):
    """Expected play: every iterate is uniform over the exact argmax of the cumulative
    utilities; integer payoffs make exact ties common (rounding would split them)."""
    game = _fraction_game(seed, shape)
    n = game.n_players
    current = [[Fraction(1, k)] * k for k in shape]
    total = [[Fraction(0)] * k for k in shape]
    solvers = [RegretMinimizer(game, preset("fictitious-play", updates=updates)) for _ in range(2)]
    solvers[1]._kernel = None
    ties = 0
    for _ in range(100):
        for i in range(n):
            u = _exact_utilities(game.payoffs, current, i)
            total[i] = [a + b for a, b in zip(total[i], u, strict=True)]
            if updates == "simultaneous":
                continue
            current[i] = _exact_best_response(total[i])
        if updates == "simultaneous":
            current = [_exact_best_response(row) for row in total]
        ties += sum(row.count(max(row)) > 1 for row in total)
        for solver in solvers:
            solver.step(1)
            for i in range(n):
                exact = [float(p) for p in current[i]]
                np.testing.assert_allclose(solver.state.current[i], exact, rtol=0, atol=1e-15)
    assert ties > 0, "the games must have tied best responses"


def _exact_best_response(total: list[Fraction]) -> list[Fraction]:
    top = max(total)
    count = sum(1 for v in total if v == top)
    return [Fraction(1, count) if v == top else Fraction(0) for v in total]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("algorithm", ["hedge", "ftrl"])
def test_regret_bounds_hold(algorithm, seed):
    """Each player's external regret after T iterations against whatever the others play:
    Hedge at most D (2 sqrt(T ln n / 2) + sqrt(ln n / 8)) (Cesa-Bianchi & Lugosi 2006,
    Theorem 2.3), Euclidean FTRL at most D sqrt(n T / 2); and with a constant step eta (per unit
    of payoff range) Hedge's ln n / eta + eta T / 8 in units of D."""
    game = random_game("general-sum", (6, 4), seed=seed)
    T = 2000
    for step_size in (None, 0.3):
        solver = RegretMinimizer(game, preset(algorithm, step_size=step_size))
        solver.step(T)
        for i, k in enumerate(game.num_actions):
            D = float(np.ptp(game.payoffs[i]))
            regret = float(solver.snapshot(metrics=False).average_regret[i].max()) * T
            if algorithm == "hedge" and step_size is None:
                bound = D * (2 * math.sqrt(T * math.log(k) / 2) + math.sqrt(math.log(k) / 8))
            elif algorithm == "hedge":
                bound = D * (math.log(k) / step_size + step_size * T / 8)
            elif step_size is None:
                bound = D * math.sqrt(k * T / 2)
            else:  # FTRL with |x|^2 / (2 eta): 1 / (2 eta) + eta T k / 8, eta per unit of D
                bound = D * (1 / (2 * step_size) + step_size * T * k / 8)
            assert regret <= bound, (i, regret, bound)


def test_strategy_maps_are_their_definitions():
    guide = np.array([0.3, -1.0, 2.0, 2.0 - 1e-15])
    np.testing.assert_allclose(hedge(guide, 2.0, np), np.exp(2 * guide) / np.exp(2 * guide).sum(), rtol=1e-14)
    for rate in (0.1, 1.0, 30.0):
        np.testing.assert_allclose(
            euclidean_projection(guide, rate, np), _sorted_projection(rate * guide), rtol=0, atol=1e-15
        )
    assert best_response(guide, np).tolist() == [0, 0, 0.5, 0.5]  # within TIE_TOLERANCE: a tie
    assert best_response(np.zeros(3), np).tolist() == [1 / 3] * 3
    assert hedge(np.array([1e300, -1e300]), 1.0, np).tolist() == [1.0, 0.0]  # no overflow


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.integers(-4, 4) | st.floats(-3, 3, allow_nan=False), min_size=1, max_size=40),
    rate=st.sampled_from([0.01, 0.25, 1.0, 3.0, 50.0]),
)
def test_the_array_projection_is_the_kernels_bit_for_bit(values, rate):
    """The array code's projection (sorted support, then Michelot's rounds) and the compiled
    kernel's give the same bits, ties and integer entries included (where a coordinate can
    sit exactly at theta)."""
    pytest.importorskip("numba")
    from rmviz.solvers.matrix.kernels import _strategy_map

    guide = np.array(values, dtype=np.float64)
    out = np.empty_like(guide)
    _strategy_map(2, rate, guide, out)
    np.testing.assert_array_equal(euclidean_projection(guide, rate, np), out)


def test_the_projection_ends_where_michelots_iteration_cycled():
    """Michelot's iteration from every action, run until its set stayed, flipped an entry at
    theta in and out for ever on this guide (the kernel hung); a fixed number of rounds from
    the sorted support ends, at the projection."""
    pytest.importorskip("numba")
    from rmviz.solvers.matrix.kernels import _strategy_map

    guide = np.fromstring(
        "-3 2 0 -1 -4 -3 2 -1 -4 -4 -4 3 3 4 2 1 -4 4 -3 -4 -1 -1 -4 -3 3 4 3 -1 4 0 -4 -3 1 -4 3 0", sep=" "
    )
    out = np.empty_like(guide)
    _strategy_map(2, 0.01, guide, out)
    np.testing.assert_array_equal(out, euclidean_projection(guide, 0.01, np))
    np.testing.assert_allclose(out, _sorted_projection(0.01 * guide), rtol=0, atol=1e-15)


def test_optimistic_hedge_last_iterate_converges_where_hedge_cycles():
    """rps-crash, one constant step for both: optimistic Hedge's current profile converges
    (Daskalakis & Panageas 2019), Hedge's spirals out to the boundary; both averages come near
    the equilibrium (Hedge's to within its constant step's O(eta) regret)."""
    game = catalog_game("rps-crash")
    last = {}
    for algorithm in ("hedge", "optimistic-hedge"):
        solver = RegretMinimizer(game, preset(algorithm, step_size=0.5))
        solver.step(10_000)
        last[algorithm] = nash_conv(solver.payoffs, solver.state.current, np)[0] * solver.scale
        assert solver.metrics().nash_conv < 0.02
    assert last["optimistic-hedge"] < 1e-9
    assert last["hedge"] > 1.0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"plus": True}, r"RM\+ clipping applies to regret matching only"),
        ({"regret": "internal"}, "internal regret applies to regret matching only"),
        ({"step_size": 0.0}, "the step size must be a positive number"),
        ({"step_size": math.inf}, "the step size must be a positive number"),
        ({"step_size": 1e16}, "up to 1,000,000"),
        ({"step_size": "big"}, "step_size must be a number"),
        ({"regulariser": "l1"}, "unknown regulariser 'l1'"),
    ],
)
def test_refused_combinations(options, message):
    with pytest.raises(ConfigError, match=message):
        preset("hedge", **options)


def test_step_size_belongs_to_ftrl():
    with pytest.raises(ConfigError, match="step size applies to FTRL"):
        preset("rm", step_size=0.5)
    with pytest.raises(ConfigError, match="regulariser applies to FTRL"):
        preset("fictitious-play", regulariser="euclidean")


def test_a_step_size_runs_every_compared_algorithm_that_uses_it(tmp_path):
    """Compare mode, the compare figure and rmviz.compare: one step size runs Hedge beside
    fictitious play and RM (a single run of RM keeps refusing it)."""
    from rmviz import cli
    from rmviz.solvers.registry import MATRIX, compared_options

    game = catalog_game("rps-crash")
    options = {"step_size": 0.5, "play": "sampled"}
    assert compared_options(game, "hedge", options) == options
    assert compared_options(game, "fictitious-play", options) == {"play": "sampled"}
    base = preset("hedge", step_size=0.5)
    assert MATRIX.compare_solver(game, "optimistic-hedge", base).config.step_size == 0.5
    assert MATRIX.compare_solver(game, "rm", base).config.algorithm == "rm"
    assert MATRIX.compare_solver(game, "optimistic-hedge", preset("hedge")).config.step_size == 0.25
    out = tmp_path / "mixed.svg"
    argv = ["export", "rps-crash", "--figure", "compare", "-a", "fictitious-play,hedge,rm"]
    assert cli.main([*argv, "--step-size", "0.5", "-n", "50", "--out", str(out)]) == 0
    assert out.stat().st_size > 0
    with pytest.raises(ConfigError, match="step size applies to FTRL"):
        MATRIX.config("rm", step_size=0.5)


def test_rmviz_step_prints_the_rule_the_table_cannot_show(capsys):
    """The table's pi^t+1 column follows from R^t by hand only for regret matching: the text
    names Hedge's eta (0.25 / D, D = 4 on rps-crash) and the optimistic guide G."""
    from rmviz import cli

    assert (
        cli.main(["step", "rps-crash", "-a", "optimistic-hedge", "-n", "1", "--updates", "alternating"]) == 0
    )
    text = capsys.readouterr().out
    assert "expected play; alternating updates" in text.splitlines()[0]
    assert "G = R^t + m^t with the prediction m^t = r^t: (2/3, 0, -2/3)" in text
    assert "pi^t+1(a) = exp(eta G(a)) / sum_b exp(eta G(b)), eta = 1/16: (0.3473, 0.3331, 0.3195)" in text
    assert cli.main(["step", "rps-crash", "-a", "fictitious-play", "-n", "2"]) == 0
    assert "pi^t+1 = uniform over argmax R^t = {Paper} (max 1): (0, 1, 0)" in capsys.readouterr().out
