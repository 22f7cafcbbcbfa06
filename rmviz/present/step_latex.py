"""One matrix-game iteration as a LaTeX table (the *Step* tab's *Copy as LaTeX*, ``rmviz step
--latex``): the rows and cells of :func:`~rmviz.present.step_text.table_rows`, a block per
player, as a booktabs ``tabular`` (``\\toprule``, ``\\midrule``, ``\\bottomrule``; the
preamble needs ``\\usepackage{booktabs}``). Fractions are written ``\\frac{p}{q}``, decimals
in scientific notation ``1.2 \\cdot 10^{-5}``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rmviz.present.number_text import fraction
from rmviz.present.step_text import TABLE_COLUMNS, table_headers, table_rows

if TYPE_CHECKING:
    from rmviz.solvers.matrix.explain import IterationStep, PlayerStep

HEADERS = {
    "action": "action",
    "pi^t": r"$\pi^t$",
    "U(a)": r"$U(a)$",
    "r^t(a)": r"$r^t(a)$",
    "R^t-1(a)": r"$R^{t-1}(a)$",
    "R^t(a)": r"$R^t(a)$",
    "pi^t+1": r"$\pi^{t+1}$",
    "average": r"$\bar{\pi}^t$",
    # internal regrets (step_text.table_headers): the swap regrets' column sums or row b
    "sum_b r^t(b,a)": r"$\sum_b r^t(b, a)$",
    "sum_b R^t-1(b,a)": r"$\sum_b R^{t-1}(b, a)$",
    "sum_b R^t(b,a)": r"$\sum_b R^t(b, a)$",
    "r^t(b,a)": r"$r^t(b, a)$",
    "R^t-1(b,a)": r"$R^{t-1}(b, a)$",
    "R^t(b,a)": r"$R^t(b, a)$",
}
SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
NUMBER = re.compile(r"(-?)(\d+)/(\d+)|(-?[\d.]+)e([+-]\d+)")


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(SPECIALS.get(c, c) for c in text)


def math_number(text: str) -> str:
    """A cell's number in math mode: ``-5/4`` as ``-\\frac{5}{4}``, ``1.2e-05`` as
    ``1.2 \\cdot 10^{-5}``, anything else as it is (without the ``$``)."""
    match = NUMBER.fullmatch(text)
    if match is None:
        return text
    sign, p, q, mantissa, exponent = match.groups()
    if p is not None:
        return rf"{sign}\frac{{{p}}}{{{q}}}"
    return rf"{mantissa} \cdot 10^{{{int(exponent)}}}"


def _player_title(player: PlayerStep) -> str:
    drawn = f", drew {escape(player.actions[player.action])}" if player.action is not None else ""
    fixed = " (fixed)" if not player.learning else ""
    return rf"\textbf{{{escape(player.name)}}}{fixed}: $u^t = {math_number(fraction(player.value))}${drawn}"


def step_tabular(step: IterationStep) -> str:
    """Iteration ``step.iteration`` as one booktabs tabular, a block per player."""
    width = len(TABLE_COLUMNS)
    lines = [
        f"% iteration {step.iteration} of {step.algorithm} ({step.play} play), rmviz",
        r"\begin{tabular}{l" + "r" * (width - 1) + "}",
        r"\toprule",
        " & ".join(HEADERS[name] for name in table_headers(step.players[0])) + r" \\",
    ]
    for player in step.players:
        lines.append(r"\midrule")
        lines.append(rf"\multicolumn{{{width}}}{{l}}{{{_player_title(player)}}} \\")
        for name, *cells in table_rows(player):
            lines.append(" & ".join([escape(name), *(f"${math_number(c)}$" for c in cells)]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"
