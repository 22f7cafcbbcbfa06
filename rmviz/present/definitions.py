"""What a figure shows, said once for the exported figures (matplotlib) and the live plots
(pyqtgraph): the colours of players, actions and metrics, the curves' labels and styles, the
panels' titles and axis titles, so what is exported is what was watched.

Colours are Okabe & Ito's palette (2008), distinguishable with every common form of colour
blindness and in greyscale print by line style (the CCE gap is dashed, the regret bound
dotted). Labels come twice where mathematics reads better typeset: ``label`` is plain text
(the live plots), ``tex`` matplotlib mathtext (exported figures).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rmviz.solvers.family import Family
    from rmviz.solvers.registry import FamilyTable

# Okabe & Ito: blue, vermillion, bluish green, reddish purple, orange, sky blue, black, yellow
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
# actions: the same palette in an order that keeps neighbours apart, then Tol's wine, olive, grey
ACTION_COLOURS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#000000",
    "#882255",
    "#999933",
    "#888888",
)
CHANCE_COLOUR, TERMINAL_COLOUR, EQUILIBRIUM_COLOUR = "#9E9E9E", "#616161", "#F0E442"
TEXT_COLOUR, FRAME_COLOUR, WELFARE_COLOUR = "#222222", "#888888", "#56B4E9"
CAPTION_SEPARATOR = "  ·  "  # between a caption's parts (game, algorithm, T, play mode)
JOINT_COLOURMAP = "viridis"  # perceptually uniform and colour-blind safe

# the convergence panels of a matrix run; every figure name (both families, and the TikZ
# drawing of the game); the registry (rmviz.figures.registry) has one builder for each
PANELS = ("strategies", "gaps", "regrets", "welfare")
FIGURE_NAMES = (*PANELS, "simplex", "joint", "dashboard", "compare", "tree", "tikz")


NAME_CHARS = 16
"""The most characters of an action's name as plots, choosers and figures draw it
(:func:`shown_names`); the editor and the choosers' tooltips keep the whole name."""


@cache
def shown_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """A player's action names as drawn: runs of white space made one space, and a name of
    more than :data:`NAME_CHARS` characters cut in the middle (``strategy…ve name``: OpenSpiel's
    normal-form strategies ran to 110 characters, and a
    window showing them whole was 5,011 pixels wide); where cutting makes two names alike,
    each cut name starts with its number (``12: ...``)."""
    tail = (NAME_CHARS - 1) // 2
    head = NAME_CHARS - 1 - tail
    plain = [" ".join(name.split()) for name in names]
    cut = [n if len(n) <= NAME_CHARS else f"{n[:head].rstrip()}…{n[-tail:].lstrip()}" for n in plain]
    if len(set(cut)) < len(cut):
        cut = [c if c == n else f"{k + 1}: {c}" for k, (c, n) in enumerate(zip(cut, plain, strict=True))]
    return tuple(cut)


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def action_colour(action: int) -> str:
    return ACTION_COLOURS[action % len(ACTION_COLOURS)]


@dataclass(frozen=True)
class Curve:
    """How one metric is drawn: plain and mathtext label, colour, ``dash`` (``"solid"``,
    ``"dashed"`` or ``"dotted"``), a width relative to the style's line width, and what the
    number is (``meaning``: the live legend's tooltip)."""

    label: str
    tex: str
    colour: str
    dash: str = "solid"
    width: float = 1.0
    meaning: str = ""


# In a two-player zero-sum game, with the average profile the joint's marginals, NashConv is
# the sum of the two players' CCE deviation gains (u_1 + u_2 = 0), and the CCE gap their
# maximum: exploitability (NashConv / 2, their mean) <= CCE gap <= NashConv, equal where both
# players gain as much by deviating (symmetric games such as RPS), apart elsewhere.
ZERO_SUM_NOTE = " (≤ CCE gap in two-player zero-sum)"

