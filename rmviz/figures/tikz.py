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
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from rmviz.figures.run import Equilibrium, RunData
from rmviz.games.catalog import known_equilibrium
from rmviz.games.normal_form import NormalFormGame
from rmviz.numbers import format_number
from rmviz.present.definitions import PLAYER_COLOURS
from rmviz.present.tree_layout import format_probability, infoset_links, tree_layout, visible_nodes
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


def game_document(game: Any, run: RunData | None = None) -> str:
    """``game`` as a LaTeX document: a matrix game's payoff table with its known equilibrium,
    or a game tree's picture, with the average strategy of ``run`` when given (the writer of
    the game's family: :data:`DOCUMENTS`)."""
    return DOCUMENTS[family_of(game)](game, run)


def matrix_document(game: NormalFormGame, run: RunData | None = None) -> str:
    """A matrix game's payoff table with its known equilibrium (``run`` adds nothing)."""
    return payoff_table(game, known_equilibrium(game))


def tree_document(game: Any, run: RunData | None = None) -> str:
    """A game tree's picture, with the average strategy of ``run`` when given."""
    if run is None or run.tree is None:
        return tree_picture(game.title, compile_tree(game), game.player_names)
    strategy = cast(TreeSnapshot, run.snapshot).average_strategy
    return tree_picture(game.title, run.tree, game.player_names, strategy)


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
def tree_picture(
    title: str, tree: CompiledTree, players: Sequence[str], strategy: np.ndarray | None = None
) -> str:
    """The game tree as a TikZ document; with ``strategy`` (per slot, the run's average
    strategy), each decision move shows its probability and edges are as wide as the
    average profile's reach."""
    nodes = visible_nodes(tree)
    place = tree_layout(tree, nodes)
    reach = None
    if strategy is not None:
        passes = TreePasses(tree)
        reach = passes.reach(passes.edge_probabilities(strategy)).prod(axis=0)
    lines = [
        r"\begin{tikzpicture}[x=11mm, y=17mm, font=\footnotesize,",
        r"  chance/.style={diamond, draw, fill=black!25, inner sep=2pt},",
        r"  decision/.style={circle, draw, inner sep=2.5pt},",
        r"  terminal/.style={rectangle, fill=black!60, inner sep=1.8pt},",
        r"  move/.style={fill=white, inner sep=1pt, align=center, font=\scriptsize},",
        r"  every label/.style={fill=white, inner sep=1pt},",
        r"  infoset/.style={dashed, thick, opacity=0.8}]",
    ]
    for h in nodes:
        x, depth = place[h]
        kind = int(tree.kind[h])
        where = f"at ({format_number(x)},{format_number(-depth)})"  # the root: (x,0), not (x,-0)
        if kind == 0:
            lines.append(f"\\node[chance] (n{h}) {where} {{}};")
        elif kind == 1:
            player = int(tree.player[h]) + 1
            label = escape(tree.infoset_label[int(tree.node_infoset[h])])
            lines.append(
                f"\\node[decision, fill=player{player}, label={{left:{{{label}}}}}] (n{h}) {where} {{}};"
            )
        else:
            payoffs = ", ".join(number(float(v)) for v in tree.payoffs[:, h])
            lines.append(f"\\node[terminal, label={{below:{{{payoffs}}}}}] (n{h}) {where} {{}};")
    for h in nodes:
        parent = int(tree.parent[h])
        if parent < 0:
            continue
        text = escape(tree.move_label[h])
        slot = int(tree.edge_slot[h])
        if tree.edge_owner[h] == tree.n_players:
            text += f"\\\\{format_probability(float(tree.chance_probability[h]))}"
        elif slot >= 0 and strategy is not None:
            probability = format_number(strategy[slot], ".2f")
            text += f"\\\\\\textcolor{{player{int(tree.player[parent]) + 1}}}{{{probability}}}"
        width = "" if reach is None else f"[line width={0.4 + 2.6 * float(reach[h]):.2f}pt]"
        lines.append(f"\\draw{width} (n{parent}) -- node[move, pos=0.65] {{{text}}} (n{h});")
    # information sets behind everything: the white boxes of the labels hide the arcs
    lines.append(r"\begin{pgfonlayer}{background}")
    for a, b in infoset_links(tree, nodes, place):
        player = int(tree.player[a]) + 1
        lines.append(f"\\draw[infoset, player{player}] (n{a}) to[bend left=25] (n{b});")
    lines.append(r"\end{pgfonlayer}")
    legend = ", ".join(
        f"\\textcolor{{player{i + 1}}}{{$\\bullet$}} {escape(name)}" for i, name in enumerate(players)
    )
    top = max(x for x, _ in place.values())
    lines.append(f"\\node[anchor=south west, align=left] at (-0.5,0.4) {{{escape(title)}: {legend}}};")
    lines.append(f"% {len(nodes)} nodes, {top + 1:g} leaves wide")
    lines.append(r"\end{tikzpicture}")
    return document(title, "\n".join(lines) + "\n")


# the LaTeX writer of each family
DOCUMENTS: dict[Family, Callable[[Any, RunData | None], str]] = {MATRIX: matrix_document, TREE: tree_document}
