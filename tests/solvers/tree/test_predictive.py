"""Predictive CFR+ (``pcfr+``) and predictive discounted CFR+ (``pdcfr+``) against loops
written from the papers, across the code paths, and beside LiteEFG 1.0.

* PCFR+ (Farina, Kroer & Sandholm, AAAI 2021): at every information set
  ``R^t = [R^{t-1} + r^t]_+``, the prediction ``m^{t+1} = r^t`` and
  ``sigma^{t+1} = [R^t + m^{t+1}]_+`` normalised (uniform when nothing is positive); quadratic
  averaging.
* PDCFR+ (Xu, Li, Liu, Fu, Fu, Xing & Cheng, IJCAI 2024, and their code,
  github.com/rpSebastian/PDCFRPlus ``pdcfr_plus.py``): with ``d(T) = (T-1)^a / ((T-1)^a + 1)``,
  ``R^t = [d(t) R^{t-1} + r^t]_+`` and ``sigma^{t+1} ~ [d(t+1) R^t + r^t]_+``; the average
  ``S^t = ((t-1)/t)^gamma S^{t-1} + pi_i sigma^t``; alpha = 2.3, gamma = 5.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games.extensive_form import ExtensiveFormGame, Node
from rmviz.games.trees import kuhn_poker, leduc_poker, teaching_tree
from rmviz.solvers.checkpoint import capture_layout
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver


class PaperLoop:
    """The papers' update, one dictionary entry per information set, by recursion over the
    game's nodes (as the PDCFR+ authors' ``calc_regret``); nothing of rmviz's compiled tree.

    With rmviz's two rounding rules (docs/algorithms.md, "Exact ties" and "Cancellations"):
    an instantaneous regret within 1e-12 of ``max(max_b |cfv(I, b)|, U rho(I))`` is 0 (``U``
    the largest ``|u|``, ``rho(I)`` the sum of ``pi_-i(h)`` over ``h`` in ``I``), and a sum
    ``kept + added`` (regret update, guide) within 1e-12 of ``|kept| + |added|`` is 0. Without
    them the two agree to 1e-15 until PCFR+'s last iterate on Kuhn reaches an equilibrium
    (iteration ~90), where regrets of 1e-13 are rounding noise that one side plays and the
    other not (1.8e-12 apart at iteration 100)."""

    def __init__(self, game: ExtensiveFormGame, discounted: bool, alternating: bool) -> None:
        self.game, self.discounted, self.alternating = game, discounted, alternating
        self.alpha, self.gamma = (2.3, 5.0) if discounted else (0.0, 2.0)
        self.n = game.n_players
        self.sizes: dict[tuple[int, str], int] = {}
        for _, node in game.nodes():
            if node.kind == "decision":
                assert node.player is not None and node.infoset is not None
                self.sizes[node.player, node.infoset] = len(node.children)
        self.sigma = {key: np.full(k, 1.0 / k) for key, k in self.sizes.items()}
        self.regret = {key: np.zeros(k) for key, k in self.sizes.items()}
        self.cumulative = {key: np.zeros(k) for key, k in self.sizes.items()}
        self.t = 0
        terminals = [node.payoffs for _, node in game.nodes() if node.kind == "terminal"]
        self.bound = float(np.max(np.abs(terminals)))  # U: the largest |u|

    def discount(self, t: int) -> float:
        if not self.discounted:
            return 1.0
        s = float(t - 1) ** self.alpha
        return s / (s + 1.0)

    def values(self, node: Node, traverser: int, reach: list[float], *sums: dict) -> float:
        imm, own, rho = sums
        if node.kind == "terminal":
            return float(node.payoffs[traverser])
        if node.kind == "chance":
            total = 0.0
            for p, child in zip(node.probabilities, node.children, strict=True):
                total += p * self.values(child, traverser, [*reach[:-1], reach[-1] * p], imm, own, rho)
            return total
        assert node.player is not None and node.infoset is not None
        key, player = (node.player, node.infoset), node.player
        sigma = self.sigma[key]
        child_values = []
        for a, child in enumerate(node.children):
            after = list(reach)
            after[player] *= sigma[a]
            child_values.append(self.values(child, traverser, after, imm, own, rho))
        v = float(np.dot(sigma, child_values))
        if player == traverser:
            others = float(np.prod([reach[q] for q in range(self.n + 1) if q != player]))
            imm[key] += others * np.array(child_values)  # counterfactual values, regrets later
            own[key] += reach[player]
            rho[key] += others
        return v

    def iterate(self) -> None:
        self.t = t = self.t + 1
        groups = [[p] for p in range(self.n)] if self.alternating else [list(range(self.n))]
        for group in groups:
            keys = [key for key in self.sizes if key[0] in group]
            imm = {key: np.zeros(self.sizes[key]) for key in keys}
            own = dict.fromkeys(keys, 0.0)
            rho = dict.fromkeys(keys, 0.0)
            for traverser in group:
                self.values(self.game.root, traverser, [1.0] * (self.n + 1), imm, own, rho)
            for key in keys:
                cfv = imm[key]
                r = cfv - float(np.dot(self.sigma[key], cfv))
                r = np.where(np.abs(r) <= 1e-12 * max(np.abs(cfv).max(), self.bound * rho[key]), 0.0, r)
                self.regret[key] = np.maximum(_sum(self.regret[key] * self.discount(t), r), 0.0)
                factor = ((t - 1) / t) ** self.gamma if t > 1 else 0.0
                self.cumulative[key] = self.cumulative[key] * factor + own[key] * self.sigma[key]
                guide = np.maximum(_sum(self.regret[key] * self.discount(t + 1), r), 0.0)
                total = guide.sum()
                self.sigma[key] = guide / total if total > 0 else np.full(len(guide), 1.0 / len(guide))

    def average(self, key: tuple[int, str]) -> np.ndarray:
        total = self.cumulative[key].sum()
        k = self.sizes[key]
        return self.cumulative[key] / total if total > 0 else np.full(k, 1.0 / k)


def _sum(kept: np.ndarray, added: np.ndarray) -> np.ndarray:
    total = kept + added
    return np.where(np.abs(total) <= 1e-12 * (np.abs(kept) + np.abs(added)), 0.0, total)


def _slots(solver: CFRSolver) -> dict[tuple[int, str], slice]:
    tree = solver.tree
    return {
        (int(tree.infoset_player[i]), tree.infoset_label[i]): slice(
            int(tree.infoset_first_slot[i]), int(tree.infoset_first_slot[i] + tree.infoset_size[i])
        )
        for i in range(tree.n_infosets)
    }


@pytest.mark.parametrize("build", [kuhn_poker, teaching_tree])
@pytest.mark.parametrize("algorithm", ["pcfr+", "pdcfr+"])
@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_each_iterate_equals_the_papers_loop(build, algorithm, updates):
    """100 iterations, every one compared: current strategy, regrets and average to 1e-12."""
    game = build()
    ours = CFRSolver(game, preset(algorithm, updates=updates))
    paper = PaperLoop(game, discounted=algorithm == "pdcfr+", alternating=updates == "alternating")
    slots = _slots(ours)
    assert set(slots) == set(paper.sizes)
    for _ in range(100):
        ours.step(1)
        paper.iterate()
        average = ours.average_strategy()
        for key, where in slots.items():
            np.testing.assert_allclose(ours.state.strategy[where], paper.sigma[key], rtol=0, atol=1e-12)
            np.testing.assert_allclose(ours.state.regret[where], paper.regret[key], rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(average[where], paper.average(key), rtol=0, atol=1e-12)


@pytest.mark.parametrize("build", [kuhn_poker, leduc_poker])
@pytest.mark.parametrize("algorithm", ["pcfr+", "pdcfr+"])
@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_compiled_kernel_gives_the_array_codes_iterates(build, algorithm, updates):
    """The numba kernel and the NumPy passes, iteration by iteration: bit for bit on Kuhn. On
    Leduc the two sum a slot's histories in other orders (1 ulp apart at iteration 1, for
    CFR+ as well), and the runs amplify it as the existing presets' do (strategies 3e-10
    apart at iteration 40 for dcfr, 5e-11 for pcfr+, 6e-12 for pdcfr+): to 1e-9, as
    test_cfr.py's kernel test."""
    pytest.importorskip("numba")
    fast, slow = (CFRSolver(build(), preset(algorithm, updates=updates)) for _ in range(2))
    assert fast.traversal is not None
    tolerance = 0.0 if build is kuhn_poker else 1e-9

    def same() -> None:
        for name in ("strategy", "regret", "strategy_sum", "true_regret", "prediction"):
            mine, theirs = getattr(fast.state, name), getattr(slow.state, name)
            np.testing.assert_allclose(mine, theirs, rtol=tolerance, atol=tolerance, err_msg=name)

    for _ in range(25):
        fast.step(1)
        slow._iterate(record=False)
        same()
        assert fast.state.weight_sum == slow.state.weight_sum
    fast.step(7)  # a chunk of several iterations in one call
    for _ in range(7):
        slow._iterate(record=False)
    same()


