"""The numbers of the tree window's explanation (rmviz.solvers.tree.explain) against the
solver's arrays and against a recursive CFR written here from the lecture's pseudo-code
(cfr(h, i, t, p1, p2)), for every algorithm of the tree family, on Kuhn poker and the teaching
tree, several iterations, both update schedules; the text that writes them out is tested in
tests/present/test_tree_explain.py."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rmviz.games.extensive_form import CHANCE, TERMINAL, ExtensiveFormGame
from rmviz.games.trees import kuhn_poker, teaching_tree
from rmviz.present.number_text import number
from rmviz.present.tree_explain import explanation_text
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.explain import explain_infoset
from rmviz.solvers.tree.solver import CFRSolver

GAMES = {"kuhn": kuhn_poker, "teaching-tree": teaching_tree}
FULL = ("cfr", "cfr+", "linear-cfr", "dcfr", "greedy-cfr")
ITERATIONS = 4


class LectureCFR:
    """CFR as the lecture writes it, recursively over the game's nodes, with the variants'
    weights written out: regrets ``R <- d_+ [R]^+ + d_- [R]^- + c r`` (floored at 0 for RM+),
    strategy sums ``S <- d_avg S + c_avg pi_i sigma``. ``weights(t)`` gives
    ``(d_+, d_-, c, d_avg, c_avg)``. Alternating updates update each player before the next
    one's traversal; simultaneous ones traverse every player with the iteration's start
    strategy (the lecture's profile[t]). Logs per information set what the explanation shows."""

    def __init__(self, game: ExtensiveFormGame, plus: bool, alternating: bool) -> None:
        self.game, self.plus, self.alternating = game, plus, alternating
        self.moves = dict(game.infoset_moves)
        self.sigma = {key: np.full(len(m), 1 / len(m)) for key, m in self.moves.items()}
        self.regret = {key: np.zeros(len(m)) for key, m in self.moves.items()}
        self.total = {key: np.zeros(len(m)) for key, m in self.moves.items()}

    def _walk(self, node, i, reach, start_reach, sigma, start, path, log) -> float:
        """``U_i`` below ``node``; ``reach`` per player and chance (last), also under the
        iteration's start profile ``start``; logs player i's information sets."""
        if node.kind == TERMINAL:
            return float(node.payoffs[i])
        n = self.game.n_players
        if node.kind == CHANCE:
            value = 0.0
            for move, p, child in zip(node.moves, node.probabilities, node.children, strict=True):
                r, s = list(reach), list(start_reach)
                r[n] *= p
                s[n] *= p
                value += p * self._walk(child, i, r, s, sigma, start, (*path, move), log)
            return value
        key = (node.player, node.infoset)
        values = []
        for k, child in enumerate(node.children):
            r, s = list(reach), list(start_reach)
            r[node.player] *= sigma[key][k]
            s[node.player] *= start[key][k]
            values.append(self._walk(child, i, r, s, sigma, start, (*path, node.moves[k]), log))
        values = np.array(values)
        if node.player == i:
            others = math.prod(x for q, x in enumerate(reach) if q != i)
            others_start = math.prod(x for q, x in enumerate(start_reach) if q != i)
            entry = log.setdefault(key, {"histories": [], "own": reach[i]})
            entry["histories"].append((path, others, others_start, values))
        return float(sigma[key] @ values)

    def step(self, weights) -> dict:
        """One iteration; returns ``{(player, label): what happened there}``."""
        d_pos, d_neg, c, d_avg, c_avg = weights
        start = {key: s.copy() for key, s in self.sigma.items()}
        n = self.game.n_players
        logs = {}
        for i in range(n):
            sigma = self.sigma if self.alternating else start
            log: dict = {}
            self._walk(self.game.root, i, [1.0] * (n + 1), [1.0] * (n + 1), sigma, start, (), log)
            for key, entry in log.items():
                reach = np.array([h[1] for h in entry["histories"]])
                child = np.array([h[3] for h in entry["histories"]])
                cfv = reach @ child
                played = sigma[key].copy()
                regret = cfv - played @ cfv
                before = self.regret[key].copy()
                after = np.where(before > 0, d_pos * before, d_neg * before) + c * regret
                if self.plus:
                    after = np.maximum(after, 0.0)
                self.regret[key] = after
                self.total[key] = d_avg * self.total[key] + c_avg * entry["own"] * played
                entry.update(cfv=cfv, played=played, regret=regret, before=before, after=after)
            for key in log:
                positive = np.maximum(self.regret[key], 0.0)
                size = positive.size
                self.sigma[key] = positive / positive.sum() if positive.sum() > 0 else np.full(size, 1 / size)
                log[key]["next"] = self.sigma[key].copy()
                log[key]["total"] = self.total[key].copy()
            logs.update(log)
        return logs


def weights(algorithm: str, t: int, config, record) -> tuple[float, float, float, float, float]:
    """``(d_+, d_-, c, d_avg, c_avg)`` of iteration t, from the papers' definitions."""
    if algorithm == "linear-cfr":
        d = (t - 1) / t
        return d, d, 1.0, d, 1.0
    if algorithm == "dcfr":  # Brown & Sandholm 2019, s = t - 1
        s = t - 1
        d_pos = s**config.alpha / (s**config.alpha + 1)
        d_neg = s**config.beta / (s**config.beta + 1)
        return d_pos, d_neg, 1.0, ((t - 1) / t) ** config.gamma, 1.0
    if algorithm == "cfr+":  # RM+ with linear averaging (Tammelin 2014)
        return 1.0, 1.0, 1.0, (t - 1) / t, 1.0
    if algorithm == "greedy-cfr":  # the weight is the record's (its optimality is tested below)
        if t == 1:
            return 1.0, 1.0, 1.0, 1.0, 1.0
        lam = record.greedy_lambda
        return lam, lam, 1 - lam, lam, 1 - lam  # the weight sum stays 1
    return 1.0, 1.0, 1.0, 1.0, 1.0


@pytest.mark.parametrize("game_name", list(GAMES))
@pytest.mark.parametrize(
    ("algorithm", "updates"),
    [
        (a, u)
        for a in FULL
        for u in ("alternating", "simultaneous")
        if (a, u) != ("greedy-cfr", "alternating")
    ],
)
def test_every_number_of_the_explanation_is_the_solvers_and_the_lectures(game_name, algorithm, updates):
    game = GAMES[game_name]()
    solver = CFRSolver(game, cfr_preset(algorithm, updates=updates))
    config, tree = solver.config, solver.tree
    lecture = LectureCFR(game, plus=config.plus, alternating=updates == "alternating")
    for t in range(1, ITERATIONS + 1):
        record = solver.step_recorded()
        snapshot = solver.snapshot(metrics=False)
        logs = lecture.step(weights(algorithm, t, config, record))
        for j in range(tree.n_infosets):
            step = explain_infoset(tree, config, game.player_names, record, j)
            first, size = int(tree.infoset_first_slot[j]), int(tree.infoset_size[j])
            slots = slice(first, first + size)
            # the solver's arrays, shown as they are
            np.testing.assert_array_equal(step.regret_after, record.cumulative_regret_after[slots])
            np.testing.assert_array_equal(step.next_strategy, snapshot.current_strategy[slots])
            np.testing.assert_allclose(step.average_after, snapshot.average_strategy[slots], rtol=1e-12)
            np.testing.assert_array_equal(step.strategy_sum_after, solver.state.strategy_sum[slots])
            # the formulas shown give the numbers shown
            discounted = np.where(step.regret_before > 0, step.d_pos, step.d_neg) * step.regret_before
            formula = discounted + step.c * step.regret
            if config.plus:
                formula = np.maximum(formula, 0.0)
            np.testing.assert_allclose(step.regret_after, formula, atol=1e-12)
            added = sum(term.weight * term.strategy for term in step.average_terms)
            expected_sum = step.d_avg * step.strategy_sum_before + step.c_avg * added
            np.testing.assert_allclose(step.strategy_sum_after, expected_sum, atol=1e-12)
            np.testing.assert_allclose(step.cfv, sum(h.reach * h.values for h in step.histories), atol=1e-12)
            np.testing.assert_allclose(step.regret, step.cfv - step.strategy @ step.cfv, atol=1e-12)
            # the lecture's recursion, independently
            key = (step.player, step.label)
            if key not in logs:  # never reached by the player's own moves: nothing logged
                continue
            entry = logs[key]
            assert [h.path for h in step.histories] == [h[0] for h in entry["histories"]]
            np.testing.assert_allclose([h.reach for h in step.histories], [h[1] for h in entry["histories"]])
            np.testing.assert_allclose(
                [h.reach_at_start for h in step.histories], [h[2] for h in entry["histories"]]
            )
            for row, (_, _, _, values) in zip(step.histories, entry["histories"], strict=True):
                np.testing.assert_allclose(row.values, values, atol=1e-12)
            np.testing.assert_allclose(step.cfv, entry["cfv"], atol=1e-12)
            np.testing.assert_allclose(step.strategy, entry["played"], atol=1e-12)
            np.testing.assert_allclose(step.regret, entry["regret"], atol=1e-12)
            np.testing.assert_allclose(step.regret_after, entry["after"], atol=1e-9)
            np.testing.assert_allclose(step.next_strategy, entry["next"], atol=1e-9)
            np.testing.assert_allclose(step.strategy_sum_after, entry["total"], rtol=1e-9, atol=1e-12)
            (term,) = step.average_terms
            assert term.weight == pytest.approx(entry["own"])
            # and the text shows them
            text = explanation_text(step)
            for values in (step.cfv, step.regret, step.regret_after, step.next_strategy, step.average_after):
                for x in values:
                    assert number(x) in text


def test_the_greedy_weight_shown_minimises_the_potential():
    """Zhang, Lerer & Brown 2022: lam minimises sum [lam x + (1 - lam) r]_+^2 over
    [0, lam_max]; checked on a grid, independently of the line search."""
    solver = CFRSolver(kuhn_poker(), cfr_preset("greedy-cfr"))
    solver.step_recorded()
    for _ in range(4):
        x = solver.state.true_regret / solver.state.weight_sum
        t = solver.iteration + 1
        record = solver.step_recorded()
        r = np.concatenate([trace.instantaneous_regret for trace in record.traversals]) / solver.scale
        lam = record.greedy_lambda
        lam_max = 1 / (1 + solver.greedy_floor / (t - 1))

        def potential(lam, x=x, r=r):
            return float((np.maximum(lam * x + (1 - lam) * r, 0.0) ** 2).sum())

        grid = np.linspace(0, lam_max, 2001)
        assert 0 <= lam <= lam_max + 1e-12
        assert potential(lam) <= min(potential(g) for g in grid) + 1e-12
        step = explain_infoset(solver.tree, solver.config, solver.game.player_names, record, 0)
        assert step.lam == lam
        assert f"λ = {number(lam)}" in explanation_text(step)


@pytest.mark.parametrize("algorithm", ["mccfr-chance", "mccfr-external", "mccfr-outcome"])
@pytest.mark.parametrize("game_name", list(GAMES))
def test_sampled_variants_explain_what_the_sample_did(algorithm, game_name):
    game = GAMES[game_name]()
    solver = CFRSolver(game, cfr_preset(algorithm, seed=3))
    tree, config = solver.tree, solver.config
    for _ in range(6):
        record = solver.step_recorded()
        snapshot = solver.snapshot(metrics=False)
        for j in range(tree.n_infosets):
            step = explain_infoset(tree, config, game.player_names, record, j)
            first, size = int(tree.infoset_first_slot[j]), int(tree.infoset_size[j])
            slots = slice(first, first + size)
            np.testing.assert_array_equal(step.regret_after, record.cumulative_regret_after[slots])
            np.testing.assert_allclose(step.average_after, snapshot.average_strategy[slots], rtol=1e-12)
            np.testing.assert_allclose(
                step.regret_after, step.regret_before + step.regret, atol=1e-12
            )  # uniform weights
            np.testing.assert_allclose(step.cfv, sum(h.reach * h.values for h in step.histories), atol=1e-12)
            # P(h | pi_-i): chance's part of the reach is the sample's 0 or 1
            trace = record.traversals[step.traversal]
            chance = [float(trace.reach[tree.n_players, h]) for h in np.flatnonzero(tree.node_infoset == j)]
            if algorithm == "mccfr-outcome":  # one sampled path: at most one history of J on it
                assert sum(h.reach > 0 for h in step.histories) <= 1
                assert trace.sample_reach is not None
            else:
                assert set(chance) <= {0.0, 1.0}
            if algorithm != "mccfr-external":  # the traverser's own term, 0 where the sample misses J
                (term,) = step.average_terms
                assert term.traverser == step.player
                if not any(h.reach > 0 or c == 1.0 for h, c in zip(step.histories, chance, strict=True)):
                    assert term.weight == 0.0
                np.testing.assert_allclose(
                    step.strategy_sum_after,
                    step.strategy_sum_before + term.weight * term.strategy,
                    rtol=1e-12,
                    atol=1e-12,
                )
            if algorithm == "mccfr-external":
                assert {h.reach for h in step.histories} <= {0.0, 1.0}
                # the other players' traversals add sigma once per visited history of J
                (term,) = step.average_terms
                assert term.traverser != step.player and float(term.weight).is_integer()
                np.testing.assert_allclose(
                    step.strategy_sum_after,
                    step.strategy_sum_before + term.weight * term.strategy,
                    atol=1e-12,
                )
            text = explanation_text(step)
            assert "Lanctot et al. 2009" in text
