"""The matrix step mode's text (rmviz.present.step_text) on the lecture's Battle of the
Partners: the table and the formulas of iteration 1 from uniform, and a swap-regret table."""

from __future__ import annotations

from rmviz.games.catalog import catalog_game
from rmviz.present.step_text import TABLE_COLUMNS, format_step, formulas, swap_rows, table_rows
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.explain import step_explained
from rmviz.solvers.matrix.solver import RegretMinimizer


def test_the_first_iteration_of_regret_matching_as_a_table():
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("rm", device="cpu"))
    step = step_explained(solver)
    assert format_step(step).splitlines()[:5] == [
        "iteration 1: t = 1, every iteration weight 1",
        "  Cat: payoff u = 19/4",
        "     action  pi^t  U(a)  r^t(a)  R^t-1(a)  R^t(a)  pi^t+1  average",
        "     Cinema   1/2     6     5/4         0     5/4       1      1/2",
        "    Dancing   1/2   7/2    -5/4         0    -5/4       0      1/2",
    ]
    rows = table_rows(step.players[1])
    assert [len(row) for row in rows] == [len(TABLE_COLUMNS)] * 2
    assert formulas(step, 0) == [
        "U(a) = u(a, pi_-i^t) against the others' strategies = (6, 7/2)",
        "u^t = sum_a pi^t(a) U(a) = 1/2*6 + 1/2*7/2 = 19/4",
        "r^t(a) = U(a) - u^t = (5/4, -5/4)",
        "R^t = R^t-1 + r^t: (0, 0) -> (5/4, -5/4)",
        "pi^t+1(a) = [R^t(a)]_+ / (5/4) = (1, 0)",
        "average = S^t / sum S^t, S^t = S^t-1 + pi^t: (1/2, 1/2)",
    ]


def test_internal_regret_shows_the_swap_matrix():
    """r(b, a) = pi(b) (U(a) - U(b)): Cinema -> Dancing 1/2 (7/2 - 6) = -5/4."""
    solver = RegretMinimizer(catalog_game("battle-of-partners"), preset("internal-rm", device="cpu"))
    step = step_explained(solver)
    player = step.players[0]
    assert swap_rows(player) == [("Cinema -> ", "0", "-5/4"), ("Dancing -> ", "5/4", "0")]
    assert "    swap regrets R^t(b, a): Cinema ->  0 -5/4; Dancing ->  5/4 0" in format_step(step)


def test_internal_regret_heads_its_regret_columns_by_what_they_hold():
    """With internal regrets the table's regret columns hold the swap regrets' column sums
    (expected play; each the external regret of a) or the drawn action's row (sampled), and
    pi^t+1 is the chain's stationary distribution, not their regret matching: "R^t(a)"
    beside it read as the regrets pi^t+1 matches. Heads, values (exact fractions) and the
    LaTeX table's heads; external regrets keep TABLE_COLUMNS."""
    from fractions import Fraction

    from rmviz.present.step_latex import step_tabular
    from rmviz.present.step_text import table_headers, typeset_header

    solver = RegretMinimizer(catalog_game("rps-crash"), preset("internal-rm", device="cpu"))
    solver.step(1)
    step = step_explained(solver)
    player = step.players[0]
    heads = table_headers(player)
    assert heads[3:6] == ("sum_b r^t(b,a)", "sum_b R^t-1(b,a)", "sum_b R^t(b,a)")
    assert heads[:3] + heads[6:] == TABLE_COLUMNS[:3] + TABLE_COLUMNS[6:]
    assert format_step(step).splitlines()[2].split() == " ".join(heads).split()
    swap = [[Fraction(c) for c in row[1:]] for row in swap_rows(player)]
    for a, row in enumerate(table_rows(player)):
        assert Fraction(row[5]) == sum(swap[b][a] for b in range(3))  # the column sum of R^t
    assert r"$\sum_b R^t(b, a)$ & $\pi^{t+1}$" in step_tabular(step)
    sampled = RegretMinimizer(catalog_game("rps-crash"), preset("internal-rm", device="cpu", play="sampled"))
    step = step_explained(sampled)
    assert table_headers(step.players[0])[3:6] == ("r^t(b,a)", "R^t-1(b,a)", "R^t(b,a)")
    assert r"$R^t(b, a)$" in step_tabular(step)
    rm = step_explained(RegretMinimizer(catalog_game("rps-crash"), preset("rm", device="cpu")))
    assert table_headers(rm.players[0]) == TABLE_COLUMNS
    # the window's heads: the same, typeset
    assert [typeset_header(h) for h in heads[3:6]] == ["Σ_b rᵗ(b,a)", "Σ_b Rᵗ⁻¹(b,a)", "Σ_b Rᵗ(b,a)"]


