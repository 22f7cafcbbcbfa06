"""The step table as LaTeX (rmviz.present.step_latex): a booktabs tabular whose rows are the
text table's, numbers in math mode; pdflatex compiles it where it is installed."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from rmviz.cli import main
from rmviz.games.catalog import catalog_game
from rmviz.present.step_latex import math_number, step_tabular
from rmviz.present.step_text import TABLE_COLUMNS
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.explain import step_explained
from rmviz.solvers.matrix.solver import RegretMinimizer


def rock_then_paper():
    solver = RegretMinimizer(catalog_game("rps"), preset("rm", play="sampled", device="cpu"))
    return step_explained(solver, (0, 1))


def body_rows(tabular: str) -> list[list[str]]:
    """The rows between \\toprule and \\bottomrule, split at unescaped ``&``."""
    inside = tabular.split("\\toprule\n", 1)[1].split("\\bottomrule", 1)[0]
    rows = []
    for line in inside.splitlines():
        if line.startswith(("\\midrule", "\\multicolumn")):
            continue
        assert line.endswith(" \\\\"), line
        rows.append([cell.strip() for cell in re.split(r"(?<!\\)&", line[:-3])])
    return rows


def test_the_tabular_has_a_header_and_a_row_per_action_and_player():
    tabular = step_tabular(rock_then_paper())
    assert tabular.count("\\begin{tabular}{lrrrrrrr}") == 1 and tabular.rstrip().endswith("\\end{tabular}")
    rows = body_rows(tabular)
    assert len(rows) == 1 + 2 * 3 and all(len(row) == len(TABLE_COLUMNS) for row in rows)
    # Rock against Paper: regrets (0, 1, 2), next strategy (0, 1/3, 2/3)
    assert rows[1:4] == [
        ["Rock", "$\\frac{1}{2}$", "$-1$", "$0$", "$0$", "$0$", "$0$", "$1$"],
        ["Paper", "$\\frac{1}{4}$", "$0$", "$1$", "$0$", "$1$", "$\\frac{1}{3}$", "$0$"],
        ["Scissors", "$\\frac{1}{4}$", "$1$", "$2$", "$0$", "$2$", "$\\frac{2}{3}$", "$0$"],
    ]
    assert "\\multicolumn{8}{l}{\\textbf{Row}: $u^t = -1$, drew Rock} \\\\" in tabular


@pytest.mark.parametrize(
    ("text", "tex"), [("-5/4", "-\\frac{5}{4}"), ("1.2e-05", "1.2 \\cdot 10^{-5}"), ("-2.711", "-2.711")]
)
def test_numbers_in_math_mode(text, tex):
    assert math_number(text) == tex


def test_rmviz_step_latex_writes_the_same_tabular(capsys):
    assert main(["step", "rps", "--actions", "Rock,Paper", "--latex"]) == 0
    assert capsys.readouterr().out == step_tabular(rock_then_paper())


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_pdflatex_compiles_it(tmp_path):
    document = "\\documentclass{article}\\usepackage{booktabs}\\begin{document}\n"
    (tmp_path / "t.tex").write_text(document + step_tabular(rock_then_paper()) + "\\end{document}\n")
    subprocess.run(["pdflatex", "-halt-on-error", "t.tex"], cwd=tmp_path, check=True, capture_output=True)