def test_the_presets_compose_the_pieces():
    pcfr, pdcfr = preset("pcfr+"), preset("pdcfr+")
    assert pcfr.plus and pcfr.predictive and pcfr.weighting == "uniform" and pcfr.averaging == "quadratic"
    assert pcfr.updates == pdcfr.updates == "alternating"
    assert pdcfr.plus and pdcfr.predictive and pdcfr.weighting == "discounted"
    assert (pdcfr.alpha, pdcfr.gamma) == (2.3, 5.0) and pdcfr.averaging is None
    assert pcfr.runs_on_gpu and pdcfr.runs_on_gpu  # cfr.cu: tests/solvers/tree/test_device.py
    assert pdcfr.parameters() == ("alpha", "beta", "gamma")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"weighting": "greedy", "updates": "simultaneous"}, "fixed weighting"),
        ({"sampling": "chance"}, "full traversals"),
    ],
)
def test_what_predictive_cfr_refuses(overrides, message):
    with pytest.raises(ConfigError, match=message):
        preset("pcfr+", **overrides)


def test_the_prediction_is_saved_and_restored():
    """The checkpoint holds the prediction; a run restored from one goes on bit for bit."""
    solver = CFRSolver(kuhn_poker(), preset("pdcfr+"))
    assert "prediction" in capture_layout(solver.state)
    assert "prediction" not in capture_layout(CFRSolver(kuhn_poker(), preset("cfr+")).state)
    solver.step(10)
    saved = solver.checkpoint()
    np.testing.assert_array_equal(saved.arrays["prediction"], solver.state.prediction)
    solver.step(10)
    other = CFRSolver(kuhn_poker(), preset("pdcfr+"))
    other.restore(saved)
    other.step(10)
    np.testing.assert_array_equal(other.state.strategy, solver.state.strategy)
    np.testing.assert_array_equal(other.state.prediction, solver.state.prediction)


