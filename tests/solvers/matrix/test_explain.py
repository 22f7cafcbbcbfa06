"""Step mode's numbers (:mod:`rmviz.solvers.matrix.explain`) against a plain NumPy computation
of every preset, and against what the solver itself does."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games.catalog import catalog_game
from rmviz.solvers.matrix.config import PRESETS, preset
from rmviz.solvers.matrix.explain import explain_next, step_explained
from rmviz.solvers.matrix.solver import RegretMinimizer

ITERATIONS = 6
STARTS = {
    "battle-of-partners": {0: (0.8, 0.2), 1: (0.3, 0.7)},
    "rps-crash": {0: (0.5, 0.25, 0.25), 1: (0.2, 0.3, 0.5)},
    "three-player-pennies": {0: (0.75, 0.25), 1: (0.5, 0.5), 2: (0.25, 0.75)},
}


class Reference:
    """Regret minimisation written out plainly, one player's arrays at a time."""

    def __init__(self, game, config, start, inertia: float) -> None:
        self.u = game.payoffs
        self.n = game.n_players
        self.config = config
        self.internal = config.regret == "internal"
        self.pi = [np.array(start[i], dtype=float) for i in range(self.n)]
        k = game.num_actions
        self.R = [np.zeros((a, a) if self.internal else a) for a in k]
        self.S = [np.zeros(a) for a in k]
        self.true = [np.zeros((a, a) if self.internal else a) for a in k]  # averaging-weighted
        self.W = 0.0
        self.rng = np.random.default_rng(config.seed)
        self.inertia = inertia

    def utilities(self, i, profile):
        tensor = self.u[i]
        for j in reversed(range(self.n)):
            if j != i:
                tensor = np.tensordot(tensor, profile[j], axes=([j], [0]))
        return tensor

    def leader(self, i, G, t):
        """Hedge, Euclidean FTRL (by sorting) or the best response, at eta_t."""
        c, k = self.config, len(G)
        if c.rule == "best-response":
            best = G >= G.max() - 1e-9 * np.abs(G).max()
            return best / best.sum()
        D = np.ptp(self.u[i])
        entropic = c.regulariser == "entropic"
        if c.step_size is not None:
            eta = c.step_size / D
        else:
            eta = math.sqrt((8 * math.log(k) if entropic else 2 / k) / t) / D
        if entropic:
            return np.exp(eta * G) / np.exp(eta * G).sum()
        v = np.sort(eta * G)[::-1]
        sums = np.cumsum(v) - 1
        rho = np.nonzero(v - sums / np.arange(1, k + 1) > 0)[0][-1]
        return np.maximum(eta * G - sums[rho] / (rho + 1), 0)

    def iterate(self, t, lam_seen):
        c = self.config
        sampled = c.play == "sampled"
        if sampled:
            draws = self.rng.random(self.n)
            acts = [
                min(int(np.searchsorted(np.cumsum(p), d * p.sum(), side="right")), len(p) - 1)
                for p, d in zip(self.pi, draws, strict=True)
            ]
            profile = [np.eye(len(p))[a] for p, a in zip(self.pi, acts, strict=True)]
        else:
            acts, profile = [None] * self.n, self.pi
        U = [self.utilities(i, profile) for i in range(self.n)]
        v = [U[i][acts[i]] if sampled else U[i] @ self.pi[i] for i in range(self.n)]
        r = []
        for i in range(self.n):
            ext = U[i] - v[i]
            ext[np.abs(ext) < 1e-9] = 0.0
            if not self.internal:
                r.append(ext)
            elif sampled:
                swap = np.zeros((len(ext), len(ext)))
                swap[acts[i]] = ext
                r.append(swap)
            else:
                r.append(self.pi[i][:, None] * (U[i][None, :] - U[i][:, None]))
        # the weights of iteration t
        d_pos = d_neg = c_r = d_avg = c_avg = 1.0
        if c.weighting == "linear":
            d_pos = d_neg = d_avg = (t - 1) / t
        elif c.weighting == "discounted":
            s = t - 1
            d_pos = s**c.alpha / (s**c.alpha + 1)
            d_neg = s**c.beta / (s**c.beta + 1)
            d_avg = ((t - 1) / t) ** c.gamma
        elif c.weighting == "greedy" and t > 1:
            x = np.concatenate([(a / self.W).ravel() for a in self.true])
            new = np.concatenate([a.ravel() for a in r])

            def phi(lam):
                return np.sum(np.maximum(lam * x + (1 - lam) * new, 0) ** 2)

            grid = np.linspace(0, 1, 20001)
            lam_max = (
                1 / (1 + 0.5 / (t - 1)) if self.n == 2 and not self.internal and _zero_sum(self.u) else 1.0
            )
            best = min(phi(g) for g in grid if g <= lam_max)
            assert 0 <= lam_seen <= lam_max + 1e-12
            assert phi(lam_seen) <= best + 1e-9  # the chosen weight minimises the potential
            d_pos = d_neg = d_avg = lam_seen
            c_r = c_avg = (1 - lam_seen) * self.W
        if (c.averaging or c.weighting) == "linear":
            d_avg = (t - 1) / t
        played = profile
        for i in range(self.n):
            self.S[i] = d_avg * self.S[i] + c_avg * played[i]
            self.true[i] = d_avg * self.true[i] + c_avg * r[i]
        self.W = d_avg * self.W + c_avg
        out = []
        for i in range(self.n):
            R = np.where(self.R[i] > 0, d_pos, d_neg) * self.R[i] + c_r * r[i]
            R[np.abs(R) < 1e-9] = 0.0
            if c.plus:
                R = np.maximum(R, 0)
            self.R[i] = R
            G = R + c_r * r[i] if c.predictive else R
            if c.rule != "regret-matching":
                nxt = self.leader(i, G, t + 1)
            elif not self.internal:
                pos = np.maximum(G, 0)
                nxt = pos / pos.sum() if pos.sum() > 0 else np.full(len(G), 1 / len(G))
            elif sampled:
                row = np.maximum(G[acts[i]], 0)
                row[acts[i]] = 0
                mu = self.inertia / t if c.weighting == "greedy" else self.inertia
                nxt = row / (mu + row.sum())
                nxt[acts[i]] = mu / (mu + row.sum())
            else:
                nxt = None  # stationary: checked by its defining equations
            out.append((U[i], v[i], r[i], R, nxt, self.S[i] / self.S[i].sum(), acts[i]))
            if nxt is not None:
                self.pi[i] = nxt
        return out