# The distances to equilibrium of each family, in drawing order: exploitability first and
# widest, so the dashed CCE gap drawn over it leaves it visible where the two are equal.
MATRIX_GAPS = {
    "exploitability": Curve(
        "exploitability",
        r"exploitability $\epsilon$",
        "#0072B2",
        width=1.6,
        meaning="NashConv / n of the average profile: the mean over the n players of what a best "
        "response to the others' average strategies gains (OpenSpiel's convention)",
    ),
    "cce_gap": Curve(
        "CCE gap",
        "CCE gap",
        "#E69F00",
        "dashed",
        meaning="the most one player gains by committing to another pure strategy before play, "
        "against the empirical joint distribution of play (average external regret; Zhang, Lerer "
        "& Brown 2022)",
    ),
    "ce_gap": Curve(
        "CE gap",
        "CE gap",
        "#009E73",
        meaning="the most one player gains by one swap, playing a' whenever the joint told it b: the "
        "largest of the correlated-equilibrium constraints, taken pair by pair (Hart & Mas-Colell 2000; "
        "average internal regret, Zhang, Lerer & Brown 2022). A CCE deviation may add up to k such "
        "swaps, so this can lie below the CCE gap",
    ),
    "eps_bound": Curve(
        "2 max R/T",
        r"regret bound $2\,\mathrm{max}_i\,R_i^T/T$",
        "#000000",
        "dotted",
        meaning="twice the largest average external regret of any player and action; in two-player "
        "zero-sum games it bounds NashConv",
    ),
}
# A tree's device (the weighted mixture of the profiles played: solvers/tree/correlation.py)
# has three gaps, nested CCE <= EFCCE <= EFCE, often two of them equal: drawn from the largest
# down, each over a wider one, so equal curves both show. The EFCE gap keeps the CE gap's
# colour (the notion it refines) and the CCE gap the matrix games' dashed orange, on top.
TREE_GAPS = {
    "exploitability": MATRIX_GAPS["exploitability"],
    "efce_gap": Curve(
        "EFCE gap",
        "EFCE gap",
        "#009E73",
        width=0.8,
        meaning="the most one player gains by leaving the recommendations at an information set "
        "after seeing the move recommended there, then playing its best below (von Stengel & "
        "Forges 2008): at least the EFCCE gap",
    ),
    "efcce_gap": Curve(
        "EFCCE gap",
        "EFCCE gap",
        "#CC79A7",
        width=1.3,
        meaning="the most one player gains by leaving the recommendations at an information set "
        "before seeing the move recommended there (Farina, Bianchi & Sandholm 2020): at least "
        "the CCE gap",
    ),
    "cce_gap": MATRIX_GAPS["cce_gap"],
    "eps_bound": Curve(
        "sum R+/T",
        r"regret bound $\sum_I R^{T,+}(I)/T$",
        "#000000",
        "dotted",
        meaning="the positive average counterfactual regrets summed over every information set; "
        "in two-player zero-sum games it bounds NashConv (Zinkevich et al. 2007, Theorem 3)",
    ),
}
REFERENCE = Curve(
    "1/sqrt(T)",
    r"$\propto 1/\sqrt{T}$",
    "#999999",
    "dotted",
    width=0.8,
    meaning="a line falling as 1/sqrt(T), the worst-case rate of regret matching and CFR, for scale",
)


@cache
def _gap_table() -> FamilyTable[dict[str, Curve]]:
    from rmviz.solvers.registry import MATRIX, TREE, FamilyTable

    return FamilyTable({MATRIX: MATRIX_GAPS, TREE: TREE_GAPS})


def __getattr__(name: str) -> FamilyTable[dict[str, Curve]]:
    """``GAP_CURVES``: each family's gap curves, keyed by the :class:`~rmviz.solvers.family.Family`
    (a :class:`~rmviz.solvers.registry.FamilyTable`), built on first use so that importing a
    colour from here loads no solver."""
    if name != "GAP_CURVES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _gap_table()


def metric_axis(metric: str) -> str:
    """A metric column's axis title with its unit (a sweep figure's): every metric is in the
    game's payoff units but the potential, a sum of squared regrets."""
    unit = "payoff units²" if metric.removeprefix("last_") == "potential" else "payoff units"
    return f"{metric.replace('_', ' ')} ({unit})"


def gap_curves(family: Family | str, zero_sum: bool) -> dict[str, Curve]:
    """The gap curves of ``family`` (or the family it names); in a two-player zero-sum
    matrix game the exploitability's label says it never exceeds the CCE gap
    (:data:`ZERO_SUM_NOTE`; both are drawn, solid under dashed, so where they are equal both
    show)."""
    curves = dict(_gap_table()[family])
    if zero_sum and "cce_gap" in curves:
        first = curves["exploitability"]
        curves["exploitability"] = replace(
            first, label=first.label + ZERO_SUM_NOTE, tex=first.tex + ZERO_SUM_NOTE
        )
    return curves


@dataclass(frozen=True)
class Panel:
    """A plot's title and axis titles (plain and mathtext)."""

    title: str
    y: str
    y_tex: str
    x: str = "iteration T"
    x_tex: str = r"iteration $T$"


PANEL_TEXT = {
    "strategies": Panel("{player}: average (solid), current (faint)", "probability", "probability"),
    "gaps": Panel("distance to equilibrium", "gap (payoff units)", "gap (payoff units)"),
    "regrets": Panel(
        "average regret per action", "regret / T (payoff units)", r"$R_i^T(a)/T$ (payoff units)"
    ),
    "welfare": Panel(
        "social welfare of the empirical play",
        "welfare (payoff units)",
        "social welfare (payoff units)",
    ),
    "infoset": Panel("average strategy at {infoset}", "probability", r"$\bar\sigma^T(I, a)$"),
    "compare": Panel("{metric}", "gap (payoff units)", "gap (payoff units)"),
}