def test_recorded_steps_show_the_predictive_strategy():
    recorded, plain = (CFRSolver(kuhn_poker(), preset("pcfr+")) for _ in range(2))
    for _ in range(4):
        record = recorded.step_recorded()
        plain.step(1)
        np.testing.assert_array_equal(record.strategy_after, plain.state.strategy)


def test_on_kuhn_prediction_beats_cfr_plus():
    """Kuhn, T = 1000 (compiled; 0.1 s): NashConv cfr+ 1.75e-4, pcfr+ 4.71e-8, pdcfr+ 2.41e-13."""
    nash_conv = {}
    for algorithm in ("cfr+", "pcfr+", "pdcfr+"):
        solver = CFRSolver(kuhn_poker(), preset(algorithm))
        solver.step(1000)
        nash_conv[algorithm] = solver.metrics().nash_conv
    assert nash_conv["pcfr+"] < nash_conv["cfr+"] / 1000
    assert nash_conv["pdcfr+"] < nash_conv["pcfr+"] / 1000


def test_leduc_at_1000_iterations_as_measured():
    """Leduc, T = 1000: CFR+ is ahead of PCFR+ there (NashConv 4.91e-4 against 1.42e-3; pdcfr+
    1.80e-3), the opposite of what issue 31 expected. LiteEFG 1.0's own PCFR+ and CFR+ on the
    same game show the same order (1.55e-3 against 4.72e-4, its linear averaging), so this is
    the algorithm on this game, not this code. By T = 10,000 pdcfr+ leads (6.6e-6 against
    cfr+'s 1.5e-5; docs/algorithms.md)."""
    pytest.importorskip("numba")
    nash_conv = {}
    for algorithm in ("cfr+", "pcfr+"):
        solver = CFRSolver(leduc_poker(), preset(algorithm))
        solver.step(1000)
        nash_conv[algorithm] = solver.metrics().nash_conv
    assert nash_conv["cfr+"] == pytest.approx(4.907e-4, rel=1e-3)
    assert nash_conv["pcfr+"] == pytest.approx(1.4243e-3, rel=1e-3)