def _zero_sum(u):
    return np.allclose(u.sum(axis=0), 0)


def _stationary(pi, G):
    rates = np.maximum(G, 0)
    np.fill_diagonal(rates, 0)
    return np.allclose(pi @ rates, pi * rates.sum(axis=1), atol=1e-9) and np.isclose(pi.sum(), 1)


# every preset in both play modes on a 2-player 3x3 game, and once more on a 3-player game
# (expected play) and a 2x2 game (sampled play): 32 cases, a third fewer than the full product
CASES = [
    *((algorithm, play, "rps-crash") for algorithm in PRESETS for play in ("expected", "sampled")),
    *((algorithm, "expected", "three-player-pennies") for algorithm in PRESETS),
    *((algorithm, "sampled", "battle-of-partners") for algorithm in PRESETS),
]


@pytest.mark.parametrize(("algorithm", "play", "game_id"), CASES)
def test_numbers_match_a_plain_computation_and_the_solver(algorithm, play, game_id):
    game = catalog_game(game_id)
    config = preset(algorithm, play=play, seed=3, start=STARTS[game_id])
    solver = RegretMinimizer(game, config)
    reference = Reference(game, config, STARTS[game_id], 0.1 * game.payoff_range)
    for t in range(1, ITERATIONS + 1):
        explained = explain_next(solver)
        assert explained.iteration == t
        expected = reference.iterate(t, explained.lam if explained.lam is not None else 0.0)
        solver.step(1)
        snap = solver.snapshot(metrics=False)
        for i, (player, (U, v, r, R, nxt, average, action)) in enumerate(
            zip(explained.players, expected, strict=True)
        ):
            assert player.action == action
            np.testing.assert_allclose(player.utilities, U, atol=1e-12)
            assert player.value == pytest.approx(v, abs=1e-12)
            np.testing.assert_allclose(player.regret, r, atol=1e-12)
            np.testing.assert_allclose(player.cumulative_after, R, atol=1e-9)
            np.testing.assert_allclose(player.average, average, atol=1e-12)
            if nxt is not None:
                np.testing.assert_allclose(player.next_strategy, nxt, atol=1e-12)
            else:
                assert _stationary(player.next_strategy, player.guide)
                reference.pi[i] = player.next_strategy
            # what the solver itself did
            np.testing.assert_allclose(player.next_strategy, snap.current_strategy[i], atol=1e-12)
            np.testing.assert_allclose(player.cumulative_after, snap.cumulative_regret[i], atol=1e-9)
            np.testing.assert_allclose(player.average, snap.average_strategy[i], atol=1e-12)