def mixed(cells) -> bool:
    """Whether a column writes some entries as fractions and others as decimals."""
    return any("/" in c for c in cells) and any(("." in c or "e" in c) and "/" not in c for c in cells)


def test_a_column_is_fractions_or_decimals_never_both():
    """Issue 29: a column read "-2.711, 2/9, 0.08889". Over random games of three kinds and
    every matrix preset, no column of a step table, no vector and no swap matrix mixes them."""
    from rmviz.games.generators import KINDS, random_game
    from rmviz.present.number_text import column
    from rmviz.present.step_text import vector
    from rmviz.solvers.matrix.config import PRESETS

    assert column([-2.711, 2 / 9, 4 / 45]) == ["-2.711", "0.2222", "0.08889"]
    assert column([-5 / 4, 2 / 9, 0.0]) == ["-5/4", "2/9", "0"]
    checked = 0
    for seed, (kind, shape) in enumerate([(k, s) for k in KINDS for s in ((2, 3), (3, 3))]):
        game = random_game(kind, shape, seed=seed)
        for algorithm in PRESETS:
            for play in ("expected", "sampled"):
                solver = RegretMinimizer(game, preset(algorithm, device="cpu", play=play, seed=seed))
                for _ in range(4):
                    step = step_explained(solver)
                    for player in step.players:
                        rows = table_rows(player)
                        for c in range(1, len(TABLE_COLUMNS)):
                            assert not mixed([row[c] for row in rows]), (algorithm, play, rows)
                            checked += 1
                        for values in (player.utilities, player.next_strategy, player.average):
                            assert not mixed(vector(values)[1:-1].split(", "))
                        if player.cumulative_after.ndim == 2:
                            assert not mixed([cell for row in swap_rows(player) for cell in row[1:]])
                    for group in line_groups(step):
                        assert not mixed(group), (algorithm, play, group)
                        checked += 1
    assert checked > 1000


NUMBER = r"(-?[\d.e+-]+(?:/\d+)?)"


def line_groups(step):
    """The numbers that one formula line compares or combines: the greedy weights, the
    greedy potentials, the discounts, the payoff's sum (each term and the total) and the
    average's weights, as written by weights_line and formulas."""
    import re

    from rmviz.present.step_text import weights_line

    weights = weights_line(step)
    groups = []
    for pattern in (
        rf"lam = {NUMBER} .*1 - lam = {NUMBER}; uniform would be lam = {NUMBER}\)",
        rf"potential {NUMBER} against {NUMBER}",
        rf"d\+ = {NUMBER}, d- = {NUMBER}",
    ):
        found = re.search(pattern, weights)
        if found:
            groups.append(list(found.groups()))
    for i in range(len(step.players)):
        for line in formulas(step, i):
            if line.startswith("u^t = sum_a"):
                groups.append(
                    re.findall(r"-?\d[\d.e+-]*(?:/\d+)?", line.partition(" = ")[2].partition(" = ")[2])
                )
            found = re.search(rf"S\^t = {NUMBER} S\^t-1 \+ {NUMBER} ", line)
            if found:
                groups.append(list(found.groups()))
    return groups


def test_the_numbers_a_formula_line_compares_share_one_form():
    """Greedy RM's second step compared a decimal potential with a fractional one
    ("potential 0.321 against 5/9"); the line now writes both as decimals."""
    from rmviz.present.step_text import weights_line

    solver = RegretMinimizer(catalog_game("rps-crash"), preset("greedy-rm", device="cpu"))
    step_explained(solver)
    line = weights_line(step_explained(solver))
    assert "lam = 2/3" in line and "potential 0.321 against 0.5556" in line
    assert [g for g in line_groups(step_explained(solver)) if mixed(g)] == []
