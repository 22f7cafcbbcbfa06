"""rmviz export --width (issue 29): the tree figure and the TikZ tree are a beamer frame's
text width by default (10.8 cm) and as wide as asked; a length is read with its unit."""

from __future__ import annotations

import re

import pytest

from rmviz.arguments import length_inches
from rmviz.cli import main
from rmviz.present.tree_labels import FRAME_WIDTH_CM


def tikz_width(path) -> float:
    x0, _, x1, _ = map(
        float,
        re.search(
            r"useasboundingbox \(([-\d.]+),([-\d.]+)\) rectangle \(([-\d.]+),([-\d.]+)\)", path.read_text()
        ).groups(),
    )
    return x1 - x0


def test_the_tikz_tree_is_a_frame_wide_by_default_and_as_wide_as_asked(tmp_path):
    assert main(["export", "kuhn", "-n", "10", "--figure", "tikz", "-o", str(tmp_path / "a.tex")]) == 0
    assert tikz_width(tmp_path / "a.tex") <= FRAME_WIDTH_CM
    assert (
        main(
            [
                "export",
                "kuhn",
                "-n",
                "10",
                "--figure",
                "tikz",
                "--width",
                "8cm",
                "-o",
                str(tmp_path / "b.tex"),
            ]
        )
        == 0
    )
    assert tikz_width(tmp_path / "b.tex") <= 8.0


def test_the_tree_figure_takes_the_width(tmp_path):
    from matplotlib.image import imread

    out = tmp_path / "tree.png"
    assert (
        main(
            [
                "export",
                "kuhn",
                "-n",
                "10",
                "--figure",
                "tree",
                "--width",
                "4in",
                "--dpi",
                "100",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    assert imread(out).shape[1] == 400


@pytest.mark.parametrize(
    ("text", "inches"),
    [("10.8cm", 10.8 / 2.54), ("120mm", 120 / 25.4), ("4.25in", 4.25), ("72.27pt", 1.0), ("2.54", 1.0)],
)
def test_a_length_is_read_with_its_unit(text, inches):
    assert length_inches(text) == pytest.approx(inches)


def test_a_bad_width_is_one_line_and_status_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["export", "kuhn", "--figure", "tikz", "--width=-3cm", "-o", str(tmp_path / "a.tex")])
    assert exit.value.code == 2
    assert "'-3cm' is not a positive length" in capsys.readouterr().err
