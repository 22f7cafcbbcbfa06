"""The tree explanation's text (rmviz.present.tree_explain): each algorithm's formulas, what
alternating updates change, the HTML and the plain text as one explanation. Its numbers are
checked against the solver and the lecture's CFR in tests/solvers/tree/test_explain.py."""

from __future__ import annotations

import re

from rmviz.games.trees import kuhn_poker, teaching_tree
from rmviz.present.number_text import number
from rmviz.present.tree_explain import explanation_html, explanation_text, plain, sections
from rmviz.solvers.tree.config import PRESETS
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.explain import explain_infoset
from rmviz.solvers.tree.solver import CFRSolver


def test_each_algorithm_gets_its_own_formulas():
    expected = {
        "cfr": ["R^T(J, m) = R^{T-1}(J, m) + r^T(J, m)", "S^T(J, m) = S^{T-1}(J, m) + π_i(J) π^T(J)(m)"],
        "cfr+": [
            "R^T(J, m) = [R^{T-1}(J, m) + r^T(J, m)]^+",
            "floored at 0 (Tammelin 2014)",
            "S^T(J, m) = ((T−1)/T) S^{T-1}(J, m) + π_i(J) π^T(J)(m)",
            "Regret matching+",
        ],
        "linear-cfr": [
            "R^T(J, m) = ((T−1)/T) R^{T-1}(J, m) + r^T(J, m)",
            "(T−1)/T = 0.6667",
            "S^T(J, m) = ((T−1)/T) S^{T-1}(J, m) + π_i(J) π^T(J)(m)",
        ],
        "dcfr": [
            "R^T(J, m) = d_+ [R^{T-1}(J, m)]^+ + d_− [R^{T-1}(J, m)]^− + r^T(J, m)",
            "α = 1.5, β = 0, s = 2",
            f"d_+ = {number(2**1.5 / (2**1.5 + 1))}, d_− = 0.5",
            f"γ = 2: ((T−1)/T)^γ = {number((2 / 3) ** 2)}",
            "S^T(J, m) = ((T−1)/T)^γ S^{T-1}(J, m) + π_i(J) π^T(J)(m)",
        ],
        "pcfr+": [
            "R^T(J, m) = [R^{T-1}(J, m) + r^T(J, m)]^+",
            "Predictive regret matching+: π^{T+1}(J)(m) = [G(J, m)]^+ / Σ_a [G(J, a)]^+",
            "with G = d' R^T + r^T",
            "G(J, L) = 2.101, G(J, R) = 1.418",
            "π^{T+1}(J)(L) = 2.101 / 3.519 = 0.5971",
            "S^T(J, m) = ((T−1)/T)^2 S^{T-1}(J, m) + π_i(J) π^T(J)(m)",
        ],
        "pdcfr+": ["α = 2.3, β = 0, s = 2", "γ = 5: ((T−1)/T)^γ", "Predictive regret matching+"],
        "greedy-cfr": ["R^T(J, m) = λ R^{T-1}(J, m) + c r^T(J, m)", "S^T(J, m) = λ S^{T-1}(J, m) + c π_i(J)"],
        "mccfr-chance": ["Chance is sampled", "R^T(J, m) = R^{T-1}(J, m) + r^T(J, m)"],
        "mccfr-external": [
            "Chance and the other players are sampled",
            "S^T(J, m) = S^{T-1}(J, m) + n(J) π(J)(m)",
        ],
        "mccfr-outcome": [
            "One terminal history z is sampled",
            "exploration ε = 0.6",
            "S^T(J, m) = S^{T-1}(J, m) + (π_i(h) / q(h)) π^T(J)(m)",
        ],
    }
    # a new preset needs its formulas checked here; EFR records no step (EFRSolver.step_recorded)
    assert set(expected) == set(PRESETS) - {"efr"}
    for algorithm, phrases in expected.items():
        solver = CFRSolver(teaching_tree(), cfr_preset(algorithm))
        for _ in range(3):
            record = solver.step_recorded()
        step = explain_infoset(solver.tree, solver.config, solver.game.player_names, record, 0)
        text = explanation_text(step)
        assert f"Iteration T = 3 of {PRESETS[algorithm][0]}" in text
        for phrase in phrases:
            assert phrase in text, (algorithm, phrase)


