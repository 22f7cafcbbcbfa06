"""The game for LaTeX: payoff tables and TikZ trees that pdflatex compiles (skipped where
pdflatex is not installed; Debian: texlive-latex-base and texlive-pictures)."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess

import numpy as np
import pytest

from rmviz.figures import record, save_figure
from rmviz.figures.tikz import escape, game_document
from rmviz.games import catalog_game
from rmviz.games.generators import random_game
from rmviz.present.tree_labels import FRAME_WIDTH_CM
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
    assert 6 <= tex.count("[infoset, player") <= 12  # arcs of neighbours; far ones where clear
    assert "line width=" in tex and "1/3" in tex  # reach, chance probabilities
    check_pdf(compiled(tex, tmp_path, "kuhn"), tmp_path)
    plain = game_document(tree_run.game)  # without a run: the game alone
    assert "line width=" not in plain
    for text in (tex, plain):  # no "-0" in a number or a coordinate (the root was at (x,-0))
        assert not re.search(r"(?<![\w.])-0(?![.\d]*[1-9])", text)
    compiled(plain, tmp_path, "kuhn-plain")


def test_the_picture_says_what_it_leaves_out_and_keeps_every_caption_line():
    """Kuhn at a frame's width: the TikZ picture leaves probabilities and moves out for room
    and says so under it, counted from the labels it writes; the bounding box holds the
    caption's lines however many they are (the PDF is cropped to it)."""
    from tests.figures.test_tree_labels import kuhn_numbers_left_out

    run = record(catalog_game("kuhn"), "cfr", iterations=1000)
    tex = game_document(run.game, run)
    written = [text.replace("\\\\", "\n") for _, _, _, text in LABEL.findall(tex)]
    moves = sum(bool(re.fullmatch(r"[pb]([ \n][0-9.]+)?", t)) for t in written)
    note = re.search(r"; left out for room: ([\d,]+) probabilities, ([\d,]+) moves\}", tex)
    assert note is not None
    assert int(note[2]) == 48 - moves
    assert int(note[1]) == kuhn_numbers_left_out(written) - (48 - moves)  # a move left out is counted once
    from rmviz.figures.tikz import tree_picture

    for title, lines in (("Kuhn", 1), ("Kuhn poker " * 80, 9)):  # 880 characters at 3 pt and more
        picture = tree_picture(title, run.tree, ("1", "2"))
        font = 5.0 if "font=\\tiny" in picture else 7.0
        _, y0, _, _ = (float(v) for v in BOX.search(picture).groups())
        anchor = float(re.search(r"north west.* at \(0,(-?[\d.]+)\) \{Kuhn", picture)[1])
        assert anchor - y0 >= max(0.8, lines * 1.25 * font * 2.54 / 72.27)  # cm


def test_names_are_escaped():
    assert escape("R&D_1 {50%} #2 $") == "R\\&D\\_1 \\{50\\%\\} \\#2 \\$"


def test_information_set_arcs_run_behind_the_labels(tree_run):
    text = game_document(tree_run.game, tree_run)
    arcs = text[text.index(r"\begin{pgfonlayer}{background}") : text.index(r"\end{pgfonlayer}")]
    assert "infoset" in arcs and r"\pgfsetlayers{background,main}" in text
    assert "move/.style={fill=white" in text  # move labels hide the arcs behind them


BOX = re.compile(r"\\useasboundingbox \((-?[\d.]+),(-?[\d.]+)\) rectangle \((-?[\d.]+),(-?[\d.]+)\)")


def picture_width(tex: str) -> float:
    x0, _, x1, _ = (float(v) for v in BOX.search(tex).groups())
    return x1 - x0


@pytest.mark.parametrize("name", ["kuhn", "leduc", "teaching-tree"])
def test_a_tree_fits_a_beamer_frames_width_by_default(name):
    """Kuhn's picture was 13 inches wide (11 mm a leaf); the frame's text is 10.8 cm."""
    tex = game_document(catalog_game(name))
    assert picture_width(tex) <= FRAME_WIDTH_CM + 1e-9
    assert picture_width(game_document(catalog_game(name), width=20.0)) <= 20.0 + 1e-9


LABEL = re.compile(
    r"\\node\[(?:move|note), anchor=([a-z ]+), text=\w+\] at \((-?[\d.]+),(-?[\d.]+)\) \{(.*)\};"
)
ARC = re.compile(
    r"\\draw\[infoset, player\d\] "
    + r"\((-?[\d.]+),(-?[\d.]+)\) \.\. " * 1
    + r"controls "
    + r"\((-?[\d.]+),(-?[\d.]+)\) and \((-?[\d.]+),(-?[\d.]+)\) \.\. \((-?[\d.]+),(-?[\d.]+)\);"
)
HA_VA = {
    "center": ("center", "center"),
    "west": ("left", "center"),
    "east": ("right", "center"),
    "north": ("center", "top"),
    "north east": ("right", "top"),
    "south east": ("right", "bottom"),
}


def written_labels(tex: str):
    """The label boxes of the written picture, sized as the writer sizes them."""
    from rmviz.figures.tikz import _TexMeasure
    from rmviz.present.tree_labels import Box, text_box

    measure = _TexMeasure(5.0 if "font=\\tiny" in tex else 7.0, Box(0, 0, 0, 0))
    boxes = []
    for anchor, x, y, text in LABEL.findall(tex):
        lines = text.replace("\\\\", "\n").replace("\\", "").splitlines()
        boxes.append((text, text_box(float(x), float(y), *measure.size(lines), *HA_VA[anchor])))
    return boxes


def written_arcs(tex: str):
    """Each arc of the written picture as points along its cubic."""
    arcs = []
    for values in ARC.findall(tex):
        p0, p1, p2, p3 = (np.array(values[k : k + 2], dtype=float) for k in range(0, 8, 2))
        t = np.linspace(0, 1, 60)[:, None]
        arcs.append((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3)
    return arcs


@pytest.mark.parametrize("name", ["kuhn", "teaching-tree", "leduc"])
def test_no_arc_of_the_picture_passes_through_a_label(name):
    from rmviz.present.tree_labels import segment_meets_box

    tex = game_document(catalog_game(name))
    boxes, arcs = written_labels(tex), written_arcs(tex)
    assert boxes and (arcs or name == "leduc")
    crossed = [
        text
        for points in arcs
        for text, box in boxes
        if any(segment_meets_box(tuple(p), tuple(q), box) for p, q in itertools.pairwise(points))
    ]
    assert crossed == []
    overlapping = [(a, b) for (a, p), (b, q) in itertools.combinations(boxes, 2) if p.meets(q)]
    assert overlapping == []
