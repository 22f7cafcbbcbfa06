"""The game for LaTeX: payoff tables and TikZ trees that pdflatex compiles (skipped where
pdflatex is not installed; Debian: texlive-latex-base and texlive-pictures)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from rmviz.figures import save_figure
from rmviz.figures.tikz import escape, game_document
from rmviz.games import catalog_game
from rmviz.games.generators import random_game
from tests.figures.checks import check_pdf

PDFLATEX = shutil.which("pdflatex")


def compiled(tex: str, tmp_path, name: str):
    """``tex`` compiled by pdflatex: the PDF (the test is skipped without pdflatex)."""
    if PDFLATEX is None:
        pytest.skip("pdflatex is not installed (Debian: texlive-latex-base texlive-pictures)")
    (tmp_path / f"{name}.tex").write_text(tex)
    result = subprocess.run(
        [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:]
    return tmp_path / f"{name}.pdf"


def test_a_payoff_table_with_its_equilibrium(tmp_path):
    tex = game_document(catalog_game("rps-crash"))
    assert "Rock (1/4)" in tex and "Paper (1/2)" in tex  # equilibrium probabilities by the actions
    assert tex.count("\\cellcolor") == 9  # the support: every cell of a fully mixed equilibrium
    assert "$-1, 1$" in tex
    check_pdf(compiled(tex, tmp_path, "rps"), tmp_path)


def test_three_players_get_a_table_per_action_of_the_third(tmp_path):
    tex = game_document(random_game("general-sum", (2, 2, 3), seed=1))
    assert tex.count("\\begin{tabular}{rcc}") == 3 and "plays" in tex
    compiled(tex, tmp_path, "three")


def test_a_game_tree_with_the_runs_numbers(tree_run, tmp_path):
    path = save_figure("tikz", tree_run, tmp_path / "kuhn.tex")
    tex = path.read_text()
    assert tex.count("\\node[chance]") == 4 and tex.count("\\node[terminal") == 30
    assert tex.count("[infoset, player") == 12  # one dashed link per pair of a two-node information set
    assert "line width=" in tex and "1/3" in tex  # reach, chance probabilities
    check_pdf(compiled(tex, tmp_path, "kuhn"), tmp_path)
    plain = game_document(tree_run.game)  # without a run: the game alone
    assert "line width=" not in plain
    for text in (tex, plain):  # no "-0" in a number or a coordinate (the root was at (x,-0))
        assert not re.search(r"(?<![\w.])-0(?![.\d]*[1-9])", text)
    compiled(plain, tmp_path, "kuhn-plain")


def test_names_are_escaped():
    assert escape("R&D_1 {50%} #2 $") == "R\\&D\\_1 \\{50\\%\\} \\#2 \\$"


def test_information_set_arcs_run_behind_the_labels(tree_run):
    from rmviz.figures.tikz import game_document

    text = game_document(tree_run.game, tree_run)
    arcs = text[text.index(r"\begin{pgfonlayer}{background}") : text.index(r"\end{pgfonlayer}")]
    assert "infoset" in arcs and r"\pgfsetlayers{background,main}" in text
    assert "every label/.style={fill=white" in text  # node labels hide the arcs behind them