def test_alternating_updates_say_why_player_2_sees_player_1s_new_strategy():
    """Teaching tree, T = 1: player 1 moves to L with probability 1 after its traversal, so
    player 2 reaches [X, L] with 1/2 x 1 = 0.5; the start strategy (uniform) gives 0.25."""
    for updates, reach in (("alternating", 0.5), ("simultaneous", 0.25)):
        solver = CFRSolver(teaching_tree(), cfr_preset("cfr", updates=updates))
        record = solver.step_recorded()
        j = solver.tree.infoset_label.index("2X")
        step = explain_infoset(solver.tree, solver.config, solver.game.player_names, record, j)
        row = next(h for h in step.histories if h.path == ("X", "L"))
        assert row.reach == reach and row.reach_at_start == 0.25
        text = explanation_text(step)
        if updates == "alternating":
            assert step.updated_before == (0,)
            assert "P(h | π_{-i}) = 0.5 (with everyone's π^T: 0.25)" in text
            assert "Updates alternate: Player 1 updated earlier in this iteration" in text
            assert (
                "P(h | π_{-i}) = 0.5 at h = [X; L], where the strategies of the iteration's start "
                "π^T give 0.25" in text
            )
        else:
            assert step.updated_before == () and "Updates alternate" not in text
            assert "simultaneous updates" in text


def test_the_html_and_the_text_are_one_explanation():
    solver = CFRSolver(kuhn_poker(), cfr_preset("cfr+"))
    solver.step(5)
    record = solver.step_recorded()
    j = solver.tree.infoset_label.index("Qpb")
    step = explain_infoset(solver.tree, solver.config, solver.game.player_names, record, j)
    page = explanation_html(step)
    assert page.startswith("<h3>Information set J = “Qpb” of Player 1 (i = 1)</h3>")
    text = explanation_text(step)
    for title, body in sections(step):
        assert f"<b>{title}</b> {body}" in page if title else body in page
        assert (f"{title}: {plain(body)}" if title else plain(body)) in text
    assert plain("R<sup>T-1</sup>(J, m) &minus; π<sub>i</sub>") == "R^{T-1}(J, m) − π_i"


def test_the_strategy_sum_says_how_it_relates_to_the_lectures_table():
    """The lecture adds p_i x profile once per history of J; rmviz once per information set:
    the explanation claimed the lecture's table, whose sums are |J| times these."""
    solver = CFRSolver(teaching_tree(), cfr_preset("cfr", updates="simultaneous"))
    record = solver.step_recorded()
    j = solver.tree.infoset_label.index("1")  # histories [X] and [Y]
    text = explanation_text(explain_infoset(solver.tree, solver.config, solver.game.player_names, record, j))
    assert "for each of J's 2 histories" in text and "its sums are 2 times these" in text
    assert "S(J, L) = 0 + 1·0.5 = 0.5" in text  # the lecture's table holds 1: twice this


def test_predictive_cfr_says_the_discount_its_guide_applies(capsys):
    """G = d' R + r: a student redoes it only with d', DCFR's discount of the next iteration
    (pdcfr+, alpha 2.3: 1/2 after iteration 1, 2^2.3 / (2^2.3 + 1) = 0.8312 after 2)."""
    from rmviz.cli import main

    assert main(["step", "kuhn", "-a", "pdcfr+", "-n", "2", "--infoset", "J"]) == 0
    shown = re.findall(r"here d' = ([0-9./]+)", capsys.readouterr().out)
    assert shown[:2] == ["0.5", "0.8312"]
    assert main(["step", "kuhn", "-a", "pcfr+", "-n", "1", "--infoset", "J"]) == 0
    assert "here d' = 1:" in capsys.readouterr().out
