"""Internal RM's iterates (stationary.py): at every one of 200 iterations of generated games
of 3 to 100 actions per player, on the compiled kernel and on the array code, each player's
strategy equals an independent reference's stationary distribution of that iteration's
regrets to 1e-12; and runs recorded before the solve skipped the class search repeat.

The reference is the definition written again in NumPy and SciPy: the strongly connected
components of the rate graph (``scipy.sparse.csgraph``), the closed ones, each one's
Grassmann-Taksar-Heyman elimination (Grassmann, Taksar & Heyman 1985) as whole-matrix
updates, mixed by ``1 / |pi_c|^2`` (the least-squares answer), probabilities within
``TIE_TOLERANCE`` of the largest set to zero. It is checked on each iteration's own regrets,
not by running it: its last bits differ, and the games' dynamics grow a last-bit difference
(2.8e-12 after 141 iterations of a 3x3 game under predictive internal RM).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from rmviz.games import random_game
from rmviz.games.normal_form import NormalFormGame
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.regret_matching import TIE_TOLERANCE

pytest.importorskip("numba")

ITERATIONS = 200


def _eliminate(rates: np.ndarray) -> np.ndarray:
    """GTH on an irreducible chain: censor out the last state, ``size - 1`` times; then
    ``pi(0) = 1``, ``pi(j) = sum_{i<j} pi(i) P(i, j)``, normalised."""
    rates = rates.copy()
    for n in range(len(rates) - 1, 0, -1):
        rates[:n, n] /= rates[n, :n].sum()
        rates[:n, :n] += np.outer(rates[:n, n], rates[n, :n])
    pi = np.zeros(len(rates))
    pi[0] = 1.0
    for j in range(1, len(rates)):
        pi[j] = pi[:j] @ rates[:j, j]
    return pi / pi.sum()


def reference_strategy(guide, xp=np) -> np.ndarray:
    """The minimum-norm stationary distribution of the chain with rates ``[guide]_+``."""
    rates = np.maximum(np.asarray(guide, dtype=float), 0.0)
    np.fill_diagonal(rates, 0.0)
    k, top = len(rates), rates.max()
    if top == 0.0:
        return np.full(k, 1.0 / k)
    rates /= top
    count, labels = connected_components(csr_matrix(rates > 0.0), directed=True, connection="strong")
    out, weights = np.zeros(k), 0.0
    for c in range(count):
        members = np.flatnonzero(labels == c)
        if (rates[members][:, labels != c] > 0.0).any():
            continue  # a rate leaves the class: transient
        pi = _eliminate(rates[np.ix_(members, members)])
        out[members] = pi / (pi @ pi)
        weights += 1.0 / (pi @ pi)
    out /= weights
    out[out <= TIE_TOLERANCE * out.max()] = 0.0
    return out / out.sum()


def _strategies(solver: RegretMinimizer) -> np.ndarray:
    return np.concatenate([np.asarray(current) for current in solver.state.current])


@st.composite
def games(draw, k: int) -> NormalFormGame:
    """Two players with ``k`` actions each: small integers (ties: regrets of exactly zero,
    sparse chains, several closed classes) or uniform floats; zero-sum or general-sum."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        payoffs = rng.integers(-3, 4, size=(2, k, k)).astype(float)
    else:
        payoffs = rng.uniform(-1.0, 1.0, size=(2, k, k))
    if draw(st.booleans()):
        payoffs[1] = -payoffs[0]
    return NormalFormGame(payoffs)


VARIANTS = ({}, {"plus": True}, {"predictive": True}, {"weighting": "linear"})


@pytest.mark.parametrize("k", [3, 10, 50, pytest.param(100, marks=pytest.mark.slow)])  # 100: 11 s
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_iterate_is_the_reference_distribution_on_both_paths(k, data):
    game = data.draw(games(k))
    options = data.draw(st.sampled_from(VARIANTS))
    compiled = RegretMinimizer(game, preset("internal-rm", **options))
    array = RegretMinimizer(game, preset("internal-rm", **options))
    array._kernel = None
    assert compiled._kernel is not None
    for t in range(1, ITERATIONS + 1):
        for solver in (compiled, array):
            solver.step(1)
            state = solver.state
            for i in range(2):
                guide = np.asarray(state.regret[i]) + (
                    np.asarray(state.prediction[i]) if options.get("predictive") else 0.0
                )
                np.testing.assert_allclose(
                    np.asarray(state.current[i]),
                    reference_strategy(guide),
                    rtol=0,
                    atol=1e-12,
                    err_msg=f"t={t}",
                )


