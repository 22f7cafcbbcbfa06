r"""The game itself for LaTeX: a matrix game as a payoff table (the known equilibrium's
support shaded, its probabilities beside the actions), a game tree as a TikZ picture
(chance diamonds with their probabilities, decision nodes in their player's colour labelled
with the information set, information sets joined by dashed arcs, payoffs under the leaves;
with a run, each decision move's average-strategy probability, and edges as wide as the
average profile's reach).

Each file is a whole document that ``pdflatex`` compiles with LaTeX's base packages, xcolor
and TikZ (Debian's texlive-latex-base and texlive-pictures) into a PDF cropped to the picture;
the ``tabular`` or ``tikzpicture`` inside can be pasted into slides as it is. Layout comes from
:mod:`.layout`, the window's, so the picture is the tree the window draws.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from rmviz.figures.run import Equilibrium, RunData
from rmviz.games.catalog import known_equilibrium
from rmviz.games.normal_form import NormalFormGame
from rmviz.numbers import format_number
from rmviz.present.definitions import PLAYER_COLOURS
from rmviz.present.tree_labels import FRAME_WIDTH_CM, Box, Placed, max_leaves, plan_labels
from rmviz.present.tree_layout import collapse_below, format_probability, tree_layout, visible_nodes
from rmviz.solvers.family import Family
from rmviz.solvers.registry import MATRIX, TREE, family_of
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses, compile_tree
from rmviz.solvers.tree.solver import TreeSnapshot

MAX_TABLES = 16  # games of three or more players: one table per action of the others
SPECIAL = {c: "\\" + c for c in "&%$#_{}"} | {
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}

PREAMBLE = r"""%% {title}: written by rmviz. Compile with pdflatex; the PDF is cropped to the picture.
\documentclass{{article}}
\usepackage[table]{{xcolor}}
\usepackage{{tikz}}
\usetikzlibrary{{shapes.geometric}}
\pgfdeclarelayer{{background}}
\pgfsetlayers{{background,main}}
{colours}
\pagestyle{{empty}}
\newsavebox{{\rmvizpicture}}
\begin{{document}}
\begin{{lrbox}}{{\rmvizpicture}}
"""
# the page is the picture with a 6pt margin (pdfTeX's page size; LuaTeX's under its own name)
CLOSING = r"""\end{lrbox}
\ifdefined\pdfpagewidth\else\let\pdfpagewidth\pagewidth\let\pdfpageheight\pageheight\fi
\pdfpagewidth=\dimexpr\wd\rmvizpicture+12pt\relax
\pdfpageheight=\dimexpr\ht\rmvizpicture+\dp\rmvizpicture+12pt\relax
\hoffset=-1in \voffset=-1in
\shipout\vbox{\kern6pt\hbox{\kern6pt\usebox{\rmvizpicture}}}
\end{document}
"""


def game_document(game: Any, run: RunData | None = None, width: float = FRAME_WIDTH_CM) -> str:
    """``game`` as a LaTeX document: a matrix game's payoff table with its known equilibrium,
    or a game tree's picture at most ``width`` cm wide, with the average strategy of ``run``
    when given (the writer of the game's family: :data:`DOCUMENTS`)."""
    return DOCUMENTS[family_of(game)](game, run, width)


def matrix_document(game: NormalFormGame, run: RunData | None = None, width: float = FRAME_WIDTH_CM) -> str:
    """A matrix game's payoff table with its known equilibrium (``run`` and ``width`` add
    nothing: a table is as wide as its text)."""
    return payoff_table(game, known_equilibrium(game))


def tree_document(game: Any, run: RunData | None = None, width: float = FRAME_WIDTH_CM) -> str:
    """A game tree's picture ``width`` cm wide at most, with the average strategy of
    ``run`` when given."""
    if run is None or run.tree is None:
        return tree_picture(game.title, compile_tree(game), game.player_names, width=width)
    strategy = cast(TreeSnapshot, run.snapshot).average_strategy
    return tree_picture(game.title, run.tree, game.player_names, strategy, width)


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(SPECIAL.get(c, c) for c in text)


def number(value: float) -> str:
    """A payoff in math mode: ``$-1$``, ``$2.5$``."""
    return f"${format_number(value)}$"


def document(title: str, body: str) -> str:
    colours = "\n".join(
        f"\\definecolor{{player{i + 1}}}{{HTML}}{{{c[1:]}}}" for i, c in enumerate(PLAYER_COLOURS)
    )
    return PREAMBLE.format(title=escape(title), colours=colours) + body + CLOSING


# -- matrix games ----------------------------------------------------------------------------
def payoff_table(game: NormalFormGame, equilibrium: Equilibrium | None = None) -> str:
    """The payoff table(s) of ``game`` as a LaTeX document (see the module docstring)."""
    others = [range(k) for k in game.num_actions[2:]]
    profiles = list(itertools.product(*others))[:MAX_TABLES]
    tables = [_table(game, equilibrium, rest) for rest in profiles]
    body = "\\begin{tabular}{@{}c@{}}\n" + "\\\\[12pt]\n".join(tables) + "\\end{tabular}\n"
    return document(game.title, body)


def _action(game: NormalFormGame, player: int, action: int, equilibrium: Equilibrium | None) -> str:
    name = escape(game.action_names[player][action])
    if equilibrium is not None:
        name += (
            f" ({format_probability(equilibrium[player][action])})" if equilibrium[player][action] else " (0)"
        )
    return name


def _table(game: NormalFormGame, equilibrium: Equilibrium | None, rest: Sequence[int]) -> str:
    rows, cols = game.num_actions[:2]
    # no vertical rules: colortbl's shading paints over them
    lines = [r"\renewcommand{\arraystretch}{1.5}", f"\\begin{{tabular}}{{r{'c' * cols}}}"]
    if rest:
        given = ", ".join(
            f"{escape(game.player_names[2 + k])} plays {escape(game.action_names[2 + k][a])}"
            for k, a in enumerate(rest)
        )
        lines.append(f"\\multicolumn{{{cols + 1}}}{{c}}{{\\emph{{{given}}}}} \\\\")
    corner = (
        f"\\textcolor{{player1}}{{{escape(game.player_names[0])}}} $\\backslash$ "
        f"\\textcolor{{player2}}{{{escape(game.player_names[1])}}}"
    )
    header = " & ".join(f"\\multicolumn{{1}}{{c}}{{{_action(game, 1, c, equilibrium)}}}" for c in range(cols))
    lines += [f"\\multicolumn{{1}}{{c}}{{{corner}}} & {header} \\\\", r"\hline"]
    for r in range(rows):
        cells = []
        for c in range(cols):
            profile = (r, c, *rest)
            text = (
                "$"
                + ", ".join(format_number(game.payoffs[(i, *profile)]) for i in range(game.n_players))
                + "$"
            )
            if equilibrium is not None and all(equilibrium[i][a] > 0 for i, a in enumerate(profile)):
                text = f"\\cellcolor{{yellow!35}}{text}"  # in the equilibrium's support
            cells.append(text)
        lines.append(f"{_action(game, 0, r, equilibrium)} & {' & '.join(cells)} \\\\")
    lines.append(r"\hline")
    lines.append(r"\end{tabular}")
    if equilibrium is not None:
        lines[-1] += (
            r"\\[2pt] {\footnotesize shaded: the support of a Nash equilibrium, "
            r"its probabilities beside the actions}"
        )
    return "\\begin{tabular}{@{}c@{}}\n" + "\n".join(lines) + "\n\\end{tabular}\n"


# -- game trees ------------------------------------------------------------------------------
PT_CM = 2.54 / 72.27  # a TeX point in centimetres
MARGIN_CM = 0.45  # left and right of the outer leaves: their information sets' labels
FONTS = {r"\scriptsize": 7.0, r"\tiny": 5.0}  # the labels' font and its size in points (10pt)
ANCHORS = {
    ("center", "center"): "center",
    ("left", "center"): "west",
    ("right", "center"): "east",
    ("center", "top"): "north",
    ("right", "top"): "north east",
    ("right", "bottom"): "south east",
}


class _TexMeasure:
    """Sizes in centimetres of what the picture draws (:class:`~rmviz.present.tree_labels.Measure`):
    labels in Computer Modern at ``font`` points, 0.6 em a character (digits are 0.5 em)."""

    def __init__(self, font: float, bounds: Box) -> None:
        self.font, self.bounds, self.gap = font, bounds, 0.3 * font * PT_CM

    def size(self, lines: list[str]) -> tuple[float, float]:
        width = (0.6 * max(len(line) for line in lines) + 0.3) * self.font
        return width * PT_CM, (1.25 * len(lines) + 0.3) * self.font * PT_CM

    def marker_box(self, x: float, y: float) -> Box:
        half = 3.0 * PT_CM  # the chance diamond, 6pt across
        return Box(x - half, y - half, x + half, y + half)


def tree_picture(
    title: str,
    tree: CompiledTree,
    players: Sequence[str],
    strategy: np.ndarray | None = None,
    width: float = FRAME_WIDTH_CM,
) -> str:
    """The game tree as a TikZ document at most ``width`` cm wide (by default a beamer
    frame's text width); with ``strategy`` (per slot, the run's average strategy), each
    decision move shows its probability and edges are as wide as the average profile's
    reach. Labels and arcs go where :func:`~rmviz.present.tree_labels.plan_labels` puts
    them, as in the tree figure."""
    collapsed = collapse_below(tree, max_leaves(width / PT_CM))
    nodes = visible_nodes(tree, collapsed)
    place = tree_layout(tree, nodes, collapsed)
    leaves = max(x for x, _ in place.values()) + 1
    depth = max(d for _, d in place.values())
    unit = min(1.1, (width - 2 * MARGIN_CM) / max(leaves - 1, 1))
    command = r"\scriptsize" if unit >= 0.55 else r"\tiny"
    row = 1.3 if command == r"\scriptsize" else 1.0
    xy = {h: (MARGIN_CM + x * unit, -row * d) for h, (x, d) in place.items()}
    right = 2 * MARGIN_CM + unit * (leaves - 1)
    bottom = -row * depth - (tree.n_players + 1.5) * 1.25 * FONTS[command] * PT_CM
    measure = _TexMeasure(FONTS[command], Box(0.0, bottom, right, 0.35))
    plan = plan_labels(tree, nodes, place, collapsed, xy, row, strategy, measure)
    caption, rows = _caption(title, players, plan.note(), measure, right - 0.2)
    below = max(0.8, rows * 1.25 * FONTS[command] * PT_CM + 0.1)  # the caption's lines, all kept
    lines = [
        _picture_options(command),
        f"\\useasboundingbox (0,{_cm(bottom - below)}) rectangle ({_cm(right)},0.35);",
    ]
    lines += [_tex_node(tree, h, xy[h]) for h in nodes]
    lines += _tex_edges(tree, nodes, strategy)
    lines.append(r"\begin{pgfonlayer}{background}")  # behind the labels' white boxes
    lines += [_tex_arc(tree, a, points) for a, _, points in plan.arcs]
    lines.append(r"\end{pgfonlayer}")
    lines += [_tex_label(tree, label) for label in plan.labels]
    lines.append(
        f"\\node[anchor=north west, align=left, text width={_cm(right - 0.2)}cm, inner sep=1pt] "
        f"at (0,{_cm(bottom)}) {{{caption}}};"
    )
    lines.append(f"% {len(nodes)} nodes, {leaves:g} leaves, {_cm(right)} cm wide")
    lines.append(r"\end{tikzpicture}")
    return document(title, "\n".join(lines) + "\n")


def _caption(
    title: str, players: Sequence[str], note: str | None, measure: _TexMeasure, width: float
) -> tuple[str, int]:
    """The line under the picture: the title, the players' colours and what the labels'
    plan left out (:meth:`~rmviz.present.tree_labels.Plan.note`); with the lines it takes
    ``width`` cm wide, as :class:`_TexMeasure` estimates them."""
    said = [f"{title}: ", ", ".join(f"* {name}" for name in players), "" if note is None else f"; {note}"]
    legend = ", ".join(
        f"\\textcolor{{player{i + 1}}}{{$\\bullet$}} {escape(name)}" for i, name in enumerate(players)
    )
    tex = f"{escape(title)}: {legend}" + ("" if note is None else f"; {escape(note)}")
    return tex, math.ceil(measure.size(["".join(said)])[0] / width)


def _cm(value: float) -> str:
    """A coordinate in centimetres, to the hundredth of a millimetre, never ``-0``."""
    return format_number(round(value, 4))


def _picture_options(font: str) -> str:
    return "\n".join(
        [
            f"\\begin{{tikzpicture}}[x=1cm, y=1cm, font={font},",
            r"  chance/.style={diamond, draw, fill=black!25, inner sep=0pt, minimum size=6pt},",
            r"  decision/.style={circle, draw, inner sep=0pt, minimum size=5pt},",
            r"  terminal/.style={rectangle, fill=black!60, inner sep=0pt, minimum size=3.5pt},",
            r"  move/.style={fill=white, inner sep=0.3pt, align=center},",
            r"  note/.style={inner sep=0.3pt, align=center},",
            r"  infoset/.style={dashed, thick, opacity=0.8}]",
        ]
    )


def _tex_node(tree: CompiledTree, h: int, at: tuple[float, float]) -> str:
    kind = int(tree.kind[h])
    style = ("chance", f"decision, fill=player{int(tree.player[h]) + 1}", "terminal")[kind]
    return f"\\node[{style}] (n{h}) at ({_cm(at[0])},{_cm(at[1])}) {{}};"


def _tex_edges(tree: CompiledTree, nodes: list[int], strategy: np.ndarray | None) -> list[str]:
    """Every edge, as wide as the average profile's reach when there is a ``strategy``."""
    reach = None
    if strategy is not None:
        passes = TreePasses(tree)
        reach = passes.reach(passes.edge_probabilities(strategy)).prod(axis=0)
    lines = []
    for h in nodes:
        parent = int(tree.parent[h])
        if parent >= 0:
            width = "" if reach is None else f"[line width={0.4 + 2.6 * float(reach[h]):.2f}pt]"
            lines.append(f"\\draw{width} (n{parent}) -- (n{h});")
    return lines


def _tex_arc(tree: CompiledTree, a: int, points: list[tuple[float, float]]) -> str:
    """The plan's arc as the cubic equal to its quadratic (control point from its middle)."""
    (xa, ya), (xb, yb) = points[0], points[-1]
    mx, my = points[len(points) // 2]
    cx, cy = 2 * mx - (xa + xb) / 2, 2 * my - (ya + yb) / 2
    c1 = (xa + 2 / 3 * (cx - xa), ya + 2 / 3 * (cy - ya))
    c2 = (xb + 2 / 3 * (cx - xb), yb + 2 / 3 * (cy - yb))
    where = " .. ".join(
        [
            f"({_cm(xa)},{_cm(ya)})",
            f"controls ({_cm(c1[0])},{_cm(c1[1])}) and ({_cm(c2[0])},{_cm(c2[1])})",
            f"({_cm(xb)},{_cm(yb)})",
        ]
    )
    return f"\\draw[infoset, player{int(tree.player[a]) + 1}] {where};"


def _tex_label(tree: CompiledTree, label: Placed) -> str:
    """A label of the plan at its anchor: a move's on a white box in the deciding player's
    colour (a chance move's black), an information set's in its player's colour."""
    h, style, colour = label.h, "note", "black"
    if label.kind == "infoset":
        colour = f"player{int(tree.player[h]) + 1}"
    elif label.kind == "move":
        style = "move"
        if tree.edge_slot[h] >= 0:
            colour = f"player{int(tree.player[int(tree.parent[h])]) + 1}"
    text = "\\\\".join(escape(line) for line in label.lines)
    anchor = ANCHORS[(label.ha, label.va)]
    return f"\\node[{style}, anchor={anchor}, text={colour}] at ({_cm(label.x)},{_cm(label.y)}) {{{text}}};"


# the LaTeX writer of each family
DOCUMENTS: dict[Family, Callable[[Any, RunData | None, float], str]] = {
    MATRIX: matrix_document,
    TREE: tree_document,
}