def test_alternating_updates_answer_the_newest_strategy():
    game = catalog_game("battle-of-partners")
    solver = RegretMinimizer(game, preset("rm", updates="alternating", start={0: (1.0, 0.0), 1: (0.0, 1.0)}))
    explained = explain_next(solver)
    cat, dee = explained.players
    # Cat (Cinema) learns first against Dee's Dancing: r = (0, 5), so she moves to Dancing
    np.testing.assert_allclose(cat.utilities, [2.0, 7.0])
    np.testing.assert_allclose(cat.next_strategy, [0.0, 1.0])
    # Dee answers Cat's new strategy (Dancing): Cinema 0, Dancing 10
    np.testing.assert_allclose(dee.utilities, [0.0, 10.0])
    solver.step(1)
    np.testing.assert_allclose(solver.snapshot(metrics=False).current_strategy[1], dee.next_strategy)


def test_a_fixed_player_keeps_its_strategy():
    game = catalog_game("rps")
    solver = RegretMinimizer(game, preset("rm", fixed_strategies={1: (0.4, 0.3, 0.3)}))
    explained = step_explained(solver)
    me, fixed = explained.players
    assert not fixed.learning
    np.testing.assert_allclose(fixed.next_strategy, [0.4, 0.3, 0.3])
    np.testing.assert_allclose(me.next_strategy, [0.0, 1.0, 0.0])  # Paper beats a Rock-heavy opponent


def test_scripted_actions_and_impossible_ones():
    solver = RegretMinimizer(catalog_game("rps"), preset("rm", play="sampled", start={}))
    first = step_explained(solver, [0, 1])  # Rock against Paper
    np.testing.assert_allclose(first.players[0].regret, [0, 1, 2])
    np.testing.assert_allclose(first.players[0].next_strategy, [0, 1 / 3, 2 / 3])
    with pytest.raises(ConfigError, match="probability 0"):
        step_explained(solver, [0, 0])  # Rock now has probability 0 for player 1


def test_starting_strategies_are_validated():
    game = catalog_game("rps")
    for start, message in (
        ({0: (0.5, 0.5)}, "needs 3 probabilities"),
        ({0: (1.5, -0.5, 0.0)}, "non-negative"),
        ({0: (0.5, 0.4, 0.0)}, "sums to 0.9"),
        ({2: (1.0, 0.0, 0.0)}, "the game has 2 players"),
    ):
        with pytest.raises(ConfigError, match=message):
            RegretMinimizer(game, preset("rm", start=start))
    with pytest.raises(ConfigError, match="is fixed"):
        RegretMinimizer(game, preset("rm", start={1: (1, 0, 0)}, fixed_strategies={1: (1, 0, 0)}))
