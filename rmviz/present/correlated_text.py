"""The CE checker as text (``rmviz equilibria``; the matrix window's *Equilibria* tab takes
its rows): the joint distribution's support, every CE and CCE constraint with its sum written
out, its value, slack and verdict, the gaps, payoffs and welfare, and the best CE and CCE.
The constraints and their sources are :mod:`rmviz.solvers.matrix.correlated`'s; its exact
Fractions are written as fractions (:func:`~rmviz.solvers.rational.format_number`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rmviz.solvers.rational import format_number

if TYPE_CHECKING:
    from rmviz.games.normal_form import NormalFormGame
    from rmviz.solvers.exact import ZeroSumSolution
    from rmviz.solvers.matrix.correlated import Constraint, CorrelatedOptimum, JointCheck, Kind

# the two rules, as the window's Equilibria tab states them under every check
RULES_HTML = (
    "<span style='color:#555555'>CE (Aumann 1974): for every player i, advised b and deviation a', "
    "&sum;<sub>s: s<sub>i</sub> = b</sub> p(s)·(u<sub>i</sub>(a', s<sub>-i</sub>) - "
    "u<sub>i</sub>(s)) &le; 0. "
    "CCE (Hannan 1957): &sum;<sub>s</sub> ... &le; 0 for every i and a'. "
    "Gap: the largest sum, 0 when all hold; slack = -sum.</span>"
)

CE_RULE = "sum over s with s_i = b of p(s) (u_i(a', s_-i) - u_i(s)) <= 0"
CCE_RULE = "sum over all s of p(s) (u_i(a', s_-i) - u_i(s)) <= 0"


def verdict(constraint: Constraint) -> str:
    """``holds``, ``binds`` (exactly 0) or ``VIOLATED``."""
    if constraint.value == 0:
        return "binds"
    return "holds" if constraint.holds else "VIOLATED"


def constraint_rows(check: JointCheck, kind: Kind, times: str = "*") -> list[tuple[str, ...]]:
    """One row per constraint: player, recommended action (CE) or ``any`` (CCE), deviation,
    the sum written out (``times`` between a probability and its gain), its value, the slack
    and the verdict."""
    game = check.game
    constraints = check.ce_constraints if kind == "CE" else check.cce_constraints
    return [
        (
            game.player_names[c.player],
            game.action_names[c.player][c.recommended] if c.recommended is not None else "any",
            game.action_names[c.player][c.deviation],
            check.expansion(c, times=times),
            format_number(c.value),
            format_number(c.slack),
            verdict(c),
        )
        for c in constraints
    ]


def _table(rows: Sequence[tuple[str, ...]], header: tuple[str, ...]) -> list[str]:
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
    return [
        "  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]


def joint_lines(check: JointCheck) -> list[str]:
    """The joint's non-zero entries, one per line, with each profile's payoffs."""
    from rmviz.solvers.matrix.correlated import profile_label  # the LP module: SciPy on first use

    game = check.game
    support = [tuple(int(a) for a in s) for s in check.support]
    rows = [
        (
            profile_label(game, s),
            format_number(check.joint[s]),
            ", ".join(format_number(check.table[(i, *s)]) for i in range(game.n_players)),
        )
        for s in support
    ]
    zeros = check.joint.size - len(support)
    lines = _table(rows, ("profile s", "p(s)", "payoffs u(s)"))
    if zeros:
        lines.append(f"  (the other {zeros} profiles have probability 0)")
    return lines


def format_check(check: JointCheck) -> str:
    """Every constraint with its numbers, the gaps, payoffs and welfare, as text."""
    game = check.game
    arithmetic = (
        "exact rational arithmetic" if check.exact else "floating point (game too large for exact arithmetic)"
    )
    lines = [f"Joint distribution p ({arithmetic})"]
    if check.total != 1:
        lines.append(f"  the entries summed to {format_number(check.total)}; each was divided by it")
    lines += joint_lines(check)
    header = ("player i", "recommended b", "deviation a'", "sum", "value", "slack", "status")
    rules: tuple[tuple[Kind, str], ...] = (("CE", CE_RULE), ("CCE", CCE_RULE))
    for kind, rule in rules:
        lines += ["", f"{kind} constraints: {rule}"]
        lines += _table(constraint_rows(check, kind), header)
    lines.append("")
    ce = "a correlated equilibrium" if check.is_ce else "not a correlated equilibrium"
    cce = "a coarse correlated equilibrium" if check.is_cce else "not a coarse correlated equilibrium"
    lines.append(f"CE gap  {format_number(check.ce_gap)}: {ce}")
    lines.append(f"CCE gap {format_number(check.cce_gap)}: {cce}")
    payoffs = ", ".join(
        f"{name} {format_number(u)}" for name, u in zip(game.player_names, check.payoffs, strict=True)
    )
    lines.append(f"expected payoffs: {payoffs}; welfare {format_number(check.welfare)}")
    return "\n".join(lines)


def format_optimum(optimum: CorrelatedOptimum) -> str:
    """The best CE or CCE: its welfare, its support, whether it is verified exactly."""
    how = (
        "exact: every constraint holds in fractions"
        if optimum.exact
        else "floats from HiGHS: constraints hold to its tolerance, about 1e-7 of the payoffs"
    )
    welfare = format_number(optimum.welfare)
    lines = [f"Best {optimum.kind} (max welfare, LP): welfare {welfare}  ({how}; {optimum.seconds:.2f} s)"]
    return "\n".join(lines + joint_lines(optimum.check))


def check_html(check: JointCheck) -> str:
    """The Equilibria tab's summary of a check: both gaps and verdicts, the expected payoffs
    and welfare, the arithmetic used, then :data:`RULES_HTML`."""
    arithmetic = "exact fractions" if check.exact else "floating point (too large for exact arithmetic)"
    ce = "a correlated equilibrium" if check.is_ce else "<b>not</b> a correlated equilibrium"
    cce = "a coarse correlated equilibrium" if check.is_cce else "<b>not</b> a coarse correlated equilibrium"
    payoffs = ", ".join(
        f"{name} {format_number(u)}" for name, u in zip(check.game.player_names, check.payoffs, strict=True)
    )
    lines = [
        f"<b>CE gap {format_number(check.ce_gap)}</b>: {ce}; "
        f"<b>CCE gap {format_number(check.cce_gap)}</b>: {cce}.",
        f"Expected payoffs {payoffs}; welfare <b>{format_number(check.welfare)}</b> ({arithmetic}).",
    ]
    if abs(float(check.total) - 1) > 1e-12:
        lines.append(f"The entries sum to {format_number(check.total)}: p(s) is each entry divided by it.")
    return "<br>".join(lines) + "<br>" + RULES_HTML


def format_zero_sum(game: NormalFormGame, solution: ZeroSumSolution) -> str:
    """A two-player zero-sum game's value and optimal strategies from the LP (``rmviz
    equilibria``), in fractions when the solution is an exact saddle point."""
    values = ", ".join(
        f"{name} {format_number(v)}" for name, v in zip(game.player_names, solution.values, strict=True)
    )
    how = "exact: a saddle point in fractions" if solution.exact else "floats from HiGHS"
    lines = [f"Zero-sum game: value {values}  (LP, {how})"]
    strategies = solution.exact_strategies or solution.strategies
    for name, actions, strategy in zip(game.player_names, game.action_names, strategies, strict=True):
        mixed = ", ".join(f"{a} {format_number(p)}" for a, p in zip(actions, strategy, strict=True) if p)
        lines.append(f"  {name} plays {mixed}")
    return "\n".join(lines)