def test_liteefg_pcfr_plus_plays_the_same_iterates():
    """LiteEFG 1.0's PCFR+ graph (``LiteEFG/baselines/PCFR.py``: R <- [R + r]_+, strategy
    [R + r]_+ normalised; its ``update_graph`` updates player 1, then player 2 against player
    1's new strategy) is rmviz's ``pcfr+`` with alternating updates. Its current strategies
    equal ours at every information set the player reaches (LiteEFG shows the uniform
    strategy where the player's own reach is 0), 100 iterations on Kuhn (measured: 1.8e-12,
    once the iterates reach an equilibrium and rmviz's tie rule zeros regrets of 1e-13; 1e-15
    before). Its "linear-avg-iterate" average weighs the strategy after update t by t:
    sum_t t pi_i(sigma^{t+1}) sigma^{t+1}, one iterate later than CFR's average (which starts
    with the uniform sigma^1); rebuilt from our iterates it agrees to 1e-15."""
    lite = pytest.importorskip("LiteEFG")
    pyspiel = pytest.importorskip("pyspiel")
    from LiteEFG.baselines.PCFR import graph

    from rmviz.formats.openspiel import infoset_label, openspiel_game

    with contextlib.redirect_stdout(io.StringIO()):  # LiteEFG prints a banner per graph
        theirs = graph()
        env = lite.OpenSpielEnv(pyspiel.load_game("kuhn_poker"), traverse_type="Enumerate", regenerate=False)
        env.set_graph(theirs)
    ours = CFRSolver(openspiel_game("kuhn_poker"), preset("pcfr+", averaging="linear"))
    tree, passes = ours.tree, ours.passes
    infoset_of = {label: i for i, label in enumerate(tree.infoset_label)}
    assert len(infoset_of) == tree.n_infosets  # Kuhn's labels name one player's set each
    shifted = np.zeros(tree.n_slots)  # LiteEFG's average, from our iterates
    for t in range(1, 101):
        theirs.update_graph(env)
        env.update_strategy(theirs.current_strategy(), update_best=False)
        ours.step(1)
        sigma = ours.state.strategy
        reach = passes.reach(passes.edge_probabilities(sigma))
        own = reach[tree.infoset_player, tree.infoset_first_node]
        shifted += t * own[tree.slot_infoset] * sigma
        average = passes.average_strategy(shifted)
        current = env.get_strategy(theirs.current_strategy(), "last-iterate")[0]
        linear = env.get_strategy(theirs.current_strategy(), "linear-avg-iterate")[0]
        for key, row in current.state_lookup.items():
            i = infoset_of[infoset_label(key)]
            first = int(tree.infoset_first_slot[i])
            where = slice(first, first + int(tree.infoset_size[i]))
            legal = current.legal_actions_mask[row].astype(bool)
            if own[i] > 0:
                np.testing.assert_allclose(
                    sigma[where], current.action_probability_array[row][legal], rtol=0, atol=1e-11
                )
            np.testing.assert_allclose(
                average[where], linear.action_probability_array[row][legal], rtol=0, atol=1e-12
            )