# Strategies of both players (concatenated) of internal RM on random_game(kind, (k, k), seed),
# recorded from the code before the elimination ran on the whole chain first (3e24e88)
RECORDED = {
    ("general-sum", 3, 0, 200): [0.0, 1.0, 0.0, 0.3752549919162674, 0.0, 0.6247450080837326],
    ("zero-sum", 10, 1, 200): [
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
        0.0,
        0.0,
        0.0,
        0.12964591378851634,
        0.27709776419316806,
        0.0,
        0.0,
        0.17505349392347413,
        0.0,
        0.0,
        0.3903669195357537,
        0.02783590855908782,
    ],
    ("zero-sum", 10, 1, 300): [
        0.48334573002347414,
        2.3518299335541418e-05,
        0.12151770730626939,
        0.1927575392358751,
        0.07331726279792763,
        0.013753423947340124,
        0.009789761052867694,
        0.10541294098282987,
        8.122542025010148e-05,
        8.909338304197665e-07,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.36483044478234816,
        0.0,
        0.0,
        0.6351695552176518,
        0.0,
    ],
}


# Entries 0-3 of each player's strategy on larger games, recorded the same way, per path: over
# 1,024 payoff entries the kernel's products and the array code's BLAS part in the last bit
RECORDED_ENTRIES = {
    ("zero-sum", 50, 0, 300, "kernel"): [
        0.0011306279660999723,
        0.03462181717157486,
        0.0424139823101091,
        0.02936489134665449,
        0.03407933833933887,
        0.09722361359198782,
        0.08238415565050818,
        0.030554892497713253,
    ],
    ("zero-sum", 50, 0, 300, "array"): [
        0.0011306279655098972,
        0.03462181716051657,
        0.042413982295703465,
        0.029364891356162798,
        0.0340793383469932,
        0.0972236135044046,
        0.08238415569334785,
        0.030554892498804113,
    ],
    ("zero-sum", 100, 1, 200, "kernel"): [
        0.026705522597555657,
        0.029256219175225223,
        0.004960482536630878,
        0.0004575643150116658,
        0.00627317228650093,
        0.002071938478442606,
        0.047243503899297136,
        7.249159966532463e-06,
    ],
    ("zero-sum", 100, 1, 200, "array"): [
        0.02670552259756588,
        0.029256219175602245,
        0.004960482536654074,
        0.00045756431501557844,
        0.006273172286339834,
        0.0020719384784390147,
        0.047243503898685556,
        7.249159966434895e-06,
    ],
    ("general-sum", 100, 1, 200, "kernel"): [
        0.0,
        0.0,
        0.0,
        0.0,
        0.0002835243274270497,
        0.00039261003400087714,
        0.00020711816807204332,
        4.861115036645077e-05,
    ],
    ("general-sum", 100, 1, 200, "array"): [
        0.0,
        0.0,
        0.0,
        0.0,
        0.00028336987058110694,
        0.00039238050000572065,
        0.00020716769277735286,
        4.8623804194603974e-05,
    ],
}


@pytest.mark.parametrize(("kind", "k", "seed", "t"), list(RECORDED))
def test_recorded_iterates_repeat(kind, k, seed, t):
    for kernel in (True, False):
        solver = RegretMinimizer(random_game(kind, (k, k), seed=seed), preset("internal-rm"))
        if not kernel:
            solver._kernel = None
        solver.step(t)
        np.testing.assert_allclose(_strategies(solver), RECORDED[kind, k, seed, t], rtol=0, atol=1e-12)


def test_the_reference_mixes_closed_classes_and_drops_transient_actions():
    """Absorbing 0 and 1, a class {2, 3} with stationary (1/3, 2/3), 4 transient: the
    least-squares weights 1, 1 and 1 / (1/9 + 4/9) (as test_stationary's hand case)."""
    guide = np.zeros((5, 5))
    guide[2, 3], guide[3, 2] = 2.0, 1.0
    guide[4, :4] = 1.0
    weights = np.array([1.0, 1.0, 1.0 / (1 / 9 + 4 / 9)])
    expected = np.array([weights[0], weights[1], weights[2] / 3, 2 * weights[2] / 3, 0.0]) / weights.sum()
    np.testing.assert_allclose(reference_strategy(guide), expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize(("kind", "k", "seed", "t", "path"), list(RECORDED_ENTRIES))
def test_recorded_entries_repeat_on_larger_games(kind, k, seed, t, path):
    solver = RegretMinimizer(random_game(kind, (k, k), seed=seed), preset("internal-rm"))
    if path == "array":
        solver._kernel = None
    solver.step(t)
    entries = _strategies(solver)[[0, 1, 2, 3, k, k + 1, k + 2, k + 3]]
    np.testing.assert_allclose(entries, RECORDED_ENTRIES[kind, k, seed, t, path], rtol=0, atol=1e-12)
